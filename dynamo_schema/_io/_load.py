"""Stage "load": YAML/JSON text -> :class:`~dynamo_schema._core._document.Document` objects.

Values are decoded the way ``kubectl`` / kubeconform decode them (``sigs.k8s.io/yaml``: go-yaml v2
scalar resolution, then a JSON round trip):

* plain scalars: YAML-1.1 booleans (``y``, ``n``, ``yes``, ``no``, ``on``, ``off``, ``true``, ``false`` in
  their lower/Title/UPPER spellings), nulls (``~``, ``null``, empty), integers in Go base-0 syntax with
  ``_`` ignored (``0x1F``, ``0o10``, ``010``, ``0b11``, ``1_000``), floats (``1e3``, ``.5``, ``1.0``);
  timestamps stay strings; a YAML float with an integral value reaches the API server as an integer
  (``json.Marshal(float64(1000))`` is ``1000``) and is returned as ``int``; ``.inf``/``.nan`` values are
  rejected as kubectl rejects them.
* mapping keys become strings as ``sigs.k8s.io/yaml`` converts them (``1`` -> ``"1"``, ``y``/``true`` ->
  ``"true"``, ``1.5`` -> ``"1.5"``); a ``null`` or collection key is an error.
* ``<<`` merge keys are applied (go-yaml v2 semantics); aliases are expanded under a node budget.
* JSON documents (``.json`` files) must be valid JSON (checked with :mod:`json`, errors reported the way
  Go's ``encoding/json`` words them) and keep JSON number semantics.

Every diagnostic carries a ``load.*`` rule id and is located (file, 1-based line and column).
Rule ids: ``load.syntax``, ``load.duplicate-key``, ``load.alias-bomb``, ``load.unsafe-tag``,
``load.tag-mismatch``, ``load.encoding``, ``load.binary``, ``load.control-character``,
``load.not-a-mapping``, ``load.unsupported-key``, ``load.unsupported-value``, ``load.too-deep``,
``load.too-large``, ``load.too-long``, ``load.too-many-documents``, ``load.too-many-merges``.

Resource limits are the project's own (docs/decisions.md D12), the same whatever PyYAML/libyaml build
is installed: nesting depth :data:`MAX_DEPTH` (after alias expansion), input size :data:`MAX_BYTES`,
scalar length :data:`MAX_SCALAR`, documents per input :data:`MAX_DOCUMENTS`, merge keys per document
:data:`MAX_MERGES`, alias expansion :data:`NODE_BUDGET`. Integers are 64-bit as in Go (larger YAML
numerals resolve as go-yaml resolves them; a JSON number outside float64 is refused as Go refuses it).
"""

from __future__ import annotations

import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from .._core._diagnostics import Diagnostic, DynamoSchemaError, Path
from .._core._document import Document
from .._k8s._gofmt import go_float, go_quote, go_sharp_v

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DOCUMENTS",
    "MAX_MERGES",
    "MAX_SCALAR",
    "NODE_BUDGET",
    "LoadError",
    "LoadResult",
    "LoadedDocument",
    "iter_paths",
    "load",
    "load_path",
    "load_path_result",
    "load_text",
]

#: Maximum number of nodes aliases may add to one document ...
NODE_BUDGET = 1_000_000
#: ... and, above ALIAS_FLOOR added nodes, at most ALIAS_FACTOR times the document's own node count
#: (billion-laughs documents are rejected after building ~10,000 nodes).
ALIAS_FLOOR = 10_000
ALIAS_FACTOR = 100
#: Nesting limit (the root collection is level 1), checked on the document as built (aliases
#: expanded). Far below go-yaml's 10,000 and libyaml 0.2.6's 1,000 so that every later stage
#: (recursive walks, deepcopy, pydantic, formatting) stays far from Python's recursion limit.
MAX_DEPTH = 100
#: Input size limit per file: the API server's request-size limit (3 MiB).
MAX_BYTES = 3 * 1024 * 1024
#: Longest scalar (characters), key or value: the API server's limit on one object (1.5 MiB) is
#: larger than any field it admits (a ConfigMap's data totals 1 MiB).
MAX_SCALAR = 1024 * 1024
#: Documents (``---``-separated, empty ones included) per input.
MAX_DOCUMENTS = 10_000
#: ``<<`` merge keys per document.
MAX_MERGES = 10_000

_EXTENSIONS = (".yaml", ".yml", ".json")
_PLAIN = "tag:dynamo-schema.invalid,2026:plain"
_Y = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = _Y + "str", _Y + "int", _Y + "float", _Y + "bool", _Y + "null"
_MAP, _SEQ, _BINARY, _TIMESTAMP = _Y + "map", _Y + "seq", _Y + "binary", _Y + "timestamp"
_SCALAR_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL, _BINARY, _TIMESTAMP, _PLAIN})
_SHORT = {_STR: "!!str", _INT: "!!int", _FLOAT: "!!float", _BOOL: "!!bool", _NULL: "!!null",
          _TIMESTAMP: "!!timestamp", _BINARY: "!!binary", _MAP: "!!map", _SEQ: "!!seq"}


class LoadError(DynamoSchemaError):
    """Input that cannot be loaded. ``diagnostics`` are located; ``documents`` holds the documents of
    the same input that did load cleanly (a per-document problem does not hide its neighbours)."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None,
                 documents: list[Document] | None = None) -> None:
        super().__init__(message, diagnostics)
        self.documents: list[Document] = list(documents or [])


@dataclass
class LoadedDocument(Document):
    """A :class:`Document` that also knows where each mapping *value* starts
    (``positions`` holds the key position of a mapping entry, ``value_positions`` its value's)."""

    value_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)


