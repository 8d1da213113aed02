"""``diff``: what an update changes in the rendered objects and in a running deployment."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .._options import admission_settings, check_namespace, check_operator_version, release_note


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    check_namespace(ns)
    check_operator_version(ns)
    release_note(ns, "diff", stderr)
    return run_diff(ns.old, ns.new, ns.target, ns.namespace, stdout, stderr, output=ns.output,
                    settings=admission_settings(ns, release=False), operator_version=ns.operator_version,
                    context=ns.context, show_diff=ns.show_diff)


def run_diff(old_path: str, new_path: str, target: str | None, namespace: str, stdout: TextIO, stderr: TextIO,
             *, output: str = "text", settings: Any = None, operator_version: str | None = None,
             context: int = 3, show_diff: bool = True) -> int:
    """The ``diff`` subcommand, with ``kubectl diff``'s exit codes (docs/cli.md, D52): 0 no differences;
    1 differences (the update would be admitted); 2 an error: the update would be refused, an input is
    invalid, or a usage or I/O error."""
    from ..._grove._update import WEBHOOK
    from ..._pipeline._diff import DiffInputError, diff_files
    from ..._report._diff import diff_json, diff_text

    if output not in ("text", "json"):
        stderr.write(f"error: unknown output format {output!r} (text or json)\n")
        return 2
    try:
        reports = diff_files(old_path, new_path, target, namespace, settings=settings,
                             operator_version=operator_version, context=context)
    except DiffInputError as exc:
        stderr.write("".join(line + "\n" for line in exc.lines))
        return 2
    stdout.write(diff_json(reports) if output == "json" else diff_text(reports, show_diff, WEBHOOK))
    if any(r.refused for r in reports):
        return 2
    return 1 if any(r.changed for r in reports) else 0
