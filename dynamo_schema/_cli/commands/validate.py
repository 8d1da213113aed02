"""``validate``: files, ``--patch`` files and ``--kustomize`` builds checked, results streamed to a reporter."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Iterator, TextIO

from .._common import UsageError, io_error_result, load_documents, read_stdin, str_or_empty
from .._options import admission_settings

if TYPE_CHECKING:  # pragma: no cover
    from ..._io._report import ResourceResult
    from ..._pipeline._validate import ValidateOptions


def _identity(data: Any) -> tuple[str, str, str, str] | None:
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


def _validate_file(args: tuple[Any, ...]) -> list[ResourceResult]:
    """Results of one file: one per document; a problem tied to no document is one ``error`` result.

    ``args``: (path, options, old objects by identity or None, the bytes of ``-`` read by the parent
    process or None). With ``old`` given, a document is checked as an update of the old object of the
    same identity, and as a create when there is none."""
    path, options = args[0], args[1]
    olds: dict[Any, Any] | None = args[2] if len(args) > 2 else None
    preread: bytes | None = args[3] if len(args) > 3 else None
    policy, ignore_rules = args[4] if len(args) > 4 and args[4] is not None else (None, frozenset())
    from dataclasses import replace

    from ..._io._load import load, load_path_result
    from ..._io._report import ResourceResult
    from ..._pipeline._validate import validate_document

    try:
        loaded = load(preread, "<stdin>", strict=options.strict) if preread is not None \
            else load_path_result(path, strict=options.strict)
    except OSError as exc:  # one ``error`` resource; the other paths are still checked
        return [io_error_result(path, exc)]
    from ..._pipeline._kustomize import error_result, patch_results, patch_target

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
        kind, api = str_or_empty(doc.kind), str_or_empty(doc.api_version)
        if policy is not None:
            from ..._pipeline._kindpolicy import decide

            settled = decide(doc, policy)
            if settled is not None:
                out.append(ResourceResult(filename=doc.file, kind=kind, name=doc.name,
                                          version=api.rpartition("/")[2], status=settled[0],  # type: ignore[arg-type]
                                          diagnostics=list(load_diags) + [doc.place(d) for d in settled[1]],
                                          api_version=api))
                continue
        load_errors = [d for d in load_diags if d.severity == "error"]
        if load_errors:  # e.g. duplicate keys: the document as read is not what the author wrote
            out.append(ResourceResult(filename=doc.file, kind=kind, name=doc.name,
                                      version=api.rpartition("/")[2], status="error",
                                      diagnostics=list(load_diags), api_version=api))
            continue
        opts = options
        if olds is not None:
            opts = replace(options, old=olds.get(_identity(doc.data)))
        r = validate_document(doc, opts)
        out.append(ResourceResult(filename=r.filename, kind=str_or_empty(r.kind), name=r.name,
                                  version=str_or_empty(r.version),
                                  status=r.status, diagnostics=list(load_diags) + r.diagnostics,  # type: ignore[arg-type]
                                  api_version=api))
    from ..._pipeline._waivers import apply_to_file

    return apply_to_file(out, path, preread, starts, ignore_rules)


IO_RULES = ("io.not-found", "io.unreadable", "io.kustomize-unavailable")


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..._io._load import iter_paths_keeping_missing
    from ..._k8s._builtin_kinds import DEFAULT_KUBERNETES_VERSION, check_version
    from ..._pipeline._validate import ValidateOptions

    try:
        kubernetes_version = check_version(ns.kubernetes_version or DEFAULT_KUBERNETES_VERSION)
    except ValueError as exc:
        raise UsageError(f"--kubernetes-version: {exc}") from exc
    if not (ns.paths or ns.patches or ns.kustomize):
        raise UsageError("validate needs a PATH (or --patch FILE, --kustomize DIR)")
    files = iter_paths_keeping_missing(ns.paths)  # a missing path: one ``error`` resource, others checked
    settings = admission_settings(ns) if (ns.settings or ns.set_) else None
    olds: dict[Any, Any] | None = None
    if ns.old:
        olds = {}
        for d in load_documents(ns.old):
            key = _identity(d.data)
            if key is not None and key not in olds:
                olds[key] = d.data
    opts = ValidateOptions(strict=ns.strict, settings=settings, kubernetes_version=kubernetes_version)
    from ..._pipeline._kindpolicy import KindPolicy, PolicyError, compile_patterns, filename_ignored
    from .._options import jobs_count

    jobs = jobs_count(ns.jobs)
    try:
        policy = KindPolicy.from_options(ns.skip, ns.reject, ns.ignore_missing_schemas, ns.schema_location,
                                         kubernetes_version, ns.strict)
        patterns = compile_patterns(ns.ignore_filename_pattern)
    except PolicyError as exc:
        raise UsageError(str(exc)) from exc
    files = [f for f in files if not filename_ignored(f, patterns)]
    # standard input is read here: pool workers have no access to it
    stdin_bytes = read_stdin() if "-" in files else None
    extras = (policy, frozenset(p for v in ns.ignore_rule for p in v.split(",") if p.strip()))
    work = [(f, opts, olds, stdin_bytes if f == "-" else None, extras) for f in files]
    return _run_validate(work, jobs, ns, len(files) + len(ns.patches) + len(ns.kustomize), stdout, stderr, opts)


def _with_patches(work: list[Any], jobs: int, ns: argparse.Namespace, opts: ValidateOptions
                  ) -> Iterator[tuple[str, list[ResourceResult]]]:
    """(name, results) per input in order: the PATHs, then ``--patch`` files, then ``--kustomize`` builds."""
    from ..._pipeline import _stream

    for w, chunk in zip(work, _stream.results_in_order(_validate_file, work, jobs)):
        yield w[0], chunk
    if ns.patches or ns.kustomize:
        from ..._io._load import iter_paths_keeping_missing
        from .validate_kustomize import kustomize_results, patch_file_results

        for f in iter_paths_keeping_missing(ns.patches):
            yield f, patch_file_results(f, opts)
        for d in ns.kustomize:
            yield d, kustomize_results(d, opts)


def _slim(r: ResourceResult) -> ResourceResult:
    """What a streaming reporter's end and the exit code read of a result already printed."""
    from ..._io._report import ResourceResult

    return ResourceResult(filename="", kind="", name="", version="", status=r.status,
                          diagnostics=[d for d in r.diagnostics if d.rule in IO_RULES], waived=r.waived)


