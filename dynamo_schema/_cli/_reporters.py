"""Output formats of ``validate`` as plug-ins of one shape, plus the shared post-processing.

Every format is a :class:`Reporter`: ``begin()`` -> text written first, ``result(r)`` -> text for one
resource (written as soon as its file is done: streaming), ``end(results, summary)`` -> the closing
text. ``text``, ``github`` and ``tap`` stream; ``json``, ``junit`` and ``sarif`` are one document,
written at the end. ``--summary`` is honoured by every format (text: kubeconform's line; github: a
``::notice::`` line; tap: a ``# Summary:`` comment; junit: an XML comment before the root; json: the
``summary`` object, always present; sarif: ``runs[0].properties.summary``). ``--verbose``: valid and
skipped resources and waived diagnostics are listed too.

Before any format sees a result, :func:`prepare` sorts its diagnostics by position and attaches a ``cel.not-checked`` companion (the API
server skips CEL when the schema check failed) to the first schema error of the same resource, as a
note, and prints an unknown field's ``schema.did-you-mean`` suggestion on that field's line: one printed
line per real problem.
"""

from __future__ import annotations

import json
from typing import Any

from .._core._diagnostics import Diagnostic
from .._io._report import ResourceResult, _printable, _text_line, _who, position_key, skip_reason, summary_counts

FORMATS = ("text", "json", "junit", "github", "sarif", "tap")

CEL_NOTE = "CEL rules not checked until the schema errors are fixed"


def _fold_suggestions(r: ResourceResult) -> ResourceResult:
    """Print the ``schema.did-you-mean`` note of an unknown field on that field's line
    (``unknown field "spec.replica", did you mean "replicas"?``): the library keeps upstream's message
    and the suggestion apart, the command line shows them as one. Likewise the ``*.runtime-version-image``
    note (which image has no version tag) on its ``*.runtime-version-override-required`` error's line (the
    note itself is kept, as a note: json lists it, text prints no notes)."""
    notes = {(d.file, d.line, d.path): d.message for d in r.diagnostics if d.rule == "schema.did-you-mean"}
    images = {(d.file, d.line, d.rule.rsplit(".", 1)[0]): d.message for d in r.diagnostics
              if d.rule.endswith(".runtime-version-image") and d.severity == "note"}
    if not notes and not images:
        return r
    out: list[Diagnostic] = []
    for d in r.diagnostics:
        if d.rule == "schema.did-you-mean":
            continue  # the image note stays (json, the library and the editor have it; text prints no notes)
        hint = notes.get((d.file, d.line, d.path)) if d.rule == "schema.unknown-field" else None
        if hint:
            d = d._replace(message=f"{d.message}, {hint}")
        image = images.get((d.file, d.line, d.rule.rsplit(".", 1)[0])) \
            if d.rule.endswith(".runtime-version-override-required") else None
        out.append(d._replace(message=f"{d.message} ({image})") if image else d)
    return r._replace(diagnostics=out)


def prepare(r: ResourceResult) -> ResourceResult:
    """Sort the diagnostics of the resource by file, line and column (stable: the pipeline's order
    among equals); fold ``cel.not-checked`` into the first other error of the resource (kept as a note in
    json), and an unknown field's suggestion into its line."""
    r = _fold_suggestions(r)
    if any(position_key(a) > position_key(b) for a, b in zip(r.diagnostics, r.diagnostics[1:])):
        r = r._replace(diagnostics=sorted(r.diagnostics, key=position_key))
    cel = [d for d in r.diagnostics if d.rule == "cel.not-checked" and d.severity == "error"]
    others = [d for d in r.diagnostics if d.severity == "error" and d.rule != "cel.not-checked"]
    if not cel or not others:
        return r
    first = others[0]
    out: list[Diagnostic] = []
    for d in r.diagnostics:
        if d is first:
            out.append(d._replace(message=f"{d.message} (note: {CEL_NOTE})"))
        elif d.rule == "cel.not-checked":
            out.append(d._replace(severity="note"))
        else:
            out.append(d)
    return r._replace(diagnostics=out)


def group_of(r: ResourceResult) -> str:
    return r.api_version.rpartition("/")[0] if r.api_version else ""


