"""A buffer's diagnostics: the text through ``validate``'s own pipeline, unchanged.

The buffer goes where a file given to ``validate`` goes (``_pipeline._validate_files.validate_file``, as
standard input is read: the bytes in hand, the path for the kustomize-patch lookup): the loader's
located errors, the kind policy, schema, CEL, ObjectMeta, defaulting, the webhook rules, the reconcile
checks, then the waivers (comments and ``ignoreRules``). Each diagnostic is kept with the range of the
text it points at and, for an unknown field, the name it should probably be (computed from the schema,
``_schemainfo.suggest_field``).
"""

from __future__ import annotations

import re
from typing import Any

from .._core._diagnostics import Diagnostic
from .._core._record import Record

UNKNOWN_FIELD = "schema.unknown-field"


class Finding(Record):
    """One diagnostic of the buffer: ``diagnostic`` (located, 1-based), its range in 0-based lines and
    characters (``start``, ``end``), ``suggestion`` (the did-you-mean name of an unknown field, or None),
    and the key as written at ``start`` when there is one (``key``)."""

    __slots__ = _FIELDS = ("diagnostic", "start", "end", "suggestion", "key")
    diagnostic: Diagnostic
    start: tuple[int, int]
    end: tuple[int, int]
    suggestion: str | None
    key: str | None

    def __init__(self, diagnostic: Diagnostic, start: tuple[int, int], end: tuple[int, int],
                 suggestion: str | None = None, key: str | None = None) -> None:
        self.diagnostic = diagnostic
        self.start = start
        self.end = end
        self.suggestion = suggestion
        self.key = key


_TOKEN_KEY = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\[\]{},][^#]*?)[ \t]*:(?=[ \t]|$)""")


def token_end(line: str, col: int) -> tuple[int, str | None]:
    """The end (0-based, exclusive) of the token that starts at ``col`` of ``line``: a key (up to its
    colon; also returned, as written, without quotes), a quoted scalar, or the rest of the line without
    a trailing comment."""
    text = line.rstrip("\r\n")
    if col >= len(text):
        return max(col, len(text)), None
    m = _TOKEN_KEY.match(text, col)
    if m is not None:
        raw = m.group(1)
        if raw[:1] in "\"'":
            return col + len(raw), None
        return col + len(raw), raw
    if text[col] in "\"'":
        q = text[col]
        j = col + 1
        while j < len(text):
            if text[j] == "\\" and q == '"':
                j += 2
                continue
            if text[j] == q:
                if q == "'" and j + 1 < len(text) and text[j + 1] == "'":
                    j += 2
                    continue
                return j + 1, None
            j += 1
        return len(text), None
    rest = re.split(r"[ \t]+#", text[col:], maxsplit=1)[0].rstrip()
    return col + max(len(rest), 1), None


def analyse(text: str, path: str, settings: Any) -> list[Finding]:
    """The findings of one buffer (``path``: the file's path on disk, ``-`` for an unsaved one), in
    document order. ``settings``: a ``_settings.ServerSettings``."""
    from .._pipeline._validate_files import FileWork, validate_file
    from ._schemainfo import suggest_field

    raw = text.encode("utf-8", errors="replace")
    results = validate_file(FileWork(path or "-", settings.options, None, raw, settings.policy, settings.ignore_rules))
    lines = text.splitlines()
    out: list[Finding] = []
    for r in results:
        api = getattr(r, "api_version", "") or ""
        for d in r.diagnostics:
            line0 = max((d.line or 1) - 1, 0)
            col0 = max((d.column or 1) - 1, 0)
            if line0 < len(lines):
                end, key = token_end(lines[line0], col0)
            else:  # past the last line (the end of the stream): the position after the text
                line0, col0, end, key = len(lines), 0, 0, None
            suggestion = None
            if d.rule == UNKNOWN_FIELD and d.path and key == d.path[-1]:
                suggestion = suggest_field(api, r.kind, tuple(d.path))
            out.append(Finding(d, (line0, col0), (line0, end), suggestion, key))
    out.sort(key=lambda f: (f.start, f.diagnostic.rule))
    return out
