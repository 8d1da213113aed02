"""``validate``'s kind and file controls: ``--skip``, ``--reject``, ``--ignore-missing-schemas``,
``--ignore-filename-pattern``, ``--schema-location`` and the policy for kinds without a schema.

Decided before a document enters the admission pipeline (``_validate.validate_document``):

1. ``--skip`` (a kind, or ``GROUP/VERSION/KIND``; ``v1/KIND`` for the core group) -> ``skipped``;
2. ``--reject`` -> ``error`` (rule ``policy.rejected-kind``, kubeconform's "prohibited resource kind");
3. a built-in API version that Kubernetes removed, at or below the target ``--kubernetes-version``
   (``extensions/v1beta1`` Ingress: removed in v1.22) -> ``invalid`` (rule ``schema.removed-api``) with
   the release and the replacement API, as ``kubectl`` would refuse it ("no matches for kind");
4. kinds we model (every kind of the Dynamo CRD bundle, Grove, LWS, InferCrane: ``_core/_kinds.py``) ->
   the admission pipeline;
5. the ``--schema-location`` templates, in order (``default`` = the bundled Kubernetes schemas), the
   first location that has a schema wins; a JSON Schema (``.json``) or a CRD (``.yaml``/``.yml``,
   validated as the API server validates a custom resource);
6. no schema anywhere -> ``skipped`` (the documented default: unknown kinds never fail a run).
   ``--ignore-missing-schemas`` additionally skips unknown kinds/versions in the ``nvidia.com`` group
   (otherwise an error with a did-you-mean, as the API server has no such kind).

No network: a location starting with ``http://`` or ``https://`` is a usage error.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache

from .._core._diagnostics import Diagnostic
from .._core._kinds import MODELLED_GROUPS as MODELLED_GROUPS  # the one list of kinds (D50)
from .._core._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

# (apiVersion, kind) -> (Kubernetes release that stopped serving it, the API to use instead).
# From the Kubernetes "Deprecated API Migration Guide" (kubernetes.io/docs/reference/using-api/
# deprecation-guide/); see docs/decisions.md.
_REMOVALS: list[tuple[str, tuple[str, ...], str, str]] = [
    # v1.16
    ("extensions/v1beta1", ("Deployment", "DaemonSet", "ReplicaSet"), "1.16", "apps/v1"),
    ("apps/v1beta1", ("Deployment", "StatefulSet", "ReplicaSet", "DaemonSet"), "1.16", "apps/v1"),
    ("apps/v1beta2", ("Deployment", "StatefulSet", "ReplicaSet", "DaemonSet"), "1.16", "apps/v1"),
    ("extensions/v1beta1", ("NetworkPolicy",), "1.16", "networking.k8s.io/v1"),
    ("extensions/v1beta1", ("PodSecurityPolicy",), "1.16", "policy/v1beta1 (itself removed in v1.25)"),
    # v1.22
    ("extensions/v1beta1", ("Ingress",), "1.22", "networking.k8s.io/v1"),
    ("networking.k8s.io/v1beta1", ("Ingress", "IngressClass"), "1.22", "networking.k8s.io/v1"),
    ("admissionregistration.k8s.io/v1beta1", ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"),
     "1.22", "admissionregistration.k8s.io/v1"),
    ("apiextensions.k8s.io/v1beta1", ("CustomResourceDefinition",), "1.22", "apiextensions.k8s.io/v1"),
    ("apiregistration.k8s.io/v1beta1", ("APIService",), "1.22", "apiregistration.k8s.io/v1"),
    ("authentication.k8s.io/v1beta1", ("TokenReview",), "1.22", "authentication.k8s.io/v1"),
    ("authorization.k8s.io/v1beta1", ("SubjectAccessReview", "LocalSubjectAccessReview",
                                      "SelfSubjectAccessReview"), "1.22", "authorization.k8s.io/v1"),
    ("certificates.k8s.io/v1beta1", ("CertificateSigningRequest",), "1.22", "certificates.k8s.io/v1"),
    ("coordination.k8s.io/v1beta1", ("Lease",), "1.22", "coordination.k8s.io/v1"),
    ("rbac.authorization.k8s.io/v1beta1", ("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"),
     "1.22", "rbac.authorization.k8s.io/v1"),
    ("scheduling.k8s.io/v1beta1", ("PriorityClass",), "1.22", "scheduling.k8s.io/v1"),
    ("storage.k8s.io/v1beta1", ("CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"), "1.22",
     "storage.k8s.io/v1"),
    # v1.25
    ("batch/v1beta1", ("CronJob",), "1.25", "batch/v1"),
    ("discovery.k8s.io/v1beta1", ("EndpointSlice",), "1.25", "discovery.k8s.io/v1"),
    ("events.k8s.io/v1beta1", ("Event",), "1.25", "events.k8s.io/v1"),
    ("autoscaling/v2beta1", ("HorizontalPodAutoscaler",), "1.25", "autoscaling/v2"),
    ("policy/v1beta1", ("PodDisruptionBudget",), "1.25", "policy/v1"),
    ("policy/v1beta1", ("PodSecurityPolicy",), "1.25", "Pod Security Admission (no replacement API)"),
    ("node.k8s.io/v1beta1", ("RuntimeClass",), "1.25", "node.k8s.io/v1"),
    # v1.26
    ("flowcontrol.apiserver.k8s.io/v1beta1", ("FlowSchema", "PriorityLevelConfiguration"), "1.26",
     "flowcontrol.apiserver.k8s.io/v1"),
    ("autoscaling/v2beta2", ("HorizontalPodAutoscaler",), "1.26", "autoscaling/v2"),
    # v1.27
    ("storage.k8s.io/v1beta1", ("CSIStorageCapacity",), "1.27", "storage.k8s.io/v1"),
    # v1.29
    ("flowcontrol.apiserver.k8s.io/v1beta2", ("FlowSchema", "PriorityLevelConfiguration"), "1.29",
     "flowcontrol.apiserver.k8s.io/v1"),
    # v1.32
    ("flowcontrol.apiserver.k8s.io/v1beta3", ("FlowSchema", "PriorityLevelConfiguration"), "1.32",
     "flowcontrol.apiserver.k8s.io/v1"),
]
REMOVED_APIS: dict[tuple[str, str], tuple[str, str]] = {
    (api, kind): (release, instead) for api, kinds, release, instead in _REMOVALS for kind in kinds}


_VAR = r"\{\{\s*\.([A-Za-z]+)\s*\}\}"  # compiled on first use (re's cache), not at import (D32)
TEMPLATE_VARS = ("NormalizedKubernetesVersion", "StrictSuffix", "ResourceKind", "ResourceAPIVersion", "Group",
                 "KindSuffix")


class PolicyError(ValueError):
    """A bad option value (exit 2)."""


def _parse_kinds(values: list[str] | None) -> frozenset[str]:
    out: set[str] = set()
    for v in values or []:
        out.update(p.strip() for p in v.split(",") if p.strip())
    return frozenset(out)


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:2])


class KindPolicy(FrozenRecord):
    """A frozen value with a dataclass's constructor, equality, hash and repr (``extra_crds`` not
    compared nor hashed), written out: no dataclass on a cold start (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("skip", "reject", "ignore_missing", "locations",
                                            "kubernetes_version", "strict", "extra_crds")
    _COMPARE = ("skip", "reject", "ignore_missing", "locations", "kubernetes_version", "strict")
    skip: frozenset[str]
    reject: frozenset[str]
    ignore_missing: bool
    locations: tuple[str, ...]
    kubernetes_version: str
    strict: bool
    extra_crds: tuple[tuple[tuple[str, str, str], str], ...]

    def __init__(self, skip: frozenset[str] = frozenset(), reject: frozenset[str] = frozenset(),
                 ignore_missing: bool = False, locations: tuple[str, ...] = (),
                 kubernetes_version: str = "1.32.0", strict: bool = True,
                 extra_crds: tuple[tuple[tuple[str, str, str], str], ...] = ()) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "skip", skip)
        setattr_(self, "reject", reject)
        setattr_(self, "ignore_missing", ignore_missing)
        setattr_(self, "locations", locations)
        setattr_(self, "kubernetes_version", kubernetes_version)
        setattr_(self, "strict", strict)
        setattr_(self, "extra_crds", extra_crds)

    @classmethod
    def from_options(cls, skip: list[str] | None = None, reject: list[str] | None = None,
                     ignore_missing: bool = False, locations: list[str] | None = None,
                     kubernetes_version: str = "1.32.0", strict: bool = True) -> KindPolicy:
        locs = tuple(locations or ())
        crds: list[tuple[tuple[str, str, str], str]] = []
        for loc in locs:
            if loc.startswith(("http://", "https://")):
                raise PolicyError(f"--schema-location {loc!r}: only local paths are supported (no network)")
            for name in re.findall(_VAR, loc):
                if name not in TEMPLATE_VARS:
                    raise PolicyError(f"--schema-location {loc!r}: unknown template variable .{name} "
                                      f"(known: {', '.join(TEMPLATE_VARS)})")
            if loc != "default" and "{{" not in loc and loc.endswith((".yaml", ".yml")):
                if not os.path.isfile(loc):
                    raise PolicyError(f"--schema-location {loc}: no such file")
                for key in _crd_index(loc):
                    crds.append((key, loc))
        return cls(_parse_kinds(skip), _parse_kinds(reject), ignore_missing, locs, kubernetes_version, strict,
                   tuple(crds))

    @property
    def active(self) -> bool:
        return bool(self.skip or self.reject or self.ignore_missing or self.locations)


