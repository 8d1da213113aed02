"""DGDR fields both directions map: the profiler container and the typed part of ``profilingConfig.config``."""

from __future__ import annotations

from ._json import JSONArray, JSONObject, dc, is_number

PROFILER = "profiler"
OPT_TYPES = ("latency", "throughput")
SPOKE_DGDR_KEYS = ("enableGpuDiscovery", "profilingConfig", "deploymentOverrides")
# v1alpha1 ``profilingConfig.config.deployment.modelCache`` key -> v1beta1 ``modelCache`` key
MODEL_CACHE_KEYS = (("pvcName", "pvcName"), ("modelPathInPvc", "pvcModelPath"), ("pvcMountPath", "pvcMountPath"))


def strip_typed_profiling_config(blob: JSONObject | None) -> JSONObject | None:
    """Upstream ``stripDGDRTypedProfilingConfig``: the blob minus leaves projected to typed fields."""
    if blob is None:
        return None
    out = dict(blob)
    if not out:
        return out
    if isinstance(out.get("sla"), dict):
        sla = dict(out["sla"])
        stripped = False
        for key in ("ttft", "itl", "isl", "osl"):
            if is_number(sla.get(key)):
                del sla[key]
                stripped = True
        if sla.get("optimizationType") in OPT_TYPES:
            del sla["optimizationType"]
            stripped = True
        if stripped and not sla:
            del out["sla"]
        else:
            out["sla"] = sla
    if isinstance(out.get("deployment"), dict):
        dep = dict(out["deployment"])
        stripped = False
        if isinstance(dep.get("modelCache"), dict):
            mc = dict(dep["modelCache"])
            for key in ("pvcName", "modelPathInPvc", "pvcMountPath"):
                if isinstance(mc.get(key), str) and mc[key]:
                    del mc[key]
                    stripped = True
            if stripped and not mc:
                del dep["modelCache"]
            else:
                dep["modelCache"] = mc
        if stripped and not dep:
            del out["deployment"]
        else:
            out["deployment"] = dep
    if isinstance(out.get("planner"), dict) and out["planner"]:
        del out["planner"]
    return out


def profiler_index(containers: JSONArray) -> int:
    for i, c in enumerate(containers):
        if isinstance(c, dict) and c.get("name") == PROFILER:
            return i
    return -1


def migrate_unnamed_profiler(containers: JSONArray) -> None:
    if profiler_index(containers) >= 0:
        return
    for c in containers:
        if isinstance(c, dict) and not c.get("name"):
            c["name"] = PROFILER
            return


def profiler_container(containers: list[JSONObject]) -> JSONObject:
    """The ``profiler`` container of ``containers``, appended when there is none."""
    idx = profiler_index(containers)
    if idx < 0:
        containers.append({"name": PROFILER})
        idx = len(containers) - 1
    return containers[idx]


def copy_scheduling(src: JSONObject, dst: JSONObject) -> None:
    """The profiler pod's ``tolerations`` and ``nodeSelector`` (when set), copied between the
    v1alpha1 ``profilingConfig`` and the v1beta1 ``overrides.profilingJob`` pod spec."""
    for key in ("tolerations", "nodeSelector"):
        if src.get(key):
            dst[key] = dc(src[key])
