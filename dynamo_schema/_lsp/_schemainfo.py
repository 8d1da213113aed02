"""What the schemas say about a field, for the editor: hover text (description, type, bounds, default,
the operator release that added it), completion candidates (keys with their documentation, enum values),
and the did-you-mean suggestion for an unknown field.

The schemas are the bundled ones (``_schema._schemas``, what ``validate`` checks against); core Kubernetes
fields get their descriptions from the installed kubernetes-validate, as ``explain`` does
(``_schema._explain``). Releases come from ``_data/releases.json`` (tools/gen_releases.py).
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Any

from .._core._record import Record

_RELEASES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_data", "releases.json")


def schema_for(api_version: str, kind: str) -> dict[str, Any] | None:
    """The bundled schema of a document's kind (an InferCrane DeploymentSpec: also without a header)."""
    from .._schema import _schemas

    schema = _schemas.for_object(api_version, kind)
    if schema is not None:
        return schema
    if api_version.startswith("infercrane.dev/") or (not api_version and not kind):
        return _schemas.load("infercrane.dev", "Deployment", "v1")
    return None


class Field(Record):
    """A field reached by :func:`walk`: its schema node as written (``raw``: the property, with the
    pruned-null wrapper), the node behind it (``node``: ``$ref``s and the wrapper followed), the
    Kubernetes definition it is part of (``k8s``, for core types), whether its mapping requires it, and
    the key of its path in the release table (dotted, list items not named, map values ``*``)."""

    __slots__ = _FIELDS = ("name", "raw", "node", "k8s", "required", "release_key")
    name: str
    raw: dict[str, Any]
    node: dict[str, Any]
    k8s: Any
    required: bool
    release_key: str

    def __init__(self, name: str, raw: dict[str, Any], node: dict[str, Any], k8s: Any, required: bool,
                 release_key: str) -> None:
        self.name = name
        self.raw = raw
        self.node = node
        self.k8s = k8s
        self.required = required
        self.release_key = release_key


def _object(root: dict[str, Any], node: Any) -> dict[str, Any]:
    from .._schema._schemas import resolve

    node = resolve(root, node)
    return node if isinstance(node, dict) else {}


def walk(root: dict[str, Any], path: tuple[Any, ...]) -> Field | None:
    """The field at ``path`` (keys and list indexes from the document root), None when the schema has
    no such field."""
    from .._schema import _explain

    raw: dict[str, Any] = root
    node = _object(root, root)
    k8s: Any = None
    required = False
    name = ""
    keys: list[str] = []
    for elem in path:
        if isinstance(elem, int):
            items = node.get("items")
            if not isinstance(items, dict):
                return None
            raw, node = items, _object(root, items)
            continue
        props = node.get("properties") or {}
        if elem in props:
            sub = props[elem]
            required = elem in (node.get("required") or ())
            keys.append(elem)
            step = _explain._k8s_step(k8s, elem) if k8s is not None else None
            if step is None and elem in _explain.CORE_TYPES and _explain.CORE_TYPES[elem] in _explain._k8s_defs():
                step = {"$ref": "#/$defs/" + _explain.CORE_TYPES[elem]}
            k8s = step
        elif isinstance(node.get("additionalProperties"), dict):
            sub = node["additionalProperties"]
            required = False
            keys.append("*")
            addl = _explain._k8s_resolve(k8s).get("additionalProperties") if k8s is not None else None
            k8s = addl if isinstance(addl, dict) else None
        else:
            return None
        name = elem
        raw, node = sub, _object(root, sub)
    return Field(name, raw, node, k8s, required, ".".join(keys))


def description(field: Field) -> str:
    """The field's own description (on the property, or behind it), else its Kubernetes one."""
    from .._schema import _explain

    own = field.raw.get("description")
    if isinstance(own, str) and own:
        return own
    return _explain._description(field.node, field.k8s)


def type_name(field: Field) -> str:
    from .._schema import _explain

    return _explain._type_name(field.node)


@cache
def _release_table() -> dict[str, Any]:
    try:
        with open(_RELEASES, "rb") as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def release(kind: str, api_version: str, key: str) -> str | None:
    """The operator release whose CRDs first had the field (its nearest recorded ancestor's), worded
    for the reader; None for kinds the table does not cover."""
    table = _release_table()
    fields = (table.get("kinds") or {}).get(f"{kind}/{api_version.rpartition('/')[2]}")
    if not isinstance(fields, dict):
        return None
    probe = key
    while probe not in fields:
        if not probe:
            return None
        probe = probe.rpartition(".")[0]
    found = str(fields[probe])
    releases = table.get("releases") or []
    if found == table.get("development"):
        return f"{found} (in development; no release serves it yet)"
    if releases and found == releases[0]:
        return f"{found} or earlier"
    return found


_BOUNDS = (("minimum", "minimum"), ("maximum", "maximum"), ("exclusiveMinimum", "exclusive minimum"),
           ("exclusiveMaximum", "exclusive maximum"), ("minLength", "min length"), ("maxLength", "max length"),
           ("minItems", "min items"), ("maxItems", "max items"), ("minProperties", "min properties"),
           ("maxProperties", "max properties"), ("multipleOf", "multiple of"), ("pattern", "pattern"),
           ("format", "format"))


def _code(value: Any) -> str:
    return "`" + (value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)) + "`"


