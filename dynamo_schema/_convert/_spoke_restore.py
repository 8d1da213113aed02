"""Reading the spoke save back (beta -> alpha): main-container field origins and the whole-struct rules."""

from __future__ import annotations

from .._core._consts import V1ALPHA1 as ALPHA
from .._k8s._quantity import quantity_is_zero
from ._annotations import DCD_SPEC_ANNOTATION, PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH, read_envelope
from ._component_to_hub import _deep_override, _merge_envs, dedicated_field, dedicated_main, has_pod_content, merge_main
from ._fields import (
    cache_mount_count,
    is_native_mount,
    main_of,
    resources_need_preservation,
    resources_to_native,
    same_mount,
    shm_needs_preservation,
)
from ._fill import fill
from ._json import JSONArray, JSONObject, dc, drop_nulls, empty

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

# v1alpha1 field that can live in a dedicated slot or in extraPodSpec.mainContainer:
# semantic main-container key -> (dedicated key, mainContainer key)
_SPLIT_FIELDS = {
    "env": ("envs", "env"),
    "volumeMounts": ("volumeMounts", "volumeMounts"),
    "resources": ("resources", "resources"),
    "livenessProbe": ("livenessProbe", "livenessProbe"),
    "readinessProbe": ("readinessProbe", "readinessProbe"),
}


def _semantic_main(svc: JSONObject) -> JSONObject:
    main = dedicated_main(svc)
    mc = (svc.get("extraPodSpec") or {}).get("mainContainer")
    if isinstance(mc, dict):
        main = merge_main(main, mc)
    return main


def semantic_field(svc: JSONObject, field: str) -> Any:
    """``_semantic_main(svc).get(field)`` for one main-container field (``env``, ``envFrom``,
    ``volumeMounts``, ``resources``, a probe) without building the others: the origin restore compares
    one field at a time. Read, never kept: what it shares with ``svc`` is not copied.
    ``tests/convert/test_semantic_field.py`` checks it against the whole merge."""
    base = dedicated_field(svc, field)
    mc = (svc.get("extraPodSpec") or {}).get("mainContainer")
    if not isinstance(mc, dict):
        return base
    if field == "env":
        return _merge_envs(base or [], mc.get("env") or []) or None
    if field == "volumeMounts":
        return (list(mc.get("volumeMounts") or []) + list(base or [])) or None
    if field not in mc or empty(mc[field]):
        return base
    v = mc[field]
    if isinstance(v, dict) and isinstance(base, dict):
        merged = dc(base)
        _deep_override(merged, v)
        return merged
    return v


def _is_cache_mount(flat: Any, name: Any, path: Any) -> bool:
    return any(
        isinstance(m, dict) and m.get("useAsCompilationCache") and same_mount(m, {"name": name, "mountPoint": path})
        for m in flat or []
    )


def _non_cache_paths(native: Any, flat: Any) -> list[tuple[Any, Any]]:
    """(name, mountPath) of the native mounts that are not flagged compilation caches in ``flat``."""
    return [
        (m.get("name"), m.get("mountPath"))
        for m in native or []
        if not _is_cache_mount(flat, m.get("name"), m.get("mountPath"))
    ]


def _merge_mount_origins(preserved: JSONArray, current: JSONArray, preserved_main: JSONArray) -> JSONArray:
    """Upstream ``restorePreservedVolumeMountOrigins``: the preserved mounts that are not caches, then the
    current ones it lacks (a cache mount flags its preserved twin or comes last)."""
    out = [dc(m) for m in preserved if not m.get("useAsCompilationCache")]
    for m in current:
        if not m.get("useAsCompilationCache"):
            if not is_native_mount({"volumeMounts": preserved_main}, m) and not any(same_mount(o, m) for o in out):
                out.append(dc(m))
            continue
        hit = next((o for o in out if same_mount(o, m)), None)
        if hit is not None:
            hit["useAsCompilationCache"] = True
        else:
            out.append(dc(m))
    return out


