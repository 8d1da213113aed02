"""The shape of a render target (``RenderTarget``) and the record every target module exports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

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


class Target:
    """A ``RenderTarget`` from a render function (each module of ``targets/`` exports one as ``TARGET``).
    Immutable; a plain class rather than a frozen dataclass (~0.5 ms less at import, docs/decisions.md D26)."""

    __slots__ = ("name", "kinds", "_render", "description")
    name: str
    kinds: frozenset[str]
    _render: RenderFunction
    description: str

    def __init__(self, name: str, kinds: frozenset[str], _render: RenderFunction, description: str = "") -> None:
        for attr, value in (("name", name), ("kinds", kinds), ("_render", _render), ("description", description)):
            object.__setattr__(self, attr, value)

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError  # only to raise it: no dataclasses on a cold start (D32)

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def _values(self) -> tuple[Any, ...]:
        return (self.name, self.kinds, self._render, self.description)

    def __repr__(self) -> str:
        return (f"Target(name={self.name!r}, kinds={self.kinds!r}, _render={self._render!r}, "
                f"description={self.description!r})")

    def render(self, obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
        return self._render(obj, options)