@dataclass
class LoadResult:
    """Everything one input produced.

    ``documents``: every document whose root is a mapping, in source order (``kind: List`` expanded).
    ``document_diagnostics[i]``: diagnostics of ``documents[i]`` (e.g. duplicate keys).
    ``errors``: diagnostics tied to no usable document (syntax, encoding, a non-mapping document).
    """

    documents: list[Document] = field(default_factory=list)
    document_diagnostics: list[list[Diagnostic]] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """All diagnostics, by file (in load order), then by position."""
        out = list(self.errors)
        for d in self.document_diagnostics:
            out.extend(d)
        rank: dict[str | None, int] = {}
        for name in [doc.file for doc in self.documents] + [d.file for d in out]:
            rank.setdefault(name, len(rank))
        out.sort(key=lambda d: (rank[d.file], d.line or 0, d.column or 0))
        return out

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def entries(self) -> list[tuple[Document | None, list[Diagnostic]]]:
        """One entry per resource, in source order: ``(document, its diagnostics)`` for every
        document, ``(None, [diagnostic])`` for every problem tied to no usable document (a syntax
        error, a non-mapping document …). Meant for reporters: one ``ResourceResult`` per entry."""
        rank: dict[str | None, int] = {}
        for name in [doc.file for doc in self.documents] + [d.file for d in self.errors]:
            rank.setdefault(name, len(rank))
        keyed: list[tuple[tuple[int, int, int], int, Document | None, list[Diagnostic]]] = []
        for i, (doc, diags) in enumerate(zip(self.documents, self.document_diagnostics)):
            keyed.append(((rank[doc.file], doc.start[0], doc.start[1]), i, doc, list(diags)))
        for j, d in enumerate(self.errors):
            keyed.append(((rank[d.file], d.line or 0, d.column or 0), len(self.documents) + j, None, [d]))
        keyed.sort(key=lambda t: (t[0], t[1]))
        return [(doc, diags) for _, _, doc, diags in keyed]

    def clean_documents(self) -> list[Document]:
        """Documents without error diagnostics."""
        return [doc for doc, diags in zip(self.documents, self.document_diagnostics)
                if not any(d.severity == "error" for d in diags)]


# --------------------------------------------------------------------------------------------------
# paths


def iter_paths(paths: list[str]) -> list[str]:
    """Expand files, directories (recursively, ``*.yaml``/``*.yml``/``*.json``, sorted) and ``-``.

    A missing path raises :class:`FileNotFoundError`. Explicitly named files are kept whatever their
    extension; duplicates are kept once, first occurrence wins.
    """
    out: list[str] = []
    seen: set[str] = set()

    def add(p: str) -> None:
        if p not in seen:
            seen.add(p)
            out.append(p)

    for p in paths:
        if p == "-":
            add(p)
        elif os.path.isdir(p):
            found: list[str] = []
            for root, dirs, files in os.walk(p):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for name in files:
                    if name.endswith(_EXTENSIONS) and not name.startswith("."):
                        found.append(os.path.join(root, name))
            for f in sorted(found):
                add(f)
        elif os.path.exists(p):
            add(p)
        else:
            raise FileNotFoundError(2, "No such file or directory", p)
    return out


def _read(path: str) -> tuple[bytes, str]:
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    with open(path, "rb") as fh:
        return fh.read(), path


def iter_paths_keeping_missing(paths: list[str]) -> list[str]:
    """:func:`iter_paths`, a missing path kept in its place (``validate`` reports it as one ``error``
    resource and still checks the others) instead of raising."""
    out: list[str] = []
    for p in paths:
        found = iter_paths([p]) if p == "-" or os.path.exists(p) else [p]
        out.extend(f for f in found if f not in out)
    return out


def load_path_result(path: str, strict: bool = True) -> LoadResult:
    """Load one file (or ``-`` for stdin, or every file of a directory); never raises for bad content."""
    if path != "-" and os.path.isdir(path):
        total = LoadResult()
        for f in iter_paths([path]):
            r = load_path_result(f, strict)
            total.documents.extend(r.documents)
            total.document_diagnostics.extend(r.document_diagnostics)
            total.errors.extend(r.errors)
        return total
    data, name = _read(path)
    return load(data, name, strict=strict)


def load_path(path: str, strict: bool = True) -> list[Document]:
    """Documents of a file, a directory (recursive, sorted) or ``-`` (stdin).

    Raises :class:`LoadError` when any document has an error; OSError for I/O problems."""
    return _raise_or_return(load_path_result(path, strict))


def load_text(text: str | bytes, file: str = "<stdin>", strict: bool = True) -> list[Document]:
    """Documents of one YAML/JSON text. Raises :class:`LoadError` when any document has an error."""
    return _raise_or_return(load(text, file, strict=strict))


def _raise_or_return(result: LoadResult) -> list[Document]:
    diags = result.diagnostics
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        first = errors[0]
        msg = f"{first.file}:{first.line}:{first.column}: {first.message}"
        if len(errors) > 1:
            msg += f" (and {len(errors) - 1} more)"
        raise LoadError(msg, diags, result.clean_documents())
    return result.documents


# --------------------------------------------------------------------------------------------------
# bytes -> text


