"""nvidia.com/v1alpha1 <-> nvidia.com/v1beta1 conversion of DGD and DCD (plain dicts in, new dicts out).

Field mapping after upstream ``deploy/operator/api/v1alpha1/{dynamographdeployment,
dynamocomponentdeployment,shared_spec}_conversion.go`` and ``deploy/operator/api/CONVERSION.md``:

* DGD ``spec.services`` (map) <-> ``spec.components`` (list keyed by ``name``; sorted by name unless
  a preserved hub order exists); ``spec.envs`` <-> ``spec.env``; ``topologyConstraint.topologyProfile``
  <-> ``clusterTopologyName``; ``pvcs`` alpha-only.
* ``componentType: worker`` + ``subComponentType: prefill|decode`` <-> ``type: prefill|decode``.
* the flat pod fields (``resources``, ``envs``, ``envFromSecret``, probes, ``volumeMounts``,
  ``extraPodMetadata``, ``extraPodSpec`` = inline PodSpec + ``mainContainer``) <-> ``podTemplate`` (container ``main`` first; the
  ``mainContainer`` wins over dedicated fields, env and volume mounts are additive);
  ``sharedMemory`` <-> ``sharedMemorySize``; ``useAsCompilationCache`` <-> ``compilationCache``;
  ``enabled`` flags <-> presence (``scalingAdapter``, ``experimental.{gpuMemoryService,failover}``);
  ``frontendSidecar`` spec <-> container ``sidecar-frontend`` + ``frontendSidecar: sidecar-frontend``.

What the target cannot represent goes into the private annotations ``nvidia.com/dgd-spec``
(DGD) / ``nvidia.com/dcd-spec`` (DCD). Alpha -> beta (the payload on every DCD the operator
generates, ``applyDGDComponentAlphaCompatibilityToDCD``) writes upstream's bytes: ``preservation.go``
``marshalPreservedSpec`` = Go ``json.Marshal`` of ``{"version":1,"spec":<typed sparse v1alpha1 spec>,
"rawJSON":[...]}``, the spec holding what ``saveSharedAlphaOnlySpec`` / ``saveSharedMainContainerOrigins``
save (Go field order, ``omitempty``, value-typed structs always written, HTML-safe escapes), the DCD
``{"path":"serviceName","nil":true}`` record when the name was defaulted from ``metadata.name``
(``marshalDCDSpokeSpec``), the DGD ``{pvcs, services{name: save|null}}`` (``marshalDGDSpokeSpec``).
Reading accepts that shape and this module's earlier one. Restoring fills only destination fields the
live source cannot represent (absent leaves); a represented field always comes from the live source.
Inputs are never mutated. Whole-struct rules after upstream: ``resources`` whose native list cannot
say them back (``gpuType``, empty items; ``resourcesNeedPreservation``), every ``volumeMounts`` entry
when more than one is a compilation cache (``volumeMountsRoundTripThroughHub``), ``sharedMemory`` the
scalar cannot hold (``sharedMemoryNeedsPreservation``); each is restored only while the live hub still
matches. The status side keeps ``componentName``/``componentNames`` and the DCD ``podSelector`` in
``nvidia.com/dgd-status`` / ``nvidia.com/dcd-status`` as upstream's ``setJSONAnnOnObj`` of the typed
v1alpha1 status struct writes them (``"conditions":null``, zero ``replicas``...).

Beta -> alpha writes upstream's hub saves byte for byte as well: ``marshalDCDHubSpec`` /
``marshalDGDHubSpec`` = ``{"version":1,"spec":<typed sparse v1beta1 spec>}``, the DCD spec always
carrying ``name`` (saved when ``dcdHubSpecNeedsSave``: a non-zero save, an empty hub name under a
set ``metadata.name``, or a hub-origin podTemplate), the DGD spec only ``components`` (every entry
when the hub order is unsorted, else the non-zero and hub-origin ones). A component save is
``saveSharedHubOnlySpec``: the ``frontendSidecar`` reference v1alpha1 could not take, the
``sparseSharedHubOnlyPodTemplate`` (metadata without labels/annotations, container keys for order,
generated-main and sidecar markers, hub-only container fields, sparse main volume mounts; Go
writes ``"metadata":{"creationTimestamp":null}`` and ``"containers":null``) and the hub-only
``experimental`` block (or its ``grove`` part); it is read back as ``restoreSharedHubOnlyFields``.
Reading also accepts this module's earlier hub shape (``{"spec":{"component(s)":...},"version":1}``,
told apart by upstream's leading ``"version"``).

Not ported byte for byte: quantity canonicalisation inside saved main-container resources, and the
eppConfig raw-parameter records. Go zero values read back as absent (``enabled: false`` of a saved
disabled scalingAdapter is restored explicitly).
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .._core._consts import GPU_RESOURCE
from .._core._consts import V1ALPHA1 as ALPHA
from .._core._consts import V1BETA1 as BETA
from .._core._datacopy import deepcopy
from .._k8s._golayout import encode as go_encode

DGD_SPEC_ANNOTATION = "nvidia.com/dgd-spec"
DGD_STATUS_ANNOTATION = "nvidia.com/dgd-status"
DCD_SPEC_ANNOTATION = "nvidia.com/dcd-spec"
DCD_STATUS_ANNOTATION = "nvidia.com/dcd-status"
_DGD_PREFIX = "nvidia.com/dgd-"
_DGD_SCRUB = (DGD_SPEC_ANNOTATION, DGD_STATUS_ANNOTATION)
_DCD_SCRUB = (DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION)

MAIN = "main"
FRONTEND_SIDECAR = "sidecar-frontend"

__all__ = [
    "ConversionError",
    "is_dgd_conversion_annotation",
    "to_v1alpha1",
    "to_v1beta1",
]


class ConversionError(ValueError):
    pass


def is_dgd_conversion_annotation(key: str) -> bool:
    """Upstream ``IsDynamoGraphDeploymentConversionAnnotation``: the ``nvidia.com/dgd-`` prefix."""
    return key.startswith(_DGD_PREFIX)


# ---------------------------------------------------------------------------------------------------
# small helpers


def _dc(v: Any) -> Any:
    return deepcopy(v)


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {} or v is False or v == 0


def _set(d: dict, key: str, value: Any) -> None:
    if not _empty(value):
        d[key] = value


def _no_none(**kv: Any) -> dict:
    return {k: v for k, v in kv.items() if v is not None}


def _qty_zero(v: Any) -> bool:
    """``resource.Quantity.IsZero`` for the spellings a manifest uses ("0", "0Gi", 0, "")."""
    if v is None or v == "" or v == 0:
        return True
    if not isinstance(v, str):
        return False
    num = v.strip().rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    try:
        return float(num) == 0
    except ValueError:
        return False


def _merge_envs(common: list, specific: list) -> list:
    out: list = []
    seen: dict = {}
    for e in list(common or []) + list(specific or []):
        name = e.get("name") if isinstance(e, dict) else None
        if name in seen:
            out[seen[name]] = _dc(e)
            continue
        seen[name] = len(out)
        out.append(_dc(e))
    return out


_LIST_KEYS = (("name",), ("name", "mountPath"), ("mountPath",), ("containerPort", "protocol"))


def _list_key(*lists: list) -> tuple | None:
    """The first key tuple that identifies every item of every list uniquely (None: atomic)."""
    for fields in _LIST_KEYS:
        ok = True
        for lst in lists:
            if not all(isinstance(x, dict) and all(f in x for f in fields) for x in lst):
                ok = False
                break
            keys = [tuple(json.dumps(x[f], sort_keys=True) for f in fields) for x in lst]
            if len(set(keys)) != len(keys):
                ok = False
                break
        if ok:
            return fields
    return None


def _kv(item: dict, fields: tuple) -> tuple:
    return tuple(json.dumps(item[f], sort_keys=True) for f in fields)


def _fill(live: dict, rem: dict) -> None:
    """Restore preserved leaves only where the live object has nothing (live always wins)."""
    for k, v in rem.items():
        if k not in live:
            live[k] = _dc(v)
        elif isinstance(live[k], dict) and isinstance(v, dict):
            _fill(live[k], v)
        elif isinstance(live[k], list) and isinstance(v, list) and v:
            fields = _list_key(live[k], v)
            if fields is None:
                continue
            by_key = {_kv(x, fields): x for x in live[k]}
            for item in v:
                target = by_key.get(_kv(item, fields))
                if target is not None:
                    _fill(target, item)
            # restore a preserved relative order of the keys still present
            preserved = [_kv(x, fields) for x in v]
            if len(preserved) == len(live[k]) and set(preserved) == set(by_key):
                live[k] = [by_key[n] for n in preserved]


def _read_payload(meta: dict, key: str) -> dict | None:
    raw = (meta.get("annotations") or {}).get(key)
    if not isinstance(raw, str) or not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    spec = data.get("spec") if "spec" in data else data
    return spec if isinstance(spec, dict) else None


def _write_payload(meta: dict, key: str, spec: dict) -> None:
    anns = dict(meta.get("annotations") or {})
    anns[key] = json.dumps({"version": 1, "spec": spec}, separators=(",", ":"), sort_keys=True)
    meta["annotations"] = anns


def _scrub(meta: dict, keys: tuple) -> None:
    anns = meta.get("annotations")
    if not isinstance(anns, dict):
        return
    anns = {k: v for k, v in anns.items() if k not in keys}
    if anns:
        meta["annotations"] = anns
    else:
        meta.pop("annotations", None)


# ---------------------------------------------------------------------------------------------------
# resources


def _item_to_list(item: dict | None) -> dict | None:
    if not isinstance(item, dict):
        return None
    out: dict = {}
    if item.get("cpu"):
        out["cpu"] = item["cpu"]
    if item.get("memory"):
        out["memory"] = item["memory"]
    if item.get("gpu"):
        out[item.get("gpuType") or GPU_RESOURCE] = item["gpu"]
    for k, v in (item.get("custom") or {}).items():
        out[k] = v
    return out or None


def _list_to_item(lst: dict | None) -> dict | None:
    if not lst:
        return None
    out: dict = {}
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


def _map_resources(r: dict, item: Any) -> dict:
    """limits / requests through ``item`` (one direction of the list mapping), claims verbatim."""
    out: dict = {}
    for key in ("limits", "requests"):
        _set(out, key, item(r.get(key)))
    if r.get("claims"):
        out["claims"] = _dc(r["claims"])
    return out


def _resources_to_native(r: dict) -> dict:
    return _map_resources(r, _item_to_list)


def _resources_from_native(r: dict | None) -> dict | None:
    return _map_resources(r, _list_to_item) or None if isinstance(r, dict) else None


# ---------------------------------------------------------------------------------------------------
# shared component: alpha -> beta


def _merge_main(base: dict, main: dict) -> dict:
    """mergo.Merge(base, main, WithOverride) + the additive env / volumeMounts rules."""
    out = dict(base)
    for k, v in main.items():
        if k in ("env", "volumeMounts", "name"):
            continue
        if _empty(v) and v is not False:
            continue
        if v is False:
            continue
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            merged = _dc(out[k])
            _deep_override(merged, v)
            out[k] = merged
        else:
            out[k] = _dc(v)
    env = _merge_envs(base.get("env") or [], main.get("env") or [])
    if env:
        out["env"] = env
    else:
        out.pop("env", None)
    vms = list(_dc(main.get("volumeMounts") or [])) + list(base.get("volumeMounts") or [])
    if vms:
        out["volumeMounts"] = vms
    out["name"] = MAIN
    return out


def _deep_override(dst: dict, src: dict) -> None:
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            _deep_override(dst[k], v)
        elif not _empty(v):
            dst[k] = _dc(v)


def _dedicated_main(svc: dict) -> dict:
    c: dict = {"name": MAIN}
    if svc.get("resources") is not None:
        res = _resources_to_native(svc["resources"])
        if res:
            c["resources"] = res
    if svc.get("envs"):
        c["env"] = _dc(svc["envs"])
    if svc.get("envFromSecret"):
        c["envFrom"] = [{"secretRef": {"name": svc["envFromSecret"]}}]
    if svc.get("livenessProbe") is not None:
        c["livenessProbe"] = _dc(svc["livenessProbe"])
    if svc.get("readinessProbe") is not None:
        c["readinessProbe"] = _dc(svc["readinessProbe"])
    vms = [_no_none(name=vm.get("name"), mountPath=vm.get("mountPoint")) for vm in svc.get("volumeMounts") or []]
    if vms:
        c["volumeMounts"] = vms
    return c


def _has_pod_content(svc: dict) -> bool:
    eps = svc.get("extraPodSpec")
    return bool(
        svc.get("resources") is not None
        or svc.get("envs")
        or svc.get("envFromSecret") is not None
        or any(not vm.get("useAsCompilationCache") for vm in svc.get("volumeMounts") or [])
        or svc.get("livenessProbe") is not None
        or svc.get("readinessProbe") is not None
        or (isinstance(eps, dict) and any(not _empty(v) for v in eps.values()))
        or svc.get("extraPodMetadata") is not None
        or svc.get("frontendSidecar") is not None
    )


def _build_pod_template(svc: dict, force: bool = False) -> dict | None:
    if not force and not _has_pod_content(svc):
        return None
    pt: dict = {}
    epm = svc.get("extraPodMetadata")
    if isinstance(epm, dict):
        meta: dict = {}
        _set(meta, "annotations", _dc(epm.get("annotations")))
        _set(meta, "labels", _dc(epm.get("labels")))
        if meta:
            pt["metadata"] = meta
    eps = svc.get("extraPodSpec") or {}
    # upstream ExtraPodSpec inlines corev1.PodSpec next to mainContainer
    spec: dict = {k: _dc(v) for k, v in eps.items() if k != "mainContainer"}
    main = _dedicated_main(svc)
    if isinstance(eps.get("mainContainer"), dict):
        main = _merge_main(main, eps["mainContainer"])
    main = {"name": MAIN, **{k: v for k, v in main.items() if k != "name"}}
    containers = [main] + [c for c in spec.get("containers") or [] if c.get("name") != MAIN]
    spec["containers"] = containers
    fs = svc.get("frontendSidecar")
    if isinstance(fs, dict) and not any(c.get("name") == FRONTEND_SIDECAR for c in containers):
        ctr: dict = {"name": FRONTEND_SIDECAR}
        _set(ctr, "image", fs.get("image"))
        _set(ctr, "args", _dc(fs.get("args")))
        _set(ctr, "env", _dc(fs.get("envs")))
        if fs.get("envFromSecret"):
            ctr["envFrom"] = [{"secretRef": {"name": fs["envFromSecret"]}}]
        containers.append(ctr)
    pt["spec"] = spec
    return pt


_GMS_TO_BETA = {"intraPod": "IntraPod", "interPod": "InterPod"}
_GMS_TO_ALPHA = {v: k for k, v in _GMS_TO_BETA.items()}
_GMS_FEATURES = ("gpuMemoryService", "failover")  # enabled flag <-> presence under experimental
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


def _copy_direct(src: dict, dst: dict) -> None:
    for k in _DIRECT_FIELDS:
        if src.get(k) is not None:
            dst[k] = _dc(src[k])


def _with_mode(spec: dict, modes: dict) -> dict:
    """A copy of a GPU-memory-service / failover spec with its ``mode`` spelled for the target."""
    out = _dc(spec)
    if "mode" in out:
        out["mode"] = modes.get(out["mode"], out["mode"])
    return out


def _svc_to_comp(name: str | None, svc: dict) -> dict:
    """v1alpha1 shared spec -> v1beta1 shared spec (no preservation)."""
    c: dict = {}
    cname = name if name is not None else svc.get("serviceName")
    _set(c, "name", cname)
    ctype = svc.get("componentType")
    sub = svc.get("subComponentType")
    if ctype == "worker" and sub in ("prefill", "decode"):
        ctype = sub
    _set(c, "type", ctype)
    _copy_direct(svc, c)
    sm = svc.get("sharedMemory")
    if isinstance(sm, dict):
        if sm.get("disabled"):
            c["sharedMemorySize"] = "0"
        elif not _qty_zero(sm.get("size")):
            c["sharedMemorySize"] = _dc(sm["size"])
    for vm in svc.get("volumeMounts") or []:
        if vm.get("useAsCompilationCache"):
            cc: dict = {}
            _set(cc, "pvcName", vm.get("name"))
            _set(cc, "mountPath", vm.get("mountPoint"))
            c["compilationCache"] = cc
            break
    sa = svc.get("scalingAdapter")
    if isinstance(sa, dict) and sa.get("enabled"):
        c["scalingAdapter"] = {}
    exp: dict = {}
    for key in _GMS_FEATURES:
        v = svc.get(key)
        if isinstance(v, dict) and v.get("enabled"):
            exp[key] = _with_mode({k: x for k, x in v.items() if k != "enabled"}, _GMS_TO_BETA)
    if isinstance(svc.get("checkpoint"), dict):
        exp["checkpoint"] = _dc(svc["checkpoint"])
    if exp:
        c["experimental"] = exp
    pt = _build_pod_template(svc)
    if pt is not None:
        if svc.get("frontendSidecar") is not None:
            c["frontendSidecar"] = FRONTEND_SIDECAR
        c["podTemplate"] = pt
    return c


# ---------------------------------------------------------------------------------------------------
# shared component: beta -> alpha


def _comp_to_svc(comp: dict, restored_fs: dict | None = None) -> dict:
    """v1beta1 shared spec -> v1alpha1 shared spec (no preservation)."""
    s: dict = {}
    ctype = comp.get("type")
    if ctype in ("prefill", "decode"):
        s["componentType"] = "worker"
        s["subComponentType"] = ctype
    else:
        _set(s, "componentType", ctype)
    _copy_direct(comp, s)
    if "sharedMemorySize" in comp and comp["sharedMemorySize"] is not None:
        size = comp["sharedMemorySize"]
        if _qty_zero(size):
            s["sharedMemory"] = {"disabled": True, "size": size}
        else:
            s["sharedMemory"] = {"size": size}
    exp = comp.get("experimental") or {}
    for key in _GMS_FEATURES:
        if isinstance(exp.get(key), dict):
            s[key] = _with_mode({"enabled": True, **exp[key]}, _GMS_TO_ALPHA)
    if isinstance(exp.get("checkpoint"), dict):
        s["checkpoint"] = _dc(exp["checkpoint"])
    if "scalingAdapter" in comp and comp["scalingAdapter"] is not None:
        s["scalingAdapter"] = {"enabled": True}
    _decompose_pod_template(comp, s, restored_fs)
    cc = comp.get("compilationCache")
    if isinstance(cc, dict):
        vms = list(s.get("volumeMounts") or [])
        for i, vm in enumerate(vms):
            if vm.get("name") == cc.get("pvcName") and vm.get("mountPoint") == cc.get("mountPath"):
                vms[i] = {**vm, "useAsCompilationCache": True}
                break
        else:
            vms.append(_cache_mount(cc))
        s["volumeMounts"] = vms
    return s


def _decompose_pod_template(comp: dict, s: dict, restored_fs: dict | None) -> None:
    pt = comp.get("podTemplate")
    fs_name = comp.get("frontendSidecar")
    if not isinstance(pt, dict):
        if fs_name == FRONTEND_SIDECAR and restored_fs is not None:
            s["frontendSidecar"] = _dc(restored_fs)
        return
    meta = pt.get("metadata") or {}
    if meta.get("annotations") or meta.get("labels"):
        epm: dict = {}
        _set(epm, "annotations", _dc(meta.get("annotations")))
        _set(epm, "labels", _dc(meta.get("labels")))
        s["extraPodMetadata"] = epm
    spec = pt.get("spec") or {}
    main: dict | None = None
    other: list = []
    for ctr in spec.get("containers") or []:
        if isinstance(ctr, dict) and ctr.get("name") == MAIN and main is None:
            main = _dc(ctr)
            continue
        other.append(_dc(ctr))
    if fs_name is not None and fs_name == FRONTEND_SIDECAR and restored_fs is not None:
        found = next((c for c in other if c.get("name") == fs_name), None)
        if found is not None:
            fs = _dc(restored_fs)
            for k in ("image", "args", "envs", "envFromSecret"):
                fs.pop(k, None)
            _set(fs, "image", found.get("image"))
            _set(fs, "args", _dc(found.get("args")))
            _set(fs, "envs", _dc(found.get("env")))
            ef = found.get("envFrom") or []
            if len(ef) == 1 and isinstance(ef[0], dict) and set(ef[0]) == {"secretRef"}:
                fs["envFromSecret"] = ef[0]["secretRef"].get("name")
            s["frontendSidecar"] = fs
            other = [c for c in other if c.get("name") != fs_name]
        else:
            s["frontendSidecar"] = _dc(restored_fs)
    if main is not None:
        res = _resources_from_native(main.pop("resources", None))
        if res:
            s["resources"] = res
        vms = main.pop("volumeMounts", None) or []
        if vms:
            flat = list(s.get("volumeMounts") or [])
            for vm in vms:
                entry = _no_none(name=vm.get("name"), mountPoint=vm.get("mountPath"))
                if entry not in flat:
                    flat.append(entry)
            s["volumeMounts"] = flat
        env = main.pop("env", None)
        if env:
            s["envs"] = env
        for probe in ("livenessProbe", "readinessProbe"):
            if main.get(probe) is not None:
                s[probe] = main.pop(probe)
        main.pop("name", None)
        main = {k: v for k, v in main.items() if not (_empty(v) and v is not False)} or None
    pod_spec = {k: _dc(v) for k, v in spec.items() if k != "containers"}
    if other:
        pod_spec["containers"] = other
    if pod_spec or main:
        eps: dict = dict(pod_spec)
        if main:
            eps["mainContainer"] = main
        s["extraPodSpec"] = eps


# ---------------------------------------------------------------------------------------------------
# origin bookkeeping for fields v1alpha1 can hold in two places


# v1alpha1 field that can live in a dedicated slot or in extraPodSpec.mainContainer:
# semantic main-container key -> (dedicated key, mainContainer key)
_SPLIT_FIELDS = {
    "env": ("envs", "env"),
    "volumeMounts": ("volumeMounts", "volumeMounts"),
    "resources": ("resources", "resources"),
    "livenessProbe": ("livenessProbe", "livenessProbe"),
    "readinessProbe": ("readinessProbe", "readinessProbe"),
}


def _semantic_main(svc: dict) -> dict:
    main = _dedicated_main(svc)
    mc = (svc.get("extraPodSpec") or {}).get("mainContainer")
    if isinstance(mc, dict):
        main = _merge_main(main, mc)
    return main


def _is_cache_mount(flat: Any, name: Any, path: Any) -> bool:
    return any(
        isinstance(m, dict) and m.get("useAsCompilationCache") and _same_mount(m, {"name": name, "mountPoint": path})
        for m in flat or []
    )


def _non_cache_paths(native: Any, flat: Any) -> list:
    """(name, mountPath) of the native mounts that are not flagged compilation caches in ``flat``."""
    return [
        (m.get("name"), m.get("mountPath"))
        for m in native or []
        if not _is_cache_mount(flat, m.get("name"), m.get("mountPath"))
    ]


def _merge_mount_origins(preserved: list, current: list, preserved_main: list) -> list:
    """Upstream ``restorePreservedVolumeMountOrigins``; the preserved list itself when it still
    holds exactly the same mounts (keeps its order)."""
    out = [_dc(m) for m in preserved if not m.get("useAsCompilationCache")]
    for m in current:
        if not m.get("useAsCompilationCache"):
            if not _is_native_mount({"volumeMounts": preserved_main}, m) and not any(_same_mount(o, m) for o in out):
                out.append(_dc(m))
            continue
        hit = next((o for o in out if _same_mount(o, m)), None)
        if hit is not None:
            hit["useAsCompilationCache"] = True
        else:
            out.append(_dc(m))
    key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731
    if sorted(map(key, out)) == sorted(map(key, preserved)):
        return _dc(preserved)
    return out


def _origin_restore(live: dict, saved: dict, hub_main: dict | None = None) -> None:
    """Upstream ``restoreMainContainerFieldOrigins``: re-split a field only if it is unchanged."""
    origins = saved.get("mainContainerOrigins") or {}
    for field, entry in origins.items():
        if field not in _SPLIT_FIELDS or not isinstance(entry, dict):
            continue
        dedicated, in_main = _SPLIT_FIELDS[field]
        view: dict = {}
        if "dedicated" in entry:
            view[dedicated] = entry["dedicated"]
        if "main" in entry:
            view["extraPodSpec"] = {"mainContainer": {in_main: entry["main"]}}
        live_value, saved_value = _semantic_main(live).get(field), _semantic_main(view).get(field)
        live_value_full = live_value
        if field == "volumeMounts":
            # upstream volumeMountOriginsMatchNative over withoutCompilationCacheMounts: only
            # name + mountPath are comparable, and cache mounts are matched by compilationCache
            live_value = _non_cache_paths(live_value, live.get("volumeMounts"))
            saved_value = _non_cache_paths(saved_value, entry.get("dedicated"))
        if live_value != saved_value:
            continue
        value = entry.get("dedicated")
        if field == "volumeMounts":
            value = _merge_mount_origins(value or [], live.get("volumeMounts") or [], entry.get("main") or [])
        if value or "dedicated" in entry:
            live[dedicated] = _dc(value)
        else:
            live.pop(dedicated, None)
        eps = live.setdefault("extraPodSpec", {})
        mc = eps.setdefault("mainContainer", {})
        if "main" in entry and field == "volumeMounts" and isinstance(entry["main"], list):
            # only name + mountPath were compared: the live mount keeps its other leaves (a Go
            # save drops a false readOnly)
            live_mounts = {(m.get("name"), m.get("mountPath")): m for m in live_value_full or []
                           if isinstance(m, dict)}
            for m in (hub_main or {}).get("volumeMounts") or []:
                if isinstance(m, dict):
                    key = (m.get("name"), m.get("mountPath"))
                    live_mounts[key] = {**live_mounts.get(key, {}), **m}
            mc[in_main] = [
                _dc({**m, **live_mounts.get((m.get("name"), m.get("mountPath")), {})}) if isinstance(m, dict) else m
                for m in entry["main"]
            ]
        elif "main" in entry:
            mc[in_main] = _dc(entry["main"])
        else:
            mc.pop(in_main, None)
        if not mc:
            eps.pop("mainContainer")
        if not eps:
            live.pop("extraPodSpec")
    main_saved = (saved.get("extraPodSpec") or {}).get("mainContainer") or {}
    if "name" in main_saved:
        eps = live.setdefault("extraPodSpec", {})
        mc = eps.get("mainContainer") or {}
        if not mc.get("name"):
            eps["mainContainer"] = {
                "name": main_saved["name"],
                **{k: v for k, v in mc.items() if k != "name"},
            }


_ORIGIN_FIELDS = (
    "envs",
    "envFromSecret",
    "volumeMounts",
    "resources",
    "livenessProbe",
    "readinessProbe",
    "mainContainerOrigins",
)


def _restore_env_from_secret(live: dict, saved: dict) -> None:
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


def _strip_origin(rem: dict) -> dict:
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


def _resources_need_preservation(res: Any) -> bool:
    """Upstream ``resourcesNeedPreservation``: the flat resources do not survive the native list
    round trip (``gpuType`` equal to the default key, empty items, ``resources: {}``)."""
    return isinstance(res, dict) and _resources_from_native(_resources_to_native(res)) != res


def _restore_resources(live: dict, saved: dict, main_present: bool) -> None:
    """Upstream ``shouldRestorePreservedResources``: only while the live main container still holds
    the same native resources."""
    res = saved.get("resources")
    if not main_present or not isinstance(res, dict) or not _resources_need_preservation(res):
        return
    if _resources_to_native(live.get("resources") or {}) == _resources_to_native(res):
        live["resources"] = _dc(res)


def _cache_mount_count(mounts: Any) -> int:
    return sum(1 for m in mounts or [] if isinstance(m, dict) and m.get("useAsCompilationCache"))


def _cache_mount(cc: dict) -> dict:
    """The v1alpha1 flagged volume mount of a v1beta1 ``compilationCache``."""
    return _no_none(name=cc.get("pvcName"), mountPoint=cc.get("mountPath"), useAsCompilationCache=True)


def _same_mount(a: dict, b: dict) -> bool:
    return a.get("name") == b.get("name") and a.get("mountPoint") == b.get("mountPoint")


def _restore_cache_mounts(live: dict, saved: dict, comp: dict) -> None:
    """Upstream ``restoreSharedPreservedFlatVolumeMounts``: bring back the secondary
    ``useAsCompilationCache`` flags the hub cannot hold, while the live hub still matches."""
    preserved = [m for m in saved.get("volumeMounts") or [] if isinstance(m, dict)]
    if _cache_mount_count(preserved) <= 1:
        return
    caches = [m for m in preserved if m.get("useAsCompilationCache")]
    cc = comp.get("compilationCache")
    if not isinstance(cc, dict) or not _same_mount(caches[0], _cache_mount(cc)):
        return
    current = [m for m in live.get("volumeMounts") or [] if isinstance(m, dict)]
    paths = [(m.get("name"), m.get("mountPoint")) for m in current]
    if paths == [(m.get("name"), m.get("mountPoint")) for m in preserved]:
        live["volumeMounts"] = _dc(preserved)
        return
    main = _main_of(comp)
    out: list = []
    for m in caches:
        # a secondary cache flag is visible only as a main-container mount; absence = deletion
        if m is caches[0] or main is None or _is_native_mount(main, m):
            out.append(_dc(m))
    out += [_dc(c) for c in current if not any(_same_mount(c, m) for m in out)]
    live["volumeMounts"] = out


def _is_native_mount(ctr: dict, mount: dict) -> bool:
    return any(
        v.get("name") == mount.get("name") and v.get("mountPath") == mount.get("mountPoint")
        for v in ctr.get("volumeMounts") or []
    )


def _shm_needs_preservation(sm: Any) -> bool:
    """Upstream ``sharedMemoryNeedsPreservation``: the struct the scalar cannot carry."""
    if not isinstance(sm, dict):
        return False
    zero = _qty_zero(sm.get("size"))
    return not zero if sm.get("disabled") else zero


def _restore_shared_memory(live: dict, saved: dict) -> None:
    """Upstream ``shouldRestorePreservedSharedMemory``."""
    sm = saved.get("sharedMemory")
    if not isinstance(sm, dict) or not _shm_needs_preservation(sm):
        return
    cur = live.get("sharedMemory")
    if cur is None or (sm.get("disabled") and cur.get("disabled") and _qty_zero(cur.get("size"))):
        live["sharedMemory"] = _dc(sm)


def _svc_restore(live: dict, saved: dict, comp: dict) -> None:
    _restore_shared_memory(live, saved)
    _restore_cache_mounts(live, saved, comp)
    _restore_resources(live, saved, _main_of(comp) is not None)
    _origin_restore(live, saved, _main_of(comp))
    _restore_env_from_secret(live, saved)
    _fill(live, _strip_origin({k: v for k, v in saved.items() if k not in ("frontendSidecar", "sharedMemory")}))


def _main_of(comp: dict) -> dict | None:
    for c in ((comp.get("podTemplate") or {}).get("spec") or {}).get("containers") or []:
        if isinstance(c, dict) and c.get("name") == MAIN:
            return c
    return None


_NO_CACHE_MOUNT = "compilationCacheMountAbsent"
_NO_MAIN = "mainContainerAbsent"


def _comp_restore(comp: dict, saved: dict) -> None:
    """Restore from this module's earlier hub save (a remainder plus the two markers above)."""
    _fill(comp, {k: v for k, v in saved.items() if k not in ("name", _NO_CACHE_MOUNT, _NO_MAIN)})
    main = _main_of(comp)
    if saved.get(_NO_MAIN) and main is not None:
        cc = comp.get("compilationCache") or {}
        leftover = {k: v for k, v in main.items() if k != "name"}
        if not leftover or (
            set(leftover) == {"volumeMounts"}
            and all(
                m.get("name") == cc.get("pvcName") and m.get("mountPath") == cc.get("mountPath")
                for m in leftover["volumeMounts"]
            )
        ):
            spec = comp["podTemplate"]["spec"]
            spec["containers"] = [c for c in spec["containers"] if c is not main]
            return
    cc = comp.get("compilationCache")
    main = _main_of(comp)
    if saved.get(_NO_CACHE_MOUNT) and isinstance(cc, dict) and main is not None:
        vms = [
            m
            for m in main.get("volumeMounts") or []
            if not (m.get("name") == cc.get("pvcName") and m.get("mountPath") == cc.get("mountPath"))
        ]
        if vms:
            main["volumeMounts"] = vms
        else:
            main.pop("volumeMounts", None)


