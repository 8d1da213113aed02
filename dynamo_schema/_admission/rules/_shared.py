"""Rules on the shared component spec (``shared_v1beta1.go`` / ``shared_helpers.go``), used by
both the DGD (per ``spec.components[i]``) and the DCD (``spec``)."""

from __future__ import annotations

from ..._core._consts import GPU_RESOURCE
from ..._core._diagnostics import Diagnostic, Path
from ..._core._record import Record
from ..._k8s._container import has_arg
from ..._k8s._quantity import parse_quantity_json as parse_quantity
from .._common import (
    as_dict,
    as_int,
    as_list,
    as_str,
    duplicate,
    forbidden,
    get,
    invalid,
    not_supported,
    required,
)
from .._component import (
    GMS_INTER,
    GMS_INTRA,
    containers,
    effective_mode,
    failover,
    gms,
    is_multinode,
    main_container,
    main_resources,
)
from .._provider import (
    GROVE_API_VERSION,
    SCOPE_COMPONENT,
    SCOPE_LEADER,
    SCOPE_WORKER,
    expected_target,
    validate_value,
)
from .._runtime_version import image_has_version
from .._settings import AdmissionSettings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

RUNTIME_VERSION_OVERRIDE_REQUIRED = (
    "is required when the specified main container image has no parseable semantic-version tag"
)
GROVE_ONLY = "is currently supported only for Grove-backed DynamoGraphDeployment components"
INFERENCE_POOL_GROUP = "inference.networking.k8s.io"


class Ctx(Record):
    """Per-request validation context (the Go ``sharedValidation`` plus per-resource options)."""

    __slots__ = _FIELDS = ("prefix", "settings", "grove_pathway", "validate_inference_pool",
                                            "provider_overrides_supported", "workload_provider",
                                            "check_runtime_version", "allow_missing_override")
    prefix: str  # "dgd" or "dcd"
    settings: AdmissionSettings
    grove_pathway: bool
    validate_inference_pool: bool
    provider_overrides_supported: bool
    workload_provider: str
    check_runtime_version: bool
    allow_missing_override: bool

    def __init__(self, prefix: str, settings: AdmissionSettings, grove_pathway: bool = False,
                 validate_inference_pool: bool = False, provider_overrides_supported: bool = False,
                 workload_provider: str = "", check_runtime_version: bool = True,
                 allow_missing_override: bool = False) -> None:
        self.prefix = prefix
        self.settings = settings
        self.grove_pathway = grove_pathway
        self.validate_inference_pool = validate_inference_pool
        self.provider_overrides_supported = provider_overrides_supported
        self.workload_provider = workload_provider
        self.check_runtime_version = check_runtime_version
        self.allow_missing_override = allow_missing_override

    def rid(self, name: str) -> str:
        return f"{self.prefix}.{name}"


# --------------------------------------------------------------------------- quantities / GPUs

def quantity_string(v: Any) -> str:
    return v if isinstance(v, str) else str(v)


def _is_gpu_resource(name: str) -> bool:
    n = name.lower()
    return n == GPU_RESOURCE or n == "gpu" or n.endswith("/gpu") or "/mig-" in n or n.startswith("gpu.")


def gpu_count(resources: dict[str, Any]) -> tuple[int, str | None]:
    """``dra.ExtractGPUCountFromResourceRequirements``: (count, error)."""
    for key in ("limits", "requests"):
        rl = as_dict(resources.get(key))
        names = sorted(str(k) for k in rl if _is_gpu_resource(str(k)))
        if names:
            q = parse_quantity(rl[names[0]])
            if q is None:
                return 0, None
            if q != q.to_integral_value():
                return (
                    0,
                    f'GPU resource "{names[0]}" quantity "{quantity_string(rl[names[0]])}" must be a whole number',
                )
            # Quantity.Value() rounds up fractional values; whole numbers are exact.
            return int(q), None
    return 0, None


# --------------------------------------------------------------------------- provider override


