"""The shape of a render target: the ``RenderTarget`` Protocol every entry of ``TARGETS`` satisfies
(``tests/render/test_targets.py`` checks them). Not imported at run time by the renderer itself: a
Protocol class needs :mod:`typing`, which a cold command-line run does not import (D56)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .._options import RenderOptions


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