# ---------------------------------------------------------------------------------------------------
# upstream's typed hub save (beta -> alpha): ``saveSharedHubOnlySpec`` / ``sparseSharedHubOnlyPodTemplate``
# and its restore ``restoreSharedHubOnlyFields``; bytes = ``marshalPreservedSpec`` of the sparse
# v1beta1 spec (``marshalDCDHubSpec`` / ``marshalDGDHubSpec``)


def _deep_empty(v: Any) -> bool:
    """Go zero value under ``apiequality.Semantic`` (nil and empty slices/maps are equal)."""
    if isinstance(v, dict):
        return all(_deep_empty(x) for x in v.values())
    if isinstance(v, list):
        return not v
    return _empty(v)


def _sem(v: Any) -> Any:
    """A value with every Go-zero leaf removed, for ``Semantic.DeepEqual``-like comparison."""
    if isinstance(v, dict):
        return {k: _sem(x) for k, x in v.items() if not _deep_empty(x)}
    if isinstance(v, list):
        return [_sem(x) for x in v]
    return v


def _sem_eq(a: Any, b: Any) -> bool:
    return _sem(a) == _sem(b)


def _ctrs(pt: Any) -> list:
    if not isinstance(pt, dict):
        return []
    spec = pt.get("spec")
    out = spec.get("containers") if isinstance(spec, dict) else None
    return [c for c in out or [] if isinstance(c, dict)]