class _Rx:
    """Regular expressions, compiled on first use (keeps the module import cheap)."""

    def __init__(self) -> None:
        # libyaml accepts #x9 #xA #xD [#x20-#x7E] #x85 [#xA0-#xD7FF] [#xE000-#xFFFD] [#x10000-#x10FFFF]
        self.bad_char = re.compile(
            "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
        # strconv.ParseInt(s, 0, 64) syntax once go-yaml removed every "_"
        self.go_int = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)\Z")
        # go-yaml v2 yamlStyleFloat
        self.go_float = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
        self.dot_float = re.compile(r"\.[0-9]+(?:[eE][-+]?[0-9]+)?\Z")
        self.timestamp = re.compile(
            r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
            r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?\Z")
        self.bang = re.compile(r"&[^\s,\[\]{}]+[ \t\r\n]+!(?=[ \t\r\n])")
        self.anchor = re.compile(r"(?:!\S*\s+)?&([^\s,\[\]{}]+)")
        self.surrogate = re.compile("[\ud800-\udfff]")
        # block-structure prefix of a line (indentation and "- ", "? ", ": " indicators)
        self.prefix = re.compile(r"^[ \t?:-]*", re.M)
        # JSON tokens: strings (possibly unterminated), numbers, brackets
        self.json_token = re.compile(r'"(?:[^"\\]|\\.)*"?|-?[0-9][0-9.eE+-]*|[\[\]{}]')


_RX: _Rx | None = None


def _rx() -> _Rx:
    global _RX
    if _RX is None:
        _RX = _Rx()
    return _RX


def _decode(data: bytes, file: str) -> tuple[str | None, Diagnostic | None]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError as exc:
            return None, Diagnostic("load.encoding", (), "invalid UTF-16 byte sequence",
                                    file=file, line=1, column=1 + exc.start // 2)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        start = exc.start
        reason = _utf8_problem(data, start)
        line_start = data.rfind(b"\n", 0, start) + 1
        line = data.count(b"\n", 0, start) + 1
        col = len(data[line_start:start].decode("utf-8", "replace")) + 1
        return None, Diagnostic("load.encoding", (), reason, file=file, line=line, column=col)


def _utf8_problem(data: bytes, start: int) -> str:
    """libyaml's reader message (yaml_parser_update_buffer) for the bad sequence at ``start``."""
    lead = data[start]
    width = (1 if lead < 0x80 else 2 if lead & 0xE0 == 0xC0 else 3 if lead & 0xF0 == 0xE0
             else 4 if lead & 0xF8 == 0xF0 else 0)
    if width == 0:
        return "invalid leading UTF-8 octet"
    if start + width > len(data):
        return "incomplete UTF-8 octet sequence"
    value = lead & (0x7F, 0x1F, 0x0F, 0x07)[width - 1]
    for b in data[start + 1: start + width]:
        if b & 0xC0 != 0x80:
            return "invalid trailing UTF-8 octet"
        value = (value << 6) | (b & 0x3F)
    if not (width == 1 or (width == 2 and value >= 0x80) or (width == 3 and value >= 0x800)
            or (width == 4 and value >= 0x10000)):
        return "invalid length of a UTF-8 sequence"
    return "invalid Unicode character"


def _char_position(text: str, index: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


# --------------------------------------------------------------------------------------------------
# scalar resolution (go-yaml v2, as used by sigs.k8s.io/yaml)

_BOOL_NULL: dict[str, Any] = {}
for _words, _val in ((("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
                     (("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
                     (("", "~", "null", "Null", "NULL"), None)):
    for _w in _words:
        _BOOL_NULL[_w] = _val
_SPECIAL_FLOATS = {".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan")}
for _sign, _v in (("", float("inf")), ("+", float("inf")), ("-", float("-inf"))):
    for _w in (".inf", ".Inf", ".INF"):
        _SPECIAL_FLOATS[_sign + _w] = _v
_YAML11_ONLY_BOOLS = frozenset({"y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
                                "n", "N", "no", "No", "NO", "off", "Off", "OFF"})
_HINT_CHARS = frozenset("yYnNtTfFoO~+-0123456789.")
_NO_VALUE = object()


def _go_int(plain: str) -> int | None:
    if not _rx().go_int.match(plain):
        return None
    sign = -1 if plain[0] == "-" else 1
    digits = plain.lstrip("+-")
    # more significant digits than a 64-bit value has: out of range (and never int() of a long text)
    body = digits[2:] if digits[1:2] in ("x", "X", "o", "O", "b", "B") else digits
    width = (16 if digits[1:2] in ("x", "X") else 64 if digits[1:2] in ("b", "B")
             else 22 if digits[:1] == "0" else 20)
    if len(body.lstrip("0")) > width:
        return None
    if len(digits) > 1 and digits[0] == "0":
        # 0x / 0o / 0b prefixes as Python reads them; a bare leading 0 is octal in Go
        v = int(digits, 0) if digits[1] in "xXoObB" else int(digits[1:], 8)
    else:
        v = int(digits)
    v *= sign
    if -(1 << 63) <= v < (1 << 64):  # ParseInt, then ParseUint
        return v
    return None


def _resolve_plain(value: str) -> Any:
    """The Python value go-yaml v2 gives an untagged plain scalar (before the JSON round trip)."""
    if value and value[0] not in _HINT_CHARS:
        return value
    if value in _BOOL_NULL:
        return _BOOL_NULL[value]
    if value in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS[value]
    c = value[0]
    if c == ".":
        if _rx().dot_float.match(value):
            f = float(value)
            if f not in (float("inf"), float("-inf")):
                return f
        return value
    if c in "+-0123456789":
        plain = value.replace("_", "") if "_" in value else value
        if not plain:
            return value
        iv = _go_int(plain)
        if iv is not None:
            return iv
        if _rx().go_float.match(plain):
            f = float(plain)
            if f not in (float("inf"), float("-inf")):  # ParseFloat range error -> string
                return f
    return value


def _json_number(value: Any) -> Any:
    """What the API server receives after sigs.k8s.io/yaml's JSON round trip."""
    if type(value) is float:
        if math.isnan(value) or value in (float("inf"), float("-inf")):
            return _NO_VALUE
        if value.is_integer() and abs(value) < 1e21:
            iv = int(value)
            if -(1 << 63) <= iv < (1 << 63):
                return iv
        return value
    if type(value) is int and value >= (1 << 63):
        return float(value)
    return value


def _go_float_key(f: float) -> str:
    """strconv.FormatFloat(f, 'g', -1, 32) with go-yaml's .inf/.nan spelling."""
    if math.isnan(f):
        return ".nan"
    try:
        out = go_float(f, 32)
    except OverflowError:
        out = "+Inf" if f > 0 else "-Inf"
    return {"+Inf": ".inf", "-Inf": "-.inf"}.get(out, out)


def _go_repr(v: Any) -> str:
    """Go's ``%#v`` of a value go-yaml v2 decoded (maps are ``map[interface {}]interface {}``)."""
    return go_sharp_v(v, "map[interface {}]interface {}")


# --------------------------------------------------------------------------------------------------
# limits

_TOO_DEEP = f"exceeded max depth of {MAX_DEPTH}"


def _string_problem(value: str) -> tuple[str, str] | None:
    """``(rule, message)`` when a string scalar or key breaks a limit or cannot be encoded."""
    if len(value) > MAX_SCALAR:
        return "load.too-long", f"scalar of {len(value)} characters is longer than the limit of {MAX_SCALAR}"
    if not value.isascii():
        m = _rx().surrogate.search(value)
        if m is not None:
            return ("load.encoding",
                    f"string contains the lone surrogate \\u{ord(m.group()):04x}, which is not valid Unicode")
    return None


def _float_range(literal: str) -> str:
    """kubectl's error for a JSON number outside float64 (observed with kubectl v1.32:
    ``unable to decode "x.json": json: cannot unmarshal number 1e400 into Go value of type float64``)."""
    return f"json: cannot unmarshal number {literal} into Go value of type float64"


# --------------------------------------------------------------------------------------------------
# YAML node graph -> plain data


class _Abort(Exception):
    """Stops building the current document; carries the diagnostic."""

    def __init__(self, diag: Diagnostic) -> None:
        super().__init__(diag.message)
        self.diag = diag


class _Builder:
    __slots__ = (
        "_mapping_cls",
        "_scalar_cls",
        "_sequence_cls",
        "aliased",
        "budget",
        "building",
        "diags",
        "done",
        "expanding",
        "file",
        "json_mode",
        "merges",
        "positions",
        "root",
        "sizes",
        "strict",
        "text",
        "unique",
        "v3",
        "value_positions",
    )

    def __init__(self, file: str, text: str, json_mode: bool, strict: bool, budget: int,
                 v3: bool = False) -> None:
        import yaml

        self.v3 = v3
        self.file = file
        self.text = text
        self.json_mode = json_mode
        self.strict = strict
        self.budget = budget
        self._mapping_cls = yaml.MappingNode
        self._sequence_cls = yaml.SequenceNode
        self._scalar_cls = yaml.ScalarNode
        self.reset()

    def reset(self) -> None:
        self.positions: dict[Path, tuple[int, int]] = {}
        self.value_positions: dict[Path, tuple[int, int]] = {}
        self.diags: list[Diagnostic] = []
        self.aliased = 0
        self.unique = -1
        self.root: Any = None
        self.expanding = False
        self.done: set[int] = set()
        self.building: set[int] = set()
        self.sizes: dict[int, int] = {}
        self.merges = 0

    # -- helpers
    def _plain(self, value: str) -> Any:
        if self.json_mode:
            return _json_literal(value)
        if self.v3 and value in _YAML11_ONLY_BOOLS:
            return value
        return _resolve_plain(value)

    def _diag(self, rule: str, path: Path, message: str, node: Any, severity: str = "error") -> Diagnostic:
        m = node.start_mark
        return Diagnostic(rule, path, message, severity, self.file, m.line + 1, m.column + 1)  # type: ignore[arg-type]

    def _nonspecific(self, node: Any) -> bool:
        """The plain scalar carries the non-specific tag ``!`` (libyaml reports it as untagged): a string."""
        idx = node.start_mark.index
        text = self.text
        if idx >= len(text):
            return False
        c = text[idx]
        return c == "!" or (c == "&" and _rx().bang.match(text, idx) is not None)

    def _anchor_name(self, node: Any) -> str:
        idx = node.start_mark.index
        m = _rx().anchor.match(self.text, idx)
        return m.group(1) if m else "?"

    def _size(self, node: Any, stack: set[int]) -> int:
        """Number of nodes ``node`` expands to (aliases followed), memoized per node."""
        key = id(node)
        s = self.sizes.get(key)
        if s is not None:
            return s
        if key in stack:
            raise _Abort(self._diag("load.alias-bomb", (),
                                    f"anchor '{self._anchor_name(node)}' value contains itself", node))
        stack.add(key)
        total = 1
        if isinstance(node, self._mapping_cls):
            for k, v in node.value:
                total += self._size(k, stack) + self._size(v, stack)
                if total > self.budget:
                    break
        elif isinstance(node, self._sequence_cls):
            for v in node.value:
                total += self._size(v, stack)
                if total > self.budget:
                    break
        stack.discard(key)
        self.sizes[key] = total
        return total

    def _alias(self, node: Any, path: Path) -> None:
        """``node`` was built before (or is being built): an alias. Charge its expansion."""
        key = id(node)
        if key in self.building:
            raise _Abort(self._diag("load.alias-bomb", path,
                                    f"anchor '{self._anchor_name(node)}' value contains itself", node))
        if self.unique < 0:
            self.unique = self._count_unique()
        self.aliased += self._size(node, set())
        if self.aliased > self.budget or (
                self.aliased > ALIAS_FLOOR and self.aliased > ALIAS_FACTOR * self.unique):
            raise _Abort(self._diag("load.alias-bomb", path, "document contains excessive aliasing", node))

    def _count_unique(self) -> int:
        """Distinct nodes of the current document (aliases not followed)."""
        seen: set[int] = set()
        todo = [self.root]
        while todo:
            n = todo.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if type(n) is self._mapping_cls:
                for k, v in n.value:
                    todo.append(k)
                    todo.append(v)
            elif type(n) is self._sequence_cls:
                todo.extend(n.value)
        return len(seen)

    # -- building
    def build(self, node: Any, path: Path) -> Any:
        tag = node.tag
        if type(node) is self._scalar_cls:
            return self._scalar(node, tag, path)
        key = id(node)
        alias = key in self.done or key in self.building
        if alias and not self.expanding:
            self._alias(node, path)  # charges the whole expansion at once
            self.expanding = True
            try:
                return self._build_collection(node, tag, key, path)
            finally:
                self.expanding = False
        return self._build_collection(node, tag, key, path)

    def _build_collection(self, node: Any, tag: str, key: int, path: Path) -> Any:
        if key in self.building:
            raise _Abort(self._diag("load.alias-bomb", path,
                                    f"anchor '{self._anchor_name(node)}' value contains itself", node))
        if len(path) >= MAX_DEPTH:  # this collection is level len(path) + 1 (aliases expanded)
            raise _Abort(self._diag("load.too-deep", path, _TOO_DEEP, node))
        out: Any
        if type(node) is self._mapping_cls:
            if tag != _MAP:
                self._check_tag(node, tag, path)
            self.building.add(key)
            out = self._mapping(node, path)
        else:
            if tag != _SEQ:
                self._check_tag(node, tag, path)
            self.building.add(key)
            out_l: list[Any] = []
            for i, item in enumerate(node.value):
                p = path + (i,)
                m = item.start_mark
                self.positions[p] = (m.line + 1, m.column + 1)
                out_l.append(self.build(item, p))
            out = out_l
        self.building.discard(key)
        self.done.add(key)
        return out

    def _check_tag(self, node: Any, tag: str, path: Path) -> None:
        if tag in (_MAP, _SEQ) or tag in _SCALAR_TAGS:
            kind = "mapping" if type(node) is self._mapping_cls else "sequence"
            raise _Abort(self._diag("load.tag-mismatch", path,
                                    f"cannot use tag {_SHORT.get(tag, tag)} on a {kind}", node))
        raise _Abort(self._unsafe(node, tag, path))

    def _unsafe(self, node: Any, tag: str, path: Path) -> Diagnostic:
        shown = "!!" + tag[len(_Y):] if tag.startswith(_Y) else tag
        return self._diag("load.unsafe-tag", path,
                          f"tag {shown} is not allowed: only the YAML core schema tags "
                          "(!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are accepted", node)

    def _scalar_value(self, node: Any, tag: str, path: Path) -> Any:
        value = node.value
        if tag == _STR:
            return value
        if tag == _PLAIN:
            if self._nonspecific(node):
                return value
            return self._plain(value)
        if tag in (_INT, _FLOAT, _BOOL, _NULL):
            r = _resolve_plain(value) if value not in _SPECIAL_FLOATS or tag == _FLOAT else value
            rtag = (_NULL if r is None else _BOOL if isinstance(r, bool) else _INT if isinstance(r, int)
                    else _FLOAT if isinstance(r, float) else _STR)
            if rtag == tag:
                return r
            if tag == _FLOAT and rtag == _INT:
                return float(r)
            raise _Abort(self._diag("load.tag-mismatch", path,
                                    f"cannot decode {_SHORT[rtag]} `{value}` as a {_SHORT[tag]}", node))
        if tag == _TIMESTAMP:
            if not _rx().timestamp.match(value):
                raise _Abort(self._diag("load.tag-mismatch", path,
                                        f"cannot decode !!str `{value}` as a !!timestamp", node))
            return value
        if tag == _BINARY:
            import base64
            import binascii

            try:
                return base64.b64decode("".join(value.split()), validate=True).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                raise _Abort(self._diag("load.tag-mismatch", path,
                                        "!!binary value contains invalid base64 data", node)) from None
        raise _Abort(self._unsafe(node, tag, path))

    def _check_str(self, node: Any, value: str, path: Path) -> str:
        if self.json_mode and not value.isascii() and _rx().surrogate.search(value):
            # a JSON surrogate pair (the pure-Python YAML parser keeps its halves apart)
            try:
                value = value.encode("utf-16", "surrogatepass").decode("utf-16")
            except UnicodeDecodeError:
                pass
        problem = _string_problem(value)
        if problem is not None:
            raise _Abort(self._diag(problem[0], path, problem[1], node))
        return value

    def _scalar(self, node: Any, tag: str, path: Path) -> Any:
        v = self._scalar_value(node, tag, path)
        if type(v) is str:
            return self._check_str(node, v, path)
        if self.json_mode:
            if type(v) is float and v in (float("inf"), float("-inf")):
                raise _Abort(self._diag("load.unsupported-value", path, _float_range(node.value), node))
            return v
        j = _json_number(v)
        if j is _NO_VALUE:
            go = "NaN" if math.isnan(v) else ("+Inf" if v > 0 else "-Inf")
            self.diags.append(self._diag("load.unsupported-value", path,
                                         f"json: unsupported value: {go}", node))
            return v
        return j

    def _key(self, knode: Any, vnode: Any, path: Path) -> str | None:
        """The JSON key sigs.k8s.io/yaml makes of a key node, or None (diagnostic recorded)."""
        if type(knode) is self._scalar_cls:
            tag = knode.tag
            value = self._check_str(knode, knode.value, path)
            if tag == _STR:
                return str(value)
            if tag == _PLAIN and value and value[0] not in _HINT_CHARS:
                return str(value)
            k = self._scalar_value(knode, tag, path)
            if isinstance(k, str):
                return k
            if isinstance(k, bool):
                return "true" if k else "false"
            if isinstance(k, int):
                return str(k)
            if isinstance(k, float):
                return _go_float_key(k)
            # None
            try:
                shown = _go_repr(self._peek_value(vnode))
            except (_Abort, RecursionError):
                shown = "..."
            self.diags.append(self._diag(
                "load.unsupported-key", path,
                f"unsupported map key of type: %!s(<nil>), key: <nil>, value: {shown}", knode))
            return None
        try:
            shown = _go_repr(_Builder(self.file, self.text, self.json_mode, False, 10_000, self.v3)
                             .build(knode, ()))
        except _Abort:
            shown = "..."
        self.diags.append(self._diag("load.unsupported-key", path, f"invalid map key: {shown}", knode))
        return None

    def _peek_value(self, vnode: Any) -> Any:
        if type(vnode) is self._scalar_cls:
            return self._plain(vnode.value) if vnode.tag == _PLAIN else vnode.value
        return _Builder(self.file, self.text, self.json_mode, False, 10_000, self.v3).build(vnode, ())

    def _mapping(self, node: Any, path: Path) -> dict[str, Any]:
        out: dict[str, Any] = {}
        explicit: dict[str, int] = {}  # key -> line of its explicit definition
        positions = self.positions
        vpositions = self.value_positions
        for knode, vnode in node.value:
            if (type(knode) is self._scalar_cls and knode.value == "<<" and knode.tag == _PLAIN
                    and not self.json_mode):
                self._merge(vnode, out, explicit, path, knode)
                continue
            key = self._key(knode, vnode, path)
            if key is None:
                continue
            p = path + (key,)
            km = knode.start_mark
            if key in explicit:
                sev = "error" if self.strict else "warning"
                self.diags.append(Diagnostic(
                    "load.duplicate-key", p, f"key {self._key_repr(knode, key)} already set in map",
                    sev, self.file, km.line + 1, km.column + 1))  # type: ignore[arg-type]
            explicit[key] = km.line + 1
            positions[p] = (km.line + 1, km.column + 1)
            vm = vnode.start_mark
            vpositions[p] = (vm.line + 1, vm.column + 1)
            out[key] = self.build(vnode, p)
        return out

    def _key_repr(self, knode: Any, key: str) -> str:
        """Go's %#v of the original key (strings quoted, numbers and booleans bare)."""
        if knode.tag == _PLAIN and not isinstance(self._plain(knode.value), str):
            return key
        return go_quote(key)

    def _merge(self, vnode: Any, out: dict[str, Any], explicit: dict[str, int], path: Path,
               knode: Any = None) -> None:
        """go-yaml v2 ``<<``: a mapping, or a sequence of mappings (earlier ones win)."""
        if type(vnode) is self._mapping_cls:
            sources = [vnode]
        elif type(vnode) is self._sequence_cls:
            sources = list(reversed(vnode.value))
        else:
            raise _Abort(self._diag("load.syntax", path,
                                    "map merge requires map or sequence of maps as the value", vnode))
        for src in sources:
            if type(src) is not self._mapping_cls:
                raise _Abort(self._diag("load.syntax", path,
                                        "map merge requires map or sequence of maps as the value", src))
            self.merges += 1
            if self.merges > MAX_MERGES:
                raise _Abort(self._diag("load.too-many-merges", path,
                                        f"more than {MAX_MERGES} merge keys in one document",
                                        knode if knode is not None else src))
            # build the source into fresh position tables, then re-root its positions (recorded
            # under path + ("<<", key)) under path + (key,): work proportional to the source only
            saved = (self.positions, self.value_positions)
            self.positions, self.value_positions = {}, {}
            try:
                built = self.build(src, path + ("<<",))
            finally:
                sub = (self.positions, self.value_positions)
                self.positions, self.value_positions = saved
            n = len(path) + 1
            for table, moved in zip(saved, sub):
                for p, pos in moved.items():
                    table[path + p[n:]] = pos
            for k, v in built.items():
                explicit.pop(k, None)
                out[k] = v




_JSON_INT_MAX = 1 << 63


def _json_literal(value: str) -> Any:
    """A JSON literal as Go's apimachinery decodes it: int64 when it is one, else float64."""
    if value == "true":
        return True
    if value == "false":
        return False
    if value == "null" or value == "":
        return None
    if not value or value[0] not in "-0123456789":
        return value
    if "." not in value and "e" not in value and "E" not in value and len(value) <= 20:
        try:
            iv = int(value)
        except ValueError:
            return value
        if -_JSON_INT_MAX <= iv < _JSON_INT_MAX:
            return iv
    try:
        return float(value)  # may be +-inf: refused by the caller, as Go's ParseFloat refuses it
    except ValueError:
        return value


def _json_int(value: str) -> Any:
    """``json.loads`` ``parse_int``: int64, else float64 (never Python's unbounded int)."""
    return _json_literal(value)




# --------------------------------------------------------------------------------------------------
# the loader


_LOADERS: dict[bool, Any] = {}
#: Use libyaml (``yaml.CSafeLoader``) when PyYAML has it; tests switch this off to run the
#: pure-Python parser path, which must give the same limits, rule ids and positions.
USE_LIBYAML = True


def _loader_class(pure: bool = False) -> Any:
    pure = pure or not USE_LIBYAML
    cls = _LOADERS.get(pure)
    if cls is None:
        import yaml
        from yaml.nodes import ScalarNode

        base = (None if pure else getattr(yaml, "CSafeLoader", None)) or yaml.SafeLoader

        class _Loader(base):  # type: ignore[misc, valid-type]
            def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
                if kind is ScalarNode:
                    return _PLAIN if implicit[0] else _STR
                return _MAP if kind is not yaml.SequenceNode else _SEQ

        cls = _LOADERS[pure] = _Loader
    return cls


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, len(raw[line_start:offset].decode("utf-8", "ignore")) + 1


def _too_large(size: int, file: str, line: int, col: int) -> Diagnostic:
    return Diagnostic("load.too-large", (),
                      f"input of {size} bytes is larger than the limit of {MAX_BYTES} bytes",
                      "error", file, line, col)


def load(text: str | bytes, file: str = "<stdin>", strict: bool = True,
         budget: int = NODE_BUDGET, decoder: str = "kubectl") -> LoadResult:
    """Load a YAML/JSON stream without raising for bad content: see :class:`LoadResult`.

    ``strict``: duplicate keys are errors (else warnings, last value wins).
    ``budget``: maximum nodes a document may expand to through aliases.
    ``decoder``: ``"kubectl"`` (default; sigs.k8s.io/yaml, YAML-1.1 booleans) or ``"yaml.v3"``
    (gopkg.in/yaml.v3 as used by Go test harnesses and kustomize: only true/false are booleans,
    so ``n``, ``yes``, ``on`` stay strings)."""
    if decoder not in ("kubectl", "yaml.v3"):
        raise ValueError(f"unknown decoder {decoder!r}")
    result = LoadResult()
    if isinstance(text, (bytes, bytearray, memoryview)):
        raw = bytes(text)
        if len(raw) > MAX_BYTES:
            result.errors.append(_too_large(len(raw), file, *_byte_position(raw, MAX_BYTES)))
            return result
        nul = raw.find(b"\x00")
        if nul >= 0 and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            line = raw.count(b"\n", 0, nul) + 1
            col = len(raw[raw.rfind(b"\n", 0, nul) + 1: nul].decode("utf-8", "replace")) + 1
            result.errors.append(Diagnostic("load.binary", (), "control characters are not allowed",
                                            "error", file, line, col))
            return result
        decoded, diag = _decode(raw, file)
        if diag is not None or decoded is None:
            assert diag is not None
            result.errors.append(diag)
            return result
        text = decoded
    else:
        if text.startswith("\ufeff"):
            text = text[1:]
        if len(text) > MAX_BYTES // 4:
            raw = text.encode("utf-8", "surrogatepass")
            if len(raw) > MAX_BYTES:
                result.errors.append(_too_large(len(raw), file, *_byte_position(raw, MAX_BYTES)))
                return result
    bad = _rx().bad_char.search(text)
    if bad is not None:
        line, col = _char_position(text, bad.start())
        rule = "load.binary" if bad.group() == "\x00" else "load.control-character"
        result.errors.append(Diagnostic(rule, (), "control characters are not allowed", "error",
                                        file, line, col))
        return result

    json_mode = file.lower().endswith(".json")
    # Nesting depth, before libyaml composes anything (libyaml 0.2.6 stops at 1,000 levels with its
    # own error; 0.2.5 has no limit): a cheap upper bound, the exact check only when it is over.
    if json_mode:
        bound = text.count("[") + text.count("{")
    else:
        prefix = max((len(m) for m in _rx().prefix.findall(text)), default=0)
        bound = text.count("[") + text.count("{") + 2 * (prefix + 2)
    if bound > MAX_DEPTH:
        too_deep = _json_depth_check(text, file) if json_mode else _depth_check(text, file)
        if too_deep is not None:
            result.errors.append(too_deep)
            return result
    _load_text(result, text, file, strict, budget, decoder, json_mode)
    return result


def _depth_check(text: str, file: str, pure: bool = False) -> Diagnostic | None:
    """The first collection nested deeper than MAX_DEPTH, on the event stream (no recursion).

    libyaml 0.2.6 gives up at 1,000 levels while scanning ahead (before the event at level
    MAX_DEPTH + 1 is delivered): then the pure-Python parser, which has no limit of its own, finds
    the same event."""
    import yaml

    loader = _loader_class(pure)(text)
    depth = 0
    try:
        while loader.check_event():
            ev = loader.get_event()
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    m: Any = ev.start_mark
                    return Diagnostic("load.too-deep", (), _TOO_DEEP, "error", file, m.line + 1,
                                      m.column + 1)
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        if not pure and _libyaml_depth_error(exc):
            return _depth_check(text, file, pure=True)
        return None  # a syntax error: reported by the normal path
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


def _libyaml_depth_error(exc: Any) -> bool:
    """libyaml >= 0.2.6: "exceeded maximum nesting depth" (while increasing flow/block level)."""
    return "nesting depth" in str(getattr(exc, "problem", "") or "")


def _json_depth_check(text: str, file: str) -> Diagnostic | None:
    depth = 0
    for m in _rx().json_token.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line, col = _char_position(text, m.start())
                return Diagnostic("load.too-deep", (), _TOO_DEEP, "error", file, line, col)
        elif c in "]}":
            depth -= 1
    return None


def _json_check(text: str, file: str) -> tuple[Any, Diagnostic | None]:
    """Parse JSON as Go does: ``(data, None)`` or ``(_NO_VALUE, diagnostic)``.

    Syntax errors are worded and located by our port of Go's scanner (never by the text of
    Python's message, which changed in CPython 3.13); numbers decode as apimachinery decodes them
    (int64, else float64; outside float64 is an error); strings obey MAX_SCALAR and must be valid
    Unicode (a lone surrogate escape is refused)."""
    import json

    from ._jsonscan import syntax_error

    def constant(name: str) -> Any:
        raise ValueError(name)  # NaN / Infinity: Python accepts them, Go does not

    try:
        data = json.loads(text, parse_int=_json_int, parse_constant=constant)
    except (ValueError, RecursionError) as exc:
        found = syntax_error(text)
        if found is not None:
            line, col = _char_position(text, found[1])
            return _NO_VALUE, Diagnostic("load.syntax", (), found[0], "error", file, line, col)
        pos = getattr(exc, "pos", 0)
        line, col = _char_position(text, min(pos, len(text)))
        return _NO_VALUE, Diagnostic("load.syntax", (), str(getattr(exc, "msg", exc)), "error", file,
                                     line, col)
    for m in _rx().json_token.finditer(text):
        tok = m.group()
        c = tok[0]
        problem: tuple[str, str] | None = None
        if c == '"':
            if len(tok) > MAX_SCALAR or "\\u" in tok or not tok.isascii():
                problem = _string_problem(json.loads(tok))
        elif c not in "[]{}":
            v = _json_literal(tok)
            if type(v) is float and v in (float("inf"), float("-inf")):
                problem = ("load.unsupported-value", _float_range(tok))
        if problem is not None:
            line, col = _char_position(text, m.start())
            return _NO_VALUE, Diagnostic(problem[0], (), problem[1], "error", file, line, col)
    return data, None


_STRUCTURE = re.compile(r"while (?:scanning|parsing) an? (.+)")


def _syntax_message(exc: Any) -> str:
    """libyaml's problem; when the structure it was reading began elsewhere, where it began
    (``found unexpected end of stream (the quoted scalar started at 4:9)``)."""
    problem = exc.problem or exc.context or "unknown problem parsing YAML content"
    ctx, cm, pm = exc.context, exc.context_mark, exc.problem_mark
    if ctx and cm is not None and pm is not None and (cm.line, cm.column) != (pm.line, pm.column):
        m = _STRUCTURE.match(ctx)
        if m is not None and m.group(1) != "plain scalar":  # a plain scalar ends anywhere
            problem += f" (the {m.group(1)} started at {cm.line + 1}:{cm.column + 1})"
    return str(problem)


def _load_text(result: LoadResult, text: str, file: str, strict: bool, budget: int,
               decoder: str, json_mode: bool) -> None:
    json_data: Any = _NO_VALUE
    if json_mode:
        if not text.strip():
            return
        json_data, diag = _json_check(text, file)
        if diag is not None:
            result.errors.append(diag)
            return

    import yaml

    loader = _loader_class()(text)
    builder = _Builder(file, text, json_mode, strict, budget, decoder == "yaml.v3")
    index = 0
    count = 0
    try:
        while True:
            try:
                if not loader.check_node():
                    break
                node = loader.get_node()
            except yaml.MarkedYAMLError as exc:
                if json_mode and json_data is not _NO_VALUE:
                    # valid JSON that libyaml cannot read (e.g. long keys, surrogate escapes)
                    _add_plain(result, json_data, file, index)
                    return
                if _libyaml_depth_error(exc):
                    deep = _depth_check(text, file, pure=True)
                    if deep is not None:
                        result.errors.append(deep)
                        return
                mark = exc.problem_mark or exc.context_mark
                line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                result.errors.append(Diagnostic("load.syntax", (), _syntax_message(exc), "error", file,
                                                line, col))
                return
            except yaml.YAMLError as exc:  # ReaderError and friends
                result.errors.append(Diagnostic("load.syntax", (), str(exc), "error", file, 1, 1))
                return
            if node is None:
                continue
            count += 1
            if count > MAX_DOCUMENTS:
                m = node.start_mark
                result.errors.append(Diagnostic(
                    "load.too-many-documents", (), f"more than {MAX_DOCUMENTS} documents in one input",
                    "error", file, m.line + 1, m.column + 1))
                return
            index = _add_node(result, builder, node, file, index)
    finally:
        loader.dispose()
    return


def _add_plain(result: LoadResult, data: Any, file: str, index: int) -> None:
    if data is None:
        return
    if not isinstance(data, dict):
        result.errors.append(_not_a_mapping(data, (), file, (1, 1)))
        return
    result.documents.append(LoadedDocument(data, file, index, {(): (1, 1)}))
    result.document_diagnostics.append([])


def _not_a_mapping(data: Any, path: Path, file: str, pos: tuple[int, int]) -> Diagnostic:
    kind = ("array" if isinstance(data, list) else "bool" if isinstance(data, bool)
            else "number" if isinstance(data, (int, float)) else "string")
    return Diagnostic("load.not-a-mapping", path,
                      f"cannot unmarshal {kind} into Go value of type map[string]interface {{}}",
                      "error", file, pos[0], pos[1])


def _add_node(result: LoadResult, builder: _Builder, node: Any, file: str, index: int) -> int:
    """Build one YAML document and append what it yields; returns the next document index."""
    builder.reset()
    start = (node.start_mark.line + 1, node.start_mark.column + 1)
    builder.positions[()] = start
    builder.root = node
    try:
        data = builder.build(node, ())
    except _Abort as stop:
        result.errors.append(stop.diag)
        return index + 1
    except RecursionError:
        result.errors.append(Diagnostic("load.too-deep", (), f"exceeded max depth of {MAX_DEPTH}",
                                        "error", file, start[0], start[1]))
        return index + 1
    diags = builder.diags
    if data is None:  # empty document
        result.errors.extend(diags)
        return index
    if not isinstance(data, dict):
        result.errors.append(_not_a_mapping(data, (), file, start))
        return index + 1
    positions = builder.positions
    vpositions = builder.value_positions
    items = data.get("items")
    if data.get("kind") == "List" and isinstance(items, list):
        for i, item in enumerate(items):
            prefix: Path = ("items", i)
            pos = positions.get(prefix, start)
            if item is None:
                continue
            n = len(prefix)
            sub_diags = [Diagnostic(d.rule, d.path[n:], d.message, d.severity, d.file, d.line,
                                    d.column) for d in diags if d.path[:n] == prefix]
            if not isinstance(item, dict):
                result.errors.append(_not_a_mapping(item, (), file, pos))
                result.errors.extend(sub_diags)
                index += 1
                continue
            sub_pos = {p[n:]: v for p, v in positions.items() if p[:n] == prefix}
            sub_vpos = {p[n:]: v for p, v in vpositions.items() if p[:n] == prefix}
            result.documents.append(LoadedDocument(item, file, index, sub_pos, pos, sub_vpos))
            result.document_diagnostics.append(sub_diags)
            index += 1
        result.errors.extend(d for d in diags if d.path[:1] != ("items",) or len(d.path) < 2)
        return index
    result.documents.append(LoadedDocument(data, file, index, positions, start, vpositions))
    result.document_diagnostics.append(list(diags))
    return index + 1
