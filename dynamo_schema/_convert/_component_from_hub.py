"""The shared component spec v1beta1 -> v1alpha1 (no preservation): ``components`` entry -> ``services`` entry."""

from __future__ import annotations

from .._k8s._quantity import quantity_is_zero
from ._fields import (
    FRONTEND_SIDECAR,
    GMS_FEATURES,
    GMS_TO_ALPHA,
    MAIN,
    cache_mount,
    copy_direct,
    resources_from_native,
    with_mode,
)
from ._json import JSONArray, JSONObject, dc, empty, no_none, set_nonempty


def comp_to_svc(comp: JSONObject, restored_fs: JSONObject | None = None) -> JSONObject:
    """v1beta1 shared spec -> v1alpha1 shared spec (no preservation)."""
    s: JSONObject = {}
    ctype = comp.get("type")
    if ctype in ("prefill", "decode"):
        s["componentType"] = "worker"
        s["subComponentType"] = ctype
    else:
        set_nonempty(s, "componentType", ctype)
    copy_direct(comp, s)
    if "sharedMemorySize" in comp and comp["sharedMemorySize"] is not None:
        size = comp["sharedMemorySize"]
        if quantity_is_zero(size):
            s["sharedMemory"] = {"disabled": True, "size": size}
        else:
            s["sharedMemory"] = {"size": size}
    exp = comp.get("experimental") or {}
    for key in GMS_FEATURES:
        if isinstance(exp.get(key), dict):
            s[key] = with_mode({"enabled": True, **exp[key]}, GMS_TO_ALPHA)
    if isinstance(exp.get("checkpoint"), dict):
        s["checkpoint"] = dc(exp["checkpoint"])
    if "scalingAdapter" in comp and comp["scalingAdapter"] is not None:
        s["scalingAdapter"] = {"enabled": True}
    _decompose_pod_template(comp, s, restored_fs)
    cc = comp.get("compilationCache")
    if isinstance(cc, dict):
        # convertVolumeMountsFromHub writes the flagged cache mount first; the main container's mounts
        # follow unless one has the same name and path (restoreFlatVolumeMountsFromMain,
        # appendMissingVolumeMounts)
        cache = cache_mount(cc)
        s["volumeMounts"] = [cache] + [vm for vm in s.get("volumeMounts") or []
                                       if not (vm.get("name") == cache.get("name")
                                               and vm.get("mountPoint") == cache.get("mountPoint"))]
    return s


def _decompose_pod_template(comp: JSONObject, s: JSONObject, restored_fs: JSONObject | None) -> None:
    """``podTemplate`` -> ``extraPodMetadata``, the flat main-container fields, ``extraPodSpec``
    (the inline PodSpec and ``mainContainer``) and the ``frontendSidecar`` spec."""
    pt = comp.get("podTemplate")
    fs_name = comp.get("frontendSidecar")
    if not isinstance(pt, dict):
        if fs_name == FRONTEND_SIDECAR and restored_fs is not None:
            s["frontendSidecar"] = dc(restored_fs)
        return
    meta = pt.get("metadata") or {}
    if meta.get("annotations") or meta.get("labels"):
        epm: JSONObject = {}
        set_nonempty(epm, "annotations", dc(meta.get("annotations")))
        set_nonempty(epm, "labels", dc(meta.get("labels")))
        s["extraPodMetadata"] = epm
    spec = pt.get("spec") or {}
    main, other = _split_main(spec.get("containers") or [])
    if fs_name is not None and fs_name == FRONTEND_SIDECAR and restored_fs is not None:
        other = _frontend_sidecar(s, other, fs_name, restored_fs)
    if main is not None:
        main = _flatten_main(s, main)
    pod_spec = {k: dc(v) for k, v in spec.items() if k != "containers"}
    if other:
        pod_spec["containers"] = other
    if pod_spec or main:
        eps: JSONObject = dict(pod_spec)
        if main:
            eps["mainContainer"] = main
        s["extraPodSpec"] = eps


def _split_main(containers: JSONArray) -> tuple[JSONObject | None, JSONArray]:
    """Copies of the first ``main`` container and of the other containers."""
    main: JSONObject | None = None
    other: JSONArray = []
    for ctr in containers:
        if isinstance(ctr, dict) and ctr.get("name") == MAIN and main is None:
            main = dc(ctr)
            continue
        other.append(dc(ctr))
    return main, other


def _frontend_sidecar(s: JSONObject, other: JSONArray, fs_name: str, restored_fs: JSONObject) -> JSONArray:
    """The saved ``frontendSidecar`` spec with the live sidecar container's image, args, env and
    secret; returns the other containers without that sidecar."""
    found = next((c for c in other if c.get("name") == fs_name), None)
    if found is None:
        s["frontendSidecar"] = dc(restored_fs)
        return other
    fs = dc(restored_fs)
    for k in ("image", "args", "envs", "envFromSecret"):
        fs.pop(k, None)
    set_nonempty(fs, "image", found.get("image"))
    set_nonempty(fs, "args", dc(found.get("args")))
    set_nonempty(fs, "envs", dc(found.get("env")))
    ef = found.get("envFrom") or []
    if len(ef) == 1 and isinstance(ef[0], dict) and set(ef[0]) == {"secretRef"}:
        fs["envFromSecret"] = ef[0]["secretRef"].get("name")
    s["frontendSidecar"] = fs
    return [c for c in other if c.get("name") != fs_name]


def _flatten_main(s: JSONObject, main: JSONObject) -> JSONObject | None:
    """Move the main container's resources, volume mounts, env and probes to their dedicated
    v1alpha1 fields; the rest (non-empty) stays as ``extraPodSpec.mainContainer``."""
    res = resources_from_native(main.pop("resources", None))
    if res:
        s["resources"] = res
    vms = main.pop("volumeMounts", None) or []
    if vms:
        flat = list(s.get("volumeMounts") or [])
        for vm in vms:
            entry = no_none(name=vm.get("name"), mountPoint=vm.get("mountPath"))
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
    return {k: v for k, v in main.items() if not (empty(v) and v is not False)} or None
