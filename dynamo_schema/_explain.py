"""``explain KIND[.FIELD.PATH]``: type, default, constraints and sub-fields, offline, from the schemas."""

from __future__ import annotations

import json
from typing import Any

ALIASES = {
    "dgd": ("nvidia.com", "DynamoGraphDeployment", "v1beta1"),
    "dynamographdeployment": ("nvidia.com", "DynamoGraphDeployment", "v1beta1"),
    "dcd": ("nvidia.com", "DynamoComponentDeployment", "v1beta1"),
    "dynamocomponentdeployment": ("nvidia.com", "DynamoComponentDeployment", "v1beta1"),
    "dgdr": ("nvidia.com", "DynamoGraphDeploymentRequest", "v1beta1"),
    "dynamographdeploymentrequest": ("nvidia.com", "DynamoGraphDeploymentRequest", "v1beta1"),
    "deployment": ("infercrane.dev", "Deployment", "v1"),
    "deploymentspec": ("infercrane.dev", "Deployment", "v1"),
}

CONSTRAINTS = ("enum", "const", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems",
               "maxItems", "format", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
               "x-kubernetes-map-type", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields")


def _type_name(root: dict[str, Any], node: dict[str, Any]) -> str:
    from ._schemas import resolve

    if "x-dynamo-schema-null" in node:  # the null branch of a pruned null is no type of its own
        return _type_name(root, node["anyOf"][0])
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in node:
        return " | ".join(_type_name(root, a) for a in node["anyOf"])
    t = node.get("type", "any")
    if t == "array":
        return "[]" + _type_name(root, node.get("items", {}))
    if t == "object" and isinstance(node.get("additionalProperties"), dict):
        return "map[string]" + _type_name(root, node["additionalProperties"])
    del resolve
    return str(t)


def explain(spec: str) -> str | None:
    from ._schemas import load, resolve

    kind, _, rest = spec.partition(".")
    key = ALIASES.get(kind.lower())
    if key is None:
        return None
    try:
        root = load(*key)
    except FileNotFoundError:
        return None
    node: dict[str, Any] = root
    required = False
    for part in [p for p in rest.split(".") if p]:
        node = resolve(root, node)
        while node.get("type") == "array" and "properties" not in node:
            node = resolve(root, node.get("items", {}))
        props = node.get("properties") or {}
        if part not in props:
            return None
        required = part in (node.get("required") or [])
        node = props[part]
    lines = [f"KIND:     {key[1]}", f"VERSION:  {key[0]}/{key[2]}", ""]
    if rest:
        lines.append(f"FIELD:    {rest} <{_type_name(root, node)}>{' -required-' if required else ''}")
    full = resolve(root, node)
    for c in ("default",) + CONSTRAINTS:
        if c in full:
            lines.append(f"  {c}: {json.dumps(full[c])}")
    inner = full
    while inner.get("type") == "array" and "properties" not in inner:
        inner = resolve(root, inner.get("items", {}))
    for rule in inner.get("x-kubernetes-validations", []) or []:
        lines.append(f"  rule: {rule.get('rule')}  ({rule.get('message', '')})")
    props = inner.get("properties") or {}
    if props:
        lines += ["", "FIELDS:"]
        req = set(inner.get("required") or [])
        for name, sub in props.items():
            lines.append(f"  {name}\t<{_type_name(root, sub)}>{' -required-' if name in req else ''}")
    return "\n".join(lines) + "\n"
