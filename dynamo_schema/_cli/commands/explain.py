"""``explain``: field documentation, type, default and constraints."""

from __future__ import annotations

import argparse
from typing import TextIO


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..._schema._explain import ExplainError, explain
    from .._options import check_operator_version

    release = check_operator_version(ns)
    try:
        text = explain(ns.field, api_version=ns.api_version, recursive=ns.recursive, release=release)
    except ExplainError as exc:
        stderr.write(f"error: {exc}\n")
        return 1
    stdout.write(text)
    return 0