def identity(r: ResourceResult) -> str:
    """``group/version/Kind/name`` (``version/Kind/name`` for the core group)."""
    api = r.api_version or r.version
    parts = [p for p in (api, r.kind, r.name) if p]
    return "/".join(parts)


def summary_text(results: list[ResourceResult], files_count: int, stdin: bool) -> str:
    c = summary_counts(results)
    n = len(results)
    res = "resource" + ("s" if n != 1 else "")
    tail = f"Valid: {c['valid']}, Invalid: {c['invalid']}, Errors: {c['errors']}, Skipped: {c['skipped']}"
    waived = sum(len(r.waived) for r in results)
    if waived:
        tail += f", Waived: {waived}"
    if stdin:
        return f"Summary: {n} {res} found parsing stdin - {tail}"
    files = "file" + ("s" if files_count != 1 else "")
    return f"Summary: {n} {res} found in {files_count} {files} - {tail}"


class Reporter:
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


class TextReporter(Reporter):
    def result(self, r: ResourceResult) -> str:
        from .._io._report import render_text

        out = render_text([r])
        if self.verbose:
            for d in r.waived:
                out += "waived: " + _text_line(r, d if d.file else d.located(r.filename, d.line, d.column)) + "\n"
            if r.status in ("valid", "skipped"):
                who = _who(r)
                out += f"{r.filename}: {who + ': ' if who else ''}resource is {r.status}" \
                       + (f" ({skip_reason(r)})" if r.status == "skipped" else "") + "\n"
        return out

    def end(self, results: list[ResourceResult]) -> str:
        return summary_text(results, self.files_count, self.stdin) + "\n" if self.summary else ""


class GithubReporter(Reporter):
    def result(self, r: ResourceResult) -> str:
        from .._io._report import render_github

        return render_github([r])

    def end(self, results: list[ResourceResult]) -> str:
        return f"::notice::{summary_text(results, self.files_count, self.stdin)}\n" if self.summary else ""