def _find_ctr(ctrs: list, name: Any) -> dict | None:
    return next((c for c in ctrs if c.get("name") == name), None)


def _only_name(c: dict) -> bool:
    """``containerHasOnlyName``."""
    return all(_deep_empty(v) for k, v in c.items() if k != "name")


def _find_mount(mounts: list, mount: dict) -> dict | None:
    """``findPreservedVolumeMount``: same name and path, else the only mount of that name."""
    for m in mounts:
        if m.get("name") == mount.get("name") and m.get("mountPath") == mount.get("mountPath"):
            return m
    named = [m for m in mounts if m.get("name") == mount.get("name")]
    return named[0] if len(named) == 1 else None


def _sparse_hub_mounts(src: list, projected: list) -> list:
    """``sparseSharedHubOnlyVolumeMounts``."""
    out = []
    for m in src:
        pm = _find_mount(projected, m)
        if pm is None or not _sem_eq(m, pm):
            out.append(_dc(m))
        else:
            out.append({"name": m.get("name", ""), "mountPath": m.get("mountPath", "")})
    return out


def _generated_main_key_needs_save(src: dict, proj: dict | None) -> bool:
    """``sharedGeneratedMainContainerKeyNeedsSave``."""
    if src.get("name") != MAIN:
        return False
    if proj is None or _only_name(src):
        return _only_name(src) if proj is None else True
    src_mounts = [m for m in src.get("volumeMounts") or [] if isinstance(m, dict)]
    return any(_find_mount(src_mounts, pm) is None for pm in proj.get("volumeMounts") or [] if isinstance(pm, dict))


