"""Object names and small hashes used by rendering.

Facts from ``rendering.md`` §2–§3 (upstream ``deploy/operator/internal/dynamo/graph.go``,
``model_service.go``, ``internal/discovery/resource.go``, ``api/v1beta1`` ``ComputeDynamoNamespace``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._k8s._gohash import fnv32a as fnv32a
from .._k8s._roles import longest_role_name

WORKER_TYPES = frozenset({"worker", "prefill", "decode"})
GLOBAL_DYNAMO_NAMESPACE = "dynamo"
MAX_COMBINED_GROVE_NAME = 45
MIN_PCS_NAME_LENGTH = 8


def is_worker_type(component_type: str | None) -> bool:
    return component_type in WORKER_TYPES


def fnv_suffix(name: str) -> str:
    return format(fnv32a(name.encode("utf-8")) & 0xFFFF, "04x")


def normalize_kube_name(name: str) -> str:
    """``NormalizeKubeResourceName``: lowercase and ``.`` → ``-``."""
    return name.replace(".", "-").lower()


def compute_dynamo_namespace(global_ns: bool, k8s_namespace: str, dgd_name: str) -> str:
    if global_ns:
        return GLOBAL_DYNAMO_NAMESPACE
    return f"{k8s_namespace}-{dgd_name.replace('.', '-')}"


def component_runtime_namespace(dynamo_ns: str, component_type: str, worker_hash: str) -> str:
    if not dynamo_ns:
        return ""
    if is_worker_type(component_type) and worker_hash:
        return f"{dynamo_ns}-{worker_hash}"
    return dynamo_ns


def dcd_name(dgd_name: str, component_name: str, component_type: str | None, worker_suffix: str) -> str:
    """``GetDCDResourceName``: ``<dgd>-<lower comp>`` plus ``-<hash>`` for worker types."""
    base = f"{dgd_name}-{component_name.lower()}"
    if is_worker_type(component_type) and worker_suffix:
        return f"{base}-{worker_suffix}"
    return base


def lws_name(dcd: str) -> str:
    return f"{dcd}-0"


def node_count(component: Mapping[str, Any]) -> int:
    mn = component.get("multinode")
    if isinstance(mn, Mapping):
        n = mn.get("nodeCount")
        return int(n) if n is not None else 2
    return 1


def _experimental(component: Mapping[str, Any]) -> Mapping[str, Any]:
    exp = component.get("experimental")
    return exp if isinstance(exp, Mapping) else {}


def is_inter_pod_gms(component: Mapping[str, Any]) -> bool:
    gms = _experimental(component).get("gpuMemoryService")
    return isinstance(gms, Mapping) and gms.get("mode", "IntraPod") == "InterPod"


def is_scaling_group_forced(component: Mapping[str, Any]) -> bool:
    grove = _experimental(component).get("grove")
    return isinstance(grove, Mapping) and bool(grove.get("forceScalingGroup"))


def uses_pcsg(component: Mapping[str, Any]) -> bool:
    return node_count(component) > 1 or is_inter_pod_gms(component) or is_scaling_group_forced(component)


def longest_clique_name(component_name: str, component: Mapping[str, Any]) -> str:
    if not uses_pcsg(component):
        return component_name.lower()
    return longest_role_name(component_name, node_count(component), is_inter_pod_gms(component))


def pcs_name(dgd_name: str, components: Sequence[Mapping[str, Any]]) -> str:
    """``PCSNameForDGD``: keep the DGD name if it fits the Grove 45-character budget, else FNV-truncate."""
    max_budget = 0
    for comp in components:
        name = str(comp.get("name", ""))
        lower = name.lower()
        budget = len(lower) + len(longest_clique_name(name, comp)) if uses_pcsg(comp) else len(lower)
        max_budget = max(max_budget, budget)
    pcs_budget = max(MAX_COMBINED_GROVE_NAME - max_budget, MIN_PCS_NAME_LENGTH)
    if len(dgd_name) <= pcs_budget:
        return dgd_name
    return dgd_name[: pcs_budget - 5] + "-" + fnv_suffix(dgd_name)


def model_hash(model_name: str) -> str:
    import hashlib  # (OpenSSL: ~2 ms of a cold start that renders no model Service)

    return hashlib.sha256(model_name.encode("utf-8")).hexdigest()[:8]


def model_service_name(model_name: str) -> str:
    return f"dynamo-model-{model_hash(model_name)}"


def discovery_service_account(dgd_name: str) -> str:
    return f"{dgd_name}-k8s-service-discovery"


def discovery_label_value(sa_name: str) -> str:
    if len(sa_name) <= 63:
        return sa_name
    import hashlib

    digest = hashlib.sha256(sa_name.encode("utf-8")).hexdigest()[:8]
    return sa_name[: 63 - len(digest) - 1] + "-" + digest


def elastic_ep_service_name(component_service_name: str) -> str:
    name = normalize_kube_name(component_service_name + "-ray")
    if len(name) <= 63:
        return name
    suffix = fnv_suffix(name)
    return name[: 63 - len(suffix) - 1] + "-" + suffix


def wait_leader_configmap_name(dgd_name: str) -> str:
    return f"{dgd_name}-wait-leader-script"


def epp_configmap_name(dgd_name: str) -> str:
    return f"{dgd_name}-epp-config"


def inference_pool_name(dgd_name: str) -> str:
    return f"{dgd_name}-pool"
