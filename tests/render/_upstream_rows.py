"""The upstream render test rows a ``test_upstream_<area>.py`` module runs, as pytest parameters.

A module runs the rows of the test functions whose adapter it defines or one of the ``upstream/`` adapter
modules it names; ``upstream/state.py``'s expected failures are strict xfails. ``all_params`` joins the areas for
``test_upstream_index.py`` and fails when an adapter's module belongs to no area (its rows would not run).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from .upstream._support import ADAPTERS, LOCAL_ROWS, load_cases
from .upstream.state import XFAIL

CASES = load_cases()


def row_params(*modules: str) -> list[Any]:
    """The rows of the functions whose adapter is defined in one of ``modules`` (module names)."""
    mine = {t for t, fn in ADAPTERS.items() if fn.__module__ in modules}
    rows = [(t, r, d) for t, r, d in CASES if t in mine]
    rows += [(t, r, d) for t, local in LOCAL_ROWS.items() if t in mine for r, d in local]
    out = []
    for t, r, d in rows:
        key = f"{t}/{r}"
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[key])] if key in XFAIL else []
        out.append(pytest.param(t, r, d, id=key, marks=marks))
    return out


def all_params(*areas: ModuleType) -> list[Any]:
    """The rows of every area module (each sets ``PARAMS = row_params(__name__, ...)``); fails when a function
    with rows has an adapter that no area runs."""
    params = [p for area in areas for p in area.PARAMS]
    run = {p.values[0] for p in params}
    with_rows = {t for t, _, _ in CASES} | set(LOCAL_ROWS)
    missing = sorted(t for t in ADAPTERS if t in with_rows and t not in run)
    assert not missing, f"adapters whose rows no test_upstream_<area>.py module runs: {missing}"
    return params
