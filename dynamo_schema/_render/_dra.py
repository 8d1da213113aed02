"""Dynamic Resource Allocation (DRA) as the operator uses it for the GPU Memory Service.

Upstream: ``internal/dra/dra.go`` (``ApplyClaim``, ``ResourceClaimTemplateName``,
``ExtractGPUCountFromResourceRequirements``, ``RemoveGPUResources``, ``GenerateResourceClaimTemplate``)
and ``internal/controller/dgd_gms_resource_claims_reconciler.go`` (the DRA gate and the per-component
ResourceClaimTemplates a DGD owns). Everything works on plain data (pod specs and components as dicts).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._k8s._gofmt import go_quote
from ._errors import RenderError
from ._options import RenderOptions

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

#: The pod-level claim every GMS container shares (``dra.ClaimName``).
CLAIM_NAME = "intrapod-shared-gpu"
#: The DeviceClass of the NVIDIA DRA driver, used when a component names none.
DEFAULT_DEVICE_CLASS = "gpu.nvidia.com"
GPU_TOLERATION_KEY = "nvidia.com/gpu"

#: The DGD reconciler's refusal without DRA (``dgdGMSResourceClaimsReconciler.Reconcile``), verbatim.
DRA_UNAVAILABLE = (
    "gpuMemoryService / inter-pod GMS failover requires DRA (Dynamic Resource Allocation), but DRA is not "
    "available (either the resource.k8s.io/v1 API is not registered on this cluster, which requires "
    "Kubernetes 1.34+, or DRA has been explicitly disabled in the operator configuration)"
)
RULE_DRA_UNAVAILABLE = "render.dra-unavailable"
RULE_DRA_CLAIM = "render.dra-claim"


def experimental(component: Mapping[str, Any]) -> dict[str, Any]:
    exp = component.get("experimental")
    return exp if isinstance(exp, dict) else {}


def gms_spec(component: Mapping[str, Any]) -> dict[str, Any] | None:
    """``GetGPUMemoryService``: the component's ``experimental.gpuMemoryService`` (present, even empty)."""
    spec = experimental(component).get("gpuMemoryService")
    return spec if isinstance(spec, dict) else None


def is_inter_pod_failover(component: Mapping[str, Any]) -> bool:
    """``IsInterPodFailoverEnabled``: ``experimental.failover.mode`` is ``InterPod``."""
    failover = experimental(component).get("failover")
    return isinstance(failover, dict) and failover.get("mode") == "InterPod"


def check_dra_gate(dgd: Mapping[str, Any], options: RenderOptions) -> None:
    """Without DRA the DGD's shared-resource reconcile stops at the first component with GPU Memory
    Service or inter-pod failover (before checkpoints, EPP and the workloads)."""
    if options.dra_enabled:
        return
    for i, comp in enumerate((dgd.get("spec") or {}).get("components") or []):
        if not isinstance(comp, Mapping):
            continue
        key = "gpuMemoryService" if gms_spec(comp) is not None else "failover" if is_inter_pod_failover(comp) else ""
        if key:
            path = ("spec", "components", i, "experimental", key)
            raise RenderError.at(DRA_UNAVAILABLE, path, rule=RULE_DRA_UNAVAILABLE)


# ---------------------------------------------------------------- GPU resources


def is_gpu_resource_name(name: str) -> bool:
    """``isGPUResourceName``: ``nvidia.com/gpu``, ``gpu``, ``*/gpu``, a MIG shape (``*/mig-*``), ``gpu.*``."""
    n = name.lower()
    return n in ("nvidia.com/gpu", "gpu") or n.endswith("/gpu") or "/mig-" in n or n.startswith("gpu.")


def remove_gpu_resources(resources: dict[str, Any] | None) -> None:
    """``RemoveGPUResources``: every scalar GPU entry (``nvidia.com/gpu`` or a MIG shape) is dropped."""
    if not isinstance(resources, dict):
        return
    for name in [k for k in resources if is_gpu_resource_name(str(k))]:
        del resources[name]


def strip_container_gpus(container: dict[str, Any]) -> None:
    """GPU limits and requests removed (DRA allocates the devices); an emptied map is not serialised."""
    res = container.get("resources")
    if not isinstance(res, dict):
        return
    for section in ("limits", "requests"):
        remove_gpu_resources(res.get(section))
        if section in res and not res[section]:
            del res[section]


def gpu_count(resources: Any, path: tuple[str | int, ...] = ()) -> int:
    """``ExtractGPUCountFromResourceRequirements``: the first GPU resource (names sorted) of ``limits``,
    else of ``requests``; a quantity that is not a whole number is refused."""
    from .._k8s._quantity import parse_quantity_json

    res = resources if isinstance(resources, Mapping) else {}
    for section in ("limits", "requests"):
        values = res.get(section)
        if not isinstance(values, Mapping):
            continue
        names = sorted(str(k) for k in values if is_gpu_resource_name(str(k)))
        if not names:
            continue
        raw = values[names[0]]
        q = parse_quantity_json(raw)
        if q is None:
            return 0
        if q != q.to_integral_value():
            from .._k8s._golayout import canonical_quantity

            quantity = go_quote(canonical_quantity(raw))
            raise RenderError.at(f"GPU resource {go_quote(names[0])} quantity {quantity} must be a whole number",
                                 path, rule=RULE_DRA_CLAIM)
        return int(q)
    return 0


