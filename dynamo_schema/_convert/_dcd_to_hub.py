"""DCD v1alpha1 -> v1beta1 (the shared spec plus DCD-only fields; the name defaults from metadata.name)."""

from __future__ import annotations

from .._core._consts import V1BETA1 as BETA
from ._annotations import (
    DCD_SCRUB,
    DCD_SPEC_ANNOTATION,
    DCD_STATUS_ANNOTATION,
    read_hub_payload,
    spoke_annotation,
    write_raw,
)
from ._component_to_hub import svc_to_comp
from ._envelope import finish_conversion, open_conversion
from ._fields import DCD_ONLY, dcd_only
from ._hub_restore import comp_restore, hub_restore
from ._json import JSONObject
from ._spoke_save import upstream_spoke_save
from ._status import dcd_status_save, dcd_status_to_beta

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def dcd_to_beta(obj: JSONObject) -> JSONObject:
    out, meta, payload = open_conversion(obj, BETA, DCD_SPEC_ANNOTATION, DCD_SCRUB)
    src = obj.get("spec") or {}
    name = src.get("serviceName") or meta.get("name")
    _, upstream_hub = read_hub_payload(obj.get("metadata") or {}, DCD_SPEC_ANNOTATION)
    alpha_src = {k: v for k, v in src.items() if k not in DCD_ONLY}
    comp = svc_to_comp(name, alpha_src)
    hub_origin = _restore_hub(comp, payload, upstream_hub, alpha_src, meta.get("name"))
    spec = {**dcd_only(src), **comp}
    save = upstream_spoke_save({k: v for k, v in src.items() if k not in DCD_ONLY}, not hub_origin)
    # upstream dcdEmptyServiceNameNeedsSave: the name was defaulted from metadata.name
    empty_name = bool(not src.get("serviceName") and meta.get("name") and comp.get("name") == meta.get("name"))
    # upstream generatedPodTemplateSave: an alpha-origin DCD whose podTemplate was generated
    generated = not hub_origin and comp.get("podTemplate") is not None
    if generated or empty_name or save:
        meta["annotations"] = {**(meta.get("annotations") or {}),
                               DCD_SPEC_ANNOTATION: spoke_annotation(save, empty_name)}
    write_raw(meta, DCD_STATUS_ANNOTATION, dcd_status_save(obj.get("status")))
    # upstream's spec is a value struct: an absent or null v1alpha1 spec converts like {} (its name defaulted)
    whole = obj if isinstance(obj.get("spec"), dict) else {**obj, "spec": {}}
    return finish_conversion(whole, out, meta, spec, dcd_status_to_beta, DCD_SPEC_ANNOTATION, None)


def _restore_hub(comp: JSONObject, payload: JSONObject | None, upstream_hub: bool, alpha_src: JSONObject,
                 meta_name: Any) -> bool:
    """Restore the component from a hub save; whether there was one (the object is hub-origin)."""
    # upstream's hub save is a typed v1beta1 DCD spec (``name`` always written); the spoke save a
    # v1alpha1 one (no ``name``)
    hub_saved = payload if upstream_hub and isinstance(payload, dict) and "name" in payload else None
    if hub_saved is not None:
        hub_restore(comp, hub_saved, alpha_src)
        if hub_saved.get("name") == "" and comp.get("name") == meta_name:
            comp["name"] = ""
    elif payload and isinstance(payload.get("component"), dict):
        comp_restore(comp, payload["component"])
    return hub_saved is not None or isinstance((payload or {}).get("component"), dict)
