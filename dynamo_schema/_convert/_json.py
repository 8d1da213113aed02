"""Helpers on plain JSON values shared by every conversion step (Go zero values, copies)."""

from __future__ import annotations

from .._core._datacopy import deepcopy

# A manifest is plain JSON data as the loader returns it (dict keys in source order). Its leaves are
# not validated before conversion, so the values of an object or array are ``Any``: every step
# checks the shape it reads (``isinstance``), as the operator's conversion of unstructured data does.
TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, TypeVar
    JSONObject = dict[str, Any]
    JSONArray = list[Any]

    _T = TypeVar("_T")
else:  # importers read these names at run time (annotations only)
    JSONObject = dict
    JSONArray = list


if TYPE_CHECKING:

    def dc(v: _T, /) -> _T:
        """A deep copy of JSON data (``_core._datacopy.deepcopy``, same type as ``v``)."""

else:
    dc = deepcopy


def empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {} or v is False or v == 0


def set_nonempty(d: JSONObject, key: str, value: Any) -> None:
    if not empty(value):
        d[key] = value


def no_none(**kv: Any) -> JSONObject:
    return {k: v for k, v in kv.items() if v is not None}


def deep_empty(v: Any) -> bool:
    """Go zero value under ``apiequality.Semantic`` (nil and empty slices/maps are equal)."""
    if isinstance(v, dict):
        return all(deep_empty(x) for x in v.values())
    if isinstance(v, list):
        return not v
    return empty(v)


def _sem(v: Any) -> Any:
    """A value with every Go-zero leaf removed, for ``Semantic.DeepEqual``-like comparison."""
    if isinstance(v, dict):
        return {k: _sem(x) for k, x in v.items() if not deep_empty(x)}
    if isinstance(v, list):
        return [_sem(x) for x in v]
    return v


def sem_eq(a: Any, b: Any) -> bool:
    left: object = _sem(a)
    right: object = _sem(b)
    return left == right


def drop_nulls(v: Any) -> Any:
    """Go's ``null`` for a nil pointer/slice (``GRPCAction.service``, ...) is an absent field here."""
    if isinstance(v, dict):
        return {k: drop_nulls(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [drop_nulls(x) for x in v]
    return v


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)
