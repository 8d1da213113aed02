"""The public functions re-exported by ``dynamo_schema`` (thin wrappers over the stages)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._core._diagnostics import Diagnostic
from ._core._document import Document


def load(path: str | Path) -> list[Document]:
    """Documents of a file, a directory (recursively, sorted) or ``"-"`` (stdin). Raises ``LoadError``."""
    from ._io._load import load_path

    return load_path(str(path))


def load_text(text: str | bytes, file: str = "<string>") -> list[Document]:
    """Documents of YAML or JSON text. Raises ``LoadError``."""
    from ._io._load import load_text as _load_text

    return _load_text(text, file)


def validate(
    target: Any,
    *,
    strict: bool = True,
    settings: Any = None,
    old: Any = None,
    kubernetes_version: str = "1.32.0",
) -> list[Diagnostic]:
    """Diagnostics (errors, warnings, notes) for a path, a ``Document``, a list of them, or plain data.

    Runs what ``python -m dynamo_schema validate`` runs: schema, CEL rules, defaulting and webhook rules.
    """
    from ._pipeline._validate import ValidateOptions, validate_document

    opts = ValidateOptions(strict=strict, settings=settings, old=old, kubernetes_version=kubernetes_version)
    if isinstance(target, (str, Path)):
        docs = load(target)
    elif isinstance(target, Document):
        docs = [target]
    elif isinstance(target, list) and all(isinstance(d, Document) for d in target):
        docs = target
    else:
        if hasattr(target, "to_dict"):
            target = target.to_dict()
        docs = [Document(target, file="<object>")]
    out: list[Diagnostic] = []
    for doc in docs:
        out.extend(validate_document(doc, opts).diagnostics)
    return out


def default(obj: Any, settings: Any = None) -> dict[str, Any]:
    """The object as admission would store it (schema defaults, then the mutating webhooks)."""
    from ._admission import AdmissionSettings
    from ._admission import default as _default

    if hasattr(obj, "to_dict"):
        obj = obj.to_dict()
    return _default(obj, settings or AdmissionSettings())


def render(obj: Any, target: str | None = None, *, namespace: str = "default",
           operator_version: str | None = None) -> list[dict[str, Any]]:
    """What the operator creates for a DGD or DCD (``target``: kubernetes, grove or dcd)."""
    from ._pipeline._compile import render_object

    if hasattr(obj, "to_dict"):
        obj = obj.to_dict()
    return render_object(obj, target=target, namespace=namespace, operator_version=operator_version)


def merge_overrides(blueprint: Any, override: Any) -> Any:
    """Apply a DGDR ``spec.overrides.dgd`` to a generated DGD as upstream does (``MergeResult``)."""
    from ._merge import apply_overrides

    return apply_overrides(blueprint, override)
