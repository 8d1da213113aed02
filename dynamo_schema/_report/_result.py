"""One resource's ``validate`` result and what every report reads of it (its identity, printable lines).

Which diagnostics are printed: **text**, **github** and **tap** print errors and warnings, and of the notes only
those saying why a file is not checked as a manifest (:data:`SHOWN_NOTES`: a Helm template, a JSON6902 patch
whose target is unknown). A text line is ``FILE:LINE:COL: KIND/NAME: FIELD.PATH: MESSAGE [RULE-ID]``; a
warning's MESSAGE is prefixed with ``warning: ``, a note's with ``note: ``. Parts that are unknown are left out
together with their ``: `` separator (no position -> ``FILE: ...``; no kind and no name -> no ``KIND/NAME: ``;
root path -> no ``FIELD.PATH: ``). A resource whose status is ``invalid``/``error`` but carries no printable
error still gets one line (:func:`silent_failure_line`: ``... resource is invalid``), so a failure is never
silent.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from .._core._record import Record

__all__ = ["NO_SCHEMA", "SHOWN_NOTES", "ResourceResult", "Status", "group_of", "identity", "one_line",
           "position_key", "printable", "silent_failure_line", "skip_reason", "status_message", "summary_counts", "text_line", "who"]

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Literal

    Status = Literal["valid", "invalid", "error", "skipped"]
else:
    Status = str


class ResourceResult(Record):
    """The outcome of validating one resource (one document); ``diagnostics`` are located.

    Public as ``dynamo_schema.ResourceResult`` (what ``dynamo_schema.validate`` returns) and what every
    ``validate`` reporter reads: one class, filled once by ``_pipeline/_result.document_result``.

    * ``status``: ``valid`` | ``invalid`` (a rule refuses it) | ``error`` (it cannot be read or decoded) |
      ``skipped`` (no schema for its kind, or not a Kubernetes object; ``reason`` says why, and for a
      kind without a schema a ``policy.*`` note says it too);
    * identity: ``filename`` (``""`` for an in-memory object), ``index`` (the document's 0-based position
      in its file or in the list given; ``None`` for a problem tied to no document, e.g. a YAML syntax
      error), ``api_version``, ``version`` (its version part), ``kind``, ``name``, ``namespace``;
    * ``diagnostics``: errors, warnings and notes, located (``line``/``column`` are ``None`` when the
      input has no source positions); ``waived``: diagnostics a waiver covers.

    A mutable value with a dataclass's constructor, equality, repr, pickling and
    ``dataclasses.replace``, written out: no dataclass on a cold start (docs/decisions.md D32).
    """

    __slots__ = _FIELDS = ("filename", "kind", "name", "version", "status", "diagnostics",
                           "api_version", "waived", "namespace", "index", "reason")
    filename: str
    kind: str
    name: str
    version: str
    status: Status
    diagnostics: list[Diagnostic]
    api_version: str  # the full apiVersion (group included); "" when unknown
    waived: list[Diagnostic]  # diagnostics covered by a waiver (_waivers)
    namespace: str  # metadata.namespace; "" when unset
    index: int | None  # the document's position in its input; None: a problem tied to no document
    reason: str  # why a ``skipped`` resource was skipped ("" when not skipped)

    def __init__(self, filename: str, kind: str, name: str, version: str, status: Status,
                 diagnostics: list[Diagnostic] | None = None, api_version: str = "",
                 waived: list[Diagnostic] | None = None, namespace: str = "", index: int | None = None,
                 reason: str = "") -> None:
        self.filename = filename
        self.kind = kind
        self.name = name
        self.version = version
        self.status = status
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.api_version = api_version
        self.waived = [] if waived is None else waived
        self.namespace = namespace
        self.index = index
        self.reason = reason

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity ``error`` (what makes it ``invalid``/``error``)."""
        return [d for d in self.diagnostics if d.severity == "error"]


#: the reason of a skipped resource that carries none (a result made by older code)
NO_SCHEMA = "no schema for this kind"

#: notes that say why a file is not checked as a manifest: printed (``note: ``) in text, github and tap output
SHOWN_NOTES = frozenset({"helm.template", "patch.target-unknown"})


def skip_reason(r: ResourceResult) -> str:
    """Why ``r`` was skipped: its ``reason``, else the note of the kind policy that skipped it (or of the
    Helm template / JSON6902 patch check)."""
    if r.reason:
        return r.reason
    return next((d.message for d in r.diagnostics if d.severity == "note"
                 and (d.rule.startswith("policy.") or d.rule in SHOWN_NOTES)), NO_SCHEMA)


def summary_counts(results: list[ResourceResult]) -> dict[str, int]:
    """``{"valid", "invalid", "errors", "skipped"}`` counts (kubeconform's summary)."""
    counts = {"valid": 0, "invalid": 0, "errors": 0, "skipped": 0}
    for r in results:
        key = "errors" if r.status == "error" else r.status
        if key in counts:
            counts[key] += 1
    return counts


def position_key(d: Diagnostic) -> tuple[bool, str, int, int]:
    """The order of one resource's diagnostics in every report: by file, line and column (notes, which text
    never prints, and ``cel.not-checked``, folded into the first error, after the rest). A stable sort: at
    one place (and for data without positions) the API server's order stays (schema, then ObjectMeta, CEL,
    the webhooks)."""
    return (d.severity == "note" or d.rule == "cel.not-checked", d.file or "", d.line if d.line is not None else 0,
            d.column if d.column is not None else 0)


def printable(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics a line-oriented report prints: errors, warnings and the :data:`SHOWN_NOTES`."""
    return [d for d in diags if d.severity in ("error", "warning") or (d.severity == "note" and d.rule in SHOWN_NOTES)]


def who(r: ResourceResult) -> str:
    """``KIND/NAME`` (``""`` when neither is known)."""
    if r.kind or r.name:
        return f"{r.kind}/{r.name}"
    return ""


def group_of(r: ResourceResult) -> str:
    return r.api_version.rpartition("/")[0] if r.api_version else ""


def identity(r: ResourceResult) -> str:
    """``group/version/Kind/name`` (``version/Kind/name`` for the core group)."""
    api = r.api_version or r.version
    return "/".join(p for p in (api, r.kind, r.name) if p)


def text_line(r: ResourceResult, d: Diagnostic) -> str:
    """``FILE:LINE:COL: KIND/NAME: FIELD.PATH: MESSAGE [RULE-ID]`` (unknown parts left out)."""
    file = d.file or r.filename
    parts = [f"{file}:{d.line}:{d.column}" if d.line is not None else file]
    name = who(r)
    if name:
        parts.append(name)
    if d.path:
        parts.append(d.field)
    msg = (d.severity + ": " + d.message) if d.severity in ("warning", "note") else d.message
    parts.append(f"{msg} [{d.rule}]")
    return ": ".join(parts)


def status_message(r: ResourceResult) -> str:
    """``KIND/NAME: resource is STATUS`` (``resource is STATUS`` when neither is known)."""
    name = who(r)
    return f"{name + ': ' if name else ''}resource is {r.status}"


def silent_failure_line(r: ResourceResult) -> str:
    """``FILE: KIND/NAME: resource is STATUS`` (the line of a resource with no printable diagnostic)."""
    return f"{r.filename}: {status_message(r)}"


def one_line(s: str) -> str:
    return s.replace("\r", " ").replace("\n", " ")
