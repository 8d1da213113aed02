"""``validate``'s orchestration of its inputs: each file's documents loaded and checked (as patches when a
kustomization lists the file as one, as updates with ``--old``), then ``--patch`` files and ``--kustomize``
builds, results yielded in input order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from .._core._access import as_str

if TYPE_CHECKING:  # pragma: no cover
    from .._io._report import ResourceResult
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
    from .._io._report import ResourceResult
    from ._kustomize import error_result, io_error_result, patch_results, patch_target
    from ._validate import validate_document

    try:
        loaded = load(preread, "<stdin>", strict=options.strict) if preread is not None \
            else load_path_result(path, strict=options.strict)
    except OSError as exc:  # one ``error`` resource; the other paths are still checked
        return [io_error_result(path, exc)]

    target = patch_target(path)  # listed as a patch by a kustomization in its tree: checked as a patch
    if target is not None:
        return patch_results(loaded, path, target, strict=options.strict)
    out = []
    starts: list[int] = []  # per result: line of its document's first key (waivers)
    for doc, load_diags in loaded.entries():
        starts.append(doc.start[0] if doc is not None else 0)
        if doc is None:
            out.append(error_result(path, list(load_diags)))
            continue
        kind, api = as_str(doc.kind), as_str(doc.api_version)
        if policy is not None:
            from ._kindpolicy import decide

            settled = decide(doc, policy)
            if settled is not None:
                reason = settled[1][0].message if settled[0] == "skipped" and settled[1] else ""
                out.append(ResourceResult(filename=doc.file, kind=kind, name=doc.name,
                                          version=api.rpartition("/")[2], status=settled[0],  # type: ignore[arg-type]
                                          diagnostics=list(load_diags) + [doc.place(d) for d in settled[1]],
                                          api_version=api, reason=reason))
                continue
        load_errors = [d for d in load_diags if d.severity == "error"]
        if load_errors:  # e.g. duplicate keys: the document as read is not what the author wrote
            out.append(ResourceResult(filename=doc.file, kind=kind, name=doc.name,
                                      version=api.rpartition("/")[2], status="error",
                                      diagnostics=list(load_diags), api_version=api))
            continue
        opts = options
        if olds is not None:
            opts = options._replace(old=olds.get(identity(doc.data)))
        r = validate_document(doc, opts)
        out.append(ResourceResult(filename=r.filename, kind=as_str(r.kind), name=r.name,
                                  version=as_str(r.version),
                                  status=r.status, diagnostics=list(load_diags) + r.diagnostics,  # type: ignore[arg-type]
                                  api_version=api, reason=r.reason))
    from ._waivers import apply_to_file

    return apply_to_file(out, path, preread, starts, ignore_rules)


def results_by_input(work: list[Any], jobs: int, patches: list[str], kustomize: list[str], opts: ValidateOptions
                     ) -> Iterator[tuple[str, list[ResourceResult]]]:
    """(name, results) per input in order: the PATHs, then ``--patch`` files, then ``--kustomize`` builds."""
    from . import _stream

    for w, chunk in zip(work, _stream.results_in_order(validate_file, work, jobs)):
        yield w[0], chunk
    if patches or kustomize:
        from .._io._load import iter_paths_keeping_missing
        from ._kustomize_build import kustomize_results, patch_file_results

        for f in iter_paths_keeping_missing(patches):
            yield f, patch_file_results(f, opts)
        for d in kustomize:
            yield d, kustomize_results(d, opts)
