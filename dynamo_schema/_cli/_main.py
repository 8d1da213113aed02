"""``python -m dynamo_schema``: the command-line contract of ../shared/spec/cli.md.

Thin by design: argument parsing and exit codes live here; every subcommand calls a library function
(imported lazily, so ``--help`` and the pre-commit hook start fast). Exit codes: 0 success, 1 invalid
input or a refused operation, 2 usage or I/O error. No traceback for bad input unless ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Sequence, TextIO

DESCRIPTION = ("Typed checks, rendering and conversion of NVIDIA Dynamo deployments and InferCrane "
               "DeploymentSpecs, offline. Exit codes: 0 success, 1 invalid input, 2 usage or I/O error.")


def _version_text() -> str:
    from .._core._version import __version__

    return f"dynamo-schema {__version__}"


class UsageError(Exception):
    """Exit 2: a usage or I/O problem (missing file, unreadable stdin, bad option value)."""


def _add_settings_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--settings", metavar="FILE", help="YAML mapping of admission settings (cluster/operator state)")
    p.add_argument("--set", dest="set_", metavar="KEY=VALUE", action="append", default=[],
                   help="one admission setting (repeatable; wins over --settings)")


def build_parser(only: str | None = None, parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser
                 ) -> argparse.ArgumentParser:
    """The command line; ``only="validate"``: the top level and ``validate`` alone (see ``_parse_validate``)."""
    parser = parser_class(prog="python -m dynamo_schema", description=DESCRIPTION)
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--version", action="version", version=_version_text(), help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check manifests as the API server and admission webhooks would",
                       description="Check manifests as the API server and the admission webhooks would.")
    from ._options import add_validate_options

    add_validate_options(p)
    if only == "validate":
        return parser

    p = sub.add_parser("render", help="render what the operator (or a cloud adapter) creates")
    p.add_argument("--target", default=None, help="render target: kubernetes, grove or dcd (default: from the nvidia.com/enable-grove annotation)")
    p.add_argument("--namespace", default="default", help="namespace the objects are rendered into (default default)")
    p.add_argument("--operator-version", default=None, metavar="X.Y.Z",
                   help="operator release whose behaviour is emulated (default: the bundled one)")
    p.add_argument("--provider-config", default=None, metavar="FILE",
                   help="DeploymentSpec provider settings (YAML mapping of INFERCRANE_* names; wins over the environment)")
    p.add_argument("--worker-hash-algorithm", default=None,
                   choices=["dcd-runtime-version", "dcd", "legacy-v1", "rollout-v2"],
                   help="override the worker-hash rule of the emulated operator release")
    p.add_argument("--out", default=None, metavar="DIR", help="write one file per object into DIR (atomically)")
    p.add_argument("-o", dest="out_deprecated", default=None, metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--only-dynamo", action="store_true",
                   help="drop the other objects of the input instead of passing them through")
    p.add_argument("--stored", action="store_true",
                   help="every object as the API server stores it (built-in defaults, LWS webhook, Grove defaulting)")
    _add_settings_options(p)
    p.add_argument("path", metavar="PATH", help="manifest file or - for standard input")

    p = sub.add_parser("merge", help="apply a DGDR spec.overrides.dgd to a generated DGD")
    p.add_argument("--blueprint", required=True, metavar="BLUEPRINT.yaml", help="the generated DGD")
    p.add_argument("--override", required=True, metavar="OVERRIDE.yaml",
                   help="the spec.overrides.dgd document, or a DGDR manifest")
    p.add_argument("--no-validate", dest="validate", action="store_false",
                   help="print the effective DGD without checking it as admission would")

    p = sub.add_parser("schema", help="write the JSON Schemas generated from the models")
    p.add_argument("--out", default="schemas", metavar="DIR", help="output folder (default schemas)")

    p = sub.add_parser("default", help="print the object as admission would store it")
    _add_settings_options(p)
    p.add_argument("path", metavar="PATH", help="manifest file or - for standard input")

    p = sub.add_parser("convert", help="convert nvidia.com/v1alpha1 <-> v1beta1")
    p.add_argument("--to", default="nvidia.com/v1beta1", choices=["nvidia.com/v1beta1", "nvidia.com/v1alpha1"],
                   help="target API version (default nvidia.com/v1beta1)")
    p.add_argument("path", metavar="PATH", help="manifest file, directory or - for standard input")

    p = sub.add_parser("diff", help="what an update changes in the rendered objects and in a running deployment")
    p.add_argument("--output", "-o", choices=["text", "json"], default="text", help="output format (default text)")
    p.add_argument("--target", default=None, help="render target: kubernetes, grove or dcd (default: from the nvidia.com/enable-grove annotation)")
    p.add_argument("--namespace", default="default", help="namespace the objects are rendered into (default default)")
    p.add_argument("--operator-version", default=None, metavar="X.Y.Z",
                   help="operator release whose behaviour is emulated (default: the bundled one)")
    p.add_argument("-U", "--context", type=int, default=3, metavar="N", help="lines of context in object diffs")
    p.add_argument("--no-diff", dest="show_diff", action="store_false", help="summary only")
    _add_settings_options(p)
    p.add_argument("old", metavar="OLD", help="the manifest as deployed")
    p.add_argument("new", metavar="NEW", help="the manifest as it will be")

    p = sub.add_parser("explain", help="field documentation, type, default and constraints")
    p.add_argument("field", metavar="KIND[.FIELD.PATH]",
                   help="a kind (dgd, dcd, dgdr, pcs, lws, deploymentspec or the full kind name) and a field path")
    p.add_argument("--api-version", default=None, metavar="GROUP/VERSION",
                   help="the API version to explain (default: the newest served, e.g. nvidia.com/v1beta1)")
    p.add_argument("--recursive", action="store_true", help="list every nested field, indented")
    return parser


# --------------------------------------------------------------------------------------------------
def _settings_mapping(ns: argparse.Namespace) -> dict[str, Any]:
    """The ``--settings`` file (read with located errors) overlaid with every ``--set``."""
    from .._pipeline._compile import ConfigFileError, read_mapping_file

    mapping: dict[str, Any] = {}
    if getattr(ns, "settings", None):
        try:
            mapping.update(read_mapping_file(ns.settings, "settings file"))
        except ConfigFileError as exc:
            raise UsageError(str(exc)) from exc
    for item in getattr(ns, "set_", []) or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
        mapping[key.strip()] = _set_value(key.strip(), value)
    return mapping


def _set_value(key: str, value: str) -> Any:
    """A ``--set`` value read as one YAML scalar or flow collection (``true``, ``3``, ``{a: [b]}``)."""
    if not value:
        return ""
    import yaml

    try:
        return yaml.load(value, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise UsageError(f"--set {key}: cannot read value {value!r} as YAML{where}: {problem}") from exc
    except (ValueError, RecursionError) as exc:  # e.g. an integer past CPython's 4,300-digit limit
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise UsageError(f"--set {key}: cannot read value {shown!r}: {exc}") from exc


def _admission_settings(ns: argparse.Namespace, mapping: dict[str, Any] | None = None) -> Any:
    from .._admission import AdmissionSettings

    if mapping is None:
        mapping = _settings_mapping(ns)
    version = getattr(ns, "operator_version", None)
    if version:
        mapping = {k: v for k, v in mapping.items() if str(k).replace("-", "_") != "operator_version"}
        mapping["operator_version"] = version  # one knob: --operator-version wins
    try:
        return AdmissionSettings.from_mapping(mapping)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"invalid admission settings: {exc}") from exc


def _go_quote(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str:
    """A document's ``kind``/``apiVersion`` for reports: only strings count (``apiVersion: 5`` -> "")."""
    return value if isinstance(value, str) else ""


