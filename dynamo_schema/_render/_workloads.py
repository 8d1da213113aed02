"""DCD → Deployment or LeaderWorkerSet, and the component Service (DCD controller).

Upstream: ``internal/controller/dynamocomponentdeployment_controller.go`` and
``dynamocomponentdeployment_renderer.go``; helpers from ``internal/dynamo/v1beta1_helpers.go``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import (
    ANN_BASE_MODEL,
    ANN_ENABLE_METRICS,
    ANN_ORIGIN_VERSION,
    LABEL_BASE_MODEL_HASH,
    LABEL_COMPONENT,
    LABEL_COMPONENT_TYPE,
    LABEL_WORKER_HASH,
)
from .._core._consts import ANN_DISCOVERY_BACKEND as LABEL_DISCOVERY_BACKEND
from .._core._datacopy import deepcopy
from ._alphacompat import dcd_alpha_spec, dcd_preserved_annotations
from ._backend_detect import component_backend
from ._errors import RenderError
from ._graph import LABEL_COMPONENT_CLASS, LABEL_DGD_NAME, LABEL_NAMESPACE
from ._kvtransfer import TOPOLOGY_SOURCE_ANNOTATION_KEYS
from ._names import (
    compute_dynamo_namespace,
    is_worker_type,
    lws_name,
    model_hash,
    node_count,
    normalize_kube_name,
)
from ._options import RenderOptions
from ._pod import generate_pod_spec, is_k8s_discovery
from ._podrequest import PodRequest, pod_template_annotations, pod_template_labels

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

LABEL_SUB_TYPE = "nvidia.com/dynamo-sub-component-type"
LABEL_SELECTOR = "nvidia.com/selector"
LABEL_METRICS = "nvidia.com/metrics-enabled"
LABEL_DISCOVERY_ENABLED = "nvidia.com/dynamo-discovery-enabled"
ANN_MAX_SURGE = "nvidia.com/deployment-rolling-update-max-surge"
ANN_MAX_UNAVAILABLE = "nvidia.com/deployment-rolling-update-max-unavailable"
ANN_DEPLOYMENT_STRATEGY = "nvidia.com/deployment-strategy"
TOPOLOGY_SOURCE_KEYS: tuple[str, ...] = TOPOLOGY_SOURCE_ANNOTATION_KEYS


def _spec(dcd: Mapping[str, Any]) -> dict[str, Any]:
    return dict(dcd.get("spec") or {})


def dcd_component_name(dcd: Mapping[str, Any]) -> str:
    spec = _spec(dcd)
    if spec.get("name"):
        return str(spec["name"])
    labels = (dcd.get("metadata") or {}).get("labels") or {}
    if labels.get(LABEL_COMPONENT):
        return str(labels[LABEL_COMPONENT])
    return str((dcd.get("metadata") or {}).get("name", ""))


def dcd_parent_name(dcd: Mapping[str, Any]) -> str:
    meta = dcd.get("metadata") or {}
    labels = meta.get("labels") or {}
    if labels.get(LABEL_DGD_NAME):
        return str(labels[LABEL_DGD_NAME])
    for ref in meta.get("ownerReferences") or []:
        if ref.get("kind") == "DynamoGraphDeployment" and ref.get("name"):
            return str(ref["name"])
    return ""


_UNSET: Any = object()


def dcd_dynamo_namespace(dcd: Mapping[str, Any], namespace: str, alpha: Any = _UNSET) -> str:
    """``GetDCDDynamoNamespace``: the preserved alpha ``dynamoNamespace``, the label, else computed.
    ``alpha``: ``dcd_alpha_spec(dcd)`` when the caller has it (not changed here)."""
    if alpha is _UNSET:
        alpha = dcd_alpha_spec(dcd)
    if alpha is not None and alpha.get("dynamoNamespace") is not None:
        return str(alpha["dynamoNamespace"])
    labels = (dcd.get("metadata") or {}).get("labels") or {}
    if labels.get(LABEL_NAMESPACE):
        return str(labels[LABEL_NAMESPACE])
    parent = dcd_parent_name(dcd) or str((dcd.get("metadata") or {}).get("name", ""))
    return compute_dynamo_namespace(bool(_spec(dcd).get("globalDynamoNamespace")), namespace, parent)


def dcd_sub_component_type(dcd: Mapping[str, Any], alpha: Any = _UNSET) -> str:
    """``GetDCDSubComponentType``: the v1alpha1 view (a v1beta1 prefill/decode is alpha worker +
    sub-type; a preserved alpha ``subComponentType`` is restored from ``nvidia.com/dcd-spec``)."""
    if alpha is _UNSET:
        alpha = dcd_alpha_spec(dcd)
    if alpha is not None:
        return str(alpha.get("subComponentType") or "")
    t = _spec(dcd).get("type")
    return str(t) if t in ("prefill", "decode") else ""


def dcd_workload_type(dcd: Mapping[str, Any]) -> str:
    spec_type = str(_spec(dcd).get("type") or "")
    labels = (dcd.get("metadata") or {}).get("labels") or {}
    if (
        labels.get(LABEL_DGD_NAME) and labels.get(LABEL_WORKER_HASH)
        and labels.get(LABEL_COMPONENT_TYPE) == "worker" and spec_type in ("prefill", "decode")
        and (labels.get(LABEL_SUB_TYPE) or spec_type) == spec_type  # an empty label counts as absent
    ):
        return "worker"
    return spec_type


def dcd_worker_hash(dcd: Mapping[str, Any]) -> str:
    spec = _spec(dcd)
    if not is_worker_type(spec.get("type")):
        return ""
    labels = (dcd.get("metadata") or {}).get("labels") or {}
    if labels.get(LABEL_WORKER_HASH):
        return str(labels[LABEL_WORKER_HASH])
    return pod_template_labels(spec).get(LABEL_WORKER_HASH, "")


def dcd_kube_labels(dcd: Mapping[str, Any], namespace: str, alpha: Any = _UNSET) -> dict[str, str]:
    """``GetDCDKubeLabels``; ``alpha``: the DCD's v1alpha1 view (``dcd_alpha_spec``) when the caller has it."""
    spec = _spec(dcd)
    object_labels = dict((dcd.get("metadata") or {}).get("labels") or {})
    labels = dict(object_labels)
    if alpha is _UNSET:
        alpha = dcd_alpha_spec(dcd)  # one v1alpha1 view for the three lookups below (read only)
    labels.update(dict((alpha or {}).get("labels") or {}))  # dcd_preserved_labels
    labels.update(pod_template_labels(spec))
    model = (spec.get("modelRef") or {}).get("name")
    if model:
        labels[LABEL_BASE_MODEL_HASH] = model_hash(str(model))
    sub = dcd_sub_component_type(dcd, alpha)
    if sub:
        labels[LABEL_SUB_TYPE] = sub
    name = dcd_component_name(dcd)
    if name:
        labels[LABEL_COMPONENT] = name
    dyn_ns = dcd_dynamo_namespace(dcd, namespace, alpha)
    if dyn_ns:
        labels[LABEL_NAMESPACE] = dyn_ns
    for key in (LABEL_COMPONENT, LABEL_NAMESPACE, LABEL_DGD_NAME, LABEL_WORKER_HASH, LABEL_COMPONENT_CLASS):
        if object_labels.get(key):
            labels[key] = object_labels[key]
    return labels


