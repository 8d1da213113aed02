"""Admission as each operator release ran it: which webhooks a release registers, for which API version,
and the history of every webhook rule (the release that introduced it, the one that removed it).

Releases are the profiles of ``dynamo_schema._schema._releases`` (0.8 – 1.4; ``""`` is the reference revision,
whose admission is the rest of this package). Up to 1.2 the DGD and DCD webhooks validated v1alpha1 with plain
Go errors (``legacy/``); from 1.3 on they are the structural field-error validation the reference revision
has, so a 1.3 or 1.4 profile is the reference rules without those the release did not have yet (``HISTORY``)
plus the few rules those releases had in another form (:func:`beta_rules`). docs/releases.md is this table
in prose; tests/admission/test_releases.py keeps the two equal.

Registration (``deploy/helm/charts/platform/components/operator/templates/webhook-configuration.yaml`` at
each release's commit; the operator patches the CRDs to webhook conversion from 1.0 for DGDR, 1.2 for DGD and
DCD, ``internal/cert/cert.go: ensureCRDConversion``):

============  =====================================  ===========================================
kind          validating webhook decodes             mutating webhook
============  =====================================  ===========================================
DGD           v1alpha1 up to 1.2, v1beta1 from 1.3   none up to 0.9; v1alpha1 1.0 – 1.2; v1beta1 from 1.3
DCD           v1alpha1 up to 1.2, v1beta1 from 1.3   none up to 1.1; v1beta1 from 1.2
DGDR          v1alpha1 up to 0.9, v1beta1 from 1.0   none up to 0.9; v1beta1 from 1.0
DynamoModel   v1alpha1                               none
============  =====================================  ===========================================

(At 1.3 the DCD webhook is registered for v1alpha1 but converts to v1beta1 before validating.)
"""

from __future__ import annotations

from typing import Any

from .._core._access import as_dict, as_list, as_str
from .._core._diagnostics import Diagnostic
from .._core._kinds import DCD as _DCD
from .._core._kinds import DGD as _DGD
from .._core._kinds import DGDR as _DGDR
from ._settings import AdmissionSettings

__all__ = ["HISTORY", "beta_rules", "is_legacy", "mutate", "mutating_version", "rule_active", "webhook_version"]

# the structural-validation rewrite that removed the v1alpha1 webhooks' plain-error rules (1.3)
_GONE = {"dgd": "4d3f3a1d1", "dcd": "68a791296", "dgdr": "ea65da1c1", "dynamomodel": "ea65da1c1"}


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in release.split(".")) if release else (99,)


def since(release: str, first: str) -> bool:
    """``release`` (``""`` = the reference revision) has what ``first`` introduced."""
    return _key(release) >= _key(first)


def webhook_version(release: str, kind: str) -> str:
    """The API version the release's validating webhook decodes the object in."""
    if kind in (_DGD, _DCD):
        return "v1alpha1" if release and not since(release, "1.3") else "v1beta1"
    if kind == _DGDR:
        return "v1alpha1" if release and not since(release, "1.0") else "v1beta1"
    return "v1alpha1"


def mutating_version(release: str, kind: str) -> str | None:
    """The API version the release's mutating webhook for ``kind`` is registered for (None: no defaulter)."""
    if kind == _DGD:
        if release and not since(release, "1.0"):
            return None
        return "v1alpha1" if release and not since(release, "1.3") else "v1beta1"
    if kind == _DCD:
        return None if release and not since(release, "1.2") else "v1beta1"
    if kind == _DGDR:
        return None if release and not since(release, "1.0") else "v1beta1"
    return None


def is_legacy(release: str, kind: str) -> bool:
    """The release validates ``kind`` with the v1alpha1-era webhook (``legacy/``)."""
    return bool(release) and not since(release, "1.3") and kind in (_DGD, _DCD, _DGDR, "DynamoModel")


# rule id -> (first release, commit that introduced it, last release or "", commit that removed it, note).
# "1.5" is the reference revision's line (rules added after the 1.4 branch point).
Row = tuple[str, str, str, str, str]
HISTORY: dict[str, Row] = {}


def _add(kinds: str, names: str, first: str, commit: str, note: str = "", last: str = "") -> None:
    for kind in kinds.split():
        for name in names.split():
            rid = f"{kind}.{name}"
            assert rid not in HISTORY, rid
            HISTORY[rid] = (first, commit, last, _GONE[kind] if last else "", note)


