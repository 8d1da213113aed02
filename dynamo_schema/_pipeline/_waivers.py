"""Waivers: ``# dynamo-schema: ignore[RULE-ID,...]`` comments and ``--ignore-rule RULE-ID``.

* On the line of a field (``image: repo/x:TAG  # dynamo-schema: ignore[webhook.image-tag]``) the waiver
  covers the diagnostics located on that line.
* On the document's first line (a comment line before the document's first key, the ``---`` line, or
  the first key's line) it covers the whole document; for a ``kind: List`` document, every item of it.
* On an item of a ``kind: List`` (the line of the item's first key, or a comment line right above it) it
  covers that item.
* A rule id may end in ``*`` (``schema.*``) to cover a family.
* ``--ignore-rule`` covers a rule everywhere.

Waived diagnostics leave the resource's diagnostics (its status is recomputed) and are kept in
``ResourceResult.waived``: counted in the summary, shown with ``--verbose``. A comment waiver that
covered nothing is reported as a warning, rule ``waiver.unused``, at the comment (stale waivers rot).
"""

from __future__ import annotations

import fnmatch
import re

from .._core._diagnostics import Diagnostic
from .._core._record import Record

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_COMMENT = r"#\s*dynamo-schema:\s*ignore\[([^\]]*)\]"  # compiled by the first file with a waiver (D32)


class Waiver(Record):
    """A mutable value with a dataclass's constructor, equality and repr (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("line", "column", "rules", "document_wide", "used")
    line: int
    column: int
    rules: tuple[str, ...]
    document_wide: bool
    used: set[str]

    def __init__(self, line: int, column: int, rules: tuple[str, ...], document_wide: bool = False,
                 used: set[str] | None = None) -> None:
        self.line = line
        self.column = column
        self.rules = rules
        self.document_wide = document_wide
        self.used = set() if used is None else used

    def covers(self, rule: str) -> str | None:
        for r in self.rules:
            if r == rule or (r.endswith("*") and fnmatch.fnmatchcase(rule, r)):
                return r
        return None


def scan(text: str) -> list[Waiver]:
    """Every waiver comment of a file's text (1-based lines and columns)."""
    out: list[Waiver] = []
    if "dynamo-schema" not in text:
        return out
    comment = re.compile(_COMMENT)
    for i, line in enumerate(text.splitlines(), 1):
        m = comment.search(line)
        if m is None:
            continue
        before = line[: m.start()]
        if before.count('"') % 2 or before.count("'") % 2:
            continue  # inside a quoted scalar, not a comment
        rules = tuple(r.strip() for r in m.group(1).split(",") if r.strip())
        out.append(Waiver(i, m.start() + 1, rules))
    return out


def rule_matches(patterns: frozenset[str] | set[str], rule: str) -> bool:
    return any(p == rule or (p.endswith("*") and fnmatch.fnmatchcase(rule, p)) for p in patterns)


def _recompute(status: str, kept: list[Diagnostic], waived: list[Diagnostic]) -> str:
    if not waived or status not in ("invalid", "error"):
        return status
    if any(d.severity == "error" for d in kept):
        return status
    return "valid"


#: Per result: (first line, first key line) of its YAML document (for an item of a ``kind: List``, of
#: the List document), then (first line, first key line) of the item itself ((0, 0): not an item).
Span = tuple[int, int, int, int]


def _in(line: int, first: int, last: int) -> bool:
    return bool(last) and first <= line <= last