def dcd_kube_annotations(dcd: Mapping[str, Any], alpha: Any = _UNSET) -> dict[str, str]:
    """``GetDCDKubeAnnotations``: preserved alpha annotations, podTemplate annotations, base model;
    minus the origin version; topology-source keys only from the DCD metadata. ``alpha``: the DCD's
    v1alpha1 view (``dcd_alpha_spec``) when the caller has it."""
    spec = _spec(dcd)
    ann = dcd_preserved_annotations(dcd) if alpha is _UNSET else dict((alpha or {}).get("annotations") or {})
    ann.update(pod_template_annotations(spec))
    model = (spec.get("modelRef") or {}).get("name")
    if model:
        ann[ANN_BASE_MODEL] = str(model)
    ann.pop(ANN_ORIGIN_VERSION, None)
    for key in TOPOLOGY_SOURCE_KEYS:
        ann.pop(key, None)
    meta_ann = (dcd.get("metadata") or {}).get("annotations") or {}
    for key in TOPOLOGY_SOURCE_KEYS:
        if meta_ann.get(key):
            ann[key] = str(meta_ann[key])
    return ann


def dcd_resource_annotations(dcd: Mapping[str, Any]) -> dict[str, str]:
    """``getResourceAnnotations`` (dynamocomponentdeployment_controller.go): the preserved v1alpha1
    annotations, overridden by the pod template's; the Deployment strategy is read from them."""
    ann = dcd_preserved_annotations(dcd)
    ann.update(pod_template_annotations(_spec(dcd)))
    return ann


def dcd_owner_name(dcd: Mapping[str, Any]) -> str:
    """``GetParentGraphDeploymentName``: the owning DGD by owner reference only (not the label)."""
    for ref in (dcd.get("metadata") or {}).get("ownerReferences") or []:
        if ref.get("kind") == "DynamoGraphDeployment":
            return str(ref.get("name") or "")
    return ""


