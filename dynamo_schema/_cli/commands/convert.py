"""``convert``: nvidia.com/v1alpha1 <-> v1beta1, comments and key order kept."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .._common import read_stdin, report_lines, usage_errors


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Every Dynamo document validated first (as ``validate`` does), then converted; other documents
    pass through. Documents that do not change (already at the target version, not Dynamo objects)
    are written byte for byte; converted ones keep key order and comments (``_roundtrip``). The output
    always decodes to exactly the converted data, type for type (else it is written without comments)."""
    from ..._convert._v1alpha1 import to_v1alpha1, to_v1beta1
    from ..._core._diagnostics import Diagnostic
    from ..._io._emit import dump_all
    from ..._io._load import LoadResult, _raise_or_return, decode_input, iter_paths, load, load_text
    from ..._io._roundtrip import dump_with_comments, same_data
    from ..._pipeline._validate import ValidateOptions, validate_document

    fn = to_v1beta1 if ns.to == "nvidia.com/v1beta1" else to_v1alpha1
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
    _raise_or_return(total)  # a load error: LoadError, as for every other subcommand
    texts: list[str] = []
    everything: list[Any] = []
    status = 0
    for text, r in per_file:
        out = []
        for doc in r.documents:
            data = doc.data
            if not (isinstance(data, dict) and isinstance(data.get("apiVersion"), str)
                    and data["apiVersion"].startswith("nvidia.com/")):
                out.append(data)
                continue
            result = validate_document(doc, ValidateOptions())
            if result.status in ("invalid", "error"):
                stderr.writelines(report_lines(doc, result.diagnostics, result.status))
                status = 1
                continue
            try:
                converted = fn(data)
                if ns.to == "nvidia.com/v1beta1" and data.get("apiVersion") == "nvidia.com/v1alpha1":
                    from ..._pipeline._convert_check import legacy_value_warnings

                    stderr.writelines(report_lines(doc, legacy_value_warnings(data, converted)))
                out.append(converted)
            except Exception as exc:  # noqa: BLE001 - the converter refuses a valid object: reported
                stderr.writelines(report_lines(doc, [Diagnostic("convert.failed", (), str(exc))]))
                status = 1
        everything.extend(out)
        if status == 0 and out:
            # comments are kept for files up to CONVERT_COMMENTS_MAX characters (the comment-preserving
            # round trip is slow pure Python); a larger file is converted without them
            kept = dump_with_comments(text, r.documents, out) if len(text) <= CONVERT_COMMENTS_MAX else None
            texts.append(kept if kept is not None else dump_all(out))
    if status != 0:
        return status
    result_text = ""
    for t in texts:  # files one after another: each starts a new document
        if result_text:
            result_text += ("" if result_text.endswith("\n") else "\n") + "---\n"
        result_text += t
    try:  # the contract: the output decodes to exactly the converted data, type for type
        ok = same_data([d.data for d in load_text(result_text)], everything)
    except Exception:  # noqa: BLE001 - any doubt: the plain, comment-less output
        ok = False
    stdout.write(result_text if ok else dump_all(everything))
    return 0


CONVERT_COMMENTS_MAX = 200_000