def enum_values(field: Field) -> list[Any]:
    """The values the field accepts when it is an enum or a constant (never null)."""
    node = field.node
    if "const" in node:
        return [node["const"]]
    values = node.get("enum")
    if not isinstance(values, list):
        return []
    return [v for v in values if v is not None]


def hover_markdown(field: Field, kind: str, api_version: str) -> str:
    """Markdown for a hover: name, type, required; the description; bounds, enum, default; release."""
    head = f"**{field.name}** `{type_name(field)}`" + (" · required" if field.required else "")
    parts = [head]
    desc = description(field)
    if desc:
        parts.append(desc)
    facts = []
    values = enum_values(field)
    if values:
        facts.append("one of " + ", ".join(_code(v) for v in values))
    for key, label in _BOUNDS:
        if key in field.node:
            facts.append(f"{label} {_code(field.node[key])}")
    default = field.raw.get("default", field.node.get("default"))
    if "default" in field.raw or "default" in field.node:
        facts.append(f"default {_code(default)}")
    rel = release(kind, api_version, field.release_key)
    if rel:
        facts.append(f"added in operator {rel}")
    if facts:
        parts.append("\n".join(f"- {f}" for f in facts))
    return "\n\n".join(parts)


class Candidate(Record):
    """One completion: the text shown (``label``), ``key`` or ``value``, a short ``detail`` (type) and the
    Markdown ``documentation``."""

    __slots__ = _FIELDS = ("label", "kind", "detail", "documentation", "insert")
    label: str
    kind: str
    detail: str
    documentation: str
    insert: str

    def __init__(self, label: str, kind: str, detail: str = "", documentation: str = "", insert: str = "") -> None:
        self.label = label
        self.kind = kind
        self.detail = detail
        self.documentation = documentation
        self.insert = insert


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        import re

        from .._io._scalars import _resolve_plain

        plain = re.fullmatch(r"[A-Za-z0-9_./-][^:#]*", value) is not None and value == value.strip()
        return value if plain and _resolve_plain(value) == value else json.dumps(value)
    return json.dumps(value)


def key_candidates(root: dict[str, Any], path: tuple[Any, ...], existing: set[str]) -> list[Candidate]:
    """The keys the mapping at ``path`` may hold (those not written yet), each documented."""
    container = walk(root, path)
    if container is None:
        return []
    node = container.node
    if node.get("type") == "array" and "properties" not in node and isinstance(node.get("items"), dict):
        container = walk(root, path + (0,))
        if container is None:
            return []
        node = container.node
    required = set(node.get("required") or ())
    out = []
    for name in node.get("properties") or {}:
        if name in existing:
            continue
        field = walk(root, path + (name,))
        if field is None:
            continue
        detail = type_name(field) + (" (required)" if name in required else "")
        composite = field.node.get("type") in ("object", "array") or "properties" in field.node
        out.append(Candidate(name, "key", detail, description(field), f"{name}:" if composite else f"{name}: "))
    return out


def value_candidates(root: dict[str, Any], path: tuple[Any, ...]) -> list[Candidate]:
    """The values the field at ``path`` accepts when they can be listed (enum, constant, boolean)."""
    field = walk(root, path)
    if field is None:
        return []
    if field.node.get("type") == "array" and isinstance(field.node.get("items"), dict):
        items = walk(root, path + (0,))
        if items is not None and enum_values(items):
            field = items
    doc = description(field)
    values = enum_values(field)
    if not values and field.node.get("type") == "boolean":
        values = [True, False]
    enum_docs = field.node.get("markdownEnumDescriptions")
    out = []
    for i, v in enumerate(values):
        text = _scalar_text(v)
        own = enum_docs[i] if isinstance(enum_docs, list) and i < len(enum_docs) else ""
        out.append(Candidate(text, "value", type_name(field), own or doc, text))
    return out


def suggest_field(api_version: str, kind: str, path: tuple[Any, ...]) -> str | None:
    """The did-you-mean name for the unknown field at ``path``: the closest name the structural walk
    offers there (``_schema._fielderrors.unknown_field``: ``difflib``'s nearest sibling, cutoff 0.6),
    computed from the schema, not read from the message."""
    if not path or not isinstance(path[-1], str):
        return None
    from .._schema import _schemas
    from .._schema._nodes import child_node, compile_schema
    from .._schema._structural import _OBJECT_META_FIELDS

    schema = _schemas.for_object(api_version, kind)
    if schema is None:
        return None
    node: Any = compile_schema(schema)
    parent = path[:-1]
    for elem in parent:
        node = child_node(node, elem)
        if node is None:
            return None
    if parent == ("metadata",) or (parent and parent[-1] == "metadata" and _embedded(schema, parent[:-1])):
        names: list[str] = list(_OBJECT_META_FIELDS)
    else:
        names = [s for s in (node.props_raw or ()) if isinstance(s, str)]
    import difflib

    close = difflib.get_close_matches(path[-1], names, n=1)
    return close[0] if close else None


def _embedded(schema: dict[str, Any], path: tuple[Any, ...]) -> bool:
    from .._schema._nodes import child_node, compile_schema

    node: Any = compile_schema(schema)
    for elem in path:
        node = child_node(node, elem)
        if node is None:
            return False
    return bool(node.embedded)
