"""Materialize the DynamoGraphDeployment a v1beta1 DynamoGraphDeploymentRequest produces.

The steps and their order follow upstream (reference revision of ai-dynamo/dynamo):

1. profiler-side validation (``profiler/utils/dgdr_validate.py``, the generated SLA validator,
   ``PlannerConfig`` validation) - refusals raise :class:`DgdrError` with upstream's message;
2. topology: the rapid strategy's DGD built from our blueprint for the resolved backend and mode
   (``config_modifiers/protocol.py`` ``build_dgd_config``: image, worker args/replicas/GPUs, model,
   model cache) - parallelism and mode come from the explicit ``topology`` input;
3. Dynamo features (``dgd_generation.assemble_final_config``): TRT-LLM chunked prefill, mocker base,
   KV router, vLLM self-benchmark, planner (scaling adapters, Planner component, planner ConfigMap),
   then ``runtimeVersionOverride`` on every component;
4. ``dgd_materialization.materialize_dgd`` in its fixed order: ``spec.overrides.dgd`` merge ->
   model runtime constraints -> profiling-job tolerations -> trust-remote-code policy;
5. the pod-name length check of ``profile_sla.py``;
6. the controller: fill ``runtimeVersionOverride`` where missing, final name (``computeDGDName``),
   namespace and the DGDR labels added when the DGD is created.

Nothing here reads files or the network; what upstream measures or downloads is an input
(``topology``) with the rapid-strategy default, and every such default is reported in ``notes``.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dynamo_schema._core._consts import GPU_RESOURCE, LABEL_MANAGED_BY
from dynamo_schema._core._consts import V1BETA1 as DGDR_API_VERSION
from dynamo_schema._core._consts import V1BETA1 as DGD_API_VERSION
from dynamo_schema._core._diagnostics import Diagnostic, DynamoSchemaError
from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._blueprints import load_blueprint

DGDR_KIND = "DynamoGraphDeploymentRequest"

# Operator version whose default profiler image the webhook would use when spec.image is unset
# (platform chart version at the reference revision).
DEFAULT_OPERATOR_VERSION = "1.5.0"
DEFAULT_IMAGE_REPOSITORY = "nvcr.io/nvidia/ai-dynamo/dynamo-planner"

BACKEND_IMAGE_NAMES = {"vllm": "vllm-runtime", "sglang": "sglang-runtime", "trtllm": "tensorrtllm-runtime"}
PLANNER_IMAGE_NAME = "dynamo-planner"
DEFAULT_NAIVE_BACKEND = "vllm"

WORKSPACE_DIR = "/workspace"
PROFILE_DATA_MOUNT = f"{WORKSPACE_DIR}/profiling_results"
PLANNER_CONFIG_MOUNT = f"{WORKSPACE_DIR}/planner_config"
PLANNER_CONFIG_PREFIX = "planner-config"

LABEL_DGDR_NAME = "dgdr.nvidia.com/name"
LABEL_DGDR_NAMESPACE = "dgdr.nvidia.com/namespace"
LABEL_VALUE_OPERATOR = "dynamo-operator"

MAX_COMBINED_RESOURCE_NAME_LENGTH = 45

TRUST_REMOTE_CODE_FLAG = "--trust-remote-code"
TRUST_REMOTE_CODE_BACKENDS = frozenset({"vllm", "sglang"})
WORKER_TYPES = frozenset({"worker", "prefill", "decode"})
TRTLLM_CHUNKED_PREFILL_FLAG = "--trtllm.enable_chunked_prefill"

# Worker CLI flags naming the model (``BaseConfigModifier.WORKER_MODEL_PATH_ARG`` per backend).
MODEL_PATH_ARG = {"vllm": "--model", "sglang": "--model-path", "trtllm": "--model-path"}
SERVED_MODEL_NAME_ARG = "--served-model-name"

# Planner defaults (``dynamo.planner.config`` ``PlannerConfig`` / ``SLAPlannerDefaults``).
PLANNER_DEFAULTS: dict[str, Any] = {
    "pre_deployment_sweeping_mode": "rapid",
    "mode": "disagg",
    "optimization_target": "throughput",
    "enable_throughput_scaling": True,
    "enable_load_scaling": False,
    "advisory": False,
}
SWEEP_MODES = ("none", "rapid", "thorough")


class DgdrError(DynamoSchemaError):
    """The DGDR cannot be materialized; the message is upstream's refusal text."""

    def __init__(self, message: str, path: tuple[Any, ...] = (), rule: str = "dgdr.materialize") -> None:
        super().__init__(message, [Diagnostic(rule, tuple(path), message)])
        self.path = tuple(path)
        self.rule = rule


@dataclass
class MaterializedDGD:
    """The DGD a DGDR produces, with what upstream would have logged and what we had to assume.

    ``resources`` holds the supporting objects the profiler emits before the DGD in its multi-document
    output (the planner ConfigMap); ``steps`` names the transforms applied, in order.
    """

    dgd: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    backend: str = ""
    mode: str = ""


# ---------------------------------------------------------------------------------------------------
# small helpers


def _main_container(component: dict[str, Any]) -> dict[str, Any] | None:
    pt = component.get("podTemplate")
    spec = pt.get("spec") if isinstance(pt, dict) else None
    containers = spec.get("containers") if isinstance(spec, dict) else None
    if not isinstance(containers, list):
        return None
    for c in containers:
        if isinstance(c, dict) and c.get("name") == "main":
            return c
    return None


def _components(dgd: dict[str, Any]) -> list[dict[str, Any]]:
    spec = dgd.get("spec")
    comps = spec.get("components") if isinstance(spec, dict) else None
    return [c for c in comps if isinstance(c, dict)] if isinstance(comps, list) else []


def _component(dgd: dict[str, Any], name: str) -> dict[str, Any] | None:
    for c in _components(dgd):
        if c.get("name") == name:
            return c
    return None


def _replace_image_name(image_ref: str, new_name: str) -> str:
    slash = image_ref.rfind("/")
    prefix = image_ref[: slash + 1] if slash >= 0 else ""
    suffix = image_ref[slash + 1 :]
    name_and_tag, has_digest, digest = suffix.partition("@")
    colon = name_and_tag.rfind(":")
    tag = name_and_tag[colon:] if colon >= 0 else ""
    return f"{prefix}{new_name}{tag}{'@' + digest if has_digest else ''}"


def derive_backend_image(profiler_image: str, backend: str) -> str:
    name = BACKEND_IMAGE_NAMES.get(backend)
    if name is None:
        raise DgdrError(
            f"Cannot derive backend image for unknown backend '{backend}'. "
            f"Supported backends: {list(BACKEND_IMAGE_NAMES)}",
            ("spec", "backend"),
        )
    return _replace_image_name(profiler_image, name)


