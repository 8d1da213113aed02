"""Walk a JSON Schema the way the structured-merge engine needs it.

Works on both shapes the project meets:

* a CRD ``openAPIV3Schema`` (everything inline), and
* a generated JSON Schema with ``$ref`` into ``$defs`` (pydantic output), including the
  ``anyOf: [X, {type: null}]`` wrapping pydantic uses for optional fields (``anyOf: [X, NULL_REF]`` in the
  exported schemas, ``_core._consts``) and ``allOf: [X]``.

Only the Kubernetes keywords that drive merging are read: ``properties``, ``additionalProperties``,
``items``, ``type``, ``default``, ``x-kubernetes-list-type``, ``x-kubernetes-list-map-keys``,
``x-kubernetes-map-type``, ``x-kubernetes-preserve-unknown-fields``,
``x-kubernetes-embedded-resource``.
"""

from __future__ import annotations

from typing import Any

from .._core._consts import NULL_REF

Schema = dict[str, Any] | None

# Kubernetes' own ObjectMeta, as the API server's OpenAPI builder substitutes it for a CRD's bare
# ``metadata: {type: object}`` (only the keywords that matter for merging are spelt out).
_STRING_MAP: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "string"}}
OBJECT_META: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "generateName": {"type": "string"},
        "namespace": {"type": "string"},
        "uid": {"type": "string"},
        "resourceVersion": {"type": "string"},
        "generation": {"type": "integer"},
        "creationTimestamp": {"type": "string"},
        "deletionTimestamp": {"type": "string"},
        "deletionGracePeriodSeconds": {"type": "integer"},
        "selfLink": {"type": "string"},
        "labels": _STRING_MAP,
        "annotations": _STRING_MAP,
        "finalizers": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
        "ownerReferences": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["uid"],
            "items": {
                "type": "object",
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "name": {"type": "string"},
                    "uid": {"type": "string"},
                    "controller": {"type": "boolean"},
                    "blockOwnerDeletion": {"type": "boolean"},
                },
                "x-kubernetes-map-type": "atomic",
            },
        },
        "managedFields": {
            "type": "array",
            "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        },
    },
}