def _origin_restore(live: JSONObject, saved: JSONObject, hub_main: JSONObject | None = None) -> None:
    """Upstream ``restoreMainContainerFieldOrigins``: re-split a field only if it is unchanged."""
    origins = saved.get("mainContainerOrigins") or {}
    for field, entry in origins.items():
        if field in _SPLIT_FIELDS and isinstance(entry, dict):
            _restore_field_origin(live, field, entry, hub_main)
    main_saved = (saved.get("extraPodSpec") or {}).get("mainContainer") or {}
    if "name" in main_saved:
        eps = live.setdefault("extraPodSpec", {})
        mc = eps.get("mainContainer") or {}
        if not mc.get("name"):
            eps["mainContainer"] = {
                "name": main_saved["name"],
                **{k: v for k, v in mc.items() if k != "name"},
            }


def _restore_field_origin(live: JSONObject, field: str, entry: JSONObject, hub_main: JSONObject | None) -> None:
    """One field of ``restoreMainContainerFieldOrigins``: back to its dedicated slot and/or the main
    container, when the live value still equals the saved one."""
    dedicated, in_main = _SPLIT_FIELDS[field]
    view: JSONObject = {}
    if "dedicated" in entry:
        view[dedicated] = entry["dedicated"]
    if "main" in entry:
        view["extraPodSpec"] = {"mainContainer": {in_main: entry["main"]}}
    live_value, saved_value = semantic_field(live, field), semantic_field(view, field)
    live_value_full = live_value
    if field == "volumeMounts":
        # upstream volumeMountOriginsMatchNative over withoutCompilationCacheMounts: only
        # name + mountPath are comparable, and cache mounts are matched by compilationCache
        live_value = _non_cache_paths(live_value, live.get("volumeMounts"))
        saved_value = _non_cache_paths(saved_value, entry.get("dedicated"))
    if live_value != saved_value:
        return
    value = entry.get("dedicated")
    if field == "volumeMounts":
        value = _merge_mount_origins(value or [], live.get("volumeMounts") or [], entry.get("main") or [])
    if value or "dedicated" in entry:
        live[dedicated] = dc(value)
    else:
        live.pop(dedicated, None)
    eps = live.setdefault("extraPodSpec", {})
    mc = eps.setdefault("mainContainer", {})
    if "main" in entry and field == "volumeMounts" and isinstance(entry["main"], list):
        mc[in_main] = _main_mounts(entry["main"], live_value_full, hub_main)
    elif "main" in entry:
        mc[in_main] = dc(entry["main"])
    else:
        mc.pop(in_main, None)
    if not mc:
        eps.pop("mainContainer")
    if not eps:
        live.pop("extraPodSpec")


def _main_mounts(saved_main: JSONArray, live_mounts_full: Any, hub_main: JSONObject | None) -> JSONArray:
    """The saved main-container mounts; only name + mountPath were compared, so each keeps the
    live mount's other leaves (a Go save drops a false readOnly)."""
    live_mounts = {(m.get("name"), m.get("mountPath")): m for m in live_mounts_full or [] if isinstance(m, dict)}
    for m in (hub_main or {}).get("volumeMounts") or []:
        if isinstance(m, dict):
            key = (m.get("name"), m.get("mountPath"))
            live_mounts[key] = {**live_mounts.get(key, {}), **m}
    return [
        dc({**m, **live_mounts.get((m.get("name"), m.get("mountPath")), {})}) if isinstance(m, dict) else m
        for m in saved_main
    ]


#: The internal save's mark that the saved service had pod-template content (``spoke_to_internal``).
_POD_CONTENT = "podTemplateContent"

#: The internal save's ``envFromSecret`` origin: the saved main container's ``envFrom`` (``spoke_to_internal``).
_ENV_FROM_ORIGIN = "envFromOrigin"