def derive_planner_image(profiler_image: str) -> str:
    return _replace_image_name(profiler_image, PLANNER_IMAGE_NAME)


def normalize_model_cache_path(mount: str | None, model_path: str | None) -> str:
    m = (mount or "").rstrip("/")
    raw = (model_path or "").strip()
    if not raw:
        return m
    absolute = raw.rstrip("/")
    if m and (absolute == m or absolute.startswith(f"{m}/")):
        return absolute
    sub = raw.lstrip("/")
    return f"{m}/{sub}" if sub else m


def _set_unique_env(container: dict[str, Any], name: str, value: str) -> None:
    env = container.get("env")
    env = (
        [e for e in env if not (isinstance(e, dict) and e.get("name") == name)]
        if isinstance(env, list)
        else []
    )
    env.append({"name": name, "value": value})
    container["env"] = env


def _fmt_float(v: float) -> str:
    return f"{float(v)}"


# ---------------------------------------------------------------------------------------------------
# input reading and profiler-side validation


@dataclass
class _Request:
    name: str
    namespace: str | None
    spec: dict[str, Any]
    model: str
    backend: str
    image: str
    search_strategy: str
    planner: dict[str, Any] | None
    planner_enabled: bool
    mocker: bool
    kv_router: bool
    runtime_version: str
    override: dict[str, Any] | None
    trust_remote_code: bool
    tolerations: list[Any]
    gpu_sku: str | None
    num_gpus_per_node: int | None


