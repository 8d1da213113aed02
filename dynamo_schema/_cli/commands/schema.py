"""``schema``: the JSON Schemas generated from the models, written to a folder (``--with-core-descriptions``:
with the Kubernetes core types' descriptions of the installed kubernetes-validate)."""

from __future__ import annotations

import argparse
from typing import TextIO


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..._pipeline._schemagen import write

    for path in write(ns.out, core_descriptions=getattr(ns, "with_core_descriptions", False)):
        stdout.write(f"{path}\n")
    return 0
