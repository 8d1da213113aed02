"""Reporters for ``validate`` results: text, json, junit, github (see docs cli contract).

Which diagnostics are printed:

* **text** and **github** print errors and warnings, and of the notes only those saying why a file is
  not checked as a manifest (:data:`SHOWN_NOTES`: a Helm template, a JSON6902 patch whose target is
  unknown; github: ``::notice``). A text line is
  ``FILE:LINE:COL: KIND/NAME: FIELD.PATH: MESSAGE [RULE-ID]``; a warning's MESSAGE is prefixed with
  ``warning: ``, a note's with ``note: ``. Parts that are unknown are left out together with their ``: `` separator (no
  position -> ``FILE: ...``; no kind and no name -> no ``KIND/NAME: ``; root path -> no
  ``FIELD.PATH: ``). A resource whose status is ``invalid``/``error`` but carries no printable
  diagnostic still gets one line (``... resource is invalid``) so a failure is never silent.
  The ``--summary`` line follows kubeconform (``pkg/output/text.go``) and its ``found parsing stdin``
  form when ``stdin=True``, but in English: ``resource``/``file`` for a count of 1 only
  (``0 resources``; kubeconform says ``0 resource``; D50).
* **json** lists every resource with every diagnostic (errors, warnings and notes, each with its
  ``severity``), plus the summary counts.
* **junit**: one ``<testsuite>`` per file, one ``<testcase>`` per resource; ``invalid`` ->
  ``<failure>``, ``error`` -> ``<error>``, ``skipped`` -> ``<skipped>``; the element text lists the
  error lines.
* **github**: workflow commands ``::error file=F,line=L,col=C::MSG`` / ``::warning ...``, escaped as
  GitHub's toolkit escapes them (data: ``%``, CR, LF; properties additionally ``:`` and ``,``).
"""

from __future__ import annotations

from typing import Literal

from .._core._diagnostics import Diagnostic
from .._core._record import Record

__all__ = ["ResourceResult", "render_github", "render_json", "render_junit", "render_text",
           "summary_counts"]

Status = Literal["valid", "invalid", "error", "skipped"]


