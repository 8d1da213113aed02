"""dynamo_schema: the truth about NVIDIA Dynamo deployments before anything reaches a cluster.

The public API is small and lazy: importing the package builds no model and imports no heavy module;
each name is resolved on first use. Every function is what the command of the same name does
(docs/usage.md, "Python API"):

* ``validate(path | document | manifest | list) -> list[ResourceResult]`` (status, identity, diagnostics),
  ``load``, ``load_text``;
* ``default``, ``render(obj, target, settings=...)``, ``materialize_dgdr``, ``compile_spec``;
* ``convert``, ``diff``, ``merge`` (``merge_overrides``: the bare upstream merge), ``explain``;
* ``dump_yaml(objects) -> str``: the Kubernetes-safe YAML emitter (``n``, ``on``, ``1e3`` stay strings).

>>> import dynamo_schema
>>> [r.status for r in dynamo_schema.validate({"apiVersion": "example.com/v1", "kind": "Widget"})]
['skipped']

Exceptions: every error the library raises for bad input is a ``DynamoSchemaError``, which carries
``diagnostics`` (rule id, field path, message; located when the input was read from text)::

    DynamoSchemaError
    ├── LoadError           input that cannot be read or parsed (``.documents``: what did load)
    ├── RenderError         admission refuses the object, or it cannot be rendered
    ├── ConversionError     the conversion webhook refuses the object (also a ``ValueError``)
    ├── DgdrError           a DynamoGraphDeploymentRequest that cannot be materialized
    ├── MergeError          an override that cannot be applied (``.warnings``)
    ├── SpecError           an InferCrane DeploymentSpec that does not load (``.partial``)
    ├── SettingsError       invalid DeploymentSpec provider settings
    ├── AdapterError        a DeploymentSpec provider adapter refuses to compile
    ├── ConfigFileError     a settings file that cannot be used (also a ``ValueError``)
    ├── ExplainError        an unknown kind, version or field (also a ``ValueError``)
    └── UnknownRelease      an operator version with no release profile (also a ``ValueError``)
"""

from __future__ import annotations

from ._core._version import __version__

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "AdapterError",
    "AdmissionSettings",
    "ConfigFileError",
    "ConversionError",
    "DeploymentSpec",
    "DgdrError",
    "Diagnostic",
    "DiffReport",
    "Document",
    "DynamoComponentDeployment",
    "DynamoGraphDeployment",
    "DynamoGraphDeploymentRequest",
    "DynamoSchemaError",
    "ExplainError",
    "LoadError",
    "MaterializedDGD",
    "MergeError",
    "MergeResult",
    "RenderError",
    "RenderedArtifact",
    "ResourceResult",
    "SettingsError",
    "SpecError",
    "UnknownRelease",
    "__version__",
    "compile_spec",
    "convert",
    "default",
    "diff",
    "dump_yaml",
    "explain",
    "load",
    "load_text",
    "materialize_dgdr",
    "merge",
    "merge_overrides",
    "render",
    "validate",
]

_LAZY = {
    "AdapterError": ("dynamo_schema._infercrane._common", "AdapterError"),
    "AdmissionSettings": ("dynamo_schema._admission._settings", "AdmissionSettings"),
    "ConfigFileError": ("dynamo_schema._pipeline._config", "ConfigFileError"),
    "ConversionError": ("dynamo_schema._convert._envelope", "ConversionError"),
    "DeploymentSpec": ("dynamo_schema._infercrane._model", "DeploymentSpec"),
    "DgdrError": ("dynamo_schema._dgdr._common", "DgdrError"),
    "Diagnostic": ("dynamo_schema._core._diagnostics", "Diagnostic"),
    "DiffReport": ("dynamo_schema._pipeline._diff", "DiffReport"),
    "Document": ("dynamo_schema._core._document", "Document"),
    "DynamoComponentDeployment": ("dynamo_schema.models", "DynamoComponentDeployment"),
    "DynamoGraphDeployment": ("dynamo_schema.models", "DynamoGraphDeployment"),
    "DynamoGraphDeploymentRequest": ("dynamo_schema.models", "DynamoGraphDeploymentRequest"),
    "DynamoSchemaError": ("dynamo_schema._core._diagnostics", "DynamoSchemaError"),
    "ExplainError": ("dynamo_schema._schema._explain", "ExplainError"),
    "LoadError": ("dynamo_schema._io._load", "LoadError"),
    "MaterializedDGD": ("dynamo_schema._dgdr._materialize", "MaterializedDGD"),
    "MergeError": ("dynamo_schema._merge._override", "MergeError"),
    "MergeResult": ("dynamo_schema._merge._override", "MergeResult"),
    "RenderError": ("dynamo_schema._render._errors", "RenderError"),
    "RenderedArtifact": ("dynamo_schema._infercrane._common", "RenderedArtifact"),
    "ResourceResult": ("dynamo_schema._report._result", "ResourceResult"),
    "SettingsError": ("dynamo_schema._infercrane._settings", "SettingsError"),
    "SpecError": ("dynamo_schema._infercrane._loader", "SpecError"),
    "UnknownRelease": ("dynamo_schema._schema._releases", "UnknownRelease"),
    "compile_spec": ("dynamo_schema._api._render", "compile_spec"),
    "convert": ("dynamo_schema._api._change", "convert"),
    "default": ("dynamo_schema._api._render", "default"),
    "diff": ("dynamo_schema._api._change", "diff"),
    "dump_yaml": ("dynamo_schema._api._render", "dump_yaml"),
    "explain": ("dynamo_schema._api._change", "explain"),
    "load": ("dynamo_schema._api._validate", "load"),
    "load_text": ("dynamo_schema._api._validate", "load_text"),
    "materialize_dgdr": ("dynamo_schema._api._render", "materialize_dgdr"),
    "merge": ("dynamo_schema._api._change", "merge"),
    "merge_overrides": ("dynamo_schema._api._change", "merge_overrides"),
    "render": ("dynamo_schema._api._render", "render"),
    "validate": ("dynamo_schema._api._validate", "validate"),
}

if TYPE_CHECKING:  # pragma: no cover
    from ._admission._settings import AdmissionSettings
    from ._api._change import convert, diff, explain, merge, merge_overrides
    from ._api._render import compile_spec, default, dump_yaml, materialize_dgdr, render
    from ._api._validate import load, load_text, validate
    from ._convert._envelope import ConversionError
    from ._core._diagnostics import Diagnostic, DynamoSchemaError
    from ._core._document import Document
    from ._dgdr._common import DgdrError
    from ._dgdr._materialize import MaterializedDGD
    from ._infercrane._common import AdapterError, RenderedArtifact
    from ._infercrane._loader import SpecError
    from ._infercrane._model import DeploymentSpec
    from ._infercrane._settings import SettingsError
    from ._io._load import LoadError
    from ._merge._override import MergeError, MergeResult
    from ._pipeline._config import ConfigFileError
    from ._pipeline._diff import DiffReport
    from ._render._errors import RenderError
    from ._report import ResourceResult
    from ._schema._explain import ExplainError
    from ._schema._releases import UnknownRelease
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
