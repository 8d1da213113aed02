"""InferCrane DeploymentSpec (``infercrane.dev/v1``): model, loader rules, provider settings, adapters.

Public names are imported lazily (no work at import time).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "DeploymentSpec": "._model",
    "validate_spec": "._loader",
    "load_spec": "._loader",
    "validate_workload": "._loader",
    "validate_serving": "._loader",
    "NormalizedSpec": "._loader",
    "SpecError": "._loader",
    "ProviderSettings": "._settings",
    "SettingsError": "._settings",
    "compile_spec": "._compile",
    "compile_replica": "._compile",
    "resolve_adapter": "._compile",
    "preflight": "._compile",
    "render_part": "._compile",
    "RenderedArtifact": "._common",
    "Replica": "._common",
    "AdapterError": "._common",
}

__all__ = [
    "AdapterError", "DeploymentSpec", "NormalizedSpec", "ProviderSettings", "RenderedArtifact", "Replica",
    "SettingsError", "SpecError", "compile_replica", "compile_spec", "load_spec", "preflight", "render_part",
    "resolve_adapter", "validate_serving", "validate_spec", "validate_workload",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(name)
    return getattr(import_module(module, __name__), name)
