"""DGD → DCD generation and the DGD template defaults it applies.

Upstream: ``graph.go`` ``GenerateDynamoComponentsDeployments``/``generateSingleDCD``/
``applyDGDTemplateDefaults``. Admission as rendering needs it is ``_admit.py``, the backend framework
``_backend_detect.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import (
    ANN_DISCOVERY_BACKEND,
    ANN_DISCOVERY_MODE,
    ANN_ENABLE_METRICS,
    ANN_ORIGIN_VERSION,
    ANN_VLLM_BACKEND,
    LABEL_COMPONENT,
    LABEL_WORKER_HASH,
)
from .._core._datacopy import deepcopy
from . import _kvtransfer as kv
from ._backend_detect import backend_for_generated_dcds
from ._envmerge import merge_envs, merge_low_priority
from ._names import compute_dynamo_namespace, dcd_name, is_worker_type

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

LABEL_NAMESPACE = "nvidia.com/dynamo-namespace"
LABEL_DGD_NAME = "nvidia.com/dynamo-graph-deployment-name"
LABEL_COMPONENT_CLASS = "nvidia.com/dynamo-component-class"
ANN_ISTIO_INJECT = "sidecar.istio.io/inject"
PROPAGATED_DGD_ANNOTATIONS = (
    ANN_ENABLE_METRICS,
    ANN_DISCOVERY_BACKEND,
    ANN_DISCOVERY_MODE,
    ANN_ORIGIN_VERSION,
    ANN_VLLM_BACKEND,
)



# ---------------------------------------------------------------- template defaults


def ensure_pod_template(component: dict[str, Any]) -> dict[str, Any]:
    pt = component.get("podTemplate")
    if not isinstance(pt, dict):
        pt = component["podTemplate"] = {}
    meta = pt.setdefault("metadata", {})
    if meta.get("labels") is None:
        meta["labels"] = {}
    if meta.get("annotations") is None:
        meta["annotations"] = {}
    return pt


def ensure_main_container(pt: dict[str, Any]) -> dict[str, Any]:
    spec = pt.setdefault("spec", {})
    containers = spec.get("containers")
    if not isinstance(containers, list):
        containers = spec["containers"] = []
    c: dict[str, Any]
    for c in containers:
        if c.get("name") == "main":
            return c
    main: dict[str, Any] = {"name": "main"}
    containers.insert(0, main)
    return main


def has_epp(dgd: Mapping[str, Any]) -> bool:
    return any(c.get("type") == "epp" for c in (dgd.get("spec") or {}).get("components") or [])


def propagate_dgd_annotations(dgd: Mapping[str, Any], component: dict[str, Any]) -> None:
    pt = ensure_pod_template(component)
    dgd_ann = (dgd.get("metadata") or {}).get("annotations") or {}
    for key in PROPAGATED_DGD_ANNOTATIONS:
        if key in dgd_ann and key not in pt["metadata"]["annotations"]:
            pt["metadata"]["annotations"][key] = dgd_ann[key]


def apply_dgd_template_defaults(
    component: dict[str, Any], dgd: Mapping[str, Any], topology_domains: list[str] | None = None,
) -> None:
    """``applyDGDTemplateDefaults``: graph env, kvTransferPolicy (workers), DGD annotation
    propagation, DGD spec metadata as low priority (graph env and the kvTransferPolicy env and mount go
    to ``main``)."""
    spec = dgd.get("spec") or {}
    if spec.get("env"):
        pt = ensure_pod_template(component)
        main = ensure_main_container(pt)
        main["env"] = merge_envs(spec["env"], main.get("env"))
    if kv.applies_to(component, dgd):
        kvt = kv.kv_transfer_policy(dgd) or {}
        pt = ensure_pod_template(component)
        kv.apply_to_container(ensure_main_container(pt), kvt)
        kv.apply_volume(pt.setdefault("spec", {}), kvt, topology_domains)
    propagate_dgd_annotations(dgd, component)
    pt = ensure_pod_template(component)
    pt["metadata"]["annotations"] = merge_low_priority(pt["metadata"]["annotations"], spec.get("annotations")) or {}
    pt["metadata"]["labels"] = merge_low_priority(pt["metadata"]["labels"], spec.get("labels")) or {}


def prune_empty_metadata(component: dict[str, Any]) -> None:
    """Go omits empty label/annotation maps and an empty podTemplate metadata."""
    pt = component.get("podTemplate")
    if not isinstance(pt, dict):
        return
    meta = pt.get("metadata")
    if isinstance(meta, dict):
        for key in ("labels", "annotations"):
            if key in meta and not meta[key]:
                del meta[key]
        if not meta:
            del pt["metadata"]


def _typed_epp_config(comp: dict[str, Any], type_meta: bool) -> None:
    """The child DCD's ``eppConfig.config`` is the operator's typed config (``_eppconfig``), stamped
    with the ``TypeMeta`` the EPP reconciler set when it wrote the ConfigMap from it."""
    cfg = comp.get("eppConfig")
    if isinstance(cfg, dict) and isinstance(cfg.get("config"), Mapping):
        from ._eppconfig import typed_config

        cfg["config"] = typed_config(cfg["config"], type_meta=type_meta)


def generate_dcds(
    dgd: Mapping[str, Any], worker_hash: str, namespace: str, *, alpha_compat: bool = True,
) -> list[dict[str, Any]]:
    """DGD → child DCDs, in ``spec.components`` order (``generateSingleDCD``).

    ``alpha_compat=False``: without ``applyDGDComponentAlphaCompatibilityToDCD``'s annotations (the
    ``nvidia.com/dcd-spec`` payload), for the worker hash input, which takes the DCDs' v1alpha1
    metadata from the DGD's view instead (``_workerhash.generated_worker_dcds``)."""
    from .._k8s._golayout import prune_omitempty
    from ._alphacompat import dcd_compat_annotations
    from ._depconfig import apply_dyn_deployment_config
    from ._eppconfig import stamps_type_meta
    from ._gms import check_extra_clients

    backend = backend_for_generated_dcds(dgd)
    meta = dgd.get("metadata") or {}
    dgd_name = str(meta.get("name", ""))
    spec = dgd.get("spec") or {}
    epp = has_epp(dgd)
    first_epp = next((c for c in spec.get("components") or [] if c.get("type") == "epp"), None)
    out: list[dict[str, Any]] = []
    for i, comp_in in enumerate(spec.get("components") or []):
        name = str(comp_in.get("name", ""))
        check_extra_clients(comp_in, name, ("spec", "components", i))  # before any child DCD is written
        comp = deepcopy(comp_in)
        ctype = str(comp.get("type") or "")
        resource_name = dcd_name(dgd_name, name, ctype, worker_hash)
        # applyDGDComponentAlphaCompatibilityToDCD, then the topology-source keys are dropped
        annotations = dcd_compat_annotations(dgd, name, resource_name, namespace, backend) if alpha_compat else {}
        for key in kv.TOPOLOGY_SOURCE_ANNOTATION_KEYS:
            annotations.pop(key, None)
        dyn_ns = compute_dynamo_namespace(bool(comp.get("globalDynamoNamespace")), namespace, dgd_name)
        labels: dict[str, str] = {}
        labels.update(((comp.get("podTemplate") or {}).get("metadata") or {}).get("labels") or {})
        labels[LABEL_COMPONENT] = name
        labels[LABEL_NAMESPACE] = dyn_ns
        labels[LABEL_DGD_NAME] = dgd_name
        if is_worker_type(ctype):
            labels[LABEL_WORKER_HASH] = worker_hash
            pt = ensure_pod_template(comp)
            pt["metadata"]["labels"][LABEL_WORKER_HASH] = worker_hash
            if epp:
                labels[LABEL_COMPONENT_CLASS] = "worker"
                pt["metadata"]["labels"][LABEL_COMPONENT_CLASS] = "worker"
        if ctype == "epp":
            pt = ensure_pod_template(comp)
            pt["metadata"]["annotations"].setdefault(ANN_ISTIO_INJECT, "false")
        _typed_epp_config(comp, first_epp is not None and comp_in is first_epp and stamps_type_meta(first_epp))
        apply_dgd_template_defaults(comp, dgd, None)  # no topology domains for DCDs (Grove only)
        if kv.applies_to(comp, dgd):
            kv.apply_topology_annotations(annotations, kv.kv_transfer_policy(dgd))
        if ctype == "planner":
            ensure_pod_template(comp).setdefault("spec", {})["serviceAccountName"] = "planner-serviceaccount"
        prune_empty_metadata(comp)
        dcd_spec: dict[str, Any] = {}
        if backend:
            dcd_spec["backendFramework"] = backend
        dcd_spec.update(comp)
        # the operator builds the child DCD from the typed DGD: Go's omitempty drops zero-valued fields
        # the stored DGD spells out (experimental.grove.forceScalingGroup: false…)
        dcd_spec = prune_omitempty(dcd_spec, "DynamoComponentDeploymentSpec")
        dcd_meta: dict[str, Any] = {"name": resource_name, "namespace": namespace, "labels": labels}
        if annotations:
            dcd_meta["annotations"] = annotations
        dcd = {
            "apiVersion": "nvidia.com/v1beta1",
            "kind": "DynamoComponentDeployment",
            "metadata": dcd_meta,
            "spec": dcd_spec,
        }
        apply_dyn_deployment_config(dcd)
        out.append(dcd)
    return out
