"""``diff``: what an update changes in the rendered objects and in a running deployment."""

from __future__ import annotations

import argparse
from typing import TextIO

from .._options import admission_settings, check_namespace, check_operator_version, release_note


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..._pipeline._diff import run_diff

    check_namespace(ns)
    check_operator_version(ns)
    release_note(ns, "diff", stderr)
    return run_diff(ns.old, ns.new, ns.target, ns.namespace, stdout, stderr, output=ns.output,
                    settings=admission_settings(ns, release=False), operator_version=ns.operator_version,
                    context=ns.context, show_diff=ns.show_diff)
