"""``diff``'s reports (text and json): one block per compared document, what the update changes in the
rendered objects, what it does to each component's pods, and who would refuse it.

The reports are ``_pipeline/_diff.DiffReport`` values (read here by their attributes; this package imports
only ``_core``). A diagnostic line is ``SEVERITY: FILE:LINE:COL: FIELD: MESSAGE [RULE]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .._core._diagnostics import Diagnostic

#: ``ComponentImpact.impact`` (``_pipeline/_diff_impact.IMPACT_*``) -> its words
IMPACT_TEXT = {
    "unchanged": "unchanged",
    "no-restart": "no restart",
    "restart-on-delete": "restarts when its pods are deleted (OnDelete)",
    "rolling-restart": "rolling restart",
    "replaced": "pods replaced",
    "added": "added (new pods)",
    "removed": "removed (pods deleted)",
}


def diag_line(d: Diagnostic) -> str:
    where = ""
    if d.line is not None and d.file:
        where = f"{d.file}:{d.line}:{d.column}: "
    elif d.file:
        where = f"{d.file}: "
    field_ = f"{d.field}: " if d.path else ""
    return f"{d.severity}: {where}{field_}{d.message} [{d.rule}]"


def diff_text(reports: Sequence[Any], show_diff: bool = True, grove_webhook: str = "") -> str:
    """The text report; ``grove_webhook``: the name of Grove's validating webhook (its refusals' heading)."""
    out: list[str] = []
    for r in reports:
        title = f"{r.kind or 'document'}/{r.name}" if r.name else (r.kind or "document")
        head = f"== {title}"
        if r.target:
            head += f" (target {r.target})"
        head += f": {r.status}"
        out.append(head)
        if r.change == "added":
            out.append("  only in NEW (it would be created)")
        elif r.change == "removed":
            out.append("  only in OLD (it would be deleted)")
        for p in r.problems:
            out.append(f"  error: {p}")
        errs = r.admission_errors
        if errs:
            out.append("  update refused by admission:")
            out += [f"    {diag_line(d)}" for d in errs]
        warns = [d for d in r.admission if d.severity != "error"]
        if warns:
            out.append("  admission warnings:")
            out += [f"    {diag_line(d)}" for d in warns]
        if r.refusals:
            out.append(f'  in-place update refused by Grove (admission webhook "{grove_webhook}" denied the request):')
            out += [f"    {diag_line(d)}" for d in r.refusals]
            out.append("  the PodCliqueSet must be deleted and recreated to apply this change")
        if r.components:
            out.append("  components:")
            for c in r.components:
                out.append(f"    {c.name}: {IMPACT_TEXT.get(c.impact, c.impact)}")
                out += [f"      - {reason}" for reason in c.reasons]
        if r.objects:
            counts = {k: sum(1 for o in r.objects if o.change == k) for k in ("changed", "added", "removed")}
            out.append(f"  objects: {counts['changed']} changed, {counts['added']} added, {counts['removed']} removed")
            for o in r.objects:
                extra = f": {', '.join(o.fields)}" if o.fields else ""
                out.append(f"    {o.change} {o.kind}/{o.name}{extra}")
        elif not r.problems and r.change == "changed":
            out.append("  no changes in the rendered objects")
        if show_diff:
            for o in r.objects:
                out.append(o.diff.rstrip("\n"))
    return "\n".join(out) + ("\n" if out else "")


def diff_json(reports: Sequence[Any]) -> str:
    """``{"resources": [report.to_dict()…], "summary": {changed, unchanged, refused, restarts}}``."""
    summary = {
        "changed": sum(1 for r in reports if r.changed),
        "unchanged": sum(1 for r in reports if not r.changed),
        "refused": sum(1 for r in reports if r.refused),
        "restarts": sorted({c.name for r in reports for c in r.components if c.restarts}),
    }
    return json.dumps({"resources": [r.to_dict() for r in reports], "summary": summary}, indent=2,
                      ensure_ascii=False) + "\n"
