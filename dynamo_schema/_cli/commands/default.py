"""``default``: the objects as admission would store them (``_pipeline/_default.py``, every modelled kind)."""

from __future__ import annotations

import argparse
from typing import TextIO

from .._common import load_documents, report_lines
from .._options import admission_settings, check_namespace


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The objects as admission would store them; when admission refuses one, nothing on stdout,
    its errors (``validate``'s line format) on stderr, exit 1."""
    from ..._io._emit import dump_all
    from ..._pipeline._default import stored_object
    from ..._pipeline._validate import ValidateOptions

    check_namespace(ns)
    settings = admission_settings(ns)
    opts = ValidateOptions(settings=settings, namespace=ns.namespace)
    out = []
    status = 0
    for doc in load_documents(ns.path):
        diags, stored, admitted = stored_object(doc, opts)
        stderr.writelines(report_lines(doc, diags))
        if not admitted:
            status = 1
            continue
        out.append(stored)
    if status == 0:
        stdout.write(dump_all(out))
    return status