def _sparse_hub_pod_template(src: dict, projected: dict | None, fs_name: str) -> dict | None:
    """``sparseSharedHubOnlyPodTemplate``."""
    meta = {k: _dc(v) for k, v in (src.get("metadata") or {}).items() if k not in ("labels", "annotations")}
    src_ctrs, proj_ctrs = _ctrs(src), _ctrs(projected)
    src_names = [c.get("name") for c in src_ctrs]
    needs_meta = not _deep_empty(meta)
    needs_gen_main = projected is not None and MAIN not in src_names and _find_ctr(proj_ctrs, MAIN) is not None
    needs_empty = projected is None and _deep_empty(src)
    proj_names = [c.get("name") for c in proj_ctrs]
    if MAIN not in src_names:
        proj_names = [n for n in proj_names if n != MAIN]
    needs_order = projected is not None and src_names != proj_names
    needs_fs = bool(fs_name) and fs_name in src_names
    fields_need = bool(src_ctrs) if projected is None else not _sem_eq(src_ctrs, proj_ctrs)
    if not (needs_meta or needs_gen_main or needs_empty or needs_order or needs_fs or fields_need):
        return None
    saved: list = []
    for sc in src_ctrs:
        name = sc.get("name")
        kept: dict = {"name": name}
        pc = _find_ctr(proj_ctrs, name)
        if pc is not None:
            if name != MAIN:
                if not _sem_eq(sc, pc):
                    kept = _dc(sc)
                    for k in ("image", "args", "env"):
                        kept.pop(k, None)
                    if _sem_eq(sc.get("envFrom"), pc.get("envFrom")):
                        kept.pop("envFrom", None)
            elif sc.get("volumeMounts"):
                kept["volumeMounts"] = _sparse_hub_mounts(sc["volumeMounts"], pc.get("volumeMounts") or [])
        elif not _only_name(sc):
            kept = _dc(sc)
        if needs_order or name == fs_name or _generated_main_key_needs_save(sc, pc) or not _only_name(kept):
            saved.append(kept)
    if not needs_meta and not saved and not needs_gen_main and not needs_empty:
        return None
    out: dict = {}
    if needs_meta:
        out["metadata"] = meta
    out["spec"] = {"containers": saved} if saved else {}
    return out


def _hub_save(comp: dict, svc: dict) -> dict:
    """``saveSharedHubOnlySpec`` (without the component name)."""
    save: dict = {}
    if comp.get("frontendSidecar") is not None and svc.get("frontendSidecar") is None:
        save["frontendSidecar"] = comp["frontendSidecar"]
    pt = comp.get("podTemplate")
    if isinstance(pt, dict):
        projected = _build_pod_template(svc)
        sparse = _sparse_hub_pod_template(pt, projected, save.get("frontendSidecar") or "")
        if sparse is not None:
            save["podTemplate"] = sparse
    exp = comp.get("experimental")
    if isinstance(exp, dict):
        if all(exp.get(k) is None for k in ("gpuMemoryService", "failover", "checkpoint")):
            save["experimental"] = _dc(exp)
        elif exp.get("grove") is not None:
            save["experimental"] = {"grove": _dc(exp["grove"])}
    return save


def _hub_annotation(spec: dict, layout: str) -> str:
    from .._k8s._gofmt import go_json

    return go_json({"version": 1, "spec": go_encode(spec, layout)})


def _read_hub_payload(meta: dict, key: str) -> tuple[dict | None, bool]:
    """The hub save and whether it is upstream's typed shape (``{"version":1,"spec":...}`` with the
    version first, as ``marshalPreservedSpec`` writes it) rather than this module's earlier one."""
    payload = _read_payload(meta, key)
    raw = (meta.get("annotations") or {}).get(key)
    if not isinstance(raw, str) or payload is None:
        return payload, False
    # upstream's envelope, or its legacy bare typed spec (restorePreservedSpec: no "spec" key);
    # this module's earlier payload always had "spec" first
    upstream = raw.lstrip().startswith('{"version"') or '"spec"' not in raw[:8]
    return payload, upstream


def _clean_hub_ctr(c: Any) -> Any:
    """A decoded saved container: Go's ``null`` and the value-struct ``resources: {}`` are absent."""
    if not isinstance(c, dict):
        return c
    c = _drop_nulls(c)
    if c.get("resources") == {}:
        c.pop("resources")
    return c


def _hub_restore(comp: dict, saved: dict, svc: dict) -> None:
    """``restoreSharedHubOnlyFields`` on a freshly converted component (``svc`` = the live v1alpha1)."""
    spt = saved.get("podTemplate")
    if isinstance(spt, dict):
        smeta = {k: v for k, v in (spt.get("metadata") or {}).items() if v is not None}
        sctrs = [_clean_hub_ctr(c) for c in _ctrs(spt)]
        if comp.get("podTemplate") is None:
            # podTemplateOrigin: upstream builds the template even without v1alpha1 pod content
            built = _build_pod_template(svc, force=True)
            if built is not None and svc.get("frontendSidecar") is not None:
                comp["frontendSidecar"] = FRONTEND_SIDECAR
            comp["podTemplate"] = built
        out = _dc(comp.get("podTemplate") or {})
        spec = out.setdefault("spec", {})
        ctrs = [c for c in spec.get("containers") or [] if isinstance(c, dict)]
        cc = comp.get("compilationCache")
        smain = _find_ctr(sctrs, MAIN)
        eps_main = (svc.get("extraPodSpec") or {}).get("mainContainer") or {}
        eps_mounts = [m for m in eps_main.get("volumeMounts") or [] if isinstance(m, dict)]

        def is_cache(m: dict) -> bool:
            return isinstance(cc, dict) and m.get("name") == cc.get("pvcName") and m.get("mountPath") == cc.get("mountPath")

        # dropGeneratedCompilationCacheMount
        if isinstance(cc, dict) and not any(is_cache(m) for m in (smain or {}).get("volumeMounts") or []) \
                and not any(is_cache(m) for m in eps_mounts):
            main = _find_ctr(ctrs, MAIN)
            if main is not None and main.get("volumeMounts"):
                vms = [m for m in main["volumeMounts"] if not is_cache(m)]
                if vms:
                    main["volumeMounts"] = vms
                else:
                    main.pop("volumeMounts")
        # dropGeneratedMainContainer
        if smain is None and not _resources_need_preservation(svc.get("resources")):
            main = _find_ctr(ctrs, MAIN)
            if main is not None:
                rest = {k: v for k, v in main.items() if k != "name"}
                if "volumeMounts" in rest:
                    rest["volumeMounts"] = [m for m in rest["volumeMounts"] if not is_cache(m)]
                if _deep_empty(rest):
                    ctrs = [c for c in ctrs if c is not main]
        # restoreSharedPodTemplateMissingHubOnlyContainers
        for c in sctrs:
            if _only_name(c) or _find_ctr(ctrs, c.get("name")) is not None:
                continue
            if c.get("name") == FRONTEND_SIDECAR and svc.get("frontendSidecar") is None:
                continue
            ctrs.append(_dc(c))
        # restoreSharedPodTemplateExistingHubOnlyContainers (the generated frontend sidecar)
        fs = svc.get("frontendSidecar")
        sfs = _find_ctr(sctrs, FRONTEND_SIDECAR)
        live_fs = _find_ctr(ctrs, FRONTEND_SIDECAR)
        if isinstance(fs, dict) and sfs is not None and not _only_name(sfs) and live_fs is not None:
            extra = {k: _dc(v) for k, v in sfs.items() if k not in ("name", "image", "args", "env")}
            if extra.get("envFrom"):
                secret = fs.get("envFromSecret")
                if secret:
                    live_ef, saved_ef = live_fs.get("envFrom") or [], extra["envFrom"]
                    if (len(live_ef) == 1 and len(saved_ef) == 1
                            and (live_ef[0].get("secretRef") or {}).get("name") == secret
                            and (saved_ef[0].get("secretRef") or {}).get("name") == secret):
                        pass
                    else:
                        extra.pop("envFrom")
            for k, v in extra.items():  # mergo.WithOverride: non-empty saved values win
                if not _deep_empty(v):
                    live_fs[k] = v
        # restoreSharedPodTemplateContainerOrder
        names = [c.get("name") for c in sctrs]
        if len(sctrs) >= 2 and len(sctrs) == len(ctrs) and all(c.get("name") in names for c in ctrs):
            remaining = list(ctrs)
            ordered = []
            for n in names:
                for i, c in enumerate(remaining):
                    if c.get("name") == n:
                        ordered.append(remaining.pop(i))
                        break
            ctrs = ordered + remaining
        if ctrs:
            spec["containers"] = ctrs
        else:
            spec.pop("containers", None)
        # restoreSharedHubOnlyPodTemplateMetadata
        live_meta = out.get("metadata") or {}
        meta = _dc(smeta)
        for k in ("labels", "annotations"):
            if live_meta.get(k):
                meta[k] = live_meta[k]
        if meta:
            out["metadata"] = meta
        else:
            out.pop("metadata", None)
        # restoreSharedHubOnlyFlatVolumeMountFields
        flat = [m for m in svc.get("volumeMounts") or [] if isinstance(m, dict)]
        main = _find_ctr(ctrs, MAIN)
        if flat and smain is not None and smain.get("volumeMounts") and main is not None:
            for j, m in enumerate(main.get("volumeMounts") or []):
                if not any(f.get("name") == m.get("name") and f.get("mountPoint") == m.get("mountPath") for f in flat):
                    continue
                if any(e.get("name") == m.get("name") and e.get("mountPath") == m.get("mountPath") for e in eps_mounts):
                    continue
                pm = _find_mount(smain["volumeMounts"], m)
                if pm is not None:
                    main["volumeMounts"][j] = {**_drop_nulls(pm), "name": m.get("name"), "mountPath": m.get("mountPath")}
        if not out.get("spec"):
            out.pop("spec", None)
        if _deep_empty(spt) and _deep_empty(out):
            comp["podTemplate"] = out
        elif _deep_empty(out):
            comp.pop("podTemplate", None)
        else:
            comp["podTemplate"] = out
    elif comp.get("podTemplate") is None:
        comp.pop("podTemplate", None)
    # restoreSharedHubOnlyFrontendSidecar
    sfs_name = saved.get("frontendSidecar")
    if comp.get("frontendSidecar") is None and sfs_name is not None:
        in_saved = isinstance(spt, dict) and _find_ctr(_ctrs(spt), sfs_name) is not None
        if not in_saved or _find_ctr(_ctrs(comp.get("podTemplate")), sfs_name) is not None:
            comp["frontendSidecar"] = sfs_name
    sexp = _drop_nulls(saved.get("experimental"))
    if isinstance(sexp, dict):
        exp = comp.get("experimental")
        if exp is None and all(sexp.get(k) is None for k in ("gpuMemoryService", "failover", "checkpoint")):
            comp["experimental"] = _dc(sexp)
        elif isinstance(exp, dict) and exp.get("grove") is None and sexp.get("grove") is not None:
            exp["grove"] = _dc(sexp["grove"])