_V1A = "v1alpha1-webhook wording (a plain error naming the service) up to 1.2"
# --- rules of the reference revision --------------------------------------------------------------------
_add("dgd", "components-required", "0.8", "3057af00b", _V1A)
_add("dgd", "restart-order-parallel restart-order-unique restart-order-count restart-order-unknown", "0.8",
     "3d67474ef", _V1A)
_add("dgd", "v1alpha1-pvc-name", "0.8", "3057af00b", _V1A)
_add("dgd", "components-immutable", "0.8", "55c266545", _V1A)
_add("dgd", "replicas-scaling-adapter", "0.8", "3057af00b", _V1A)
_add("dgd", "multinode-topology-immutable", "0.8", "538d30352", _V1A)
_add("dgd dcd", "backend-framework-immutable backend-framework-changed", "0.8", "3057af00b", _V1A)
_add("dgd dcd", "v1alpha1-dynamo-namespace-deprecated", "0.8", "c8770464a",
     "single-quoted values up to 1.2; without the dots of the DGD name replaced before 1.0")
_add("dgd dcd", "v1alpha1-autoscaling-deprecated v1alpha1-volume-mount-point v1alpha1-ingress-host", "0.8",
     "3057af00b", _V1A)
_add("dgd", "epp-inference-pool", "0.9", "9e2a2cc9e", _V1A + "; DGD only")
_add("dgd dcd", "epp-multinode epp-replicas epp-config-required epp-config-map-name v1alpha1-epp-config", "0.9",
     "9e2a2cc9e", _V1A)
_add("dgd", "origin-version-semver", "1.0", "4f686262d", _V1A)
_add("dgd", "vllm-executor-backend", "1.0", "8dd6369e5", _V1A)
_add("dgd dcd", "v1alpha1-vllm-executor-backend", "1.0", "dba51eed8", _V1A)
_add("dgd", "discovery-mode", "1.0", "2f6583271", _V1A)
_add("dgd", "intrapod-failover-discovery-mode", "1.0", "45364b5f1",
     "1.0 asks for container discovery with any failover, 1.1 (a48672f5b) with intra-pod failover only")
_add("dgd", "grove-name-length", "1.0", "a3f1e7ec6",
     "1.0 – 1.1 count the DGD name + service name; from 1.2 (cce641360) the PodCliqueSet name, truncated to fit")
_add("dgd", "topology-spec-required topology-binding topology-domain topology-narrower topology-immutable", "1.0",
     "de6e4f30b", "a ClusterTopology with topologyProfile up to 1.2; a ClusterTopologyBinding from 1.3")
_add("dgd", "restart-id-rolling-update", "1.0", "97f795377", _V1A)
_add("dgd dcd", "gms-component-type gms-gpu", "1.0", "47897f364", _V1A)
_add("dgd dcd", "failover-gms-required failover-mode-match", "1.0", "45364b5f1", _V1A)
_add("dgd dcd", "v1alpha1-frontend-sidecar-conflict", "1.0", "73a4ab317", _V1A)
_add("dgd", "inter-pod-gms-grove inter-pod-gms-vllm inter-pod-gms-toggle inter-pod-failover-toggle "
     "num-shadows-immutable", "1.1", "a48672f5b", _V1A)
_add("dgd dcd", "failover-gpu failover-component-type v1alpha1-failover-num-shadows", "1.1", "a48672f5b", _V1A)
_add("dgd dcd", "checkpoint-gms-client-containers", "1.2", "da85b0115", _V1A)
_add("dgd dcd", "checkpoint-compatibility", "1.2", "48aacd65b",
     "GMS with a checkpoint refused up to 1.3; from 1.4 (6a4b0747c) only inter-pod GMS or failover")
_add("dcd", "multinode-topology-immutable topology-immutable inter-pod-gms-toggle inter-pod-failover-toggle "
     "num-shadows-immutable replicas-scaling-adapter", "1.3", "68a791296", "DCD update rules since the structural DCD webhook")
