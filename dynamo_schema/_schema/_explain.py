"""``explain KIND[.FIELD.PATH]``: description, type, default, constraints and sub-fields, offline.

Read from the schemas generated from the models (package data). Dynamo fields carry our own descriptions
(tools/descriptions.yaml). Core Kubernetes types embedded in a kind (``podTemplate``, containers, Job specs,
Grove's ``podSpec``, LWS templates…) carry none of their own: their descriptions are read at run time from
the Kubernetes schemas that the ``kubernetes-validate`` dependency installs (never copied into our files).
A mistyped kind or field gets the nearest names as suggestions (:class:`ExplainError`).

``release`` (``explain --operator-version X.Y``) explains a Dynamo kind as that operator release's CRD has it
(``_releases.py``: its served versions, fields, constraints and rules); those schemas carry no descriptions, so a
field's description is the reference revision's for the same field where it has one.
"""

from __future__ import annotations

import difflib
import json
import textwrap
from functools import cache
from typing import Any

from .._core._diagnostics import DynamoSchemaError
from .._core._kinds import DYNAMO_KINDS, INFERCRANE_KINDS, SHORT_NAMES, WORKLOAD_KINDS, unserved_version


def kinds_table() -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """alias -> (group, kind, versions newest first): every kind the package models now (_core/_kinds.py,
    kinds registered at run time included)."""
    return {
        **{k.lower(): ("nvidia.com", k, v) for k, v in DYNAMO_KINDS.items()},
        **{k.lower(): (g, k, v) for (g, k), v in WORKLOAD_KINDS.items()},
        **{k.lower(): (g, k, v) for (g, k), v in INFERCRANE_KINDS.items()},
    }


def short_table() -> dict[str, str]:
    """short name -> the lower-case kind :func:`kinds_table` knows it by."""
    return {**{a: k.lower() for a, k in SHORT_NAMES.items()}, "pcs": "podcliqueset", "lws": "leaderworkerset",
            "deploymentspec": "deployment", "ds": "deployment"}


