"""The shared component spec v1alpha1 -> v1beta1 (no preservation): ``services`` entry -> ``components`` entry."""

from __future__ import annotations

from .._k8s._quantity import quantity_is_zero
from ._fields import (
    FRONTEND_SIDECAR,
    GMS_FEATURES,
    GMS_TO_BETA,
    MAIN,
    copy_direct,
    resources_to_native,
    with_mode,
)
from ._json import JSONArray, JSONObject, dc, empty, no_none, set_nonempty

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def _merge_envs(common: JSONArray, specific: JSONArray) -> JSONArray:
    out: JSONArray = []
    seen: dict[Any, int] = {}
    for e in list(common or []) + list(specific or []):
        name = e.get("name") if isinstance(e, dict) else None
        if name in seen:
            out[seen[name]] = dc(e)
            continue
        seen[name] = len(out)
        out.append(dc(e))
    return out


def merge_main(base: JSONObject, main: JSONObject) -> JSONObject:
    """mergo.Merge(base, main, WithOverride) + the additive env / volumeMounts rules."""
    out = dict(base)
    for k, v in main.items():
        if k in ("env", "volumeMounts", "name"):
            continue
        if empty(v) and v is not False:
            continue
        if v is False:
            continue
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            merged = dc(out[k])
            _deep_override(merged, v)
            out[k] = merged
        else:
            out[k] = dc(v)
    env = _merge_envs(base.get("env") or [], main.get("env") or [])
    if env:
        out["env"] = env
    else:
        out.pop("env", None)
    vms = list(dc(main.get("volumeMounts") or [])) + list(base.get("volumeMounts") or [])
    if vms:
        out["volumeMounts"] = vms
    out["name"] = MAIN
    return out


def _deep_override(dst: JSONObject, src: JSONObject) -> None:
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            _deep_override(dst[k], v)
        elif not empty(v):
            dst[k] = dc(v)


#: the main-container fields a v1alpha1 service sets in dedicated slots, in the order the container holds them
DEDICATED_FIELDS = ("resources", "env", "envFrom", "livenessProbe", "readinessProbe", "volumeMounts")


def dedicated_field(svc: JSONObject, field: str) -> Any:
    """The main-container ``field`` (one of :data:`DEDICATED_FIELDS`) the service's dedicated slot makes, or
    None; read only: a value it shares with ``svc`` is not copied."""
    if field == "resources":
        res = resources_to_native(svc["resources"]) if svc.get("resources") is not None else None
        return res or None
    if field == "env":
        return svc["envs"] if svc.get("envs") else None
    if field == "envFrom":
        return [{"secretRef": {"name": svc["envFromSecret"]}}] if svc.get("envFromSecret") else None
    if field == "volumeMounts":
        vms = [no_none(name=vm.get("name"), mountPath=vm.get("mountPoint")) for vm in svc.get("volumeMounts") or []]
        return vms or None
    return svc[field] if svc.get(field) is not None else None  # the probes


def dedicated_main(svc: JSONObject) -> JSONObject:
    c: JSONObject = {"name": MAIN}
    for field in DEDICATED_FIELDS:
        v = dedicated_field(svc, field)
        if v is not None:
            c[field] = dc(v) if field in ("env", "livenessProbe", "readinessProbe") else v  # the others are new
    return c


def has_pod_content(svc: JSONObject) -> bool:
    """Upstream ``hasPodTemplateContent(svc, false)``: the service's fields that make a pod template."""
    eps = svc.get("extraPodSpec")
    return bool(
        svc.get("resources") is not None
        or svc.get("envs")
        or svc.get("envFromSecret") is not None
        or any(not vm.get("useAsCompilationCache") for vm in svc.get("volumeMounts") or [])
        or svc.get("livenessProbe") is not None
        or svc.get("readinessProbe") is not None
        or (isinstance(eps, dict) and any(not empty(v) for v in eps.values()))
        or svc.get("extraPodMetadata") is not None
        or svc.get("frontendSidecar") is not None
    )


