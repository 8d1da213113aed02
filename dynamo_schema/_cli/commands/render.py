"""``render``: what the operator (or a cloud adapter) creates, on stdout or as files."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..._k8s._gofmt import go_quote
from .._common import UsageError, load_documents, report_lines
from .._options import (
    admission_settings,
    check_namespace,
    check_operator_version,
    operator_config,
    release_note,
    settings_mapping,
)


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Objects as YAML on stdout (or one file each under ``-o DIR``); DeploymentSpec adapters also
    produce request bodies and scripts, printed as YAML comment blocks after a ``# --- NAME`` line (so the
    stream stays valid YAML) or written as files."""
    from ..._io._emit import dump_all
    from ..._pipeline._config import ConfigFileError, read_mapping_document

    check_namespace(ns)
    check_operator_version(ns)
    if ns.target is not None:  # a name no target has is a usage error (exit 2), as diff's
        from ..._render.targets import TARGETS

        if ns.target not in TARGETS:
            raise UsageError(f"unknown target {ns.target!r} (one of {', '.join(TARGETS)})")
    if getattr(ns, "out_deprecated", None):
        stderr.write("warning: render -o DIR is deprecated, use --out DIR (-o means --output in validate and diff)\n")
        ns.out = ns.out or ns.out_deprecated
    mapping = settings_mapping(ns)
    release_note(ns, "render", stderr)
    settings = admission_settings(ns, mapping, release=False)
    provider: dict[str, Any] | None = None
    if ns.provider_config:
        try:
            pdoc = read_mapping_document(ns.provider_config, "provider config")
        except ConfigFileError as exc:
            raise UsageError(str(exc)) from exc
        provider = dict(pdoc.data) if pdoc is not None else {}
        from ..._infercrane._settings import SETTINGS

        unknown = [k for k in provider if k not in SETTINGS]
        if unknown and pdoc is not None:
            line, col = pdoc.locate((unknown[0],))
            raise UsageError(f"{pdoc.file}:{line}:{col}: unknown provider setting {go_quote(str(unknown[0]))}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))
    from ..._pipeline._render_stream import render_stream

    result = render_stream(load_documents(ns.path), target=ns.target, namespace=ns.namespace,
                           operator_version=ns.operator_version, settings=settings,
                           worker_hash_algorithm=ns.worker_hash_algorithm, provider=provider,
                           only_dynamo=ns.only_dynamo, artifacts_as_files=bool(ns.out),
                           stored_view=ns.stored, options=operator_config(ns)[1])
    for line in result.messages:
        stderr.write(line + "\n")
    if result.errors or result.failed:  # every failing document, in validate's line format; nothing written
        for doc, diags in result.failed:
            stderr.writelines(report_lines(doc, diags))
        return 1
    objs, files = result.objects, result.files
    if ns.out:
        from pathlib import Path

        from ..._core._fsutil import UnsafePathError, replace_output

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
    for fname, body in files:  # as YAML comments: the stream stays one `kubectl apply -f -` / `validate -` reads
        text += f"# --- {fname} (an adapter artifact, a file with --out DIR)\n"
        text += "".join(f"# {line}".rstrip() + "\n" for line in body.splitlines())
    stdout.write(text)
    return 0