def validate_provider_override(
    ctx: Ctx, override: Any, path: Path, scope: str, component: Any
) -> list[Diagnostic]:
    rid = ctx.rid
    if not ctx.provider_overrides_supported:
        return [
            forbidden(
                rid("provider-override-context"),
                path,
                "provider overrides are supported only for components embedded in a DynamoGraphDeployment",
            )
        ]
    if ctx.workload_provider == "":
        return [
            forbidden(
                rid("provider-override-context"),
                path,
                'requires controller-owned annotation "nvidia.com/workload-provider" to be materialized; '
                "wait for controller adoption and retry",
            )
        ]
    if ctx.workload_provider != "grove":
        return [
            forbidden(
                rid("provider-override-context"),
                path,
                f'requires workload provider "grove", but "{ctx.workload_provider}" is selected',
            )
        ]
    ov = as_dict(override)
    api_version = as_str(ov.get("apiVersion"))
    if api_version == "":
        return [required(rid("provider-override-api-version"), path + ("apiVersion",), "is required")]
    if api_version != GROVE_API_VERSION:
        return [
            not_supported(
                rid("provider-override-api-version"), path + ("apiVersion",), api_version, [GROVE_API_VERSION]
            )
        ]
    target, err = expected_target(ctx.workload_provider, api_version, scope, component)
    if err is not None:
        return [forbidden(rid("provider-override-target"), path, err)]
    got = as_str(ov.get("target"))
    if got == "":
        return [
            required(
                rid("provider-override-target"),
                path + ("target",),
                "must be defaulted from the provider context",
            )
        ]
    if got != target:
        return [
            invalid(
                rid("provider-override-target"),
                path + ("target",),
                got,
                f'must match the provider-context target "{target}"',
            )
        ]
    out: list[Diagnostic] = []
    value_path = path + ("value",)
    for sub, detail, ownership in validate_value(got, ov.get("value")):
        p = value_path + (tuple(sub.split(".")) if sub else ())
        if ownership:
            out.append(forbidden(rid("provider-override-value"), p, detail))
        else:
            out.append(invalid(rid("provider-override-value"), p, None, detail))
    return out


# --------------------------------------------------------------------------- shared spec


def validate_shared_spec(ctx: Ctx, spec: dict[str, Any], path: Path) -> list[Diagnostic]:
    rid = ctx.rid
    errs: list[Diagnostic] = []

    if spec.get("providerOverride") is not None:
        errs += validate_provider_override(
            ctx, spec.get("providerOverride"), path + ("providerOverride",), SCOPE_COMPONENT, spec
        )

    if spec.get("minAvailable") is not None and not ctx.grove_pathway:
        errs.append(forbidden(rid("min-available-grove"), path + ("minAvailable",), GROVE_ONLY))

    multinode = spec.get("multinode")
    if isinstance(multinode, dict):
        for role, scope in (("leader", SCOPE_LEADER), ("worker", SCOPE_WORKER)):
            ro = get(multinode, role, "providerOverride")
            if ro is not None:
                errs += validate_provider_override(
                    ctx, ro, path + ("multinode", role, "providerOverride"), scope, spec
                )

    shm = spec.get("sharedMemorySize")
    if shm is not None:
        q = parse_quantity(shm)
        if q is not None and q < 0:
            errs.append(
                invalid(
                    rid("shared-memory-size"),
                    path + ("sharedMemorySize",),
                    quantity_string(shm),
                    "must be non-negative",
                )
            )

    if spec.get("type") == "epp":
        if ctx.validate_inference_pool and not ctx.settings.inference_pool_available:
            errs.append(
                forbidden(
                    rid("epp-inference-pool"),
                    path + ("type",),
                    f"cannot deploy EPP component: InferencePool API group ({INFERENCE_POOL_GROUP}) is not "
                    "available in the cluster; install the Gateway API Inference Extension before "
                    "deploying EPP components",
                )
            )
        if is_multinode(spec):
            errs.append(
                forbidden(rid("epp-multinode"), path + ("multinode",), "EPP component cannot be multinode")
            )
        replicas = as_int(spec.get("replicas"))
        if replicas is not None and replicas != 1:
            errs.append(
                invalid(
                    rid("epp-replicas"),
                    path + ("replicas",),
                    replicas,
                    "EPP component must have exactly 1 replica",
                )
            )
        if spec.get("eppConfig") is None:
            errs.append(
                required(rid("epp-config-required"), path + ("eppConfig",), "is required for EPP components")
            )
    epp_config = spec.get("eppConfig")
    if isinstance(epp_config, dict):
        cmr = epp_config.get("configMapRef")
        if isinstance(cmr, dict) and as_str(cmr.get("name")) == "":
            errs.append(
                required(
                    rid("epp-config-map-name"), path + ("eppConfig", "configMapRef", "name"), "is required"
                )
            )

    if "frontendSidecar" in spec and spec.get("frontendSidecar") is not None:
        fs = as_str(spec.get("frontendSidecar"))
        if spec.get("podTemplate") is None:
            errs.append(
                required(
                    rid("frontend-sidecar"),
                    path + ("podTemplate", "spec", "containers"),
                    "is required when frontendSidecar is set",
                )
            )
        elif fs == "":
            errs.append(
                invalid(rid("frontend-sidecar"), path + ("frontendSidecar",), fs, "must not be empty")
            )
        elif fs not in [as_str(as_dict(c).get("name")) for c in containers(spec)]:
            errs.append(
                invalid(
                    rid("frontend-sidecar"),
                    path + ("frontendSidecar",),
                    fs,
                    "must match a podTemplate.spec.containers name",
                )
            )

    experimental = spec.get("experimental")
    if isinstance(experimental, dict):
        errs += _validate_experimental(ctx, spec, experimental, path + ("experimental",))

    if ctx.check_runtime_version:
        image, image_path = runtime_image_and_path(spec, path)
        errs += runtime_version_rules(
            ctx.prefix, path, image, image_path, as_str(spec.get("runtimeVersionOverride")),
            ctx.allow_missing_override,
        )
    return errs


