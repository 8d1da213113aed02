"""Structural-schema validation the way the Kubernetes API server does it, offline.

Emulates, for a custom resource posted to ``kube-apiserver`` (``apiextensions-apiserver``):

1. pruning of unknown fields (``fieldValidation=Strict`` reports them as ``unknown field "spec.foo"``;
   ``Warn`` as a warning) — rule ``schema.unknown-field``;
2. pruning of explicit nulls on non-nullable fields without a default
   (``PruneNonNullableNullsWithoutDefaults``); a null on a field *with* a default is defaulted —
   both reported as notes, rule ``schema.null-pruned``;
3. the OpenAPI v3 value validation of ``k8s.io/kube-openapi/pkg/validation/validate`` converted to
   field errors by ``kubeOpenAPIResultToFieldErrors`` (``Invalid value: "string": spec.replicas in
   body must be of type integer: "string"``, ``Unsupported value: …``, ``Required value``,
   ``Too long: …``, ``Too many: …``);
4. ``x-kubernetes-list-type`` set/map uniqueness (``listtype.ValidateListSetsAndMaps``,
   ``Duplicate value: …``) and ``x-kubernetes-embedded-resource`` type-meta checks.

Messages are the Kubernetes field-error body *without* the leading field path (the reporter adds it).

The schema is either a CRD ``openAPIV3Schema`` (inline) or a generated JSON Schema with
``$ref: #/$defs/Name``; ``anyOf`` is understood for nullable (``{"type": "null"}`` branches) and
int-or-string. A schema is compiled lazily into nodes once and cached per ``id(schema)``.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable
from typing import Any

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import field_error, field_value_v033, go_float, go_quote

__all__ = [
    "Node",
    "child_node",
    "compile_schema",
    "openapi_name",
    "prune_nulls",
    "validate",
]

# --------------------------------------------------------------------------------------------------
# Go formatting helpers (field.Error.ErrorBody prints values with %q / %v / %#v)
# --------------------------------------------------------------------------------------------------


def _field_error(type_: str, value: Any, detail: str = "") -> str:
    """``field.Error.ErrorBody`` as the apiextensions-apiserver prints it: values as
    ``field_value_v033`` renders them (nil is the string "null" kube-openapi reports, composites
    ``%#v``)."""
    return field_error(type_, value, detail, render=field_value_v033)


def _num(v: float) -> str:
    """``%v`` of a schema bound (float64 in kube-openapi) or an integer."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    return go_float(float(v))


def openapi_name(path: Path) -> str:
    """The field name kube-openapi's validator puts in its messages (``… in body must be …``): every
    key joined with ``.`` — map keys too, even with dots or slashes (``metadata.labels.a/b``) —
    indexes as ``[i]``. Not the Kubernetes field path (``_diagnostics.format_path``: ``labels[a/b]``)."""
    out: list[str] = []
    for e in path:
        if isinstance(e, int):
            out.append(f"[{e}]")
        else:
            if out:
                out.append(".")
            out.append(e)
    return "".join(out)


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
        "ctx",
        "default",
        "embedded",
        "enum",
        "excl_max",
        "excl_min",
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
            branches = [b for b in any_of if b != _NULL]
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


# --------------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------------

# metav1.ObjectMeta JSON fields: the API server decodes metadata of the resource root and of
# embedded resources into ObjectMeta, and reports anything else as an unknown field.
_OBJECT_META_FIELDS = (
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
)
_META_FIELDS = ("apiVersion", "kind", "metadata")

_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_FORMAT_RANGES = {"int32": _INT32, "int64": _INT64, "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}

_DATE_TIME = re.compile(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$")
_DATE = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$")


def _is_date(s: str) -> bool:
    m = _DATE.match(s)
    if not m:
        return False
    try:
        datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return False
    return True


def _is_date_time(s: str) -> bool:
    """``strfmt.IsDateTime`` (the ``date-time`` format check kube-openapi performs)."""
    if len(s) < 4:
        return False
    parts = s.lower().split("t")
    if len(parts) < 2 or not _is_date(parts[0]):
        return False
    m = _DATE_TIME.match(parts[1])
    if not m:
        return False
    return m.group(1) <= "23" and m.group(2) <= "59" and m.group(3) <= "59"


def _is_byte(s: str) -> bool:
    import base64
    import binascii

    try:
        base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


# formats kube-apiserver keeps (StripUnsupportedFormatsPostProcess) and that we can check cheaply;
# the others (uri, email, hostname, ...) are accepted leniently.
_STRING_FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": _is_date_time,
    "datetime": _is_date_time,
    "date": _is_date,
    "byte": _is_byte,
}


def _json_type(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    if v is None:
        return "null"
    return type(v).__name__


def _type_ok(types: tuple[str, ...], jt: str, v: Any) -> bool:
    if jt in types:
        return True
    if jt == "number" and "integer" in types and isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return True  # isFloatInt
    return jt == "integer" and "number" in types  # isIntFloat


def _enum_ok(v: Any, enum: list[Any]) -> bool:
    for e in enum:
        if isinstance(e, bool) or isinstance(v, bool):
            if isinstance(e, bool) and isinstance(v, bool) and e == v:
                return True
            continue
        if isinstance(e, str) != isinstance(v, str):
            continue
        if e == v:
            return True
    return False


def _enum_values(enum: list[Any]) -> str:
    import json

    vals = []
    for e in enum:
        vals.append(go_quote(e if isinstance(e, str) else json.dumps(e, separators=(",", ":"))))
    return ", ".join(vals)


def _scalar_key(x: Any) -> Any:
    """Go map-key identity of an unstructured value (int64 1 != float64 1 != "1")."""
    if isinstance(x, (dict, list)):
        import json

        return ("c", json.dumps(x, sort_keys=True, separators=(",", ":")))
    return (type(x).__name__, x)


class _Run:
    __slots__ = ("diags", "notes", "root_meta", "root_path", "strict")

    def __init__(self, strict: bool, notes: bool = True) -> None:
        self.diags: list[Diagnostic] = []
        self.strict = strict
        self.notes = notes
        self.root_meta = False
        self.root_path: Path = ()

    def add(self, rule: str, path: Path, message: str, severity: str = "error") -> None:
        self.diags.append(Diagnostic(rule, path, message, severity))  # type: ignore[arg-type]


def _unknown(run: _Run, path: Path, key: str, siblings: Any) -> None:
    msg = f"unknown field {go_quote(openapi_name(path))}"
    names = [s for s in siblings if isinstance(s, str)]
    import difflib  # only to explain an unknown field

    close = difflib.get_close_matches(key, names, n=1)
    if close:
        msg += f", did you mean {go_quote(close[0])}?"
    run.add("schema.unknown-field", path, msg, "error" if run.strict else "warning")


def _null_note(run: _Run, path: Path, node: Node) -> None:
    if not run.notes:
        return
    if node.has_default:
        run.add(
            "schema.null-pruned",
            path,
            f"null value replaced by the schema default {field_value_v033(node.default)} (field is not nullable)",
            "note",
        )
    else:
        run.add("schema.null-pruned", path, "null value pruned: field is not nullable", "note")


def _check_meta(run: _Run, data: Any, path: Path) -> None:
    """``metadata`` of the resource root / an embedded resource: decoded as ObjectMeta."""
    if data is None:
        return
    if not isinstance(data, dict):
        name = openapi_name(path)
        jt = _json_type(data)
        run.add(
            "schema.type",
            path,
            _field_error("Invalid value", jt, f"{name} in body must be of type object: {go_quote(jt)}"),
        )
        return
    for k in data:
        if k not in _OBJECT_META_FIELDS:
            _unknown(run, path + (k,), k, _OBJECT_META_FIELDS)


def _check_embedded(run: _Run, data: dict[str, Any], path: Path) -> None:
    """``validateEmbeddedResource`` of apiextensions-apiserver (``x-kubernetes-embedded-resource``)."""
    for k in ("apiVersion", "kind"):
        if k not in data:
            run.add("schema.required", path + (k,), "Required value: must not be empty")
    for k in ("apiVersion", "kind"):
        if k not in data:
            continue
        value, vpath = data[k], path + (k,)
        if not isinstance(value, str):
            run.add("schema.embedded-resource", vpath, _field_error("Invalid value", value, "must be a string"))
        elif not value:
            run.add("schema.embedded-resource", vpath, 'Invalid value: "": must not be empty')
        elif k == "apiVersion" and value.count("/") > 1:
            run.add(
                "schema.embedded-resource",
                vpath,
                _field_error("Invalid value", value, f"unexpected GroupVersion string: {value}"),
            )
    if "metadata" in data:
        _check_meta(run, data["metadata"], path + ("metadata",))


def _validate_node(run: _Run, data: Any, node: Node, path: Path, structural: bool) -> None:
    """Validate ``data`` (not None) against ``node``. ``structural`` False: value checks only
    (``allOf``/``anyOf`` branches), no unknown-field pruning."""
    if isinstance(data, (datetime.date, datetime.datetime)):
        # a YAML timestamp reaches the API server as a JSON string (kubectl converts YAML to JSON)
        data = data.isoformat().replace("+00:00", "Z")
    jt = _json_type(data)
    types = node.types
    name = None
    type_ok = True
    if types:
        type_ok = _type_ok(types, jt, data)
        if not type_ok:
            name = openapi_name(path)
            tname = ",".join(types)
            run.add(
                "schema.type",
                path,
                _field_error("Invalid value", jt, f"{name} in body must be of type {tname}: {go_quote(jt)}"),
            )
    # schemaPropsValidator: allOf / anyOf
    for b in node.all_of:
        _validate_node(run, data, b, path, False)
    if node.any_of:
        best: list[Diagnostic] | None = None
        for b in node.any_of:
            sub = _Run(run.strict, notes=False)
            _validate_node(sub, data, b, path, False)
            errs = [d for d in sub.diags if d.severity == "error"]
            if not errs:
                best = None
                break
            if best is None or len(errs) < len(best):
                best = errs
        if best:
            run.diags.extend(best)
    if isinstance(data, str):
        if (
            node.min_length is not None
            or node.max_length is not None
            or node.pattern is not None
            or node.format
        ):
            if name is None:
                name = openapi_name(path)
            n = len(data)
            if node.max_length is not None and n > node.max_length:
                unit = "byte" if node.max_length == 1 else "bytes"
                run.add("schema.max-length", path, f"Too long: may not be more than {node.max_length} {unit}")
            if node.min_length is not None and n < node.min_length:
                run.add(
                    "schema.min-length",
                    path,
                    _field_error("Invalid value", data, f"{name} in body should be at least {node.min_length} chars long"),
                )
            if node.pattern is not None and node.pattern.search(data) is None:
                run.add(
                    "schema.pattern",
                    path,
                    _field_error("Invalid value", data, f"{name} in body should match '{node.pattern_src}'"),
                )
            if node.format and type_ok:
                chk = _STRING_FORMATS.get(node.format)
                if chk is not None and not chk(data):
                    run.add(
                        "schema.format",
                        path,
                        _field_error("Invalid value", data, f"{name} in body must be of type {node.format}: {go_quote(data)}"),
                    )
    elif jt == "integer" or jt == "number":
        _check_number(run, data, node, path)
    if node.enum is not None and not _enum_ok(data, node.enum):
        run.add(
            "schema.enum",
            path,
            _field_error("Unsupported value", data, f"supported values: {_enum_values(node.enum)}"),
        )
        if node.all_of_enums:
            # kube-openapi's allOf validator: every branch failed; the error carries no field path
            run.add("schema.all-of", (), f'Invalid value: "": {go_quote(name or openapi_name(path))} '
                                         "must validate all the schemas (allOf). None validated")
    if not type_ok:
        if structural and isinstance(data, (dict, list)):
            _pruned_fields(run, data, node, path)
        return
    if isinstance(data, dict):
        _validate_object(run, data, node, path, structural)
    elif isinstance(data, list):
        _validate_array(run, data, node, path, structural)


def _check_number(run: _Run, data: Any, node: Node, path: Path) -> None:
    name = None
    if node.format in _FORMAT_RANGES and "integer" in node.types:
        lo, hi = _FORMAT_RANGES[node.format]
        if isinstance(data, float) and not data.is_integer() or not (lo <= data <= hi):
            name = openapi_name(path)
            # kube-apiserver strips int32/int64 formats from CRD schemas (StripUnsupportedFormatsPostProcess),
            # so it stores such a value; the operator cannot decode it. kube-openapi's own wording.
            run.add(
                "schema.format",
                path,
                f'Invalid value: "": Checked value must be of type integer with format {node.format} in {name}',
                "warning",
            )
    if node.maximum is not None:
        mx = node.maximum
        if data > mx or (node.excl_max and data == mx):
            name = name or openapi_name(path)
            word = "less than" if node.excl_max else "less than or equal to"
            run.add(
                "schema.maximum",
                path,
                _field_error("Invalid value", data, f"{name} in body should be {word} {_num(mx)}"),
            )
    if node.minimum is not None:
        mn = node.minimum
        if data < mn or (node.excl_min and data == mn):
            name = name or openapi_name(path)
            word = "greater than" if node.excl_min else "greater than or equal to"
            run.add(
                "schema.minimum",
                path,
                _field_error("Invalid value", data, f"{name} in body should be {word} {_num(mn)}"),
            )
    mo = node.multiple_of
    if mo:
        q = data / mo
        if not (isinstance(q, float) and q.is_integer() or isinstance(q, int)):
            name = name or openapi_name(path)
            run.add(
                "schema.multiple-of",
                path,
                _field_error("Invalid value", data, f"{name} in body should be a multiple of {_num(mo)}"),
            )


def _validate_object(run: _Run, data: dict[str, Any], node: Node, path: Path, structural: bool) -> None:
    props = node.props_raw
    skip: tuple[str, ...] = ()
    if structural:
        if node.embedded:
            # TypeMeta / ObjectMeta of an embedded resource are not pruned by the schema
            _check_embedded(run, data, path)
            skip = _META_FIELDS
        elif run.root_meta and path == run.root_path:
            if "metadata" in data:
                _check_meta(run, data["metadata"], path + ("metadata",))
            skip = ("metadata",)
    pruned_nulls: list[str] = []
    for k, v in data.items():
        if skip and k in skip:
            continue
        sub = node.prop(k) if props is not None else None
        if sub is None:
            sub = node.additional()
            if sub is None:
                if structural and not node.allows_unknown:
                    _unknown(run, path + (k,), k, props or ())
                continue
        if v is None:
            if not sub.nullable and structural:
                _null_note(run, path + (k,), sub)
                pruned_nulls.append(k)
            continue
        _validate_node(run, v, sub, path + (k,), structural)
    if node.required:
        for r in node.required:
            if (r not in data or r in pruned_nulls) and not _defaulted(node, r):
                # a missing field with a schema default is defaulted before validation
                run.add("schema.required", path + (r,), "Required value")
    n = len(data)
    if node.max_props is not None and n > node.max_props:
        run.add("schema.max-properties", path, f"Too many: {n}: must have at most {node.max_props} items")
    if node.min_props is not None and n < node.min_props:
        run.add(
            "schema.min-properties",
            path,
            _field_error("Invalid value", n, f"{openapi_name(path)} in body should have at least {node.min_props} properties"),
        )


def _defaulted(node: Node, key: str) -> bool:
    sub = node.prop(key)
    return sub is not None and sub.has_default


def _root_meta_is_opaque(node: Node) -> bool:
    """CRD-style root: ``metadata`` declared as a bare ``type: object`` (decoded as ObjectMeta)."""
    m = node.prop("metadata")
    return m is not None and not m.props_raw and not m.allows_unknown and m.addl is None


def _validate_array(run: _Run, data: list[Any], node: Node, path: Path, structural: bool) -> None:
    n = len(data)
    if node.min_items is not None and n < node.min_items:
        run.add(
            "schema.min-items",
            path,
            _field_error("Invalid value", n, f"{openapi_name(path)} in body should have at least {node.min_items} items"),
        )
    if node.max_items is not None and n > node.max_items:
        items = "item" if node.max_items == 1 else "items"
        run.add("schema.max-items", path, f"Too many: {n}: must have at most {node.max_items} {items}")
    item = node.items()
    if item is not None:
        for i, v in enumerate(data):
            p = path + (i,)
            if v is None:
                if item.has_default and not item.nullable:
                    if structural:
                        _null_note(run, p, item)
                    continue
                if not item.nullable and item.types:
                    tname = ",".join(item.types)
                    run.add(
                        "schema.type",
                        p,
                        f'Invalid value: "null": {openapi_name(p)} in body must be of type {tname}: "null"',
                    )
                continue
            _validate_node(run, v, item, p, structural)
    # the root ``metadata`` is decoded as ObjectMeta, not validated by the schema: its list types
    # (finalizers, ownerReferences) are merge semantics only (duplicate finalizers are admitted)
    if structural and node.list_type in ("set", "map") and n > 1 and path[:-1] != run.root_path + ("metadata",):
        _list_uniqueness(run, data, node, path)


def _list_uniqueness(run: _Run, data: list[Any], node: Node, path: Path) -> None:
    if node.list_type == "set":
        seen: set[Any] = set()
        reported: set[Any] = set()
        for i, x in enumerate(data):
            k = _scalar_key(x)
            if k in seen:
                if k not in reported:
                    reported.add(k)
                    run.add("schema.duplicate", path + (i,), _field_error("Duplicate value", x))
            else:
                seen.add(k)
        return
    # map
    for i, x in enumerate(data):
        if x is not None and not isinstance(x, dict):
            run.add(
                "schema.list-map",
                path + (i,),
                _field_error("Invalid value", x, "must be an object for an array of list-type map"),
            )
            return
    keys = node.map_keys
    seen = set()
    reported = set()
    for i, x in enumerate(data):
        keyval: dict[str, Any] = {}
        if isinstance(x, dict):
            for kf in keys:
                if kf in x:
                    keyval[kf] = x[kf]
                else:
                    sub = node.items()
                    kn = sub.prop(kf) if sub is not None else None
                    if kn is not None and kn.has_default:  # defaulted before validation
                        keyval[kf] = kn.default
        k = _scalar_key(keyval) if len(keys) != 1 or keyval else ("unspecified",)
        if len(keys) == 1 and keyval:
            k = _scalar_key(keyval[keys[0]])
        if k in seen:
            if k not in reported:
                reported.add(k)
                run.add("schema.duplicate", path + (i,), _field_error("Duplicate value", keyval))
        else:
            seen.add(k)


def _unknown_only(run: _Run, data: Any, node: Node | None, path: Path) -> None:
    """Strict decoding of a part the API server then drops (``status`` with a status subresource):
    unknown fields are still reported, values are not validated."""
    if node is None or node.preserve:
        return
    if isinstance(data, dict):
        props = node.props_raw
        for k, v in data.items():
            if node.embedded and k in _META_FIELDS:
                continue
            sub = node.prop(k) if props is not None else None
            if sub is None:
                sub = node.additional()
                if sub is None:
                    if not node.allows_unknown:
                        _unknown(run, path + (k,), k, props or ())
                    continue
            _unknown_only(run, v, sub, path + (k,))
    elif isinstance(data, list):
        item = node.items()
        for i, v in enumerate(data):
            _unknown_only(run, v, item, path + (i,))


def _pruned_fields(run: _Run, data: Any, node: Node | None, path: Path) -> None:
    """Unknown fields inside a value of the wrong type, as apiextensions' pruning finds them: a mapping
    where the schema declares no properties (a scalar or list schema, or none) has every key pruned,
    and the server's strict decoding reports each one (``spec.replicas.a``, ``args[0][0].name``)."""
    if node is not None and node.preserve:
        return
    if isinstance(data, dict):
        for k, v in data.items():
            if node is not None and node.embedded and k in _META_FIELDS:
                continue
            sub = node.prop(k) if node is not None and node.props_raw is not None else None
            if sub is None and node is not None:
                sub = node.additional()
            if sub is None:
                if node is None or not node.allows_unknown:
                    _unknown(run, path + (k,), k, (node.props_raw or ()) if node is not None else ())
                continue
            _pruned_fields(run, v, sub, path + (k,))
    elif isinstance(data, list):
        item = node.items() if node is not None else None
        for i, v in enumerate(data):
            _pruned_fields(run, v, item, path + (i,))


def validate(
    data: Any,
    schema: dict[str, Any],
    *,
    strict: bool = True,
    root_path: Path = (),
    status_subresource: bool = False,
) -> list[Diagnostic]:
    """Validate ``data`` against ``schema`` as kube-apiserver validates a custom resource.

    ``strict``: unknown fields are errors (``fieldValidation=Strict``, kubectl's default) rather than
    warnings. Explicit nulls on non-nullable fields are reported as notes (``schema.null-pruned``)
    and treated as absent; use :func:`prune_nulls` to get the pruned data. Paths are prefixed with
    ``root_path`` (when validating a sub-document against a sub-schema).

    ``status_subresource``: the CRD has ``subresources.status`` (DGD, DCD and DGDR do), so the API
    server drops ``status`` from a create/update of the main resource after decoding: unknown fields
    under ``status`` are still reported, its values are not validated.
    """
    node = compile_schema(schema)
    run = _Run(strict)
    path = tuple(root_path)
    if data is None:
        if node.types and not node.nullable:
            tname = ",".join(node.types)
            run.add(
                "schema.type",
                path,
                f'Invalid value: "null": {openapi_name(path)} in body must be of type {tname}: "null"',
            )
        return run.diags
    run.root_path = path
    run.root_meta = isinstance(data, dict) and _root_meta_is_opaque(node)
    if status_subresource and isinstance(data, dict) and "status" in data:
        status = data["status"]
        data = {k: v for k, v in data.items() if k != "status"}
        _unknown_only(run, status, node.prop("status"), path + ("status",))
    _validate_node(run, data, node, path, True)
    # identical messages can come from several allOf branches; report each once
    out: list[Diagnostic] = []
    seen: set[tuple[str, Path, str]] = set()
    for d in run.diags:
        key = (d.rule, d.path, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def prune_nulls(data: Any, schema: dict[str, Any], *, root_path: Path = ()) -> tuple[Any, list[Diagnostic]]:
    """Drop explicit nulls the API server prunes (``PruneNonNullableNullsWithoutDefaults``).

    A null on a non-nullable property (or additional property) without a default is removed; a null
    on one *with* a default is replaced by a copy of the default (the API server defaults it). Array
    items are left alone (a null item is a type error). Returns ``(new_data, notes)``; ``data`` is
    not modified.
    """
    node = compile_schema(schema)
    notes: list[Diagnostic] = []
    run = _Run(True)
    new = _prune(data, node, tuple(root_path), run)
    notes = run.diags
    return new, notes


def _prune(data: Any, node: Node | None, path: Path, run: _Run) -> Any:
    import copy

    if node is None:
        return data
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        changed = False
        for k, v in data.items():
            if v is not None and not isinstance(v, (dict, list)):  # a scalar: nothing to prune below
                out[k] = v
                continue
            sub = node.prop(k) if node.props_raw is not None else None
            if sub is None:
                sub = node.additional()
            if v is None and sub is not None and not sub.nullable:
                _null_note(run, path + (k,), sub)
                changed = True
                if sub.has_default:
                    out[k] = copy.deepcopy(sub.default)
                continue
            nk: Any = _prune(v, sub, path + (k,), run) if sub is not None else v
            if nk is not v:
                changed = True
            out[k] = nk
        return out if changed else data
    if isinstance(data, list):
        item = node.items()
        if item is None:
            return data
        new_items = []
        changed = False
        for i, v in enumerate(data):
            if v is None and item.has_default and not item.nullable:
                _null_note(run, path + (i,), item)
                nv: Any = copy.deepcopy(item.default)
            elif not isinstance(v, (dict, list)):  # a scalar (or a null left for the type check)
                nv = v
            else:
                nv = _prune(v, item, path + (i,), run)
            if nv is not v:
                changed = True
            new_items.append(nv)
        return new_items if changed else data
    return data
