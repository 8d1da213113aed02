"""Pod spec assembly (``GenerateBasePodSpec``) and per-type container defaults.

Behaviour follows ``rendering.md`` §5–§6 and upstream ``deploy/operator/internal/dynamo/graph.go``,
``component_{common,frontend,worker,planner,epp}.go``, ``shared_memory.go``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import ANN_DISCOVERY_BACKEND, ANN_DISCOVERY_MODE, LABEL_WORKER_HASH
from .._core._datacopy import deepcopy
from .._core._record import Record
from .._k8s._quantity import quantity_is_zero
from . import _backends, _failover, _gms
from ._envmerge import merge_envs, mergo_override
from ._errors import RenderError
from ._names import (
    compute_dynamo_namespace,
    discovery_service_account,
    epp_configmap_name,
    inference_pool_name,
    is_worker_type,
)
from ._options import RenderOptions
from ._podrequest import MAIN, PodRequest, main_container, pod_template_annotations, pod_template_labels

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

DEFAULT_SHM = "8Gi"
PLANNER_SA = "planner-serviceaccount"
EPP_SA = "epp-serviceaccount"
VLLM_CACHE_DEFAULT = "/root/.cache/vllm"


class Ctx(Record):
    """A value with a dataclass's constructor, equality and repr, written out
    (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("dynamo_namespace", "component_type", "dgd_name", "namespace",
                                            "discovery_backend", "discovery_mode", "worker_hash", "eppconfig")
    dynamo_namespace: str
    component_type: str
    dgd_name: str
    namespace: str
    discovery_backend: str
    discovery_mode: str
    worker_hash: str
    eppconfig: Any

    def __init__(self, dynamo_namespace: str, component_type: str, dgd_name: str, namespace: str,
                 discovery_backend: str, discovery_mode: str, worker_hash: str, eppconfig: Any = None) -> None:
        self.dynamo_namespace = dynamo_namespace
        self.component_type = component_type
        self.dgd_name = dgd_name
        self.namespace = namespace
        self.discovery_backend = discovery_backend
        self.discovery_mode = discovery_mode
        self.worker_hash = worker_hash
        self.eppconfig = eppconfig


def discovery_backend(default: str, annotations: Mapping[str, str]) -> str:
    # controller_common/predicate.go GetDiscoveryBackend: the annotation wins whenever it is set, whatever
    # its value ("" or an unknown one included: then neither Kubernetes discovery nor etcd)
    if ANN_DISCOVERY_BACKEND in annotations:
        value = annotations[ANN_DISCOVERY_BACKEND]
        return "" if value is None else str(value)
    return default


def is_k8s_discovery(default: str, annotations: Mapping[str, str]) -> bool:
    return discovery_backend(default, annotations) == "kubernetes"


def _fieldref(name: str, path: str) -> dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": path}}}


def _http_probe(path: str, port: str, **timing: int) -> dict[str, Any]:
    probe: dict[str, Any] = {"httpGet": {"path": path, "port": port}}
    probe.update(timing)
    return probe


def _grpc_probe(**timing: int) -> dict[str, Any]:
    probe: dict[str, Any] = {"grpc": {"port": 9003, "service": "inference-extension"}}
    probe.update(timing)
    return probe


def common_container(ctx: Ctx) -> dict[str, Any]:
    env: list[dict[str, Any]] = [
        {"name": "DYN_NAMESPACE", "value": ctx.dynamo_namespace},
        {"name": "DYN_COMPONENT", "value": ctx.component_type},
        {"name": "DYN_PARENT_DGD_K8S_NAME", "value": ctx.dgd_name},
        {"name": "DYN_PARENT_DGD_K8S_NAMESPACE", "value": ctx.namespace},
        _fieldref("POD_NAME", "metadata.name"),
        _fieldref("POD_NAMESPACE", "metadata.namespace"),
        _fieldref("POD_UID", "metadata.uid"),
    ]
    if ctx.discovery_backend != "etcd":
        env.append({"name": "DYN_DISCOVERY_BACKEND", "value": "kubernetes"})
    if ctx.discovery_mode == "container":
        env.append({"name": "CONTAINER_NAME", "value": MAIN})
        env.append({"name": "DYN_KUBE_DISCOVERY_MODE", "value": "container"})
    return {"name": MAIN, "command": ["/bin/sh", "-c"], "env": env}


def base_container(ctx: Ctx) -> dict[str, Any]:
    c = common_container(ctx)
    t = ctx.component_type
    if t == "frontend":
        c["command"] = ["python3"]
        c["args"] = ["-m", "dynamo.frontend"]
        c["ports"] = [{"protocol": "TCP", "name": "http", "containerPort": 8000}]
        c["livenessProbe"] = _http_probe("/live", "http", initialDelaySeconds=15, periodSeconds=10, timeoutSeconds=1, failureThreshold=3)
        c["readinessProbe"] = _http_probe("/health", "http", initialDelaySeconds=10, periodSeconds=10, timeoutSeconds=3, failureThreshold=3)
        c["env"] += [
            {"name": "DYNAMO_PORT", "value": "8000"},
            {"name": "DYN_HTTP_PORT", "value": "8000"},
            {"name": "DYN_NAMESPACE_PREFIX", "value": ctx.dynamo_namespace},
        ]
    elif is_worker_type(t):
        c["ports"] = [
            {"protocol": "TCP", "name": "system", "containerPort": 9090},
            {"protocol": "TCP", "name": "nixl", "containerPort": 19090},
        ]
        # component_worker.go GetBaseContainer: liveness failure 1 and DYN_HEALTH_CHECK_ENABLED "false" for
        # every runtime version (no runtime-version gate acts at the reference revision; docs/decisions.md D37)
        c["livenessProbe"] = _http_probe("/live", "system", periodSeconds=5, timeoutSeconds=4, failureThreshold=1)
        c["readinessProbe"] = _http_probe("/health", "system", periodSeconds=10, timeoutSeconds=4, failureThreshold=3)
        c["startupProbe"] = _http_probe("/live", "system", periodSeconds=10, timeoutSeconds=5, failureThreshold=720)
        c["env"] += [
            {"name": "DYN_SYSTEM_ENABLED", "value": "true"},
            {"name": "DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS", "value": '["generate"]'},
            {"name": "DYN_SYSTEM_PORT", "value": "9090"},
            {"name": "DYN_HEALTH_CHECK_ENABLED", "value": "false"},
            {"name": "NIXL_TELEMETRY_ENABLE", "value": "n"},
            {"name": "NIXL_TELEMETRY_EXPORTER", "value": "prometheus"},
            {"name": "NIXL_TELEMETRY_PROMETHEUS_PORT", "value": "19090"},
            {"name": "DYN_FORWARDPASS_METRIC_PORT", "value": "20380"},
        ]
        if ctx.worker_hash:
            c["env"].append({"name": "DYN_NAMESPACE_WORKER_SUFFIX", "value": ctx.worker_hash})
    elif t == "planner":
        c["ports"] = [
            {"protocol": "TCP", "name": "metrics", "containerPort": 9085},
            {"protocol": "TCP", "name": "system", "containerPort": 9090},
        ]
        c["livenessProbe"] = _http_probe("/live", "system", periodSeconds=5, timeoutSeconds=4, failureThreshold=1)
        c["readinessProbe"] = _http_probe("/health", "system", periodSeconds=10, timeoutSeconds=4, failureThreshold=3)
        c["startupProbe"] = _http_probe("/live", "system", periodSeconds=10, timeoutSeconds=5, failureThreshold=720)
        c["env"] += [
            {"name": "PLANNER_PROMETHEUS_PORT", "value": "9085"},
            {"name": "DYN_SYSTEM_PORT", "value": "9090"},
        ]
    elif t == "epp":
        # component_epp.go GetBaseContainer: one launch contract (the Go EPP, its config file mounted)
        c["ports"] = [
            {"protocol": "TCP", "name": "grpc", "containerPort": 9002},
            {"protocol": "TCP", "name": "grpc-health", "containerPort": 9003},
            {"protocol": "TCP", "name": "metrics", "containerPort": 9090},
        ]
        c["livenessProbe"] = _grpc_probe(initialDelaySeconds=5, periodSeconds=10)
        c["readinessProbe"] = _grpc_probe(initialDelaySeconds=5, periodSeconds=10)
        c["startupProbe"] = _grpc_probe(periodSeconds=10, failureThreshold=180)
        c["env"] += [
            {"name": "USE_STREAMING", "value": "true"},
            {"name": "RUST_LOG", "value": "info"},
            {"name": "DYN_ENFORCE_DISAGG", "value": "false"},
            {"name": "DYN_NAMESPACE_PREFIX", "value": ctx.dynamo_namespace},
        ]
        c["command"] = []
        c["args"] = [
            "--pool-name", inference_pool_name(ctx.dgd_name),
            "--pool-namespace", ctx.namespace,
            "--pool-group", "inference.networking.k8s.io",
            "-v", "4",
            "--zap-encoder", "json",
            "--grpc-port", "9002",
            "--grpc-health-port", "9003",
            "--config-file", "/etc/epp/epp-config-dynamo.yaml",
        ]
        c["volumeMounts"] = [
            {"name": "epp-config", "mountPath": "/etc/epp", "readOnly": True},
            {"name": "hf-cache", "mountPath": "/home/nonroot/.cache"},
        ]
    return c


def base_pod_spec(ctx: Ctx) -> dict[str, Any]:
    spec: dict[str, Any] = {"terminationGracePeriodSeconds": 60, "restartPolicy": "Always"}
    t = ctx.component_type
    if t == "planner":
        spec["serviceAccountName"] = PLANNER_SA
    elif t == "epp":
        spec["serviceAccountName"] = EPP_SA
        spec["terminationGracePeriodSeconds"] = 130
        # epp/config.go GetConfigMapVolumeMount: the user's ConfigMap (and key) when referenced
        name, key = epp_configmap_name(ctx.dgd_name), "epp-config-dynamo.yaml"
        ref = ctx.eppconfig.get("configMapRef") if isinstance(ctx.eppconfig, Mapping) else None
        if isinstance(ref, Mapping):
            name = ref.get("name") or ""
            key = ref.get("key") or key
        spec["volumes"] = [
            {"name": "epp-config", "configMap": {"name": name, "items": [{"key": key, "path": "epp-config-dynamo.yaml"}]}},
            {"name": "hf-cache", "emptyDir": {}},
        ]
    return spec


def merge_container(base: dict[str, Any], user_in: Mapping[str, Any], name: str) -> dict[str, Any]:
    """``mergeContainerByName``: user non-empty fields win, env merged and sorted, probes replaced; the
    container keeps ``name``."""
    # a shallow copy is enough: ``mergo_override`` and ``merge_envs`` copy what they put into ``base``, the
    # probes are copied below, and nothing writes into ``user`` but its name
    user: dict[str, Any] = dict(user_in)
    user["name"] = name
    base_env = base.get("env") or []
    mergo_override(base, user)
    base["env"] = merge_envs(base_env, user.get("env"))
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        if user.get(probe) is not None:
            base[probe] = deepcopy(user[probe])
    base["name"] = name
    return base


def merge_main_container(base: dict[str, Any], user_in: Mapping[str, Any]) -> dict[str, Any]:
    return merge_container(base, user_in, MAIN)


def standard_env(options: RenderOptions) -> list[dict[str, str]]:
    env = []
    if options.nats_address:
        env.append({"name": "NATS_SERVER", "value": options.nats_address})
    if options.etcd_address:
        env.append({"name": "ETCD_ENDPOINTS", "value": options.etcd_address})
    if options.model_express_url:
        env.append({"name": "MODEL_EXPRESS_URL", "value": options.model_express_url})
    if options.prometheus_endpoint:
        env.append({"name": "PROMETHEUS_ENDPOINT", "value": options.prometheus_endpoint})
    return env


def _compilation_cache(container: dict[str, Any], component: Mapping[str, Any], backend: str, path: tuple[str | int, ...]) -> str | None:
    cc = component.get("compilationCache")
    if cc is None:
        return None
    pvc = (cc or {}).get("pvcName") or ""
    if not pvc:
        raise RenderError.at("compilationCache.pvcName is required when compilationCache is set", path + ("compilationCache", "pvcName"))
    mount_path = (cc or {}).get("mountPath") or ""
    if not mount_path:
        mount_path = VLLM_CACHE_DEFAULT if backend == "vllm" else ""
        if not mount_path:
            raise RenderError.at(
                f"compilationCache.mountPath is required for backend framework {backend} (no default available)",
                path + ("compilationCache", "mountPath"),
            )
    mounts: list[dict[str, Any]] = []
    already = False
    for m in container.get("volumeMounts") or []:
        m = dict(m)
        if m.get("name") == pvc and not m.get("mountPath"):
            m["mountPath"] = mount_path
        if m.get("mountPath") != mount_path:
            mounts.append(m)
            continue
        if m.get("name") != pvc:
            raise RenderError.at(f'compilationCache.mountPath "{mount_path}" is already used by volume "{m.get("name")}"', path + ("compilationCache", "mountPath"))
        if m.get("readOnly"):
            raise RenderError.at(f'compilation cache volume "{pvc}" at "{mount_path}" must be writable', path + ("compilationCache",))
        if already:
            continue
        mounts.append(m)
        already = True
    if not already:
        mounts.append({"name": pvc, "mountPath": mount_path})
    container["volumeMounts"] = mounts
    return mount_path


def _compilation_cache_volume(pod: dict[str, Any], component: Mapping[str, Any], path: tuple[str | int, ...]) -> None:
    cc = component.get("compilationCache")
    if cc is None:
        return
    pvc = cc.get("pvcName")
    found = False
    for v in pod.get("volumes") or []:
        if v.get("name") != pvc:
            continue
        src = v.get("persistentVolumeClaim")
        if src is None:
            raise RenderError.at(f'compilation cache volume "{pvc}" must reference PVC "{pvc}"', path + ("compilationCache",))
        if src.get("claimName") != pvc:
            raise RenderError.at(f'compilation cache volume "{pvc}" references PVC "{src.get("claimName")}" instead of "{pvc}"', path + ("compilationCache",))
        if src.get("readOnly"):
            raise RenderError.at(f'compilation cache PVC "{pvc}" must be writable', path + ("compilationCache",))
        if found:
            raise RenderError.at(f'compilation cache volume "{pvc}" is defined more than once', path + ("compilationCache",))
        found = True
    if not found:
        pod.setdefault("volumes", []).append({"name": pvc, "persistentVolumeClaim": {"claimName": pvc}})


def apply_shared_memory(pod: dict[str, Any], main: dict[str, Any], size: Any) -> None:
    if size is not None and quantity_is_zero(size):
        return
    volume = {"name": "shared-memory", "emptyDir": {"medium": "Memory", "sizeLimit": str(size) if size is not None else DEFAULT_SHM}}
    mount = {"name": "shared-memory", "mountPath": "/dev/shm"}
    pod["volumes"] = [v for v in pod.get("volumes") or [] if v.get("name") != "shared-memory"] + [volume]
    main["volumeMounts"] = [
        m for m in main.get("volumeMounts") or [] if m.get("name") != "shared-memory" and m.get("mountPath") != "/dev/shm"
    ] + [mount]


def _append_missing_pvc_volumes(volumes: list[dict[str, Any]], mounts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_name = {v.get("name"): v for v in volumes}
    ordered: list[dict[str, Any]] = []
    seen: set[str] = set()
    for m in mounts:
        name = m.get("name")
        if not name or name in seen:
            continue
        ordered.append(by_name.get(name, {"name": name, "persistentVolumeClaim": {"claimName": name}}))
        seen.add(name)
    for v in volumes:
        if v.get("name") in seen:
            continue
        ordered.append(v)
    return ordered


def _frontend_sidecar(pod: dict[str, Any], name: str, ctx: Ctx, options: RenderOptions, parent_mounts: list[dict[str, Any]], path: tuple[str | int, ...]) -> None:
    containers: list[dict[str, Any]] = pod["containers"]
    for i, c in enumerate(containers):
        if c.get("name") != name:
            continue
        fctx = Ctx(ctx.dynamo_namespace, "frontend", ctx.dgd_name, ctx.namespace, ctx.discovery_backend, ctx.discovery_mode, "")
        base = base_container(fctx)
        base["name"] = name
        base_env = base.get("env") or []
        user = deepcopy(c)
        mergo_override(base, user)
        base["env"] = merge_envs(base_env, user.get("env"))
        base["env"] = merge_envs(standard_env(options), base["env"])
        seen = {m.get("name") for m in base.get("volumeMounts") or []}
        mounts = list(base.get("volumeMounts") or [])
        for m in parent_mounts:
            if m.get("name") in seen:
                continue
            mounts.append(deepcopy(m))
            seen.add(m.get("name"))
        if mounts:
            base["volumeMounts"] = mounts
        containers[i] = base
        return
    raise RenderError.at(f'frontendSidecar "{name}" does not match any podTemplate container', path + ("frontendSidecar",))


def build_context(req: PodRequest) -> Ctx:
    comp = req.component
    annotations = pod_template_annotations(comp)
    labels = pod_template_labels(comp)
    worker_hash = labels.get(LABEL_WORKER_HASH, "") if is_worker_type(str(comp.get("type") or "")) else ""
    return Ctx(
        dynamo_namespace=compute_dynamo_namespace(bool(comp.get("globalDynamoNamespace")), req.namespace, req.dgd_name),
        component_type=req.component_type,
        dgd_name=req.dgd_name,
        namespace=req.namespace,
        discovery_backend=discovery_backend(req.options.discovery_backend, annotations),
        discovery_mode=annotations.get(ANN_DISCOVERY_MODE, "pod") or "pod",
        worker_hash=worker_hash,
        eppconfig=comp.get("eppConfig"),
    )


def generate_pod_spec(req: PodRequest) -> dict[str, Any]:
    """``GenerateBasePodSpec`` for one role of one component."""
    comp = req.component
    ctx = build_context(req)
    annotations = pod_template_annotations(comp)
    # only read: what reaches the pod is copied (the sidecars below, mergo_override's values)
    user_spec = (comp.get("podTemplate") or {}).get("spec") or {}

    container = base_container(ctx)
    user_main = main_container(comp)
    if user_main is not None:
        merge_main_container(container, user_main)

    _compilation_cache(container, comp, req.backend, req.path)
    for m in container.get("volumeMounts") or []:
        if not m.get("name"):
            raise RenderError.at("volumeMount.name is required", req.path)
        if not m.get("mountPath"):
            raise RenderError.at(f"volumeMount.mountPath is required for {m.get('name')}", req.path)
    container["env"] = merge_envs(standard_env(req.options), container.get("env"))
    frontend_sidecar_mounts = deepcopy(container.get("volumeMounts") or [])

    _backends.update_container(container, req)

    pod = base_pod_spec(ctx)
    user_sc = "securityContext" in user_spec and user_spec.get("securityContext") is not None
    sidecars = [deepcopy(c) for c in user_spec.get("containers") or [] if c.get("name") != MAIN]
    override = {k: v for k, v in user_spec.items() if k != "containers"}
    mergo_override(pod, override)
    if not user_sc:
        pod.setdefault("securityContext", {})
        pod["securityContext"].setdefault("fsGroup", 1000)
    if is_k8s_discovery(req.options.discovery_backend, annotations) and not pod.get("serviceAccountName"):
        pod["serviceAccountName"] = discovery_service_account(req.dgd_name)
    _compilation_cache_volume(pod, comp, req.path)
    apply_shared_memory(pod, container, comp.get("sharedMemorySize"))
    pod["containers"] = [container] + sidecars

    if comp.get("frontendSidecar") is not None:
        _frontend_sidecar(pod, str(comp["frontendSidecar"]), ctx, req.options, frontend_sidecar_mounts, req.path)

    _backends.update_pod_spec(pod, req)
    pod["volumes"] = _append_missing_pvc_volumes(pod.get("volumes") or [], pod["containers"][0].get("volumeMounts") or [])
    # GenerateBasePodSpec's tail: intra-pod GPU Memory Service, then intra-pod failover engines
    _gms.apply_intra_pod_gms(pod, comp, req.dgd_name, req.service_name, req.path)
    _failover.apply_intra_pod_failover(pod, comp, req.nodes, req.backend, req.path)
    if not pod["volumes"]:
        del pod["volumes"]
    # Go always serialises Container.resources (a non-pointer struct): `resources: {}`.
    for c in pod["containers"] + (pod.get("initContainers") or []):
        if c.get("resources") is None:
            c["resources"] = {}
        # omitempty slices: an empty command/args/env/... is not serialised.
        for key in [k for k, v in c.items() if k != "resources" and isinstance(v, list) and not v]:
            del c[key]
    return pod