_add("dgd dcd", "shared-memory-size", "1.3", "0adf974fb")
_add("dgd dcd", "frontend-sidecar", "1.3", "4d3f3a1d1")
_add("dgd dcd", "min-available-grove", "1.3", "5d3bb78df")
_add("dgd dcd", "min-available-immutable", "1.3", "5d3bb78df", "a CRD transition rule (CEL)")
_add("dgd", "restart-unset-on-create", "1.3", "5d3bb78df", "a CRD rule (CEL)")
_add("dgd", "priority-class-grove", "1.3", "4691c5cc2")
_add("dgd", "grove-update-strategy", "1.3", "8d92187fc")
_add("dgd", "kv-transfer-topology-name kv-transfer-grove kv-transfer-binding kv-transfer-domain kv-transfer-immutable",
     "1.3", "62fe516e1")
_add("dgd dcd", "checkpoint-disabled", "1.3", "df686a7d7")
_add("dgd dcd", "main-image-required", "1.4", "d7bb84ef0")
_add("dgd", "runtime-version-override-required", "1.4", "d7bb84ef0")
_add("dgdr", "runtime-version-override-required", "1.4", "d7bb84ef0")
_add("dgd", "topology-pack-domain-required", "1.4", "26b83a991")
_add("dgd", "power-limit-value power-limit-dra power-limit-immutable gpu-count-immutable node-count-immutable", "1.4",
     "f4bf6280f")
_add("dgd dcd", "gms-client-duplicate gms-client-container", "1.4", "9909e0acd")
_add("dgd dcd", "force-scaling-group-grove force-scaling-group-toggle", "1.4", "5c59b3e61")
_add("dgd dcd", "elastic-ep-command", "1.4", "865afbb14")
_add("dgd", "workload-provider-value workload-provider-materialize workload-provider-immutable", "1.4", "73a3fd26f")
_add("dgd dcd", "provider-override-context provider-override-api-version provider-override-target "
     "provider-override-value provider-override-immutable", "1.5", "df7deed0d")
_add("dgd", "topology-provider-conflict", "1.5", "df7deed0d")
_add("dgdr", "hardware-required", "1.0", "d56439ec2",
     "up to 1.2 only for a namespace-restricted operator (never with the cluster-wide operator modelled here)")
_add("dgdr", "search-strategy-backend phase-immutable", "1.0", "d100c6e20", _V1A.replace(" naming the service", ""))
_add("dynamomodel", "model-name-required base-model-name-required source-required source-uri-required "
     "model-type-immutable base-model-name-immutable", "0.8", "3057af00b", "plain-error wording up to 1.2")
_add("dynamomodel", "source-uri-scheme", "0.8", "3057af00b", "file:/// accepted from 1.3 (71a061f65)")
# --- rules of earlier releases only (the v1alpha1 webhooks; gone with the structural rewrite of 1.3) ---------
_add("dgd", "v1alpha1-pvc-storage-class v1alpha1-pvc-size v1alpha1-pvc-access-mode", "0.8", "3057af00b",
     last="1.2")
_add("dgd", "v1alpha1-restart-id", "0.8", "3d67474ef", last="1.2")
_add("dgd dcd", "v1alpha1-replicas-non-negative v1alpha1-shared-memory-size", "0.8", "3057af00b", last="1.2")
_add("dgd", "v1alpha1-topology-domain-format v1alpha1-topology-pack-domain v1alpha1-topology-profile", "1.0",
     "de6e4f30b", last="1.2")
_add("dgd", "topology-component-required", "1.0", "de6e4f30b",
     "a field error from 1.3 on; removed by 26b83a991 (1.4)", last="1.3")
_add("dgd dcd", "v1alpha1-gms-inter-pod v1alpha1-failover-inter-pod", "1.0", "47897f364",
     "the inter-pod layout refused until a48672f5b (1.1)", last="1.0")
_add("dgd", "v1alpha1-kv-transfer-policy", "1.2", "a68c04c7b", last="1.2")
_add("dgd dcd", "v1alpha1-checkpoint-job v1alpha1-checkpoint-container-name v1alpha1-gms-client-name", "1.2",
     "da85b0115", last="1.2")
_add("dgdr", "v1alpha1-profiler-image v1alpha1-profiling-config v1alpha1-config-overwritten", "0.8", "3057af00b",
     "the v1alpha1 DGDR (profilingConfig); v1beta1 from 1.0 (d100c6e20)", last="0.9")
