"""A compiled proof of validity for rendered built-in objects (decisions.md D28).

``check_rendered`` validates every rendered Service, Role, ConfigMap … against the bundled Kubernetes
schema with ``jsonschema`` (``_k8s._builtin_kinds.validate``), which walks the schema anew for every
object. :func:`proven_valid` runs a check compiled once per schema node instead, and answers only
"certainly valid" (then ``jsonschema`` would report nothing) or "not proven" (then the caller runs the
full walk, which gives the diagnostics). The compiled check is sound by construction:

* it knows ``type``, ``properties``, ``additionalProperties``, ``required``, ``items``, ``enum`` (of
  strings), ``oneOf`` of branches that only name types (``IntOrString``: exactly one branch's type
  matches, decided with ``jsonschema``'s own type rules) and ``$ref`` (resolved as ``jsonschema`` resolves it, through the validator's own
  resolver), and ``format`` when the validator has no format checker (then ``jsonschema`` ignores
  it); a schema node with any other ``jsonschema`` keyword, or a nested ``$id``, is never proven;
* values are matched by exact type (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``,
  ``None``), never looser than ``jsonschema``'s checks (a float ``1.0`` for ``integer``, a ``dict``
  subclass: not proven).

``tests/pipeline/test_outputcheck.py``: the same verdict as ``jsonschema`` on every rendered object of
the corpus and on mutated renders that must fail.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_SUPPORTED = frozenset({"type", "properties", "additionalProperties", "required", "items", "enum", "$ref", "oneOf"})
_EXACT = frozenset({dict, list, str, bool, int, float, type(None)})
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,), "null": (type(None),),
    "integer": (int,), "number": (int, float),
}


def _never(_: Any) -> bool:
    return False


def _always(_: Any) -> bool:
    return True


class _Compiler:
    def __init__(self, validator: Any) -> None:
        self.keywords = frozenset(type(validator).VALIDATORS)
        self.format_ignored = getattr(validator, "format_checker", None) is None
        self.root = validator.schema
        self.nodes: dict[int, tuple[Any, Check]] = {}  # id(schema node) -> (node kept alive, check)

    def compile(self, schema: Any, resolver: Any) -> Check:
        hit = self.nodes.get(id(schema))
        if hit is not None:
            return hit[1]
        built: list[Check] = []

        def forward(x: Any) -> bool:  # a recursive definition reached while it is being compiled
            return built[0](x)

        self.nodes[id(schema)] = (schema, forward)
        check = self._build(schema, resolver)
        built.append(check)
        self.nodes[id(schema)] = (schema, check)
        return check

    def _ref(self, ref: str, resolver: Any) -> Check:
        target: list[Check] = []

        def check(x: Any) -> bool:
            if not target:
                try:
                    resolved = resolver.lookup(ref)
                except Exception:  # noqa: BLE001 - the full walk raises or reports it
                    return False
                target.append(self.compile(resolved.contents, resolved.resolver))
            return target[0](x)

        return check

    def _build(self, schema: Any, resolver: Any) -> Check:
        if schema is True:
            return _always
        if not isinstance(schema, dict):
            return _never
        if "$id" in schema and schema is not self.root:
            return _never
        for key in schema:
            if key in self.keywords and key not in _SUPPORTED and not (key == "format" and self.format_ignored):
                return _never
        types: tuple[type, ...] | None = None
        if "type" in schema:
            names = schema["type"]
            names = [names] if isinstance(names, str) else names
            if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
                return _never
            types = tuple({t for n in names for t in _TYPES[n]})
        enum: frozenset[str] | None = None
        if "enum" in schema:
            values = schema["enum"]
            if not isinstance(values, list) or not all(type(v) is str for v in values):
                return _never
            enum = frozenset(values)
        props: dict[str, Check] = {}
        if "properties" in schema:
            if not isinstance(schema["properties"], dict):
                return _never
            props = {k: self.compile(v, resolver) for k, v in schema["properties"].items()}
        addl: Check | None = None
        if "additionalProperties" in schema:
            a = schema["additionalProperties"]
            addl = None if a is True else self.compile(a, resolver)
        required: tuple[str, ...] = ()
        if "required" in schema:
            if not isinstance(schema["required"], list) or not all(type(r) is str for r in schema["required"]):
                return _never
            required = tuple(schema["required"])
        items: Check | None = None
        if "items" in schema:
            items = None if schema["items"] is True else self.compile(schema["items"], resolver)
        one_of: tuple[tuple[str, ...], ...] | None = None
        if "oneOf" in schema:
            one_of = self._type_branches(schema["oneOf"])
            if one_of is None:
                return _never
        ref: Check | None = None
        if "$ref" in schema:
            if not isinstance(schema["$ref"], str):
                return _never
            ref = self._ref(schema["$ref"], resolver)

        def check(x: Any) -> bool:
            t = type(x)
            if types is not None and t not in types:
                return False
            if enum is not None and (t is not str or x not in enum):
                return False
            if t is dict:
                for r in required:
                    if r not in x:
                        return False
                for k, v in x.items():
                    c = props.get(k)
                    if c is not None:
                        if not c(v):
                            return False
                    elif addl is not None and not addl(v):
                        return False
            elif t is list:
                if items is not None:
                    for v in x:
                        if not items(v):
                            return False
            elif isinstance(x, (dict, list)):  # subclasses: jsonschema's own type checks decide
                return False
            if one_of is not None:
                if t not in _EXACT or sum(any(_is_type(n, x, t) for n in b) for b in one_of) != 1:
                    return False
            return ref is None or ref(x)

        return check


    def _type_branches(self, branches: Any) -> tuple[tuple[str, ...], ...] | None:
        """``oneOf`` branches that are nothing but a ``type`` (annotations aside), as type names."""
        if not isinstance(branches, list) or not branches:
            return None
        out = []
        for b in branches:
            if not isinstance(b, dict) or "type" not in b or any(k in self.keywords and k != "type" for k in b):
                return None
            if "$id" in b:
                return None
            names = [b["type"]] if isinstance(b["type"], str) else b["type"]
            if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
                return None
            out.append(tuple(names))
        return tuple(out)


def _is_type(name: str, x: Any, t: type) -> bool:
    """``jsonschema``'s type check (draft 2020-12 type checker) for a value of exact type ``t``."""
    if name == "integer":
        return t is int or (t is float and x.is_integer())
    if name == "number":
        return t is int or t is float
    return t in _TYPES[name]


_ROOTS: dict[int, tuple[Any, Check]] = {}


def proven_valid(obj: dict[str, Any], version: str, strict: bool = True) -> bool:
    """True only when ``_k8s._builtin_kinds.validate(obj, version=version, strict=strict)`` reports
    nothing; False: not proven (run the full validation)."""
    from .._k8s import _builtin_kinds

    v = _builtin_kinds._validator(str(obj.get("apiVersion", "")), str(obj.get("kind", "")), version, strict)
    if v is None:
        return False
    hit = _ROOTS.get(id(v))
    if hit is None:
        resolver = getattr(v, "_resolver", None)  # jsonschema >= 4.18: the resolver its $ref uses
        check = _Compiler(v).compile(v.schema, resolver) if resolver is not None else _never
        hit = _ROOTS[id(v)] = (v, check)
    return hit[1](obj)