def _pod_template(dcd: Mapping[str, Any], role: str, options: RenderOptions, namespace: str,
                  owner: str | None = None) -> dict[str, Any]:
    spec = deepcopy(_spec(dcd))
    workload_type = dcd_workload_type(dcd)
    labels = dcd_kube_labels(dcd, namespace)
    annotations = dcd_kube_annotations(dcd)
    kube_name = str((dcd.get("metadata") or {}).get("name", ""))
    if annotations.get(ANN_ENABLE_METRICS) != "false":
        labels[LABEL_METRICS] = "true"
    parent = dcd_parent_name(dcd)
    if parent:
        labels[LABEL_DGD_NAME] = parent
    if workload_type:
        labels[LABEL_COMPONENT_TYPE] = workload_type
    labels[LABEL_COMPONENT] = dcd_component_name(dcd)
    labels[LABEL_NAMESPACE] = dcd_dynamo_namespace(dcd, namespace)
    obj_hash = ((dcd.get("metadata") or {}).get("labels") or {}).get(LABEL_WORKER_HASH)
    if obj_hash:
        labels[LABEL_WORKER_HASH] = obj_hash

    component = spec
    if workload_type:
        component["type"] = workload_type
    wh = dcd_worker_hash(dcd)
    if wh and is_worker_type(workload_type):
        pt = component.setdefault("podTemplate", {})
        pt.setdefault("metadata", {}).setdefault("labels", {})[LABEL_WORKER_HASH] = wh
    backend = component_backend(_spec(dcd), _spec(dcd).get("backendFramework"), ("spec",))
    # GenerateBasePodSpecForController: the pod's parent (DYN_PARENT_DGD_K8S_NAME, the Dynamo namespace
    # of its env, the discovery ServiceAccount, the EPP pool) is the owner reference, else the DCD itself
    owner = dcd_owner_name(dcd) if owner is None else owner
    pod = generate_pod_spec(PodRequest(
        component=component,
        component_type=workload_type,
        backend=backend,
        dgd_name=owner or kube_name,
        namespace=namespace,
        role=role,
        nodes=node_count(component),
        deployer="lws",
        service_name=dcd_component_name(dcd),
        options=options,
        path=("spec",),
    ))
    labels[LABEL_SELECTOR] = kube_name
    if is_k8s_discovery(options.discovery_backend, annotations):
        labels[LABEL_DISCOVERY_BACKEND] = "kubernetes"
        labels[LABEL_DISCOVERY_ENABLED] = "true"
    if not pod.get("serviceAccountName"):
        pod["serviceAccountName"] = "default"
    meta: dict[str, Any] = {"labels": labels}
    if annotations:
        meta["annotations"] = annotations
    return {"metadata": meta, "spec": pod}


def _intorstr(value: str) -> Any:
    return int(value) if value.isdigit() else value


def render_deployment(dcd: Mapping[str, Any], options: RenderOptions, namespace: str,
                      owner: str | None = None) -> dict[str, Any]:
    name = str((dcd.get("metadata") or {}).get("name", ""))
    labels = dcd_kube_labels(dcd, namespace)
    annotations = dcd_kube_annotations(dcd)
    template = _pod_template(dcd, "main", options, namespace, owner)
    max_surge = _intorstr(annotations.get(ANN_MAX_SURGE) or "25%")
    max_unavailable = _intorstr(annotations.get(ANN_MAX_UNAVAILABLE) or "25%")
    meta: dict[str, Any] = {"name": name, "namespace": namespace, "labels": labels}
    if annotations:
        meta["annotations"] = annotations
    spec: dict[str, Any] = {}
    if _spec(dcd).get("replicas") is not None:
        spec["replicas"] = _spec(dcd)["replicas"]
    spec["selector"] = {"matchLabels": {LABEL_SELECTOR: name}}
    spec["template"] = template
    spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": max_surge, "maxUnavailable": max_unavailable}}
    # deploymentStrategyFromAnnotations reads getResourceAnnotations.
    if dcd_resource_annotations(dcd).get(ANN_DEPLOYMENT_STRATEGY) == "Recreate":
        spec["strategy"] = {"type": "Recreate"}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec}


def lws_main_container_problem(pod: Mapping[str, Any]) -> str | None:
    """``checkMainContainer`` (dynamocomponentdeployment_controller.go): a LeaderWorkerSet pod needs a
    ``main`` container with a command and arguments (an image entrypoint cannot be wrapped for the roles);
    the operator's words for what is missing, None when nothing is."""
    containers = pod.get("containers") or []
    if not containers:
        return "No containers found in pod spec"
    main = next((c for c in containers if c.get("name") == "main"), None)
    if main is None:
        return "main container not found in pod spec"
    if not main.get("command"):
        return "container Command cannot be nil for LWS pod"
    if not main.get("args"):
        return "container Args cannot be empty for LWS pod"
    return None


