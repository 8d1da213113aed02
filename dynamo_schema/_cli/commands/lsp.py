"""``lsp``: the language server over standard input and output (needs the ``lsp`` extra: pygls)."""

from __future__ import annotations

import argparse
from typing import TextIO


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        from ..._lsp._server import serve
    except ImportError as exc:  # pygls is an optional dependency
        stderr.write(f"error: the language server needs pygls ({exc}): pip install 'dynamo-schema[lsp]'\n")
        return 2
    return serve()
