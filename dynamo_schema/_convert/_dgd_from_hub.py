"""DGD v1beta1 -> v1alpha1."""

from __future__ import annotations

from .._core._consts import V1ALPHA1 as ALPHA
from ._annotations import (
    DGD_SCRUB,
    DGD_SPEC_ANNOTATION,
    DGD_STATUS_ANNOTATION,
    hub_annotation,
    is_hub_payload,
    read_payload,
)
from ._component_from_hub import comp_to_svc
from ._envelope import ConversionError, finish_conversion, open_conversion, top_spec
from ._hub_save import hub_save
from ._json import JSONArray, JSONObject, drop_nulls
from ._spoke_restore import spoke_to_internal, svc_restore
from ._status import status_restore, status_to_alpha

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def dgd_to_alpha(obj: JSONObject, hub_saves: bool = True) -> JSONObject:
    """The v1alpha1 DGD; without ``hub_saves``, its spec and status only are the conversion's (no
    ``nvidia.com/dgd-spec`` hub save is computed nor written: what the compatibility view reads)."""
    src_anns = (obj.get("metadata") or {}).get("annotations") or {}
    # upstream SaveHubOrigin = !hasDGDSpokeAnnotations
    save_hub_origin = DGD_SPEC_ANNOTATION not in src_anns and DGD_STATUS_ANNOTATION not in src_anns
    out, meta, payload = open_conversion(obj, ALPHA, DGD_SPEC_ANNOTATION, DGD_SCRUB)
    restored = payload if payload is not None and not is_hub_payload(payload) else None
    src = obj.get("spec") or {}
    spec = top_spec(src, ("components",), ("env", "envs"), ("clusterTopologyName", "topologyProfile"))
    save: JSONObject = {}
    comps = src.get("components")
    saved_services = (restored or {}).get("services") or {}
    if isinstance(comps, list) and comps:
        spec["services"], saved_comps = _services(comps, saved_services, save_hub_origin, hub_saves)
        if saved_comps:
            save["components"] = saved_comps
    if isinstance(restored, dict):
        _restore_graph_fields(spec, restored, saved_services)
    saved_status = read_payload(obj.get("metadata") or {}, DGD_STATUS_ANNOTATION)

    def status(st: Any) -> Any:
        return status_restore(status_to_alpha(st), saved_status)

    if save:
        meta["annotations"] = {
            **(meta.get("annotations") or {}),
            DGD_SPEC_ANNOTATION: hub_annotation(save, "HubDGDSpec"),
        }
    return finish_conversion(obj, out, meta, spec, status, DGD_SPEC_ANNOTATION, None)


def _services(comps: JSONArray, saved_services: Any, save_hub_origin: bool,
              hub_saves: bool = True) -> tuple[JSONObject, JSONArray]:
    """``spec.components`` -> ``spec.services`` and the components' hub saves (``marshalDGDHubSpec``:
    every entry when the hub order is unsorted, else the non-zero and hub-origin ones)."""
    names = [c.get("name") for c in comps if isinstance(c, dict)]
    preserve_order = names != sorted(n or "" for n in names)
    services: JSONObject = {}
    saved_comps = []
    for comp in comps:
        name = comp.get("name")
        if name in services:
            raise ConversionError(f'component "{name}": duplicate component name "{name}" in spec.components')
        sv = saved_services.get(name) if isinstance(saved_services, dict) else None
        svc = _service(comp, sv)
        services[name] = svc
        if not hub_saves:
            continue
        cs = hub_save(comp, svc)
        # upstream SaveHubOrigin: a hub-first component with a podTemplate is marked, so the
        # way back knows not to record v1alpha1 field origins
        hub_origin = save_hub_origin and comp.get("podTemplate") is not None
        if cs or preserve_order or hub_origin:
            saved_comps.append({"name": name if name is not None else "", **cs})
    return services, saved_comps


def _service(comp: JSONObject, sv: Any) -> JSONObject:
    """One component as a v1alpha1 service, its spoke save (``sv``, if any) restored."""
    if isinstance(sv, dict):
        sv = spoke_to_internal(sv)
    svc = comp_to_svc(comp, (sv or {}).get("frontendSidecar") if isinstance(sv, dict) else None)
    if isinstance(sv, dict):
        svc_restore(svc, sv, comp)
        if sv.get("serviceName") and not svc.get("serviceName"):
            svc["serviceName"] = sv["serviceName"]
    return svc


def _restore_graph_fields(spec: JSONObject, restored: JSONObject, saved_services: Any) -> None:
    """The graph-level v1alpha1 fields of the spoke save: ``pvcs`` and the nil services."""
    if not spec.get("pvcs") and restored.get("pvcs"):
        # Go writes the value-typed PVC.size as "0" when unset
        spec["pvcs"] = [
            {k: v for k, v in p.items() if not (k == "size" and v == "0")} if isinstance(p, dict) else p
            for p in drop_nulls(restored["pvcs"])
        ]
    for name, sv in saved_services.items():
        if sv is None and name not in (spec.get("services") or {}):
            spec.setdefault("services", {})[name] = None
