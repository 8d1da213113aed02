"""The one shape of an output format (kubeconform's ``pkg/output.Output``, check-jsonschema's reporters).

``begin()`` -> text written first, ``result(r)`` -> text for one resource (written as soon as its file is
done: streaming), ``end(results)`` -> the closing text. ``streams`` is False for a format that is one
document (json, junit, sarif: everything is written by ``end``).
"""

from __future__ import annotations

from ._result import ResourceResult


class Reporter:
    """A ``validate`` output format; one module of ``_report/`` per format, registered in ``_report.REPORTERS``."""

    name = ""
    streams = True

    def __init__(self, *, summary: bool = False, verbose: bool = False, files_count: int = 0,
                 stdin: bool = False) -> None:
        self.summary, self.verbose, self.files_count, self.stdin = summary, verbose, files_count, stdin

    def begin(self) -> str:
        return ""

    def result(self, r: ResourceResult) -> str:
        return ""

    def end(self, results: list[ResourceResult]) -> str:
        return ""

    def render(self, results: list[ResourceResult]) -> str:
        """The whole report of ``results`` at once (what a streamed run writes, concatenated)."""
        return self.begin() + "".join(self.result(r) for r in results) + self.end(results)
