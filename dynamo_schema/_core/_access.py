"""Safe accessors on plain JSON-like data: a value of the wrong type reads as empty (``{}``, ``[]``,
``""``) or ``None``, the way the stages read input that is not validated yet."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


__all__ = ["as_dict", "as_int", "as_list", "as_str"]


def as_dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def as_str(v: Any) -> str:
    return v if isinstance(v, str) else ""


def as_int(v: Any) -> int | None:
    """An integer, not a bool (``True`` is not ``1`` here, as in Go's JSON decoding)."""
    return v if isinstance(v, int) and not isinstance(v, bool) else None
