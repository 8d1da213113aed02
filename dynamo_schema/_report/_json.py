"""``--output json``: every resource with every diagnostic (errors, warnings and notes, each with its
``severity``; ``file`` when located in another file than its resource: ``--kustomize``/``--helm`` trace to a
patch, base or template), ``reason`` of a skipped one, ``waived``; then the summary counts (always present)."""

from __future__ import annotations

import json
from typing import Any

from .._core._diagnostics import Diagnostic
from ._base import Reporter
from ._result import ResourceResult, skip_reason, summary_counts
from ._summary import waived_count


def _located_dict(r: ResourceResult, d: Diagnostic) -> dict[str, object]:
    out = d.to_dict()
    if d.file and d.file != r.filename:
        out["file"] = d.file
    return out


class JsonReporter(Reporter):
    name = "json"
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
        summary["waived"] = waived_count(results)
        return json.dumps({"resources": resources, "summary": summary}, indent=2, ensure_ascii=False) + "\n"