_ORIGIN_FIELDS = (
    _POD_CONTENT,
    _ENV_FROM_ORIGIN,
    "envs",
    "envFromSecret",
    "volumeMounts",
    "resources",
    "livenessProbe",
    "readinessProbe",
    "mainContainerOrigins",
)


def _restore_env_from_origin(live: JSONObject, saved: JSONObject, main_present: bool) -> None:
    """The ``envFrom`` step of upstream ``restoreMainContainerFieldOrigins``: the saved ``envFromSecret``
    comes back while the live main container's ``envFrom`` is still the one it and the saved main container
    gave (``apiequality.Semantic``: an empty list is no list)."""
    origin = saved.get(_ENV_FROM_ORIGIN)
    secret = saved.get("envFromSecret")
    if not main_present or not isinstance(origin, dict) or secret is None:
        return
    view: JSONObject = {"envFromSecret": secret}
    if "main" in origin:
        view["extraPodSpec"] = {"mainContainer": {"envFrom": origin["main"]}}
    if (semantic_field(live, "envFrom") or None) == (semantic_field(view, "envFrom") or None):
        live["envFromSecret"] = secret


def _restore_env_from_secret(live: JSONObject, saved: JSONObject) -> None:
    """Upstream ``restoreEnvFromSecretFromPreserved``."""
    secret = saved.get("envFromSecret")
    if secret is None or live.get("envFromSecret") is not None:
        return
    if secret == "":
        live["envFromSecret"] = ""
        return
    eps = live.get("extraPodSpec")
    if not isinstance(eps, dict):
        return
    main = eps.get("mainContainer")
    if not isinstance(main, dict) or main.get("envFrom") != [{"secretRef": {"name": secret}}]:
        return
    live["envFromSecret"] = secret
    del main["envFrom"]
    if not main:
        del eps["mainContainer"]
    if not eps:
        del live["extraPodSpec"]


def _strip_origin(rem: JSONObject) -> JSONObject:
    rem = {k: v for k, v in rem.items() if k not in _ORIGIN_FIELDS}
    eps = rem.get("extraPodSpec")
    if isinstance(eps, dict) and isinstance(eps.get("mainContainer"), dict):
        mc = {
            k: v
            for k, v in eps["mainContainer"].items()
            if k not in ("env", "name", "volumeMounts", "resources", "livenessProbe", "readinessProbe")
        }
        stripped = len(mc) != len(eps["mainContainer"])
        eps = dict(eps)
        if mc or not stripped:
            eps["mainContainer"] = mc
        else:
            eps.pop("mainContainer")
        if eps:
            rem["extraPodSpec"] = eps
        else:
            rem.pop("extraPodSpec")
    return rem


def _restore_resources(live: JSONObject, saved: JSONObject, main_present: bool) -> None:
    """Upstream ``shouldRestorePreservedResources``: only while the live main container still holds
    the same native resources."""
    res = saved.get("resources")
    if not main_present or not isinstance(res, dict) or not resources_need_preservation(res):
        return
    if resources_to_native(live.get("resources") or {}) == resources_to_native(res):
        live["resources"] = dc(res)


def _mount_key(m: JSONObject) -> tuple[str, str]:
    """A v1alpha1 mount's name and mount point as Go compares them (absent = "")."""
    return str(m.get("name") or ""), str(m.get("mountPoint") or "")


def _flagged(mounts: JSONArray) -> list[tuple[str, str, bool]]:
    return [(*_mount_key(m), bool(m.get("useAsCompilationCache"))) for m in mounts]


