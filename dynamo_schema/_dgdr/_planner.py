"""Step 3, planner: worker scaling adapters, the Planner component and its ConfigMap."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from dynamo_schema._dgdr._common import components_of, derive_planner_image
from dynamo_schema._dgdr._request import Request
from dynamo_schema._dgdr._topology import worker_shape

WORKSPACE_DIR = "/workspace"
PROFILE_DATA_MOUNT = f"{WORKSPACE_DIR}/profiling_results"
PLANNER_CONFIG_MOUNT = f"{WORKSPACE_DIR}/planner_config"
PLANNER_CONFIG_PREFIX = "planner-config"


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
    comps = components_of(dgd)
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


def _cm_suffix(req: Request) -> str:
    return hashlib.sha256(f"{req.namespace or ''}/{req.name}".encode()).hexdigest()[:4]


def add_planner_to_config(
    req: Request, dgd: dict[str, Any], topology: dict[str, Any], mode: str, notes: list[str]
) -> dict[str, Any]:
    planner_user = dict(req.spec.get("features", {}).get("planner") or {})
    cfg: dict[str, Any] = dict(planner_user)
    if mode == "disagg" or req.mocker:
        cfg["prefill_engine_num_gpu"] = worker_shape(topology, "prefill")["gpus"]
        cfg["decode_engine_num_gpu"] = worker_shape(topology, "decode")["gpus"]
    else:
        # the rapid pick's prefill/decode mappings both describe the aggregated engine
        cfg["prefill_engine_num_gpu"] = worker_shape(topology, "agg")["gpus"]
        cfg["decode_engine_num_gpu"] = worker_shape(topology, "agg")["gpus"]
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
