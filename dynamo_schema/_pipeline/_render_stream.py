"""``render`` of a whole file or stream: Dynamo documents rendered, every other object passed through.

A real repository's manifest (or ``kubectl kustomize`` output) mixes Dynamo objects with ConfigMaps,
Secrets, ResourceClaimTemplates, RBAC… ``render`` turns each Dynamo document (DGD, DCD, DGDR,
DeploymentSpec) into what the operator (or the adapter) creates, at the document's place; every other
Kubernetes object is validated as ``validate`` checks it and passed through unchanged (what
``kubectl apply`` would create), unless ``only_dynamo``. Every failing document is reported (one
:class:`~dynamo_schema._pipeline._render_object.RenderError` carrying the diagnostics of all of them), not only the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._core._diagnostics import Diagnostic, DynamoSchemaError
from .._core._kinds import ADMITTED_KINDS as RENDERED_KINDS  # the one list of kinds (D50)


@dataclass
class StreamResult:
    objects: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)  # DeploymentSpec artifacts (name, text)
    messages: list[str] = field(default_factory=list)  # "severity: FILE: text" lines for stderr
    errors: list[Diagnostic] = field(default_factory=list)
    #: the failing documents, each with its diagnostics (notes and warnings too): what ``render`` reports in
    #: ``validate``'s line format (``FILE:LINE:COL: KIND/NAME: FIELD: MESSAGE [RULE]``)
    failed: list[tuple[Any, list[Diagnostic]]] = field(default_factory=list)


def is_rendered(data: Any) -> bool:
    """A document ``render`` turns into other objects (the rest is passed through)."""
    from ._validate import is_deploymentspec

    if is_deploymentspec(data):
        return True
    if not isinstance(data, dict):
        return False
    api = data.get("apiVersion")
    return isinstance(api, str) and api in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1") \
        and data.get("kind") in RENDERED_KINDS


def is_dynamo_object(data: Any) -> bool:
    """A Dynamo object that is applied as it is (DynamoModel, a scaling adapter…): kept by ``--only-dynamo``."""
    from .._schema._extra_kinds import EXTRA_KINDS

    return isinstance(data, dict) and isinstance(data.get("apiVersion"), str) \
        and data["apiVersion"].rpartition("/")[0] == "nvidia.com" and data.get("kind") in EXTRA_KINDS


def render_stream(docs: list[Any], *, target: str | None, namespace: str, operator_version: str | None,
                  settings: Any, worker_hash_algorithm: str | None = None, provider: Any = None,
                  only_dynamo: bool = False, artifacts_as_files: bool = False,
                  kubernetes_version: str = "1.32.0", stored_view: bool = False,
                  options: Any = None) -> StreamResult:
    locals_ = {"target": target, "namespace": namespace, "operator_version": operator_version, "settings": settings,
               "worker_hash_algorithm": worker_hash_algorithm, "provider": provider, "only_dynamo": only_dynamo,
               "artifacts_as_files": artifacts_as_files, "kubernetes_version": kubernetes_version,
               "stored_view": stored_view, "options": options}
    result = StreamResult()
    if len(docs) > 2:  # many documents: as validate's bulk runs, the first warms up, then fewer collections
        from ._parallel import bulk_gc

        _render_docs(docs[:1], result, locals_)
        with bulk_gc():
            _render_docs(docs[1:], result, locals_)
    else:
        _render_docs(docs, result, locals_)
    return result


def _render_docs(docs: list[Any], result: StreamResult, opts: dict[str, Any]) -> None:
    from ._render_object import artifact_file, render_deploymentspec, render_object
    from ._validate import ValidateOptions, is_deploymentspec, validate_document

    target, namespace, operator_version = opts["target"], opts["namespace"], opts["operator_version"]
    settings, worker_hash_algorithm, provider = opts["settings"], opts["worker_hash_algorithm"], opts["provider"]
    only_dynamo, artifacts_as_files = opts["only_dynamo"], opts["artifacts_as_files"]
    kubernetes_version, stored_view, options = opts["kubernetes_version"], opts["stored_view"], opts["options"]
    for doc in docs:
        data = doc.data
        if not is_rendered(data):
            if only_dynamo and not is_dynamo_object(data):
                continue
            if not (isinstance(data, dict) and data.get("apiVersion") and data.get("kind")):
                if data is not None:
                    result.messages.append(f"note: {doc.file}: document {doc.index + 1} is not a Kubernetes "
                                           "object: not passed through")
                continue
            outcome = validate_document(doc, ValidateOptions(settings=settings,
                                                             kubernetes_version=kubernetes_version))
            if outcome.status in ("invalid", "error"):
                result.errors.extend(d for d in outcome.diagnostics if d.severity == "error")
                result.failed.append((doc, list(outcome.diagnostics)))
                continue
            result.objects.append(data)
            continue
        messages: list[tuple[str, str]] = []
        try:
            if is_deploymentspec(data):
                for art in render_deploymentspec(data, provider):
                    content = art.content
                    if isinstance(content, dict) and "apiVersion" in content and "kind" in content \
                            and not artifacts_as_files:
                        result.objects.append(content)
                    else:
                        result.files.append(artifact_file(art))
                continue
            result.objects.extend(render_object(data, target=target, namespace=namespace,
                                                operator_version=operator_version, settings=settings,
                                                messages=messages, worker_hash_algorithm=worker_hash_algorithm,
                                                stored_view=stored_view, options=options))
        except DynamoSchemaError as exc:
            diags = [doc.place(d) if d.path and "rendered" not in d.message
                     else d.located(doc.file, *doc.locate(())) for d in exc.diagnostics]
            if not diags:  # the line names KIND/NAME (``validate``'s format); the message does not repeat it
                diags = [Diagnostic("render.failed", (), str(exc)).located(doc.file, *doc.locate(()))]
            result.errors.extend(diags)
            result.failed.append((doc, diags))
        finally:
            for severity, text in messages:
                result.messages.append(f"{severity}: {doc.file}: {text}")