CONSTRAINTS = ("enum", "const", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems",
               "maxItems", "format", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
               "x-kubernetes-map-type", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields")

# property -> the Kubernetes definition its value is (for descriptions of core fields)
CORE_TYPES = {
    "podTemplate": "io.k8s.api.core.v1.PodTemplateSpec",
    "leaderTemplate": "io.k8s.api.core.v1.PodTemplateSpec",
    "workerTemplate": "io.k8s.api.core.v1.PodTemplateSpec",
    "extraPodSpec": "io.k8s.api.core.v1.PodSpec",
    "podSpec": "io.k8s.api.core.v1.PodSpec",
    "mainContainer": "io.k8s.api.core.v1.Container",
    "extraPodMetadata": "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    "metadata": "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    "profilingJob": "io.k8s.api.batch.v1.JobSpec",
    "envs": "io.k8s.api.core.v1.EnvVar",
    "env": "io.k8s.api.core.v1.EnvVar",
    "envFrom": "io.k8s.api.core.v1.EnvFromSource",
    "volumeMounts": "io.k8s.api.core.v1.VolumeMount",
    "tolerations": "io.k8s.api.core.v1.Toleration",
    "affinity": "io.k8s.api.core.v1.Affinity",
    "topologySpreadConstraints": "io.k8s.api.core.v1.TopologySpreadConstraint",
    "livenessProbe": "io.k8s.api.core.v1.Probe",
    "readinessProbe": "io.k8s.api.core.v1.Probe",
    "startupProbe": "io.k8s.api.core.v1.Probe",
    "conditions": "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
    "behavior": "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior",
    "metrics": "io.k8s.api.autoscaling.v2.MetricSpec",
    "imagePullSecrets": "io.k8s.api.core.v1.LocalObjectReference",
    "volumes": "io.k8s.api.core.v1.Volume",
}


class ExplainError(DynamoSchemaError, ValueError):
    """An unknown kind, version or field (the message names the nearest candidates; still a ``ValueError``
    for callers that catch that)."""


def _suggest(word: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(word, candidates, n=3, cutoff=0.6)
    if not close:
        lower = {c.lower(): c for c in candidates}
        close = [lower[c] for c in difflib.get_close_matches(word.lower(), list(lower), n=3, cutoff=0.6)]
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


@cache
def _k8s_defs() -> dict[str, Any]:
    """The ``$defs`` of the bundled Kubernetes schemas (kubernetes-validate), {} when not installed."""
    try:
        from .._k8s import _builtin_kinds as _k8s_schemas

        d = _k8s_schemas._schema_dir(_k8s_schemas.DEFAULT_KUBERNETES_VERSION, False)
        if d is None:
            return {}
        data = json.loads((d / "_definitions.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, ImportError):
        return {}
    defs = data.get("$defs") or data.get("definitions") or {}
    return defs if isinstance(defs, dict) else {}


def _k8s_resolve(node: Any) -> Any:
    defs = _k8s_defs()
    for _ in range(16):
        if not isinstance(node, dict):
            return {}
        ref = node.get("$ref")
        if not isinstance(ref, str):
            if "items" in node and "properties" not in node:
                node = node["items"]
                continue
            return node
        node = defs.get(ref.rpartition("/")[2], {})
    return node if isinstance(node, dict) else {}


def _k8s_step(node: Any, name: str) -> Any:
    props = _k8s_resolve(node).get("properties") or {}
    sub = props.get(name)
    return sub if isinstance(sub, dict) else None


def _type_name(node: dict[str, Any]) -> str:
    if "x-dynamo-schema-null" in node:  # the null branch of a pruned null is no type of its own
        return _type_name(node["anyOf"][0])
    if "$ref" in node:
        return "Object"
    if "anyOf" in node:
        return " | ".join(_type_name(a) for a in node["anyOf"])
    # one type per node: the schemas are structural (a nullable field is an ``anyOf`` with a null branch)
    t = node.get("type", "Object" if "properties" in node else "any")
    if t == "array":
        return "[]" + _type_name(node.get("items", {}))
    if t == "object":
        if isinstance(node.get("additionalProperties"), dict) and "properties" not in node:
            return "map[string]" + _type_name(node["additionalProperties"])
        return "Object"
    return str(t)


def _inner(root: dict[str, Any], node: Any) -> dict[str, Any]:
    """The object schema behind ``node`` (through $ref, arrays and maps of objects)."""
    from ._schemas import resolve

    node = resolve(root, node)
    for _ in range(8):
        if not isinstance(node, dict):
            return {}
        if node.get("type") == "array" and "properties" not in node:
            node = resolve(root, node.get("items", {}))
        elif "properties" not in node and isinstance(node.get("additionalProperties"), dict) \
                and node.get("type") == "object":
            node = resolve(root, node["additionalProperties"])
        else:
            break
    return node if isinstance(node, dict) else {}


def resolve_kind(kind: str, api_version: str | None, release: str = "") -> tuple[str, str, str]:
    kinds, short = kinds_table(), short_table()
    key = short.get(kind.lower(), kind.lower())
    if key not in kinds:
        names = sorted(set(short) | {v[1] for v in kinds.values()})
        raise ExplainError(f"unknown kind {kind!r}{_suggest(kind, names)}")
    group, name, versions = kinds[key]
    if release and group == "nvidia.com":
        from ._releases import served_versions

        versions = tuple(sorted(served_versions(release, name), reverse=True))  # v1beta1 before v1alpha1
        if not versions:
            raise ExplainError(f"{name} is not served by operator release {release}")
    version = versions[0]
    if api_version:
        g, _, v = api_version.rpartition("/")
        if (g and g != group) or v not in versions:
            if release and group == "nvidia.com":
                served = ", ".join(f"{group}/{x}" for x in versions)
                raise ExplainError(f"{name} has no version {api_version!r} (served by operator release {release}: "
                                   f"{served})")
            raise ExplainError(unserved_version(name, api_version, versions, group))
        version = v
    return group, name, version


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, width=100, initial_indent=indent, subsequent_indent=indent) or [indent]


def explain(spec: str, api_version: str | None = None, recursive: bool = False, release: str = "") -> str:
    """The explanation text; raises :class:`ExplainError` for an unknown kind, version or field."""
    from ._schemas import for_object, load, resolve

    kind, _, rest = spec.partition(".")
    group, name, version = resolve_kind(kind, api_version, release)
    root = for_object(f"{group}/{version}", name) or load(group, name, version)
    ref: Described | None = None
    if release and group == "nvidia.com":
        from ._releases import schema

        released = schema(release, f"{group}/{version}", name)
        assert released is not None
        reference = _reference(group, name, version)
        ref = Described(reference, reference) if reference is not None else None
        root = released
    node: Any = root
    k8s: Any = None  # the Kubernetes definition node walked alongside, inside core types
    required = False
    parts = [p for p in rest.split(".") if p]
    walked: list[str] = []
    for part in parts:
        inner = _inner(root, node)
        props = inner.get("properties") or {}
        if part not in props:
            where = ".".join([name] + walked)
            raise ExplainError(f"field {part!r} does not exist in {where}{_suggest(part, list(props))}")
        required = part in (inner.get("required") or [])
        k8s = _k8s_step(k8s, part) if k8s is not None else None
        if k8s is None and part in CORE_TYPES and CORE_TYPES[part] in _k8s_defs():
            k8s = {"$ref": "#/$defs/" + CORE_TYPES[part]}
        node = props[part]
        ref = ref.step(part) if ref is not None else None
        walked.append(part)
    full = resolve(root, node)
    lines = [f"KIND:     {name}", f"VERSION:  {group}/{version}", ""]
    if parts:
        lines.append(f"FIELD:    {parts[-1]} <{_type_name(full)}>{' -required-' if required else ''}")
        lines.append("")
    desc = _description(full if ref is None else ref.full(), k8s)
    lines.append("DESCRIPTION:")  # kubectl explain prints the block always, "<empty>" without a description
    lines.extend(_wrap(desc, "    ") if desc else ["    <empty>"])
    lines.append("")
    for c in ("default",) + CONSTRAINTS:
        if c in full:
            lines.append(f"  {c}: {json.dumps(full[c])}")
    inner = _inner(root, full)
    for rule in inner.get("x-kubernetes-validations", []) or []:
        lines.append(f"  rule: {rule.get('rule')}  ({rule.get('message', '')})")
    props = inner.get("properties") or {}
    if props:
        lines += ["", "FIELDS:"] if lines[-1] != "" else ["FIELDS:"]
        lines.extend(_fields(root, inner, k8s, "  ", recursive, set(), ref))
    return "\n".join(lines) + "\n"


def _reference(group: str, name: str, version: str) -> dict[str, Any] | None:
    """The bundled (reference revision) schema of the kind, for descriptions; None when it has no such version."""
    from ._schemas import for_object

    return for_object(f"{group}/{version}", name)


class Described:
    """The reference revision's node at the same field path (its descriptions for a release's schema)."""

    def __init__(self, root: dict[str, Any], node: Any) -> None:
        self.root, self.node = root, node

    def full(self) -> dict[str, Any]:
        from ._schemas import resolve

        node = resolve(self.root, self.node)
        return node if isinstance(node, dict) else {}

    def step(self, part: str) -> Described | None:
        sub = (_inner(self.root, self.node).get("properties") or {}).get(part)
        return Described(self.root, sub) if isinstance(sub, dict) else None


def _description(node: dict[str, Any], k8s: Any) -> str:
    own = node.get("description")
    if isinstance(own, str) and own:
        return own
    if k8s is not None:
        d = k8s.get("description") if isinstance(k8s, dict) else None
        if not d:
            d = _k8s_resolve(k8s).get("description")
        if isinstance(d, str):
            return " ".join(d.split())
    return ""


def _fields(root: dict[str, Any], inner: dict[str, Any], k8s: Any, indent: str, recursive: bool,
            seen: set[int], ref: Described | None = None) -> list[str]:
    from ._schemas import resolve

    out: list[str] = []
    req = set(inner.get("required") or [])
    for fname, sub in (inner.get("properties") or {}).items():
        full = resolve(root, sub)
        sub_k8s = _k8s_step(k8s, fname) if k8s is not None else None
        if sub_k8s is None and fname in CORE_TYPES and CORE_TYPES[fname] in _k8s_defs():
            sub_k8s = {"$ref": "#/$defs/" + CORE_TYPES[fname]}
        sub_ref = ref.step(fname) if ref is not None else None
        out.append(f"{indent}{fname}\t<{_type_name(full)}>{' -required-' if fname in req else ''}")
        if not recursive:
            desc = _description(full if ref is None else (sub_ref.full() if sub_ref is not None else {}), sub_k8s)
            if desc:
                out.append(f"{indent}  {_first_sentence(desc)}")
            continue
        child = _inner(root, full)
        if child.get("properties") and id(child) not in seen:
            out.extend(_fields(root, child, sub_k8s, indent + "  ", True, seen | {id(child)}, sub_ref))
    return out


def _first_sentence(text: str, limit: int = 110) -> str:
    first = text.split(". ")[0].rstrip(".")
    if len(first) <= limit:
        return first
    return first[:limit].rsplit(" ", 1)[0] + "…"
