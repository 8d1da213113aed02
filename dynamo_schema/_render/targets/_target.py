"""The shape of a render target (``RenderTarget``) and the record every target module exports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..._core._record import FrozenRecord
from .._options import RenderOptions

RenderFunction = Callable[[dict[str, Any], RenderOptions], list[dict[str, Any]]]


@runtime_checkable
class RenderTarget(Protocol):
    """A render target: ``render(obj, options)`` turns one admitted-to-be ``nvidia.com/v1beta1`` object of
    one of ``kinds`` into new dicts, in a stable order; the input is never changed."""

    @property
    def name(self) -> str: ...

    @property
    def kinds(self) -> frozenset[str]: ...

    @property
    def description(self) -> str: ...

    def render(self, obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]: ...


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
