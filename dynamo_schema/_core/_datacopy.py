"""``copy.deepcopy`` for the JSON-like data every stage passes around, without its generic dispatch.

Same result as :func:`copy.deepcopy` (shared and cyclic containers stay shared and cyclic in the
copy, dict and list subclasses and every other type are handed to :func:`copy.deepcopy` with the
same memo): plain ``dict`` and ``list`` are rebuilt here, ``str``/``int``/``float``/``bool``/``None``
are immutable and returned as they are. About five times faster on manifests
(``tests/test_datacopy.py`` compares both; docs/decisions.md, performance).
"""

from __future__ import annotations

import copy as _copy
from typing import Any

_ATOMIC = frozenset((str, int, float, bool, type(None)))


def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    t = type(value)
    if t in _ATOMIC:
        return value
    if memo is None:
        memo = {}
    return _copy_any(value, t, memo)


def _copy_any(value: Any, t: type, memo: dict[int, Any]) -> Any:
    if t is dict:
        found = memo.get(id(value))
        if found is not None:
            return found
        out: dict[Any, Any] = {}
        memo[id(value)] = out
        for k, v in value.items():
            tv = type(v)
            out[k if type(k) is str else _copy.deepcopy(k, memo)] = v if tv in _ATOMIC else _copy_any(v, tv, memo)
        return out
    if t is list:
        found = memo.get(id(value))
        if found is not None:
            return found
        items: list[Any] = []
        memo[id(value)] = items
        append = items.append
        for v in value:
            tv = type(v)
            append(v if tv in _ATOMIC else _copy_any(v, tv, memo))
        return items
    if t in _ATOMIC:
        return value
    return _copy.deepcopy(value, memo)