def _check_namespace(ns: argparse.Namespace) -> None:
    from .._pipeline._compile import dns1123_label_errors

    value = getattr(ns, "namespace", None)
    if value is None:
        return
    errs = dns1123_label_errors(value)
    if errs:
        raise UsageError(f"--namespace: Invalid value: {_go_quote(value)}: {'; '.join(errs)}")


_VERSION_RE = r"v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-+][0-9A-Za-z.+-]+)?"


def _check_operator_version(ns: argparse.Namespace) -> None:
    import re

    value = getattr(ns, "operator_version", None)
    if value is not None and not re.fullmatch(_VERSION_RE, value):
        raise UsageError(f"--operator-version: expected X.Y.Z (e.g. 1.5.0), got {value!r}")


def _load(path: str, strict: bool = True) -> list[Any]:
    """Documents of one path; load errors propagate as LoadError, I/O errors as UsageError."""
    from .._io._load import load_path

    try:
        return load_path(path, strict=strict) if strict is not True else load_path(path)
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such file or directory") from exc
    except PermissionError as exc:
        raise UsageError(f"{path}: permission denied") from exc
    except IsADirectoryError as exc:  # pragma: no cover
        raise UsageError(str(exc)) from exc


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


def _validate_file(args: tuple[Any, ...]) -> list[Any]:
    """Results of one file: one per document; a problem tied to no document is one ``error`` result.

    ``args``: (path, options, old objects by identity or None, the bytes of ``-`` read by the parent
    process or None). With ``old`` given, a document is checked as an update of the old object of the
    same identity, and as a create when there is none."""
    path, options = args[0], args[1]
    olds: dict[Any, Any] | None = args[2] if len(args) > 2 else None
    preread: bytes | None = args[3] if len(args) > 3 else None
    policy, ignore_rules = args[4] if len(args) > 4 and args[4] is not None else (None, frozenset())
    from dataclasses import replace

    from .._io._load import load, load_path_result
    from .._io._report import ResourceResult
    from .._pipeline._validate import validate_document

    try:
        loaded = load(preread, "<stdin>", strict=options.strict) if preread is not None \
            else load_path_result(path, strict=options.strict)
    except OSError as exc:  # one ``error`` resource; the other paths are still checked
        return [io_error_result(path, exc)]
    from .._pipeline._kustomize import patch_results, patch_target

    target = patch_target(path)  # listed as a patch by a kustomization in its tree: checked as a patch
    if target is not None:
        return patch_results(loaded, path, target, strict=options.strict)
    out = []
    starts: list[int] = []  # per result: line of its document's first key (waivers)
    for doc, load_diags in loaded.entries():
        starts.append(doc.start[0] if doc is not None else 0)
        if doc is None:
            out.append(ResourceResult(filename=path, kind="", name="", version="",
                                      status="error", diagnostics=list(load_diags)))
            continue
        kind, api = _text(doc.kind), _text(doc.api_version)
        if policy is not None:
            from .._pipeline._kindpolicy import decide

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
        out.append(ResourceResult(filename=r.filename, kind=_text(r.kind), name=r.name, version=_text(r.version),
                                  status=r.status, diagnostics=list(load_diags) + r.diagnostics,  # type: ignore[arg-type]
                                  api_version=api))
    from .._pipeline._waivers import apply_to_file

    return apply_to_file(out, path, preread, starts, ignore_rules)


