"""Compiled schema nodes: a JSON Schema (a CRD ``openAPIV3Schema`` inline, or a generated schema with
``$ref: #/$defs/Name``) compiled lazily into :class:`Node` objects, once per schema (cached per
``id(schema)``). ``anyOf`` is understood for nullable (``{"type": "null"}`` branches, and the exported
schemas' ``_consts.NULL_REF``) and int-or-string;
patterns are RE2 compiled for Python."""

from __future__ import annotations

import re

from .._core._consts import NULL_REF

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Node", "child_node", "compile_schema", "has_below"]

# --------------------------------------------------------------------------------------------------
# Compiled schema nodes
# --------------------------------------------------------------------------------------------------

_INT_OR_STRING = ("integer", "string")
_NULL = {"type": "null"}


class Node:
    """One compiled schema node (after following ``$ref`` and flattening nullable ``anyOf``)."""

    __slots__ = (
        "_addl",
        "_items",
        "_props",
        "addl",
        "all_of",
        "all_of_enums",
        "any_of",
        "below",
        "ctx",
        "default",
        "embedded",
        "enum",
        "excl_max",
        "excl_min",
        "fast",
        "format",
        "has_default",
        "int_or_string",
        "items_raw",
        "list_type",
        "map_keys",
        "map_type",
        "max_items",
        "max_length",
        "max_props",
        "maximum",
        "min_items",
        "min_length",
        "min_props",
        "minimum",
        "multiple_of",
        "nullable",
        "pattern",
        "pattern_src",
        "preserve",
        "props_raw",
        "raw",
        "required",
        "types",
        "validations",
    )

    raw: dict[str, Any]
    ctx: _Ctx
    types: tuple[str, ...]
    nullable: bool
    props_raw: dict[str, Any] | None
    _props: dict[str, Node]
    required: tuple[str, ...]
    addl: Any  # None (absent), True, False, or a raw schema dict
    _addl: Node | None
    items_raw: Any
    _items: Node | None
    enum: list[Any] | None
    pattern: re.Pattern[str] | None
    pattern_src: str
    minimum: float | int | None
    maximum: float | int | None
    excl_min: bool
    excl_max: bool
    min_length: int | None
    max_length: int | None
    min_items: int | None
    max_items: int | None
    min_props: int | None
    max_props: int | None
    format: str
    has_default: bool
    default: Any
    int_or_string: bool
    preserve: bool
    embedded: bool
    list_type: str
    map_keys: tuple[str, ...]
    map_type: str
    validations: list[dict[str, Any]]
    all_of: list[Node]
    all_of_enums: int  # enum branches of a CRD allOf folded by the generator (x-dynamo-schema-allof)
    any_of: list[Node]
    multiple_of: float | int | None
    fast: Any  # the fast path's plan of this node (``_fastcheck``), made on first use
    below: dict[str, bool] | None  # ``has_below`` answers of this node, by key

    @property
    def properties(self) -> dict[str, Any]:
        return self.props_raw or {}

    def prop(self, name: str) -> Node | None:
        n = self._props.get(name)
        if n is None:
            if not self.props_raw or name not in self.props_raw:
                return None
            n = self.ctx.node(self.props_raw[name])
            self._props[name] = n
        return n

    def additional(self) -> Node | None:
        """Schema of additional properties (None when absent or boolean)."""
        if self._addl is None and isinstance(self.addl, dict):
            self._addl = self.ctx.node(self.addl)
        return self._addl

    def items(self) -> Node | None:
        if self._items is None and isinstance(self.items_raw, dict):
            self._items = self.ctx.node(self.items_raw)
        return self._items

    @property
    def allows_unknown(self) -> bool:
        return self.preserve or self.addl is True

    @property
    def schema_type(self) -> str:
        """The structural ``type`` (``""`` for int-or-string / untyped)."""
        if self.int_or_string or len(self.types) != 1:
            return ""
        return self.types[0]


def child_node(node: Node | None, key: str | int) -> Node | None:
    """The node of a property / additional property (str key) or an item (int key)."""
    if node is None:
        return None
    if isinstance(key, int):
        return node.items()
    p = node.prop(key)
    if p is not None:
        return p
    return node.additional()


