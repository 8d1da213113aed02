"""Loader internals: the YAML node graph -> plain data (merge keys, aliases under a budget, key
conversion, located diagnostics)."""

from __future__ import annotations

import math

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import go_quote
from ._scalars import (
    _BINARY,
    _BOOL,
    _FLOAT,
    _HINT_CHARS,
    _INT,
    _MAP,
    _NO_VALUE,
    _NULL,
    _PLAIN,
    _SCALAR_TAGS,
    _SEQ,
    _SHORT,
    _SPECIAL_FLOATS,
    _STR,
    _TIMESTAMP,
    _TOO_DEEP,
    _Y,
    _YAML11_ONLY_BOOLS,
    ALIAS_FACTOR,
    ALIAS_FLOOR,
    MAX_DEPTH,
    MAX_MERGES,
    MAX_SCALAR,
    _float_range,
    _go_float_key,
    _go_repr,
    _json_number,
    _resolve_plain,
    _rx,
    _string_problem,
)

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

# --------------------------------------------------------------------------------------------------
# YAML node graph -> plain data


#: plain scalar text -> :func:`_resolve_plain` of it, remembered (bounded; short texts only): a pure function
#: of the text, and manifests repeat theirs (``--model-path``, ``nvidia.com/gpu``, ``1``, ``true``...)
_RESOLVED: dict[str, Any] = {}


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
        "aliases",
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
        #: whether a node can be met twice: an alias (``*name``) needs its ``*``; without one the builder keeps
        #: no record of the collections it has built or is building
        self.aliases = "*" in text
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
        if len(value) > 64:
            return _resolve_plain(value)
        hit = _RESOLVED.get(value, _NO_VALUE)
        if hit is _NO_VALUE:
            hit = _resolve_plain(value)
            if len(_RESOLVED) < 4096:
                _RESOLVED[value] = hit
        return value if type(hit) is str else hit  # a string: the scalar's own

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
        if not self.aliases:
            return self._build_collection(node, tag, key, path)
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
        aliases = self.aliases
        if aliases and key in self.building:
            raise _Abort(self._diag("load.alias-bomb", path,
                                    f"anchor '{self._anchor_name(node)}' value contains itself", node))
        if len(path) >= MAX_DEPTH:  # this collection is level len(path) + 1 (aliases expanded)
            raise _Abort(self._diag("load.too-deep", path, _TOO_DEEP, node))
        out: Any
        if type(node) is self._mapping_cls:
            if tag != _MAP:
                self._check_tag(node, tag, path)
            if aliases:
                self.building.add(key)
            out = self._mapping(node, path)
        else:
            if tag != _SEQ:
                self._check_tag(node, tag, path)
            if aliases:
                self.building.add(key)
            out_l: list[Any] = []
            positions = self.positions
            scalar_cls = self._scalar_cls
            for i, item in enumerate(node.value):
                p = path + (i,)
                m = item.start_mark
                positions[p] = (m.line + 1, m.column + 1)
                if type(item) is scalar_cls:
                    value = item.value
                    vtag = item.tag
                    if (vtag == _STR or (vtag == _PLAIN and value and value[0] not in _HINT_CHARS)) \
                            and value.isascii() and len(value) <= MAX_SCALAR:  # as in _mapping
                        out_l.append(value)
                        continue
                out_l.append(self.build(item, p))
            out = out_l
        if aliases:
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
            idx = node.start_mark.index  # _nonspecific: a "!" or an anchor there (the rest: no call)
            if idx < len(self.text) and self.text[idx] in "!&" and self._nonspecific(node):
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
            if v.isascii() and len(v) <= MAX_SCALAR:  # what _check_str returns as it is, without the call
                return v
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


    def _unsupported_key(self, knode: Any, vnode: Any, path: Path, what: str) -> None:
        """sigs.k8s.io/yaml's refusal of a key JSON cannot hold (``what``: its Go type and value)."""
        try:
            shown = _go_repr(self._peek_value(vnode))
        except (_Abort, RecursionError):
            shown = "..."
        self.diags.append(self._diag("load.unsupported-key", path,
                                     f"unsupported map key of type: {what}, value: {shown}", knode))

    def _key(self, knode: Any, vnode: Any, path: Path) -> str | None:
        """The JSON key sigs.k8s.io/yaml makes of a key node, or None (diagnostic recorded)."""
        if type(knode) is self._scalar_cls:
            tag = knode.tag
            value = knode.value
            if not (value.isascii() and len(value) <= MAX_SCALAR):
                value = self._check_str(knode, value, path)
            if tag == _STR:
                return str(value)
            if tag == _PLAIN and value and value[0] not in _HINT_CHARS:
                return str(value)
            k = self._scalar_value(knode, tag, path)
            if isinstance(k, str):
                return k
            if isinstance(k, bool):
                return "true" if k else "false"
            if isinstance(k, int) and k >= 1 << 63:  # a uint64: sigs.k8s.io/yaml converts no such key
                self._unsupported_key(knode, vnode, path, f"uint64, key: {k:#x}")
                return None
            if isinstance(k, int):
                return str(k)
            if isinstance(k, float):
                return _go_float_key(k)
            self._unsupported_key(knode, vnode, path, "%!s(<nil>), key: <nil>")  # None
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
        scalar_cls = self._scalar_cls
        for knode, vnode in node.value:
            if type(knode) is scalar_cls:
                key = knode.value
                ktag = knode.tag
                if key == "<<" and ktag == _PLAIN and not self.json_mode:
                    self._merge(vnode, out, explicit, path, knode)
                    continue
                # a string key _key would return as it is, without the call
                if not ((ktag == _STR or (ktag == _PLAIN and key and key[0] not in _HINT_CHARS))
                        and key.isascii() and len(key) <= MAX_SCALAR):
                    key = self._key(knode, vnode, path)
            else:
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
            if type(vnode) is scalar_cls:
                value = vnode.value
                vtag = vnode.tag
                # what _scalar returns unchanged, without its calls: a quoted string, or a plain one whose first
                # character no resolution reads as anything but a string (a tag or an anchor before it: the same;
                # JSON's plain scalars, literals and numbers, all start with such a character)
                if (vtag == _STR or (vtag == _PLAIN and value and value[0] not in _HINT_CHARS)) \
                        and value.isascii() and len(value) <= MAX_SCALAR:
                    out[key] = value
                else:
                    out[key] = self._scalar(vnode, vtag, p)
            else:
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
