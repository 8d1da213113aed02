"""DGDR v1beta1 -> v1alpha1 (after upstream ``dynamographdeploymentrequest_conversion.go``)."""

from __future__ import annotations

from .._core._consts import V1ALPHA1 as ALPHA
from ._annotations import DGDR_SCRUB, DGDR_SPEC_ANNOTATION
from ._dgdr_fields import (
    MODEL_CACHE_KEYS,
    PROFILER,
    SPOKE_DGDR_KEYS,
    copy_scheduling,
    migrate_unnamed_profiler,
    profiler_index,
    strip_typed_profiling_config,
)
from ._envelope import finish_conversion, open_conversion
from ._json import JSONObject, dc, deep_empty


def _hub_only_profiling_job(job: JSONObject | None) -> JSONObject | None:
    """Upstream ``dgdrHubOnlyProfilingJob``: the job minus what v1alpha1 profilingConfig holds."""
    if not isinstance(job, dict):
        return None
    save = dc(job)
    pod = ((save.get("template") or {}).get("spec")) or {}
    containers = pod.get("containers") or []
    migrate_unnamed_profiler(containers)
    idx = profiler_index(containers)
    if idx >= 0:
        had = bool(containers[idx].get("resources"))
        containers[idx].pop("resources", None)
        if had and containers[idx] == {"name": PROFILER} and len(containers) == 1:
            del containers[idx]
    pod.pop("tolerations", None)
    pod.pop("nodeSelector", None)
    return None if deep_empty(save) else save


def dgdr_to_alpha(obj: JSONObject) -> JSONObject:
    out, meta, payload = open_conversion(obj, ALPHA, DGDR_SPEC_ANNOTATION, DGDR_SCRUB)
    restored = payload if payload is not None and any(k in payload for k in SPOKE_DGDR_KEYS) else None
    src = obj.get("spec") or {}
    dst: JSONObject = {"model": src.get("model", "")}
    if src.get("runtimeVersionOverride"):
        dst["runtimeVersionOverride"] = src["runtimeVersionOverride"]
    dst["autoApply"] = src["autoApply"] if src.get("autoApply") is not None else True
    if src.get("backend"):
        dst["backend"] = src["backend"]
    mocker = (src.get("features") or {}).get("mocker")
    if isinstance(mocker, dict) and mocker.get("enabled"):
        dst["useMocker"] = True
    pc: JSONObject = {}
    rpc = (restored or {}).get("profilingConfig") or {}
    blob = _profiling_blob(src, rpc)
    if blob is not None:
        pc["config"] = blob
    if src.get("image"):
        pc["profilerImage"] = src["image"]
    if restored:
        _restore_alpha_only(restored, rpc, dst, pc)
    _job_to_pod_fields(src, pc)
    dst["profilingConfig"] = pc
    save = _save_hub_only(src, mocker)
    return finish_conversion(obj, out, meta, dst, dc, DGDR_SPEC_ANNOTATION, save, "HubDGDRSpec")


def _profiling_blob(src: JSONObject, rpc: JSONObject) -> JSONObject | None:
    """``profilingConfig.config``: the saved blob without its typed leaves, then the typed v1beta1
    fields written back into it (SLA and workload, model cache, planner)."""
    blob: JSONObject | None = None
    if isinstance(rpc.get("config"), dict):
        blob = strip_typed_profiling_config(rpc["config"])
    if src.get("sla") is not None or src.get("workload") is not None:
        blob = _blob_sla(src, blob)
    if isinstance(src.get("modelCache"), dict):
        blob = _blob_model_cache(src["modelCache"], blob)
    planner = (src.get("features") or {}).get("planner")
    if isinstance(planner, dict) and planner:
        nxt = blob if blob is not None else {}
        nxt["planner"] = dc(planner)
        blob = nxt
    return blob


def _blob_sla(src: JSONObject, blob: JSONObject | None) -> JSONObject | None:
    nxt = blob if blob is not None else {}
    had = isinstance(nxt.get("sla"), dict)
    sla = dict(nxt.get("sla") or {}) if had else {}
    wrote = False
    for key in ("ttft", "itl", "optimizationType"):
        if (src.get("sla") or {}).get(key) is not None:
            sla[key] = src["sla"][key]
            wrote = True
    for key in ("isl", "osl"):
        if (src.get("workload") or {}).get(key) is not None:
            sla[key] = src["workload"][key]
            wrote = True
    if not (wrote or had):
        return blob
    nxt["sla"] = sla
    return nxt


def _blob_model_cache(model_cache: JSONObject, blob: JSONObject | None) -> JSONObject | None:
    nxt = blob if blob is not None else {}
    mc = {}
    for alpha_key, beta_key in MODEL_CACHE_KEYS:
        if model_cache.get(beta_key):
            mc[alpha_key] = model_cache[beta_key]
    if not mc:
        return blob
    dep = dict(nxt.get("deployment") or {}) if isinstance(nxt.get("deployment"), dict) else {}
    dep["modelCache"] = mc
    nxt["deployment"] = dep
    return nxt


def _restore_alpha_only(restored: JSONObject, rpc: JSONObject, dst: JSONObject, pc: JSONObject) -> None:
    """The v1alpha1-only fields restored from a spoke payload."""
    if restored.get("enableGpuDiscovery") is not None:
        dst["enableGpuDiscovery"] = restored["enableGpuDiscovery"]
    if rpc.get("configMapRef") is not None:
        pc["configMapRef"] = dc(rpc["configMapRef"])
    if rpc.get("outputPVC"):
        pc["outputPVC"] = rpc["outputPVC"]
    if isinstance(restored.get("deploymentOverrides"), dict):
        dst["deploymentOverrides"] = dc(restored["deploymentOverrides"])


def _job_to_pod_fields(src: JSONObject, pc: JSONObject) -> None:
    """``overrides.profilingJob`` -> ``profilingConfig`` pod fields."""
    job = (src.get("overrides") or {}).get("profilingJob")
    if not isinstance(job, dict):
        return
    pod = (job.get("template") or {}).get("spec") or {}
    containers = dc(pod.get("containers") or [])
    migrate_unnamed_profiler(containers)
    idx = profiler_index(containers)
    if idx >= 0 and containers[idx].get("resources"):
        pc["resources"] = dc(containers[idx]["resources"])
    copy_scheduling(pod, pc)


def _save_hub_only(src: JSONObject, mocker: object) -> JSONObject:
    """The hub-only fields, saved for the way back."""
    save: JSONObject = {}
    if src.get("hardware") is not None:
        save["hardware"] = dc(src["hardware"])
    wl = {
        k: src["workload"][k] for k in ("concurrency", "requestRate") if (src.get("workload") or {}).get(k) is not None
    }
    if wl:
        save["workload"] = wl
    if (src.get("sla") or {}).get("e2eLatency") is not None:
        save["sla"] = {"e2eLatency": src["sla"]["e2eLatency"]}
    ov = src.get("overrides") or {}
    so: JSONObject = {}
    if ov.get("dgd") is not None:
        so["dgd"] = dc(ov["dgd"])
    hub_job = _hub_only_profiling_job(ov.get("profilingJob"))
    if hub_job:
        so["profilingJob"] = hub_job
    if so:
        save["overrides"] = so
    if isinstance(mocker, dict) and not mocker.get("enabled"):
        save["features"] = {"mocker": {"enabled": False}}
    if src.get("searchStrategy"):
        save["searchStrategy"] = src["searchStrategy"]
    return save