_add("dgdr", "v1alpha1-sla-optimization-type", "1.2", "2e3124546", last="1.2")
# the "last" of a row is where its commit stops; fix the removal commits that are not the 1.3 rewrite
for _rid, _gone in (("dgd.topology-component-required", "26b83a991"), ("dgd.v1alpha1-gms-inter-pod", "a48672f5b"),
                    ("dcd.v1alpha1-gms-inter-pod", "a48672f5b"), ("dgd.v1alpha1-failover-inter-pod", "a48672f5b"),
                    ("dcd.v1alpha1-failover-inter-pod", "a48672f5b"), ("dgdr.v1alpha1-profiler-image", "d100c6e20"),
                    ("dgdr.v1alpha1-profiling-config", "d100c6e20"), ("dgdr.v1alpha1-config-overwritten", "d100c6e20")):
    _row = HISTORY[_rid]
    HISTORY[_rid] = (_row[0], _row[1], _row[2], _gone, _row[4])


def rule_active(rule: str, release: str) -> bool:
    """Whether ``release`` had ``rule``; rules without history (schema, CEL, metadata…) are not webhook rules."""
    row = HISTORY.get(rule)
    if row is None:
        return True
    first, _, last, _, _ = row
    return since(release, first) and (not last or not since(release, _next(last)))


def _next(release: str) -> str:
    from .._schema._releases import RELEASES

    order = list(RELEASES) + ["1.5"]
    i = order.index(release)
    return order[i + 1] if i + 1 < len(order) else "99"


# --------------------------------------------------------------------------------------------------
# defaults

#: The mutating webhooks' defaults by release: what -> (first release, commit, note); docs/releases.md.
DEFAULTS: dict[str, tuple[str, str, str]] = {
    "DGD origin-version annotation on create": ("1.0", "4f686262d", "the operator version, unless present"),
    "DGD replicas 1 where unset": ("1.0", "a31cbd0df", "on create only up to 1.2"),
    "DGDR spec.image on create": ("1.0", "06fc5d5ec",
                                  "dynamo-frontend:<version> in 1.0; dynamo-planner:<version> from 1.1 (e8ecf6ff5)"),
    "DCD spec.name (v1beta1) from metadata.name on create": ("1.2", "f9b6ab689", ""),
    "DGD defaults on update too": ("1.3", "91b6259ba", "the DGD mutating webhook registered for UPDATE"),
    "DGD minAvailable 1 on the Grove pathway": ("1.3", "5d3bb78df", ""),
    "DGD workload-provider annotation on create": ("1.4", "73a3fd26f", ""),
    "provider-override target from the provider context": ("1.5", "df7deed0d", ""),
}


def mutate(obj: dict[str, Any], settings: AdmissionSettings, release: str, operation: str) -> dict[str, Any]:
    """The release's mutating webhook on ``obj`` (in :func:`mutating_version`; a new object)."""
    from .._core._consts import ANN_ENABLE_GROVE, ANN_ORIGIN_VERSION, ANN_WORKLOAD_PROVIDER
    from .._core._datacopy import deepcopy
    from ._defaults import default

    kind = obj.get("kind")
    version = str(obj.get("apiVersion", "")).rpartition("/")[2]
    if operation != "CREATE" and release and not since(release, "1.3"):
        copied: dict[str, Any] = deepcopy(obj)  # registered for CREATE only up to 1.2
        return copied
    if version == "v1beta1":
        beta = default(obj, settings, operation=operation)
        if kind == _DGDR and release == "1.0":  # the profiler image was dynamo-frontend until e8ecf6ff5 (1.1)
            spec = as_dict(beta.get("spec"))
            if not as_dict(obj.get("spec")).get("image") and isinstance(spec.get("image"), str):
                spec["image"] = spec["image"].replace("/dynamo-planner:", "/dynamo-frontend:")
        if kind == _DGD and not since(release, "1.4"):  # the provider annotation is 73a3fd26f (1.4)
            sent_ann = as_dict(as_dict(obj.get("metadata")).get("annotations"))
            ann = as_dict(beta.get("metadata")).get("annotations")
            if isinstance(ann, dict) and ANN_WORKLOAD_PROVIDER not in sent_ann:
                ann.pop(ANN_WORKLOAD_PROVIDER, None)
            # 1.3 (071aff36 defaulting/dynamographdeployment_handler.go): minAvailable nil -> 1 on every
            # operation of the Grove pathway (the gate on, nvidia.com/enable-grove not "false")
            if settings.grove_enabled and as_str(sent_ann.get(ANN_ENABLE_GROVE)).lower() != "false":
                for comp in as_list(as_dict(beta.get("spec")).get("components")):
                    if isinstance(comp, dict) and comp.get("minAvailable") is None:
                        comp["minAvailable"] = 1
        return beta
    out: dict[str, Any] = deepcopy(obj)
    if kind == _DGD:  # 1.0 – 1.2: replicas of every service, the origin version on create
        for svc in ((out.get("spec") or {}).get("services") or {}).values():
            if isinstance(svc, dict) and svc.get("replicas") is None:
                svc["replicas"] = 1
        if operation == "CREATE":
            meta = out.setdefault("metadata", {})
            ann = meta.get("annotations")
            if not isinstance(ann, dict):
                ann = meta["annotations"] = {}
            ann.setdefault(ANN_ORIGIN_VERSION, settings.operator_version)
    return out


