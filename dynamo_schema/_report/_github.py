"""``--output github``: GitHub Actions workflow commands, one per printed diagnostic.

``::error file=F,line=L,col=C::MSG`` / ``::warning …`` / ``::notice …``, escaped as GitHub's toolkit escapes
them (data: ``%``, CR, LF; properties additionally ``:`` and ``,``); ``--summary``: a ``::notice::`` line.
"""

from __future__ import annotations

from ._base import Reporter
from ._result import ResourceResult, printable, status_message, who
from ._summary import summary_line


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    name = "github"

    def result(self, r: ResourceResult) -> str:
        lines: list[str] = []
        for d in printable(r.diagnostics):
            props = [f"file={_escape_property(d.file or r.filename)}"]
            if d.line is not None:
                props.append(f"line={d.line}")
                if d.column is not None:
                    props.append(f"col={d.column}")
            parts = [p for p in (who(r), d.field if d.path else "") if p]
            parts.append(f"{d.message} [{d.rule}]")
            level = {"warning": "warning", "note": "notice"}.get(d.severity, "error")
            lines.append(f"::{level} {','.join(props)}::{_escape_data(': '.join(parts))}")
        if r.status in ("invalid", "error") and not any(d.severity == "error" for d in r.diagnostics):
            lines.append(f"::error file={_escape_property(r.filename)}::{_escape_data(status_message(r))}")
        return "".join(line + "\n" for line in lines)

    def end(self, results: list[ResourceResult]) -> str:
        return f"::notice::{summary_line(results, self.files_count, self.stdin)}\n" if self.summary else ""
