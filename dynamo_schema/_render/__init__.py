"""Render DGDs and DCDs into what the Dynamo operator creates.

``render(obj, target, options)`` dispatches to a target plug-in (``dcd``, ``kubernetes``,
``grove``); see :mod:`dynamo_schema._render.targets`.
"""

from __future__ import annotations

from ._errors import RenderError
from ._options import RenderOptions

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

    from .targets import RenderTarget

__all__ = ["RenderError", "RenderOptions", "pcs_name", "render", "target_registry", "worker_hash"]


def target_registry() -> dict[str, RenderTarget]:
    """A copy of the registry: target name → plug-in (a ``RenderTarget``: ``name``, ``kinds``, ``description``,
    ``render``). Not called ``targets``: that is the subpackage ``dynamo_schema._render.targets``."""
    from .targets import TARGETS

    return dict(TARGETS)


def render(obj: dict[str, Any], target: str, options: RenderOptions | None = None) -> list[dict[str, Any]]:
    """Render one nvidia.com/v1beta1 DGD or DCD dict for ``target``; returns new dicts in a stable order."""
    from .targets import TARGETS

    plugin = TARGETS.get(target)
    if plugin is None:
        raise RenderError.at(f"unknown render target {target!r}; known targets: {', '.join(sorted(TARGETS))}", rule="render.target")
    return plugin.render(obj, options or RenderOptions())


def worker_hash(dgd: dict[str, Any], options: RenderOptions | None = None, *, algorithm: str | None = None) -> str:
    """The 8-hex DGD worker hash (``ComputeDGDWorkersSpecHash``) of an admitted DGD.

    The algorithm follows ``options.operator_version`` (see ``_workerhash.compute_worker_hash``).
    """
    from ._workerhash import compute_worker_hash

    return compute_worker_hash(dgd, options, algorithm=algorithm)


def pcs_name(dgd: dict[str, Any]) -> str:
    from ._names import pcs_name as _pcs

    return _pcs(str((dgd.get("metadata") or {}).get("name", "")), (dgd.get("spec") or {}).get("components") or [])
