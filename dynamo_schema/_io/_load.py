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

import os
import sys

from .._core._diagnostics import Diagnostic, DynamoSchemaError, Path
from .._core._document import Document
from .._core._lazyre import lazy
from .._core._record import Record
from ._builder import _Abort, _Builder, _json_int, _json_literal
from ._scalars import (
    _EXTENSIONS,
    _MAP,
    _NO_VALUE,
    _PLAIN,
    _SEQ,
    _STR,
    _TOO_DEEP,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_DOCUMENTS,
    MAX_MERGES,
    MAX_SCALAR,
    NODE_BUDGET,
    _char_position,
    _decode,
    _float_range,
    _rx,
    _string_problem,
)

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

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
    "decode_input",
    "load_text",
]

#: bytes -> text as the loader reads them (BOMs, UTF-16/32, a located error for bad UTF-8): for a command
#: that reads the raw text itself (``convert`` keeps comments).
decode_input = _decode


class LoadError(DynamoSchemaError):
    """Input that cannot be loaded. ``diagnostics`` are located; ``documents`` holds the documents of
    the same input that did load cleanly (a per-document problem does not hide its neighbours)."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None,
                 documents: list[Document] | None = None) -> None:
        super().__init__(message, diagnostics)
        self.documents: list[Document] = list(documents or [])


class LoadedDocument(Document):
    """A :class:`Document` that also knows where each mapping *value* starts
    (``positions`` holds the key position of a mapping entry, ``value_positions`` its value's) and, for an
    item of a ``kind: List``, where that List document starts (``list_start``; None otherwise: waivers on
    the List's first line cover every item). Written out as :class:`Document` is (docs/decisions.md D32)."""

    __slots__ = ("list_start", "value_positions")
    _FIELDS = Document._FIELDS + ("value_positions", "list_start")
    value_positions: dict[Path, tuple[int, int]]
    list_start: tuple[int, int] | None

    def __init__(self, data: Any, file: str = "<stdin>", index: int = 0,
                 positions: dict[Path, tuple[int, int]] | None = None, start: tuple[int, int] = (1, 1),
                 value_positions: dict[Path, tuple[int, int]] | None = None,
                 list_start: tuple[int, int] | None = None) -> None:
        self.data = data
        self.file = file
        self.index = index
        self.positions = {} if positions is None else positions
        self.start = start
        self.value_positions = {} if value_positions is None else value_positions
        self.list_start = list_start


class LoadResult(Record):
    """Everything one input produced.

    ``documents``: every document whose root is a mapping, in source order (``kind: List`` expanded).
    ``document_diagnostics[i]``: diagnostics of ``documents[i]`` (e.g. duplicate keys).
    ``errors``: diagnostics tied to no usable document (syntax, encoding, a non-mapping document).
    """

    __slots__ = _FIELDS = ("documents", "document_diagnostics", "errors")
    documents: list[Document]
    document_diagnostics: list[list[Diagnostic]]
    errors: list[Diagnostic]

    def __init__(self, documents: list[Document] | None = None,
                 document_diagnostics: list[list[Diagnostic]] | None = None,
                 errors: list[Diagnostic] | None = None) -> None:
        self.documents = [] if documents is None else documents
        self.document_diagnostics = [] if document_diagnostics is None else document_diagnostics
        self.errors = [] if errors is None else errors

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


def load_path_result(path: str, strict: bool = True, *, sequences: bool = False) -> LoadResult:
    """Load one file (or ``-`` for stdin, or every file of a directory); never raises for bad content.
    ``sequences``: as :func:`load`."""
    if path != "-" and os.path.isdir(path):
        total = LoadResult()
        for f in iter_paths([path]):
            r = load_path_result(f, strict, sequences=sequences)
            total.documents.extend(r.documents)
            total.document_diagnostics.extend(r.document_diagnostics)
            total.errors.extend(r.errors)
        return total
    data, name = _read(path)
    return load(data, name, strict=strict, sequences=sequences)


def load_path(path: str, strict: bool = True) -> list[Document]:
    """Documents of a file, a directory (recursive, sorted) or ``-`` (stdin).

    Raises :class:`LoadError` when any document has an error; OSError for I/O problems."""
    return documents_or_raise(load_path_result(path, strict))


def load_text(text: str | bytes, file: str = "<stdin>", strict: bool = True) -> list[Document]:
    """Documents of one YAML/JSON text. Raises :class:`LoadError` when any document has an error."""
    return documents_or_raise(load(text, file, strict=strict))


def documents_or_raise(result: LoadResult) -> list[Document]:
    """The documents of ``result``, or LoadError (the first error located, the count of the rest)."""
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
            # PyYAML's path resolvers (never added here) are told of every node entered and left: C
            # callables that ignore their arguments instead of two Python calls per node
            descend_resolver = staticmethod(slice)  # (node, index) -> a throwaway slice
            ascend_resolver = staticmethod(tuple)  # () -> ()

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
         budget: int = NODE_BUDGET, decoder: str = "kubectl", *, sequences: bool = False) -> LoadResult:
    """Load a YAML/JSON stream without raising for bad content: see :class:`LoadResult`.

    ``strict``: duplicate keys are errors (else warnings, last value wins).
    ``budget``: maximum nodes a document may expand to through aliases.
    ``decoder``: ``"kubectl"`` (default; sigs.k8s.io/yaml, YAML-1.1 booleans) or ``"yaml.v3"``
    (gopkg.in/yaml.v3 as used by Go test harnesses and kustomize: only true/false are booleans,
    so ``n``, ``yes``, ``on`` stay strings).
    ``sequences``: a document whose root is a sequence is a document too (its ``data`` a list, with
    positions), not a ``load.not-a-mapping`` error: a kustomize JSON6902 patch is a list of operations."""
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
    if _may_be_too_deep(text, json_mode):
        too_deep = _json_depth_check(text, file) if json_mode else _depth_check(text, file)
        if too_deep is not None:
            result.errors.append(too_deep)
            return result
    _load_text(result, text, file, strict, budget, decoder, json_mode, sequences)
    return result


def _may_be_too_deep(text: str, json_mode: bool) -> bool:
    """Whether ``text`` may nest deeper than MAX_DEPTH (False: it cannot). The bound: the brackets, plus
    (YAML) twice the longest block prefix of a line plus 2, over MAX_DEPTH; the prefix is asked of the
    regex engine (is any line's prefix that long: one search, no list of every line's prefix)."""
    brackets = text.count("[") + text.count("{")
    if json_mode:
        return brackets > MAX_DEPTH
    need = (MAX_DEPTH - brackets - 4) // 2 + 1
    return need <= 0 or _rx().long_prefix(text, need)


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


_STRUCTURE = lazy(r"while (?:scanning|parsing) an? (.+)")


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
               decoder: str, json_mode: bool, sequences: bool = False) -> None:
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
                    _add_plain(result, json_data, file, index, sequences)
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
            index = _add_node(result, builder, node, file, index, sequences)
    finally:
        loader.dispose()
    return