def main_container_resources(component: Mapping[str, Any]) -> dict[str, Any]:
    """``GetMainContainerResources``: the ``main`` container's resources (empty without one)."""
    pt = component.get("podTemplate") or {}
    for c in (pt.get("spec") or {}).get("containers") or []:
        if isinstance(c, Mapping) and c.get("name") == "main":
            res = c.get("resources")
            return dict(res) if isinstance(res, Mapping) else {}
    return {}


# ---------------------------------------------------------------- pod claims


def add_gpu_toleration(pod: dict[str, Any]) -> None:
    """The ``nvidia.com/gpu`` NoSchedule toleration (DRA bypasses the device plugin's), once."""
    tolerations = pod.setdefault("tolerations", [])
    for t in tolerations:
        if isinstance(t, Mapping) and t.get("key") == GPU_TOLERATION_KEY and t.get("effect") == "NoSchedule":
            return
    tolerations.append({"key": GPU_TOLERATION_KEY, "operator": "Exists", "effect": "NoSchedule"})


def add_container_claim(container: dict[str, Any], name: str = CLAIM_NAME) -> None:
    res = container.get("resources")
    if not isinstance(res, dict):
        res = container["resources"] = {}
    claims = res.setdefault("claims", [])
    if not any(isinstance(c, Mapping) and c.get("name") == name for c in claims):
        claims.append({"name": name})


def apply_claim(pod: dict[str, Any], claim_template_name: str, path: tuple[str | int, ...] = ()) -> None:
    """``ApplyClaim``: the first container's GPUs become the shared claim, the GPU toleration is added and
    the pod's ``resourceClaims`` entry points at the component's ResourceClaimTemplate."""
    containers = pod.get("containers") or []
    if not containers:
        raise RenderError.at("failed to apply DRA claim for GMS: pod spec must have at least one container for "
                             "DRA claim", path, rule=RULE_DRA_CLAIM)
    first = containers[0]
    strip_container_gpus(first)
    add_container_claim(first)
    add_gpu_toleration(pod)
    set_pod_claim(pod, claim_template_name)


def set_pod_claim(pod: dict[str, Any], claim_template_name: str) -> None:
    """The pod's shared-GPU ``resourceClaims`` entry: one of that name replaced where it stands, else appended
    (``ApplyClaim``, ``ensureCheckpointGMSPodClaim``)."""
    claim = {"name": CLAIM_NAME, "resourceClaimTemplateName": claim_template_name}
    claims = pod.setdefault("resourceClaims", [])
    for i, c in enumerate(claims):
        if isinstance(c, Mapping) and c.get("name") == CLAIM_NAME:
            claims[i] = claim
            return
    claims.append(claim)


def claim_template_name(parent: str, component: str) -> str:
    """``ResourceClaimTemplateName``: ``<parent>-<component, lower case>-gpu``."""
    return f"{parent}-{component.lower()}-gpu"


def device_class(spec: Mapping[str, Any] | None) -> str:
    name = (spec or {}).get("deviceClassName")
    return str(name) if name else DEFAULT_DEVICE_CLASS


def device_request(name: str, device_class_name: str, count: int) -> dict[str, Any]:
    return {"name": name, "exactly": {"deviceClassName": device_class_name, "allocationMode": "ExactCount",
                                      "count": count}}


def resource_claim_template(name: str, namespace: str, count: int, device_class_name: str,
                            options: RenderOptions, path: tuple[str | int, ...] = ()) -> dict[str, Any] | None:
    """``GenerateResourceClaimTemplate``: None for no GPUs (the operator deletes such a template); a
    DeviceClass the cluster does not hold is refused."""
    if count <= 0:
        return None
    if device_class_name not in options.dra_device_classes:
        raise RenderError.at(
            f"DeviceClass {go_quote(device_class_name)} not found: ensure the GPU DRA driver is installed and the "
            "device class is registered", path, rule=RULE_DRA_CLAIM,
        )
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"metadata": {}, "spec": {"devices": {"requests": [device_request("gpus", device_class_name, count)]}}},
    }


def dgd_claim_templates(dgd: Mapping[str, Any], namespace: str, options: RenderOptions) -> list[dict[str, Any]]:
    """The ResourceClaimTemplates of a DGD's GMS components (``dgdGMSResourceClaimsReconciler``), in
    component order; DRA unavailable is refused (:func:`check_dra_gate`)."""
    check_dra_gate(dgd, options)
    name = str((dgd.get("metadata") or {}).get("name", ""))
    out: list[dict[str, Any]] = []
    for i, comp in enumerate((dgd.get("spec") or {}).get("components") or []):
        spec = gms_spec(comp) if isinstance(comp, Mapping) else None
        if spec is None:
            continue
        path = ("spec", "components", i)
        component = str(comp.get("name", ""))
        try:
            count = gpu_count(main_container_resources(comp), path)
            rct = resource_claim_template(claim_template_name(name, component), namespace, count, device_class(spec),
                                          options, path + ("experimental", "gpuMemoryService"))
        except RenderError as exc:
            whole = "whole number" in str(exc)
            prefix = ("invalid GPU resource requirements for GMS ResourceClaimTemplate for" if whole
                      else "failed to sync GMS ResourceClaimTemplate for")
            raise RenderError.at(f"{prefix} {component}: {exc}", path, rule=RULE_DRA_CLAIM) from exc
        if rct is not None:
            out.append(rct)
    return out
