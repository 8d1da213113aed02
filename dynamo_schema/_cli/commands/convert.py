"""``convert``: nvidia.com/v1alpha1 <-> v1beta1, comments and key order kept (``_pipeline/_convert_files.py``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from .._common import read_stdin, report_lines, usage_errors

if TYPE_CHECKING:  # pragma: no cover
    from ..._core._diagnostics import Diagnostic
    from ..._core._document import Document


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The inputs read (a load error: ``LoadError``, as for every other subcommand) and converted; refusals
    and warnings on stderr in ``validate``'s line format, exit 1 when a document is refused."""
    from ..._io._load import LoadResult, decode_input, documents_or_raise, iter_paths, load
    from ..._pipeline._convert_files import convert_files

    total = LoadResult()
    per_file: list[tuple[str, LoadResult]] = []
    with usage_errors(ns.path):
        for f in iter_paths([ns.path]):
            name = "<stdin>" if f == "-" else f
            if f == "-":
                raw = read_stdin()
            else:
                with open(f, "rb") as fh:
                    raw = fh.read()
            r = load(raw, name)
            total.documents.extend(r.documents)
            total.document_diagnostics.extend(r.document_diagnostics)
            total.errors.extend(r.errors)
            per_file.append((decode_input(raw, name)[0] or "", r))  # the loader's own decoding (BOM, UTF-16)
    documents_or_raise(total)

    def report(doc: Document, diags: list[Diagnostic], status: str) -> None:
        stderr.writelines(report_lines(doc, diags, status))

    text = convert_files(per_file, ns.to, report)
    if text is None:
        return 1
    stdout.write(text)
    return 0
