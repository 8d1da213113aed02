"""Step 1: read the DGDR with the webhook's defaults and the profiler-side validation.

``profiler/utils/dgdr_validate.py``, the generated SLA validator and ``PlannerConfig`` validation:
refusals raise :class:`~dynamo_schema._dgdr._common.DgdrError` with upstream's message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dynamo_schema._core._consts import V1BETA1 as DGDR_API_VERSION
from dynamo_schema._dgdr._common import DgdrError

DGDR_KIND = "DynamoGraphDeploymentRequest"

# Operator version whose default profiler image the webhook would use when spec.image is unset
# (platform chart version at the reference revision).
DEFAULT_OPERATOR_VERSION = "1.5.0"
DEFAULT_IMAGE_REPOSITORY = "nvcr.io/nvidia/ai-dynamo/dynamo-planner"

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


def _fmt_float(v: float) -> str:
    return f"{float(v)}"


# ---------------------------------------------------------------------------------------------------
# input reading and profiler-side validation


@dataclass
class Request:
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


def read_request(dgdr: Any, topology: dict[str, Any], notes: list[str], warnings: list[str]) -> Request:
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
    return Request(
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


def needs_mocker_aic_perf_model(req: Request) -> bool:
    if not req.mocker:
        return False
    if req.planner is not None:
        return req.planner.get("pre_deployment_sweeping_mode") == "rapid"
    return req.search_strategy == "rapid"


def needs_profile_data(req: Request) -> bool:
    if req.mocker:
        return not needs_mocker_aic_perf_model(req)
    if req.planner is not None and req.planner.get("enable_throughput_scaling"):
        return req.planner.get("pre_deployment_sweeping_mode") == "thorough"
    return False
