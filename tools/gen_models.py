"""Generate ``dynamo_schema/models/_generated.py`` from the v1beta1 CRDs (a development-time tool).

The CRDs are read from ``../shared/reference/dynamo/crds`` (or ``--crds DIR``). The output is Python
source of our own: one pydantic model per distinct object schema (deduplicated by structure), with the
JSON names as aliases, snake_case attributes, enums as ``Literal``, patterns and bounds as ``Field``
constraints, schema defaults as field defaults, and the Kubernetes extension keywords
(list types, list-map keys, map types, int-or-string, preserve-unknown-fields, CEL rules) recorded in
``json_schema_extra`` so that the JSON Schema generated from the models carries them.

Descriptions are not copied (upstream prose): field descriptions in our own words come from
``tools/descriptions.yaml`` (``KIND/VERSION: {dotted.path: text}``, paths from the resource root, list items
not named), keyed by the path where a structure is first met (a structure shared by several paths is one
class, described once). ``python tools/gen_models.py --list-undescribed`` prints the paths still without
one. Enum members that upstream documents one by one are described in ``tools/enum_descriptions.yaml``
(``KIND/VERSION: {dotted.path: {value: text}}``), written as ``markdownEnumDescriptions``. Run: ``python tools/gen_models.py`` then ``ruff format``
is not needed; the output is deterministic.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference"
MODELS_DIR = ROOT / "dynamo_schema" / "models"

# bundle -> (output module, API version, [(CRD file relative to the reference folder, kind)])
BUNDLES = {
    "dynamo": ("_generated.py", "nvidia.com/v1beta1", [
        ("dynamo/crds/nvidia.com_dynamographdeployments.yaml", "DynamoGraphDeployment"),
        ("dynamo/crds/nvidia.com_dynamocomponentdeployments.yaml", "DynamoComponentDeployment"),
        ("dynamo/crds/nvidia.com_dynamographdeploymentrequests.yaml", "DynamoGraphDeploymentRequest"),
    ]),
    "dynamo_v1alpha1": ("_generated_v1alpha1.py", "nvidia.com/v1alpha1", [
        ("dynamo/crds/nvidia.com_dynamographdeployments.yaml", "DynamoGraphDeployment"),
        ("dynamo/crds/nvidia.com_dynamocomponentdeployments.yaml", "DynamoComponentDeployment"),
        ("dynamo/crds/nvidia.com_dynamographdeploymentrequests.yaml", "DynamoGraphDeploymentRequest"),
    ]),
    "grove": ("_grove.py", "grove.io/v1alpha1", [
        ("grove/crds/grove.io_podcliquesets.yaml", "PodCliqueSet"),
    ]),
    # the other kinds of the operator's CRD bundle (deploy/operator/config/crd/bases at the reference
    # revision). Last, so that adding them changes no class of the modules above.
    "dynamo_extra": ("_generated_extra.py", "nvidia.com/v1beta1", [
        ("dynamo/crds/nvidia.com_dynamographdeploymentscalingadapters.yaml", "DynamoGraphDeploymentScalingAdapter"),
    ]),
    "dynamo_extra_v1alpha1": ("_generated_extra_v1alpha1.py", "nvidia.com/v1alpha1", [
        ("dynamo/crds/nvidia.com_dynamomodels.yaml", "DynamoModel"),
        ("dynamo/crds/nvidia.com_dynamographdeploymentscalingadapters.yaml", "DynamoGraphDeploymentScalingAdapter"),
        ("dynamo/crds/nvidia.com_dynamocheckpoints.yaml", "DynamoCheckpoint"),
        ("dynamo/crds/nvidia.com_dynamoworkermetadatas.yaml", "DynamoWorkerMetadata"),
    ]),
}

# Names of well-known Kubernetes core types, keyed by the JSON property that holds them
# (for arrays: the property of the array). Only used to pick readable class names.
KNOWN = {
    "podTemplate": "PodTemplateSpec",
    "containers": "Container",
    "initContainers": "Container",
    "ephemeralContainers": "EphemeralContainer",
    "env": "EnvVar",
    "envFrom": "EnvFromSource",
    "ports": "ContainerPort",
    "volumeMounts": "VolumeMount",
    "volumeDevices": "VolumeDevice",
    "volumes": "Volume",
    "resources": "ResourceRequirements",
    "livenessProbe": "Probe",
    "readinessProbe": "Probe",
    "startupProbe": "Probe",
    "tolerations": "Toleration",
    "affinity": "Affinity",
    "conditions": "Condition",
    "imagePullSecrets": "LocalObjectReference",
    "configMapKeyRef": "ConfigMapKeySelector",
    "secretKeyRef": "SecretKeySelector",
    "fieldRef": "ObjectFieldSelector",
    "resourceFieldRef": "ResourceFieldSelector",
    "valueFrom": "EnvVarSource",
    "lifecycle": "Lifecycle",
    "httpGet": "HTTPGetAction",
    "tcpSocket": "TCPSocketAction",
    "grpc": "GRPCAction",
    "exec": "ExecAction",
    "nodeAffinity": "NodeAffinity",
    "podAffinity": "PodAffinity",
    "podAntiAffinity": "PodAntiAffinity",
    "labelSelector": "LabelSelector",
    "matchExpressions": "LabelSelectorRequirement",
    "topologySpreadConstraints": "TopologySpreadConstraint",
    "hostAliases": "HostAlias",
    "dnsConfig": "PodDNSConfig",
    "seLinuxOptions": "SELinuxOptions",
    "seccompProfile": "SeccompProfile",
    "appArmorProfile": "AppArmorProfile",
    "windowsOptions": "WindowsSecurityContextOptions",
    "capabilities": "Capabilities",
    "persistentVolumeClaim": "PersistentVolumeClaimVolumeSource",
    "configMap": "ConfigMapVolumeSource",
    "secret": "SecretVolumeSource",
    "emptyDir": "EmptyDirVolumeSource",
    "hostPath": "HostPathVolumeSource",
    "projected": "ProjectedVolumeSource",
    "downwardAPI": "DownwardAPIVolumeSource",
    "csi": "CSIVolumeSource",
    "ephemeral": "EphemeralVolumeSource",
    "nfs": "NFSVolumeSource",
    "resourceClaims": "PodResourceClaim",
    "readinessGates": "PodReadinessGate",
    "schedulingGates": "PodSchedulingGate",
    "sysctls": "Sysctl",
    "os": "PodOS",
    "components": "DynamoComponentDeploymentSharedSpec",
    "leader": "ComponentRoleSpec",
    "worker": "ComponentRoleSpec",
    "multinode": "MultinodeSpec",
}

# Readable names where the property alone is ambiguous: (parent class, property) -> class name.
KNOWN_CTX = {
    ("PodTemplateSpec", "spec"): "PodSpec",
    ("PodTemplateSpec", "metadata"): "PodTemplateObjectMeta",
    ("PodSpec", "securityContext"): "PodSecurityContext",
    ("PodSpec", "dnsConfig"): "PodDNSConfig",
    ("ConfigMapVolumeSource", "items"): "KeyToPath",
    ("ProjectedVolumeSource", "sources"): "VolumeProjection",
    ("PodDNSConfig", "options"): "PodDNSConfigOption",
    ("Volume", "image"): "ImageVolumeSource",
}

# Properties whose values are core Kubernetes types: their descriptions are read at run time from the
# kubernetes-validate schemas (``explain``), never written here.
CORE_PROPS = {
    "podTemplate", "extraPodSpec", "extraPodMetadata", "mainContainer", "affinity", "tolerations", "env", "envFrom",
    "volumeMounts", "livenessProbe", "readinessProbe", "startupProbe", "securityContext", "imagePullSecrets",
    "volumes", "topologySpreadConstraints", "conditions", "lifecycle", "labelSelector", "resourceClaims",
    "metadata", "containers", "initContainers", "ephemeralContainers", "claims", "profilingJob", "behavior", "metrics", "envs",
}
DESCRIPTIONS = ROOT / "tools" / "descriptions.yaml"
# Descriptions of enum members (``KIND/VERSION: {dotted.path: {value: text}}``), our words too: written to the
# JSON Schema as ``markdownEnumDescriptions`` (editors show them next to each value; docs/decisions.md D46).
ENUM_DESCRIPTIONS = ROOT / "tools" / "enum_descriptions.yaml"

RESERVED = set(keyword.kwlist) | {
    "schema", "json", "copy", "dict", "validate", "construct", "fields", "parse_obj", "parse_raw",
    "parse_file", "from_orm", "update_forward_refs", "schema_json", "model_config", "model_fields",
    "type", "id", "format", "hash", "list", "str", "int", "float", "bool", "any",
}

_EXT_KEYS = (
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-validations",
    # our own: how many enum branches a folded ``allOf`` had (the API server reports the allOf failure)
    "x-dynamo-schema-allof",
)


def strip_desc(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: strip_desc(v) for k, v in node.items() if k not in ("description",)}
    if isinstance(node, list):
        return [strip_desc(x) for x in node]
    return node


def snake(name: str) -> str:
    s = re.sub(r"[^0-9A-Za-z_]", "_", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()
    if s[:1].isdigit():
        s = "f_" + s
    if s in RESERVED or s.startswith("model_"):
        s = s + "_"
    return s


def camel(name: str) -> str:
    parts = re.split(r"[^0-9A-Za-z]+", name)
    out = "".join(p[:1].upper() + p[1:] for p in parts if p)
    if out[:1].isdigit():
        out = "T" + out
    return out or "Object"


def singular(name: str) -> str:
    for suf, rep in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("s", "")):
        if name.endswith(suf) and len(name) > len(suf) + 1 and not name.endswith("ss"):
            return name[: -len(suf)] + rep
    return name + "Item"


def flatten_allof(node: dict[str, Any]) -> dict[str, Any]:
    """Fold ``allOf`` (controller-gen emits it for repeated enum markers) into one schema node."""
    if not isinstance(node, dict) or "allOf" not in node:
        return node
    out = {k: v for k, v in node.items() if k != "allOf"}
    if all(isinstance(p, dict) and "enum" in p for p in node["allOf"]):
        out["x-dynamo-schema-allof"] = len(node["allOf"])
    for part in node["allOf"]:
        for k, v in part.items():
            if k == "enum" and "enum" in out:
                out["enum"] = [x for x in out["enum"] if x in v]
            else:
                out[k] = v
    return out


def is_object_with_props(node: dict[str, Any]) -> bool:
    return isinstance(node, dict) and "properties" in node


class Gen:
    def __init__(self) -> None:
        self.classes: dict[str, str] = {}  # canonical json -> class name
        self.names: set[str] = set()
        self.order: list[str] = []  # class names in definition order
        self.source: dict[tuple[str, str], str] = {}
        self.owner: dict[str, str] = {}  # class name -> first module that defines it
        self.defined: dict[str, list[str]] = {}  # module -> class names it defines, in order
        self.module = ""
        self.path: list[str] = []  # KIND/VERSION then the JSON path of the property being typed
        self.descriptions: dict[str, dict[str, str]] = {}
        self.enum_descriptions: dict[str, dict[str, dict[str, str]]] = {}
        self.undescribed: list[str] = []

    # -- naming -----------------------------------------------------------------------------------
    def pick_name(self, base: str, parent: str) -> str:
        for cand in (base, parent + base):
            if cand not in self.names:
                return cand
        i = 2
        while f"{parent}{base}{i}" in self.names:
            i += 1
        return f"{parent}{base}{i}"

    # -- types --------------------------------------------------------------------------------------
    def class_for(self, node: dict[str, Any], base: str, parent: str, root_name: str | None = None) -> str:
        key = json.dumps(strip_desc(node), sort_keys=True)
        if key in self.classes and root_name is None:
            return self.classes[key]
        name = root_name or self.pick_name(base, parent)
        self.names.add(name)
        if root_name is None:
            self.classes[key] = name
        self.emit_class(name, node)
        return name

    def type_for(self, node: dict[str, Any], prop: str, parent: str, in_list: bool = False) -> str:
        """Python type expression for a schema node (without Optional)."""
        node = flatten_allof(node)
        if node.get("x-kubernetes-int-or-string"):
            cons = self.field_constraints(node)
            if cons:
                return f"Union[StrictInt, Annotated[StrictStr, Field({', '.join(cons)})]]"
            return "Union[StrictInt, StrictStr]"
        t = node.get("type")
        if "enum" in node:
            vals = ", ".join(repr(v) for v in node["enum"])
            return f"Literal[{vals}]"
        if t == "string":
            return self.constrained("StrictStr", node)
        if t == "integer":
            return self.constrained("StrictInt", node)
        if t == "number":
            return self.constrained("float", node)
        if t == "boolean":
            return "StrictBool"
        if t == "array":
            item = node.get("items", {})
            base = KNOWN_CTX.get((parent, prop)) or KNOWN.get(prop) or camel(singular(prop))
            inner = self.type_for(item, prop, parent, in_list=True) if not is_object_with_props(item) else \
                self.class_for(item, base, parent)
            if not is_object_with_props(item):
                inner = self.annotate_inner(inner, item)
            return f"List[{inner}]"
        if t == "object" or t is None:
            if is_object_with_props(node):
                base = KNOWN_CTX.get((parent, prop)) or KNOWN.get(prop) or camel(prop)
                return self.class_for(node, base, parent)
            ap = node.get("additionalProperties")
            if isinstance(ap, dict):
                if is_object_with_props(ap):
                    inner = self.class_for(ap, camel(singular(prop)) + "Value", parent)
                else:
                    inner = self.annotate_inner(self.type_for(ap, prop, parent), ap)
                return f"Dict[str, {inner}]"
            if t == "object" and "additionalProperties" not in node and not node.get("x-kubernetes-preserve-unknown-fields") \
                    and not node.get("x-kubernetes-embedded-resource"):
                # a bare ``type: object``: the API server prunes every field of it (strict: unknown field)
                return self.class_for({**node, "properties": {}}, "EmptyObject", parent)
            return "Dict[str, Any]"
        return "Any"

    def annotate_inner(self, typ: str, node: dict[str, Any]) -> str:
        """Carry extension keywords of a non-object item/value schema."""
        extra = {k: node[k] for k in _EXT_KEYS if k in node}
        cons = [] if node.get("x-kubernetes-int-or-string") else self.field_constraints(node)
        if not extra and not cons:
            return typ
        args = cons + ([f"json_schema_extra={extra!r}"] if extra else [])
        return f"Annotated[{typ}, Field({', '.join(args)})]"

    def constrained(self, typ: str, node: dict[str, Any], scalar: bool = True) -> str:
        return typ

    def field_constraints(self, node: dict[str, Any]) -> list[str]:
        out: list[str] = []
        if "enum" in node:
            return out
        if "pattern" in node:
            out.append(f"pattern={node['pattern']!r}")
        for k, arg in (("minLength", "min_length"), ("maxLength", "max_length"),
                       ("minItems", "min_length"), ("maxItems", "max_length")):
            if k in node:
                out.append(f"{arg}={node[k]!r}")
        if "minimum" in node:
            arg = "gt" if node.get("exclusiveMinimum") is True else "ge"
            out.append(f"{arg}={node['minimum']!r}")
        if "maximum" in node:
            arg = "lt" if node.get("exclusiveMaximum") is True else "le"
            out.append(f"{arg}={node['maximum']!r}")
        if "maxProperties" in node:
            out.append(f"max_length={node['maxProperties']!r}")
        return out

    def describe(self) -> str | None:
        """Our description of the property at ``self.path`` (None: core Kubernetes type or not written)."""
        if not self.path or any(p in CORE_PROPS for p in self.path[1:]):
            return None
        key = ".".join(self.path[1:])
        text = self.descriptions.get(self.path[0], {}).get(key)
        if text is None:
            self.undescribed.append(f"{self.path[0]}: {key}")
        return text

    def describe_enum(self, node: dict[str, Any]) -> list[str] | None:
        """Our descriptions of the members of the enum at ``self.path``, in the enum's order (None: none)."""
        values = node.get("enum")
        if not values or not self.path:
            return None
        docs = self.enum_descriptions.get(self.path[0], {}).get(".".join(self.path[1:]))
        if not docs:
            return None
        if set(docs) != {str(v) for v in values}:
            raise SystemExit(f"{ENUM_DESCRIPTIONS}: {self.path[0]} {'.'.join(self.path[1:])} describes "
                             f"{sorted(docs)}, the enum is {values}")
        return [" ".join(str(docs[str(v)]).split()) for v in values]

    # -- classes ------------------------------------------------------------------------------------
    def emit_class(self, name: str, node: dict[str, Any]) -> None:
        props: dict[str, Any] = node.get("properties", {})
        required = set(node.get("required", []))
        lines = []
        cfg_extra = {k: node[k] for k in _EXT_KEYS if k in node}
        extra_mode = "allow" if node.get("x-kubernetes-preserve-unknown-fields") else "forbid"
        fields = []
        used: set[str] = set()
        for jname, sub in props.items():
            sub = flatten_allof(sub)
            attr = snake(jname)
            while attr in used:
                attr += "_"
            used.add(attr)
            self.path.append(jname)
            description = self.describe()
            enum_docs = self.describe_enum(sub)
            typ = self.type_for(sub, jname, name)
            self.path.pop()
            extra = {k: sub[k] for k in _EXT_KEYS if k in sub}
            if enum_docs:
                extra["markdownEnumDescriptions"] = enum_docs
            if sub.get("format") and sub.get("type") in ("integer", "number", "string"):
                extra["format"] = sub["format"]
            if sub.get("nullable"):
                extra["nullable"] = True
            cons = [] if sub.get("x-kubernetes-int-or-string") else self.field_constraints(sub)
            args = [f"alias={jname!r}"]
            is_req = jname in required
            if "default" in sub:
                default = sub["default"]
                args.insert(0, "default=" + repr(default) if not isinstance(default, (dict, list))
                            else f"default_factory=lambda: {default!r}")
                ann = typ if not sub.get("nullable") else f"Optional[{typ}]"
            elif is_req:
                ann = typ if not sub.get("nullable") else f"Optional[{typ}]"
            else:
                args.insert(0, "default=None")
                ann = f"Optional[{typ}]"
            args.extend(cons)
            if description:
                args.append(f"description={description!r}")
            if extra:
                args.append(f"json_schema_extra={extra!r}")
            fields.append(f"    {attr}: {ann} = Field({', '.join(args)})")
        lines.append(f"class {name}(_Base):")
        conf = [f"extra={extra_mode!r}"]
        if cfg_extra:
            conf.append(f"json_schema_extra={cfg_extra!r}")
        lines.append(f"    model_config = ConfigDict({', '.join(conf)}, **_CONF)")
        lines.extend(fields)
        if not fields:
            lines.append("    pass")
        self.order.append(name)
        self.owner.setdefault(name, self.module)
        self.defined.setdefault(self.module, []).append(name)
        self.source[(self.module, name)] = "\n".join(lines)