def apply(results: list[Any], text: str | None, spans: list[Span] | None,
          ignore_rules: frozenset[str] = frozenset()) -> list[Any]:
    """Apply waivers to the results of one file (in document order).

    ``spans``: per result, its :data:`Span` (None: no comment waivers)."""
    waivers = scan(text) if text else []
    if not waivers and not ignore_rules:
        return results
    spans_of = [spans[idx] if spans and idx < len(spans) else (0, 0, 0, 0) for idx in range(len(results))]
    mine_docs = [[w for w in waivers if _in(w.line, sp[0], sp[1]) or _in(w.line, sp[2], sp[3])] for sp in spans_of]
    for mine in mine_docs:
        for w in mine:
            w.document_wide = True
    out = []
    for r, mine_doc in zip(results, mine_docs):
        kept: list[Diagnostic] = []
        waived: list[Diagnostic] = list(getattr(r, "waived", []) or [])
        for d in r.diagnostics:
            if d.rule.endswith(".runtime-version-image"):  # a note about its error: not a finding to waive
                kept.append(d)
                continue
            # a comment that covers the diagnostic is used even when --ignore-rule waives it as well: it
            # matches a diagnostic, so it is not stale (docs/cli.md "validate: waivers", D52)
            hit = None
            for w in mine_doc + [w for w in waivers if not w.document_wide and d.line == w.line]:
                pat = w.covers(d.rule)
                if pat is not None:
                    w.used.add(pat)
                    hit = w
                    break
            if hit is not None or rule_matches(ignore_rules, d.rule):
                waived.append(d)
            else:
                kept.append(d)
        if waived and [d.rule for d in kept if d.severity == "error"] == ["cel.not-checked"]:
            # CEL was skipped only because of errors that are now waived: say so, as a warning
            kept = [d._replace(severity="warning", message="CEL rules were not checked because of waived "
                            "errors (the API server would not check them either)")
                    if d.rule == "cel.not-checked" else d for d in kept]
        out.append(r._replace(diagnostics=kept, waived=waived, status=_recompute(r.status, kept, waived)))
    unused = [w for w in waivers if set(w.rules) - w.used]
    if unused and out:
        for w in unused:
            stale = ", ".join(r for r in w.rules if r not in w.used)
            target = _holder(spans_of, w.line)
            r = out[target]
            d = Diagnostic("waiver.unused", (), f"waiver ignore[{stale}] matches no diagnostic", "warning",
                           r.filename, w.line, w.column)
            out[target] = r._replace(diagnostics=r.diagnostics + [d])
    return out


def _holder(spans: list[Span], line: int) -> int:
    """The result whose document holds ``line``: the last one whose YAML document starts at or before it;
    in a ``kind: List``, the last item starting at or before it (the first item for the List's own lines)."""
    target = 0
    for idx, sp in enumerate(spans):
        if sp[1] and sp[0] <= line:
            target = idx
    if not spans[target][3]:
        return target
    group = [idx for idx, sp in enumerate(spans) if sp[:2] == spans[target][:2]]
    items = [idx for idx in group if spans[idx][2] <= line]
    return items[-1] if items else group[0]


def _spans(text: str, starts: list[tuple[int, int]]) -> list[Span]:
    """Per result (``starts``: its first key line and, for an item of a ``kind: List``, the List's; 0: not
    an item): its :data:`Span`. A document's first line is the ``---`` line before its first key (or the
    line after the previous result's first key, or 1); an item's is the first of the comment lines right
    above its first key (that key's line when there are none)."""
    lines = text.splitlines()
    seps = [i for i, line in enumerate(lines, 1) if line.startswith("---")]
    out: list[Span] = []
    firsts: dict[int, int] = {}  # first key line of a YAML document -> its first line
    prev = 0
    for key, list_key in starts:
        if not key:
            out.append((0, 0, 0, 0))
            continue
        head = list_key or key
        if head not in firsts:
            before = [s for s in seps if prev < s <= head]
            firsts[head] = before[-1] if before else prev + 1
        if list_key:
            j = key
            while j - 1 > max(head, prev) and lines[j - 2].lstrip().startswith("#"):
                j -= 1
            out.append((firsts[head], head, j, key))
        else:
            out.append((firsts[head], head, 0, 0))
        prev = key
    return out


def apply_to_file(results: list[Any], path: str, preread: bytes | None, starts: list[tuple[int, int]],
                  ignore_rules: frozenset[str] = frozenset()) -> list[Any]:
    """:func:`apply` for one validated file (its text read again only when it holds a waiver)."""
    raw = preread
    if raw is None and path != "-":
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError:
            raw = None
    if raw is None or b"dynamo-schema" not in raw:
        return apply(results, None, None, ignore_rules) if ignore_rules else results
    text = raw.decode("utf-8", errors="replace")
    return apply(results, text, _spans(text, starts), ignore_rules)
