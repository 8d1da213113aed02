"""The conversion annotations: keys, reading, scrubbing and writing their payloads (upstream's bytes)."""

from __future__ import annotations

import json

from .._k8s._golayout import encode as go_encode
from ._json import JSONObject

DGD_SPEC_ANNOTATION = "nvidia.com/dgd-spec"
DGD_STATUS_ANNOTATION = "nvidia.com/dgd-status"
DCD_SPEC_ANNOTATION = "nvidia.com/dcd-spec"
DCD_STATUS_ANNOTATION = "nvidia.com/dcd-status"
_DGD_PREFIX = "nvidia.com/dgd-"
DGD_SCRUB = (DGD_SPEC_ANNOTATION, DGD_STATUS_ANNOTATION)
DCD_SCRUB = (DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION)


def is_dgd_conversion_annotation(key: str) -> bool:
    """Upstream ``IsDynamoGraphDeploymentConversionAnnotation``: the ``nvidia.com/dgd-`` prefix."""
    return key.startswith(_DGD_PREFIX)


def read_envelope(meta: JSONObject, key: str) -> tuple[JSONObject, JSONObject] | None:
    """The decoded annotation ``key`` and its spec (the ``spec`` of the version envelope, or the
    whole object when it has none); None when absent or not a JSON object."""
    raw = (meta.get("annotations") or {}).get(key)
    if not isinstance(raw, str) or not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    spec = data.get("spec") if "spec" in data else data
    return (data, spec) if isinstance(spec, dict) else None


def read_payload(meta: JSONObject, key: str) -> JSONObject | None:
    envelope = read_envelope(meta, key)
    return envelope[1] if envelope is not None else None


def write_payload(meta: JSONObject, key: str, spec: JSONObject) -> None:
    anns = dict(meta.get("annotations") or {})
    anns[key] = json.dumps({"version": 1, "spec": spec}, separators=(",", ":"), sort_keys=True)
    meta["annotations"] = anns


def scrub_annotations(meta: JSONObject, keys: tuple[str, ...]) -> None:
    anns = meta.get("annotations")
    if not isinstance(anns, dict):
        return
    anns = {k: v for k, v in anns.items() if k not in keys}
    if anns:
        meta["annotations"] = anns
    else:
        meta.pop("annotations", None)


def hub_annotation(spec: JSONObject, layout: str) -> str:
    from .._k8s._gofmt import go_json

    return go_json({"version": 1, "spec": go_encode(spec, layout)})


def read_hub_payload(meta: JSONObject, key: str) -> tuple[JSONObject | None, bool]:
    """The hub save and whether it is upstream's typed shape (``{"version":1,"spec":...}`` with the
    version first, as ``marshalPreservedSpec`` writes it) rather than this module's earlier one."""
    payload = read_payload(meta, key)
    raw = (meta.get("annotations") or {}).get(key)
    if not isinstance(raw, str) or payload is None:
        return payload, False
    # upstream's envelope, or its legacy bare typed spec (restorePreservedSpec: no "spec" key);
    # this module's earlier payload always had "spec" first
    upstream = raw.lstrip().startswith('{"version"') or '"spec"' not in raw[:8]
    return payload, upstream


def is_hub_payload(payload: JSONObject) -> bool:
    return "components" in payload or "component" in payload


def write_raw(meta: JSONObject, key: str, data: JSONObject) -> None:
    """A status payload: upstream's typed status struct (``setJSONAnnOnObj``), no version envelope."""
    if data:
        from .._k8s._gofmt import go_json

        anns = meta.setdefault("annotations", {})
        # the typed v1alpha1 status struct: DCD ``{conditions: null, podSelector?, service?}``,
        # DGD ``{state: "", services?}`` (a saved ServiceReplicaStatus holds only its two names)
        layout = "AlphaDCDStatus" if key == DCD_STATUS_ANNOTATION else "AlphaDGDStatus"
        anns[key] = go_json(go_encode(data, layout))


PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH = "serviceName"


def _go_alpha_spec(save: JSONObject) -> JSONObject:
    """``json.Marshal`` of a sparse v1alpha1 ``DynamoComponentDeploymentSpec``
    (``backendFramework`` first, then the inline shared spec)."""
    encoded: JSONObject = go_encode(save, "AlphaDCDSpec")
    return encoded


def dgd_spoke_annotation(save: JSONObject) -> str:
    """``marshalDGDSpokeSpec``: a sparse v1alpha1 ``DynamoGraphDeploymentSpec`` (``pvcs``, then the
    ``services`` map with sorted keys; a nil service is ``null``) in the version envelope."""
    from .._k8s._gofmt import go_json

    spec = {k: save[k] for k in ("pvcs", "services") if save.get(k)}
    return go_json({"version": 1, "spec": go_encode(spec, "AlphaDGDSpec")})


def spoke_annotation(save: JSONObject, empty_service_name: bool) -> str:
    """``marshalDCDSpokeSpec``: the envelope upstream writes into ``nvidia.com/dcd-spec``."""
    from .._k8s._gofmt import go_json

    env: JSONObject = {"version": 1, "spec": _go_alpha_spec(save)}
    if empty_service_name:
        env["rawJSON"] = [{"path": PRESERVED_DCD_EMPTY_SERVICE_NAME_PATH, "nil": True}]
    return go_json(env)


DGDR_SPEC_ANNOTATION = "nvidia.com/dgdr-spec"
DGDR_STATUS_ANNOTATION = "nvidia.com/dgdr-status"
_RETIRED_DGDR_ANNOTATIONS = (
    "nvidia.com/dgdr-config-map-ref",
    "nvidia.com/dgdr-output-pvc",
    "nvidia.com/dgdr-enable-gpu-discovery",
    "nvidia.com/dgdr-deployment-overrides",
    "nvidia.com/dgdr-profiling-config",
    "nvidia.com/dgdr-status-backend",
    "nvidia.com/dgdr-profiling-results",
    "nvidia.com/dgdr-deployment-status",
    "nvidia.com/dgdr-profiling-job-name",
)
DGDR_SCRUB = (DGDR_SPEC_ANNOTATION, DGDR_STATUS_ANNOTATION, *_RETIRED_DGDR_ANNOTATIONS)
