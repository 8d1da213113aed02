"""``default``: the objects as admission would store them."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..._core._access import as_str
from .._common import load_documents, report_lines
from .._options import admission_settings


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The objects as admission would store them; when admission refuses one, nothing on stdout,
    its errors (``validate``'s line format) on stderr, exit 1."""
    from ..._io._emit import dump_all
    from ..._pipeline._validate import NVIDIA_KINDS, ValidateOptions, check_nvidia, unknown_kind

    settings = admission_settings(ns)
    opts = ValidateOptions(settings=settings)
    out = []
    status = 0
    for doc in load_documents(ns.path):
        data = doc.data
        api = data.get("apiVersion") if isinstance(data, dict) else None
        if isinstance(api, str) and api.rpartition("/")[0] == "nvidia.com":
            kind = as_str(data.get("kind"))
            if api not in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1") or kind not in NVIDIA_KINDS:
                stderr.writelines(report_lines(doc, [unknown_kind(api, kind)]))
                status = 1
                continue
            diags, stored = check_nvidia(data, opts)
            stderr.writelines(report_lines(doc, diags))
            if stored is None or any(d.severity == "error" for d in diags):
                status = 1
                continue
            out.append(stored)
        else:
            out.append(data)
    if status == 0:
        stdout.write(dump_all(out))
    return status
