"""Where the cursor is in a YAML buffer, read from its lines: which document, which field path, and
whether a key or a value is being typed. It works on text that does not parse (a key half typed), so it
reads indentation as YAML's block structure does, not the parser's nodes:

* a line holds tokens: sequence dashes (``-``) and at most one mapping key (``key:``), each at a column;
* the parent of a node at column ``c`` is the nearest line above with a token left of ``c`` (the rightmost
  such token), or, for a dash, a key at column ``c`` whose value is on the next lines (``key:`` then
  ``- item`` at the same indentation);
* a dash's index is the number of dashes at its column between it and its parent;
* the content of block scalars (``key: |``) and comment lines are skipped; ``---`` separates documents.

Positions are 0-based lines and characters (code points), as the language server keeps them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .._core._record import Record

_KEY = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\[\]{},&*!|>%@`?-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=[ \t]|$)""")
_BLOCK = re.compile(r"[|>][-+0-9]*[ \t]*(#.*)?$")
_HEADER = re.compile(r"^(apiVersion|kind):[ \t]*(\"[^\"]*\"|'[^']*'|[^\s#]+)")


class Token(Record):
    """A dash or a key on a line: 0-based column, kind ``-`` or ``key``, the key's name (unquoted),
    where its value starts (``value_col``: the column after ``key:`` and blanks; ``-1`` for a dash)."""

    __slots__ = _FIELDS = ("col", "kind", "name", "value_col", "end")
    col: int
    kind: str
    name: str
    value_col: int
    end: int  # the column after the key text (the key without ``:``); for a dash col + 1

    def __init__(self, col: int, kind: str, name: str = "", value_col: int = -1, end: int = 0) -> None:
        self.col = col
        self.kind = kind
        self.name = name
        self.value_col = value_col
        self.end = end


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == '"':
        import json

        try:
            return str(json.loads(text))
        except ValueError:
            return text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    return text


def tokens(line: str) -> list[Token]:
    """The dashes and the key of one line (empty for a blank line, a comment or a plain scalar)."""
    out: list[Token] = []
    i, n = 0, len(line.rstrip("\r\n"))
    while True:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n or line[i] == "#":
            return out
        if line[i] == "-" and (i + 1 >= n or line[i + 1] in " \t"):
            out.append(Token(i, "-", end=i + 1))
            i += 1
            continue
        m = _KEY.match(line, i)
        if m is not None and m.end() <= n:
            raw = m.group(1)
            j = m.end()
            while j < n and line[j] in " \t":
                j += 1
            out.append(Token(i, "key", _unquote(raw), j, i + len(raw)))
        return out


def value_text(line: str, tok: Token) -> str:
    """What follows a key's colon on its line, without a trailing comment."""
    rest = line[tok.value_col:].rstrip("\r\n") if tok.value_col >= 0 else ""
    if rest.startswith("#"):
        return ""
    return re.split(r"[ \t]+#", rest, maxsplit=1)[0].strip()


def scalar_lines(lines: list[str]) -> set[int]:
    """Indexes of the lines that are the content of block scalars (``key: |``, ``- >-``)."""
    out: set[int] = set()
    i = 0
    while i < len(lines):
        toks = tokens(lines[i])
        if toks:
            last = toks[-1]
            rest = value_text(lines[i], last) if last.kind == "key" else lines[i][last.col + 1:].strip()
            if _BLOCK.match(rest):
                j = i + 1
                content = i  # the block's last non-blank line: blank lines after it are not its content
                while j < len(lines):
                    text = lines[j].rstrip("\r\n")
                    if text.strip():
                        if len(text) - len(text.lstrip(" ")) <= last.col:
                            break
                        content = j
                    j += 1
                out.update(range(i + 1, content + 1))
                i = content + 1
                continue
        i += 1
    return out


def _separator(line: str) -> bool:
    return line.startswith("---") or line.rstrip("\r\n") == "..."


def document_bounds(lines: tuple[str, ...] | list[str], line: int) -> tuple[int, int]:
    """``[first, last)``: the lines of the document that holds ``line`` (without its ``---`` lines)."""
    first, last = 0, len(lines)
    for i in range(min(line, len(lines)) - 1, -1, -1):
        if _separator(lines[i]):
            first = i + 1
            break
    for i in range(line + 1, len(lines)):
        if _separator(lines[i]):
            last = i
            break
    return first, last


def document_header(lines: tuple[str, ...] | list[str], first: int, last: int) -> tuple[str, str]:
    """``(apiVersion, kind)`` written at the top level of the document (``""`` when absent)."""
    found = {"apiVersion": "", "kind": ""}
    for i in range(first, last):
        m = _HEADER.match(lines[i])
        if m is not None and not found[m.group(1)]:
            found[m.group(1)] = _unquote(m.group(2))
    return found["apiVersion"], found["kind"]


@lru_cache(maxsize=8)
def _structure(text: str) -> tuple[tuple[str, ...], frozenset[int], tuple[tuple[Token, ...], ...]]:
    """A buffer's lines, its block-scalar lines and every line's tokens (the last few buffers kept:
    a hover or completion request reads the same text again)."""
    lines = tuple(text.splitlines(True)) or ("",)
    skip = frozenset(scalar_lines(list(lines)))
    return lines, skip, tuple(() if i in skip else tuple(tokens(line)) for i, line in enumerate(lines))