def _matches(names: frozenset[str], api: str, kind: str) -> bool:
    return kind in names or f"{api}/{kind}" in names


def template_vars(api: str, kind: str, kubernetes_version: str, strict: bool) -> dict[str, str]:
    """kubeconform's ``schemaPath`` variables (pkg/registry/registry.go)."""
    parts = api.split("/")
    suffix = "-" + parts[0].split(".")[0].lower()
    if len(parts) > 1:
        suffix += "-" + parts[1].lower()
    return {
        "NormalizedKubernetesVersion": "master" if kubernetes_version == "master" else "v" + kubernetes_version.lstrip("v"),
        "StrictSuffix": "-strict" if strict else "",
        "ResourceKind": kind.lower(),
        "ResourceAPIVersion": parts[1] if len(parts) > 1 else parts[0],
        "Group": parts[0],
        "KindSuffix": suffix,
    }


def expand(location: str, values: dict[str, str]) -> str:
    if not location.endswith(("json", "yaml", "yml")):
        location = location.rstrip("/") + "/{{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}/" \
            "{{.ResourceKind}}{{.KindSuffix}}.json"
    return re.sub(_VAR, lambda m: values[m.group(1)], location)


@cache
def _crd_index(path: str) -> dict[tuple[str, str, str], dict[str, Any]]:
    """``(group, version, kind) -> openAPIV3Schema`` of every CRD in a YAML file (multi-document)."""
    import yaml

    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            docs = list(yaml.load_all(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except (OSError, yaml.YAMLError) as exc:
        raise PolicyError(f"--schema-location {path}: cannot read CRD: {exc}") from exc
    for d in docs:
        if not isinstance(d, dict) or d.get("kind") != "CustomResourceDefinition":
            continue
        spec = d.get("spec") or {}
        group, kind = spec.get("group", ""), (spec.get("names") or {}).get("kind", "")
        for v in spec.get("versions") or []:
            schema = ((v.get("schema") or {}).get("openAPIV3Schema"))
            if isinstance(schema, dict):
                # the API server serves apiVersion, kind and metadata on every custom resource
                props = {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                         "metadata": {"type": "object"}, **(schema.get("properties") or {})}
                out[(group, str(v.get("name", "")), kind)] = {**schema, "properties": props}
    return out


@cache
def _json_validator(path: str) -> Any:
    import jsonschema

    try:
        with open(path, encoding="utf-8") as fh:
            schema = json.load(fh)
    except (OSError, ValueError) as exc:
        raise PolicyError(f"--schema-location: cannot read {path}: {exc}") from exc
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft4Validator)  # kubeconform's default
    return cls(schema)


def _check_json(path: str, data: dict[str, Any], strict: bool) -> list[Diagnostic]:
    v = _json_validator(path)
    out = []
    for err in sorted(v.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        rule = "schema.unknown-field" if err.validator == "additionalProperties" else "extra-schema." + str(err.validator)
        out.append(Diagnostic(rule, tuple(err.absolute_path), err.message))
    return out


def _check_crd(schema: dict[str, Any], data: dict[str, Any], strict: bool) -> list[Diagnostic]:
    from .._schema._cel import validate_cel
    from .._schema._structural import validate as structural

    diags = structural(data, schema, strict=strict)
    return diags + validate_cel(data, schema, structural=diags)


def decide(doc: Any, policy: KindPolicy) -> tuple[str, list[Diagnostic]] | None:
    """``(status, diagnostics)`` when the policy settles the document, ``None`` for the pipeline."""
    data = doc.data
    if not isinstance(data, dict):
        return None
    api, kind = data.get("apiVersion"), data.get("kind")
    if not isinstance(api, str) or not isinstance(kind, str) or not api or not kind:
        return None
    if _matches(policy.skip, api, kind):
        return "skipped", [Diagnostic("policy.skipped-kind", ("kind",), f"kind {api}/{kind} skipped (--skip)",
                                      "note")]
    if _matches(policy.reject, api, kind):
        return "error", [Diagnostic("policy.rejected-kind", ("kind",), f"prohibited resource kind {kind}")]
    removed = REMOVED_APIS.get((api, kind))
    if removed is not None and _version_tuple(policy.kubernetes_version) >= _version_tuple(removed[0]):
        release, instead = removed
        return "invalid", [Diagnostic(
            "schema.removed-api", ("apiVersion",),
            f'no matches for kind "{kind}" in version "{api}": {api} {kind} was removed in Kubernetes '
            f"v{release}; use {instead}")]
    group = api.rpartition("/")[0]
    if group in MODELLED_GROUPS:
        if group == "nvidia.com" and policy.ignore_missing:
            from .._core._kinds import served

            if not served(api, kind):
                return "skipped", [Diagnostic("policy.no-schema", ("kind",),
                                              f"no schema for {api}/{kind} (--ignore-missing-schemas)", "note")]
        return None
    for loc in policy.locations:
        if loc == "default":
            from .._k8s import _builtin_kinds as _k8s_schemas

            if _k8s_schemas.has_schema(api, kind, policy.kubernetes_version):
                return None  # the pipeline checks it against the bundled schema
            continue
        if "{{" not in loc and loc.endswith((".yaml", ".yml")):
            schema = _crd_index(loc).get((group, api.rpartition("/")[2], kind))
            if schema is not None:
                return _status(_check_crd(schema, data, policy.strict))
            continue
        path = expand(loc, template_vars(api, kind, policy.kubernetes_version, policy.strict))
        if not os.path.isfile(path):
            continue
        if path.endswith((".yaml", ".yml")):
            schema = _crd_index(path).get((group, api.rpartition("/")[2], kind))
            if schema is None:
                continue
            return _status(_check_crd(schema, data, policy.strict))
        return _status(_check_json(path, data, policy.strict))
    return None  # the pipeline: bundled Kubernetes schema, else skipped


def _status(diags: list[Diagnostic]) -> tuple[str, list[Diagnostic]]:
    return ("invalid" if any(d.severity == "error" for d in diags) else "valid"), diags


def filename_ignored(path: str, patterns: list[re.Pattern[str]]) -> bool:
    """kubeconform's ``-ignore-filename-pattern``: a regular expression searched in the path."""
    return path != "-" and any(p.search(path) for p in patterns)


def compile_patterns(values: list[str] | None) -> list[re.Pattern[str]]:
    out = []
    for v in values or []:
        try:
            out.append(re.compile(v))
        except re.error as exc:
            raise PolicyError(f"--ignore-filename-pattern {v!r}: {exc}") from exc
    return out
