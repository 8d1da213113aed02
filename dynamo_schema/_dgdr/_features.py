"""Step 3: the Dynamo features (``dgd_generation.assemble_final_config``).

TRT-LLM chunked prefill, mocker base, KV router, vLLM self-benchmark, planner (:mod:`._planner`),
then ``runtimeVersionOverride`` on every component.
"""

from __future__ import annotations

import json
from typing import Any

from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._common import (
    apply_runtime_version_override,
    components_of,
    main_container,
    set_unique_env,
    worker_main_containers,
)
from dynamo_schema._dgdr._mocker import build_aic_interpolation_spec, generate_mocker_config
from dynamo_schema._dgdr._planner import add_planner_to_config, enable_planner_worker_scaling_adapters
from dynamo_schema._dgdr._request import Request, needs_profile_data

TRTLLM_CHUNKED_PREFILL_FLAG = "--trtllm.enable_chunked_prefill"


def enable_trtllm_chunked_prefill(dgd: dict[str, Any]) -> None:
    for _, mc in worker_main_containers(dgd):
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
    for comp in components_of(dgd):
        if comp.get("type") != "frontend":
            continue
        found = True
        mc = main_container(comp)
        if mc is None:
            warnings.append(
                f"Skipping KV router configuration for frontend {comp.get('name')!r} because it has no main container"
            )
            continue
        set_unique_env(mc, "DYN_ROUTER_MODE", "kv")
    if not found:
        warnings.append(
            "Skipping KV router configuration because the generated DGD has no frontend component"
        )


_VLLM_BENCHMARK_MODE = {"prefill": "prefill", "decode": "decode", "worker": "agg"}


def enable_vllm_benchmark_mode(dgd: dict[str, Any]) -> None:
    for comp in components_of(dgd):
        mode = _VLLM_BENCHMARK_MODE.get(str(comp.get("type")))
        if mode is None:
            continue
        mc = main_container(comp)
        if mc is not None:
            set_unique_env(mc, "DYN_BENCHMARK_MODE", mode)


def assemble_final_config(
    req: Request,
    dgd: dict[str, Any],
    backend: str,
    mode: str,
    topo: dict[str, Any],
    notes: list[str],
    warnings: list[str],
    steps: list[str],
) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """``assemble_final_config``: the DGD with the features applied, the mode (the mocker's is
    disaggregated) and the supporting resources (the planner ConfigMap)."""
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
        if needs_profile_data(req):
            notes.append(
                "profile data: thorough pre-deployment sweeping measures interpolation data and adds a "
                "planner-profile-data ConfigMap mounted into the Planner (and mocker workers); not produced"
            )
        apply_runtime_version_override(dgd, req.runtime_version, only_missing=False)
    if req.runtime_version:
        steps.append("runtime version override")
    return dgd, mode, resources
