"""``spec.experimental.kvTransferPolicy`` rendering (topology-aware KV transfer).

Upstream (reference revision 2a6da14c): ``internal/dynamo/graph.go``
``shouldApplyKvTransferPolicyToWorkerComponent``, ``applyKvTransferPolicyToWorkerComponent``,
``applyKvTransferPolicyTopologyAnnotations``, ``workerKvTransferPolicyEnvVars``,
``appendTopologyLabelVolume(Mount)``, ``resolveGroveClusterTopologyDomains``;
``internal/dynamo/component_worker.go`` ``TopologyLabelVolume``/``TopologyLabelVolumeMount``;
``internal/consts/consts.go`` (env names, annotation keys, ``nvidia.com/dynamo-topology.`` prefix).
"""

from __future__ import annotations

from collections.abc import Mapping

from ._envmerge import merge_envs
from ._errors import RenderError
from ._names import is_worker_type

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

ENV_KV_TRANSFER_DOMAIN = "DYN_KV_TRANSFER_DOMAIN"
ENV_KV_TRANSFER_ENFORCEMENT = "DYN_KV_TRANSFER_ENFORCEMENT"
ENV_KV_TRANSFER_PREFERRED_WEIGHT = "DYN_KV_TRANSFER_PREFERRED_WEIGHT"
ENV_TOPOLOGY_ENABLED = "DYN_TOPOLOGY_ENABLED"
ENV_TOPOLOGY_MOUNT_PATH = "DYN_TOPOLOGY_MOUNT_PATH"
KV_ENV_NAMES = (
    ENV_KV_TRANSFER_DOMAIN, ENV_KV_TRANSFER_ENFORCEMENT, ENV_KV_TRANSFER_PREFERRED_WEIGHT,
    ENV_TOPOLOGY_ENABLED, ENV_TOPOLOGY_MOUNT_PATH,
)
ANN_TOPOLOGY_LABEL_KEY = "nvidia.com/topology-label-key"
ANN_TOPOLOGY_CLUSTER_TOPOLOGY_NAME = "nvidia.com/topology-cluster-topology-name"
TOPOLOGY_SOURCE_ANNOTATION_KEYS = (ANN_TOPOLOGY_LABEL_KEY, ANN_TOPOLOGY_CLUSTER_TOPOLOGY_NAME)
DYNAMO_TOPOLOGY_LABEL_PREFIX = "nvidia.com/dynamo-topology."
TOPOLOGY_VOLUME_NAME = "topology-labels"
TOPOLOGY_MOUNT_PATH = "/etc/dynamo/topology"


def kv_transfer_policy(dgd: Mapping[str, Any]) -> dict[str, Any] | None:
    exp = (dgd.get("spec") or {}).get("experimental")
    if not isinstance(exp, Mapping):
        return None
    kvt = exp.get("kvTransferPolicy")
    return dict(kvt) if isinstance(kvt, Mapping) else None


def applies_to(component: Mapping[str, Any], dgd: Mapping[str, Any]) -> bool:
    """``shouldApplyKvTransferPolicyToWorkerComponent``: a policy with labelKey or clusterTopologyName, worker types."""
    kvt = kv_transfer_policy(dgd)
    return (
        kvt is not None
        and bool(kvt.get("labelKey") or kvt.get("clusterTopologyName"))
        and is_worker_type(component.get("type"))
    )


def format_float32(value: Any) -> str:
    """``strconv.FormatFloat(float64(float32(v)), 'f', -1, 32)``: shortest float32 digits, no exponent."""
    from .._k8s._gofmt import _fixed, _shortest_digits32

    f = float(value)
    if f == 0:
        return "0"
    digits, dp, negative = _shortest_digits32(f)
    return ("-" if negative else "") + _fixed(digits, dp)