class TapReporter(Reporter):
    """TAP version 13, as kubeconform's ``tap`` output: one test point per resource, plan at the end."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.n = 0

    def begin(self) -> str:
        return "TAP version 13\n"

    def result(self, r: ResourceResult) -> str:
        self.n += 1
        who = identity(r)
        head = f"{r.filename}" + (f" ({who})" if who else "")
        shown = _printable(r.diagnostics)
        if r.status in ("invalid", "error"):
            errs = [d for d in shown if d.severity == "error"]
            msg = errs[0].message if errs else f"resource is {r.status}"
            lines = [f"not ok {self.n} - {head}: {_one_line(msg)}"]
        elif r.status == "skipped":
            lines = [f"ok {self.n} - {head} # SKIP {_one_line(skip_reason(r))}"]
        else:
            lines = [f"ok {self.n} - {head}"]
        lines += ["# " + _one_line(_text_line(r, d)) for d in shown]
        if self.verbose:
            lines += ["# waived: " + _one_line(_text_line(r, d)) for d in r.waived]
        return "".join(line + "\n" for line in lines)

    def end(self, results: list[ResourceResult]) -> str:
        out = f"1..{self.n}\n"
        if self.summary:
            out += f"# {summary_text(results, self.files_count, self.stdin)}\n"
        return out


def _one_line(s: str) -> str:
    return s.replace("\r", " ").replace("\n", " ")


def _located_dict(r: ResourceResult, d: Diagnostic) -> dict[str, object]:
    """A diagnostic as json lists it; ``file`` when it is located in another file than its resource
    (``--kustomize``/``--helm``: traced to a patch, base or template file)."""
    out = d.to_dict()
    if d.file and d.file != r.filename:
        out["file"] = d.file
    return out


class JsonReporter(Reporter):
    streams = False

    def end(self, results: list[ResourceResult]) -> str:
        resources = []
        for r in results:
            item: dict[str, Any] = {"filename": r.filename, "kind": r.kind, "name": r.name, "version": r.version,
                                    "apiVersion": r.api_version, "status": r.status,
                                    "errors": [_located_dict(r, d) for d in r.diagnostics]}
            if r.status == "skipped":
                item["reason"] = skip_reason(r)
            if r.waived:
                item["waived"] = [d.to_dict() for d in r.waived]
            resources.append(item)
        summary: dict[str, int] = dict(summary_counts(results))
        summary["waived"] = sum(len(r.waived) for r in results)
        return json.dumps({"resources": resources, "summary": summary}, indent=2, ensure_ascii=False) + "\n"


class JunitReporter(Reporter):
    streams = False

    def end(self, results: list[ResourceResult]) -> str:
        from .._io._report import render_junit

        text = render_junit(results)
        if self.summary:
            head, _, rest = text.partition("\n")
            line = summary_text(results, self.files_count, self.stdin).replace("--", "- -")
            text = f"{head}\n<!-- {line} -->\n{rest}"
        return text


class SarifReporter(Reporter):
    streams = False

    def end(self, results: list[ResourceResult]) -> str:
        from .._core._version import __version__
        from ._rules import help_for

        rules: list[dict[str, Any]] = []
        index: dict[str, int] = {}
        out_results: list[dict[str, Any]] = []

        def rule_index(rule: str) -> int:
            if rule not in index:
                h = help_for(rule)
                index[rule] = len(rules)
                rules.append({
                    "id": rule,
                    "shortDescription": {"text": h.short},
                    "fullDescription": {"text": h.text},
                    "help": {"text": h.text, "markdown": f"{h.text}\n\nSee [{h.family}]({h.uri})."},
                    "helpUri": h.uri,
                    "defaultConfiguration": {"level": h.level},
                })
            return index[rule]

        def add(r: ResourceResult, d: Diagnostic, waived: bool) -> None:
            res: dict[str, Any] = {
                "ruleId": d.rule,
                "ruleIndex": rule_index(d.rule),
                "level": "error" if d.severity == "error" else ("warning" if d.severity == "warning" else "note"),
                "message": {"text": ": ".join(p for p in (_who(r), d.field, d.message) if p)},
                "locations": [_location(r, d)],
            }
            if waived:
                res["suppressions"] = [{"kind": "inSource", "justification": "dynamo-schema waiver"}]
            out_results.append(res)

        for r in results:
            for d in r.diagnostics:
                if d.severity in ("error", "warning"):
                    add(r, d, False)
            if r.status in ("invalid", "error") and not any(d.severity == "error" for d in r.diagnostics):
                add(r, Diagnostic("resource." + r.status, (), f"resource is {r.status}", "error",
                                  r.filename), False)
            for d in r.waived:
                add(r, d, True)
        run: dict[str, Any] = {
            "tool": {"driver": {"name": "dynamo-schema", "version": __version__,
                                "informationUri": _rules_base(), "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": out_results,
        }
        if self.summary:
            counts: dict[str, Any] = dict(summary_counts(results))
            counts["waived"] = sum(len(r.waived) for r in results)
            run["properties"] = {"summary": counts,
                                 "summaryText": summary_text(results, self.files_count, self.stdin)}
        doc = {"$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
               "version": "2.1.0", "runs": [run]}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _rules_base() -> str:
    from ._rules import rules_doc

    return rules_doc()


def _location(r: ResourceResult, d: Diagnostic) -> dict[str, Any]:
    import os
    from pathlib import Path
    from urllib.parse import quote

    file = d.file or r.filename
    if file in ("-", "<stdin>"):
        uri = "stdin"
    elif os.path.isabs(file):
        uri = Path(file).as_uri()
    else:  # relative to where validate ran: code scanning resolves it against the repository root
        uri = quote(file.replace("\\", "/").removeprefix("./"))
    phys: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    if d.line is not None:
        region: dict[str, Any] = {"startLine": max(1, d.line)}
        if d.column is not None:
            region["startColumn"] = max(1, d.column)
        phys["region"] = region
    loc: dict[str, Any] = {"physicalLocation": phys}
    name = identity(r)
    if name or d.path:
        loc["logicalLocations"] = [{"fullyQualifiedName": name + (":" + d.field if d.path else ""),
                                    "kind": "member" if d.path else "object"}]
    return loc


REPORTERS: dict[str, type[Reporter]] = {
    "text": TextReporter, "github": GithubReporter, "tap": TapReporter, "json": JsonReporter,
    "junit": JunitReporter, "sarif": SarifReporter,
}


def make(fmt: str, **kw: Any) -> Reporter:
    return REPORTERS[fmt](**kw)
