"""Object names and small hashes used by rendering.

Facts from ``rendering.md`` §2–§3 (upstream ``deploy/operator/internal/dynamo/graph.go``,
``model_service.go``, ``internal/discovery/resource.go``, ``api/v1beta1`` ``ComputeDynamoNamespace``).
"""

from __future__ import annotations

from .._k8s._gohash import fnv32a as fnv32a
from .._k8s._grovenames import is_inter_pod_gms as is_inter_pod_gms
from .._k8s._grovenames import is_scaling_group_forced as is_scaling_group_forced
from .._k8s._grovenames import longest_clique_name as longest_clique_name
from .._k8s._grovenames import node_count as node_count
from .._k8s._grovenames import pcs_name_for_dgd
from .._k8s._grovenames import uses_pcsg as uses_pcsg

WORKER_TYPES = frozenset({"worker", "prefill", "decode"})
GLOBAL_DYNAMO_NAMESPACE = "dynamo"
pcs_name = pcs_name_for_dgd  # ``PCSNameForDGD`` (_k8s/_grovenames), render's name for it


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
