"""DGD and DCD status conversion and the alpha-only status saves (``nvidia.com/dgd-status``, ``dcd-status``)."""

from __future__ import annotations

from ._json import JSONArray, JSONObject, dc

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, Callable


def _status_convert(status: Any, replicas: tuple[str, str], updated: tuple[str, str], entry: Callable[[JSONObject], JSONObject]) -> Any:
    """The DGD status with the per-component map (``replicas``) and ``rollingUpdate`` list renamed."""
    if not isinstance(status, dict):
        return dc(status)
    out = {}
    for k, v in status.items():
        if k == replicas[0] and isinstance(v, dict):
            out[replicas[1]] = {name: entry(dc(st) if isinstance(st, dict) else {}) for name, st in v.items()}
        elif k == "rollingUpdate" and isinstance(v, dict):
            out[k] = {(updated[1] if kk == updated[0] else kk): dc(vv) for kk, vv in v.items()}
        else:
            out[k] = dc(v)
    return out


def _replica_status_to_beta(st: JSONObject) -> JSONObject:
    cn = st.pop("componentName", None)
    if not st.get("componentNames") and cn:
        st["componentNames"] = [cn]
    return st


def _replica_status_to_alpha(st: JSONObject) -> JSONObject:
    names = st.get("componentNames") or []
    if names:
        st["componentName"] = names[-1]
    return st


def _names_to_hub(st: JSONObject) -> JSONArray:
    """Upstream ``componentNamesToHub``."""
    names = list(st.get("componentNames") or [])
    return names or ([st["componentName"]] if st.get("componentName") else [])


def _component_name_needs_preservation(st: Any) -> bool:
    """Upstream ``serviceStatusComponentNameNeedsPreservation``."""
    if not isinstance(st, dict):
        return False
    names = st.get("componentNames") or []
    return names[-1] != st.get("componentName", "") if names else bool(st.get("componentName"))


def _replica_save(st: JSONObject) -> JSONObject:
    return {k: dc(st[k]) for k in ("componentName", "componentNames") if k in st}


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


def status_save(status: Any) -> JSONObject:
    """Upstream ``saveDGDAlphaOnlyStatus``: componentName/componentNames the hub list cannot carry."""
    services = status.get("services") if isinstance(status, dict) else None
    saved = {name: _replica_save(st) for name, st in (services or {}).items() if _component_name_needs_preservation(st)}
    return {"services": saved} if saved else {}


def status_restore(status: Any, saved: JSONObject | None) -> Any:
    """Upstream ``restoreDGDAlphaOnlyStatusFromSaved``."""
    services = status.get("services") if isinstance(status, dict) else None
    for name, st in (services or {}).items():
        _restore_replica(st, ((saved or {}).get("services") or {}).get(name))
    return status


def dcd_status_to_beta(status: Any) -> Any:
    """Upstream ``ConvertFromDynamoComponentDeploymentStatus``: ``service`` -> ``component``, no podSelector."""
    if not isinstance(status, dict):
        return dc(status)
    out = {k: dc(v) for k, v in status.items() if k not in ("service", "podSelector")}
    if isinstance(status.get("service"), dict):
        out["component"] = _replica_status_to_beta(dc(status["service"]))
    return out


def dcd_status_to_alpha(status: Any, saved: JSONObject | None) -> Any:
    """Upstream ``ConvertToDynamoComponentDeploymentStatus`` + ``restoreDCDAlphaOnlyStatusFromSaved``."""
    if not isinstance(status, dict):
        return dc(status)
    out = {k: dc(v) for k, v in status.items() if k != "component"}
    if isinstance(status.get("component"), dict):
        out["service"] = _replica_status_to_alpha(dc(status["component"]))
        _restore_replica(out["service"], (saved or {}).get("service"))
    selector = (saved or {}).get("podSelector")
    if not out.get("podSelector") and selector:
        out["podSelector"] = dc(selector)
    return out


def dcd_status_save(status: Any) -> JSONObject:
    """Upstream ``saveDCDAlphaOnlyStatus``."""
    if not isinstance(status, dict):
        return {}
    save: JSONObject = {}
    if status.get("podSelector"):
        save["podSelector"] = dc(status["podSelector"])
    if _component_name_needs_preservation(status.get("service")):
        save["service"] = _replica_save(status["service"])
    return save


def status_to_beta(status: Any) -> Any:
    return _status_convert(
        status, ("services", "components"), ("updatedServices", "updatedComponents"), _replica_status_to_beta
    )


def status_to_alpha(status: Any) -> Any:
    return _status_convert(
        status, ("components", "services"), ("updatedComponents", "updatedServices"), _replica_status_to_alpha
    )
