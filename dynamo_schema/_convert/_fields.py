"""Fields of the shared component spec both directions map: main/sidecar containers, resources, shared memory,
compilation-cache mounts, GPU memory service / failover modes, fields spelled the same in both versions."""

from __future__ import annotations

from .._core._consts import GPU_RESOURCE
from .._k8s._quantity import quantity_is_zero
from ._json import JSONObject, dc, deep_empty, no_none, set_nonempty

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

MAIN = "main"
FRONTEND_SIDECAR = "sidecar-frontend"


def _item_to_list(item: JSONObject | None) -> JSONObject | None:
    if not isinstance(item, dict):
        return None
    out: JSONObject = {}
    if item.get("cpu"):
        out["cpu"] = item["cpu"]
    if item.get("memory"):
        out["memory"] = item["memory"]
    if item.get("gpu"):
        out[item.get("gpuType") or GPU_RESOURCE] = item["gpu"]
    for k, v in (item.get("custom") or {}).items():
        out[k] = v
    return out or None


def _list_to_item(lst: JSONObject | None) -> JSONObject | None:
    if not lst:
        return None
    out: JSONObject = {}
    for name, q in lst.items():
        if name == "cpu":
            out["cpu"] = q
        elif name == "memory":
            out["memory"] = q
        elif name == GPU_RESOURCE:
            out["gpu"] = q
        else:
            out.setdefault("custom", {})[name] = q
    return out


def _map_resources(r: JSONObject, item: Any) -> JSONObject:
    """limits / requests through ``item`` (one direction of the list mapping), claims verbatim."""
    out: JSONObject = {}
    for key in ("limits", "requests"):
        set_nonempty(out, key, item(r.get(key)))
    if r.get("claims"):
        out["claims"] = dc(r["claims"])
    return out


def resources_to_native(r: JSONObject) -> JSONObject:
    return _map_resources(r, _item_to_list)


def resources_from_native(r: JSONObject | None) -> JSONObject | None:
    return _map_resources(r, _list_to_item) or None if isinstance(r, dict) else None


GMS_TO_BETA = {"intraPod": "IntraPod", "interPod": "InterPod"}
GMS_TO_ALPHA = {v: k for k, v in GMS_TO_BETA.items()}
GMS_FEATURES = ("gpuMemoryService", "failover")  # enabled flag <-> presence under experimental

# fields both versions spell the same way
_DIRECT_FIELDS = (
    "providerOverride",
    "runtimeVersionOverride",
    "globalDynamoNamespace",
    "replicas",
    "minAvailable",
    "multinode",
    "modelRef",
    "topologyConstraint",
    "eppConfig",
)


def copy_direct(src: JSONObject, dst: JSONObject) -> None:
    for k in _DIRECT_FIELDS:
        if src.get(k) is not None:
            dst[k] = dc(src[k])


def with_mode(spec: JSONObject, modes: JSONObject) -> JSONObject:
    """A copy of a GPU-memory-service / failover spec with its ``mode`` spelled for the target."""
    out = dc(spec)
    if "mode" in out:
        out["mode"] = modes.get(out["mode"], out["mode"])
    return out


def resources_need_preservation(res: Any) -> bool:
    """Upstream ``resourcesNeedPreservation``: the flat resources do not survive the native list
    round trip (``gpuType`` equal to the default key, empty items, ``resources: {}``)."""
    return isinstance(res, dict) and resources_from_native(resources_to_native(res)) != res


def cache_mount_count(mounts: Any) -> int:
    return sum(1 for m in mounts or [] if isinstance(m, dict) and m.get("useAsCompilationCache"))


def cache_mount(cc: JSONObject) -> JSONObject:
    """The v1alpha1 flagged volume mount of a v1beta1 ``compilationCache``."""
    return no_none(name=cc.get("pvcName"), mountPoint=cc.get("mountPath"), useAsCompilationCache=True)


def mounts_cache(cc: JSONObject, m: JSONObject) -> bool:
    """The v1beta1 container mount ``m`` is the one of the compilation cache ``cc``."""
    return bool(m.get("name") == cc.get("pvcName") and m.get("mountPath") == cc.get("mountPath"))


def same_mount(a: JSONObject, b: JSONObject) -> bool:
    return a.get("name") == b.get("name") and a.get("mountPoint") == b.get("mountPoint")


def is_native_mount(ctr: JSONObject, mount: JSONObject) -> bool:
    return any(
        v.get("name") == mount.get("name") and v.get("mountPath") == mount.get("mountPoint")
        for v in ctr.get("volumeMounts") or []
    )


def shm_needs_preservation(sm: Any) -> bool:
    """Upstream ``sharedMemoryNeedsPreservation``: the struct the scalar cannot carry."""
    if not isinstance(sm, dict):
        return False
    zero = quantity_is_zero(sm.get("size"))
    return not zero if sm.get("disabled") else zero


def main_of(comp: JSONObject) -> JSONObject | None:
    for c in ((comp.get("podTemplate") or {}).get("spec") or {}).get("containers") or []:
        if isinstance(c, dict) and c.get("name") == MAIN:
            return c
    return None


def containers_of(pt: Any) -> list[JSONObject]:
    if not isinstance(pt, dict):
        return []
    spec = pt.get("spec")
    out = spec.get("containers") if isinstance(spec, dict) else None
    return [c for c in out or [] if isinstance(c, dict)]


def find_ctr(ctrs: list[JSONObject], name: Any) -> JSONObject | None:
    return next((c for c in ctrs if c.get("name") == name), None)


def only_name(c: JSONObject) -> bool:
    """``containerHasOnlyName``."""
    return all(deep_empty(v) for k, v in c.items() if k != "name")


def find_mount(mounts: list[JSONObject], mount: JSONObject) -> JSONObject | None:
    """``findPreservedVolumeMount``: same name and path, else the only mount of that name."""
    for m in mounts:
        if m.get("name") == mount.get("name") and m.get("mountPath") == mount.get("mountPath"):
            return m
    named = [m for m in mounts if m.get("name") == mount.get("name")]
    return named[0] if len(named) == 1 else None


DCD_ONLY = ("backendFramework",)


def dcd_only(src: JSONObject) -> JSONObject:
    return {k: dc(src[k]) for k in DCD_ONLY if k in src}
