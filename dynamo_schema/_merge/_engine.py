"""Schema-driven structural merge (a port of structured-merge-diff's ``Merge`` of typed values).

The list, map and unknown-field semantics all come from the JSON Schema handed in (walked with
:class:`SchemaWalker`), never from a table:

* objects merge key by key (base key order kept, new keys appended); ``x-kubernetes-map-type:
  atomic`` objects are replaced whole;
* ``x-kubernetes-list-type: map`` lists merge item by item on ``x-kubernetes-list-map-keys``;
  ``set`` lists are unioned; every other list is atomic (replaced);
* values below untyped ``x-kubernetes-preserve-unknown-fields`` nodes use the "deduced" type:
  maps merge recursively, lists and scalars are replaced (nulls kept);
* the relative order of list items follows structured-merge-diff's walk: items only in the base keep
  their place, items in both follow the override's order, new items are placed where the override
  puts them (with an override that only names existing items or only adds, that is "base order kept,
  new keys appended").

Nothing is mutated; the result shares no containers with the inputs.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from dynamo_schema._k8s._gofmt import go_scalar
from dynamo_schema._merge._schema import Schema, SchemaWalker


class StructuralError(ValueError):
    """Typed-conversion failure (unknown field, duplicate list key, wrong shape)."""


# Paths in these messages are structured-merge-diff ``fieldpath.Path`` strings (``.spec.components
# [name="Frontend"].image``), not Kubernetes field paths (``_diagnostics.format_path``).


def _smd_field(path: str, child: str) -> str:
    """``fieldpath.Path.String()`` of a child field: ``.`` + name, whatever characters it has."""
    return f"{path}.{child}"


def _smd_value(v: Any) -> str:
    """structured-merge-diff ``value.ToString``: ``%q`` strings, ``%v`` numbers and booleans, ``null``."""
    if v is None:
        return "null"
    scalar = go_scalar(v)
    if scalar is not None:
        return scalar
    if isinstance(v, list):
        return "[" + ",".join(_smd_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "".join(f"{k}={_smd_value(x)}" for k, x in v.items())
    return str(v)


# kind_of's names as structured-merge-diff prints the expected shape
_SMD_KIND = {"object": "map", "list": "list", "scalar": "scalar"}


def _seen_before(seen: set[str], key: Any) -> bool:
    """Record ``key`` (a list-map key tuple or a set item) in ``seen``; True when it was there."""
    marker = json.dumps(key, sort_keys=True)
    if marker in seen:
        return True
    seen.add(marker)
    return False


def _key_repr(keys: list[str], values: tuple[Any, ...]) -> str:
    """``fieldpath.PathElement`` of a list-map entry: ``[name="x",port=80]``."""
    return "[" + ",".join(f"{k}={_smd_value(v)}" for k, v in zip(keys, values)) + "]"


class StructuralMerger:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.walker = SchemaWalker(schema)
        self.root = schema

    # -- validation (upstream: TypeConverter.ObjectToTyped) ---------------------------------------
    def validate(self, obj: Any) -> None:
        errors: list[str] = []
        self._validate(obj, self.root, "", errors)
        if errors:
            raise StructuralError(errors[0] if len(errors) == 1 else "errors:\n  " + "\n  ".join(errors))

    def _validate(self, value: Any, schema: Schema, path: str, errors: list[str]) -> None:
        w = self.walker
        node = w.resolve(schema)
        if node is None or value is None:
            return
        kind = w.kind_of(node)
        if isinstance(value, dict):
            shape, got = "object", "map"
        elif isinstance(value, list):
            shape, got = "list", "list"
        else:
            shape, got = "scalar", _scalar_name(value)
        if kind in _SMD_KIND and kind != shape:
            errors.append(f"{path or '.'}: expected {_SMD_KIND[kind]}, got {got}")
            return
        if isinstance(value, dict):
            for key, child in value.items():
                if kind == "object" and not w.declares(node, key):
                    errors.append(f"{_smd_field(path, key)}: field not declared in schema")
                    continue
                self._validate(child, w.property(node, key), _smd_field(path, key), errors)
        elif isinstance(value, list):
            item_schema = w.items(node)
            lt = w.list_type(node)
            seen: set[str] = set()
            if lt == "map":
                keys = w.list_keys(node)
                for i, item in enumerate(value):
                    if not isinstance(item, dict):
                        errors.append(f"{path}[{i}]: expected map, got {type(item).__name__}")
                        continue
                    k = self._item_key(item, keys, item_schema)
                    if _seen_before(seen, k):
                        errors.append(f"{path}: duplicate entries for key {_key_repr(keys, k)}")
                    self._validate(item, item_schema, f"{path}{_key_repr(keys, k)}", errors)
            else:
                for i, item in enumerate(value):
                    if lt == "set" and _seen_before(seen, item):
                        errors.append(f"{path}: duplicate entries for key [={_smd_value(item)}]")
                    self._validate(item, item_schema, f"{path}[{i}]", errors)
        elif kind == "scalar":
            expected = _scalar_mismatch(node, value)
            if expected:
                errors.append(f"{path or '.'}: expected {expected}, got {got}")

    # -- merging ----------------------------------------------------------------------------------
    def merge(self, base: Any, patch: Any) -> Any:
        return self._merge(base, patch, self.root)

    def _merge(self, lhs: Any, rhs: Any, schema: Schema) -> Any:
        w = self.walker
        node = w.resolve(schema)
        if isinstance(lhs, dict) and isinstance(rhs, dict):
            if node is not None and w.map_atomic(node):
                return copy.deepcopy(rhs)
            out: dict[str, Any] = {}
            for key, value in lhs.items():
                if key in rhs:
                    child_schema = w.property(node, key) if node is not None else None
                    out[key] = self._merge(value, rhs[key], child_schema)
                else:
                    out[key] = copy.deepcopy(value)
            for key, value in rhs.items():
                if key not in lhs:
                    out[key] = copy.deepcopy(value)
            return out
        if isinstance(lhs, list) and isinstance(rhs, list) and node is not None:
            lt = w.list_type(node)
            if lt == "map":
                return self._merge_list(lhs, rhs, node, w.list_keys(node))
            if lt == "set":
                return self._merge_list(lhs, rhs, node, None)
        return copy.deepcopy(rhs)

    def _item_key(self, item: Any, keys: list[str] | None, item_schema: Schema) -> tuple[Any, ...]:
        if keys is None:
            return (json.dumps(item, sort_keys=True),)
        out = []
        for k in keys:
            if isinstance(item, dict) and k in item:
                out.append(item[k])
            else:
                out.append(self.walker.key_default(item_schema, k))
        return tuple(out)

    def _merge_list(self, lhs: list[Any], rhs: list[Any], node: dict[str, Any], keys: list[str] | None) -> list[Any]:
        item_schema = self.walker.items(node)

        def marker(item: Any) -> str:
            return json.dumps(self._item_key(item, keys, item_schema), sort_keys=True, default=str)

        lpe = [marker(x) for x in lhs]
        rpe = [marker(x) for x in rhs]
        lmap: dict[str, Any] = {}
        for pe, item in zip(lpe, lhs):
            lmap.setdefault(pe, item)
        rmap: dict[str, Any] = {}
        for pe, item in zip(rpe, rhs):
            rmap.setdefault(pe, item)
        shared = [pe for pe in rpe if pe in lmap]
        shared_i = 0

        def next_shared() -> str | None:
            return shared[shared_i] if shared_i < len(shared) else None

        merged_rhs: set[str] = set()
        out: list[Any] = []
        li = ri = 0
        while li < len(lpe) or ri < len(rpe):
            if li < len(lpe) and ri < len(rpe):
                pe = lpe[li]
                if pe == rpe[ri]:
                    merged_rhs.add(pe)
                    out.append(self._merge_item(lmap.get(pe), rmap.get(pe), item_schema, keys))
                    li += 1
                    ri += 1
                    if next_shared() == pe:
                        shared_i += 1
                    continue
                ns = next_shared()
                if pe in rmap and ns is not None and ns != pe:
                    li += 1
                    continue
            if li < len(lpe):
                pe = lpe[li]
                if pe not in rmap:
                    out.append(copy.deepcopy(lhs[li]))
                    li += 1
                    continue
                if pe in merged_rhs:
                    li += 1
                    continue
            if ri < len(rpe):
                pe = rpe[ri]
                merged_rhs.add(pe)
                out.append(self._merge_item(lmap.get(pe), rmap.get(pe), item_schema, keys))
                ri += 1
                if next_shared() == pe:
                    shared_i += 1
        return out

    def _merge_item(self, lhs: Any, rhs: Any, item_schema: Schema, keys: list[str] | None) -> Any:
        if lhs is None:
            return copy.deepcopy(rhs)
        if keys is None:
            return copy.deepcopy(rhs)
        return self._merge(lhs, rhs, item_schema)


def _scalar_mismatch(node: dict[str, Any], value: Any) -> str:
    """The expected scalar kind when ``value`` does not fit ``node`` (structured-merge-diff's
    scalar check: numbers, strings and booleans do not convert into each other)."""
    if node.get("x-kubernetes-int-or-string"):
        return "" if isinstance(value, (int, str)) and not isinstance(value, bool) else "int or string"
    t = node.get("type")
    types = [x for x in t if x != "null"] if isinstance(t, list) else [t]
    ok = {
        "string": isinstance(value, str),
        "integer": (isinstance(value, int) and not isinstance(value, bool))
        or (isinstance(value, float) and value.is_integer()),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
    }
    if any(ok.get(str(x), True) for x in types):
        return ""
    return {
        "string": "string",
        "integer": "numeric (int or float)",
        "number": "numeric (int or float)",
        "boolean": "bool",
    }.get(str(types[0]), str(types[0]))


def _scalar_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__
