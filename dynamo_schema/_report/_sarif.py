"""``--output sarif``: SARIF 2.1.0, one run; every error and warning a result with its rule (help from
docs/rules.md, :mod:`._rules`), absolute ``informationUri``/``helpUri``; waived diagnostics as suppressed
results; ``--summary``: ``runs[0].properties``."""

from __future__ import annotations

import json
from typing import Any

from .._core._diagnostics import Diagnostic
from ._base import Reporter
from ._result import ResourceResult, identity, summary_counts, who
from ._summary import summary_line, waived_count

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


class SarifReporter(Reporter):
    name = "sarif"
    streams = False

    def end(self, results: list[ResourceResult]) -> str:
        from .._core._version import __version__
        from ._rules import help_for, rules_doc

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
                "message": {"text": ": ".join(p for p in (who(r), d.field, d.message) if p)},
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
                                "informationUri": rules_doc(), "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": out_results,
        }
        if self.summary:
            counts: dict[str, Any] = dict(summary_counts(results))
            counts["waived"] = waived_count(results)
            run["properties"] = {"summary": counts,
                                 "summaryText": summary_line(results, self.files_count, self.stdin)}
        doc = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


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
