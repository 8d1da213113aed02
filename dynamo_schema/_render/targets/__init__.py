"""The render targets (plug-ins), one module each: ``kubernetes``, ``grove``, ``dcd``.

Each module exports ``TARGET``, a :class:`RenderTarget` (``name``, ``kinds`` it accepts, ``description``,
``render(obj, options) -> list[dict]``). ``TARGETS`` is the registry ``render --target``, the API and
``dynamo_schema._render.render`` read; tests/render/test_targets.py checks every entry against the
Protocol. A new target: a module here with its ``TARGET``, and its name in ``_MODULES``.
"""

from __future__ import annotations

from importlib import import_module

from ._target import Target

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

    from ._protocol import RenderTarget

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


if TYPE_CHECKING:
    TARGETS: dict[str, RenderTarget]


def __getattr__(name: str) -> Any:
    """``TARGETS`` is built on first use (importing every target module): ``validate``'s reconcile check
    renders for one pathway and imports that target's module only (:func:`target`). ``RenderTarget``,
    the Protocol of a target, is imported when asked for."""
    if name == "TARGETS":
        registry = globals().setdefault("TARGETS", _registry())
        return registry
    if name == "RenderTarget":  # the Protocol (typing): for checking a plug-in, not needed to render
        from ._protocol import RenderTarget

        return RenderTarget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def target(name: str) -> RenderTarget | None:
    """The target called ``name`` (None when there is none), importing only its module until ``TARGETS`` is built."""
    built: dict[str, RenderTarget] | None = globals().get("TARGETS")
    if built is not None:
        return built.get(name)
    if name not in _MODULES:
        return None
    found: RenderTarget = import_module(f"{__name__}.{name}").TARGET
    return found


def names_for(kind: str) -> tuple[str, ...]:
    """The names of the targets that render ``kind``, in registry order."""
    return tuple(name for name, t in __getattr__("TARGETS").items() if kind in t.kinds)


__all__ = ["TARGETS", "RenderTarget", "Target", "names_for", "target"]
