"""A fast path for documents the structural walk would accept without a single diagnostic.

:func:`clean` answers True only when :func:`dynamo_schema._schema._structural.validate` would return no
diagnostic at all (no error, no warning, no note) for the same data and schema; whenever it is unsure
(``allOf`` / ``anyOf`` branches, embedded resources, ``multipleOf``, explicit nulls it would prune,
YAML timestamps, a value of the wrong type, any constraint that fails) it answers False and the caller
runs the detailed walk, which explains the failure. No paths are built and nothing is collected, so a
valid document costs a fraction of the walk (``tests/schema/test_fastcheck.py`` compares both on the
corpus and on generated invalid documents).

Each :class:`~._nodes.Node` gets a small plan (``Node.fast``) computed once: whether the node can be
checked here at all, its type names as a set, and whether string / number constraints apply.
"""

from __future__ import annotations

from ._fielderrors import Run
from ._nodes import Node
from ._values import STRING_FORMATS, enum_ok, list_uniqueness

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["clean"]

_JSON_TYPES: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    dict: "object",
    list: "array",
}

# metav1.ObjectMeta JSON fields (the root ``metadata`` of a CRD is decoded as ObjectMeta)
_OBJECT_META_FIELDS = frozenset((
    "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
    "ownerReferences", "finalizers", "managedFields",
))

_INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1),
               "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}


_SCALARS: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (float,), "boolean": (bool,)}


class _Plan:
    __slots__ = ("array", "bail", "leaf", "num", "object", "string", "types")

    def __init__(self, node: Node) -> None:
        # what this fast path does not decide: the walk does
        self.bail = bool(node.all_of or node.any_of or node.embedded or node.multiple_of)
        self.types = frozenset(node.types) if node.types else None
        self.string = (node.min_length is not None or node.max_length is not None
                       or node.pattern is not None or bool(node.format))
        self.num = (node.maximum is not None or node.minimum is not None
                    or (node.format in _INT_RANGES and "integer" in node.types))
        # the Python types of a value that needs no further check here (a scalar without constraints);
        # exact types: ``bool`` is not ``int``, an ``int`` for a ``number`` is left to the walk
        leaf: set[type] = set()
        if not (self.bail or node.enum is not None):
            for t in node.types or ("string", "integer", "number", "boolean"):
                if t == "string" and self.string or t in ("integer", "number") and self.num:
                    continue
                leaf.update(_SCALARS.get(t, ()))
        self.leaf = frozenset(leaf)
        # a dict (list) here needs only ``_object`` (``_array``): what ``_value`` would do, without the call
        plain = not self.bail and node.enum is None
        self.object = plain and (self.types is None or "object" in self.types)
        self.array = plain and (self.types is None or "array" in self.types)


def _plan(node: Node) -> _Plan:
    p: _Plan | None = node.fast
    if p is None:
        p = node.fast = _Plan(node)
    return p


def clean(data: Any, node: Node, root_meta: bool) -> bool:
    """True only when the structural walk of ``data`` (a mapping: the resource root) against ``node``
    has nothing to report; ``root_meta`` as :func:`._structural._root_meta_is_opaque`."""
    if not isinstance(data, dict) or type(data) is not dict:
        return False
    skip = None
    if root_meta and not node.embedded:
        if "metadata" in data:
            meta = data["metadata"]
            if meta is not None:
                if type(meta) is not dict:
                    return False
                for k in meta:
                    if k not in _OBJECT_META_FIELDS:
                        return False
        skip = "metadata"
    return _value(data, node, skip)


def _value(data: Any, node: Node, skip: str | None = None) -> bool:
    jt = _JSON_TYPES.get(type(data))
    if jt is None:  # a YAML timestamp, a subclass, anything else: the walk decides
        return False
    p = node.fast
    if p is None:
        p = _plan(node)
    if p.bail:
        return False
    if p.types is not None and jt not in p.types:
        return False  # (an integral float for an integer is accepted by the walk: it decides)
    if jt == "object":
        if not _object(data, node, skip):
            return False
    elif jt == "array":
        if not _array(data, node):
            return False
    elif jt == "string":
        if p.string and not _string(data, node):
            return False
    elif jt != "boolean" and p.num and not _number(data, node):
        return False
    if node.enum is not None:
        return enum_ok(data, node.enum)
    return True


def _string(data: str, node: Node) -> bool:
    n = len(data)
    if node.max_length is not None and n > node.max_length:
        return False
    if node.min_length is not None and n < node.min_length:
        return False
    if node.pattern is not None and node.pattern.search(data) is None:
        return False
    if node.format:
        chk = STRING_FORMATS.get(node.format)
        if chk is not None and not chk(data):
            return False
    return True


def _number(data: Any, node: Node) -> bool:
    if node.format in _INT_RANGES and "integer" in node.types:
        lo, hi = _INT_RANGES[node.format]
        if isinstance(data, float) and not data.is_integer() or not (lo <= data <= hi):
            return False
    mx = node.maximum
    if mx is not None and (data > mx or (node.excl_max and data == mx)):
        return False
    mn = node.minimum
    return not (mn is not None and (data < mn or (node.excl_min and data == mn)))


