"""The shape of a render target (``RenderTarget``) and the record every target module exports."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Target:
    """A ``RenderTarget`` from a render function (each module of ``targets/`` exports one as ``TARGET``)."""

    name: str
    kinds: frozenset[str]
    _render: RenderFunction
    description: str = ""

    def render(self, obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
        return self._render(obj, options)
