"""Helm charts: templates skipped with a note, and ``validate --helm CHART`` (the rendered chart validated).

A chart template is Go-template text, not YAML: ``validate`` does not check it as a manifest. A file is
read as a template (status ``skipped``, note ``helm.template``) when it lies under a chart's
``templates/`` folder (a ``Chart.yaml`` in the folder above it), or when it fails to load and holds
Go-template actions (``{{ … }}``). A chart's ``Chart.yaml``/``Chart.lock`` (no ``kind``) is skipped too
(note ``helm.chart-file``).

``validate --helm CHART`` runs ``helm template CHART`` (``-f/--values FILE`` and ``--helm-set KEY=VALUE``
passed on as ``--values`` and ``--set``; no network, no cluster) and validates every rendered object as
``validate`` does. Each rendered document follows helm's ``# Source: CHART/templates/x.yaml`` comment: a
problem is reported in that template file, at the line of the field when it can be found there (the
line of the rendered text when it appears once in the template; else the template line that matches it
at the same indentation with each ``{{ … }}`` read as any text, when one does; where several lines match, the k-th for the k-th
such rendered line of that template's output, when the counts agree; else the template's line of the same
key path, keys in order with growing indentation), else at the template's first line. Output helm renders
from a template it does not find on disk (a packaged subchart) stays in the rendered stream ``helm:CHART``.
"""

from __future__ import annotations

import os
import re

from .._core._diagnostics import Diagnostic
from .._report import ResourceResult

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable

    from .._core._document import Document
    from ._validate import ValidateOptions

RENDER_TIMEOUT_S = 120
_ACTION = r"\{\{-?\s*[^{}]*?\s*-?\}\}"
_SOURCE = "# Source: "


def chart_of_template(path: str) -> str | None:
    """The chart folder when ``path`` lies under its ``templates/`` folder (``Chart.yaml`` beside it),
    spelled as ``path`` is (relative stays relative)."""
    if path == "-":
        return None
    folder = os.path.dirname(os.path.abspath(path))
    for up in range(2, 18):
        parent = os.path.dirname(folder)
        if os.path.basename(folder) == "templates" and os.path.isfile(os.path.join(parent, "Chart.yaml")):
            given = os.path.normpath(path)
            for _ in range(up):
                given = os.path.dirname(given)
            return given or os.path.relpath(parent)
        if parent == folder:
            return None
        folder = parent
    return None


def _read(path: str, preread: bytes | None) -> str:
    if preread is not None:
        return preread.decode("utf-8", "replace")
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def template_result(path: str, loaded: Any, preread: bytes | None = None) -> ResourceResult | None:
    """The ``skipped`` result of a Helm template (see the module), or None for any other file."""
    if os.path.basename(path) in ("Chart.yaml", "Chart.lock") and _chart_metadata(loaded):
        note = Diagnostic("helm.chart-file", (), "a Helm chart's own file, not a Kubernetes manifest: skipped", "note",
                          path, 1, 1)
        return ResourceResult(filename=path, kind="", name="", version="", status="skipped", diagnostics=[note],
                              reason=note.message)
    chart = chart_of_template(path)
    failed = any(d.severity == "error" for d in loaded.errors) or any(
        d.severity == "error" for diags in loaded.document_diagnostics for d in diags)
    if chart is None and not failed:
        return None
    text = _read(path, preread)
    m = re.search(_ACTION, text)
    if chart is None and m is None:
        return None
    line, col = 1, 1
    if m is not None:
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    name = "<stdin>" if path == "-" else path
    if chart is not None:
        msg = (f"a template of the Helm chart {chart} (Go-template text, not a manifest): "
               f"skipped; validate the rendered chart with `validate --helm {chart}`")
    else:
        msg = (f"a Helm template (Go-template actions such as {m.group() if m else '{{ }}'!s}): not YAML until "
               "rendered, skipped; validate the rendered chart with `validate --helm CHART`")
    note = Diagnostic("helm.template", (), msg, "note", name, line, col)
    return ResourceResult(filename=name, kind="", name="", version="", status="skipped", diagnostics=[note],
                          reason=msg)


def _chart_metadata(loaded: Any) -> bool:
    """One document with a chart's ``name`` (Chart.yaml) or ``dependencies``/``digest`` (Chart.lock), no kind."""
    docs = loaded.documents
    if len(docs) != 1 or not isinstance(docs[0].data, dict) or "kind" in docs[0].data:
        return False
    return bool({"name", "dependencies", "digest"} & set(docs[0].data))


# ------------------------------------------------------------------------------------------------
def helm_available() -> str | None:
    import shutil

    return shutil.which("helm")


def _error(name: str, rule: str, message: str) -> ResourceResult:
    from ._kustomize import error_result

    return error_result(name, [Diagnostic(rule, (), message).located(name, None, None)])


