"""``copy.deepcopy`` for the JSON-like data every stage passes around, without its generic dispatch.

Same result as :func:`copy.deepcopy` (shared and cyclic containers stay shared and cyclic in the
copy, dict and list subclasses and every other type are handed to :func:`copy.deepcopy` with the
same memo). A small mapping of strings to immutable values (an env var, a label map) is copied by
``dict`` itself. Any other tree of plain ``dict``, ``list``, ``tuple``, ``str``, ``int``, ``float``,
``bool`` and ``None`` (what the loader builds) is copied by :mod:`marshal` (written and read back in
C: about 1.6 times faster than the walk below on manifests; marshal keeps shared and cyclic
containers as they are, through its references). Anything marshal does not write (a subclass, any
other type, a tree nested deeper than its limit) is copied by the walk: plain ``dict`` and ``list``
rebuilt here, ``str``/``int``/``float``/``bool``/``None`` returned as they are (immutable). The walk
is about five times faster than :func:`copy.deepcopy` (``tests/test_perf_paths.py`` compares all
three ways; docs/decisions.md, performance).
"""

from __future__ import annotations

import marshal as _marshal

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_ATOMIC = frozenset((str, int, float, bool, type(None)))


def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    t = type(value)
    if t in _ATOMIC:
        return value
    if memo is None:
        if t is dict and len(value) <= 8:  # a small flat mapping (an env var, a label map...): one C copy
            for k, v in value.items():
                if type(k) is not str or type(v) not in _ATOMIC:
                    break
            else:
                return dict(value)
        try:
            return _marshal.loads(_marshal.dumps(value))
        except ValueError:  # "unmarshallable object", "object too deeply nested to marshal"
            memo = {}
    return _copy_any(value, t, memo)


def walk_copy(value: Any) -> Any:
    """:func:`deepcopy` by the walk alone (what a tree marshal does not write gets; for the tests)."""
    t = type(value)
    return value if t in _ATOMIC else _copy_any(value, t, {})


def _copy_any(value: Any, t: type, memo: dict[int, Any]) -> Any:
    if t is dict:
        found = memo.get(id(value))
        if found is not None:
            return found
        out: dict[Any, Any] = {}
        memo[id(value)] = out
        for k, v in value.items():
            tv = type(v)
            out[k if type(k) is str else _generic(k, memo)] = v if tv in _ATOMIC else _copy_any(v, tv, memo)
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
    return _generic(value, memo)


def _generic(value: Any, memo: dict[int, Any]) -> Any:
    """:func:`copy.deepcopy` with the walk's memo (:mod:`copy` imported here: it pulls in :mod:`weakref`,
    ~6 M instructions of a cold start that copies only plain trees)."""
    import copy

    return copy.deepcopy(value, memo)