# ---------------------------------------------------------------------------------------------------
# DGD


def to_v1beta1(obj: dict) -> dict:
    """Convert a v1alpha1 DGD, DCD or DGDR (spec) to v1beta1 (a v1beta1 input is returned as a copy)."""
    return _dispatch(obj, BETA, _dcd_to_beta, _dgdr_to_beta, _dgd_to_beta)


def to_v1alpha1(obj: dict) -> dict:
    """Convert a v1beta1 DGD, DCD or DGDR (spec) to v1alpha1 (a v1alpha1 input is returned as a copy)."""
    return _dispatch(obj, ALPHA, _dcd_to_alpha, _dgdr_to_alpha, _dgd_to_alpha)


def _dispatch(obj: dict, api: str, dcd: Callable, dgdr: Callable, dgd: Callable) -> dict:
    if obj.get("apiVersion") == api:
        return _dc(obj)
    kind = obj.get("kind")
    if kind == "DynamoComponentDeployment":
        return dcd(obj)
    if kind == "DynamoGraphDeploymentRequest":
        return dgdr(obj)
    return dgd(obj)


def _copy_top(obj: dict, api: str) -> tuple[dict, dict]:
    out: dict = {}
    for k, v in obj.items():
        if k in ("spec", "status"):
            continue
        out[k] = _dc(v)
    out["apiVersion"] = api
    meta = out.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    return out, meta


def _open(obj: dict, api: str, key: str, scrub: tuple) -> tuple[dict, dict, dict | None]:
    """Start a conversion: copy of the top level, its metadata and the preserved payload (scrubbed)."""
    out, meta = _copy_top(obj, api)
    payload = _read_payload(meta, key)
    _scrub(meta, scrub)
    return out, meta, payload


def _finish(obj: dict, out: dict, meta: dict, spec: Any, status: Any, key: str, save: Any) -> dict:
    """End a conversion: spec, converted status (``status`` maps the source status), payload, metadata."""
    if "spec" in obj:
        out["spec"] = spec if obj["spec"] is not None else None
    if "status" in obj:
        out["status"] = status(obj["status"])
    if save:
        _write_payload(meta, key, save)
    if meta or "metadata" in obj:
        out["metadata"] = meta
    return out


def _renamed(d: dict, old: str, new: str) -> dict:
    """A copy of ``d`` with key ``old`` spelled ``new`` (first; a null value is dropped)."""
    out: dict = {}
    if d.get(old) is not None:
        out[new] = d[old]
    for k, v in d.items():
        if k != old:
            out[k] = _dc(v)
    return out


def _top_spec(src: dict, skip: tuple, env: tuple[str, str], topology: tuple[str, str]) -> dict:
    """The graph-level spec fields: ``envs``/``env`` and the topology profile name renamed."""
    spec: dict = {}
    for k, v in src.items():
        if k in skip:
            continue
        if k == env[0]:
            spec[env[1]] = _dc(v)
        elif k == "topologyConstraint" and isinstance(v, dict):
            spec[k] = _renamed(v, *topology)
        else:
            spec[k] = _dc(v)
    return spec


def _is_hub_payload(payload: dict) -> bool:
    return "components" in payload or "component" in payload


def _dgd_to_beta(obj: dict) -> dict:
    _, upstream_hub = _read_hub_payload(obj.get("metadata") or {}, DGD_SPEC_ANNOTATION)
    out, meta, payload = _open(obj, BETA, DGD_SPEC_ANNOTATION, _DGD_SCRUB)
    restored = payload if payload is not None and _is_hub_payload(payload) else None
    src = obj.get("spec") or {}
    spec = _top_spec(src, ("services", "pvcs"), ("envs", "env"), ("topologyProfile", "clusterTopologyName"))
    save: dict = {}
    if src.get("pvcs"):
        save["pvcs"] = _dc(src["pvcs"])
    services = src.get("services")
    if isinstance(services, dict) and services:
        restored_comps = {c.get("name"): c for c in (restored or {}).get("components") or [] if isinstance(c, dict)}
        names = sorted(services)
        order = [str(c.get("name")) for c in (restored or {}).get("components") or [] if isinstance(c, dict)]
        if order and order != sorted(order):
            names = [n for n in order if n in services] + [n for n in sorted(services) if n not in order]
        comps = []
        saved_services: dict = {}
        for name in names:
            svc = services[name]
            if svc is None:
                saved_services[name] = None
                continue
            comp = _svc_to_comp(name, svc)
            rc = restored_comps.get(name)
            if isinstance(rc, dict) and upstream_hub:
                _hub_restore(comp, rc, svc)
            elif rc:
                _comp_restore(comp, rc)
            comp = {"name": name, **{k: v for k, v in comp.items() if k != "name"}}
            sv = _upstream_spoke_save(svc, restored is None)
            if svc.get("serviceName") and svc.get("serviceName") != name:
                sv["serviceName"] = svc["serviceName"]
            else:
                sv.pop("serviceName", None)
            if sv:
                saved_services[name] = sv
            comps.append(comp)
        spec["components"] = comps
        if saved_services:
            save["services"] = saved_services
    if save:
        meta["annotations"] = {**(meta.get("annotations") or {}), DGD_SPEC_ANNOTATION: _dgd_spoke_annotation(save)}
    _write_raw(meta, DGD_STATUS_ANNOTATION, _status_save(obj.get("status")))
    return _finish(obj, out, meta, spec, _status_to_beta, DGD_SPEC_ANNOTATION, None)


def _dgd_to_alpha(obj: dict) -> dict:
    src_anns = (obj.get("metadata") or {}).get("annotations") or {}
    # upstream SaveHubOrigin = !hasDGDSpokeAnnotations
    save_hub_origin = DGD_SPEC_ANNOTATION not in src_anns and DGD_STATUS_ANNOTATION not in src_anns
    out, meta, payload = _open(obj, ALPHA, DGD_SPEC_ANNOTATION, _DGD_SCRUB)
    restored = payload if payload is not None and not _is_hub_payload(payload) else None
    src = obj.get("spec") or {}
    spec = _top_spec(src, ("components",), ("env", "envs"), ("clusterTopologyName", "topologyProfile"))
    save: dict = {}
    comps = src.get("components")
    saved_services = (restored or {}).get("services") or {}
    if isinstance(comps, list) and comps:
        names = [c.get("name") for c in comps if isinstance(c, dict)]
        preserve_order = names != sorted(n or "" for n in names)
        services: dict = {}
        saved_comps = []
        for comp in comps:
            name = comp.get("name")
            if name in services:
                raise ConversionError(f'component "{name}": duplicate component name "{name}" in spec.components')
            sv = saved_services.get(name) if isinstance(saved_services, dict) else None
            if isinstance(sv, dict):
                sv = _spoke_to_internal(sv)
            svc = _comp_to_svc(comp, (sv or {}).get("frontendSidecar") if isinstance(sv, dict) else None)
            if isinstance(sv, dict):
                _svc_restore(svc, sv, comp)
                if sv.get("serviceName") and not svc.get("serviceName"):
                    svc["serviceName"] = sv["serviceName"]
            services[name] = svc
            cs = _hub_save(comp, svc)
            # upstream SaveHubOrigin: a hub-first component with a podTemplate is marked, so the
            # way back knows not to record v1alpha1 field origins
            hub_origin = save_hub_origin and comp.get("podTemplate") is not None
            if cs or preserve_order or hub_origin:
                saved_comps.append({"name": name if name is not None else "", **cs})
        spec["services"] = services
        if saved_comps:
            save["components"] = saved_comps
    if isinstance(restored, dict):
        if not spec.get("pvcs") and restored.get("pvcs"):
            # Go writes the value-typed PVC.size as "0" when unset
            spec["pvcs"] = [
                {k: v for k, v in p.items() if not (k == "size" and v == "0")} if isinstance(p, dict) else p
                for p in _drop_nulls(restored["pvcs"])
            ]
        for name, sv in saved_services.items():
            if sv is None and name not in (spec.get("services") or {}):
                spec.setdefault("services", {})[name] = None
    saved_status = _read_payload(obj.get("metadata") or {}, DGD_STATUS_ANNOTATION)

    def status(st: Any) -> Any:
        return _status_restore(_status_to_alpha(st), saved_status)

    if save:
        meta["annotations"] = {
            **(meta.get("annotations") or {}),
            DGD_SPEC_ANNOTATION: _hub_annotation(save, "HubDGDSpec"),
        }
    return _finish(obj, out, meta, spec, status, DGD_SPEC_ANNOTATION, None)


