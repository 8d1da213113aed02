"""``merge``'s inputs and checks: the override a document carries (a partial DGD or a DGDR's
``spec.overrides.dgd``), and the effective DGD checked as admission would check it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .._core._diagnostics import Diagnostic

DGDR_KIND = "DynamoGraphDeploymentRequest"


def override_from_document(doc: Any) -> Any:
    """A partial DGD, or the ``spec.overrides.dgd`` of a DGDR manifest (``{}``-equivalent: None); unchecked
    input, so any value (the merge reports a wrong type). Raises ``MergeError`` for a DGDR whose
    ``spec``/``overrides`` is not a mapping (unstructured's accessor error)."""
    if isinstance(doc, dict) and doc.get("kind") == DGDR_KIND:
        node: Any = doc
        where = ""
        for key in ("spec", "overrides"):
            where += "." + key
            node = node.get(key) or {}
            if not isinstance(node, dict):  # unvalidated input: unstructured's accessor error
                from .._k8s._gofmt import go_type
                from .._merge._override import MergeError

                raise MergeError(f"{where} accessor error: {node} is of the type {go_type(node)}, "
                                 "expected map[string]interface{}")
        dgd = node.get("dgd")
        return dgd if dgd else None
    return doc


def merged_errors(dgd: Any) -> list[Diagnostic]:
    """The admission errors of the effective DGD (schema, CEL, webhooks; documented default settings)."""
    from ._validate import ValidateOptions, check_nvidia

    if not isinstance(dgd, dict):
        return []
    diags, _ = check_nvidia(dgd, ValidateOptions())
    return [d for d in diags if d.severity == "error"]


def result_errors(dgd: Any) -> list[str]:
    """``FIELD: MESSAGE [RULE]`` of every admission error of the effective DGD (schema, CEL, webhooks;
    documented default settings), the merged object named as ``merged DGD``."""
    return [f"merged DGD: {d.field + ': ' if d.path else ''}{d.message} [{d.rule}]" for d in merged_errors(dgd)]