class Buffer:
    """The lines of one buffer with the structure of the document around one line."""

    def __init__(self, text: str, line: int) -> None:
        lines, self.skip, self._tokens = _structure(text)
        if line >= len(lines):
            lines = lines + ("",) * (line - len(lines) + 1)
        self.lines: tuple[str, ...] = lines
        self.first, self.last = document_bounds(lines, line)

    def tokens(self, i: int) -> tuple[Token, ...]:
        return self._tokens[i] if i < len(self._tokens) else ()

    def header(self) -> tuple[str, str]:
        return document_header(self.lines, self.first, self.last)

    def path_of(self, line: int, chain: list[Token] | tuple[Token, ...]) -> tuple[Any, ...] | None:
        """The path of the last token of ``chain`` (tokens of ``line``, left to right, from its first
        token); None when it cannot be a field of a mapping document (a sequence at the root)."""
        head = chain[0]
        own: list[Any] = []
        for k, tok in enumerate(chain):
            own.append(tok.name if tok.kind == "key" else (0 if k else -1))
        index = 0
        for i in range(line - 1, self.first - 1, -1):
            toks = self.tokens(i)
            if not toks:
                continue
            if head.kind == "-" and toks[0].kind == "-" and toks[0].col == head.col:
                index += 1  # an earlier item of the same sequence
                continue
            compact = head.kind == "-" and toks[-1].kind == "key" and toks[-1].col == head.col \
                and not value_text(self.lines[i], toks[-1])  # ``key:`` then ``- item`` at its indentation
            left = [t for t in toks if t.col < head.col]
            if not compact and not left:
                continue  # a sibling, or inside one
            parent = toks if compact else toks[: toks.index(left[-1]) + 1]
            if own[0] == -1:
                own[0] = index
            up = self.path_of(i, parent)
            return None if up is None else up + tuple(own)
        return None if head.kind == "-" else tuple(own)

    def keys_at(self, line: int, col: int) -> set[str]:
        """The keys at column ``col`` of the mapping that line ``line`` belongs to (above and below it)."""
        out: set[str] = set()
        for i in range(line - 1, self.first - 1, -1):
            toks = self.tokens(i)
            out.update(t.name for t in toks if t.kind == "key" and t.col == col)
            if any(t.col < col for t in toks):
                break
        for i in range(line + 1, self.last):
            toks = self.tokens(i)
            if toks and toks[0].col < col:
                break
            out.update(t.name for t in toks if t.kind == "key" and t.col == col)
        return out


class Context(Record):
    """What the cursor is on, for completion.

    ``path``: the mapping that holds the cursor, from the document root, with list indexes
    (``("spec", "components", 0)``). ``mode``: ``key`` (a key is typed from column ``start``, ``prefix`` the
    part before the cursor; ``siblings`` the keys the mapping already has) or ``value`` (the value of
    ``key`` of that mapping, typed from ``start``). ``api_version`` and ``kind``: the document's."""

    __slots__ = _FIELDS = ("path", "mode", "key", "prefix", "start", "siblings", "api_version", "kind")
    path: tuple[Any, ...]
    mode: str
    key: str
    prefix: str
    start: int
    siblings: set[str]
    api_version: str
    kind: str

    def __init__(self, path: tuple[Any, ...], mode: str, key: str = "", prefix: str = "", start: int = 0,
                 siblings: set[str] | None = None, api_version: str = "", kind: str = "") -> None:
        self.path = path
        self.mode = mode
        self.key = key
        self.prefix = prefix
        self.start = start
        self.siblings = set() if siblings is None else siblings
        self.api_version = api_version
        self.kind = kind


_WORD = re.compile(r"[^\s\-#:][^\s:#]*$")


def context_at(text: str, line: int, character: int) -> Context | None:
    """The cursor's :class:`Context`, or None where nothing can be offered (a comment, a block scalar,
    a ``---`` line, a sequence at the root)."""
    buf = Buffer(text, line)
    if line in buf.skip or _separator(buf.lines[line]):
        return None
    before = buf.lines[line].rstrip("\r\n")[:character]
    if re.search(r"(^|[ \t])#", before):
        return None  # in a comment
    api, kind = buf.header()
    toks = tokens(before)
    if toks and toks[-1].kind == "key":  # after ``key:``: its value
        path = buf.path_of(line, toks)
        if path is None:
            return None
        value_col = toks[-1].value_col
        return Context(path[:-1], "value", key=toks[-1].name, prefix=before[value_col:].strip(),
                       start=value_col, api_version=api, kind=kind)
    m = _WORD.search(before)
    start = m.start() if m is not None else character
    if before[:start].strip(" \t-"):
        return None  # after a plain scalar (``- item`` text), not at a key
    chain = tokens(before[:start]) + [Token(start, "key", "?", start, start)]
    path = buf.path_of(line, chain)
    if path is None:
        return None
    siblings = buf.keys_at(line, start)
    return Context(path[:-1], "key", prefix=before[start:], start=start, siblings=siblings,
                   api_version=api, kind=kind)


def path_at(text: str, line: int, character: int) -> tuple[tuple[Any, ...], str, str] | None:
    """For hover: the path of the key under the cursor (or of the key whose value the cursor is on),
    with the document's ``(apiVersion, kind)``; None when the cursor's line has no key left of it."""
    buf = Buffer(text, line)
    if line in buf.skip or _separator(buf.lines[line]):
        return None
    toks = buf.tokens(line)
    while toks and toks[-1].kind == "key" and toks[-1].col > character:
        toks = toks[:-1]
    if not toks or toks[-1].kind != "key":
        return None
    path = buf.path_of(line, toks)
    if path is None:
        return None
    api, kind = buf.header()
    return path, api, kind