IO_RULES = ("io.not-found", "io.unreadable", "io.kustomize-unavailable")


def io_error_result(path: str, exc: OSError) -> Any:
    """The report entry of a path that cannot be read (``validate``: status ``error``, exit 2)."""
    from .._core._diagnostics import Diagnostic
    from .._io._report import ResourceResult

    if isinstance(exc, FileNotFoundError):
        d = Diagnostic("io.not-found", (), "no such file or directory")
    else:
        d = Diagnostic("io.unreadable", (), f"cannot read: {exc.strerror or exc}")
    return ResourceResult(filename=path, kind="", name="", version="", status="error",
                          diagnostics=[d.located(path, None, None)])


def _read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError) as exc:
        raise UsageError(f"cannot read standard input: {exc}") from exc


def cmd_validate(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .._io._load import iter_paths_keeping_missing
    from .._k8s._builtin_kinds import DEFAULT_KUBERNETES_VERSION, check_version
    from .._pipeline._validate import ValidateOptions

    try:
        kubernetes_version = check_version(ns.kubernetes_version or DEFAULT_KUBERNETES_VERSION)
    except ValueError as exc:
        raise UsageError(f"--kubernetes-version: {exc}") from exc
    if not (ns.paths or ns.patches or ns.kustomize):
        raise UsageError("validate needs a PATH (or --patch FILE, --kustomize DIR)")
    files = iter_paths_keeping_missing(ns.paths)  # a missing path: one ``error`` resource, others checked
    settings = _admission_settings(ns) if (ns.settings or ns.set_) else None
    olds: dict[Any, Any] | None = None
    if ns.old:
        olds = {}
        for d in _load(ns.old):
            key = _identity(d.data)
            if key is not None and key not in olds:
                olds[key] = d.data
    opts = ValidateOptions(strict=ns.strict, settings=settings, kubernetes_version=kubernetes_version)
    from .._pipeline._kindpolicy import KindPolicy, PolicyError, compile_patterns, filename_ignored
    from ._options import jobs_count

    jobs = jobs_count(ns.jobs)
    try:
        policy = KindPolicy.from_options(ns.skip, ns.reject, ns.ignore_missing_schemas, ns.schema_location,
                                         kubernetes_version, ns.strict)
        patterns = compile_patterns(ns.ignore_filename_pattern)
    except PolicyError as exc:
        raise UsageError(str(exc)) from exc
    files = [f for f in files if not filename_ignored(f, patterns)]
    # standard input is read here: pool workers have no access to it
    stdin_bytes = _read_stdin() if "-" in files else None
    extras = (policy, frozenset(p for v in ns.ignore_rule for p in v.split(",") if p.strip()))
    work = [(f, opts, olds, stdin_bytes if f == "-" else None, extras) for f in files]
    return _run_validate(work, jobs, ns, len(files) + len(ns.patches) + len(ns.kustomize), stdout, stderr, opts)


def _with_patches(work: list[Any], jobs: int, ns: argparse.Namespace, opts: Any) -> Any:
    """(name, results) per input in order: the PATHs, then ``--patch`` files, then ``--kustomize`` builds."""
    from .._pipeline import _stream

    for w, chunk in zip(work, _stream.results_in_order(_validate_file, work, jobs)):
        yield w[0], chunk
    if ns.patches or ns.kustomize:
        from .._io._load import iter_paths_keeping_missing
        from .commands.kustomize import kustomize_results, patch_file_results

        for f in iter_paths_keeping_missing(ns.patches):
            yield f, patch_file_results(f, opts)
        for d in ns.kustomize:
            yield d, kustomize_results(d, opts)


def _run_validate(work: list[Any], jobs: int, ns: argparse.Namespace, files_count: int, stdout: TextIO,
                  stderr: TextIO, opts: Any = None) -> int:
    """Stream results (text, github, tap) in input order as files finish; exit 1 on any failure."""
    from .._pipeline import _stream
    from . import _reporters

    reporter = _reporters.make(ns.output, summary=ns.summary, verbose=ns.verbose, files_count=files_count,
                               stdin=list(ns.paths) == ["-"])
    progress = _stream.Progress(stderr, len(work), _stream.progress_enabled(stderr))
    results = []
    head = reporter.begin()
    if head:
        stdout.write(head)
    for name, chunk in _with_patches(work, jobs, ns, opts):
        progress.step(name)
        chunk = [_reporters.prepare(r) for r in chunk]
        results.extend(chunk)
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


def cmd_schema(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .._pipeline._schemagen import write

    for path in write(ns.out):
        stdout.write(f"{path}\n")
    return 0


def _report_lines(doc: Any, diags: list[Any], status: str = "invalid") -> list[str]:
    """``validate``'s text lines (``FILE:LINE:COL: KIND/NAME: FIELD: MESSAGE [RULE]``) for one document."""
    from .._io._report import ResourceResult, _text_line

    api = _text(doc.api_version)
    r = ResourceResult(filename=doc.file, kind=_text(doc.kind), name=doc.name, version=api.rpartition("/")[2],
                       status=status, diagnostics=[])  # type: ignore[arg-type]
    return [_text_line(r, d if d.file else doc.place(d)) + "\n" for d in diags
            if d.severity in ("error", "warning")]


def cmd_default(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The objects as admission would store them; when admission refuses one, nothing on stdout,
    its errors (``validate``'s line format) on stderr, exit 1."""
    from .._io._emit import dump_all
    from .._pipeline._validate import NVIDIA_KINDS, ValidateOptions, check_nvidia, unknown_kind

    settings = _admission_settings(ns)
    opts = ValidateOptions(settings=settings)
    out = []
    status = 0
    for doc in _load(ns.path):
        data = doc.data
        api = data.get("apiVersion") if isinstance(data, dict) else None
        if isinstance(api, str) and api.rpartition("/")[0] == "nvidia.com":
            kind = _text(data.get("kind"))
            if api not in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1") or kind not in NVIDIA_KINDS:
                stderr.writelines(_report_lines(doc, [unknown_kind(api, kind)]))
                status = 1
                continue
            diags, stored = check_nvidia(data, opts)
            stderr.writelines(_report_lines(doc, diags))
            if stored is None or any(d.severity == "error" for d in diags):
                status = 1
                continue
            out.append(stored)
        else:
            out.append(data)
    if status == 0:
        stdout.write(dump_all(out))
    return status


def cmd_merge(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .commands.merge import run_merge
    from .._pipeline._merge_check import result_errors

    return int(run_merge(ns.blueprint, ns.override, stdout, stderr,
                         validator=result_errors if ns.validate else None))


def cmd_convert(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Every Dynamo document validated first (as ``validate`` does), then converted; other documents
    pass through. Documents that do not change (already at the target version, not Dynamo objects)
    are written byte for byte; converted ones keep key order and comments (``_roundtrip``). The output
    always decodes to exactly the converted data, type for type (else it is written without comments)."""
    from .._convert._v1alpha1 import to_v1alpha1, to_v1beta1
    from .._core._diagnostics import Diagnostic
    from .._io._emit import dump_all
    from .._io._load import LoadResult, _decode, _raise_or_return, iter_paths, load, load_text
    from .._io._roundtrip import dump_with_comments, same_data
    from .._pipeline._validate import ValidateOptions, validate_document

    fn = to_v1beta1 if ns.to == "nvidia.com/v1beta1" else to_v1alpha1
    total = LoadResult()
    per_file: list[tuple[str, LoadResult]] = []
    try:
        for f in iter_paths([ns.path]):
            name = "<stdin>" if f == "-" else f
            if f == "-":
                raw = _read_stdin()
            else:
                with open(f, "rb") as fh:
                    raw = fh.read()
            r = load(raw, name)
            total.documents.extend(r.documents)
            total.document_diagnostics.extend(r.document_diagnostics)
            total.errors.extend(r.errors)
            per_file.append((_decode(raw, name)[0] or "", r))  # the loader's own decoding (BOM, UTF-16)
    except FileNotFoundError as exc:
        raise UsageError(f"{ns.path}: no such file or directory") from exc
    except PermissionError as exc:
        raise UsageError(f"{ns.path}: permission denied") from exc
    _raise_or_return(total)  # a load error: LoadError, as for every other subcommand
    texts: list[str] = []
    everything: list[Any] = []
    status = 0
    for text, r in per_file:
        out = []
        for doc in r.documents:
            data = doc.data
            if not (isinstance(data, dict) and isinstance(data.get("apiVersion"), str)
                    and data["apiVersion"].startswith("nvidia.com/")):
                out.append(data)
                continue
            result = validate_document(doc, ValidateOptions())
            if result.status in ("invalid", "error"):
                stderr.writelines(_report_lines(doc, result.diagnostics, result.status))
                status = 1
                continue
            try:
                converted = fn(data)
                if ns.to == "nvidia.com/v1beta1" and data.get("apiVersion") == "nvidia.com/v1alpha1":
                    from .._pipeline._convert_check import legacy_value_warnings

                    stderr.writelines(_report_lines(doc, legacy_value_warnings(data, converted)))
                out.append(converted)
            except Exception as exc:  # noqa: BLE001 - the converter refuses a valid object: reported
                stderr.writelines(_report_lines(doc, [Diagnostic("convert.failed", (), str(exc))]))
                status = 1
        everything.extend(out)
        if status == 0 and out:
            # comments are kept for files up to CONVERT_COMMENTS_MAX characters (the comment-preserving
            # round trip is slow pure Python); a larger file is converted without them
            kept = dump_with_comments(text, r.documents, out) if len(text) <= CONVERT_COMMENTS_MAX else None
            texts.append(kept if kept is not None else dump_all(out))
    if status != 0:
        return status
    result_text = ""
    for t in texts:  # files one after another: each starts a new document
        if result_text:
            result_text += ("" if result_text.endswith("\n") else "\n") + "---\n"
        result_text += t
    try:  # the contract: the output decodes to exactly the converted data, type for type
        ok = same_data([d.data for d in load_text(result_text)], everything)
    except Exception:  # noqa: BLE001 - any doubt: the plain, comment-less output
        ok = False
    stdout.write(result_text if ok else dump_all(everything))
    return 0


CONVERT_COMMENTS_MAX = 200_000


def cmd_render(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Objects as YAML on stdout (or one file each under ``-o DIR``); DeploymentSpec adapters also
    produce request bodies and scripts, printed after a ``# --- NAME`` line (or written as files)."""
    from .._io._emit import dump_all
    from .._pipeline._compile import ConfigFileError, RenderError, read_mapping_document

    _check_namespace(ns)
    _check_operator_version(ns)
    if getattr(ns, "out_deprecated", None):
        stderr.write("warning: render -o DIR is deprecated, use --out DIR (-o means --output in validate and diff)\n")
        ns.out = ns.out or ns.out_deprecated
    mapping = _settings_mapping(ns)
    settings = _admission_settings(ns, mapping)
    provider: dict[str, Any] | None = None
    if ns.provider_config:
        try:
            pdoc = read_mapping_document(ns.provider_config, "provider config")
        except ConfigFileError as exc:
            raise UsageError(str(exc)) from exc
        provider = dict(pdoc.data) if pdoc is not None else {}
        from .._infercrane._settings import SETTINGS

        unknown = [k for k in provider if k not in SETTINGS]
        if unknown and pdoc is not None:
            line, col = pdoc.locate((unknown[0],))
            raise UsageError(f"{pdoc.file}:{line}:{col}: unknown provider setting {_go_quote(str(unknown[0]))}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))
    from .._pipeline._render_stream import render_stream

    result = render_stream(_load(ns.path), target=ns.target, namespace=ns.namespace,
                           operator_version=ns.operator_version, settings=settings,
                           worker_hash_algorithm=ns.worker_hash_algorithm, provider=provider,
                           only_dynamo=ns.only_dynamo, artifacts_as_files=bool(ns.out),
                           stored_view=ns.stored)
    for line in result.messages:
        stderr.write(line + "\n")
    if result.errors:  # every failing document, nothing written
        raise RenderError("render refused", result.errors)
    objs, files = result.objects, result.files
    if ns.out:
        from pathlib import Path

        from .._core._fsutil import UnsafePathError, replace_output

        out = Path(ns.out)
        try:
            written: list[tuple[str, str]] = []
            for i, obj in enumerate(objs):
                name = str((obj.get("metadata") or {}).get("name", "object"))
                rel = f"{i:03d}-{str(obj.get('kind', 'object')).lower()}-{name}.yaml".replace("/", "_")
                written.append((rel, dump_all([obj])))
            # replaces the previous render's files (recorded in DIR/.dynamo-schema-render), nothing else
            replace_output(out, written + list(files))
        except UnsafePathError as exc:
            raise UsageError(str(exc)) from exc
        return 0
    text = dump_all(objs) if objs else ""
    for fname, body in files:
        text += f"# --- {fname}\n{body}" + ("" if body.endswith("\n") else "\n")
    stdout.write(text)
    return 0


def cmd_diff(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .._pipeline._diff import run_diff

    _check_namespace(ns)
    _check_operator_version(ns)
    return run_diff(ns.old, ns.new, ns.target, ns.namespace, stdout, stderr, output=ns.output,
                    settings=_admission_settings(ns), operator_version=ns.operator_version,
                    context=ns.context, show_diff=ns.show_diff)


def cmd_explain(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .._schema._explain import ExplainError, explain

    try:
        text = explain(ns.field, api_version=ns.api_version, recursive=ns.recursive)
    except ExplainError as exc:
        stderr.write(f"error: {exc}\n")
        return 1
    stdout.write(text)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "validate": cmd_validate,
    "schema": cmd_schema,
    "default": cmd_default,
    "merge": cmd_merge,
    "convert": cmd_convert,
    "render": cmd_render,
    "explain": cmd_explain,
    "diff": cmd_diff,
}


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    import contextlib

    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):  # --help, --version, usage
            ns = _parse_validate(argv)
            if ns is None:
                ns = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help exits 0, usage errors exit 2
        return int(exc.code or 0)
    from .._core._diagnostics import DynamoSchemaError

    try:
        return COMMANDS[ns.command](ns, stdout, stderr)
    except UsageError as exc:
        stderr.write(f"error: {exc}\n")
        return 2
    except DynamoSchemaError as exc:
        if ns.debug:
            raise
        for d in exc.diagnostics:
            loc = f"{d.file}:{d.line}:{d.column}: " if d.file else ""
            stderr.write(f"{loc}{d.field + ': ' if d.path else ''}{d.message} [{d.rule}]\n")
        if not exc.diagnostics:
            stderr.write(f"error: {exc}\n")
        return 1
    except BrokenPipeError:  # pragma: no cover - the reader went away (``| head``)
        _silence_stdout(stdout)
        return 0
    except OSError as exc:
        if ns.debug:
            raise
        stderr.write(f"error: {exc}\n")
        return 2
    except Exception as exc:  # a bug, not bad input: no traceback unless --debug
        if ns.debug:
            raise
        from .._core._fsutil import UnsafePathError
        from .._pipeline._compile import ConfigFileError

        if isinstance(exc, (ConfigFileError, UnsafePathError)):
            stderr.write(f"error: {exc}\n")
            return 2
        stderr.write(f"error: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)\n")
        return 2


class _ParseFailed(Exception):
    pass


class _UnshownFormatter(argparse.HelpFormatter):
    """For parsers that never print (``_QuietParser``): a fixed width, so that argparse does not import
    ``shutil`` (with bz2 and lzma) to ask for the terminal's width."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) < 4 and kwargs.get("width") is None:  # (prog, indent_increment, max_help_position, width)
            kwargs["width"] = 80
        super().__init__(*args, **kwargs)


class _QuietParser(argparse.ArgumentParser):
    """Raises instead of printing a usage error; never prints help (``_parse_validate`` excludes it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _UnshownFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise _ParseFailed(message)


def _parse_validate(argv: Sequence[str] | None) -> argparse.Namespace | None:
    """A ``validate`` command line parsed without building the other subcommands (the pre-commit hook's
    path: argparse spends about as long on building them as ``validate`` spends on a small file). None
    when the result could differ from the full parser's: another command, any help option, any error
    (the full parser then prints the usual message)."""
    args = list(sys.argv[1:] if argv is None else argv)
    i = 0
    while i < len(args) and args[i] == "--debug":
        i += 1
    if i >= len(args) or args[i] != "validate" or any(a.startswith(("-h", "--h")) for a in args):
        return None
    try:
        return build_parser(only="validate", parser_class=_QuietParser).parse_args(args)
    except (_ParseFailed, TypeError):  # TypeError: an argparse whose internals differ; the full parser decides
        return None


def _silence_stdout(stdout: TextIO) -> None:
    """After a broken pipe, point the real stdout at /dev/null so the interpreter's final flush is quiet."""
    import os

    if stdout is not sys.stdout:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover
        pass
