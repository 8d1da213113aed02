"""``schema``: the JSON Schemas generated from the models (or of an earlier operator release), written to a
folder (``--with-core-descriptions``: with the Kubernetes core types' descriptions of the installed
kubernetes-validate)."""

from __future__ import annotations

import argparse
from typing import TextIO


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .._options import check_operator_version

    release = check_operator_version(ns)
    if release:
        from ..._pipeline._schemagen import write_release

        paths = write_release(ns.out, release, core_descriptions=getattr(ns, "with_core_descriptions", False))
    else:
        from ..._pipeline._schemagen import write

        paths = write(ns.out, core_descriptions=getattr(ns, "with_core_descriptions", False))
    for path in paths:
        stdout.write(f"{path}\n")
    return 0
