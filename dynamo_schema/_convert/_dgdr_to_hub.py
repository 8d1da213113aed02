"""DGDR v1alpha1 -> v1beta1 (after upstream ``dynamographdeploymentrequest_conversion.go``)."""

from __future__ import annotations

from .._core._consts import V1BETA1 as BETA
from ._annotations import DGDR_SCRUB, DGDR_SPEC_ANNOTATION
from ._dgdr_fields import (
    MODEL_CACHE_KEYS,
    OPT_TYPES,
    SPOKE_DGDR_KEYS,
    copy_scheduling,
    migrate_unnamed_profiler,
    profiler_container,
    profiler_index,
    strip_typed_profiling_config,
)
from ._envelope import finish_conversion, open_conversion
from ._json import JSONObject, dc, drop_nulls, is_number


def dgdr_to_beta(obj: JSONObject) -> JSONObject:
    out, meta, payload = open_conversion(obj, BETA, DGDR_SPEC_ANNOTATION, DGDR_SCRUB)
    restored = payload if payload is not None and not any(k in payload for k in SPOKE_DGDR_KEYS) else None
    src = obj.get("spec") or {}
    dst: JSONObject = {}
    save: JSONObject = {}
    _top_fields(src, dst)
    pc = src.get("profilingConfig") or {}
    blob = pc.get("config")
    if isinstance(blob, dict):
        _typed_from_blob(blob, dst)
        rem = {} if not blob else strip_typed_profiling_config(blob)
        if rem or not blob:
            save.setdefault("profilingConfig", {})["config"] = rem
    if pc.get("profilerImage"):
        dst["image"] = pc["profilerImage"]
    _pod_fields_to_job(pc, dst)
    _save_alpha_only(src, pc, save)
    if restored:
        _restore_hub_only(restored, dst)
    return finish_conversion(obj, out, meta, dst, dc, DGDR_SPEC_ANNOTATION, save, "AlphaDGDRSpec")


def _top_fields(src: JSONObject, dst: JSONObject) -> None:
    """The fields both versions hold at the top of the spec (``deploymentOverrides.workersImage`` is
    the image until a profiler image replaces it)."""
    if src.get("model") is not None:
        dst["model"] = src["model"]
    if src.get("runtimeVersionOverride"):
        dst["runtimeVersionOverride"] = src["runtimeVersionOverride"]
    dst["autoApply"] = bool(src.get("autoApply", False))
    if src.get("backend"):
        dst["backend"] = src["backend"]
    dep = src.get("deploymentOverrides") or {}
    if dep.get("workersImage"):
        dst["image"] = dep["workersImage"]
    if src.get("useMocker"):
        dst.setdefault("features", {})["mocker"] = {"enabled": True}


def _typed_from_blob(blob: JSONObject, dst: JSONObject) -> None:
    """``profilingConfig.config`` leaves with a typed v1beta1 home: SLA, workload, model cache, planner."""
    sla = blob.get("sla")
    if isinstance(sla, dict):
        d_sla = dst.setdefault("sla", {})
        for key in ("ttft", "itl"):
            if is_number(sla.get(key)):
                d_sla[key] = sla[key]
        if sla.get("optimizationType") in OPT_TYPES:
            d_sla["optimizationType"] = sla["optimizationType"]
        for key in ("isl", "osl"):
            if is_number(sla.get(key)):
                dst.setdefault("workload", {})[key] = int(sla[key])
    mc = (blob.get("deployment") or {}).get("modelCache") if isinstance(blob.get("deployment"), dict) else None
    if isinstance(mc, dict):
        d_mc: JSONObject = {}
        for a, b in MODEL_CACHE_KEYS:
            if isinstance(mc.get(a), str) and mc[a]:
                d_mc[b] = mc[a]
        dst["modelCache"] = d_mc
    if isinstance(blob.get("planner"), dict) and blob["planner"]:
        dst.setdefault("features", {})["planner"] = dc(blob["planner"])


def _pod_fields_to_job(pc: JSONObject, dst: JSONObject) -> None:
    """``profilingConfig`` pod fields -> ``overrides.profilingJob``."""
    if not (pc.get("resources") is not None or pc.get("tolerations") or pc.get("nodeSelector")):
        return
    job = dst.setdefault("overrides", {}).setdefault("profilingJob", {"template": {"spec": {}}})
    pod = job["template"]["spec"]
    if pc.get("resources") is not None:
        profiler_container(pod.setdefault("containers", []))["resources"] = dc(pc["resources"])
    copy_scheduling(pc, pod)


