"""``validate``'s orchestration of its inputs: each file's documents loaded and checked (as patches when a
kustomization lists the file as one, as updates with ``--old``), then ``--patch`` files and ``--kustomize``
builds, results yielded in input order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Sequence

from .._core._access import as_str
from .._core._diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from .._core._document import Document
    from .._report import ResourceResult
    from ._validate import ValidateOptions


def identity(data: Any) -> tuple[str, str, str, str] | None:
    """(apiVersion group, kind, namespace, name): what makes two manifests the same object."""
    if not isinstance(data, dict):
        return None
    api, kind = data.get("apiVersion"), data.get("kind")
    raw_meta = data.get("metadata")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    name, namespace = meta.get("name"), meta.get("namespace")
    if not isinstance(api, str) or not isinstance(kind, str) or not isinstance(name, str):
        return None
    return api.rpartition("/")[0], kind, namespace if isinstance(namespace, str) else "", name


def validate_file(args: tuple[Any, ...]) -> list[ResourceResult]:
    """Results of one file: one per document; a problem tied to no document is one ``error`` result.

    ``args``: (path, options, old objects by identity or None, the bytes of ``-`` read by the parent
    process or None). With ``old`` given, a document is checked as an update of the old object of the
    same identity, and as a create when there is none."""
    path, options = args[0], args[1]
    olds: dict[Any, Any] | None = args[2] if len(args) > 2 else None
    preread: bytes | None = args[3] if len(args) > 3 else None
    policy, ignore_rules = args[4] if len(args) > 4 and args[4] is not None else (None, frozenset())
    from .._io._load import load, load_path_result
    from ._kustomize import error_result, io_error_result, json6902_file, patch_results, patch_target

    target = patch_target(path)  # listed as a patch by a kustomization in its tree: checked as a patch
    try:
        loaded = load(preread, "<stdin>", strict=options.strict) if preread is not None \
            else load_path_result(path, strict=options.strict, sequences=target is not None)
    except OSError as exc:  # one ``error`` resource; the other paths are still checked
        return [io_error_result(path, exc)]

    from ._helm import template_result

    helm = template_result(path, loaded, preread)  # a Helm chart's template: skipped with a note
    if helm is not None:
        return [helm]
    if target is not None:
        return patch_results(loaded, path, target, strict=options.strict,
                             kubernetes_version=options.kubernetes_version)
    if any(d.rule == "load.not-a-mapping" for d in loaded.errors):  # a JSON6902 patch no kustomization lists?
        again = load(preread, "<stdin>", strict=options.strict, sequences=True) if preread is not None \
            else load_path_result(path, strict=options.strict, sequences=True)
        if json6902_file(again) is not None:
            return patch_results(again, path, None, strict=options.strict,
                                 kubernetes_version=options.kubernetes_version)
    out = []
    starts: list[int] = []  # per result: line of its document's first key (waivers)
    for doc, load_diags in loaded.entries():
        starts.append(doc.start[0] if doc is not None else 0)
        if doc is None:
            out.append(error_result(path, list(load_diags)))
            continue
        opts = options
        if olds is not None:
            opts = options._replace(old=olds.get(identity(doc.data)))
        out.append(document_result(doc, opts, load_diags, policy))
    from ._waivers import apply_to_file

    return apply_to_file(out, path, preread, starts, ignore_rules)


def document_result(doc: Document, options: ValidateOptions, load_diags: Sequence[Diagnostic] = (),
                    policy: Any = None) -> ResourceResult:
    """The result of one loaded document: the kind policy (``--skip``, ``--reject``, removed APIs,
    ``--schema-location``), then its load errors, then the admission pipeline; the one place a
    ``ResourceResult`` is made from a document (``validate`` and ``dynamo_schema.validate``)."""
    from .._report import ResourceResult, position_key

    kind, api = as_str(doc.kind), as_str(doc.api_version)
    meta = doc.data.get("metadata") if isinstance(doc.data, dict) else None
    namespace = as_str(meta.get("namespace")) if isinstance(meta, dict) else ""
    result = ResourceResult(filename=doc.file, kind=kind, name=doc.name, version=api.rpartition("/")[2],
                            status="valid", diagnostics=list(load_diags), api_version=api, namespace=namespace,
                            index=doc.index)
    if policy is not None:
        from ._kindpolicy import decide

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
    from ._validate import NOT_KUBERNETES, validate_document

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


def results_by_input(work: list[Any], jobs: int, patches: list[str], kustomize: list[str], opts: ValidateOptions,
                     helm: Any = None, log: Any = None) -> Iterator[tuple[str, list[ResourceResult]]]:
    """(name, results) per input in order: the PATHs, then ``--patch`` files, then ``--kustomize`` builds,
    then ``--helm`` charts. ``helm``: ``(charts, values files, --helm-set values)``; ``log(text)``: where a
    build says which tool it ran (the command's standard error)."""
    from . import _stream

    for w, chunk in zip(work, _stream.results_in_order(validate_file, work, jobs)):
        yield w[0], chunk
    if patches or kustomize:
        from .._io._load import iter_paths_keeping_missing
        from ._kustomize_build import kustomize_results, patch_file_results

        for f in iter_paths_keeping_missing(patches):
            yield f, patch_file_results(f, opts)
        for d in kustomize:
            yield d, kustomize_results(d, opts, log)
    if helm is not None and helm[0]:
        from ._helm import helm_results

        for chart in helm[0]:
            yield chart, helm_results(chart, helm[1], helm[2], opts, log)