def policy_env(kvt: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``workerKvTransferPolicyEnvVars``."""
    env: list[dict[str, Any]] = [
        {"name": ENV_KV_TRANSFER_DOMAIN, "value": str(kvt.get("domain") or "")},
        {"name": ENV_KV_TRANSFER_ENFORCEMENT, "value": str(kvt.get("enforcement") or "required")},
        {"name": ENV_TOPOLOGY_ENABLED, "value": "true"},
        {"name": ENV_TOPOLOGY_MOUNT_PATH, "value": TOPOLOGY_MOUNT_PATH},
    ]
    if kvt.get("preferredWeight") is not None:
        env.append({"name": ENV_KV_TRANSFER_PREFERRED_WEIGHT, "value": format_float32(kvt["preferredWeight"])})
    return [{k: v for k, v in e.items() if v != ""} for e in env]


def topology_volume(kvt: Mapping[str, Any], domains: list[str] | None) -> dict[str, Any]:
    """``TopologyLabelVolume``: a Downward API volume projecting the topology pod labels."""
    items: list[dict[str, Any]] | None
    if kvt.get("labelKey"):
        items = [{"path": str(kvt.get("domain") or ""),
                  "fieldRef": {"fieldPath": f"metadata.labels['{kvt['labelKey']}']"}}]
    elif domains:
        items = [{"path": d, "fieldRef": {"fieldPath": f"metadata.labels['{DYNAMO_TOPOLOGY_LABEL_PREFIX}{d}']"}}
                 for d in domains]
    else:
        items = None
    source: dict[str, Any] = {}
    if items:
        source["items"] = items
    return {"name": TOPOLOGY_VOLUME_NAME, "downwardAPI": source}


def topology_mount() -> dict[str, Any]:
    return {"name": TOPOLOGY_VOLUME_NAME, "mountPath": TOPOLOGY_MOUNT_PATH, "readOnly": True}


def apply_to_container(container: dict[str, Any], kvt: Mapping[str, Any]) -> None:
    """Env (``MergeEnvs(remove(kv env), policy env)``) and the topology mount (same name or path replaced)."""
    env = [e for e in container.get("env") or [] if e.get("name") not in KV_ENV_NAMES]
    container["env"] = merge_envs(env, policy_env(kvt))
    mount = topology_mount()
    mounts = [m for m in container.get("volumeMounts") or []
              if m.get("name") != mount["name"] and m.get("mountPath") != mount["mountPath"]]
    container["volumeMounts"] = mounts + [mount]


def apply_volume(pod_spec: dict[str, Any], kvt: Mapping[str, Any], domains: list[str] | None) -> None:
    vol = topology_volume(kvt, domains)
    pod_spec["volumes"] = [v for v in pod_spec.get("volumes") or [] if v.get("name") != vol["name"]] + [vol]


def apply_topology_annotations(annotations: dict[str, str], kvt: Mapping[str, Any] | None) -> None:
    """``applyKvTransferPolicyTopologyAnnotations``."""
    for key in TOPOLOGY_SOURCE_ANNOTATION_KEYS:
        annotations.pop(key, None)
    if not kvt:
        return
    if kvt.get("labelKey"):
        annotations[ANN_TOPOLOGY_LABEL_KEY] = str(kvt["labelKey"])
    if kvt.get("clusterTopologyName"):
        annotations[ANN_TOPOLOGY_CLUSTER_TOPOLOGY_NAME] = str(kvt["clusterTopologyName"])


def resolve_grove_domains(dgd: Mapping[str, Any], bindings: Mapping[str, Any] | None) -> list[str] | None:
    """``resolveGroveClusterTopologyDomains``: the level domains of the referenced Grove
    ClusterTopologyBinding (``bindings`` maps binding name → ordered level domains; the operator
    reads the cluster, the renderer takes them as input)."""
    kvt = kv_transfer_policy(dgd)
    if not kvt or not kvt.get("clusterTopologyName"):
        return None
    name = str(kvt["clusterTopologyName"])
    path = ("spec", "experimental", "kvTransferPolicy", "clusterTopologyName")
    if bindings is None:
        raise RenderError.at(
            f'spec.experimental.kvTransferPolicy.clusterTopologyName "{name}" requires a Kubernetes client to read ClusterTopologyBinding',
            path, rule="render.kv-transfer-policy")
    if name not in bindings:
        raise RenderError.at(
            f'spec.experimental.kvTransferPolicy.clusterTopologyName "{name}" references a ClusterTopologyBinding resource that was not found',
            path, rule="render.kv-transfer-policy")
    domains = [str(d) for d in bindings[name] or []]
    domain = str(kvt.get("domain") or "")
    if domain not in domains:
        raise RenderError.at(
            f'spec.experimental.kvTransferPolicy.domain "{domain}" does not exist in ClusterTopologyBinding "{name}"; '
            f'available domains: [{" ".join(domains)}]',
            ("spec", "experimental", "kvTransferPolicy", "domain"), rule="render.kv-transfer-policy")
    return domains
