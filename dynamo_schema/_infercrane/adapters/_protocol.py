"""The shape every provider adapter module has (``Adapter``): a module is the adapter."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from .._common import RenderedArtifact, Replica

#: One rendered piece alone (a run command, a startup script, user data) from a replica and the adapter's settings.
PartRenderer = Callable[[Replica, Mapping[str, Any]], str]


@runtime_checkable
class Adapter(Protocol):
    """A provider adapter: ``check`` its configuration before any provider call, ``render`` one replica
    into the provider request / manifests upstream sends, and ``PARTS``, the pieces of that output upstream
    also builds (and tests) on their own, by part name (empty when upstream has none)."""

    @property
    def name(self) -> str: ...

    @property
    def cloud(self) -> str: ...

    @property
    def PARTS(self) -> Mapping[str, PartRenderer]: ...

    def check(self, settings: Mapping[str, Any], state: Mapping[str, Any] | None = None, /) -> None: ...

    def render(self, replica: Replica, settings: Mapping[str, Any], state: Mapping[str, Any] | None = None, /
               ) -> list[RenderedArtifact]: ...
