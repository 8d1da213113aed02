"""The operator's own render unit-test rows (reference revision 2a6da14c): the index, the adapters and the
data in step, and the coverage goal with the counts docs/upstream-render-tests.md states.

The rows are reference data in ``../shared/reference/dynamo/upstream-render-tests/`` (read by
``upstream/_support.py``; skipped without ../shared). Each ported test function has an adapter that calls
our counterpart of the Go function under test and makes the assertions the Go loop makes; the
``test_upstream_<area>.py`` modules hold the adapters of an area (and run its rows), with more in
``upstream/`` (``graph.py``, ``pcs.py``, ``controller.py``, ``gms.py``). ``upstream/state.py`` is the
project's own record: the functions out of scope (with the reason) and the rows expected to fail (strict
xfail, with the operator behaviour we lack); ``test_index_matches_cases`` keeps it, the adapters and the data
in step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import (
    test_upstream_backends,
    test_upstream_controller,
    test_upstream_graph,
    test_upstream_hash,
    test_upstream_pcs,
    test_upstream_pod_spec,
)
from ._upstream_rows import CASES, all_params
from .upstream._support import ADAPTERS, LOCAL_ROWS, load_index
from .upstream.state import OUT_OF_SCOPE, XFAIL

pytestmark = pytest.mark.shared

INDEX = load_index()
#: every row the area modules run (``all_params`` fails if an adapter's module is in no area)
PARAMS = all_params(test_upstream_backends, test_upstream_controller, test_upstream_graph, test_upstream_hash,
                    test_upstream_pcs, test_upstream_pod_spec)


# ------------------------------------------------------------------------------------------ tests


def expected_rows(entry: dict[str, Any]) -> set[str]:
    """The rows of an index entry: the table rows or subtests the data holds, else the subtests upstream
    names, else the function itself (row ``""``)."""
    return set(entry["rows"]) or set(entry.get("upstream_rows") or [""])


def row_count(entry: dict[str, Any]) -> int:
    """Upstream's unit: a table row or subtest; a function without either is one row, however many
    comparisons its transcription splits it into (``"unit": "function"``)."""
    if entry.get("unit") == "function":
        return 1
    return len(entry["rows"]) or max(1, len(entry.get("upstream_rows") or []))


def test_index_matches_cases() -> None:
    """Every function of the files in scope has exactly one of an adapter or an out-of-scope reason; a
    ported function runs exactly the rows the index names (the data's rows, or its hand-ported subtests);
    the data and the index agree; every expected failure names a row that runs."""
    assert INDEX, "INDEX.json missing from the reference data"
    data_rows: dict[str, set[str]] = {}
    for t, r, _ in CASES:
        data_rows.setdefault(t, set()).add(r)
    listed: set[str] = set()
    for path, funcs in INDEX.items():
        assert path.endswith("_test.go"), path
        for name, entry in funcs.items():
            assert name not in listed, f"{name} listed twice"
            listed.add(name)
            assert data_rows.get(name, set()) == set(entry["rows"]), f"{name}: index rows differ from the data"
            ported, skipped = name in ADAPTERS, name in OUT_OF_SCOPE
            assert ported != skipped, f"{name}: needs an adapter or an out-of-scope reason, not both or neither"
            if skipped:
                assert OUT_OF_SCOPE[name], name
                continue
            local = {r for r, _ in LOCAL_ROWS.get(name, [])}
            assert not (local and data_rows.get(name)), f"{name}: rows both in the data and hand-ported"
            assert (data_rows.get(name, set()) | local) == expected_rows(entry), f"{name}: rows run differ from the index"
    assert set(ADAPTERS) <= listed, sorted(set(ADAPTERS) - listed)
    assert set(OUT_OF_SCOPE) <= listed, sorted(set(OUT_OF_SCOPE) - listed)
    assert set(data_rows) <= listed, sorted(set(data_rows) - listed)
    run = {p.id for p in PARAMS}
    assert set(XFAIL) <= run, sorted(set(XFAIL) - run)
    assert all(XFAIL.values())


def summary() -> dict[str, int]:
    """Counts for the report: functions, rows, out-of-scope, in-scope, ported and strict-xfail rows."""
    out = {"functions": 0, "rows": 0, "in_scope_rows": 0, "ported_rows": 0, "failing_rows": 0,
           "pending_rows": 0, "out_of_scope_rows": 0}
    for funcs in INDEX.values():
        for name, entry in funcs.items():
            n = row_count(entry)
            out["functions"] += 1
            out["rows"] += n
            if name in OUT_OF_SCOPE:
                out["out_of_scope_rows"] += n
                continue
            out["in_scope_rows"] += n
            if name in ADAPTERS:
                out["ported_rows"] += n
                failing = [why for key, why in XFAIL.items() if key.startswith(name + "/")]
                out["failing_rows"] += min(n, len(failing))
                out["pending_rows"] += min(n, sum(why.startswith("pending:") for why in failing))
    return out


def counts_row(s: dict[str, int]) -> str:
    """The counts line of docs/upstream-render-tests.md."""
    passing = s["ported_rows"] - s["failing_rows"]
    return (f"| {s['functions']} | {s['rows']} | {s['out_of_scope_rows']} | {s['in_scope_rows']} | {s['ported_rows']} | "
            f"{passing} ({100 * passing / s['in_scope_rows']:.1f} %) | {s['failing_rows']} | "
            f"{s['in_scope_rows'] - s['ported_rows']} |")


def test_coverage_goal_and_documented_counts() -> None:
    """Every in-scope upstream row is ported, at least 80 % of them pass; docs/upstream-render-tests.md
    states the current counts."""
    s = summary()
    assert s["ported_rows"] == s["in_scope_rows"], s
    assert (s["ported_rows"] - s["failing_rows"]) / s["in_scope_rows"] >= 0.8, s
    doc = (Path(__file__).parents[2] / "docs" / "upstream-render-tests.md").read_text(encoding="utf-8")
    assert counts_row(s) in doc, counts_row(s)
