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


# The pointer fields of corev1.PodSpec and corev1.Container (k8s.io/api core/v1 types.go): one that is set
# is not zero for ``apiequality.Semantic.DeepEqual`` whatever it points to (0, false, "", {}); a value field
# is zero at "", 0, false, and an empty or nil slice or map (Semantic's rule).
_POD_SPEC_POINTERS = frozenset({
    "terminationGracePeriodSeconds", "activeDeadlineSeconds", "automountServiceAccountToken",
    "shareProcessNamespace", "securityContext", "affinity", "priority", "dnsConfig", "runtimeClassName",
    "enableServiceLinks", "preemptionPolicy", "setHostnameAsFQDN", "os", "hostUsers", "resources",
    "hostnameOverride", "schedulingGroup",
})
_CONTAINER_POINTERS = frozenset({
    "restartPolicy", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "securityContext",
})


def _resources_zero(v: Any) -> bool:
    """``resourceRequirementsEqual(r, corev1.ResourceRequirements{})``: no limit, request or claim."""
    if v is None:
        return True
    if not isinstance(v, dict):
        return False
    return all(x is None or x == {} or x == [] for x in v.values())


def _field_zero(key: str, v: Any, pointers: frozenset[str], container: bool) -> bool:
    if v is None:
        return True
    if key in pointers:
        return False
    if container and key == "resources":  # a value struct of the container
        return _resources_zero(v)
    return empty(v)


def _eps_pod_spec_zero(eps: JSONObject) -> bool:
    """``podSpecIsZero`` of the inline PodSpec."""
    return all(_field_zero(k, v, _POD_SPEC_POINTERS, False) for k, v in eps.items() if k != "mainContainer")


def _container_rest_zero(main_rest: JSONObject) -> bool:
    """``containerIsEmpty`` of the main container (its name left out by the caller)."""
    return all(_field_zero(k, v, _CONTAINER_POINTERS, True) for k, v in main_rest.items())


def _eps_needs_preservation(eps: Any) -> bool:
    """``extraPodSpecNeedsPreservation``: zero, or only the main container's name."""
    if not isinstance(eps, dict):
        return False
    main = eps.get("mainContainer")
    main_rest = {k: v for k, v in (main or {}).items() if k != "name"} if isinstance(main, dict) else {}
    if _eps_pod_spec_zero(eps) and _container_rest_zero(main_rest):
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
    return (bool(main.get("name")) or bool(main.get("env")) or not _resources_zero(main.get("resources"))
            or bool(main.get("volumeMounts")) or main.get("livenessProbe") is not None
            or main.get("readinessProbe") is not None)


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
        elif dedicated == "envFromSecret":
            hit = svc.get(dedicated) is not None or bool(main.get(in_main))
        elif dedicated == "resources":
            hit = svc.get(dedicated) is not None or not _resources_zero(main.get(in_main))
        else:  # the probes: pointers, set or not
            hit = svc.get(dedicated) is not None or main.get(in_main) is not None
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
