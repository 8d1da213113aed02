"""``python -m dynamo_schema``: the command-line contract of ../shared/spec/cli.md.

Thin by design: argument parsing and exit codes live here; every subcommand calls a library function
(imported lazily, so ``--help`` and the pre-commit hook start fast). Exit codes: 0 success, 1 invalid
input or a refused operation, 2 usage or I/O error. No traceback for bad input unless ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Sequence, TextIO


class UsageError(Exception):
    """Exit 2: a usage or I/O problem (missing file, unreadable stdin, bad option value)."""


def _add_settings_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--settings", metavar="FILE", help="YAML mapping of admission settings (cluster/operator state)")
    p.add_argument("--set", dest="set_", metavar="KEY=VALUE", action="append", default=[],
                   help="one admission setting (repeatable; wins over --settings)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dynamo_schema", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check manifests as the API server and admission webhooks would")
    p.add_argument("--output", "-o", choices=["text", "json", "junit", "github"], default="text")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--strict", dest="strict", action="store_true", default=True)
    g.add_argument("--no-strict", dest="strict", action="store_false")
    p.add_argument("--summary", action="store_true")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N")
    p.add_argument("--old", metavar="OLD", help="validate PATH as an update of the object(s) in OLD")
    p.add_argument("--kubernetes-version", default=None, metavar="X.Y.Z",
                   help="Kubernetes release whose schemas check built-in kinds (default 1.32.0)")
    _add_settings_options(p)
    p.add_argument("paths", nargs="+", metavar="PATH")

    p = sub.add_parser("render", help="render what the operator (or a cloud adapter) creates")
    p.add_argument("--target", default=None)
    p.add_argument("--namespace", default="default")
    p.add_argument("--operator-version", default=None, metavar="X.Y.Z")
    p.add_argument("--provider-config", default=None, metavar="FILE")
    p.add_argument("--worker-hash-algorithm", default=None,
                   choices=["dcd-runtime-version", "dcd", "legacy-v1", "rollout-v2"],
                   help="override the worker-hash rule of the emulated operator release")
    p.add_argument("-o", "--out", default=None, metavar="DIR")
    _add_settings_options(p)
    p.add_argument("path", metavar="PATH")

    p = sub.add_parser("merge", help="apply a DGDR spec.overrides.dgd to a generated DGD")
    p.add_argument("--blueprint", required=True, metavar="BLUEPRINT.yaml")
    p.add_argument("--override", required=True, metavar="OVERRIDE.yaml")

    p = sub.add_parser("schema", help="write the JSON Schemas generated from the models")
    p.add_argument("--out", default="schemas", metavar="DIR")

    p = sub.add_parser("default", help="print the object as admission would store it")
    _add_settings_options(p)
    p.add_argument("path", metavar="PATH")

    p = sub.add_parser("convert", help="convert nvidia.com/v1alpha1 <-> v1beta1")
    p.add_argument("--to", default="nvidia.com/v1beta1", choices=["nvidia.com/v1beta1", "nvidia.com/v1alpha1"])
    p.add_argument("path", metavar="PATH")

    p = sub.add_parser("diff", help="what an update changes in the rendered objects and in a running deployment")
    p.add_argument("--output", "-o", choices=["text", "json"], default="text")
    p.add_argument("--target", default=None)
    p.add_argument("--namespace", default="default")
    p.add_argument("--operator-version", default=None, metavar="X.Y.Z")
    p.add_argument("-U", "--context", type=int, default=3, metavar="N", help="lines of context in object diffs")
    p.add_argument("--no-diff", dest="show_diff", action="store_false", help="summary only")
    _add_settings_options(p)
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")

    p = sub.add_parser("explain", help="field documentation, type, default and constraints")
    p.add_argument("field", metavar="KIND[.FIELD.PATH]")
    return parser


# --------------------------------------------------------------------------------------------------
def _admission_settings(ns: argparse.Namespace) -> Any:
    from ._admission import AdmissionSettings

    mapping: dict[str, Any] = {}
    if getattr(ns, "settings", None):
        import yaml

        try:
            with open(ns.settings, encoding="utf-8") as fh:
                loaded = yaml.safe_load(fh) or {}
        except OSError as exc:
            raise UsageError(f"cannot read settings file: {exc}") from exc
        if not isinstance(loaded, dict):
            raise UsageError(f"{ns.settings}: settings must be a mapping")
        mapping.update(loaded)
    for item in getattr(ns, "set_", []) or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
        import yaml

        mapping[key.strip()] = yaml.safe_load(value) if value else ""
    try:
        return AdmissionSettings.from_mapping(mapping)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"invalid admission settings: {exc}") from exc


def _load(path: str, strict: bool = True) -> list[Any]:
    """Documents of one path; load errors propagate as LoadError, I/O errors as UsageError."""
    from ._load import load_path

    try:
        return load_path(path, strict=strict) if strict is not True else load_path(path)
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such file or directory") from exc
    except PermissionError as exc:
        raise UsageError(f"{path}: permission denied") from exc
    except IsADirectoryError as exc:  # pragma: no cover
        raise UsageError(str(exc)) from exc


def _validate_file(args: tuple[str, Any]) -> list[Any]:
    """Results of one file: one per document; a problem tied to no document is one ``error`` result."""
    path, options = args
    from ._load import load_path_result
    from ._report import ResourceResult
    from ._validate import validate_document

    try:
        loaded = load_path_result(path, strict=options.strict)
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such file or directory") from exc
    except PermissionError as exc:
        raise UsageError(f"{path}: permission denied") from exc
    out = []
    for doc, load_diags in loaded.entries():
        if doc is None:
            out.append(ResourceResult(filename=path, kind="", name="", version="", status="error",
                                      diagnostics=list(load_diags)))
            continue
        load_errors = [d for d in load_diags if d.severity == "error"]
        if load_errors:  # e.g. duplicate keys: the document as read is not what the author wrote
            out.append(ResourceResult(filename=doc.file, kind=doc.kind, name=doc.name,
                                      version=doc.api_version.rpartition("/")[2], status="error",
                                      diagnostics=list(load_diags)))
            continue
        r = validate_document(doc, options)
        out.append(ResourceResult(filename=r.filename, kind=r.kind, name=r.name, version=r.version,
                                  status=r.status, diagnostics=list(load_diags) + r.diagnostics))  # type: ignore[arg-type]
    return out


def cmd_validate(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from . import _report
    from ._load import iter_paths
    from ._validate import ValidateOptions

    try:
        files = iter_paths(ns.paths)
    except FileNotFoundError as exc:
        raise UsageError(f"{exc.filename or exc}: no such file or directory") from exc
    settings = _admission_settings(ns) if (ns.settings or ns.set_) else None
    old = None
    if ns.old:
        old_docs = _load(ns.old)
        old = old_docs[0].data if old_docs else None
    opts = ValidateOptions(strict=ns.strict, settings=settings, old=old,
                           kubernetes_version=ns.kubernetes_version or "1.32.0")
    jobs = max(1, ns.jobs or 1)
    work = [(f, opts) for f in files]
    if jobs > 1 and len(files) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            chunks = list(pool.map(_validate_file, work))
    else:
        chunks = [_validate_file(w) for w in work]
    results = [r for chunk in chunks for r in chunk]
    fmt = ns.output
    if fmt == "json":
        text = _report.render_json(results)
    elif fmt == "junit":
        text = _report.render_junit(results)
    elif fmt == "github":
        text = _report.render_github(results)
    else:
        text = _report.render_text(results, summary=ns.summary, files_count=len(files),
                                   stdin=list(ns.paths) == ["-"])
    if text:
        stdout.write(text if text.endswith("\n") else text + "\n")
    bad = any(r.status in ("invalid", "error") for r in results)
    return 1 if bad else 0


def cmd_schema(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ._schemagen import write

    for path in write(ns.out):
        stdout.write(f"{path}\n")
    return 0


def cmd_default(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ._emit import dump_all
    from ._validate import NVIDIA_KINDS, ValidateOptions, check_nvidia

    settings = _admission_settings(ns)
    opts = ValidateOptions(settings=settings)
    out = []
    status = 0
    for doc in _load(ns.path):
        data = doc.data
        if isinstance(data, dict) and data.get("apiVersion") == "nvidia.com/v1beta1" and data.get("kind") in NVIDIA_KINDS:
            diags, stored = check_nvidia(data, opts)
            for d in diags:
                if d.severity == "error":
                    d = doc.place(d)
                    stderr.write(f"{d.file}:{d.line}:{d.column}: {d.field}: {d.message} [{d.rule}]\n")
            if stored is None:
                status = 1
                continue
            out.append(stored)
        else:
            out.append(data)
    stdout.write(dump_all(out))
    return status


def cmd_merge(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ._merge._cli import run_merge

    return int(run_merge(ns.blueprint, ns.override, stdout, stderr))


def cmd_convert(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ._convert import to_v1alpha1, to_v1beta1
    from ._emit import dump_all

    fn = to_v1beta1 if ns.to == "nvidia.com/v1beta1" else to_v1alpha1
    out = [fn(d.data) if isinstance(d.data, dict) and str(d.data.get("apiVersion", "")).startswith("nvidia.com/")
           else d.data for d in _load(ns.path)]
    stdout.write(dump_all(out))
    return 0


def cmd_render(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Objects as YAML on stdout (or one file each under ``-o DIR``); DeploymentSpec adapters also
    produce request bodies and scripts, printed after a ``# --- NAME`` line (or written as files)."""
    from ._compile import artifact_file, render_deploymentspec, render_object
    from ._diagnostics import DynamoSchemaError
    from ._emit import dump_all
    from ._validate import is_deploymentspec

    settings = _admission_settings(ns)
    docs = _load(ns.path)
    files: list[tuple[str, str]] = []
    objs: list[dict[str, Any]] = []
    for doc in docs:
        data = doc.data
        try:
            if is_deploymentspec(data):
                for art in render_deploymentspec(data, ns.provider_config):
                    content = art.content
                    if isinstance(content, dict) and "apiVersion" in content and "kind" in content and not ns.out:
                        objs.append(content)
                    else:
                        files.append(artifact_file(art))
                continue
            messages: list[tuple[str, str]] = []
            objs.extend(render_object(data, target=ns.target, namespace=ns.namespace,
                                      operator_version=ns.operator_version, settings=settings,
                                      messages=messages, worker_hash_algorithm=ns.worker_hash_algorithm))
            for severity, text in messages:
                stderr.write(f"{severity}: {doc.file}: {text}\n")
        except DynamoSchemaError as exc:
            exc.diagnostics = [doc.place(d) if d.path and "rendered" not in d.message
                               else d.located(doc.file, *doc.locate(())) for d in exc.diagnostics]
            raise
    if ns.out:
        from pathlib import Path

        from ._fsutil import atomic_write

        out = Path(ns.out)
        for i, obj in enumerate(objs):
            name = str((obj.get("metadata") or {}).get("name", "object"))
            rel = f"{i:03d}-{str(obj.get('kind', 'object')).lower()}-{name}.yaml".replace("/", "_")
            atomic_write(out, rel, dump_all([obj]))
        for fname, text in files:
            atomic_write(out, fname, text)
        return 0
    text = dump_all(objs) if objs else ""
    for fname, body in files:
        text += f"# --- {fname}\n{body}" + ("" if body.endswith("\n") else "\n")
    stdout.write(text)
    return 0


def cmd_diff(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ._diff import run_diff

    return run_diff(ns.old, ns.new, ns.target, ns.namespace, stdout, stderr, output=ns.output,
                    settings=_admission_settings(ns), operator_version=ns.operator_version,
                    context=ns.context, show_diff=ns.show_diff)


def cmd_explain(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ._explain import explain

    text = explain(ns.field)
    if text is None:
        stderr.write(f"error: unknown kind or field {ns.field!r}\n")
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
    parser = build_parser()
    try:
        ns = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help exits 0, usage errors exit 2
        return int(exc.code or 0)
    from ._diagnostics import DynamoSchemaError

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
    except OSError as exc:
        if ns.debug:
            raise
        stderr.write(f"error: {exc}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0
