"""DGD-level objects beside the workloads: discovery RBAC, wait-leader ConfigMap, model headless
Services, EPP ConfigMap and InferencePool.

Upstream: ``internal/discovery/resource.go``, ``dgd_wait_for_leader_reconciler.go``,
``internal/dynamo/model_service.go``, ``internal/dynamo/epp/{config,inference_pool}.go``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import (
    ANN_BASE_MODEL,
    LABEL_BASE_MODEL_HASH,
    LABEL_COMPONENT,
    LABEL_COMPONENT_TYPE,
    LABEL_MANAGED_BY,
)
from ._errors import RenderError
from ._graph import LABEL_COMPONENT_CLASS, LABEL_DGD_NAME, LABEL_NAMESPACE
from ._names import (
    compute_dynamo_namespace,
    dcd_name,
    discovery_label_value,
    discovery_service_account,
    epp_configmap_name,
    inference_pool_name,
    model_hash,
    model_service_name,
    node_count,
    normalize_kube_name,
    wait_leader_configmap_name,
)
from ._waitleader import WAIT_FOR_LEADER_SCRIPT

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def discovery_rbac(dgd_name: str, namespace: str) -> list[dict[str, Any]]:
    name = discovery_service_account(dgd_name)
    labels = {
        "app.kubernetes.io/managed-by": "dynamo-operator",
        "app.kubernetes.io/component": "rbac",
        "app.kubernetes.io/name": discovery_label_value(name),
    }
    role = name + "-role"
    return [
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)}},
        {
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": role, "namespace": namespace, "labels": dict(labels)},
            "rules": [
                {"apiGroups": [""], "resources": ["endpoints", "pods"], "verbs": ["get", "list", "watch"]},
                {"apiGroups": ["discovery.k8s.io"], "resources": ["endpointslices"], "verbs": ["get", "list", "watch"]},
                {"apiGroups": ["nvidia.com"], "resources": ["dynamoworkermetadatas"],
                 "verbs": ["create", "get", "list", "watch", "update", "patch", "delete"]},
            ],
        },
        {
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": name + "-binding", "namespace": namespace, "labels": dict(labels)},
            "subjects": [{"kind": "ServiceAccount", "name": name, "namespace": namespace}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": role},
        },
    ]


def wait_leader_configmap(dgd_name: str, namespace: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": wait_leader_configmap_name(dgd_name), "namespace": namespace, "labels": {LABEL_DGD_NAME: dgd_name}},
        "data": {"wait-for-leader.py": WAIT_FOR_LEADER_SCRIPT},
    }


def has_multinode(dgd: Mapping[str, Any]) -> bool:
    return any(node_count(c) > 1 for c in (dgd.get("spec") or {}).get("components") or [])


def model_service(model: str, namespace: str, annotations: Mapping[str, str]) -> dict[str, Any]:
    """``model_service.go`` ``generateHeadlessServiceForModel``: the headless Service of one base model."""
    h = model_hash(model)
    ann = dict(annotations)
    ann[ANN_BASE_MODEL] = model
    return {
        "apiVersion": "v1", "kind": "Service",
        "metadata": {
            "name": model_service_name(model), "namespace": namespace,
            "labels": {LABEL_BASE_MODEL_HASH: h, LABEL_MANAGED_BY: "dynamo-operator"},
            "annotations": ann,
        },
        "spec": {
            "clusterIP": "None",
            "selector": {LABEL_BASE_MODEL_HASH: h},
            "publishNotReadyAddresses": False,
            "ports": [{"name": "system", "port": 9090, "targetPort": 9090, "protocol": "TCP"}],
        },
    }


def model_services(dgd: Mapping[str, Any], namespace: str) -> list[dict[str, Any]]:
    """``ReconcileModelServicesForComponents`` with the DGD as the owner (the Grove pathway's stable
    resources): one Service per distinct ``modelRef.name`` (sorted by model name for stable output),
    annotated with the DGD's ``spec.annotations``."""
    spec = dgd.get("spec") or {}
    models = sorted({str((c.get("modelRef") or {}).get("name")) for c in spec.get("components") or [] if (c.get("modelRef") or {}).get("name")})
    return [model_service(model, namespace, spec.get("annotations") or {}) for model in models]


def dcd_model_service(dcd: Mapping[str, Any], namespace: str) -> list[dict[str, Any]]:
    """The same reconciler run by the DCD controller for its own component (owner: the DCD, so no DGD
    annotations): the child DCDs of a DGD and a standalone DCD alike."""
    model = ((dcd.get("spec") or {}).get("modelRef") or {}).get("name")
    return [model_service(str(model), namespace, {})] if model else []