def _status_convert(status: Any, replicas: tuple[str, str], updated: tuple[str, str], entry: Callable) -> Any:
    """The DGD status with the per-component map (``replicas``) and ``rollingUpdate`` list renamed."""
    if not isinstance(status, dict):
        return _dc(status)
    out = {}
    for k, v in status.items():
        if k == replicas[0] and isinstance(v, dict):
            out[replicas[1]] = {name: entry(_dc(st) if isinstance(st, dict) else {}) for name, st in v.items()}
        elif k == "rollingUpdate" and isinstance(v, dict):
            out[k] = {(updated[1] if kk == updated[0] else kk): _dc(vv) for kk, vv in v.items()}
        else:
            out[k] = _dc(v)
    return out


def _replica_status_to_beta(st: dict) -> dict:
    cn = st.pop("componentName", None)
    if not st.get("componentNames") and cn:
        st["componentNames"] = [cn]
    return st


def _replica_status_to_alpha(st: dict) -> dict:
    names = st.get("componentNames") or []
    if names:
        st["componentName"] = names[-1]
    return st


def _names_to_hub(st: dict) -> list:
    """Upstream ``componentNamesToHub``."""
    names = list(st.get("componentNames") or [])
    return names or ([st["componentName"]] if st.get("componentName") else [])


def _component_name_needs_preservation(st: Any) -> bool:
    """Upstream ``serviceStatusComponentNameNeedsPreservation``."""
    if not isinstance(st, dict):
        return False
    names = st.get("componentNames") or []
    return names[-1] != st.get("componentName", "") if names else bool(st.get("componentName"))


def _replica_save(st: dict) -> dict:
    return {k: _dc(st[k]) for k in ("componentName", "componentNames") if k in st}


def _restore_replica(st: Any, sv: Any) -> None:
    """Upstream ``shouldRestoreSavedServiceReplicaStatus`` + the restore of both name fields."""
    if not _component_name_needs_preservation(sv) or not isinstance(st, dict):
        return
    live_names = st.get("componentNames") or []
    if live_names == _names_to_hub(sv) or (not sv.get("componentNames") and not live_names):
        st.pop("componentNames", None)
        st.pop("componentName", None)
        # only the two name fields are saved (upstream's typed save also writes zero replicas)
        st.update(_replica_save({k: v for k, v in sv.items() if k not in ("componentName", "componentNames") or v}))


def _status_save(status: Any) -> dict:
    """Upstream ``saveDGDAlphaOnlyStatus``: componentName/componentNames the hub list cannot carry."""
    services = status.get("services") if isinstance(status, dict) else None
    saved = {name: _replica_save(st) for name, st in (services or {}).items() if _component_name_needs_preservation(st)}
    return {"services": saved} if saved else {}


def _status_restore(status: Any, saved: dict | None) -> Any:
    """Upstream ``restoreDGDAlphaOnlyStatusFromSaved``."""
    services = status.get("services") if isinstance(status, dict) else None
    for name, st in (services or {}).items():
        _restore_replica(st, ((saved or {}).get("services") or {}).get(name))
    return status


def _dcd_status_to_beta(status: Any) -> Any:
    """Upstream ``ConvertFromDynamoComponentDeploymentStatus``: ``service`` -> ``component``, no podSelector."""
    if not isinstance(status, dict):
        return _dc(status)
    out = {k: _dc(v) for k, v in status.items() if k not in ("service", "podSelector")}
    if isinstance(status.get("service"), dict):
        out["component"] = _replica_status_to_beta(_dc(status["service"]))
    return out


def _dcd_status_to_alpha(status: Any, saved: dict | None) -> Any:
    """Upstream ``ConvertToDynamoComponentDeploymentStatus`` + ``restoreDCDAlphaOnlyStatusFromSaved``."""
    if not isinstance(status, dict):
        return _dc(status)
    out = {k: _dc(v) for k, v in status.items() if k != "component"}
    if isinstance(status.get("component"), dict):
        out["service"] = _replica_status_to_alpha(_dc(status["component"]))
        _restore_replica(out["service"], (saved or {}).get("service"))
    selector = (saved or {}).get("podSelector")
    if not out.get("podSelector") and selector:
        out["podSelector"] = _dc(selector)
    return out


def _dcd_status_save(status: Any) -> dict:
    """Upstream ``saveDCDAlphaOnlyStatus``."""
    if not isinstance(status, dict):
        return {}
    save: dict = {}
    if status.get("podSelector"):
        save["podSelector"] = _dc(status["podSelector"])
    if _component_name_needs_preservation(status.get("service")):
        save["service"] = _replica_save(status["service"])
    return save


def _write_raw(meta: dict, key: str, data: dict) -> None:
    """A status payload: upstream's typed status struct (``setJSONAnnOnObj``), no version envelope."""
    if data:
        from .._k8s._gofmt import go_json

        anns = meta.setdefault("annotations", {})
        # the typed v1alpha1 status struct: DCD ``{conditions: null, podSelector?, service?}``,
        # DGD ``{state: "", services?}`` (a saved ServiceReplicaStatus holds only its two names)
        layout = "AlphaDCDStatus" if key == DCD_STATUS_ANNOTATION else "AlphaDGDStatus"
        anns[key] = go_json(go_encode(data, layout))


def _status_to_beta(status: Any) -> Any:
    return _status_convert(
        status, ("services", "components"), ("updatedServices", "updatedComponents"), _replica_status_to_beta
    )


def _status_to_alpha(status: Any) -> Any:
    return _status_convert(
        status, ("components", "services"), ("updatedComponents", "updatedServices"), _replica_status_to_alpha
    )


# ---------------------------------------------------------------------------------------------------
# upstream's typed spoke save (``saveSharedAlphaOnlySpec``) and its exact bytes
# (``marshalPreservedSpec``: ``{"version":1,"spec":<v1alpha1 DCD spec>,"rawJSON":[...]}``)

_PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH = "serviceName"
_PROMOTED_SUBTYPES = ("prefill", "decode")


def _ensure_main(save: dict) -> dict:
    """``ensureExtraPodSpecMainContainer``."""
    eps = save.get("extraPodSpec")
    if not isinstance(eps, dict):
        eps = save["extraPodSpec"] = {}
    main = eps.get("mainContainer")
    if not isinstance(main, dict):
        main = eps["mainContainer"] = {}
    return main


def _eps_pod_spec_zero(eps: dict) -> bool:
    return not any(not _empty(v) for k, v in eps.items() if k != "mainContainer")


def _eps_needs_preservation(eps: Any) -> bool:
    """``extraPodSpecNeedsPreservation``: zero, or only the main container's name."""
    if not isinstance(eps, dict):
        return False
    main = eps.get("mainContainer")
    main_rest = {k: v for k, v in (main or {}).items() if k != "name"} if isinstance(main, dict) else {}
    if _eps_pod_spec_zero(eps) and all(_empty(v) for v in main_rest.values()):
        return True
    return False


def _frontend_sidecar_conflict(svc: dict) -> bool:
    """``alphaFrontendSidecarConflictNeedsPreservation``."""
    eps = svc.get("extraPodSpec")
    return svc.get("frontendSidecar") is not None and isinstance(eps, dict) and any(
        isinstance(c, dict) and c.get("name") == FRONTEND_SIDECAR for c in eps.get("containers") or []
    )


def _origins_need_save(svc: dict) -> bool:
    """``sharedMainContainerFieldOriginsNeedSave``."""
    main = (svc.get("extraPodSpec") or {}).get("mainContainer")
    if not isinstance(main, dict):
        return False
    return bool(main.get("name")) or any(
        not _empty(main.get(f)) for f in ("env", "resources", "volumeMounts", "livenessProbe", "readinessProbe")
    )


def _upstream_spoke_save(svc: dict, include_origin_splits: bool) -> dict:
    """Upstream ``saveSharedAlphaOnlySpec`` on a v1alpha1 shared spec (plain dict, unordered)."""
    save: dict = {}
    sub = svc.get("subComponentType")
    if sub and not (svc.get("componentType") == "worker" and sub in _PROMOTED_SUBTYPES):
        save["subComponentType"] = sub
    for key in ("dynamoNamespace", "autoscaling", "ingress"):
        if svc.get(key) is not None:
            save[key] = _dc(svc[key])
    for key in ("annotations", "labels"):
        if svc.get(key):
            save[key] = _dc(svc[key])
    if svc.get("envFromSecret") is not None:
        save["envFromSecret"] = svc["envFromSecret"]
    if _resources_need_preservation(svc.get("resources")):
        save["resources"] = _dc(svc["resources"])
    if svc.get("volumeMounts") and _cache_mount_count(svc.get("volumeMounts")) > 1:
        save["volumeMounts"] = _dc(svc["volumeMounts"])
    if _shm_needs_preservation(svc.get("sharedMemory")):
        save["sharedMemory"] = _dc(svc["sharedMemory"])
    epm = svc.get("extraPodMetadata")
    if isinstance(epm, dict) and not epm.get("annotations") and not epm.get("labels"):
        save["extraPodMetadata"] = _dc(epm)
    if _eps_needs_preservation(svc.get("extraPodSpec")) or _frontend_sidecar_conflict(svc):
        save["extraPodSpec"] = _dc(svc["extraPodSpec"])
    for key in ("scalingAdapter", "gpuMemoryService", "failover"):
        v = svc.get(key)
        if isinstance(v, dict) and not v.get("enabled"):
            save[key] = _dc(v)
        if key == "scalingAdapter" and svc.get("frontendSidecar") is not None:
            save["frontendSidecar"] = _dc(svc["frontendSidecar"])
    if include_origin_splits or save or _origins_need_save(svc):
        main = (svc.get("extraPodSpec") or {}).get("mainContainer")
        if isinstance(main, dict):
            if main.get("name"):
                _ensure_main(save)["name"] = main["name"]
            pairs = (("envs", "env"), ("envFromSecret", "envFrom"), ("resources", "resources"),
                     ("volumeMounts", "volumeMounts"), ("livenessProbe", "livenessProbe"),
                     ("readinessProbe", "readinessProbe"))
            for dedicated, in_main in pairs:
                if dedicated in ("envs", "volumeMounts"):
                    hit = bool(svc.get(dedicated)) or bool(main.get(in_main))
                elif dedicated == "resources":
                    hit = svc.get(dedicated) is not None or not _empty(main.get(in_main))
                else:
                    hit = svc.get(dedicated) is not None or not _empty(main.get(in_main))
                if not hit:
                    continue
                if svc.get(dedicated) is not None:
                    save[dedicated] = _dc(svc[dedicated])
                else:
                    save.pop(dedicated, None)
                if main.get(in_main) is not None:
                    _ensure_main(save)[in_main] = _dc(main[in_main])
                else:
                    _ensure_main(save).pop(in_main, None)
    return save


def _go_alpha_spec(save: dict) -> dict:
    """``json.Marshal`` of a sparse v1alpha1 ``DynamoComponentDeploymentSpec``
    (``backendFramework`` first, then the inline shared spec)."""
    return go_encode(save, "AlphaDCDSpec")


