"""The record every target module exports (``Target``); the shape of a render target, the ``RenderTarget``
Protocol, is in ``_protocol`` (imported by type checkers and by whoever checks a plug-in against it)."""

from __future__ import annotations

from ..._core._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .._options import RenderOptions

    RenderFunction = Callable[[dict[str, Any], RenderOptions], list[dict[str, Any]]]


class Target(FrozenRecord):
    """A ``RenderTarget`` from a render function (each module of ``targets/`` exports one as ``TARGET``).
    Immutable; a :class:`~dynamo_schema._core._record.FrozenRecord` rather than a frozen dataclass (no
    dataclass created at import, docs/decisions.md D26, D32)."""

    __slots__ = _FIELDS = ("name", "kinds", "_render", "description")
    name: str
    kinds: frozenset[str]
    _render: RenderFunction
    description: str

    def __init__(self, name: str, kinds: frozenset[str], _render: RenderFunction, description: str = "") -> None:
        for attr, value in (("name", name), ("kinds", kinds), ("_render", _render), ("description", description)):
            object.__setattr__(self, attr, value)

    def render(self, obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
        return self._render(obj, options)