def _save_alpha_only(src: JSONObject, pc: JSONObject, save: JSONObject) -> None:
    """The v1alpha1-only fields, saved for the way back."""
    if src.get("enableGpuDiscovery") is not None:
        save["enableGpuDiscovery"] = src["enableGpuDiscovery"]
    if pc.get("configMapRef") is not None:
        save.setdefault("profilingConfig", {})["configMapRef"] = dc(pc["configMapRef"])
    if pc.get("outputPVC"):
        save.setdefault("profilingConfig", {})["outputPVC"] = pc["outputPVC"]
    if isinstance(src.get("deploymentOverrides"), dict):
        kept = {
            k: dc(v)
            for k, v in src["deploymentOverrides"].items()
            if k in ("name", "namespace", "labels", "annotations", "workersImage") and v
        }
        if kept:
            save["deploymentOverrides"] = kept


def _restore_hub_only(restored: JSONObject, dst: JSONObject) -> None:
    """The hub-only fields restored from a hub payload."""
    if restored.get("hardware") is not None:
        dst["hardware"] = dc(restored["hardware"])
    rw = restored.get("workload") or {}
    for key in ("concurrency", "requestRate"):
        if rw.get(key) is not None:
            dst.setdefault("workload", {})[key] = rw[key]
    if (restored.get("sla") or {}).get("e2eLatency") is not None:
        dst.setdefault("sla", {})["e2eLatency"] = restored["sla"]["e2eLatency"]
    ro = restored.get("overrides") or {}
    if ro:
        _restore_overrides(ro, dst)
    mocker = (restored.get("features") or {}).get("mocker")
    if isinstance(mocker, dict) and not mocker.get("enabled"):
        dst.setdefault("features", {}).setdefault("mocker", {"enabled": False})
    if restored.get("searchStrategy"):
        dst["searchStrategy"] = restored["searchStrategy"]


def _saved_job(job: JSONObject) -> JSONObject:
    """A saved ``batchv1.JobSpec`` as decoded: Go's ``null`` fields and the value structs its typed save
    always writes (the template's empty ``metadata``, a container's empty ``resources``) are absent."""
    job = drop_nulls(job)
    template = job.get("template")
    if isinstance(template, dict):
        if template.get("metadata") == {}:
            template.pop("metadata")
        pod = template.get("spec")
        if isinstance(pod, dict):
            for key in ("initContainers", "containers"):
                for c in pod.get(key) or []:
                    if isinstance(c, dict) and c.get("resources") == {}:
                        c.pop("resources")
        if not template:
            job.pop("template")
    return job


def _restore_overrides(ro: JSONObject, dst: JSONObject) -> None:
    overrides = dst.setdefault("overrides", {})
    if ro.get("dgd") is not None:
        overrides["dgd"] = dc(ro["dgd"])
    if isinstance(ro.get("profilingJob"), dict):
        saved = _saved_job(ro["profilingJob"])
        if "profilingJob" not in overrides:
            overrides["profilingJob"] = saved
        else:
            overrides["profilingJob"] = _merge_hub_only_job(overrides["profilingJob"], saved)
    if not overrides:
        dst.pop("overrides")


def _merge_hub_only_job(live: JSONObject, restored: JSONObject) -> JSONObject:
    """Upstream ``mergeDGDRHubOnlyProfilingJob``: restored job, live profiler resources/tolerations/nodeSelector."""
    pod = (live.get("template") or {}).get("spec") or {}
    containers = pod.get("containers") or []
    idx = profiler_index(containers)
    resources = containers[idx].get("resources") if idx >= 0 else None
    out = dc(restored)
    opod = out.setdefault("template", {}).setdefault("spec", {})
    ocontainers = opod.get("containers") or []
    migrate_unnamed_profiler(ocontainers)
    if resources:
        profiler_container(ocontainers)["resources"] = dc(resources)
    if ocontainers:
        opod["containers"] = ocontainers
    copy_scheduling(pod, opod)
    return out
