"""``--output text`` (the default): one line per printed diagnostic, then ``--summary``'s line."""

from __future__ import annotations

from ._base import Reporter
from ._result import ResourceResult, printable, silent_failure_line, skip_reason, text_line
from ._summary import summary_line


def text_lines(r: ResourceResult) -> list[str]:
    """The lines of one resource (:func:`text_line` per printed diagnostic; one line for a failure with none)."""
    shown = printable(r.diagnostics)
    lines = [text_line(r, d) for d in shown]
    if not any(d.severity == "error" for d in shown) and r.status in ("invalid", "error"):
        lines.append(silent_failure_line(r))
    return lines


class TextReporter(Reporter):
    name = "text"

    def result(self, r: ResourceResult) -> str:
        lines = text_lines(r)
        if self.verbose:
            lines += ["waived: " + text_line(r, d if d.file else d.located(r.filename, d.line, d.column))
                      for d in r.waived]
            if r.status in ("valid", "skipped"):
                lines.append(silent_failure_line(r) + (f" ({skip_reason(r)})" if r.status == "skipped" else ""))
        return "".join(line + "\n" for line in lines)

    def end(self, results: list[ResourceResult]) -> str:
        return summary_line(results, self.files_count, self.stdin) + "\n" if self.summary else ""