# --------------------------------------------------------------------------------------------------
# 1.3 and 1.4: the reference rules, less the newer ones, plus the forms these releases had


def beta_rules(obj: dict[str, Any], settings: AdmissionSettings, release: str, *, old: dict[str, Any] | None,
               source_version: str) -> list[Diagnostic]:
    """The webhook of a v1beta1-era release (1.3, 1.4) on a defaulted v1beta1 object."""
    from . import validate

    diags = validate(obj, settings, old=old, transition_rules=False, source_version=source_version)
    out = [d for d in diags if rule_active(d.rule, release)]
    if release == "1.3":
        out = [d for d in out if not _ready_phase(d, old) and not d.rule.endswith(".checkpoint-compatibility")]
        out += _v13_checkpoint(obj) + _v13_topology(obj)
    return out


def _ready_phase(d: Diagnostic, old: dict[str, Any] | None) -> bool:
    """1.3 did not freeze a DGDR in phase Ready (added by d7bb84ef0, 1.4)."""
    return d.rule == "dgdr.phase-immutable" and ((old or {}).get("status") or {}).get("phase") == "Ready"


def _v13_checkpoint(obj: dict[str, Any]) -> list[Diagnostic]:
    """1.3: a checkpoint with a GPU memory service is refused (the GMS + snapshot gate, 8a269ab4d; on by
    default from 6a4b0747c, 1.4, which refuses only inter-pod GMS and failover)."""
    spec = as_dict(obj.get("spec"))
    kind = "dgd" if obj.get("kind") == _DGD else "dcd"
    places: list[tuple[tuple[str | int, ...], Any]]
    if kind == "dgd":
        places = [(("spec", "components", i), c) for i, c in enumerate(as_list(spec.get("components")))]
    else:
        places = [(("spec",), spec)]
    out = []
    for path, comp in places:
        exp = comp.get("experimental") if isinstance(comp, dict) else None
        if not isinstance(exp, dict):
            continue
        ck = exp.get("checkpoint")
        if isinstance(ck, dict) and ck.get("enabled") is True and exp.get("gpuMemoryService") is not None:
            out.append(Diagnostic(f"{kind}.checkpoint-compatibility", path + ("experimental", "checkpoint"),
                                  "Forbidden: GMS + Snapshot is temporarily disabled; disable gpuMemoryService or "
                                  "enable the internal GMS + Snapshot gate"))
    return out


def _v13_topology(obj: dict[str, Any]) -> list[Diagnostic]:
    """1.3: with a spec-level constraint without packDomain, every component needs its own constraint."""
    if obj.get("kind") != _DGD:
        return []
    spec = as_dict(obj.get("spec"))
    tc = spec.get("topologyConstraint")
    if not isinstance(tc, dict) or tc.get("packDomain"):
        return []
    out = []
    for i, comp in enumerate(as_list(spec.get("components"))):
        if isinstance(comp, dict) and comp.get("topologyConstraint") is None:
            out.append(Diagnostic("dgd.topology-component-required", ("spec", "components", i, "topologyConstraint"),
                                  "Required value: is required because spec.topologyConstraint.packDomain is not set"))
    return out
