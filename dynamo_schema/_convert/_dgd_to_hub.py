"""DGD v1alpha1 -> v1beta1."""

from __future__ import annotations

from .._core._consts import V1BETA1 as BETA
from ._annotations import (
    DGD_SCRUB,
    DGD_SPEC_ANNOTATION,
    DGD_STATUS_ANNOTATION,
    dgd_spoke_annotation,
    is_hub_payload,
    read_hub_payload,
    write_raw,
)
from ._component_to_hub import svc_to_comp
from ._envelope import finish_conversion, open_conversion, top_spec
from ._hub_restore import comp_restore, hub_restore
from ._json import JSONObject, dc
from ._spoke_save import upstream_spoke_save
from ._status import status_save, status_to_beta

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def dgd_to_beta(obj: JSONObject) -> JSONObject:
    _, upstream_hub = read_hub_payload(obj.get("metadata") or {}, DGD_SPEC_ANNOTATION)
    out, meta, payload = open_conversion(obj, BETA, DGD_SPEC_ANNOTATION, DGD_SCRUB)
    restored = payload if payload is not None and is_hub_payload(payload) else None
    src = obj.get("spec") or {}
    spec = top_spec(src, ("services", "pvcs"), ("envs", "env"), ("topologyProfile", "clusterTopologyName"))
    save: JSONObject = {}
    if src.get("pvcs"):
        save["pvcs"] = dc(src["pvcs"])
    services = src.get("services")
    if isinstance(services, dict) and services:
        saved_comps = [c for c in (restored or {}).get("components") or [] if isinstance(c, dict)]
        restored_comps = {c.get("name"): c for c in saved_comps}
        comps = []
        saved_services: JSONObject = {}
        for name in _component_order(services, saved_comps):
            svc = services[name]
            if svc is None:
                saved_services[name] = None
                continue
            comps.append(_component(name, svc, restored_comps.get(name), upstream_hub))
            sv = _spoke_save(name, svc, restored is None)
            if sv:
                saved_services[name] = sv
        spec["components"] = comps
        if saved_services:
            save["services"] = saved_services
    if save:
        meta["annotations"] = {**(meta.get("annotations") or {}), DGD_SPEC_ANNOTATION: dgd_spoke_annotation(save)}
    write_raw(meta, DGD_STATUS_ANNOTATION, status_save(obj.get("status")))
    return finish_conversion(obj, out, meta, spec, status_to_beta, DGD_SPEC_ANNOTATION, None)


def _component_order(services: JSONObject, saved_comps: list[JSONObject]) -> list[str]:
    """Sorted by name, unless the hub save holds an unsorted order (its names first, then the rest)."""
    names = sorted(services)
    order = [str(c.get("name")) for c in saved_comps]
    if order and order != sorted(order):
        names = [n for n in order if n in services] + [n for n in sorted(services) if n not in order]
    return names


def _component(name: str, svc: JSONObject, rc: Any, upstream_hub: bool) -> JSONObject:
    """One service as a v1beta1 component (``name`` first), its hub save (``rc``, if any) restored."""
    comp = svc_to_comp(name, svc)
    if isinstance(rc, dict) and upstream_hub:
        hub_restore(comp, rc, svc)
    elif rc:
        comp_restore(comp, rc)
    return {"name": name, **{k: v for k, v in comp.items() if k != "name"}}


def _spoke_save(name: str, svc: JSONObject, include_origin_splits: bool) -> JSONObject:
    """The service's spoke save, with ``serviceName`` when it differs from the map key."""
    sv = upstream_spoke_save(svc, include_origin_splits)
    if svc.get("serviceName") and svc.get("serviceName") != name:
        sv["serviceName"] = svc["serviceName"]
    else:
        sv.pop("serviceName", None)
    return sv