class SchemaWalker:
    """Resolves ``$ref`` and answers "what is the schema of this child" questions."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        # pydantic puts definitions under ``$defs``; older drafts under ``definitions``.
        self._defs: dict[str, Any] = dict(root.get("definitions") or {})
        self._defs.update(root.get("$defs") or {})

    # -- resolution -------------------------------------------------------------------------------
    def resolve(self, node: Schema) -> Schema:
        """Follow ``$ref`` / single ``allOf`` / nullable ``anyOf`` until a concrete node remains.

        Sibling keywords next to a ``$ref`` (``x-kubernetes-*``, ``default``) win over the target's.
        """
        seen = 0
        while isinstance(node, dict) and seen < 64:
            seen += 1
            extra = {k: v for k, v in node.items() if k not in ("$ref", "allOf", "anyOf", "oneOf")}
            target: Schema = None
            if "$ref" in node:
                target = self._lookup(node["$ref"])
            elif isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
                target = node["allOf"][0]
            elif isinstance(node.get("anyOf") or node.get("oneOf"), list) and "properties" not in node:
                options: list[Any] = node.get("anyOf") or node.get("oneOf") or []
                branches = [b for b in options if not _is_null(b)]
                if len(branches) == 1:
                    target = branches[0]
            if target is None:
                return node
            resolved = self.resolve(target)
            if not extra:
                node = resolved
                break
            merged = dict(resolved or {})
            merged.update(extra)
            node = merged
            break
        return node

    def _lookup(self, ref: str) -> Schema:
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return None
        parts = ref[2:].split("/")
        node: Any = self.root
        for part in parts:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node if isinstance(node, dict) else None

    # -- questions --------------------------------------------------------------------------------
    def property(self, node: Schema, key: str) -> Schema:
        """Schema of ``key`` inside the object ``node`` (None when undeclared)."""
        node = self.resolve(node)
        if not isinstance(node, dict):
            return None
        props = node.get("properties")
        if isinstance(props, dict) and key in props:
            return self.resolve(props[key])
        addl = node.get("additionalProperties")
        if isinstance(addl, dict):
            return self.resolve(addl)
        return None

    def raw_property(self, node: Schema, key: str) -> tuple[Schema, bool]:
        """Upstream ``schemaForMapKey``: (child schema, opaque?) for null rejection."""
        node = self.resolve(node)
        if not isinstance(node, dict):
            return None, False
        props = node.get("properties")
        if isinstance(props, dict) and key in props:
            return self.resolve(props[key]), False
        addl = node.get("additionalProperties")
        if isinstance(addl, dict) and addl:
            return self.resolve(addl), False
        if addl is True or (isinstance(addl, dict) and not addl):
            return None, True
        if node.get("x-kubernetes-preserve-unknown-fields") is True:
            return None, True
        return None, False

    def items(self, node: Schema) -> Schema:
        node = self.resolve(node)
        if isinstance(node, dict) and isinstance(node.get("items"), dict):
            return self.resolve(node["items"])
        return None

    def kind_of(self, node: Schema) -> str:
        """One of ``object``, ``map`` (additionalProperties), ``list``, ``scalar``, ``untyped``."""
        node = self.resolve(node)
        if not isinstance(node, dict):
            return "untyped"
        t = node.get("type")
        if isinstance(t, list):
            t = next((x for x in t if x != "null"), None)
        if t == "array" or "items" in node:
            return "list"
        if t == "object" or "properties" in node or "additionalProperties" in node:
            return "object"
        if t in ("string", "integer", "number", "boolean"):
            return "scalar"
        if node.get("x-kubernetes-int-or-string"):
            return "scalar"
        return "untyped"

    def list_type(self, node: Schema) -> str:
        node = self.resolve(node)
        if isinstance(node, dict):
            lt = node.get("x-kubernetes-list-type")
            if lt in ("map", "set", "atomic"):
                return str(lt)
        return "atomic"

    def list_keys(self, node: Schema) -> list[str]:
        node = self.resolve(node)
        keys = node.get("x-kubernetes-list-map-keys") if isinstance(node, dict) else None
        return [str(k) for k in keys] if isinstance(keys, list) else []

    def map_atomic(self, node: Schema) -> bool:
        node = self.resolve(node)
        return isinstance(node, dict) and node.get("x-kubernetes-map-type") == "atomic"

    def preserves_unknown(self, node: Schema) -> bool:
        node = self.resolve(node)
        return isinstance(node, dict) and node.get("x-kubernetes-preserve-unknown-fields") is True

    def is_untyped_preserved(self, node: Schema) -> bool:
        """Upstream ``isUntypedPreservedSchema``: preserve-unknown-fields with no ``type``."""
        node = self.resolve(node)
        if not isinstance(node, dict) or node.get("x-kubernetes-preserve-unknown-fields") is not True:
            return False
        t = node.get("type")
        return t in (None, "")

    def declares(self, node: Schema, key: str) -> bool:
        """Whether ``key`` is a known field of object ``node`` (unknown-field detection)."""
        node = self.resolve(node)
        if not isinstance(node, dict):
            return True
        if node.get("x-kubernetes-preserve-unknown-fields") is True:
            return True
        addl = node.get("additionalProperties")
        if addl is True or isinstance(addl, dict):
            return True
        props = node.get("properties")
        if not isinstance(props, dict):
            # nothing declared at all: an opaque object, keys are not checked
            return True
        return key in props

    def key_default(self, item_schema: Schema, key: str) -> Any:
        prop = self.property(item_schema, key)
        if isinstance(prop, dict):
            return prop.get("default")
        return None


def _is_null(node: Any) -> bool:
    return isinstance(node, dict) and ((node.get("type") == "null" and len(node) == 1) or node == NULL_REF)


def root_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Patch a resource root so ``metadata`` has ObjectMeta semantics (as the API server does)."""
    walker = SchemaWalker(schema)
    root = walker.resolve(schema) or {}
    props = dict(root.get("properties") or {})
    meta = walker.resolve(props.get("metadata"))
    if not isinstance(meta, dict) or not meta.get("properties"):
        props["metadata"] = OBJECT_META
        root = dict(root)
        root["properties"] = props
        out = dict(schema)
        out.update(root)
        return out
    return schema


def schema_from_crd(crd: dict[str, Any], version: str) -> dict[str, Any]:
    """The ``openAPIV3Schema`` of one served version of a CRD (a plain dict, not copied)."""
    for entry in (crd.get("spec") or {}).get("versions") or []:
        if entry.get("name") == version:
            schema = ((entry.get("schema") or {}).get("openAPIV3Schema")) or {}
            return dict(schema)
    raise KeyError(f"CRD has no schema for {version}")