def epp_objects(dgd: Mapping[str, Any], namespace: str,
                service_mesh: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """``dgd_epp_reconciler.go``: for the DGD's EPP component (``GetEPPComponent``: the first one), the
    EPP ConfigMap unless the user references one (``epp/config.go`` ``GenerateConfigMap``), then the
    InferencePool (``epp/inference_pool.go``), then, with the Istio gate on, the EPP DestinationRule."""
    from ._eppconfig import config_map_text

    meta = dgd.get("metadata") or {}
    dgd_name = str(meta.get("name", ""))
    out: list[dict[str, Any]] = []
    comps = (dgd.get("spec") or {}).get("components") or []
    i, comp = next(((i, c) for i, c in enumerate(comps) if c.get("type") == "epp"), (-1, None))
    if comp is None:
        return out
    name = str(comp.get("name", ""))
    cfg = comp.get("eppConfig") or {}
    labels = {LABEL_DGD_NAME: dgd_name, LABEL_COMPONENT: name, LABEL_COMPONENT_TYPE: "epp"}
    if cfg.get("configMapRef") is None:
        if cfg.get("config") is None:
            raise RenderError.at(
                "EPP configuration is required: either eppConfig.configMapRef or eppConfig.config must be specified",
                ("spec", "components", i, "eppConfig"), rule="render.epp",
            )
        out.append({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": epp_configmap_name(dgd_name), "namespace": namespace, "labels": dict(labels)},
            "data": {"epp-config-dynamo.yaml": config_map_text(cfg["config"])},
        })
    dyn_ns = compute_dynamo_namespace(bool(comp.get("globalDynamoNamespace")), namespace, dgd_name)
    out.append({
        "apiVersion": "inference.networking.k8s.io/v1", "kind": "InferencePool",
        "metadata": {"name": inference_pool_name(dgd_name), "namespace": namespace, "labels": dict(labels)},
        "spec": {
            "targetPorts": [{"number": 8000}],
            "selector": {"matchLabels": {LABEL_COMPONENT_CLASS: "worker", LABEL_NAMESPACE: dyn_ns}},
            "endpointPickerRef": {"kind": "Service", "name": normalize_kube_name(dcd_name(dgd_name, name, None, "")), "port": {"number": 9002}},
        },
    })
    if mesh_enabled(service_mesh):
        out.append(epp_destination_rule(dcd_name(dgd_name, name, None, ""), namespace, service_mesh or {}))
    return out


def mesh_enabled(mesh: Mapping[str, Any] | None) -> bool:
    """``features.Istio``: ``ServiceMeshConfiguration.IsEnabled`` (provider ``istio``, ``enabled`` not false);
    render has no cluster to detect the DestinationRule API in, so a configured mesh is taken to have it."""
    if not isinstance(mesh, Mapping) or mesh.get("enabled") is False:
        return False
    return mesh.get("provider") == "istio"


#: istio.io/api ``ClientTLSSettings.TLSmode``: the operator's ``tlsMode`` values (anything else is SIMPLE); DISABLE
#: is the enum's zero, which jsonpb (EmitDefaults off) leaves out
_TLS_MODES = {"DISABLE": None, "SIMPLE": "SIMPLE", "ISTIO_MUTUAL": "ISTIO_MUTUAL", "MUTUAL": "MUTUAL"}


def epp_destination_rule(service_name: str, namespace: str, mesh: Mapping[str, Any]) -> dict[str, Any]:
    """``graph.go`` ``GenerateEPPDestinationRule``: the EPP Service's DestinationRule (name and host from the
    normalized Service name), its client TLS from the operator's Istio settings (``tlsMode`` default SIMPLE,
    ``insecureSkipVerify`` default true, the certificate paths only in MUTUAL mode), as the operator's client
    writes it (istio.io/api's jsonpb: camelCase names, zero values left out, the skip-verify wrapper kept)."""
    name = normalize_kube_name(service_name)
    rule: dict[str, Any] = {"apiVersion": "networking.istio.io/v1beta1", "kind": "DestinationRule",
                            "metadata": {"name": name, "namespace": namespace}, "spec": {}}
    istio = mesh.get("istio")
    if mesh.get("provider") != "istio" or not isinstance(istio, Mapping):
        return rule
    mode = _TLS_MODES.get(str(istio.get("tlsMode") or ""), "SIMPLE")
    skip = istio.get("insecureSkipVerify")
    tls: dict[str, Any] = {} if mode is None else {"mode": mode}
    if mode == "MUTUAL":
        for key in ("clientCertificate", "privateKey", "caCertificates"):
            if istio.get(key):
                tls[key] = str(istio[key])
    tls["insecureSkipVerify"] = True if skip is None else bool(skip)
    rule["spec"] = {"host": f"{name}.{namespace}.svc.cluster.local", "trafficPolicy": {"tls": tls}}
    return rule


def scaling_adapters(dgd: Mapping[str, Any], namespace: str) -> list[dict[str, Any]]:
    """One DynamoGraphDeploymentScalingAdapter per component with ``scalingAdapter`` set
    (``dgd_scaling_adapters_reconciler.go``); replicas seeded from the component on create."""
    dgd_name = str((dgd.get("metadata") or {}).get("name", ""))
    out = []
    for comp in (dgd.get("spec") or {}).get("components") or []:
        if comp.get("scalingAdapter") is None:
            continue
        name = str(comp.get("name", ""))
        replicas = comp.get("replicas")
        out.append({
            "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentScalingAdapter",
            "metadata": {"name": f"{dgd_name}-{name.lower()}", "namespace": namespace,
                         "labels": {LABEL_DGD_NAME: dgd_name, LABEL_COMPONENT: name}},
            "spec": {"replicas": 1 if replicas is None else int(replicas), "dgdRef": {"name": dgd_name, "componentName": name}},
        })
    return out


def frontend_ingress(resource_name: str, dgd_name: str, namespace: str, options: Any) -> list[dict[str, Any]]:
    """``GenerateComponentIngress`` / ``GenerateComponentVirtualService`` with the default ingress
    spec of the parent DGD (host ``<dgd>.<suffix or local>``)."""
    name = normalize_kube_name(resource_name)
    host = f"{dgd_name}.{options.ingress_host_suffix or 'local'}"
    out: list[dict[str, Any]] = []
    if options.ingress_controller_class_name:
        spec: dict[str, Any] = {
            "ingressClassName": options.ingress_controller_class_name,
            "rules": [{"host": host, "http": {"paths": [{
                "path": "/", "pathType": "Prefix",
                "backend": {"service": {"name": name, "port": {"number": 8000}}},
            }]}}],
        }
        if options.ingress_tls_secret_name:
            spec["tls"] = [{"hosts": [host], "secretName": options.ingress_tls_secret_name}]
        out.append({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": name, "namespace": namespace}, "spec": spec})
    if options.virtual_service_gateway:
        out.append({
            "apiVersion": "networking.istio.io/v1beta1", "kind": "VirtualService",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {
                "hosts": [host], "gateways": [options.virtual_service_gateway],
                "http": [{"match": [{"uri": {"prefix": "/"}}], "route": [{"destination": {"host": name, "port": {"number": 8000}}}]}],
            },
        })
    return out


def component_ingress(resource_name: str, namespace: str, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``GenerateComponentIngress`` / ``GenerateComponentVirtualService`` for an explicit ingress spec
    (a DCD's preserved v1alpha1 ``ingress``): an Ingress when enabled with a controller class, a
    VirtualService when enabled with ``useVirtualService`` and a gateway; host
    ``<hostPrefix><host>.<hostSuffix or local>`` (``getIngressHost``)."""
    if not spec.get("enabled"):
        return []
    name = normalize_kube_name(resource_name)
    host = f"{spec.get('hostPrefix') or ''}{spec.get('host') or ''}.{spec.get('hostSuffix') or 'local'}"
    if spec.get("hostSuffix") == "":
        host = f"{spec.get('hostPrefix') or ''}{spec.get('host') or ''}."
    out: list[dict[str, Any]] = []
    if spec.get("ingressControllerClassName") is not None:
        ing: dict[str, Any] = {
            "ingressClassName": spec["ingressControllerClassName"],
            "rules": [{"host": host, "http": {"paths": [{
                "path": "/", "pathType": "Prefix",
                "backend": {"service": {"name": name, "port": {"number": 8000}}},
            }]}}],
        }
        tls = spec.get("tls")
        if isinstance(tls, Mapping):
            ing["tls"] = [{"hosts": [host], "secretName": tls.get("secretName", "")}]
        out.append({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
                    "metadata": {"name": name, "namespace": namespace}, "spec": ing})
    if spec.get("useVirtualService") and spec.get("virtualServiceGateway") is not None:
        out.append({
            "apiVersion": "networking.istio.io/v1beta1", "kind": "VirtualService",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {
                "hosts": [host], "gateways": [spec["virtualServiceGateway"]],
                "http": [{"match": [{"uri": {"prefix": "/"}}], "route": [{"destination": {"host": name, "port": {"number": 8000}}}]}],
            },
        })
    return out


def dcd_ingress(dcd: Mapping[str, Any], namespace: str, options: Any) -> list[dict[str, Any]]:
    """``dcdIngressSpec`` + ``generateIngress``/``generateVirtualService`` of the DCD controller: the
    preserved v1alpha1 ingress spec when the DCD carries one, else (frontend DCDs of a parent DGD) the
    parent DGD's default ingress spec from the operator configuration."""
    from ._alphacompat import dcd_alpha_spec

    name = str((dcd.get("metadata") or {}).get("name", ""))
    preserved = (dcd_alpha_spec(dcd) or {}).get("ingress")
    if isinstance(preserved, Mapping):
        return component_ingress(name, namespace, preserved)
    if (dcd.get("spec") or {}).get("type") != "frontend":
        return []
    parent = ((dcd.get("metadata") or {}).get("labels") or {}).get("nvidia.com/dynamo-graph-deployment-name")
    if not parent:
        return []
    return frontend_ingress(name, str(parent), namespace, options)
