"""dynamo_schema: the truth about NVIDIA Dynamo deployments before anything reaches a cluster.

The public API is small and lazy: importing the package builds no model and imports no heavy module;
each name is resolved on first use.

>>> import dynamo_schema
>>> diags = dynamo_schema.validate({"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
...                                 "metadata": {"name": "x"}, "spec": {"components": []}})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._core._version import __version__

__all__ = [
    "AdmissionSettings",
    "DeploymentSpec",
    "Diagnostic",
    "Document",
    "DynamoComponentDeployment",
    "DynamoGraphDeployment",
    "DynamoGraphDeploymentRequest",
    "DynamoSchemaError",
    "LoadError",
    "MergeError",
    "MergeResult",
    "__version__",
    "default",
    "load",
    "load_text",
    "merge_overrides",
    "render",
    "validate",
]

_LAZY = {
    "AdmissionSettings": ("dynamo_schema._admission", "AdmissionSettings"),
    "DeploymentSpec": ("dynamo_schema._infercrane._model", "DeploymentSpec"),
    "Diagnostic": ("dynamo_schema._core._diagnostics", "Diagnostic"),
    "Document": ("dynamo_schema._core._document", "Document"),
    "DynamoSchemaError": ("dynamo_schema._core._diagnostics", "DynamoSchemaError"),
    "DynamoComponentDeployment": ("dynamo_schema.models", "DynamoComponentDeployment"),
    "DynamoGraphDeployment": ("dynamo_schema.models", "DynamoGraphDeployment"),
    "DynamoGraphDeploymentRequest": ("dynamo_schema.models", "DynamoGraphDeploymentRequest"),
    "LoadError": ("dynamo_schema._io._load", "LoadError"),
    "MergeError": ("dynamo_schema._merge", "MergeError"),
    "MergeResult": ("dynamo_schema._merge", "MergeResult"),
    "default": ("dynamo_schema._api", "default"),
    "load": ("dynamo_schema._api", "load"),
    "load_text": ("dynamo_schema._api", "load_text"),
    "merge_overrides": ("dynamo_schema._api", "merge_overrides"),
    "render": ("dynamo_schema._api", "render"),
    "validate": ("dynamo_schema._api", "validate"),
}

if TYPE_CHECKING:  # pragma: no cover
    from ._admission import AdmissionSettings
    from ._api import default, load, load_text, merge_overrides, render, validate
    from ._core._diagnostics import Diagnostic, DynamoSchemaError
    from ._core._document import Document
    from ._infercrane._model import DeploymentSpec
    from ._io._load import LoadError
    from ._merge._override import MergeError, MergeResult
    from .models import DynamoComponentDeployment, DynamoGraphDeployment, DynamoGraphDeploymentRequest


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'dynamo_schema' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