def _dgd_spoke_annotation(save: dict) -> str:
    """``marshalDGDSpokeSpec``: a sparse v1alpha1 ``DynamoGraphDeploymentSpec`` (``pvcs``, then the
    ``services`` map with sorted keys; a nil service is ``null``) in the version envelope."""
    from .._k8s._gofmt import go_json

    spec = {k: save[k] for k in ("pvcs", "services") if save.get(k)}
    return go_json({"version": 1, "spec": go_encode(spec, "AlphaDGDSpec")})


def _spoke_annotation(save: dict, empty_service_name: bool) -> str:
    """``marshalDCDSpokeSpec``: the envelope upstream writes into ``nvidia.com/dcd-spec``."""
    from .._k8s._gofmt import go_json

    env: dict = {"version": 1, "spec": _go_alpha_spec(save)}
    if empty_service_name:
        env["rawJSON"] = [{"path": _PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH, "nil": True}]
    return go_json(env)


def _read_spoke(meta: dict) -> tuple[dict | None, bool]:
    """The DCD spoke payload as this module's internal save (``service`` leaves, origins) plus the
    empty-serviceName marker; reads upstream's typed envelope and this module's older shape."""
    raw = (meta.get("annotations") or {}).get(DCD_SPEC_ANNOTATION)
    if not isinstance(raw, str) or not raw:
        return None, False
    try:
        data = json.loads(raw)
    except ValueError:
        return None, False
    if not isinstance(data, dict):
        return None, False
    spec = data.get("spec") if "spec" in data else data
    if not isinstance(spec, dict):
        return None, False
    if "service" in spec or "emptyServiceName" in spec:  # this module's earlier payload
        sv = spec.get("service")
        return (sv if isinstance(sv, dict) else None), bool(spec.get("emptyServiceName"))
    empty_name = any(
        isinstance(r, dict) and r.get("path") == _PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH and r.get("nil")
        for r in data.get("rawJSON") or []
    )
    return _spoke_to_internal(spec), empty_name


