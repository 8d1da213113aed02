"""The summary line, one wording for every format (``--summary``).

kubeconform's line (``pkg/output/text.go``) and its ``found parsing stdin`` form, in English:
``resource``/``file`` for a count of 1 only (``0 resources``, where kubeconform says ``0 resource``; D50), and
``, Waived: N`` when waivers covered diagnostics. Text prints it as is, github as a ``::notice::``, tap as a
``#`` comment, junit as an XML comment, sarif as ``runs[0].properties.summaryText``.
"""

from __future__ import annotations

from ._result import ResourceResult, summary_counts


def waived_count(results: list[ResourceResult]) -> int:
    return sum(len(r.waived) for r in results)


def summary_line(results: list[ResourceResult], files_count: int, stdin: bool = False) -> str:
    """``Summary: N resources found in M files - Valid: …, Invalid: …, Errors: …, Skipped: …[, Waived: …]``."""
    c = summary_counts(results)
    n = len(results)
    res = "resource" + ("s" if n != 1 else "")
    tail = f"Valid: {c['valid']}, Invalid: {c['invalid']}, Errors: {c['errors']}, Skipped: {c['skipped']}"
    waived = waived_count(results)
    if waived:
        tail += f", Waived: {waived}"
    if stdin:
        return f"Summary: {n} {res} found parsing stdin - {tail}"
    files = "file" + ("s" if files_count != 1 else "")
    return f"Summary: {n} {res} found in {files_count} {files} - {tail}"
