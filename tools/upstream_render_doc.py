"""Write docs/upstream-render-tests.md from tests/render/upstream_cases/INDEX.json (dev tool).

    python tools/upstream_render_doc.py
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.render.test_upstream_cases import INDEX, summary  # noqa: E402


def _rows(entry: dict) -> int:
    if entry.get("unit") == "function":
        return 1
    return len(entry["rows"]) or max(1, len(entry.get("upstream_rows") or []))


def main() -> None:
    s = summary()
    passing = s["ported_rows"] - s["failing_rows"]
    out = [
        "# Upstream render unit tests as data\n",
        "The operator's own render unit tests at the reference revision (ai-dynamo/dynamo 2a6da14c) are ported as",
        "data: `tests/render/upstream_cases/*.json` (input and the expected fields exactly as the Go tables state them,",
        "extracted by running upstream's tests with one dump line per table loop - `tools/upstream_dump/README.md`;",
        "`*_manual.json` are hand-ported tests that have no table), `tests/render/test_upstream_cases.py` (one adapter per",
        "test function, making the Go loop's assertions against our render code) and `upstream_cases/INDEX.json` (every test",
        "function of the files below: ported / out of scope with the reason / not ported; `test_index_matches_cases`",
        "keeps the index and the case files in step). A row is a table row or subtest; a function with neither is one row.",
        "Regenerate this page with `python tools/upstream_render_doc.py`.\n",
        "Files: `deploy/operator/internal/dynamo/{graph,backend_vllm,backend_sglang,backend_trtllm,component_planner,"
        "grove,hash}_test.go`,",
        "`deploy/operator/internal/gms/gms_test.go`, `deploy/operator/internal/controller/"
        "dynamocomponentdeployment_controller_test.go`.\n",
        "## Counts\n",
        "| functions | rows | out of scope | in scope | ported | passing | failing (strict xfail) | not ported |",
        "|---|---|---|---|---|---|---|---|",
        f"| {s['functions']} | {s['rows']} | {s['out_of_scope_rows']} | {s['in_scope_rows']} | {s['ported_rows']} | "
        f"{passing} ({100 * passing / s['in_scope_rows']:.1f} %) | {s['failing_rows']} | "
        f"{s['in_scope_rows'] - s['ported_rows']} |\n",
        "Per file:\n",
        "| file | functions | rows | ported | out of scope | failing |",
        "|---|---|---|---|---|---|",
    ]
    for path, funcs in INDEX.items():
        entries = list(funcs.values())
        out.append(f"| {path.rsplit('/', 1)[1]} | {len(entries)} | {sum(_rows(e) for e in entries)} | "
                   f"{sum(_rows(e) for e in entries if e['status'] == 'ported')} | "
                   f"{sum(_rows(e) for e in entries if e['status'] == 'out_of_scope')} | "
                   f"{sum(len(e.get('failing') or {}) for e in entries)} |")
    out.append("\n## Failing rows\n")
    for funcs in INDEX.values():
        for name, e in funcs.items():
            for row, why in (e.get("failing") or {}).items():
                out.append(f"- `{name}/{row}`: {why}")
    out.append("\n## Out of scope (reason, functions)\n")
    by_reason: dict[str, list[str]] = collections.defaultdict(list)
    for funcs in INDEX.values():
        for name, e in funcs.items():
            if e["status"] == "out_of_scope":
                by_reason[e["reason"]].append(name)
    for reason, names in by_reason.items():
        out.append(f"- {reason}: " + ", ".join(f"`{n}`" for n in names))
    out.append("\n## Not ported yet (in scope)\n")
    out.append(", ".join(f"`{name}`" for funcs in INDEX.values() for name, e in funcs.items()
                         if e["status"] == "not_ported"))
    (ROOT / "docs" / "upstream-render-tests.md").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
