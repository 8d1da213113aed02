"""Blueprint choice: the concrete backend and the deployment mode the rapid strategy picks.

The rapid strategy simulates a disaggregated deployment when the planner autoscales (picking mode
"autoscale"); otherwise its naive fallback generates an aggregated one. The mocker's blueprint is
disaggregated; its AIC pick is taken to be disaggregated too. Every default taken is reported in
``notes``.
"""

from __future__ import annotations

from typing import Any

from dynamo_schema._dgdr._common import BACKEND_IMAGE_NAMES, DgdrError
from dynamo_schema._dgdr._request import Request, needs_mocker_aic_perf_model

DEFAULT_NAIVE_BACKEND = "vllm"


def choose_blueprint(req: Request, topo: dict[str, Any], notes: list[str]) -> tuple[str, str]:
    """(backend, mode) of the blueprint: ``spec.backend`` (``auto`` resolved from ``topology`` or the
    naive-fallback default) and ``topology`` ``mode`` or the rapid strategy's default."""
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
    default_mode = "disagg" if req.planner_enabled or req.mocker else "agg"
    mode = str(topo.get("mode") or default_mode)
    if mode not in ("agg", "disagg"):
        raise DgdrError(f"Invalid mode '{mode}': must be 'agg' or 'disagg'")
    if "mode" not in topo and req.mocker and needs_mocker_aic_perf_model(req):
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
    return backend, mode