HEADER = '''"""Pydantic models of the %(api)s resources and the Kubernetes types they embed.

GENERATED by tools/gen_models.py from the structure of the upstream CRDs (field names, types, enums,
patterns, bounds, defaults and Kubernetes list/map semantics). Do not edit by hand: change the generator
and run ``python tools/gen_models.py``.
"""
# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ._base import ObjectMeta, _Base, _CONF

'''


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default=str(REFERENCE))
    ap.add_argument("--extra-reference", action="append", default=[], metavar="DIR",
                    help="another folder laid out like the reference one (dynamo/crds/…), searched for CRD "
                         "files the reference folder lacks")
    ap.add_argument("--list-undescribed", action="store_true", help="print the paths without a description")
    ns = ap.parse_args(argv)
    gen = generate(Path(ns.reference), [Path(p) for p in ns.extra_reference], write=not ns.list_undescribed)
    if ns.list_undescribed:
        print("\n".join(gen.undescribed))
    return 0


def _crd_file(reference: Path, extra: list[Path], fname: str) -> Path | None:
    for base in [reference, *extra]:
        if (base / fname).is_file():
            return base / fname
    return None


def generate(reference: Path, extra: list[Path] | None = None, write: bool = True) -> Gen:
    """All bundles share one class registry: a type that two CRDs embed (PodTemplateSpec, Container…) is
    one class, defined in the first bundle's module and imported by the others."""
    gen = Gen()
    gen.names.add("ObjectMeta")
    if DESCRIPTIONS.is_file():
        gen.descriptions = yaml.safe_load(DESCRIPTIONS.read_text()) or {}
    if ENUM_DESCRIPTIONS.is_file():
        gen.enum_descriptions = yaml.safe_load(ENUM_DESCRIPTIONS.read_text()) or {}
    modules: list[tuple[str, str, list[tuple[str, str | None, str | None, dict[str, Any]]]]] = []
    for _bundle, (out_name, api, crds) in BUNDLES.items():
        files = [_crd_file(reference, extra or [], fname) for fname, _ in crds]
        if None in files:
            # a bundle whose CRDs are not at hand keeps its committed module (bundles come in order and
            # define their classes after the earlier ones, so the earlier modules do not change)
            missing = next(f for (f, _), p in zip(crds, files) if p is None)
            print(f"skipped {out_name}: {missing} not found (pass --extra-reference)", file=sys.stderr)
            continue
        gen.module = out_name[:-3]
        roots = []
        want = api.rpartition("/")[2]
        for (_fname, kind), path in zip(crds, files):
            crd = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
            version = next(v for v in crd["spec"]["versions"] if v["name"] == want)
            schema = version["schema"]["openAPIV3Schema"]
            props = schema["properties"]
            gen.path = [f"{kind}/{want}", "spec"]
            spec_name = gen.class_for(props["spec"], kind + "Spec", kind, root_name=kind + "Spec")
            status_name = None
            if "status" in props:
                gen.path = [f"{kind}/{want}", "status"]
                status_name = gen.class_for(props["status"], kind + "Status", kind, root_name=kind + "Status")
            gen.path = []
            roots.append((kind, spec_name, status_name, schema))
        modules.append((out_name, api, roots))
    order = [m[0][:-3] for m in modules]
    for out_name, api, roots in modules:
        module = out_name[:-3]
        earlier = set(order[: order.index(module)])
        own = gen.defined.get(module, [])
        body = []
        for name in own:
            body.append(gen.source[(module, name)])
            body.append("\n")
        for kind, spec_name, status_name, schema in roots:
            cfg = {k: schema[k] for k in _EXT_KEYS if k in schema}
            conf = "extra='forbid'" + (f", json_schema_extra={cfg!r}" if cfg else "")
            body.append(
                f"class {kind}(_Base):\n"
                f"    model_config = ConfigDict({conf}, **_CONF)\n"
                f"    api_version: Literal[{api!r}] = Field(alias='apiVersion')\n"
                f"    kind: Literal[{kind!r}] = Field(alias='kind')\n"
                f"    metadata: Optional[ObjectMeta] = Field(default=None, alias='metadata')\n"
                + (f"    spec: {spec_name} = Field(alias='spec')\n" if "spec" in (schema.get("required") or ())
                   else f"    spec: Optional[{spec_name}] = Field(default=None, alias='spec')\n")
                + (f"    status: Optional[{status_name}] = Field(default=None, alias='status')\n" if status_name else "")
                + "\n"
            )
        text = "\n".join(body)
        imports: dict[str, list[str]] = {}
        used = set(re.findall(r"\b[A-Z][A-Za-z0-9]*\b", text))
        for name in sorted(used):
            other = gen.owner.get(name)
            if other in earlier and name not in own:
                imports.setdefault(other, []).append(name)
        head = HEADER % {"api": api}
        for other, names in sorted(imports.items()):
            head += f"from .{other} import " + ", ".join(names) + "\n"
        exported = ["ObjectMeta"] + own + [r[0] for r in roots]
        text = head + "\n\n" + text + "__all__ = [" + ", ".join(repr(n) for n in exported) + "]\n"
        if write:
            (MODELS_DIR / out_name).write_text(text)
            print(f"wrote {out_name}: {len(own) + len(roots)} classes", file=sys.stderr)
    return gen


if __name__ == "__main__":
    raise SystemExit(main())