def _obj(value: Any, path: tuple[Any, ...]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise DgdrError(f"{'.'.join(str(p) for p in path)} must be an object", path)
    return value


def _planner_effective(planner: dict[str, Any]) -> dict[str, Any]:
    """PlannerConfig defaults plus its model validator's scaling normalisation."""
    cfg = dict(PLANNER_DEFAULTS)
    for key in PLANNER_DEFAULTS:
        if key in planner and (planner[key] is not None or key == "pre_deployment_sweeping_mode"):
            cfg[key] = planner[key]
    if cfg.get("optimization_target") != "sla":
        cfg["enable_load_scaling"] = True
        cfg["enable_throughput_scaling"] = False
    if not cfg.get("enable_throughput_scaling") and not cfg.get("enable_load_scaling"):
        raise DgdrError(
            "At least one scaling mode must be enabled (enable_throughput_scaling or enable_load_scaling)",
            ("spec", "features", "planner"),
        )
    return cfg


def _read(dgdr: Any, topology: dict[str, Any], notes: list[str], warnings: list[str]) -> _Request:
    if not isinstance(dgdr, dict):
        raise DgdrError("DynamoGraphDeploymentRequest must be an object")
    if dgdr.get("apiVersion") != DGDR_API_VERSION or dgdr.get("kind") != DGDR_KIND:
        raise DgdrError(
            f'expected {DGDR_API_VERSION} {DGDR_KIND}, got apiVersion "{dgdr.get("apiVersion", "")}" '
            f'kind "{dgdr.get("kind", "")}"'
        )
    meta = _obj(dgdr.get("metadata"), ("metadata",))
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        raise DgdrError("metadata.name: Required value: name is required", ("metadata", "name"))
    namespace = meta.get("namespace") if isinstance(meta.get("namespace"), str) else topology.get("namespace")
    spec = _obj(dgdr.get("spec"), ("spec",))
    if spec.get("v1beta2") is not None:
        raise DgdrError(
            "spec.v1beta2 (the v1beta2 envelope) is not materialized: the v1beta2 profiler is not served "
            "at the reference revision",
            ("spec", "v1beta2"),
        )
    model = spec.get("model")
    if not isinstance(model, str) or not model:
        raise DgdrError("exactly one of native v1beta1 fields or v1beta2 must be specified", ("spec",))

    # -- webhook defaults (CREATE) --------------------------------------------------------------
    backend = spec.get("backend") or "auto"
    search = spec.get("searchStrategy") or "rapid"
    image = spec.get("image")
    if not image:
        version = str(topology.get("operatorVersion") or DEFAULT_OPERATOR_VERSION)
        image = f"{DEFAULT_IMAGE_REPOSITORY}:{version}"
        notes.append(
            f"spec.image is unset: using the defaulting webhook's image {image} "
            "(nvcr.io/nvidia/ai-dynamo/dynamo-planner:<operator version>; pass topology operatorVersion)"
        )
    if backend not in ("auto", "sglang", "trtllm", "vllm"):
        raise DgdrError(
            f'Unsupported value: "{backend}": supported values: "auto", "sglang", "trtllm", "vllm"',
            ("spec", "backend"),
        )
    if search not in ("rapid", "thorough"):
        raise DgdrError(
            f'Unsupported value: "{search}": supported values: "rapid", "thorough"',
            ("spec", "searchStrategy"),
        )

    hardware = _obj(spec.get("hardware"), ("spec", "hardware"))
    gpu_sku = hardware.get("gpuSku") if isinstance(hardware.get("gpuSku"), str) else None
    ngpn = hardware.get("numGpusPerNode")
    ngpn = ngpn if isinstance(ngpn, int) and not isinstance(ngpn, bool) else None
    if topology.get("numGpusPerNode") is not None:
        ngpn = int(topology["numGpusPerNode"])
    if not gpu_sku or not ngpn:
        notes.append(
            "spec.hardware.gpuSku/numGpusPerNode not fully set: the operator fills them from GPU discovery "
            "before profiling (the profiler requires both); multinode placement is not computed without "
            "numGpusPerNode"
        )

    # -- workload / SLA (dgdr_validate.py + generated SLASpec validator) -------------------------
    workload = _obj(spec.get("workload"), ("spec", "workload"))
    if workload.get("concurrency") is not None and workload.get("requestRate") is not None:
        raise DgdrError(
            "Only one of 'concurrency' or 'requestRate' can be provided, not both.", ("spec", "workload")
        )
    sla = _obj(spec.get("sla"), ("spec", "sla"))
    ttft = sla.get("ttft", 2000.0)
    itl = sla.get("itl", 30.0)
    e2e = sla.get("e2eLatency")
    touched = "ttft" in sla or "itl" in sla
    if e2e is not None and (ttft is not None or itl is not None) and touched:
        raise DgdrError("SLA must specify either (ttft and itl) or e2eLatency, not both.", ("spec", "sla"))
    if (ttft is None) != (itl is None):
        raise DgdrError("ttft and itl must both be provided together.", ("spec", "sla"))
    for key, val in (("ttft", ttft), ("itl", itl), ("e2eLatency", e2e)):
        if val is not None and isinstance(val, (int, float)) and val <= 0:
            raise DgdrError(f"SLA '{key}' must be positive (got {_fmt_float(val)}).", ("spec", "sla", key))
    if e2e is None and (ttft is None or itl is None):
        raise DgdrError(
            "Either both 'ttft' and 'itl', or 'e2eLatency', must be provided in the SLA spec.",
            ("spec", "sla"),
        )
    if search == "thorough" and backend == "auto":
        raise DgdrError(
            "THOROUGH search strategy does not support 'auto' backend. "
            "Please specify a concrete backend (trtllm, vllm, sglang).",
            ("spec", "searchStrategy"),
        )

    # -- features -----------------------------------------------------------------------------
    features = _obj(spec.get("features"), ("spec", "features"))
    planner_raw = features.get("planner")
    planner: dict[str, Any] | None = None
    if planner_raw is not None:
        planner = _planner_effective(_obj(planner_raw, ("spec", "features", "planner")))
        sweep = planner.get("pre_deployment_sweeping_mode")
        if sweep is not None and sweep not in SWEEP_MODES:
            raise DgdrError(
                f"Input should be 'none', 'rapid' or 'thorough': {sweep!r}",
                ("spec", "features", "planner", "pre_deployment_sweeping_mode"),
            )
    planner_enabled = planner is not None and bool(
        planner["enable_throughput_scaling"] or planner["enable_load_scaling"]
    )
    mocker_spec = _obj(features.get("mocker"), ("spec", "features", "mocker"))
    mocker = mocker_spec.get("enabled") is True
    kv_spec = _obj(features.get("kvRouter"), ("spec", "features", "kvRouter"))
    kv_router = kv_spec.get("enabled") is True
    if mocker and planner is not None:
        sweep = planner.get("pre_deployment_sweeping_mode")
        if sweep is None or sweep == "none":
            raise DgdrError(
                "pre_deployment_sweeping_mode cannot be 'none' when mocker is enabled. "
                "Mocker backend requires pre-deployment sweeping to generate simulated "
                "performance profiles.",
                ("spec", "features", "mocker"),
            )

    overrides = _obj(spec.get("overrides"), ("spec", "overrides"))
    override = overrides.get("dgd")
    if override is not None and not isinstance(override, dict):
        raise DgdrError("DGD override must be a YAML/JSON object", ("spec", "overrides", "dgd"))
    trust = overrides.get("trustRemoteCode") is True
    tolerations: list[Any] = []
    job = overrides.get("profilingJob")
    if isinstance(job, dict):
        tmpl = job.get("template")
        pspec = tmpl.get("spec") if isinstance(tmpl, dict) else None
        tol = pspec.get("tolerations") if isinstance(pspec, dict) else None
        if isinstance(tol, list):
            tolerations = tol

    rvo = spec.get("runtimeVersionOverride")
    return _Request(
        name=name,
        namespace=namespace if isinstance(namespace, str) else None,
        spec=spec,
        model=model,
        backend=backend,
        image=str(image),
        search_strategy=search,
        planner=planner,
        planner_enabled=planner_enabled,
        mocker=mocker,
        kv_router=kv_router,
        runtime_version=rvo if isinstance(rvo, str) else "",
        override=override,
        trust_remote_code=trust,
        tolerations=tolerations,
        gpu_sku=gpu_sku,
        num_gpus_per_node=ngpn,
    )


# ---------------------------------------------------------------------------------------------------
# step 2: topology (rapid strategy)


def _needs_mocker_aic_perf_model(req: _Request) -> bool:
    if not req.mocker:
        return False
    if req.planner is not None:
        return req.planner.get("pre_deployment_sweeping_mode") == "rapid"
    return req.search_strategy == "rapid"


def _needs_profile_data(req: _Request) -> bool:
    if req.mocker:
        return not _needs_mocker_aic_perf_model(req)
    if req.planner is not None and req.planner.get("enable_throughput_scaling"):
        return req.planner.get("pre_deployment_sweeping_mode") == "thorough"
    return False


def _worker_shape(topology: dict[str, Any], role: str) -> dict[str, int]:
    raw = topology.get(role)
    raw = raw if isinstance(raw, dict) else {}
    tp = int(raw.get("tp", 1))
    pp = int(raw.get("pp", 1))
    gpus = int(raw.get("gpus", tp * pp))
    return {
        "tp": tp,
        "pp": pp,
        "gpus": gpus,
        "replicas": int(raw.get("replicas", 1)),
        "explicit_tp": int("tp" in raw),
    }


def _setup_resources(component: dict[str, Any], gpus: int, ngpn: int | None, per_instance: int) -> None:
    if ngpn is not None:
        if per_instance <= ngpn:
            component.pop("multinode", None)
        else:
            node_count = -(-per_instance // ngpn)
            mn = component.get("multinode")
            if isinstance(mn, dict):
                mn["nodeCount"] = node_count
            else:
                component["multinode"] = {"nodeCount": node_count}
    container = _main_container(component)
    if container is None:
        raise DgdrError(f"Component {component.get('name')!r} does not define a main container")
    resources = container.setdefault("resources", {})
    limits = resources.setdefault("limits", {})
    value = str(min(gpus, ngpn) if ngpn is not None else gpus)
    for rd in (limits, resources.get("requests")):
        if isinstance(rd, dict):
            rd[GPU_RESOURCE] = value
            if "rdma/ib" in rd:
                rd["rdma/ib"] = value


def _set_tp(backend: str, args: list[str], tp: int) -> list[str]:
    if backend == "vllm":
        args = A.remove_valued_argument(args, "--tp")
        return A.set_argument_value(args, "--tensor-parallel-size", str(tp))
    if backend == "sglang":
        args = A.set_argument_value(args, "--tp", str(tp))
        args = A.remove_valued_argument(args, "--tp-size")
        return A.remove_valued_argument(args, "--tensor-parallel-size")
    # trtllm: dynamic engine flag, or merged into an explicit --override-engine-args JSON
    override, args = A.parse_override_engine_args(args)
    if override:
        override["tensor_parallel_size"] = tp
        return A.append_argument(args, ["--override-engine-args", json.dumps(override)])
    return A.append_argument(args, ["--trtllm.tensor_parallel_size", str(tp)])


def _per_instance_gpus(args: list[str]) -> int | None:
    tp = pp = 1
    seen = False
    for i, arg in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else None
        for names, which in (
            (("--tensor-parallel-size", "--tp"), "tp"),
            (("--pipeline-parallel-size", "--pp"), "pp"),
            (("--data-parallel-size", "--data-parallel-size-local", "--dp"), "dp"),
        ):
            val = None
            for n in names:
                if arg == n:
                    val = nxt
                elif isinstance(arg, str) and arg.startswith(n + "="):
                    val = arg.split("=", 1)[1]
            if val is None:
                continue
            seen = True
            try:
                if which == "tp":
                    tp = int(val)
                elif which == "pp":
                    pp = int(val)
            except ValueError:
                pass
    return tp * pp if seen else None


def _build_topology(
    req: _Request, backend: str, mode: str, topology: dict[str, Any], notes: list[str]
) -> dict[str, Any]:
    dgd = load_blueprint(backend, mode)
    dgd["metadata"]["name"] = f"{backend}-{mode}"
    image = derive_backend_image(req.image, backend)
    for comp in _components(dgd):
        if comp.get("type") == "planner":
            continue
        mc = _main_container(comp)
        if mc is not None:
            mc["image"] = image

    ngpn = req.num_gpus_per_node
    roles = ("agg",) if mode == "agg" else ("prefill", "decode")
    workers = [c for c in _components(dgd) if c.get("type") in WORKER_TYPES]
    for role in roles:
        if role == "agg":
            comp = workers[0]
        else:
            comp = next(c for c in workers if c.get("type") == role)
        shape = _worker_shape(topology, role)
        comp["replicas"] = shape["replicas"]
        mc = _main_container(comp)
        assert mc is not None
        args = A.break_arguments(mc.get("args"))
        if backend == "vllm" and mode == "disagg":
            args = [a for a in args if a not in ("--is-prefill-worker", "--is-decode-worker")]
            args = A.set_unique_argument_value(args, "--disaggregation-mode", role)
            if role == "prefill" and A.get_valued_argument(args, "--kv-transfer-config") is None:
                args = A.set_unique_argument_value(
                    args, "--kv-transfer-config", '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
                )
        if shape["explicit_tp"]:
            args = _set_tp(backend, args, shape["tp"])
        mc["args"] = args
        per_instance = _per_instance_gpus(args) or shape["gpus"]
        _setup_resources(comp, shape["gpus"], ngpn, per_instance)

    _apply_model(req, backend, dgd, notes)
    return dgd


def _apply_model(req: _Request, backend: str, dgd: dict[str, Any], notes: list[str]) -> None:
    """``build_dgd_config``'s model step: worker model flags, model cache volume, Frontend CLI."""
    raw_cache = req.spec.get("modelCache")
    cache: dict[str, Any] = raw_cache if isinstance(raw_cache, dict) else {}
    pvc_name = cache.get("pvcName") or None
    mount = cache.get("pvcMountPath") or "/opt/model-cache"
    pvc_model_path = cache.get("pvcModelPath") or None
    model_name = req.model
    model_path = model_name
    patch_frontend = False
    if pvc_name:
        for comp in _components(dgd):
            _ensure_pvc_mount(comp, pvc_name, mount)
        if pvc_model_path:
            model_path = normalize_model_cache_path(mount, pvc_model_path)
            if model_path == mount.rstrip("/"):
                for comp in _components(dgd):
                    mc = _main_container(comp)
                    if mc is not None:
                        _set_unique_env(mc, "HF_HOME", mount)
                model_path = model_name
            patch_frontend = True
        else:
            for comp in _components(dgd):
                mc = _main_container(comp)
                if mc is not None:
                    _set_unique_env(mc, "HF_HOME", mount)
    patch_frontend = patch_frontend or model_path.startswith(("/", "."))

    path_arg = MODEL_PATH_ARG[backend]

    def patch_worker(tokens: list[str]) -> list[str]:
        tokens = A.set_unique_argument_value(tokens, path_arg, model_path)
        return A.set_unique_argument_value(tokens, SERVED_MODEL_NAME_ARG, model_name)

    for comp in _components(dgd):
        if comp.get("type") in WORKER_TYPES:
            mc = _main_container(comp)
            if mc is not None:
                A.update_args_preserving_shell_form(mc, patch_worker)
    if patch_frontend:
        fe = _component(dgd, "Frontend")
        mc = _main_container(fe) if fe is not None else None
        if mc is not None:
            if not mc.get("command") and not mc.get("args"):
                mc["command"] = ["python3"]
                mc["args"] = ["-m", "dynamo.frontend"]

            def patch_frontend_args(tokens: list[str]) -> list[str]:
                tokens = A.set_unique_argument_value(tokens, "--model-name", model_name)
                return A.set_unique_argument_value(tokens, "--model-path", model_path)

            A.update_args_preserving_shell_form(mc, patch_frontend_args)


def _ensure_pvc_mount(component: dict[str, Any], pvc_name: str, mount: str) -> None:
    pod = component.setdefault("podTemplate", {}).setdefault("spec", {})
    raw_volumes = pod.get("volumes")
    volumes: list[Any] = raw_volumes if isinstance(raw_volumes, list) else []
    for v in volumes:
        if isinstance(v, dict) and v.get("name") == pvc_name:
            v["persistentVolumeClaim"] = {"claimName": pvc_name}
            break
    else:
        volumes.append({"name": pvc_name, "persistentVolumeClaim": {"claimName": pvc_name}})
    pod["volumes"] = volumes
    mc = _main_container(component)
    if mc is None:
        raise DgdrError(f"Component {component.get('name')!r} does not define a main container")
    raw_mounts = mc.get("volumeMounts")
    mounts: list[Any] = raw_mounts if isinstance(raw_mounts, list) else []
    for m in mounts:
        if isinstance(m, dict) and m.get("name") == pvc_name:
            m["mountPath"] = mount
            mc["volumeMounts"] = mounts
            return
    mounts.append({"name": pvc_name, "mountPath": mount})
    mc["volumeMounts"] = mounts


# ---------------------------------------------------------------------------------------------------
# step 3: Dynamo features


def _own(obj: dict[str, Any], req: _Request) -> dict[str, Any]:
    """Put ``obj`` in the DGDR's namespace with the DGDR name/namespace labels (a fresh labels map,
    returned for further labels)."""
    meta = obj.setdefault("metadata", {})
    if req.namespace:
        meta["namespace"] = req.namespace
    labels = dict(meta.get("labels") or {})
    labels[LABEL_DGDR_NAME] = req.name
    if req.namespace:
        labels[LABEL_DGDR_NAMESPACE] = req.namespace
    meta["labels"] = labels
    return labels


def _worker_main_containers(dgd: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(component, main container) of every worker-type component that has a main container."""
    for comp in _components(dgd):
        if comp.get("type") not in WORKER_TYPES:
            continue
        mc = _main_container(comp)
        if mc is not None:
            yield comp, mc


def enable_trtllm_chunked_prefill(dgd: dict[str, Any]) -> None:
    for _, mc in _worker_main_containers(dgd):
        if A.is_shell_form(mc):
            # shell-form commands are left to the user (upstream rewrites the shell string)
            continue
        args = A.break_arguments(mc.get("args", []))
        while TRTLLM_CHUNKED_PREFILL_FLAG in args:
            idx = args.index(TRTLLM_CHUNKED_PREFILL_FLAG)
            del args[idx]
            if idx < len(args) and not (isinstance(args[idx], str) and args[idx].startswith("--")):
                del args[idx]
        idx, parsed = A.find_override_engine_args(args)
        if idx >= 0:
            if parsed is not None:
                parsed["enable_chunked_prefill"] = True
                args[idx + 1] = json.dumps(parsed)
            mc["args"] = args
            continue
        mc["args"] = A.append_argument(args, [TRTLLM_CHUNKED_PREFILL_FLAG, "true"])


def enable_kv_router(dgd: dict[str, Any], warnings: list[str]) -> None:
    found = False
    for comp in _components(dgd):
        if comp.get("type") != "frontend":
            continue
        found = True
        mc = _main_container(comp)
        if mc is None:
            warnings.append(
                f"Skipping KV router configuration for frontend {comp.get('name')!r} because it has no main container"
            )
            continue
        _set_unique_env(mc, "DYN_ROUTER_MODE", "kv")
    if not found:
        warnings.append(
            "Skipping KV router configuration because the generated DGD has no frontend component"
        )


_VLLM_BENCHMARK_MODE = {"prefill": "prefill", "decode": "decode", "worker": "agg"}


def enable_vllm_benchmark_mode(dgd: dict[str, Any]) -> None:
    for comp in _components(dgd):
        mode = _VLLM_BENCHMARK_MODE.get(str(comp.get("type")))
        if mode is None:
            continue
        mc = _main_container(comp)
        if mc is not None:
            _set_unique_env(mc, "DYN_BENCHMARK_MODE", mode)


# AIC database version per backend for mocker workers (``replay_optimize/constants.py``
# ``AIC_BACKEND_VERSIONS`` plus ``dgd_generation._MOCKER_AIC_BACKEND_VERSIONS``' TRT-LLM entry).
MOCKER_AIC_BACKEND_VERSIONS = {"vllm": "0.14.0", "sglang": "0.5.6.post2", "trtllm": "1.3.0rc10"}
AIC_BACKENDS = ("trtllm", "vllm", "sglang")
# Mocker engine types: the mocker simulates vLLM or SGLang scheduling (TRT-LLM keeps the default).
MOCKER_ENGINE_TYPES = ("vllm", "sglang")


@dataclass(frozen=True)
class AicPick:
    """``PickedParallelConfig``: the AIC pick of one worker role (all sizes default to 1)."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    moe_tp: int = 1
    moe_ep: int = 1


@dataclass(frozen=True)
class AicSpec:
    """The part of ``AICInterpolationSpec`` the mocker workers consume."""

    system: str
    backend: str
    prefill_pick: AicPick
    decode_pick: AicPick


def _aic_pick(topology: dict[str, Any], role: str) -> AicPick:
    raw = topology.get(role)
    raw = raw if isinstance(raw, dict) else {}
    return AicPick(**{k: int(raw.get(k, 1)) for k in ("tp", "pp", "dp", "moe_tp", "moe_ep")})


def build_aic_interpolation_spec(
    req: _Request, backend: str, mode: str, topology: dict[str, Any], notes: list[str]
) -> AicSpec | None:
    """``build_aic_interpolation_spec`` (and its caller's gate in ``profile_sla.py``): a spec when a
    mocker in rapid mode or a throughput-scaling planner with rapid sweeping needs it, the pick is
    disaggregated (both picks present) and AIC supports the backend; else None."""
    planner = req.planner
    mocker_needs = _needs_mocker_aic_perf_model(req)
    planner_needs = (
        req.planner_enabled
        and planner is not None
        and bool(planner.get("enable_throughput_scaling"))
        and planner.get("pre_deployment_sweeping_mode") == "rapid"
    )
    if not planner_needs and not mocker_needs:
        return None
    if mode != "disagg":
        notes.append(
            "AIC interpolation spec: skipped because the pick is aggregated (upstream builds it only for a "
            "disaggregated pick); mocker workers get no --aic-* flags"
        )
        return None
    if backend not in AIC_BACKENDS:  # pragma: no cover - the backend is always one of these here
        return None
    if not req.gpu_sku:
        notes.append(
            "AIC interpolation spec: spec.hardware.gpuSku is unset (the operator fills it from GPU "
            "discovery; --aic-system is its lower-case value); mocker workers get no --aic-* flags"
        )
        return None
    return AicSpec(
        system=req.gpu_sku.lower(),
        backend=backend,
        prefill_pick=_aic_pick(topology, "prefill"),
        decode_pick=_aic_pick(topology, "decode"),
    )


def inject_mocker_aic_args(args: list[str], spec: AicSpec, pick: AicPick) -> list[str]:
    """``_inject_mocker_aic_args``: the ``--aic-*`` flags of one mocker worker, in upstream's order."""
    if "--aic-perf-model" not in args:
        args.append("--aic-perf-model")
    args = A.set_argument_value(args, "--aic-backend", spec.backend)
    version = MOCKER_AIC_BACKEND_VERSIONS.get(spec.backend)
    if version is not None:
        args = A.set_argument_value(args, "--aic-backend-version", version)
    args = A.set_argument_value(args, "--aic-system", spec.system)
    args = A.set_argument_value(args, "--aic-tp-size", str(pick.tp))
    args = A.set_argument_value(args, "--aic-moe-tp-size", str(pick.moe_tp))
    args = A.set_argument_value(args, "--aic-moe-ep-size", str(pick.moe_ep))
    args = A.set_argument_value(args, "--aic-attention-dp-size", str(pick.dp))
    if spec.backend in MOCKER_ENGINE_TYPES:
        args = A.set_argument_value(args, "--engine-type", spec.backend)
    return args


def generate_mocker_config(req: _Request, aic_spec: AicSpec | None = None) -> dict[str, Any]:
    dgd = load_blueprint("mocker", "disagg")
    for comp in _components(dgd):
        mc = _main_container(comp)
        if mc is not None and req.image:
            mc["image"] = req.image
    picks = {"prefill": aic_spec.prefill_pick, "decode": aic_spec.decode_pick} if aic_spec else {}
    for name in ("prefill", "decode"):
        worker = _component(dgd, name)
        mc = _main_container(worker) if worker is not None else None
        if mc is None:
            continue
        args = list(mc.get("args", []))
        args = A.set_argument_value(args, "--model-path", req.model)
        args = A.set_argument_value(args, "--model-name", req.model)
        if aic_spec is not None:
            args = inject_mocker_aic_args(args, aic_spec, picks[name])
        mc["args"] = args
    return dgd


def _infer_subcomponent(name: str) -> str | None:
    low = name.lower()
    if "prefill" in low:
        return "prefill"
    if "decode" in low:
        return "decode"
    return None


def enable_planner_worker_scaling_adapters(dgd: dict[str, Any], planner: dict[str, Any]) -> None:
    if planner.get("advisory"):
        return
    mode = planner.get("mode")
    targets = {
        "prefill": {"prefill"},
        "decode": {"decode"},
        "agg": {"decode"},
        "disagg": {"prefill", "decode"},
    }.get(str(mode), set())
    comps = _components(dgd)
    untyped = sum(
        1 for c in comps if c.get("type") == "worker" and _infer_subcomponent(str(c.get("name", ""))) is None
    )
    for comp in comps:
        ctype = comp.get("type")
        scalable = False
        if ctype in targets:
            scalable = True
        elif ctype == "worker":
            inferred = _infer_subcomponent(str(comp.get("name", "")))
            if inferred is not None:
                if inferred in targets:
                    comp["type"] = inferred
                    scalable = True
            elif mode == "agg" and untyped == 1:
                comp["type"] = "decode"
                scalable = True
        if not scalable:
            continue
        # upstream's profiler writes ``{"enabled": True}``; the operator decodes it into the v1beta1 Go
        # type, an empty struct (presence opts in), which drops ``enabled``: the DGD it creates has ``{}``
        comp["scalingAdapter"] = {}


def _cm_suffix(req: _Request) -> str:
    return hashlib.sha256(f"{req.namespace or ''}/{req.name}".encode()).hexdigest()[:4]


def add_planner_to_config(
    req: _Request, dgd: dict[str, Any], topology: dict[str, Any], mode: str, notes: list[str]
) -> dict[str, Any]:
    planner_user = dict(req.spec.get("features", {}).get("planner") or {})
    cfg: dict[str, Any] = dict(planner_user)
    if mode == "disagg" or req.mocker:
        cfg["prefill_engine_num_gpu"] = _worker_shape(topology, "prefill")["gpus"]
        cfg["decode_engine_num_gpu"] = _worker_shape(topology, "decode")["gpus"]
    else:
        # the rapid pick's prefill/decode mappings both describe the aggregated engine
        cfg["prefill_engine_num_gpu"] = _worker_shape(topology, "agg")["gpus"]
        cfg["decode_engine_num_gpu"] = _worker_shape(topology, "agg")["gpus"]
    sla = req.spec.get("sla") if isinstance(req.spec.get("sla"), dict) else None
    if sla is not None and sla.get("e2eLatency") is None and ("ttft" in sla or "itl" in sla):
        if "ttft_ms" not in planner_user:
            cfg["ttft_ms"] = float(sla.get("ttft", 2000.0))
        if "itl_ms" not in planner_user:
            cfg["itl_ms"] = float(sla.get("itl", 30.0))
    cfg["profile_results_dir"] = PROFILE_DATA_MOUNT
    notes.append(
        "planner ConfigMap: holds the DGDR's features.planner plus the fields the profiler sets "
        "(engine GPU counts, SLA targets, profile_results_dir); upstream serializes the whole "
        "PlannerConfig with its defaults, and the AIC perf-model/interpolation specs need an AIC run"
    )
    cm_name = f"{PLANNER_CONFIG_PREFIX}-{_cm_suffix(req)}"
    notes.append(
        f"planner ConfigMap name {cm_name}: upstream appends 4 random hex characters; ours are derived "
        "from the DGDR namespace/name so the output is reproducible"
    )
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": cm_name},
        "data": {"planner_config.json": json.dumps(cfg, separators=(",", ":"))},
    }
    planner_component = {
        "name": "Planner",
        "type": "planner",
        "replicas": 1,
        "podTemplate": {
            "spec": {
                "containers": [
                    {
                        "name": "main",
                        "image": derive_planner_image(req.image)
                        if req.image
                        else "my-registry/dynamo-planner:my-tag",
                        "workingDir": f"{WORKSPACE_DIR}/components/src/dynamo/planner",
                        "command": ["python3", "-m", "dynamo.planner"],
                        "args": ["--config", f"{PLANNER_CONFIG_MOUNT}/planner_config.json"],
                        "volumeMounts": [
                            {"name": cm_name, "mountPath": PLANNER_CONFIG_MOUNT, "readOnly": True}
                        ],
                    }
                ],
                "volumes": [{"name": cm_name, "configMap": {"name": cm_name}}],
            }
        },
    }
    comps = dgd["spec"].setdefault("components", [])
    comps[:] = [c for c in comps if not (isinstance(c, dict) and c.get("name") == "Planner")]
    comps.append(planner_component)
    return config_map


def apply_runtime_version_override(dgd: dict[str, Any], version: str, only_missing: bool) -> None:
    if not version:
        return
    for comp in _components(dgd):
        if only_missing and comp.get("runtimeVersionOverride"):
            continue
        comp["runtimeVersionOverride"] = version


# ---------------------------------------------------------------------------------------------------
# step 4: materialize_dgd transforms


def _apply_override(dgd: dict[str, Any], override: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    try:
        from dynamo_schema._merge import MergeError, apply_overrides
    except ImportError as exc:  # pragma: no cover - the merge package ships with the library
        raise DgdrError(f"failed to apply DGD override: merge engine unavailable ({exc})") from exc
    try:
        result = apply_overrides(dgd, override)
    except MergeError as exc:
        raise DgdrError(
            f"failed to apply DGD override: {exc}", ("spec", "overrides", "dgd"), "dgdr.override"
        ) from exc
    # the Go engine's warnings are logged as "DGD override: <warning>"; the adapter's own are not prefixed
    warnings.extend(w if w.startswith("DGD override") else f"DGD override: {w}" for w in result.warnings)
    return result.dgd


def _worker_for_role(dgd: dict[str, Any], role: str) -> dict[str, Any] | None:
    comps = _components(dgd)
    for c in comps:
        if c.get("type") == role:
            return c
    generic = [c for c in comps if c.get("type") == "worker"]
    if len(generic) == 1:
        return generic[0]
    default = {"prefill": "VllmPrefillWorker", "decode": "VllmDecodeWorker"}[role]
    return _component(dgd, default)


def apply_vllm_runtime_constraints(
    dgd: dict[str, Any], context_length: int | None, warnings: list[str], notes: list[str]
) -> None:
    for role in ("prefill", "decode"):
        found = _worker_for_role(dgd, role)
        mc = _main_container(found) if found is not None else None
        if found is None or mc is None or A.is_shell_form(mc):
            continue
        comp: dict[str, Any] = found
        args = A.break_arguments(mc.get("args"))
        current = A.get_valued_argument(args, "--max-model-len")
        if current is not None:
            if context_length is None:
                notes.append(
                    f"{comp.get('name')}: --max-model-len={current} kept; upstream clamps it to the model's "
                    "context window read from its config.json (pass topology modelContextLength)"
                )
            else:
                try:
                    value = _parse_human_int(current)
                except ValueError:
                    warnings.append(f"Cannot validate non-integer vLLM --max-model-len value {current!r}")
                else:
                    target = min(value, context_length)
                    if target < value:
                        warnings.append(
                            f"Clamping vLLM --max-model-len from {value} to model context window {context_length}"
                        )
                    args = A.set_unique_argument_value(args, "--max-model-len", str(target))
        mamba = A.get_valued_argument(args, "--mamba-cache-mode")
        if mamba and mamba.lower() == "align":
            notes.append(
                f"{comp.get('name')}: --mamba-cache-mode align: upstream raises --max-num-batched-tokens to the "
                "model's Mamba cache block size (needs the model config); not applied"
            )
        mc["args"] = args


def _parse_human_int(value: str) -> int:
    import re

    value = value.strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmMgGtT])", value)
    if m is None:
        return int(value)
    number, suffix = m.groups()
    if suffix.islower():
        return int(float(number) * {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}[suffix])
    return int(number) * {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}[suffix]


def inject_tolerations(dgd: dict[str, Any], tolerations: list[Any]) -> None:
    for comp in _components(dgd):
        pod = comp.setdefault("podTemplate", {}).setdefault("spec", {})
        existing = pod.get("tolerations") or []
        new = [t for t in tolerations if t not in existing]
        if new:
            pod["tolerations"] = list(existing) + new


def _is_mocker(mc: dict[str, Any]) -> bool:
    tokens = list(mc.get("command") or []) + list(mc.get("args") or [])
    return "dynamo.mocker" in " ".join(str(t) for t in tokens)


def _all_workers_trusted(dgd: dict[str, Any]) -> bool:
    seen = False
    for _, mc in _worker_main_containers(dgd):
        seen = True
        if _is_mocker(mc):
            continue
        args = mc.get("args") or []
        if A.is_shell_form(mc):
            if TRUST_REMOTE_CODE_FLAG not in args[0]:
                return False
        elif TRUST_REMOTE_CODE_FLAG not in args:
            return False
    return seen


def inject_trust_remote_code(dgd: dict[str, Any]) -> list[str]:
    changed: list[str] = []
    for comp, mc in _worker_main_containers(dgd):
        if _is_mocker(mc):
            continue
        args = mc.get("args") or []
        if A.is_shell_form(mc):
            if TRUST_REMOTE_CODE_FLAG in args[0]:
                continue
            mc["args"] = [args[0] + " " + TRUST_REMOTE_CODE_FLAG]
        else:
            if TRUST_REMOTE_CODE_FLAG in args:
                continue
            mc["args"] = list(args) + [TRUST_REMOTE_CODE_FLAG]
        changed.append(str(comp.get("name")))
    return changed


def _model_ref_is_local(req: _Request, topology: dict[str, Any]) -> bool:
    if "modelIsLocal" in topology:
        return bool(topology["modelIsLocal"])
    return req.model.startswith(("/", "."))


# ---------------------------------------------------------------------------------------------------
# step 5/6: name checks and controller


def compute_dgd_name(dgdr: dict[str, Any]) -> str:
    """``computeDGDName``: ``spec.overrides.dgd.metadata.name`` if non-empty, else ``<dgdr>-dgd``."""
    raw_spec = dgdr.get("spec")
    spec: dict[str, Any] = raw_spec if isinstance(raw_spec, dict) else {}
    raw_overrides = spec.get("overrides")
    overrides: dict[str, Any] = raw_overrides if isinstance(raw_overrides, dict) else {}
    ov = overrides.get("dgd")
    if isinstance(ov, dict) and isinstance(ov.get("metadata"), dict):
        name = ov["metadata"].get("name")
        if isinstance(name, str) and name:
            return name
    raw_meta = dgdr.get("metadata")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    return f"{meta.get('name', '')}-dgd"


def _validate_name_lengths(req: _Request, dgdr: dict[str, Any], dgd: dict[str, Any]) -> None:
    dgd_name = compute_dgd_name(dgdr)
    ov_meta = req.override.get("metadata") if isinstance(req.override, dict) else None
    overridden = isinstance(ov_meta, dict) and bool(ov_meta.get("name"))
    violations = []
    for comp in _components(dgd):
        cname = str(comp.get("name", ""))
        combined = len(dgd_name) + len(cname)
        if combined > MAX_COMBINED_RESOURCE_NAME_LENGTH:
            violations.append(f"'{cname}' ({len(cname)}): combined length {combined}")
    if violations:
        kind = "DGD" if overridden else "DGDR"
        to_shorten = dgd_name if overridden else req.name
        raise DgdrError(
            f"DGD name '{dgd_name}' (length {len(dgd_name)}) combined with component name(s) exceeds the "
            f"{MAX_COMBINED_RESOURCE_NAME_LENGTH}-character pod-naming limit. Shorten the {kind} name "
            f"'{to_shorten}'. Violations: {'; '.join(violations)}",
            ("metadata", "name") if not overridden else ("spec", "overrides", "dgd", "metadata", "name"),
            "dgdr.name-length",
        )


# ---------------------------------------------------------------------------------------------------
# entry point


def materialize(dgdr: dict[str, Any], topology: dict[str, Any] | None = None) -> MaterializedDGD:
    """The DynamoGraphDeployment (nvidia.com/v1beta1) that ``dgdr`` produces.

    ``topology`` replaces what upstream's profiler would simulate, measure or download (all optional):

    * ``mode``: ``"agg"`` or ``"disagg"`` (default: ``"agg"``, the rapid naive-fallback pick; the
      mocker always uses its disaggregated blueprint);
    * ``backend``: the concrete backend for ``spec.backend: auto`` (default ``vllm``);
    * ``agg`` / ``prefill`` / ``decode``: ``{tp, pp, gpus, replicas}`` per worker role (default
      one replica, one GPU, blueprint parallelism);
    * ``numGpusPerNode`` (default ``spec.hardware.numGpusPerNode``) for multinode placement;
    * ``modelContextLength``, ``modelHasAutoMap``, ``modelIsLocal``: model facts upstream reads
      from the model's ``config.json``;
    * ``operatorVersion`` (default image tag) and ``namespace`` (when the DGDR has none).

    Raises :class:`DgdrError` with upstream's message where upstream refuses. The input is not mutated.
    """
    topo = dict(topology or {})
    notes: list[str] = []
    warnings: list[str] = []
    steps: list[str] = []
    dgdr = copy.deepcopy(dgdr)
    req = _read(dgdr, topo, notes, warnings)

    # -- backend and mode -----------------------------------------------------------------------
    backend = req.backend
    if backend == "auto":
        backend = str(topo.get("backend") or DEFAULT_NAIVE_BACKEND)
        if backend not in BACKEND_IMAGE_NAMES:
            raise DgdrError(f"Unsupported profiler DGD template: {backend}/agg", ("spec", "backend"))
        if "backend" not in topo:
            notes.append(
                f"backend auto resolved to {backend} (the rapid naive-fallback default); an AIC simulation "
                "would pick among trtllm, sglang and vllm"
            )
    # The rapid strategy simulates a disaggregated deployment when the planner autoscales
    # (picking mode "autoscale"); otherwise its naive fallback generates an aggregated one.
    # The mocker's blueprint is disaggregated; its AIC pick is taken to be disaggregated too.
    default_mode = "disagg" if req.planner_enabled or req.mocker else "agg"
    mode = str(topo.get("mode") or default_mode)
    if mode not in ("agg", "disagg"):
        raise DgdrError(f"Invalid mode '{mode}': must be 'agg' or 'disagg'")
    if "mode" not in topo and req.mocker and _needs_mocker_aic_perf_model(req):
        notes.append(
            "mocker + rapid: the AIC pick is taken to be disaggregated (upstream adds the --aic-* flags "
            "only for a disaggregated pick; topology mode agg drops them)"
        )
    if "mode" not in topo and not req.mocker:
        if req.planner_enabled:
            notes.append(
                "deployment mode disagg taken from the rapid-strategy default for a scaling planner "
                "(autoscale simulation); without AIC support upstream's naive fallback generates agg"
            )
        else:
            notes.append(
                "deployment mode agg taken from the rapid-strategy default (naive fallback); an AIC pick "
                "(or thorough profiling) chooses agg or disagg"
            )
    if not any(r in topo for r in ("agg", "prefill", "decode")):
        if req.search_strategy == "thorough":
            notes.append(
                "parallelism (TP/replicas) taken from the rapid-strategy default: one GPU, one replica per "
                "worker; thorough profiling would measure it on GPUs"
            )
        else:
            notes.append(
                "parallelism (TP/replicas) taken from the rapid-strategy default: one GPU, one replica per "
                "worker; the rapid strategy would size it with AIC or from model size and GPU memory"
            )
    notes.append(
        "worker engine arguments come from the blueprint; the profiler's generator would emit tuned ones"
    )

    # -- step 2: topology --------------------------------------------------------------------------
    dgd = _build_topology(req, backend, mode, topo, notes)
    steps.append(f"blueprint {backend}/{mode}")

    # -- step 3: features (assemble_final_config) ---------------------------------------------------
    if not req.mocker and backend == "trtllm":
        enable_trtllm_chunked_prefill(dgd)
        steps.append("trtllm chunked prefill")
    resources: list[dict[str, Any]] = []
    if not req.mocker and not req.planner_enabled:
        if req.kv_router:
            enable_kv_router(dgd, warnings)
            steps.append("kv router")
        apply_runtime_version_override(dgd, req.runtime_version, only_missing=False)
    else:
        if req.mocker:
            aic_spec = build_aic_interpolation_spec(req, backend, mode, topo, notes)
            dgd = generate_mocker_config(req, aic_spec)
            steps.append("mocker blueprint")
            if aic_spec is not None:
                steps.append("mocker aic args")
                if not any(r in topo for r in ("prefill", "decode")):
                    notes.append(
                        "mocker --aic-* parallel sizes taken from the default pick (tp/dp/moe_tp/moe_ep 1); "
                        "the rapid strategy takes them from the AIC pick (topology prefill/decode)"
                    )
            mode = "disagg"
        if req.kv_router:
            enable_kv_router(dgd, warnings)
            steps.append("kv router")
        if not req.mocker and backend == "vllm":
            enable_vllm_benchmark_mode(dgd)
            steps.append("vllm benchmark mode")
        if req.planner_enabled and req.planner is not None:
            enable_planner_worker_scaling_adapters(dgd, req.planner)
            resources.append(add_planner_to_config(req, dgd, topo, mode, notes))
            steps.append("planner")
        if _needs_profile_data(req):
            notes.append(
                "profile data: thorough pre-deployment sweeping measures interpolation data and adds a "
                "planner-profile-data ConfigMap mounted into the Planner (and mocker workers); not produced"
            )
        apply_runtime_version_override(dgd, req.runtime_version, only_missing=False)
    if req.runtime_version:
        steps.append("runtime version override")

    # -- step 4: materialize_dgd ----------------------------------------------------------------
    if req.override:
        dgd = _apply_override(dgd, req.override, warnings)
        steps.append("override")
    if backend == "vllm":
        apply_vllm_runtime_constraints(dgd, topo.get("modelContextLength"), warnings, notes)
        steps.append("runtime constraints")
    if req.tolerations:
        inject_tolerations(dgd, req.tolerations)
        steps.append("tolerations")
    if backend in TRUST_REMOTE_CODE_BACKENDS:
        if req.trust_remote_code:
            inject_trust_remote_code(dgd)
            steps.append("trust-remote-code")
        elif topo.get("modelHasAutoMap"):
            if _all_workers_trusted(dgd):
                pass
            elif not _model_ref_is_local(req, topo):
                raise DgdrError(
                    "Refusing to auto-inject --trust-remote-code for mutable remote "
                    f"model ref {req.model!r}. Set --trust-remote-code "
                    "explicitly via overrides if this ref is intended.",
                    ("spec", "model"),
                    "dgdr.trust-remote-code",
                )
            else:
                inject_trust_remote_code(dgd)
                steps.append("trust-remote-code")
        elif "modelHasAutoMap" not in topo:
            notes.append(
                "trust-remote-code: upstream injects --trust-remote-code when the model's config.json has "
                "auto_map (read from the model, not done here); set overrides.trustRemoteCode or topology "
                "modelHasAutoMap"
            )

    # -- step 5: pod-name length ----------------------------------------------------------------
    _validate_name_lengths(req, dgdr, dgd)

    # -- step 6: controller ---------------------------------------------------------------------
    apply_runtime_version_override(dgd, req.runtime_version, only_missing=True)
    dgd.setdefault("metadata", {})["name"] = compute_dgd_name(dgdr)
    _own(dgd, req)[LABEL_MANAGED_BY] = LABEL_VALUE_OPERATOR
    dgd["apiVersion"] = DGD_API_VERSION
    dgd["kind"] = "DynamoGraphDeployment"
    for res in resources:
        _own(res, req)
    if dgdr.get("spec", {}).get("autoApply") is False:
        notes.append(
            "autoApply is false: the operator stores this DGD in status.profilingResults.selectedConfig "
            "instead of creating it"
        )
    # key order: apiVersion, kind, metadata, spec
    ordered = {"apiVersion": dgd["apiVersion"], "kind": dgd["kind"], "metadata": dgd["metadata"]}
    ordered.update({k: v for k, v in dgd.items() if k not in ordered})
    return MaterializedDGD(
        dgd=ordered,
        warnings=warnings,
        notes=notes,
        resources=resources,
        steps=steps,
        backend=backend,
        mode=mode,
    )