def _restore_cache_mounts(live: JSONObject, saved: JSONObject, comp: JSONObject) -> None:
    """Upstream ``restoreSharedPreservedFlatVolumeMounts``: bring back the secondary
    ``useAsCompilationCache`` flags the hub cannot hold, while the live hub still shows what converting them
    gave (``visiblePreservedVolumeMountProjection``); the restorable cache mounts first, then the live ones
    (``mergePreservedCompilationCacheVolumeMounts``)."""
    preserved = [m for m in saved.get("volumeMounts") or [] if isinstance(m, dict)]
    if cache_mount_count(preserved) <= 1:  # volumeMountsRoundTripThroughHub
        return
    caches = [m for m in preserved if m.get("useAsCompilationCache")]
    cc = comp.get("compilationCache")
    if not isinstance(cc, dict) or _mount_key(caches[0]) != (str(cc.get("pvcName") or ""), str(cc.get("mountPath") or "")):
        return  # firstPreservedCompilationCacheMatches
    main = main_of(comp)
    projected = [caches[0]]
    for v in (main or {}).get("volumeMounts") or []:
        flat = {"name": v.get("name"), "mountPoint": v.get("mountPath")} if isinstance(v, dict) else {}
        if not any(_mount_key(p) == _mount_key(flat) for p in projected):
            projected.append(flat)
    current = [m for m in live.get("volumeMounts") or [] if isinstance(m, dict)]
    if _flagged(current) != _flagged(projected):  # volumeMountsEqual
        return
    # restorablePreservedCompilationCacheMounts: a secondary cache flag is visible only as a main-container
    # mount once the alpha content makes a main container (absence = deletion); else it stays as saved
    shown = main is not None or bool(saved.get(_POD_CONTENT))
    natives = {(str(v.get("name") or ""), str(v.get("mountPath") or ""))
               for v in (main or {}).get("volumeMounts") or [] if isinstance(v, dict)}
    out: JSONArray = []
    for m in [caches[0]] + [m for m in caches[1:] if not shown or _mount_key(m) in natives]:
        if not any(_mount_key(o) == _mount_key(m) for o in out):
            out.append(dc(m))
    out += [dc(c) for c in current if not any(_mount_key(o) == _mount_key(c) for o in out)]
    live["volumeMounts"] = out


def _restore_shared_memory(live: JSONObject, saved: JSONObject) -> None:
    """Upstream ``shouldRestorePreservedSharedMemory``."""
    sm = saved.get("sharedMemory")
    if not isinstance(sm, dict) or not shm_needs_preservation(sm):
        return
    cur = live.get("sharedMemory")
    if cur is None or (sm.get("disabled") and cur.get("disabled") and quantity_is_zero(cur.get("size"))):
        live["sharedMemory"] = dc(sm)


def svc_restore(live: JSONObject, saved: JSONObject, comp: JSONObject) -> None:
    _restore_shared_memory(live, saved)
    _restore_cache_mounts(live, saved, comp)
    _restore_resources(live, saved, main_of(comp) is not None)
    _restore_env_from_secret(live, saved)  # upstream restoreSharedAlphaOnlyPodFields' order: before the origins
    _origin_restore(live, saved, main_of(comp))
    _restore_env_from_origin(live, saved, main_of(comp) is not None)
    # restoreSharedAlphaOnlyDisabledFeatures: a saved feature struct comes back only when it is disabled (an
    # enabled one is the hub's experimental field, which the live object carries or dropped)
    skip = {"frontendSidecar", "sharedMemory"} | {k for k in _DISABLED_ONLY if _enabled(saved.get(k))}
    fill(live, _strip_origin({k: v for k, v in saved.items() if k not in skip}))


_DISABLED_ONLY = ("scalingAdapter", "gpuMemoryService", "failover", "checkpoint")


def _enabled(feature: Any) -> bool:
    return isinstance(feature, dict) and feature.get("enabled") is True


def read_spoke(meta: JSONObject) -> tuple[JSONObject | None, bool]:
    """The DCD spoke payload as this module's internal save (``service`` leaves, origins) plus the
    empty-serviceName marker; reads upstream's typed envelope and this module's older shape."""
    envelope = read_envelope(meta, DCD_SPEC_ANNOTATION, ALPHA)
    if envelope is None:
        return None, False
    data, spec = envelope
    if "service" in spec or "emptyServiceName" in spec:  # this module's earlier payload
        sv = spec.get("service")
        return (sv if isinstance(sv, dict) else None), bool(spec.get("emptyServiceName"))
    empty_name = any(
        isinstance(r, dict) and r.get("path") == PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH and r.get("nil")
        for r in data.get("rawJSON") or []
    )
    return spoke_to_internal(spec), empty_name


