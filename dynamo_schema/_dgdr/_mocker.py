"""Step 3, mocker: the mocker blueprint and the AI-Configurator (``--aic-*``) arguments of its workers.

``profiler/utils/dgd_generation.py`` ``generate_mocker_config``, ``_inject_mocker_aic_args`` and
``build_aic_interpolation_spec``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._blueprints import load_blueprint
from dynamo_schema._dgdr._common import component_named, components_of, main_container
from dynamo_schema._dgdr._request import Request, needs_mocker_aic_perf_model

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
    req: Request, backend: str, mode: str, topology: dict[str, Any], notes: list[str]
) -> AicSpec | None:
    """``build_aic_interpolation_spec`` (and its caller's gate in ``profile_sla.py``): a spec when a
    mocker in rapid mode or a throughput-scaling planner with rapid sweeping needs it, the pick is
    disaggregated (both picks present) and AIC supports the backend; else None."""
    planner = req.planner
    mocker_needs = needs_mocker_aic_perf_model(req)
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


def generate_mocker_config(req: Request, aic_spec: AicSpec | None = None) -> dict[str, Any]:
    dgd = load_blueprint("mocker", "disagg")
    for comp in components_of(dgd):
        mc = main_container(comp)
        if mc is not None and req.image:
            mc["image"] = req.image
    picks = {"prefill": aic_spec.prefill_pick, "decode": aic_spec.decode_pick} if aic_spec else {}
    for name in ("prefill", "decode"):
        worker = component_named(dgd, name)
        mc = main_container(worker) if worker is not None else None
        if mc is None:
            continue
        args = list(mc.get("args", []))
        args = A.set_argument_value(args, "--model-path", req.model)
        args = A.set_argument_value(args, "--model-name", req.model)
        if aic_spec is not None:
            args = inject_mocker_aic_args(args, aic_spec, picks[name])
        mc["args"] = args
    return dgd
