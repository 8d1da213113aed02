"""Stage "report": ``validate``'s results as text, json, junit, github, sarif or tap (one module per format).

Every format is a :class:`Reporter` (``_base.py``): ``begin()``, ``result(r)`` per resource (streamed by
text, github and tap), ``end(results)``; :func:`make` picks one by name from :data:`REPORTERS` (the one
registry, modules imported on first use). What a format prints of a result is in ``_result.py``
(:class:`ResourceResult`, its identity, the text line), the summary line in ``_summary.py`` (one wording for
every format), what every format sees in ``_prepare.py`` (:func:`prepare`), rule help for SARIF in
``_rules.py``. ``--verbose``: valid and skipped resources and waived diagnostics are listed too.
Imports only ``_core``.
"""

from __future__ import annotations

from importlib import import_module

from ._base import Reporter
from ._prepare import CEL_NOTE, prepare
from ._result import (
    NO_SCHEMA,
    SHOWN_NOTES,
    ResourceResult,
    Status,
    identity,
    position_key,
    skip_reason,
    summary_counts,
    text_line,
)
from ._summary import summary_line

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CEL_NOTE", "FORMATS", "NO_SCHEMA", "REPORTERS", "SHOWN_NOTES", "Reporter", "ResourceResult", "Status",
           "identity", "make", "position_key", "prepare", "report_text", "skip_reason", "summary_counts",
           "summary_line", "text_line"]

#: format name -> (module of this package, class); the order is ``--output``'s choices
REPORTERS: dict[str, tuple[str, str]] = {
    "text": ("._text", "TextReporter"),
    "json": ("._json", "JsonReporter"),
    "junit": ("._junit", "JunitReporter"),
    "github": ("._github", "GithubReporter"),
    "sarif": ("._sarif", "SarifReporter"),
    "tap": ("._tap", "TapReporter"),
}
FORMATS = tuple(REPORTERS)


def make(fmt: str, **kw: Any) -> Reporter:
    """The reporter of format ``fmt`` (KeyError for an unknown one); ``kw``: summary, verbose, files_count, stdin."""
    module, cls = REPORTERS[fmt]
    reporter: Reporter = getattr(import_module(module, __name__), cls)(**kw)
    return reporter


def report_text(results: list[ResourceResult], fmt: str = "text", **kw: Any) -> str:
    """The whole report of ``results`` in format ``fmt``, each result :func:`prepare`-d first."""
    return make(fmt, **kw).render([prepare(r) for r in results])
