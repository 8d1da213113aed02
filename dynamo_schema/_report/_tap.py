"""``--output tap``: TAP version 13, as kubeconform's ``tap`` output: one test point per resource, the plan at
the end; the printed diagnostics as ``#`` lines; ``--summary``: a ``# Summary:`` comment."""

from __future__ import annotations

from typing import Any

from ._base import Reporter
from ._result import ResourceResult, identity, one_line, printable, skip_reason, text_line
from ._summary import summary_line


class TapReporter(Reporter):
    name = "tap"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.n = 0

    def begin(self) -> str:
        return "TAP version 13\n"

    def result(self, r: ResourceResult) -> str:
        self.n += 1
        name = identity(r)
        head = f"{r.filename}" + (f" ({name})" if name else "")
        shown = printable(r.diagnostics)
        if r.status in ("invalid", "error"):
            errs = [d for d in shown if d.severity == "error"]
            msg = errs[0].message if errs else f"resource is {r.status}"
            lines = [f"not ok {self.n} - {head}: {one_line(msg)}"]
        elif r.status == "skipped":
            lines = [f"ok {self.n} - {head} # SKIP {one_line(skip_reason(r))}"]
        else:
            lines = [f"ok {self.n} - {head}"]
        lines += ["# " + one_line(text_line(r, d)) for d in shown]
        if self.verbose:
            lines += ["# waived: " + one_line(text_line(r, d)) for d in r.waived]
        return "".join(line + "\n" for line in lines)

    def end(self, results: list[ResourceResult]) -> str:
        out = f"1..{self.n}\n"
        if self.summary:
            out += f"# {summary_line(results, self.files_count, self.stdin)}\n"
        return out