def _go_regex(src: str) -> re.Pattern[str]:
    """Compile an RE2 pattern for Python; Go's ``$`` (no multiline) matches only at the very end."""
    out: list[str] = []
    i, n, in_class = 0, len(src), False
    while i < n:
        c = src[i]
        if c == "\\" and i + 1 < n:
            nxt = src[i + 1]
            out.append("\\Z" if (nxt == "z" and not in_class) else c + nxt)
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
            if i + 1 < n and src[i + 1] == "^":
                out.append("^")
                i += 1
            if i + 1 < n and src[i + 1] == "]":
                out.append("\\]")
                i += 1
        elif c == "$":
            out.append(r"\Z")
        else:
            out.append(c)
        i += 1
    return re.compile("".join(out))


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _pattern(src: str) -> re.Pattern[str]:
    p = _PATTERNS.get(src)
    if p is None:
        try:
            p = _go_regex(src)
        except re.error:
            p = re.compile(re.escape(src))
        _PATTERNS[src] = p
    return p


class _Ctx:
    """Compilation context of one root schema (``$defs`` resolution and node memo)."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.memo: dict[int, Node] = {}
        self.keep: list[Any] = []

    def resolve_ref(self, ref: str) -> dict[str, Any]:
        if not ref.startswith("#/"):
            raise ValueError(f"unsupported $ref {ref!r}")
        target: Any = self.root
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return target  # type: ignore[no-any-return]

    def effective(self, d: dict[str, Any], depth: int = 0) -> dict[str, Any]:
        """``d`` with ``$ref``, single-branch ``allOf`` and nullable ``anyOf`` flattened."""
        if depth > 64:
            raise ValueError("$ref cycle")
        if "$ref" in d:
            target = self.effective(self.resolve_ref(d["$ref"]), depth + 1)
            extra = {k: v for k, v in d.items() if k != "$ref"}
            d = {**target, **extra} if extra else target
        all_of = d.get("allOf")
        if (
            isinstance(all_of, list)
            and len(all_of) == 1
            and isinstance(all_of[0], dict)
            and "$ref" in all_of[0]
        ):
            target = self.effective(all_of[0], depth + 1)
            rest = {k: v for k, v in d.items() if k != "allOf"}
            d = {**target, **rest}
        any_of = d.get("anyOf")
        if isinstance(any_of, list):
            branches = [b for b in any_of if b != _NULL and b != NULL_REF]
            nullable = len(branches) != len(any_of)
            if nullable or len(branches) == 1:
                rest = {k: v for k, v in d.items() if k != "anyOf"}
                # a null branch marked "pruned" (schemagen.PRUNED_NULL) does not make the field nullable
                if nullable and not rest.pop("x-dynamo-schema-null", None):
                    rest["nullable"] = True
                if len(branches) == 1 and isinstance(branches[0], dict):
                    b = self.effective(branches[0], depth + 1)
                    d = {**b, **rest}
                else:
                    d = {**rest, "anyOf": branches} if branches else rest
        return d

    def node(self, d: Any) -> Node:
        if not isinstance(d, dict):
            d = {} if d is True or d is None else {"not": {}}
        key = id(d)
        n = self.memo.get(key)
        if n is not None:
            return n
        self.keep.append(d)
        n = Node()
        self.memo[key] = n
        self._fill(n, self.effective(d))
        return n

    def _fill(self, n: Node, d: dict[str, Any]) -> None:
        n.raw = d
        n.ctx = self
        n.fast = None
        n.below = None
        t = d.get("type")
        if isinstance(t, str):
            types: tuple[str, ...] = (t,)
        elif isinstance(t, list):
            types = tuple(x for x in t if x != "null")
        else:
            types = ()
        nullable = bool(d.get("nullable")) or (isinstance(t, list) and "null" in t)
        ios = bool(d.get("x-kubernetes-int-or-string"))
        any_of_nodes: list[Node] = []
        any_of = d.get("anyOf")
        extra: dict[str, Any] = {}
        if isinstance(any_of, list) and any_of:
            btypes = []
            for b in any_of:
                eb = self.effective(b) if isinstance(b, dict) else {}
                btypes.append(eb.get("type"))
            if sorted(x for x in btypes if isinstance(x, str)) == ["integer", "string"] and len(btypes) == 2:
                ios = True
                # constraints of the string branch (pattern etc.) apply to strings
                for b in any_of:
                    eb = self.effective(b)
                    if eb.get("type") == "string":
                        extra = {k: v for k, v in eb.items() if k not in ("type", "description")}
            elif not ios:
                any_of_nodes = [self.node(b) for b in any_of]
        if ios:
            types = _INT_OR_STRING
        n.types = types
        n.nullable = nullable
        n.int_or_string = ios
        props = d.get("properties")
        n.props_raw = props if isinstance(props, dict) else None
        n._props = {}
        req = d.get("required")
        n.required = tuple(req) if isinstance(req, list) else ()
        n.addl = d.get("additionalProperties")
        n._addl = None
        n.items_raw = d.get("items")
        n._items = None
        if "enum" in d and isinstance(d["enum"], list):
            n.enum = list(d["enum"])
        elif "const" in d:
            n.enum = [d["const"]]
        else:
            n.enum = None
        folded = d.get("x-dynamo-schema-allof")
        n.all_of_enums = folded if isinstance(folded, int) and not isinstance(folded, bool) else 0
        pat = d.get("pattern", extra.get("pattern"))
        n.pattern_src = pat if isinstance(pat, str) else ""
        n.pattern = _pattern(pat) if isinstance(pat, str) else None
        mn = d.get("minimum", extra.get("minimum"))
        mx = d.get("maximum", extra.get("maximum"))
        emn = d.get("exclusiveMinimum")
        emx = d.get("exclusiveMaximum")
        n.excl_min = False
        n.excl_max = False
        if isinstance(emn, bool):
            n.excl_min = emn
        elif isinstance(emn, (int, float)) and (mn is None or emn >= mn):  # JSON Schema 2019+ numeric form
            mn, n.excl_min = emn, True
        if isinstance(emx, bool):
            n.excl_max = emx
        elif isinstance(emx, (int, float)) and (mx is None or emx <= mx):
            mx, n.excl_max = emx, True
        n.minimum = mn
        n.maximum = mx
        n.multiple_of = d.get("multipleOf")
        n.min_length = d.get("minLength", extra.get("minLength"))
        n.max_length = d.get("maxLength", extra.get("maxLength"))
        n.min_items = d.get("minItems")
        n.max_items = d.get("maxItems")
        n.min_props = d.get("minProperties")
        n.max_props = d.get("maxProperties")
        fmt = d.get("format", extra.get("format"))
        n.format = fmt if isinstance(fmt, str) else ""
        n.has_default = "default" in d
        n.default = d.get("default")
        n.preserve = bool(d.get("x-kubernetes-preserve-unknown-fields"))
        n.embedded = bool(d.get("x-kubernetes-embedded-resource"))
        lt = d.get("x-kubernetes-list-type")
        n.list_type = lt if isinstance(lt, str) else ""
        mk = d.get("x-kubernetes-list-map-keys")
        n.map_keys = tuple(mk) if isinstance(mk, list) else ()
        mt = d.get("x-kubernetes-map-type")
        n.map_type = mt if isinstance(mt, str) else ""
        v = d.get("x-kubernetes-validations")
        n.validations = list(v) if isinstance(v, list) else []
        all_of = d.get("allOf")
        n.all_of = [self.node(b) for b in all_of] if isinstance(all_of, list) else []
        n.any_of = any_of_nodes


_COMPILED: dict[int, tuple[dict[str, Any], Node]] = {}


def compile_schema(schema: dict[str, Any]) -> Node:
    """The compiled root node of ``schema`` (cached per ``id(schema)``; do not mutate the schema)."""
    hit = _COMPILED.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    ctx = _Ctx(schema)
    node = ctx.node(schema)
    _COMPILED[id(schema)] = (schema, node)
    return node


_BELOW: dict[tuple[int, str], tuple[Any, bool]] = {}


def has_below(node: Node, key: str) -> bool:
    """Whether ``key`` (``default``, ``x-kubernetes-validations``) occurs anywhere in the schema of
    ``node`` or below it (``$ref`` followed). Computed on the raw schema, once per schema dict
    (cheap: no node compiled); True when unsure (a ``$ref`` cycle, a bad ``$ref``), so that a walk
    only skips subtrees with nothing to do."""
    below = node.below
    if below is None:
        below = node.below = {}
    found = below.get(key)
    if found is None:
        found = below[key] = _raw_below(node.ctx, node.raw, key)
    return found


def _raw_below(ctx: Any, x: Any, key: str) -> bool:
    memo_key = (id(x), key)
    hit = _BELOW.get(memo_key)
    if hit is not None and hit[0] is x:
        return hit[1]
    _BELOW[memo_key] = (x, True)  # while scanning (a cycle): unsure
    found = False
    if isinstance(x, dict):
        if key in x:
            found = True
        else:
            ref = x.get("$ref")
            if isinstance(ref, str):
                try:
                    found = _raw_below(ctx, ctx.resolve_ref(ref), key)
                except (KeyError, TypeError, ValueError):
                    found = True
            found = found or any(_raw_below(ctx, v, key) for v in x.values() if isinstance(v, (dict, list)))
    elif isinstance(x, list):
        found = any(_raw_below(ctx, v, key) for v in x if isinstance(v, (dict, list)))
    _BELOW[memo_key] = (x, found)
    return found
