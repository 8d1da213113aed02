"""Write docs/upstream-render-tests.md from the reference rows' INDEX.json and tests/render/upstream/state.py
(dev tool; needs ../shared).

    python tools/upstream_render_doc.py
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.render.test_upstream_index import ADAPTERS, INDEX, counts_row, row_count, summary  # noqa: E402
from tests.render.upstream.state import OUT_OF_SCOPE, XFAIL  # noqa: E402

INTRO = """\
# Upstream render unit tests as data

The operator's own render unit tests at the reference revision (ai-dynamo/dynamo 2a6da14c) run against our
render code. The rows are reference data, outside the project: `../shared/reference/dynamo/upstream-render-tests/`
(the tests that read them are skipped without ../shared). The project holds the adapters and its own record:

- `tests/render/test_upstream_<area>.py` run the rows, one module per area (`backends`, `graph`, `hash`,
  `pod_spec`, `pcs`, `controller`); the adapters (one per upstream test function: it calls our counterpart of
  the Go function under test and makes the assertions of the Go loop) are in those modules and in
  `tests/render/upstream/` (`graph.py`, `pcs.py`, `controller.py`, `gms.py`; shared helpers in `_support.py`;
  `tests/render/_upstream_rows.py` picks an area's rows). An adapter for a test whose rows the data lacks builds
  the inputs itself (`@hand_ported`, one row per subtest).
- `tests/render/test_upstream_index.py` joins the areas and holds the index and coverage checks.
- `tests/render/upstream/state.py`: the functions out of scope (with the reason) and the rows expected to fail
  (`xfail(strict=True)`, with the operator behaviour we lack; `pending: <id>` waits on another change).
- `test_index_matches_cases` checks that every function of the files below has an adapter or an out-of-scope
  reason, that a ported function runs exactly the rows the index names, that the data and the index agree and
  that every expected failure names a row that runs; `test_coverage_goal_and_documented_counts` that every
  in-scope row is ported and that this page states the current counts.

Regenerate this page with `python tools/upstream_render_doc.py`. A row is a table row or subtest; a function with
neither is one row.

## Format of the reference rows

- `<file>.json` per upstream test file (`graph`, `backend_vllm`, … `dynamocomponentdeployment_controller`):
  `{"source": "<repo>@<rev> <path>", "cases": [{"test": <function>, "row": <row name>, "data": <row>}]}`. The row
  name is the subtest name as Go's test runner writes it (spaces as `_`). `data` is the table row as JSON:
  Kubernetes and Dynamo API types in their own JSON encoding (manifest field names), test-local structs field by
  field under their Go names, interface values as `{"$type": <Go type>, "$value": …}`, functions as `"$func"`,
  channels as `"$chan"`.
- `<file>_manual.json`: tests without a table, transcribed into the same form (`row` is empty or names the
  comparison).
- `INDEX.json`: Go test file → function → `{"rows": [the rows the case files hold], "upstream_rows": [subtest names
  when the case files hold none], "unit": "function" (counted as one row)}`; its `status`/`reason`/`failing` keys
  are the project's state when the data moved out, superseded by `tests/render/upstream/state.py`.
- `python tools/upstream_render_tests.py MIRROR REV` lists the test functions and row names of the files below from
  a git mirror of upstream (to compare with `INDEX.json` after a revision change).

Files: `deploy/operator/internal/dynamo/{graph,backend_vllm,backend_sglang,backend_trtllm,component_planner,grove,hash}_test.go`,
`deploy/operator/internal/gms/gms_test.go`, `deploy/operator/internal/controller/dynamocomponentdeployment_controller_test.go`.
"""


def main() -> None:
    if not INDEX:
        raise SystemExit("../shared/reference/dynamo/upstream-render-tests/INDEX.json is not available")
    s = summary()
    out = [INTRO, "## Counts\n",
           "| functions | rows | out of scope | in scope | ported | passing | failing (strict xfail) | not ported |",
           "|---|---|---|---|---|---|---|---|",
           counts_row(s) + "\n",
           "Per file:\n",
           "| file | functions | rows | ported | out of scope | failing |",
           "|---|---|---|---|---|---|"]
    for path, funcs in INDEX.items():
        entries = list(funcs.items())
        out.append(f"| {path.rsplit('/', 1)[1]} | {len(entries)} | {sum(row_count(e) for _, e in entries)} | "
                   f"{sum(row_count(e) for n, e in entries if n in ADAPTERS)} | "
                   f"{sum(row_count(e) for n, e in entries if n in OUT_OF_SCOPE)} | "
                   f"{sum(1 for key in XFAIL for n, _ in entries if key.startswith(n + '/'))} |")
    out.append("\n## Failing rows (strict xfail)\n")
    by_why: dict[str, list[str]] = collections.defaultdict(list)
    for key, why in XFAIL.items():
        by_why[why].append(key.rstrip("/"))
    for why, keys in by_why.items():
        out.append(f"- {why}: " + ", ".join(f"`{k}`" for k in keys))
    out.append("\n## Out of scope (reason, functions)\n")
    by_reason: dict[str, list[str]] = collections.defaultdict(list)
    for funcs in INDEX.values():
        for name in funcs:
            if name in OUT_OF_SCOPE:
                by_reason[OUT_OF_SCOPE[name]].append(name)
    for reason, names in by_reason.items():
        out.append(f"- {reason}: " + ", ".join(f"`{n}`" for n in names))
    missing = [n for funcs in INDEX.values() for n in funcs if n not in ADAPTERS and n not in OUT_OF_SCOPE]
    out.append("\n## Not ported yet (in scope)\n")
    out.append(", ".join(f"`{n}`" for n in missing) if missing else "None.")
    (ROOT / "docs" / "upstream-render-tests.md").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