class ResourceResult(Record):
    """The outcome of validating one resource (one document); ``diagnostics`` are located.

    Public as ``dynamo_schema.ResourceResult`` (what ``dynamo_schema.validate`` returns) and what every
    ``validate`` reporter reads: one class, filled once by ``_pipeline/_validate_files.document_result``.

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


def skip_reason(r: ResourceResult) -> str:
    """Why ``r`` was skipped: its ``reason``, else the note of the kind policy that skipped it (or of the
    Helm template / JSON6902 patch check)."""
    if r.reason:
        return r.reason
    return next((d.message for d in r.diagnostics if d.severity == "note"
                 and (d.rule.startswith("policy.") or d.rule in SHOWN_NOTES)), NO_SCHEMA)


def summary_counts(results: list[ResourceResult]) -> dict[str, int]:
    counts = {"valid": 0, "invalid": 0, "errors": 0, "skipped": 0}
    for r in results:
        key = "errors" if r.status == "error" else r.status
        if key in counts:
            counts[key] += 1
    return counts


#: notes that say why a file is not checked as a manifest: printed (``note: ``) in text and github output
SHOWN_NOTES = frozenset({"helm.template", "patch.target-unknown"})


def position_key(d: Diagnostic) -> tuple[bool, str, int, int]:
    """The order of one resource's diagnostics in every report: by file, line and column (notes, which text
    never prints, and ``cel.not-checked``, folded into the first error, after the rest). A stable sort: at
    one place (and for data without positions) the API server's order stays (schema, then ObjectMeta, CEL,
    the webhooks)."""
    return (d.severity == "note" or d.rule == "cel.not-checked", d.file or "", d.line if d.line is not None else 0,
            d.column if d.column is not None else 0)


def _printable(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity in ("error", "warning") or (d.severity == "note" and d.rule in SHOWN_NOTES)]


def _who(r: ResourceResult) -> str:
    if r.kind or r.name:
        return f"{r.kind}/{r.name}"
    return ""


def _text_line(r: ResourceResult, d: Diagnostic) -> str:
    file = d.file or r.filename
    parts = [f"{file}:{d.line}:{d.column}" if d.line is not None else file]
    who = _who(r)
    if who:
        parts.append(who)
    if d.path:
        parts.append(d.field)
    msg = (d.severity + ": " + d.message) if d.severity in ("warning", "note") else d.message
    parts.append(f"{msg} [{d.rule}]")
    return ": ".join(parts)


def render_text(results: list[ResourceResult], summary: bool = False, files_count: int = 0,
                stdin: bool = False) -> str:
    """Human output: one line per error or warning, then optionally the kubeconform summary line."""
    lines: list[str] = []
    for r in results:
        shown = _printable(r.diagnostics)
        for d in shown:
            lines.append(_text_line(r, d))
        if not any(d.severity == "error" for d in shown) and r.status in ("invalid", "error"):
            who = _who(r)
            lines.append(f"{r.filename}: {who + ': ' if who else ''}resource is {r.status}")
    if summary:
        c = summary_counts(results)
        n = len(results)
        res = "resource" + ("s" if n != 1 else "")
        tail = (f"Valid: {c['valid']}, Invalid: {c['invalid']}, Errors: {c['errors']}, "
                f"Skipped: {c['skipped']}")
        if stdin:
            lines.append(f"Summary: {n} {res} found parsing stdin - {tail}")
        else:
            files = "file" + ("s" if files_count != 1 else "")
            lines.append(f"Summary: {n} {res} found in {files_count} {files} - {tail}")
    return "".join(line + "\n" for line in lines)


def render_json(results: list[ResourceResult]) -> str:
    """``{"resources": [...], "summary": {...}}`` as cli.md fixes it, 2-space indented."""
    import json

    doc = {
        "resources": [
            {
                "filename": r.filename,
                "kind": r.kind,
                "name": r.name,
                "version": r.version,
                "status": r.status,
                "errors": [d.to_dict() for d in r.diagnostics],
                **({"reason": skip_reason(r)} if r.status == "skipped" else {}),
            }
            for r in results
        ],
        "summary": summary_counts(results),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_junit(results: list[ResourceResult]) -> str:
    """JUnit XML: ``<testsuites>`` > one ``<testsuite>`` per file > one ``<testcase>`` per resource."""
    import xml.etree.ElementTree as ET

    by_file: dict[str, list[ResourceResult]] = {}
    for r in results:
        by_file.setdefault(r.filename, []).append(r)
    total = summary_counts(results)
    root = ET.Element("testsuites", {
        "name": "dynamo-schema", "tests": str(len(results)), "failures": str(total["invalid"]),
        "errors": str(total["errors"]), "skipped": str(total["skipped"]), "time": "0"})
    for i, (filename, rs) in enumerate(by_file.items()):
        c = summary_counts(rs)
        suite = ET.SubElement(root, "testsuite", {
            "name": filename, "id": str(i), "tests": str(len(rs)), "failures": str(c["invalid"]),
            "errors": str(c["errors"]), "skipped": str(c["skipped"]), "time": "0"})
        for j, r in enumerate(rs):
            name = _who(r) or f"document {j}"
            case = ET.SubElement(suite, "testcase", {
                "name": name, "classname": f"{r.api_version or r.version}/{r.kind}" if (r.api_version or r.version)
                else (r.kind or filename),
                "file": filename, "time": "0"})
            errs = [d for d in r.diagnostics if d.severity == "error"]
            text = "\n".join(_text_line(r, d) for d in _printable(r.diagnostics))
            if r.status in ("invalid", "error"):
                tag = "failure" if r.status == "invalid" else "error"
                first = errs[0].message if errs else f"resource is {r.status}"
                if len(errs) > 1:
                    first += f" (and {len(errs) - 1} more)"
                el = ET.SubElement(case, tag, {"message": first, "type": r.status})
                el.text = text
            elif r.status == "skipped":
                ET.SubElement(case, "skipped", {"message": skip_reason(r)})
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render_github(results: list[ResourceResult]) -> str:
    """GitHub Actions workflow commands, one per error or warning."""
    lines: list[str] = []
    for r in results:
        for d in _printable(r.diagnostics):
            props = [f"file={_escape_property(d.file or r.filename)}"]
            if d.line is not None:
                props.append(f"line={d.line}")
                if d.column is not None:
                    props.append(f"col={d.column}")
            parts = []
            who = _who(r)
            if who:
                parts.append(who)
            if d.path:
                parts.append(d.field)
            parts.append(f"{d.message} [{d.rule}]")
            level = {"warning": "warning", "note": "notice"}.get(d.severity, "error")
            lines.append(f"::{level} {','.join(props)}::{_escape_data(': '.join(parts))}")
        if r.status in ("invalid", "error") and not any(d.severity == "error" for d in r.diagnostics):
            who = _who(r)
            msg = f"{who + ': ' if who else ''}resource is {r.status}"
            lines.append(f"::error file={_escape_property(r.filename)}::{_escape_data(msg)}")
    return "".join(line + "\n" for line in lines)
