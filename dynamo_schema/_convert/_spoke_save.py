"""Upstream's typed spoke save (``saveSharedAlphaOnlySpec``, alpha -> beta): what v1beta1 cannot hold."""

from __future__ import annotations

from ._fields import FRONTEND_SIDECAR, cache_mount_count, resources_need_preservation, shm_needs_preservation
from ._json import JSONObject, dc, empty

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_PROMOTED_SUBTYPES = ("prefill", "decode")


def _ensure_main(save: JSONObject) -> JSONObject:
    """``ensureExtraPodSpecMainContainer``."""
    eps = save.get("extraPodSpec")
    if not isinstance(eps, dict):
        eps = save["extraPodSpec"] = {}
    main = eps.get("mainContainer")
    if not isinstance(main, dict):
        main = eps["mainContainer"] = {}
    return main


def _eps_pod_spec_zero(eps: JSONObject) -> bool:
    return not any(not empty(v) for k, v in eps.items() if k != "mainContainer")


def _eps_needs_preservation(eps: Any) -> bool:
    """``extraPodSpecNeedsPreservation``: zero, or only the main container's name."""
    if not isinstance(eps, dict):
        return False
    main = eps.get("mainContainer")
    main_rest = {k: v for k, v in (main or {}).items() if k != "name"} if isinstance(main, dict) else {}
    if _eps_pod_spec_zero(eps) and all(empty(v) for v in main_rest.values()):
        return True
    return False


def _frontend_sidecar_conflict(svc: JSONObject) -> bool:
    """``alphaFrontendSidecarConflictNeedsPreservation``."""
    eps = svc.get("extraPodSpec")
    return svc.get("frontendSidecar") is not None and isinstance(eps, dict) and any(
        isinstance(c, dict) and c.get("name") == FRONTEND_SIDECAR for c in eps.get("containers") or []
    )


def _origins_need_save(svc: JSONObject) -> bool:
    """``sharedMainContainerFieldOriginsNeedSave``."""
    main = (svc.get("extraPodSpec") or {}).get("mainContainer")
    if not isinstance(main, dict):
        return False
    return bool(main.get("name")) or any(
        not empty(main.get(f)) for f in ("env", "resources", "volumeMounts", "livenessProbe", "readinessProbe")
    )


def upstream_spoke_save(svc: JSONObject, include_origin_splits: bool) -> JSONObject:
    """Upstream ``saveSharedAlphaOnlySpec`` on a v1alpha1 shared spec (plain dict, unordered)."""
    save: JSONObject = {}
    sub = svc.get("subComponentType")
    if sub and not (svc.get("componentType") == "worker" and sub in _PROMOTED_SUBTYPES):
        save["subComponentType"] = sub
    for key in ("dynamoNamespace", "autoscaling", "ingress"):
        if svc.get(key) is not None:
            save[key] = dc(svc[key])
    for key in ("annotations", "labels"):
        if svc.get(key):
            save[key] = dc(svc[key])
    if svc.get("envFromSecret") is not None:
        save["envFromSecret"] = svc["envFromSecret"]
    _save_whole_structs(svc, save)
    for key in ("scalingAdapter", "gpuMemoryService", "failover"):
        v = svc.get(key)
        if isinstance(v, dict) and not v.get("enabled"):
            save[key] = dc(v)
        if key == "scalingAdapter" and svc.get("frontendSidecar") is not None:
            save["frontendSidecar"] = dc(svc["frontendSidecar"])
    if include_origin_splits or save or _origins_need_save(svc):
        main = (svc.get("extraPodSpec") or {}).get("mainContainer")
        if isinstance(main, dict):
            _save_origin_splits(svc, main, save)
    return save


def _save_whole_structs(svc: JSONObject, save: JSONObject) -> None:
    """The structs v1beta1 cannot say back whole (``resourcesNeedPreservation``, more than one cache
    mount, ``sharedMemoryNeedsPreservation``, empty pod metadata, ``extraPodSpecNeedsPreservation``)."""
    if resources_need_preservation(svc.get("resources")):
        save["resources"] = dc(svc["resources"])
    if svc.get("volumeMounts") and cache_mount_count(svc.get("volumeMounts")) > 1:
        save["volumeMounts"] = dc(svc["volumeMounts"])
    if shm_needs_preservation(svc.get("sharedMemory")):
        save["sharedMemory"] = dc(svc["sharedMemory"])
    epm = svc.get("extraPodMetadata")
    if isinstance(epm, dict) and not epm.get("annotations") and not epm.get("labels"):
        save["extraPodMetadata"] = dc(epm)
    if _eps_needs_preservation(svc.get("extraPodSpec")) or _frontend_sidecar_conflict(svc):
        save["extraPodSpec"] = dc(svc["extraPodSpec"])


# dedicated v1alpha1 field -> its ``extraPodSpec.mainContainer`` spelling
_ORIGIN_PAIRS = (
    ("envs", "env"),
    ("envFromSecret", "envFrom"),
    ("resources", "resources"),
    ("volumeMounts", "volumeMounts"),
    ("livenessProbe", "livenessProbe"),
    ("readinessProbe", "readinessProbe"),
)


def _save_origin_splits(svc: JSONObject, main: JSONObject, save: JSONObject) -> None:
    """``saveSharedMainContainerOrigins``: each field set in the dedicated slot or in the main
    container, saved as both spellings hold it."""
    if main.get("name"):
        _ensure_main(save)["name"] = main["name"]
    for dedicated, in_main in _ORIGIN_PAIRS:
        if dedicated in ("envs", "volumeMounts"):
            hit = bool(svc.get(dedicated)) or bool(main.get(in_main))
        else:
            hit = svc.get(dedicated) is not None or not empty(main.get(in_main))
        if not hit:
            continue
        if svc.get(dedicated) is not None:
            save[dedicated] = dc(svc[dedicated])
        else:
            save.pop(dedicated, None)
        if main.get(in_main) is not None:
            _ensure_main(save)[in_main] = dc(main[in_main])
        else:
            _ensure_main(save).pop(in_main, None)
