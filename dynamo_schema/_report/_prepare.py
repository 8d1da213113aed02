"""What every format sees of a result: :func:`prepare`.

It sorts a resource's diagnostics by position and attaches a ``cel.not-checked`` companion (the API server
skips CEL when the schema check failed) to the first other error of the same resource, as a note; it prints
an unknown field's ``schema.did-you-mean`` suggestion on that field's line and the ``*.runtime-version-image``
note on its override-required error's line: one printed line per real problem.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from ._result import ResourceResult, position_key

CEL_NOTE = "CEL rules not checked until the schema errors are fixed"


def _fold_suggestions(r: ResourceResult) -> ResourceResult:
    """Print the ``schema.did-you-mean`` note of an unknown field on that field's line
    (``unknown field "spec.replica", did you mean "replicas"?``): the library keeps upstream's message
    and the suggestion apart, the command line shows them as one. Likewise the ``*.runtime-version-image``
    note (which image has no version tag) on its ``*.runtime-version-override-required`` error's line (the
    note itself is kept, as a note: json lists it, text prints no notes)."""
    notes = {(d.file, d.line, d.path): d.message for d in r.diagnostics if d.rule == "schema.did-you-mean"}
    # the note of an error: same rule family, at the main container image of the error's component (matched
    # by path, not line: a --kustomize or --helm trace can put the two in different files)
    images = {(d.rule.rsplit(".", 1)[0], tuple(d.path)): d.message for d in r.diagnostics
              if d.rule.endswith(".runtime-version-image") and d.severity == "note"}

    def image_of(d: Diagnostic) -> str | None:
        family, owner = d.rule.rsplit(".", 1)[0], tuple(d.path)[:-1]
        return next((m for (f, p), m in images.items() if f == family and p[:len(owner)] == owner
                     and p[len(owner):len(owner) + 1] in (("podTemplate",), ("extraPodSpec",))), None)

    if not notes and not images:
        return r
    out: list[Diagnostic] = []
    for d in r.diagnostics:
        if d.rule == "schema.did-you-mean":
            continue  # the image note stays (json, the library and the editor have it; text prints no notes)
        hint = notes.get((d.file, d.line, d.path)) if d.rule == "schema.unknown-field" else None
        if hint:
            d = d._replace(message=f"{d.message}, {hint}")
        image = image_of(d) if d.rule.endswith(".runtime-version-override-required") and d.path else None
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
