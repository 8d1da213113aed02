"""``validate``: files, ``--patch`` files and ``--kustomize`` builds checked, results streamed to a reporter."""

from __future__ import annotations

import argparse

from ..._report import ResourceResult
from .._common import UsageError, load_documents, read_stdin
from .._options import admission_settings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Iterator, TextIO

    from ..._pipeline._validate import ValidateOptions


IO_RULES = ("io.not-found", "io.unreadable", "io.kustomize-unavailable", "io.helm-unavailable")


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..._io._load import iter_paths_keeping_missing
    from ..._k8s._builtin_kinds import DEFAULT_KUBERNETES_VERSION, check_version
    from ..._pipeline._validate import ValidateOptions

    try:
        kubernetes_version = check_version(ns.kubernetes_version or DEFAULT_KUBERNETES_VERSION)
    except ValueError as exc:
        raise UsageError(f"--kubernetes-version: {exc}") from exc
    if not (ns.paths or ns.patches or ns.kustomize or ns.helm):
        raise UsageError("validate needs a PATH (or --patch FILE, --kustomize DIR, --helm CHART)")
    _check_helm(ns)
    if ns.output == "sarif":  # its helpUri / informationUri must be absolute: refuse a bad base up front
        from ..._core._consts import rules_url

        try:
            rules_url()
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    files = iter_paths_keeping_missing(ns.paths)  # a missing path: one ``error`` resource, others checked
    settings = admission_settings(ns) if (ns.settings or ns.set_ or ns.operator_version or ns.operator_config) else None
    olds: dict[Any, Any] | None = None
    if ns.old:
        from ..._pipeline._validate_files import identity

        olds = {}
        for d in load_documents(ns.old):
            key = identity(d.data)
            if key is not None and key not in olds:
                olds[key] = d.data
    from .._options import check_namespace

    check_namespace(ns)
    opts = ValidateOptions(strict=ns.strict, settings=settings, kubernetes_version=kubernetes_version,
                           namespace=ns.namespace)
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
    from ..._pipeline._validate_files import FileWork

    ignore = frozenset(p for v in ns.ignore_rule for p in v.split(",") if p.strip())
    work = [FileWork(f, opts, olds, stdin_bytes if f == "-" else None, policy, ignore) for f in files]
    count = len(files) + len(ns.patches) + len(ns.kustomize) + len(ns.helm)
    return _run_validate(work, jobs, ns, count, stdout, stderr, opts)


def _check_helm(ns: argparse.Namespace) -> None:
    """``--helm`` needs helm on PATH; ``-f``/``--helm-set`` need ``--helm`` (usage errors, exit 2)."""
    if (ns.helm_values or ns.helm_set) and not ns.helm:
        raise UsageError("-f/--values and --helm-set are values for --helm CHART")
    for item in ns.helm_set:
        if "=" not in item:
            raise UsageError(f"--helm-set expects KEY=VALUE, got {item!r}")
    if ns.helm:
        from ..._pipeline._helm import helm_available

        if helm_available() is None:
            raise UsageError("--helm needs `helm` on PATH (https://helm.sh/docs/intro/install/); "
                             "`helm template CHART | dynamo-schema validate -` is the same check")


def _with_patches(work: list[Any], jobs: int, ns: argparse.Namespace, opts: ValidateOptions, stderr: TextIO
                  ) -> Iterator[tuple[str, list[ResourceResult]]]:
    """(name, results) per input in order: the PATHs, then ``--patch`` files, ``--kustomize`` builds and
    ``--helm`` charts (which tool built them: one line on standard error)."""
    from ..._pipeline._validate_files import results_by_input

    return results_by_input(work, jobs, ns.patches, ns.kustomize, opts, (ns.helm, ns.helm_values, ns.helm_set),
                            stderr.write)


def _slim(r: ResourceResult) -> ResourceResult:
    """What a streaming reporter's end and the exit code read of a result already printed."""
    return ResourceResult(filename="", kind="", name="", version="", status=r.status,
                          diagnostics=[d for d in r.diagnostics if d.rule in IO_RULES], waived=r.waived)


def _run_validate(work: list[Any], jobs: int, ns: argparse.Namespace, files_count: int, stdout: TextIO,
                  stderr: TextIO, opts: ValidateOptions) -> int:
    """Stream results (text, github, tap) in input order as files finish; exit 1 on any failure."""
    from ... import _report
    from ..._pipeline import _stream

    reporter = _report.make(ns.output, summary=ns.summary, verbose=ns.verbose, files_count=files_count,
                               stdin=list(ns.paths) == ["-"])
    progress = _stream.Progress(stderr, len(work), _stream.progress_enabled(stderr))
    results: list[ResourceResult] = []
    head = reporter.begin()
    if head:
        stdout.write(head)
    for name, chunk in _with_patches(work, jobs, ns, opts, stderr):
        progress.step(name)
        chunk = [_report.prepare(r) for r in chunk]
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
