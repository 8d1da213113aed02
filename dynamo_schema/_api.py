"""The public functions re-exported by ``dynamo_schema`` (thin wrappers over the stages)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Union

from ._core._diagnostics import Diagnostic
from ._core._document import Document

if TYPE_CHECKING:  # pragma: no cover
    from ._admission import AdmissionSettings
    from ._merge._override import MergeResult


class SupportsToDict(Protocol):
    """A typed model (``dynamo_schema.models``, ``DeploymentSpec``): ``to_dict()`` gives its Kubernetes JSON."""

    def to_dict(self) -> dict[str, Any]: ...


#: A manifest as plain JSON-like data (``yaml.safe_load`` of one document) or as a typed model.
Manifest = Union[dict[str, Any], SupportsToDict]


def load(path: str | Path) -> list[Document]:
    """Documents of a file, a directory (recursively, sorted) or ``"-"`` (stdin). Raises ``LoadError``."""
    from ._io._load import load_path

    return load_path(str(path))


def load_text(text: str | bytes, file: str = "<string>") -> list[Document]:
    """Documents of YAML or JSON text. Raises ``LoadError``."""
    from ._io._load import load_text as _load_text

    return _load_text(text, file)


def validate(
    target: str | Path | Document | list[Document] | Manifest,
    *,
    strict: bool = True,
    settings: AdmissionSettings | None = None,
    old: dict[str, Any] | None = None,
    kubernetes_version: str = "1.32.0",
) -> list[Diagnostic]:
    """Diagnostics (errors, warnings, notes) for a path, a ``Document``, a list of them, or plain data.

    Runs what ``python -m dynamo_schema validate`` runs: schema, CEL rules, defaulting and webhook rules.
    """
    from ._pipeline._validate import ValidateOptions, validate_document

    opts = ValidateOptions(strict=strict, settings=settings, old=old, kubernetes_version=kubernetes_version)
    docs: list[Document]
    if isinstance(target, (str, Path)):
        docs = load(target)
    elif isinstance(target, Document):
        docs = [target]
    elif isinstance(target, list) and all(isinstance(d, Document) for d in target):
        docs = target
    else:
        docs = [Document(_plain(target), file="<object>")]
    out: list[Diagnostic] = []
    for doc in docs:
        out.extend(validate_document(doc, opts).diagnostics)
    return out


def _plain(obj: Any) -> Any:
    """A typed model's Kubernetes JSON; plain data as it is."""
    return obj.to_dict() if hasattr(obj, "to_dict") else obj


def default(obj: Manifest, settings: AdmissionSettings | None = None) -> dict[str, Any]:
    """The object as admission would store it (schema defaults, then the mutating webhooks)."""
    from ._admission import AdmissionSettings
    from ._admission import default as _default

    if settings is not None and settings.operator_release:  # an earlier release's defaults (docs/releases.md)
        from ._pipeline._releases import default_release

        return default_release(_plain(obj), settings, settings.operator_release)
    return _default(_plain(obj), settings or AdmissionSettings())


def render(obj: Manifest, target: str | None = None, *, namespace: str = "default",
           operator_version: str | None = None) -> list[dict[str, Any]]:
    """What the operator creates for a DGD or DCD (``target``: kubernetes, grove or dcd)."""
    from ._pipeline._compile import render_object

    return render_object(_plain(obj), target=target, namespace=namespace, operator_version=operator_version)


def merge_overrides(blueprint: dict[str, Any] | None, override: dict[str, Any] | None) -> MergeResult:
    """Apply a DGDR ``spec.overrides.dgd`` to a generated DGD as upstream does (``MergeResult``)."""
    from ._merge._override import apply_overrides

    return apply_overrides(blueprint, override)