def _run_validate(work: list[Any], jobs: int, ns: argparse.Namespace, files_count: int, stdout: TextIO,
                  stderr: TextIO, opts: ValidateOptions) -> int:
    """Stream results (text, github, tap) in input order as files finish; exit 1 on any failure."""
    from ..._pipeline import _stream
    from .. import _reporters

    reporter = _reporters.make(ns.output, summary=ns.summary, verbose=ns.verbose, files_count=files_count,
                               stdin=list(ns.paths) == ["-"])
    progress = _stream.Progress(stderr, len(work), _stream.progress_enabled(stderr))
    results: list[ResourceResult] = []
    head = reporter.begin()
    if head:
        stdout.write(head)
    for name, chunk in _with_patches(work, jobs, ns, opts):
        progress.step(name)
        chunk = [_reporters.prepare(r) for r in chunk]
        # a streaming reporter has printed each result: its end (summary) and the exit code need only
        # the status, waivers and I/O errors, not every file's diagnostics (flat memory on long runs)
        results.extend([_slim(r) for r in chunk] if reporter.streams else chunk)
        if reporter.streams:
            text = "".join(reporter.result(r) for r in chunk)
            if text:
                progress.clear()
                stdout.write(text)
                stdout.flush()
    progress.clear()
    tail = reporter.end(results)
    if tail:
        stdout.write(tail)
    if any(d.rule in IO_RULES for r in results for d in r.diagnostics):
        return 2  # the contract: an I/O error (missing or unreadable file) exits 2, after the report
    bad = any(r.status in ("invalid", "error") for r in results)
    return 1 if bad else 0
