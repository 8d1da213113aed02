"""The one place a ``ResourceResult`` is made from a loaded document (``validate``, ``dynamo_schema.validate``,
``--helm`` and ``--kustomize`` builds): the kind policy, the load errors, then the admission pipeline."""

from __future__ import annotations

from collections.abc import Sequence

from .._core._access import as_str
from .._core._diagnostics import Diagnostic
from .._core._document import Document
from .._report import ResourceResult, position_key
from ._kindpolicy import decide
from ._validate import NOT_KUBERNETES, validate_document

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

    from ._validate import ValidateOptions


def document_result(doc: Document, options: ValidateOptions, load_diags: Sequence[Diagnostic] = (),
                    policy: Any = None) -> ResourceResult:
    """The result of one loaded document: the kind policy (``--skip``, ``--reject``, removed APIs,
    ``--schema-location``), then its load errors, then the admission pipeline; the one place a
    ``ResourceResult`` is made from a document (``validate`` and ``dynamo_schema.validate``)."""
    kind, api = as_str(doc.kind), as_str(doc.api_version)
    meta = doc.data.get("metadata") if isinstance(doc.data, dict) else None
    namespace = as_str(meta.get("namespace")) if isinstance(meta, dict) else ""
    result = ResourceResult(filename=doc.file, kind=kind, name=doc.name, version=api.rpartition("/")[2],
                            status="valid", diagnostics=list(load_diags), api_version=api, namespace=namespace,
                            index=doc.index)
    if policy is not None:
        settled = decide(doc, policy)
        if settled is not None:
            result.status = settled[0]  # type: ignore[assignment]
            result.diagnostics += [doc.place(d) for d in settled[1]]
            if settled[0] == "skipped" and settled[1]:
                result.reason = settled[1][0].message
            return result
    if any(d.severity == "error" for d in load_diags):  # e.g. duplicate keys: not what the author wrote
        result.status = "error"
        return result
    r = validate_document(doc, options)
    result.kind, result.version = as_str(r.kind), as_str(r.version)
    result.status = r.status  # type: ignore[assignment]
    result.diagnostics += r.diagnostics
    result.reason = r.reason
    if r.status == "skipped" and not r.diagnostics and r.reason != NOT_KUBERNETES:
        # a kind without a schema says so, in a note (editors show it) and in ``reason``; a document that
        # is no Kubernetes object at all, a CI workflow or a Helm values file, stays silent: ``reason`` words it
        result.reason = skip_reason(doc, options)
        result.diagnostics.append(doc.place(Diagnostic("policy.no-schema", ("kind",), result.reason, "note")))
    result.diagnostics.sort(key=position_key)  # one order for the library and every report
    return result


def skip_reason(doc: Document, options: ValidateOptions) -> str:
    """Why the pipeline skipped a document it found no schema for (the ``policy.no-schema`` note)."""
    kind, api = as_str(doc.kind), as_str(doc.api_version)
    release = getattr(options.settings, "operator_release", "")
    if api.rpartition("/")[0] == "nvidia.com":
        if release:
            return f"no schema for {api}/{kind}: operator release {release} does not serve it"
        return f"no schema for {api}/{kind}: not a Dynamo kind"
    return f"no schema for {api}/{kind} in Kubernetes {options.kubernetes_version}"