def runtime_image_and_path(spec: Any, path: Path) -> tuple[str, Path]:
    base = path + ("podTemplate", "spec", "containers")
    idx, main = main_container(spec)
    if idx >= 0 and main is not None:
        return as_str(main.get("image")), base + (idx, "image")
    return "", base


def override_required(image: str, override: str) -> bool:
    return override == "" and not image_has_version(image)


def runtime_version_rules(
    prefix: str,
    path: Path,
    image: str,
    image_path: Path,
    override: str,
    allow_missing_override: bool,
    old: tuple[str, str] | None = None,
) -> list[Diagnostic]:
    """The main image is required and an unversioned image needs ``runtimeVersionOverride``. On
    update (``old`` = the old image and override) only a removed image, or a missing override
    where the image or override changed, is reported."""
    if old is None:
        missing_image, changed = image == "", True
    else:
        missing_image, changed = image == "" and old[0] != "", (image, override) != old
    if missing_image:
        return [required(f"{prefix}.main-image-required", image_path, "is required")]
    if not allow_missing_override and override_required(image, override) and changed:
        return [
            required(
                f"{prefix}.runtime-version-override-required",
                path + ("runtimeVersionOverride",),
                RUNTIME_VERSION_OVERRIDE_REQUIRED,
            )
        ]
    return []


def validate_gms(ctx: Ctx, spec: dict[str, Any], g: dict[str, Any], path: Path) -> list[Diagnostic]:
    rid = ctx.rid
    errs: list[Diagnostic] = []
    if spec.get("type") not in ("worker", "prefill", "decode"):
        errs.append(
            forbidden(
                rid("gms-component-type"),
                path,
                "GPU memory service is only supported for worker, prefill, or decode components",
            )
        )
    count, err = gpu_count(main_resources(spec))
    if err is not None or count < 1:
        errs.append(
            forbidden(
                rid("gms-gpu"),
                path,
                "GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1",
            )
        )
    if effective_mode(g.get("mode")) != GMS_INTRA:
        return errs
    names = [as_str(as_dict(c).get("name")) for c in containers(spec)]
    seen: set[Any] = set()
    for i, name in enumerate(as_list(g.get("extraClientContainers"))):
        p = path + ("extraClientContainers", i)
        key = name if isinstance(name, (str, int, float, bool)) or name is None else repr(name)
        if key in seen:
            errs.append(duplicate(rid("gms-client-duplicate"), p, name))
            continue
        seen.add(key)
        if not isinstance(name, str) or name not in names:
            errs.append(
                invalid(
                    rid("gms-client-container"),
                    p,
                    name,
                    "does not name a container in podTemplate.spec.containers",
                )
            )
    return errs