def _object(data: dict[str, Any], node: Node, skip: str | None) -> bool:
    props = node.props_raw
    known = node._props
    for k, v in data.items():
        if k == skip:
            continue
        sub = None
        if props is not None:
            sub = known.get(k)
            if sub is None and k in props:
                sub = node.prop(k)
        if sub is None:
            sub = node.additional()
            if sub is None:
                if node.allows_unknown:
                    continue
                return False  # an unknown field
        if v is None:
            if sub.nullable:
                continue
            return False  # a pruned null (a note)
        sp = sub.fast
        if sp is None:
            sp = _plan(sub)
        tv = type(v)
        if tv in sp.leaf:
            continue
        if tv is dict and sp.object:
            if not _object(v, sub, None):
                return False
        elif tv is list and sp.array:
            if not _array(v, sub):
                return False
        elif not _value(v, sub):
            return False
    for r in node.required:
        if r not in data:
            sub = node.prop(r)
            if sub is None or not sub.has_default:
                return False
    n = len(data)
    if node.max_props is not None and n > node.max_props:
        return False
    return node.min_props is None or n >= node.min_props


def _array(data: list[Any], node: Node) -> bool:
    n = len(data)
    if node.min_items is not None and n < node.min_items:
        return False
    if node.max_items is not None and n > node.max_items:
        return False
    item = node.items()
    if item is not None:
        ip = _plan(item)
        leaf = ip.leaf
        for v in data:
            tv = type(v)
            if tv in leaf:
                continue
            if tv is dict and ip.object:
                if not _object(v, item, None):
                    return False
                continue
            if v is None:
                if item.nullable:
                    continue
                if item.has_default or item.types:
                    return False
                continue
            if not _value(v, item):
                return False
    if n > 1 and (node.list_type == "set" or node.list_type == "map"):
        # stricter than the walk, which skips the lists of the root metadata: unsure means False
        run = Run(True)
        list_uniqueness(run, data, node, ())
        return not run.diags
    return True


# --------------------------------------------------------------------------------------------------
# strict decoding only


def known_fields(data: Any, node: Node, root_meta: bool, status_subresource: bool) -> bool:
    """True only when the structural walk of ``data`` (the resource root) reports no
    ``schema.unknown-field`` (and so no ``schema.did-you-mean``): what the API server's strict decoding
    looks at, the field names alone. ``root_meta`` as :func:`clean`; ``status_subresource`` as
    :func:`._structural.validate`. Unsure (a mapping or list where the schema declares another type, an
    embedded resource, a subclass) is False, and the caller runs the walk."""
    if type(data) is not dict:
        return False
    skip: tuple[str, ...] = ()
    if root_meta and not node.embedded:
        if "metadata" in data:
            meta = data["metadata"]
            if type(meta) is dict:
                for k in meta:
                    if k not in _OBJECT_META_FIELDS:
                        return False
            elif isinstance(meta, (dict, list)):
                return False
        skip = ("metadata",)
    if status_subresource and "status" in data:
        if not _status_keys(data["status"], node.prop("status")):
            return False
        skip += ("status",)
    return _keys(data, node, skip)


def _fields(node: Node, data: dict[str, Any], skip: tuple[str, ...]) -> list[tuple[Any, Node]] | None:
    """(value, schema) of each field of ``data`` outside ``skip`` that has a schema (its property, else
    ``additionalProperties``); None when a field has none and the node does not allow unknown fields."""
    props = node.props_raw
    out: list[tuple[Any, Node]] = []
    for k, v in data.items():
        if skip and k in skip:
            continue
        sub = node.prop(k) if props is not None else None
        if sub is None:
            sub = node.additional()
            if sub is None:
                if node.allows_unknown:
                    continue
                return None
        out.append((v, sub))
    return out


def _keys(data: Any, node: Node, skip: tuple[str, ...] = ()) -> bool:
    if type(data) is dict:
        types = node.types
        if types and "object" not in types or node.embedded:
            return False  # the pruned fields of a wrong type, an embedded resource: the walk decides
        fields = _fields(node, data, skip)
        if fields is None:
            return False
        for v, sub in fields:
            if isinstance(v, (dict, list)) and not _keys(v, sub):
                return False
        return True
    if type(data) is list:
        types = node.types
        if types and "array" not in types:
            return False
        item = node.items()
        if item is None:
            return True
        for v in data:
            if isinstance(v, (dict, list)) and not _keys(v, item):
                return False
        return True
    return False  # a subclass of dict or list


_META_KEYS = ("apiVersion", "kind", "metadata")


def _status_keys(data: Any, node: Node | None) -> bool:
    """``_structural._unknown_only`` (the dropped ``status`` of a resource with a status subresource)
    reports nothing: field names only, whatever the values' types."""
    if node is None or node.preserve:
        return True
    if isinstance(data, dict):
        if type(data) is not dict:
            return False
        fields = _fields(node, data, _META_KEYS if node.embedded else ())
        if fields is None:
            return False
        for v, sub in fields:
            if not _status_keys(v, sub):
                return False
    elif isinstance(data, list):
        if type(data) is not list:
            return False
        item = node.items()
        for v in data:
            if not _status_keys(v, item):
                return False
    return True