def build_pod_template(svc: JSONObject, force: bool = False) -> JSONObject | None:
    if not force and not has_pod_content(svc):
        return None
    pt: JSONObject = {}
    epm = svc.get("extraPodMetadata")
    if isinstance(epm, dict):
        meta: JSONObject = {}
        set_nonempty(meta, "annotations", dc(epm.get("annotations")))
        set_nonempty(meta, "labels", dc(epm.get("labels")))
        if meta:
            pt["metadata"] = meta
    eps = svc.get("extraPodSpec") or {}
    # upstream ExtraPodSpec inlines corev1.PodSpec next to mainContainer
    spec: JSONObject = {k: dc(v) for k, v in eps.items() if k != "mainContainer"}
    main = dedicated_main(svc)
    if isinstance(eps.get("mainContainer"), dict):
        main = merge_main(main, eps["mainContainer"])
    main = {"name": MAIN, **{k: v for k, v in main.items() if k != "name"}}
    containers = [main] + [c for c in spec.get("containers") or [] if c.get("name") != MAIN]
    spec["containers"] = containers
    fs = svc.get("frontendSidecar")
    if isinstance(fs, dict) and not any(c.get("name") == FRONTEND_SIDECAR for c in containers):
        ctr: JSONObject = {"name": FRONTEND_SIDECAR}
        set_nonempty(ctr, "image", fs.get("image"))
        set_nonempty(ctr, "args", dc(fs.get("args")))
        set_nonempty(ctr, "env", dc(fs.get("envs")))
        if fs.get("envFromSecret"):
            ctr["envFrom"] = [{"secretRef": {"name": fs["envFromSecret"]}}]
        containers.append(ctr)
    pt["spec"] = spec
    return pt


def svc_to_comp(name: str | None, svc: JSONObject) -> JSONObject:
    """v1alpha1 shared spec -> v1beta1 shared spec (no preservation)."""
    c: JSONObject = {}
    cname = name if name is not None else svc.get("serviceName")
    set_nonempty(c, "name", cname)
    ctype = svc.get("componentType")
    sub = svc.get("subComponentType")
    if ctype == "worker" and sub in ("prefill", "decode"):
        ctype = sub
    set_nonempty(c, "type", ctype)
    copy_direct(svc, c)
    sm = svc.get("sharedMemory")
    if isinstance(sm, dict):
        if sm.get("disabled"):
            c["sharedMemorySize"] = "0"
        elif not quantity_is_zero(sm.get("size")):
            c["sharedMemorySize"] = dc(sm["size"])
    for vm in svc.get("volumeMounts") or []:
        if vm.get("useAsCompilationCache"):
            cc: JSONObject = {}
            set_nonempty(cc, "pvcName", vm.get("name"))
            set_nonempty(cc, "mountPath", vm.get("mountPoint"))
            c["compilationCache"] = cc
            break
    sa = svc.get("scalingAdapter")
    if isinstance(sa, dict) and sa.get("enabled"):
        c["scalingAdapter"] = {}
    exp = _experimental(svc)
    if exp:
        c["experimental"] = exp
    pt = build_pod_template(svc)
    if pt is not None:
        if svc.get("frontendSidecar") is not None:
            c["frontendSidecar"] = FRONTEND_SIDECAR
        c["podTemplate"] = pt
    return c


def _experimental(svc: JSONObject) -> JSONObject:
    """``experimental``: the enabled GPU memory service / failover specs and the checkpoint."""
    exp: JSONObject = {}
    for key in GMS_FEATURES:
        v = svc.get(key)
        if isinstance(v, dict) and v.get("enabled"):
            exp[key] = with_mode({k: x for k, x in v.items() if k != "enabled"}, GMS_TO_BETA)
    if isinstance(svc.get("checkpoint"), dict):
        exp["checkpoint"] = dc(svc["checkpoint"])
    return exp