def render_lws(dcd: Mapping[str, Any], options: RenderOptions, namespace: str, owner: str | None = None) -> dict[str, Any]:
    name = str((dcd.get("metadata") or {}).get("name", ""))
    pod_labels = dcd_kube_labels(dcd, namespace)
    wt = dcd_workload_type(dcd)
    if wt:
        pod_labels[LABEL_COMPONENT_TYPE] = wt
        st = str(_spec(dcd).get("type") or "")
        if wt == "worker" and st in ("prefill", "decode") and not pod_labels.get(LABEL_SUB_TYPE):
            pod_labels[LABEL_SUB_TYPE] = st
    templates = {}
    for role in ("leader", "worker"):
        t = _pod_template(dcd, role, options, namespace, owner)
        t["metadata"]["labels"].update(pod_labels)
        t["metadata"]["labels"]["role"] = role
        t["metadata"]["labels"].pop(LABEL_SELECTOR, None)
        # generateLeader/WorkerPodTemplateSpec's check (also when intra-pod failover renamed it engine-0);
        # the operator's innermost message, as for the other reconcile failures
        problem = lws_main_container_problem(t["spec"])
        if problem:
            raise RenderError.at(problem, ("spec", "podTemplate", "spec", "containers"), rule="render.lws-main-container")
        templates[role] = t
    replicas = _spec(dcd).get("replicas")
    spec = {
        "replicas": 1 if replicas is None else replicas,
        "startupPolicy": "LeaderCreated",
        "leaderWorkerTemplate": {
            "leaderTemplate": templates["leader"],
            "workerTemplate": templates["worker"],
            "size": node_count(_spec(dcd)),
        },
    }
    return {
        "apiVersion": "leaderworkerset.x-k8s.io/v1",
        "kind": "LeaderWorkerSet",
        "metadata": {"name": lws_name(name), "namespace": namespace, "labels": dcd_kube_labels(dcd, namespace)},
        "spec": spec,
    }


def component_service(
    service_name: str, namespace: str, component_type: str, dynamo_namespace: str, component_name: str,
    labels: Mapping[str, str], annotations: Mapping[str, str], k8s_discovery: bool,
) -> dict[str, Any]:
    """``GenerateComponentService``."""
    if component_type == "frontend":
        port: dict[str, Any] = {"name": "http", "port": 8000, "targetPort": "http", "protocol": "TCP"}
    elif component_type == "epp":
        port = {"name": "grpc", "port": 9002, "targetPort": 9002, "protocol": "TCP", "appProtocol": "http2"}
    else:
        port = {"name": "system", "port": 9090, "targetPort": "system", "protocol": "TCP"}
    svc_labels = dict(labels)
    if k8s_discovery:
        svc_labels[LABEL_DISCOVERY_BACKEND] = "kubernetes"
        svc_labels[LABEL_DISCOVERY_ENABLED] = "true"
    meta: dict[str, Any] = {"name": normalize_kube_name(service_name), "namespace": namespace}
    if svc_labels:
        meta["labels"] = svc_labels
    if annotations:
        meta["annotations"] = dict(annotations)
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": meta,
        "spec": {
            "selector": {LABEL_COMPONENT_TYPE: component_type, LABEL_NAMESPACE: dynamo_namespace, LABEL_COMPONENT: component_name},
            "ports": [port],
        },
    }


def render_dcd_service(dcd: Mapping[str, Any], options: RenderOptions, namespace: str) -> dict[str, Any] | None:
    annotations = dcd_kube_annotations(dcd)
    k8s = is_k8s_discovery(options.discovery_backend, annotations)
    if not (k8s or _spec(dcd).get("type") == "frontend"):
        return None
    svc = component_service(
        str((dcd.get("metadata") or {}).get("name", "")), namespace, dcd_workload_type(dcd),
        dcd_dynamo_namespace(dcd, namespace), dcd_component_name(dcd), dcd_kube_labels(dcd, namespace), annotations, k8s,
    )
    if node_count(_spec(dcd)) > 1:
        svc["spec"]["selector"]["role"] = "leader"
    return svc


def render_dcd_workloads(dcd: Mapping[str, Any], options: RenderOptions, namespace: str,
                         owner: str | None = None) -> list[dict[str, Any]]:
    """Deployment (or LWS for multinode with the LWS gate on), then the Service. ``owner``: the DGD
    that owns a generated DCD (the operator's owner reference); None reads the DCD's own references."""
    out: list[dict[str, Any]] = []
    if options.lws_enabled and node_count(_spec(dcd)) > 1:
        out.append(render_lws(dcd, options, namespace, owner))
    else:
        out.append(render_deployment(dcd, options, namespace, owner))
    svc = render_dcd_service(dcd, options, namespace)
    if svc is not None:
        out.append(svc)
    return out
