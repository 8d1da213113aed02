"""Reading the hub save back (alpha -> beta): ``restoreSharedHubOnlyFields`` and this module's earlier save."""

from __future__ import annotations

from typing import Any

from ._component_to_hub import build_pod_template
from ._fields import (
    FRONTEND_SIDECAR,
    MAIN,
    containers_of,
    find_ctr,
    find_mount,
    main_of,
    only_name,
    resources_need_preservation,
)
from ._fill import fill
from ._json import dc, deep_empty, drop_nulls

_NO_CACHE_MOUNT = "compilationCacheMountAbsent"
_NO_MAIN = "mainContainerAbsent"


def comp_restore(comp: dict, saved: dict) -> None:
    """Restore from this module's earlier hub save (a remainder plus the two markers above)."""
    fill(comp, {k: v for k, v in saved.items() if k not in ("name", _NO_CACHE_MOUNT, _NO_MAIN)})
    main = main_of(comp)
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
    main = main_of(comp)
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


def _clean_hub_ctr(c: Any) -> Any:
    """A decoded saved container: Go's ``null`` and the value-struct ``resources: {}`` are absent."""
    if not isinstance(c, dict):
        return c
    c = drop_nulls(c)
    if c.get("resources") == {}:
        c.pop("resources")
    return c


def hub_restore(comp: dict, saved: dict, svc: dict) -> None:
    """``restoreSharedHubOnlyFields`` on a freshly converted component (``svc`` = the live v1alpha1)."""
    spt = saved.get("podTemplate")
    if isinstance(spt, dict):
        smeta = {k: v for k, v in (spt.get("metadata") or {}).items() if v is not None}
        sctrs = [_clean_hub_ctr(c) for c in containers_of(spt)]
        if comp.get("podTemplate") is None:
            # podTemplateOrigin: upstream builds the template even without v1alpha1 pod content
            built = build_pod_template(svc, force=True)
            if built is not None and svc.get("frontendSidecar") is not None:
                comp["frontendSidecar"] = FRONTEND_SIDECAR
            comp["podTemplate"] = built
        out = dc(comp.get("podTemplate") or {})
        spec = out.setdefault("spec", {})
        ctrs = [c for c in spec.get("containers") or [] if isinstance(c, dict)]
        cc = comp.get("compilationCache")
        smain = find_ctr(sctrs, MAIN)
        eps_main = (svc.get("extraPodSpec") or {}).get("mainContainer") or {}
        eps_mounts = [m for m in eps_main.get("volumeMounts") or [] if isinstance(m, dict)]

        def is_cache(m: dict) -> bool:
            return isinstance(cc, dict) and m.get("name") == cc.get("pvcName") and m.get("mountPath") == cc.get("mountPath")

        # dropGeneratedCompilationCacheMount
        if isinstance(cc, dict) and not any(is_cache(m) for m in (smain or {}).get("volumeMounts") or []) \
                and not any(is_cache(m) for m in eps_mounts):
            main = find_ctr(ctrs, MAIN)
            if main is not None and main.get("volumeMounts"):
                vms = [m for m in main["volumeMounts"] if not is_cache(m)]
                if vms:
                    main["volumeMounts"] = vms
                else:
                    main.pop("volumeMounts")
        # dropGeneratedMainContainer
        if smain is None and not resources_need_preservation(svc.get("resources")):
            main = find_ctr(ctrs, MAIN)
            if main is not None:
                rest = {k: v for k, v in main.items() if k != "name"}
                if "volumeMounts" in rest:
                    rest["volumeMounts"] = [m for m in rest["volumeMounts"] if not is_cache(m)]
                if deep_empty(rest):
                    ctrs = [c for c in ctrs if c is not main]
        # restoreSharedPodTemplateMissingHubOnlyContainers
        for c in sctrs:
            if only_name(c) or find_ctr(ctrs, c.get("name")) is not None:
                continue
            if c.get("name") == FRONTEND_SIDECAR and svc.get("frontendSidecar") is None:
                continue
            ctrs.append(dc(c))
        # restoreSharedPodTemplateExistingHubOnlyContainers (the generated frontend sidecar)
        fs = svc.get("frontendSidecar")
        sfs = find_ctr(sctrs, FRONTEND_SIDECAR)
        live_fs = find_ctr(ctrs, FRONTEND_SIDECAR)
        if isinstance(fs, dict) and sfs is not None and not only_name(sfs) and live_fs is not None:
            extra = {k: dc(v) for k, v in sfs.items() if k not in ("name", "image", "args", "env")}
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
                if not deep_empty(v):
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
        meta = dc(smeta)
        for k in ("labels", "annotations"):
            if live_meta.get(k):
                meta[k] = live_meta[k]
        if meta:
            out["metadata"] = meta
        else:
            out.pop("metadata", None)
        # restoreSharedHubOnlyFlatVolumeMountFields
        flat = [m for m in svc.get("volumeMounts") or [] if isinstance(m, dict)]
        main = find_ctr(ctrs, MAIN)
        if flat and smain is not None and smain.get("volumeMounts") and main is not None:
            for j, m in enumerate(main.get("volumeMounts") or []):
                if not any(f.get("name") == m.get("name") and f.get("mountPoint") == m.get("mountPath") for f in flat):
                    continue
                if any(e.get("name") == m.get("name") and e.get("mountPath") == m.get("mountPath") for e in eps_mounts):
                    continue
                pm = find_mount(smain["volumeMounts"], m)
                if pm is not None:
                    main["volumeMounts"][j] = {**drop_nulls(pm), "name": m.get("name"), "mountPath": m.get("mountPath")}
        if not out.get("spec"):
            out.pop("spec", None)
        if deep_empty(spt) and deep_empty(out):
            comp["podTemplate"] = out
        elif deep_empty(out):
            comp.pop("podTemplate", None)
        else:
            comp["podTemplate"] = out
    elif comp.get("podTemplate") is None:
        comp.pop("podTemplate", None)
    # restoreSharedHubOnlyFrontendSidecar
    sfs_name = saved.get("frontendSidecar")
    if comp.get("frontendSidecar") is None and sfs_name is not None:
        in_saved = isinstance(spt, dict) and find_ctr(containers_of(spt), sfs_name) is not None
        if not in_saved or find_ctr(containers_of(comp.get("podTemplate")), sfs_name) is not None:
            comp["frontendSidecar"] = sfs_name
    sexp = drop_nulls(saved.get("experimental"))
    if isinstance(sexp, dict):
        exp = comp.get("experimental")
        if exp is None and all(sexp.get(k) is None for k in ("gpuMemoryService", "failover", "checkpoint")):
            comp["experimental"] = dc(sexp)
        elif isinstance(exp, dict) and exp.get("grove") is None and sexp.get("grove") is not None:
            exp["grove"] = dc(sexp["grove"])