def spoke_to_internal(spec: JSONObject) -> JSONObject:
    """Upstream's typed spoke save -> the internal save ``svc_restore`` consumes."""
    if "mainContainerOrigins" in spec:  # this module's earlier internal shape
        return spec
    spec = drop_nulls(spec)
    out: JSONObject = {}
    if spec.get("serviceName"):
        out["serviceName"] = spec["serviceName"]
    for key in ("subComponentType", "dynamoNamespace", "autoscaling", "ingress", "annotations", "labels",
                "envFromSecret", "sharedMemory", "extraPodMetadata", "scalingAdapter", "frontendSidecar",
                "gpuMemoryService", "failover"):
        if key in spec:
            out[key] = dc(spec[key])
    if isinstance(out.get("scalingAdapter"), dict) and "enabled" not in out["scalingAdapter"]:
        # saved only when disabled; Go's omitempty drops the false
        out["scalingAdapter"]["enabled"] = False
    shm = out.get("sharedMemory")
    if isinstance(shm, dict) and shm.get("size") == "0":
        # Go writes the value-typed SharedMemorySpec.size as "0" when unset
        out["sharedMemory"] = {k: v for k, v in shm.items() if k != "size"}
    if resources_need_preservation(spec.get("resources")):
        out["resources"] = dc(spec["resources"])
    if cache_mount_count(spec.get("volumeMounts")) > 1:
        out["volumeMounts"] = dc(spec["volumeMounts"])
        if has_pod_content(spec):  # upstream hasPodTemplateContent(preserved, false), read with the mounts
            out[_POD_CONTENT] = True
    eps = spec.get("extraPodSpec")
    main = eps.get("mainContainer") if isinstance(eps, dict) else None
    if isinstance(main, dict):
        origins = _spoke_origins(spec, main)
        if origins:
            out["mainContainerOrigins"] = origins
        if spec.get("envFromSecret") is not None:
            out[_ENV_FROM_ORIGIN] = {"main": dc(main["envFrom"])} if main.get("envFrom") else {}
    if isinstance(eps, dict):
        out["extraPodSpec"] = _spoke_extra_pod_spec(eps, main)
    return out


def _spoke_origins(spec: JSONObject, main: JSONObject) -> JSONObject:
    """The typed save's split fields as ``mainContainerOrigins`` (dedicated and main spellings)."""
    origins: JSONObject = {}
    for field, (dedicated, in_main) in _SPLIT_FIELDS.items():
        entry: JSONObject = {}
        if dedicated in spec:
            entry["dedicated"] = dc(spec[dedicated])
        if not empty(main.get(in_main)):
            entry["main"] = dc(main[in_main])
        if entry:
            origins[field] = entry
    return origins


def _spoke_extra_pod_spec(eps: JSONObject, main: Any) -> JSONObject:
    """The typed save's ``extraPodSpec`` without Go's zero values (``resources: {}``, an empty name)
    and the ``envFrom`` restored from ``envFromSecret``."""
    rest = {k: dc(v) for k, v in eps.items() if k != "mainContainer"}
    for key in ("containers", "initContainers"):
        # Go writes the value-typed Container.resources as {} for every container
        for c in rest.get(key) or []:
            if isinstance(c, dict) and c.get("resources") == {}:
                del c["resources"]
    if isinstance(main, dict):
        mc = {k: dc(v) for k, v in main.items() if k != "envFrom" and not (k in ("resources", "name") and not v)}
        if mc or not rest:
            rest["mainContainer"] = mc
    return rest