def _drop_nulls(v: Any) -> Any:
    """Go's ``null`` for a nil pointer/slice (``GRPCAction.service``, ...) is an absent field here."""
    if isinstance(v, dict):
        return {k: _drop_nulls(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_drop_nulls(x) for x in v]
    return v


def _spoke_to_internal(spec: dict) -> dict:
    """Upstream's typed spoke save -> the internal save ``_svc_restore`` consumes."""
    if "mainContainerOrigins" in spec:  # this module's earlier internal shape
        return spec
    spec = _drop_nulls(spec)
    out: dict = {}
    if spec.get("serviceName"):
        out["serviceName"] = spec["serviceName"]
    for key in ("subComponentType", "dynamoNamespace", "autoscaling", "ingress", "annotations", "labels",
                "envFromSecret", "sharedMemory", "extraPodMetadata", "scalingAdapter", "frontendSidecar",
                "gpuMemoryService", "failover"):
        if key in spec:
            out[key] = _dc(spec[key])
    if isinstance(out.get("scalingAdapter"), dict) and "enabled" not in out["scalingAdapter"]:
        # saved only when disabled; Go's omitempty drops the false
        out["scalingAdapter"]["enabled"] = False
    shm = out.get("sharedMemory")
    if isinstance(shm, dict) and shm.get("size") == "0":
        # Go writes the value-typed SharedMemorySpec.size as "0" when unset
        out["sharedMemory"] = {k: v for k, v in shm.items() if k != "size"}
    if _resources_need_preservation(spec.get("resources")):
        out["resources"] = _dc(spec["resources"])
    if _cache_mount_count(spec.get("volumeMounts")) > 1:
        out["volumeMounts"] = _dc(spec["volumeMounts"])
    eps = spec.get("extraPodSpec")
    main = eps.get("mainContainer") if isinstance(eps, dict) else None
    if isinstance(main, dict):
        origins: dict = {}
        for field, (dedicated, in_main) in _SPLIT_FIELDS.items():
            entry: dict = {}
            if dedicated in spec:
                entry["dedicated"] = _dc(spec[dedicated])
            if not _empty(main.get(in_main)):
                entry["main"] = _dc(main[in_main])
            if entry:
                origins[field] = entry
        if origins:
            out["mainContainerOrigins"] = origins
    if isinstance(eps, dict):
        rest = {k: _dc(v) for k, v in eps.items() if k != "mainContainer"}
        for key in ("containers", "initContainers"):
            # Go writes the value-typed Container.resources as {} for every container
            for c in rest.get(key) or []:
                if isinstance(c, dict) and c.get("resources") == {}:
                    del c["resources"]
        if isinstance(main, dict):
            mc = {k: _dc(v) for k, v in main.items()
                  if k != "envFrom" and not (k in ("resources", "name") and not v)}
            if mc or not rest:
                rest["mainContainer"] = mc
        out["extraPodSpec"] = rest
    return out


# ---------------------------------------------------------------------------------------------------
# DCD (the shared spec plus DCD-only fields; a missing v1beta1 name defaults from metadata.name)

_DCD_ONLY = ("backendFramework",)


def _dcd_only(src: dict) -> dict:
    return {k: _dc(src[k]) for k in _DCD_ONLY if k in src}


def _dcd_to_beta(obj: dict) -> dict:
    out, meta, payload = _open(obj, BETA, DCD_SPEC_ANNOTATION, _DCD_SCRUB)
    src = obj.get("spec") or {}
    name = src.get("serviceName") or meta.get("name")
    _, upstream_hub = _read_hub_payload(obj.get("metadata") or {}, DCD_SPEC_ANNOTATION)
    alpha_src = {k: v for k, v in src.items() if k not in _DCD_ONLY}
    comp = _svc_to_comp(name, alpha_src)
    # upstream's hub save is a typed v1beta1 DCD spec (``name`` always written); the spoke save a
    # v1alpha1 one (no ``name``)
    hub_saved = payload if upstream_hub and isinstance(payload, dict) and "name" in payload else None
    if hub_saved is not None:
        _hub_restore(comp, hub_saved, alpha_src)
        if hub_saved.get("name") == "" and comp.get("name") == meta.get("name"):
            comp["name"] = ""
    elif payload and isinstance(payload.get("component"), dict):
        _comp_restore(comp, payload["component"])
    spec = {**_dcd_only(src), **comp}
    hub_origin = hub_saved is not None or isinstance((payload or {}).get("component"), dict)
    save = _upstream_spoke_save({k: v for k, v in src.items() if k not in _DCD_ONLY}, not hub_origin)
    # upstream dcdEmptyServiceNameNeedsSave: the name was defaulted from metadata.name
    empty_name = bool(not src.get("serviceName") and meta.get("name") and comp.get("name") == meta.get("name"))
    # upstream generatedPodTemplateSave: an alpha-origin DCD whose podTemplate was generated
    generated = not hub_origin and comp.get("podTemplate") is not None
    if generated or empty_name or save:
        meta["annotations"] = {**(meta.get("annotations") or {}),
                               DCD_SPEC_ANNOTATION: _spoke_annotation(save, empty_name)}
    _write_raw(meta, DCD_STATUS_ANNOTATION, _dcd_status_save(obj.get("status")))
    return _finish(obj, out, meta, spec, _dcd_status_to_beta, DCD_SPEC_ANNOTATION, None)


def _dcd_to_alpha(obj: dict) -> dict:
    src_meta = obj.get("metadata")
    sv, empty_name = _read_spoke(src_meta if isinstance(src_meta, dict) else {})
    out, meta, _payload = _open(obj, ALPHA, DCD_SPEC_ANNOTATION, _DCD_SCRUB)
    src = obj.get("spec") or {}
    comp = {k: v for k, v in src.items() if k not in _DCD_ONLY}
    svc = _comp_to_svc(comp, (sv or {}).get("frontendSidecar") if isinstance(sv, dict) else None)
    if comp.get("name"):
        svc["serviceName"] = comp["name"]
    if isinstance(sv, dict):
        _svc_restore(svc, sv, comp)
    if empty_name and svc.get("serviceName") == meta.get("name"):
        svc.pop("serviceName")
    spec = {**_dcd_only(src), **svc}
    cs = _hub_save(comp, svc)
    saved_status = _read_payload(obj.get("metadata") or {}, DCD_STATUS_ANNOTATION)
    src_anns = (src_meta if isinstance(src_meta, dict) else {}).get("annotations") or {}
    save_hub_origin = DCD_SPEC_ANNOTATION not in src_anns and DCD_STATUS_ANNOTATION not in src_anns
    # upstream dcdHubSpecNeedsSave
    if cs or (not comp.get("name") and (src_meta or {}).get("name")) or (
        save_hub_origin and comp.get("podTemplate") is not None
    ):
        hub: dict = {"name": comp.get("name") or "", **cs}
        meta["annotations"] = {**(meta.get("annotations") or {}), DCD_SPEC_ANNOTATION: _hub_annotation(hub, "HubDCDSpec")}

    def status(st: Any) -> Any:
        return _dcd_status_to_alpha(st, saved_status)

    return _finish(obj, out, meta, spec, status, DCD_SPEC_ANNOTATION, None)


# ---------------------------------------------------------------------------------------------------
# DGDR (spec; after upstream dynamographdeploymentrequest_conversion.go)

DGDR_SPEC_ANNOTATION = "nvidia.com/dgdr-spec"
DGDR_STATUS_ANNOTATION = "nvidia.com/dgdr-status"
_RETIRED_DGDR_ANNOTATIONS = (
    "nvidia.com/dgdr-config-map-ref",
    "nvidia.com/dgdr-output-pvc",
    "nvidia.com/dgdr-enable-gpu-discovery",
    "nvidia.com/dgdr-deployment-overrides",
    "nvidia.com/dgdr-profiling-config",
    "nvidia.com/dgdr-status-backend",
    "nvidia.com/dgdr-profiling-results",
    "nvidia.com/dgdr-deployment-status",
    "nvidia.com/dgdr-profiling-job-name",
)
_DGDR_SCRUB = (DGDR_SPEC_ANNOTATION, DGDR_STATUS_ANNOTATION, *_RETIRED_DGDR_ANNOTATIONS)
_PROFILER = "profiler"
_OPT_TYPES = ("latency", "throughput")
_SPOKE_DGDR_KEYS = ("enableGpuDiscovery", "profilingConfig", "deploymentOverrides")


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _strip_typed_profiling_config(blob: dict | None) -> dict | None:
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
            if _num(sla.get(key)):
                del sla[key]
                stripped = True
        if sla.get("optimizationType") in _OPT_TYPES:
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


def _profiler_index(containers: list) -> int:
    for i, c in enumerate(containers):
        if isinstance(c, dict) and c.get("name") == _PROFILER:
            return i
    return -1


def _migrate_unnamed_profiler(containers: list) -> None:
    if _profiler_index(containers) >= 0:
        return
    for c in containers:
        if isinstance(c, dict) and not c.get("name"):
            c["name"] = _PROFILER
            return


def _hub_only_profiling_job(job: dict | None) -> dict | None:
    """Upstream ``dgdrHubOnlyProfilingJob``: the job minus what v1alpha1 profilingConfig holds."""
    if not isinstance(job, dict):
        return None
    save = _dc(job)
    pod = ((save.get("template") or {}).get("spec")) or {}
    containers = pod.get("containers") or []
    _migrate_unnamed_profiler(containers)
    idx = _profiler_index(containers)
    if idx >= 0:
        had = bool(containers[idx].get("resources"))
        containers[idx].pop("resources", None)
        if had and containers[idx] == {"name": _PROFILER} and len(containers) == 1:
            del containers[idx]
    pod.pop("tolerations", None)
    pod.pop("nodeSelector", None)
    return None if _is_zero(save) else save


def _is_zero(obj: Any) -> bool:
    """Semantic zero (``apiequality.Semantic.DeepEqual`` with the zero value): only empties inside."""
    if isinstance(obj, dict):
        return all(_is_zero(v) for v in obj.values())
    if isinstance(obj, list):
        return not obj
    return obj in (None, "", 0, False)


def _dgdr_to_beta(obj: dict) -> dict:
    out, meta, payload = _open(obj, BETA, DGDR_SPEC_ANNOTATION, _DGDR_SCRUB)
    restored = payload if payload is not None and not any(k in payload for k in _SPOKE_DGDR_KEYS) else None
    src = obj.get("spec") or {}
    dst: dict = {}
    save: dict = {}
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
    pc = src.get("profilingConfig") or {}
    blob = pc.get("config")
    if isinstance(blob, dict):
        sla = blob.get("sla")
        if isinstance(sla, dict):
            d_sla = dst.setdefault("sla", {})
            for key in ("ttft", "itl"):
                if _num(sla.get(key)):
                    d_sla[key] = sla[key]
            if sla.get("optimizationType") in _OPT_TYPES:
                d_sla["optimizationType"] = sla["optimizationType"]
            for key in ("isl", "osl"):
                if _num(sla.get(key)):
                    dst.setdefault("workload", {})[key] = int(sla[key])
        mc = (blob.get("deployment") or {}).get("modelCache") if isinstance(blob.get("deployment"), dict) else None
        if isinstance(mc, dict):
            d_mc: dict = {}
            for a, b in (
                ("pvcName", "pvcName"),
                ("modelPathInPvc", "pvcModelPath"),
                ("pvcMountPath", "pvcMountPath"),
            ):
                if isinstance(mc.get(a), str) and mc[a]:
                    d_mc[b] = mc[a]
            dst["modelCache"] = d_mc
        if isinstance(blob.get("planner"), dict) and blob["planner"]:
            dst.setdefault("features", {})["planner"] = _dc(blob["planner"])
        rem = {} if not blob else _strip_typed_profiling_config(blob)
        if rem or not blob:
            save.setdefault("profilingConfig", {})["config"] = rem
    if pc.get("profilerImage"):
        dst["image"] = pc["profilerImage"]
    # profilingConfig pod fields -> overrides.profilingJob
    if pc.get("resources") is not None or pc.get("tolerations") or pc.get("nodeSelector"):
        job = dst.setdefault("overrides", {}).setdefault("profilingJob", {"template": {"spec": {}}})
        pod = job["template"]["spec"]
        if pc.get("resources") is not None:
            containers = pod.setdefault("containers", [])
            idx = _profiler_index(containers)
            if idx < 0:
                containers.append({"name": _PROFILER})
                idx = len(containers) - 1
            containers[idx]["resources"] = _dc(pc["resources"])
        if pc.get("tolerations"):
            pod["tolerations"] = _dc(pc["tolerations"])
        if pc.get("nodeSelector"):
            pod["nodeSelector"] = _dc(pc["nodeSelector"])
    # alpha-only fields
    if src.get("enableGpuDiscovery") is not None:
        save["enableGpuDiscovery"] = src["enableGpuDiscovery"]
    if pc.get("configMapRef") is not None:
        save.setdefault("profilingConfig", {})["configMapRef"] = _dc(pc["configMapRef"])
    if pc.get("outputPVC"):
        save.setdefault("profilingConfig", {})["outputPVC"] = pc["outputPVC"]
    if isinstance(src.get("deploymentOverrides"), dict):
        kept = {
            k: _dc(v)
            for k, v in src["deploymentOverrides"].items()
            if k in ("name", "namespace", "labels", "annotations", "workersImage") and v
        }
        if kept:
            save["deploymentOverrides"] = kept
    # hub-only fields restored from a hub payload
    if restored:
        if restored.get("hardware") is not None:
            dst["hardware"] = _dc(restored["hardware"])
        rw = restored.get("workload") or {}
        for key in ("concurrency", "requestRate"):
            if rw.get(key) is not None:
                dst.setdefault("workload", {})[key] = rw[key]
        if (restored.get("sla") or {}).get("e2eLatency") is not None:
            dst.setdefault("sla", {})["e2eLatency"] = restored["sla"]["e2eLatency"]
        ro = restored.get("overrides") or {}
        if ro:
            overrides = dst.setdefault("overrides", {})
            if ro.get("dgd") is not None:
                overrides["dgd"] = _dc(ro["dgd"])
            if isinstance(ro.get("profilingJob"), dict):
                if "profilingJob" not in overrides:
                    overrides["profilingJob"] = _dc(ro["profilingJob"])
                else:
                    overrides["profilingJob"] = _merge_hub_only_job(overrides["profilingJob"], ro["profilingJob"])
            if not overrides:
                dst.pop("overrides")
        mocker = (restored.get("features") or {}).get("mocker")
        if isinstance(mocker, dict) and not mocker.get("enabled"):
            dst.setdefault("features", {}).setdefault("mocker", {"enabled": False})
        if restored.get("searchStrategy"):
            dst["searchStrategy"] = restored["searchStrategy"]
    return _finish(obj, out, meta, dst, _dc, DGDR_SPEC_ANNOTATION, save)


def _merge_hub_only_job(live: dict, restored: dict) -> dict:
    """Upstream ``mergeDGDRHubOnlyProfilingJob``: restored job, live profiler resources/tolerations/nodeSelector."""
    pod = (live.get("template") or {}).get("spec") or {}
    containers = pod.get("containers") or []
    idx = _profiler_index(containers)
    resources = containers[idx].get("resources") if idx >= 0 else None
    out = _dc(restored)
    opod = out.setdefault("template", {}).setdefault("spec", {})
    ocontainers = opod.get("containers") or []
    _migrate_unnamed_profiler(ocontainers)
    if resources:
        j = _profiler_index(ocontainers)
        if j < 0:
            ocontainers.append({"name": _PROFILER})
            j = len(ocontainers) - 1
        ocontainers[j]["resources"] = _dc(resources)
    if ocontainers:
        opod["containers"] = ocontainers
    if pod.get("tolerations"):
        opod["tolerations"] = _dc(pod["tolerations"])
    if pod.get("nodeSelector"):
        opod["nodeSelector"] = _dc(pod["nodeSelector"])
    return out


def _dgdr_to_alpha(obj: dict) -> dict:
    out, meta, payload = _open(obj, ALPHA, DGDR_SPEC_ANNOTATION, _DGDR_SCRUB)
    restored = payload if payload is not None and any(k in payload for k in _SPOKE_DGDR_KEYS) else None
    src = obj.get("spec") or {}
    dst: dict = {"model": src.get("model", "")}
    if src.get("runtimeVersionOverride"):
        dst["runtimeVersionOverride"] = src["runtimeVersionOverride"]
    dst["autoApply"] = src["autoApply"] if src.get("autoApply") is not None else True
    if src.get("backend"):
        dst["backend"] = src["backend"]
    mocker = (src.get("features") or {}).get("mocker")
    if isinstance(mocker, dict) and mocker.get("enabled"):
        dst["useMocker"] = True
    pc: dict = {}
    blob: dict | None = None
    rpc = (restored or {}).get("profilingConfig") or {}
    if isinstance(rpc.get("config"), dict):
        blob = _strip_typed_profiling_config(rpc["config"])
    if src.get("sla") is not None or src.get("workload") is not None:
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
        if wrote or had:
            nxt["sla"] = sla
            blob = nxt
    if isinstance(src.get("modelCache"), dict):
        nxt = blob if blob is not None else {}
        mc = {}
        for a, b in (
            ("pvcName", "pvcName"),
            ("pvcModelPath", "modelPathInPvc"),
            ("pvcMountPath", "pvcMountPath"),
        ):
            if src["modelCache"].get(a):
                mc[b] = src["modelCache"][a]
        if mc:
            dep = dict(nxt.get("deployment") or {}) if isinstance(nxt.get("deployment"), dict) else {}
            dep["modelCache"] = mc
            nxt["deployment"] = dep
            blob = nxt
    planner = (src.get("features") or {}).get("planner")
    if isinstance(planner, dict) and planner:
        nxt = blob if blob is not None else {}
        nxt["planner"] = _dc(planner)
        blob = nxt
    if blob is not None:
        pc["config"] = blob
    if src.get("image"):
        pc["profilerImage"] = src["image"]
    # alpha-only fields restored
    if restored:
        if restored.get("enableGpuDiscovery") is not None:
            dst["enableGpuDiscovery"] = restored["enableGpuDiscovery"]
        if rpc.get("configMapRef") is not None:
            pc["configMapRef"] = _dc(rpc["configMapRef"])
        if rpc.get("outputPVC"):
            pc["outputPVC"] = rpc["outputPVC"]
        if isinstance(restored.get("deploymentOverrides"), dict):
            dst["deploymentOverrides"] = _dc(restored["deploymentOverrides"])
    # overrides.profilingJob -> profilingConfig pod fields
    job = (src.get("overrides") or {}).get("profilingJob")
    if isinstance(job, dict):
        pod = (job.get("template") or {}).get("spec") or {}
        containers = _dc(pod.get("containers") or [])
        _migrate_unnamed_profiler(containers)
        idx = _profiler_index(containers)
        if idx >= 0 and containers[idx].get("resources"):
            pc["resources"] = _dc(containers[idx]["resources"])
        if pod.get("tolerations"):
            pc["tolerations"] = _dc(pod["tolerations"])
        if pod.get("nodeSelector"):
            pc["nodeSelector"] = _dc(pod["nodeSelector"])
    dst["profilingConfig"] = pc
    # hub-only fields saved
    save: dict = {}
    if src.get("hardware") is not None:
        save["hardware"] = _dc(src["hardware"])
    wl = {
        k: src["workload"][k] for k in ("concurrency", "requestRate") if (src.get("workload") or {}).get(k) is not None
    }
    if wl:
        save["workload"] = wl
    if (src.get("sla") or {}).get("e2eLatency") is not None:
        save["sla"] = {"e2eLatency": src["sla"]["e2eLatency"]}
    ov = src.get("overrides") or {}
    so: dict = {}
    if ov.get("dgd") is not None:
        so["dgd"] = _dc(ov["dgd"])
    hub_job = _hub_only_profiling_job(ov.get("profilingJob"))
    if hub_job:
        so["profilingJob"] = hub_job
    if so:
        save["overrides"] = so
    if isinstance(mocker, dict) and not mocker.get("enabled"):
        save["features"] = {"mocker": {"enabled": False}}
    if src.get("searchStrategy"):
        save["searchStrategy"] = src["searchStrategy"]
    return _finish(obj, out, meta, dst, _dc, DGDR_SPEC_ANNOTATION, save)
