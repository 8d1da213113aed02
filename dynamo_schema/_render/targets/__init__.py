"""The render targets (plug-ins), one module each: ``kubernetes``, ``grove``, ``dcd``.

Each module exports ``TARGET``, a :class:`RenderTarget` (``name``, ``kinds`` it accepts, ``description``,
``render(obj, options) -> list[dict]``). ``TARGETS`` is the registry ``render --target``, the API and
``dynamo_schema._render.render`` read; tests/render/test_targets.py checks every entry against the
Protocol. A new target: a module here with its ``TARGET``, and its name in ``_MODULES``.
"""

from __future__ import annotations

from importlib import import_module

from ._target import RenderFunction, RenderTarget, Target

#: The target modules, in registry order.
_MODULES = ("kubernetes", "grove", "dcd")


def _registry() -> dict[str, RenderTarget]:
    registry: dict[str, RenderTarget] = {}
    for module in _MODULES:
        target: RenderTarget = import_module(f"{__name__}.{module}").TARGET
        if target.name in registry:
            raise RuntimeError(f"render target {target.name!r} is registered twice")
        registry[target.name] = target
    return registry


TARGETS: dict[str, RenderTarget] = _registry()


def names_for(kind: str) -> tuple[str, ...]:
    """The names of the targets that render ``kind``, in registry order."""
    return tuple(name for name, target in TARGETS.items() if kind in target.kinds)


__all__ = ["TARGETS", "RenderFunction", "RenderTarget", "Target", "names_for"]
