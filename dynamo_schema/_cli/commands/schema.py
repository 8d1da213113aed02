"""``schema``: the JSON Schemas generated from the models (or of an earlier operator release), written to a folder."""

from __future__ import annotations

import argparse
from typing import TextIO


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .._options import check_operator_version

    release = check_operator_version(ns)
    if release:
        from ..._pipeline._schemagen import write_release

        paths = write_release(ns.out, release)
    else:
        from ..._pipeline._schemagen import write

        paths = write(ns.out)
    for path in paths:
        stdout.write(f"{path}\n")
    return 0