def _add_plain(result: LoadResult, data: Any, file: str, index: int, sequences: bool = False) -> None:
    if data is None:
        return
    if not isinstance(data, dict) and not (sequences and isinstance(data, list)):
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


def _add_node(result: LoadResult, builder: _Builder, node: Any, file: str, index: int,
              sequences: bool = False) -> int:
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
    if sequences and isinstance(data, list):
        result.documents.append(LoadedDocument(data, file, index, builder.positions, start, builder.value_positions))
        result.document_diagnostics.append(list(diags))
        return index + 1
    if not isinstance(data, dict):
        result.errors.append(_not_a_mapping(data, (), file, start))
        return index + 1
    positions = builder.positions
    vpositions = builder.value_positions
    items = data.get("items")
    if data.get("kind") == "List" and isinstance(items, list):
        own = [d for d in diags if d.path[:1] != ("items",) or len(d.path) < 2]  # the List's own keys
        # its warnings (a duplicate key under --no-strict) go with its first item: a warning is no failed resource
        carried = [d for d in own if d.severity != "error"]
        first = len(result.documents)
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
            result.documents.append(LoadedDocument(item, file, index, sub_pos, pos, sub_vpos, start))
            result.document_diagnostics.append(sub_diags)
            index += 1
        if carried and len(result.documents) > first:
            result.document_diagnostics[first][:0] = carried
            own = [d for d in own if d.severity == "error"]
        result.errors.extend(own)
        return index
    result.documents.append(LoadedDocument(data, file, index, positions, start, vpositions))
    result.document_diagnostics.append(list(diags))
    return index + 1