def _validate_experimental(
    ctx: Ctx, spec: dict[str, Any], exp: dict[str, Any], path: Path
) -> list[Diagnostic]:
    rid = ctx.rid
    errs: list[Diagnostic] = []
    g = exp.get("gpuMemoryService") if isinstance(exp.get("gpuMemoryService"), dict) else None
    if g is not None:
        errs += validate_gms(ctx, spec, g, path + ("gpuMemoryService",))
    f = exp.get("failover") if isinstance(exp.get("failover"), dict) else None
    if f is not None:
        fpath = path + ("failover",)
        mode = effective_mode(f.get("mode"))
        if g is None:
            errs.append(
                forbidden(
                    rid("failover-gms-required"),
                    fpath,
                    f'gpuMemoryService is required when failover mode is "{mode}"',
                )
            )
        elif effective_mode(g.get("mode")) != mode:
            errs.append(
                invalid(
                    rid("failover-mode-match"),
                    fpath + ("mode",),
                    as_str(f.get("mode")),
                    f'must match gpuMemoryService.mode "{as_str(g.get("mode"))}"',
                )
            )
        if mode == GMS_INTER:
            count, err = gpu_count(main_resources(spec))
            if err is not None:
                errs.append(
                    forbidden(rid("failover-gpu"), fpath, f"failed to read main-container GPU limit: {err}")
                )
            elif count < 1:
                errs.append(
                    forbidden(
                        rid("failover-gpu"),
                        fpath,
                        "GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
                    )
                )
            ctype = as_str(spec.get("type"))
            if ctype in ("epp", "frontend", "planner"):
                errs.append(
                    forbidden(
                        rid("failover-component-type"),
                        fpath,
                        f'GMS failover is not supported for component type "{ctype}"',
                    )
                )
    grove = exp.get("grove")
    if isinstance(grove, dict) and grove.get("forceScalingGroup") is True and not ctx.grove_pathway:
        errs.append(
            forbidden(rid("force-scaling-group-grove"), path + ("grove", "forceScalingGroup"), GROVE_ONLY)
        )
    ck = exp.get("checkpoint")
    if isinstance(ck, dict):
        cpath = path + ("checkpoint",)
        if ck.get("enabled") is True and not ctx.settings.checkpoint_enabled:
            errs.append(
                forbidden(
                    rid("checkpoint-disabled"),
                    cpath,
                    "checkpoint functionality is disabled in the operator configuration",
                )
            )
        job = ck.get("job")
        if isinstance(job, dict) and as_list(job.get("gmsClientContainers")):
            jp = cpath + ("job", "gmsClientContainers")
            if g is None:
                errs.append(
                    forbidden(
                        rid("checkpoint-gms-client-containers"), jp, "requires gpuMemoryService to be set"
                    )
                )
            elif effective_mode(g.get("mode")) == GMS_INTER:
                errs.append(
                    forbidden(
                        rid("checkpoint-gms-client-containers"),
                        jp,
                        "is only supported with gpuMemoryService.mode=IntraPod",
                    )
                )
        if ck.get("enabled") is True:
            if g is not None and g.get("mode") == GMS_INTER:
                errs.append(
                    forbidden(
                        rid("checkpoint-compatibility"),
                        cpath,
                        "Snapshot with gpuMemoryService.mode=InterPod is unsupported",
                    )
                )
            if exp.get("failover") is not None:
                errs.append(
                    forbidden(
                        rid("checkpoint-compatibility"),
                        cpath,
                        "Snapshot with active/passive failover is temporarily unsupported",
                    )
                )
    return errs


# --------------------------------------------------------------------------- elastic EP

ELASTIC_EP_DETAIL = (
    "elastic expert parallelism (--enable-elastic-ep with --data-parallel-backend ray) requires an explicit "
    "container command; the operator starts the single-pod Ray head by wrapping that command and cannot "
    "start it from the image ENTRYPOINT"
)



def is_elastic_ep_ray_launch(container: dict[str, Any]) -> bool:
    expanded: list[str] = []
    for arg in as_list(container.get("command")) + as_list(container.get("args")):
        if isinstance(arg, str):
            expanded += arg.split()
    return "--enable-elastic-ep" in expanded and (
        has_arg(expanded, "--data-parallel-backend", "ray") or has_arg(expanded, "-dpb", "ray")
    )


def validate_elastic_ep(
    ctx: Ctx, backend_framework: str, spec: dict[str, Any], path: Path
) -> list[Diagnostic]:
    if backend_framework != "vllm" or spec.get("podTemplate") is None:
        return []
    idx, main = main_container(spec)
    if main is None or as_list(main.get("command")) or not is_elastic_ep_ray_launch(main):
        return []
    return [
        required(
            ctx.rid("elastic-ep-command"),
            path + ("podTemplate", "spec", "containers", idx, "command"),
            ELASTIC_EP_DETAIL,
        )
    ]


__all__ = ["Ctx", "failover", "gms", "validate_shared_spec"]
