"""DCD v1beta1 -> v1alpha1."""

from __future__ import annotations

from .._core._consts import V1ALPHA1 as ALPHA
from ._annotations import DCD_SCRUB, DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION, hub_annotation, read_payload
from ._component_from_hub import comp_to_svc
from ._envelope import finish_conversion, open_conversion
from ._fields import DCD_ONLY, dcd_only
from ._hub_save import hub_save
from ._json import JSONObject
from ._spoke_restore import read_spoke, svc_restore
from ._status import dcd_status_to_alpha

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def dcd_to_alpha(obj: JSONObject, hub_saves: bool = True) -> JSONObject:
    """The v1alpha1 DCD; without ``hub_saves``, its spec and status only are the conversion's (no
    ``nvidia.com/dcd-spec`` hub save is computed nor written: what the compatibility view reads)."""
    src_meta = obj.get("metadata")
    sv, empty_name = read_spoke(src_meta if isinstance(src_meta, dict) else {})
    out, meta, _payload = open_conversion(obj, ALPHA, DCD_SPEC_ANNOTATION, DCD_SCRUB)
    src = obj.get("spec") or {}
    comp = {k: v for k, v in src.items() if k not in DCD_ONLY}
    svc = comp_to_svc(comp, (sv or {}).get("frontendSidecar") if isinstance(sv, dict) else None)
    if comp.get("name"):
        svc["serviceName"] = comp["name"]
    if isinstance(sv, dict):
        svc_restore(svc, sv, comp)
    if empty_name and svc.get("serviceName") == meta.get("name"):
        svc.pop("serviceName")
    spec = {**dcd_only(src), **svc}
    saved_status = read_payload(obj.get("metadata") or {}, DCD_STATUS_ANNOTATION)
    cs = hub_save(comp, svc) if hub_saves else None
    if cs is not None and _hub_spec_needs_save(cs, comp, src_meta):
        hub: JSONObject = {"name": comp.get("name") or "", **cs}
        meta["annotations"] = {**(meta.get("annotations") or {}), DCD_SPEC_ANNOTATION: hub_annotation(hub, "HubDCDSpec")}

    def status(st: Any) -> Any:
        return dcd_status_to_alpha(st, saved_status)

    return finish_conversion(obj, out, meta, spec, status, DCD_SPEC_ANNOTATION, None)


def _hub_spec_needs_save(cs: JSONObject, comp: JSONObject, src_meta: Any) -> bool:
    """Upstream ``dcdHubSpecNeedsSave``: a non-zero save, an empty hub name under a set
    ``metadata.name``, or a hub-origin podTemplate (``SaveHubOrigin`` = no spoke annotations)."""
    src_anns = (src_meta if isinstance(src_meta, dict) else {}).get("annotations") or {}
    save_hub_origin = DCD_SPEC_ANNOTATION not in src_anns and DCD_STATUS_ANNOTATION not in src_anns
    return bool(
        cs
        or (not comp.get("name") and (src_meta or {}).get("name"))
        or (save_hub_origin and comp.get("podTemplate") is not None)
    )