def helm_results(chart: str, values: list[str], sets: list[str], options: ValidateOptions,
                 log: Callable[[str], Any] | None = None) -> list[ResourceResult]:
    from .._io._load import load
    from ._kustomize import error_result
    from ._result import document_result

    name = f"helm:{chart}"
    if not os.path.isdir(chart):
        return [_error(chart, "io.not-found", "no such file or directory")]
    helm = helm_available()
    if helm is None:
        return [_error(name, "io.helm-unavailable", "cannot render: helm is not on PATH")]
    argv = [helm, "template", chart]
    for v in values:
        argv += ["--values", v]
    for s in sets:
        argv += ["--set", s]
    if log is not None:
        log(f"validate: --helm {chart}: rendered with `helm template` ({helm})\n")
    import subprocess

    try:
        proc = subprocess.run(argv, capture_output=True, timeout=RENDER_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [_error(name, "io.helm-unavailable", f"cannot render: {exc}")]
    if proc.returncode != 0:
        text = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        return [_error(name, "helm.template-failed", text)]
    rendered = proc.stdout.decode("utf-8", "replace")
    lines = rendered.splitlines()
    sources = [(i + 1, ln[len(_SOURCE):].strip()) for i, ln in enumerate(lines) if ln.startswith(_SOURCE)]
    loaded = load(proc.stdout, name, strict=options.strict)
    out = []
    for doc, load_diags in loaded.entries():
        if doc is None:
            out.append(error_result(name, list(load_diags)))
            continue
        src = next((s for n, s in reversed(sources) if n < doc.start[0]), "")
        template = _template_file(chart, src)
        r = document_result(doc, options, load_diags)
        r.diagnostics = [_relocate(d, doc, lines, template) for d in r.diagnostics]
        r.filename = template or name
        out.append(r)
    return out


def _template_file(chart: str, source: str) -> str | None:
    """``CHART/templates/x.yaml`` on disk for helm's ``# Source: NAME/templates/x.yaml`` (the first part is
    the chart's name, not its folder), or None."""
    parts = source.split("/")
    if len(parts) < 2 or ".." in parts:
        return None
    path = os.path.join(chart, *parts[1:])
    return path if os.path.isfile(path) else None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _pattern(line: str) -> re.Pattern[str] | None:
    """A template line with each action (``{{ … }}``) read as any text, matching a rendered line (both
    stripped); None for a line without an action, or with no text besides its actions."""
    parts = re.split(_ACTION, line.strip())
    if len(parts) < 2 or not "".join(parts).strip():
        return None
    return re.compile(".*?".join(re.escape(p) for p in parts))


def _occurrence(hits: list[int], matches: Callable[[str], list[int]], section: list[str] | None,
                at: int | None) -> int | None:
    """Which of several template lines ``hits`` a rendered line came from: the k-th, when it is the k-th
    rendered line of its template's output that these lines (and no others) match, and the output has
    exactly as many such lines as ``hits`` (a loop that renders one line many times: no answer)."""
    if section is None or at is None:
        return None
    same = [j for j, r in enumerate(section) if r.strip() and matches(r) == hits]
    if len(same) != len(hits) or at not in same:
        return None
    return hits[same.index(at)]


def template_line(template: list[str], rendered: str, keys: list[str], section: list[str] | None = None,
                  at: int | None = None) -> tuple[int, int] | None:
    """Where a rendered line came from in the template text (see the module), 1-based, or None.
    ``section``: every rendered line of this template's output, ``rendered`` being ``section[at]``."""
    want = rendered.strip()
    if want:
        def pick(matches: Callable[[str], list[int]]) -> list[int]:
            hits = matches(rendered)
            if len(hits) > 1:
                one = _occurrence(hits, matches, section, at)
                hits = [one] if one is not None else hits
            return hits

        def exact(r: str) -> list[int]:
            return [i for i, t in enumerate(template) if t.strip() == r.strip()]

        pats = [(i, _indent(t), rx) for i, t in enumerate(template) if (rx := _pattern(t)) is not None]

        def fuzzy(r: str) -> list[int]:  # at the same indentation (helm keeps a template's literal text)
            return [i for i, n, rx in pats if n == _indent(r) and rx.fullmatch(r.strip())]

        hits = pick(exact)
        if not hits:  # a line with a templated value: the template line that matches it, actions as any text
            hits = pick(fuzzy)
        if len(hits) == 1:
            return hits[0] + 1, _indent(template[hits[0]]) + 1
    if not keys:
        return None
    pos, indent, found = 0, -1, None
    for k in keys:
        rx = re.compile(r"^(\s*(?:-\s+)*)" + re.escape(k) + r"\s*:")
        for i in range(pos, len(template)):
            m = rx.match(template[i])
            if m is not None and len(m.group(1)) > indent:
                pos, indent, found = i + 1, len(m.group(1)), (i + 1, len(m.group(1)) + 1)
                break
        else:
            return None
    return found


def _section_lines(rendered: list[str], line: int) -> list[int]:
    """The rendered line numbers (1-based) of every document helm rendered from the template that
    rendered ``line`` (each follows its ``# Source:`` comment; a template of several documents has several)."""
    owner: list[str] = []
    source = ""
    for ln in rendered:
        if ln.startswith(_SOURCE):
            source = ln[len(_SOURCE):].strip()
        owner.append(source)
    if not 0 < line <= len(rendered) or not owner[line - 1]:
        return []
    mine = owner[line - 1]
    return [i for i, (o, ln) in enumerate(zip(owner, rendered), 1)
            if o == mine and ln != "---" and not ln.startswith(_SOURCE)]


def _relocate(d: Diagnostic, doc: Document, rendered: list[str], template: str | None) -> Diagnostic:
    if template is None:
        return d
    try:
        with open(template, encoding="utf-8", errors="replace") as fh:
            text = fh.read().splitlines()
    except OSError:
        return d
    line = d.line if d.line is not None else doc.start[0]
    here = rendered[line - 1] if 0 < line <= len(rendered) else ""
    keys = [p for p in d.path if isinstance(p, str)]
    numbers = _section_lines(rendered, line)
    section = [rendered[n - 1] for n in numbers]
    at = template_line(text, here, keys, section, numbers.index(line) if line in numbers else None)
    if at is None:
        return d.located(template, 1, 1)
    return d.located(template, *at)
