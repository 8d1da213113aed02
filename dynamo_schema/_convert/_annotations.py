"""The conversion annotations: keys, reading, scrubbing and writing their payloads (upstream's bytes)."""

from __future__ import annotations

import json

from .._core._consts import V1BETA1
from .._k8s._gofmt import go_json
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


def read_envelope(meta: JSONObject, key: str, api: str | None = None) -> tuple[JSONObject, JSONObject] | None:
    """The decoded annotation ``key`` and its spec (the ``spec`` of the version envelope, or the
    whole object when it has none); None when absent or not a JSON object.

    ``api``: the version the object is converted to. A spec payload (``dgd-spec``, ``dcd-spec``,
    ``dgdr-spec``) then holds that version's spec type, and upstream ``restorePreservedSpec`` decodes it
    with ``json.Unmarshal`` into ``preservedSpecEnvelope[T]`` (or, without a ``spec`` key, the whole
    payload into ``T``): any decoding error (``"dynamoNamespace": 5`` into a string) drops the whole
    payload, as if there were none."""
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
    if not isinstance(spec, dict):
        return None
    kind = _SPEC_PAYLOAD_KINDS.get(key)
    if api is not None and kind is not None and not _go_decodes(data, api, kind):
        return None
    return data, spec


def read_payload(meta: JSONObject, key: str, api: str | None = None) -> JSONObject | None:
    envelope = read_envelope(meta, key, api)
    return envelope[1] if envelope is not None else None


def _go_int(v: object, lo: int, hi: int) -> bool:
    """A JSON value ``encoding/json`` decodes into a Go integer of that range (``1.0`` and ``1e2`` do not)."""
    return v is None or (type(v) is int and lo <= v <= hi)


def _go_bytes(v: object) -> bool:
    """A JSON value ``encoding/json`` decodes into ``[]byte``: null, a standard base64 string (carriage
    returns and newlines ignored) or an array of bytes."""
    import base64
    import binascii

    if v is None:
        return True
    if isinstance(v, list):
        return all(_go_int(b, 0, 255) for b in v)
    if not isinstance(v, str):
        return False
    try:
        base64.b64decode(v.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _raw_json_decodes(records: object) -> bool:
    """``RawJSON []preservedRawJSON`` (``path string``, ``raw []byte``, ``nil bool``; keys matched as Go does,
    case-insensitively)."""
    if records is None:
        return True
    if not isinstance(records, list):
        return False
    for r in records:
        if r is None:
            continue
        if not isinstance(r, dict):
            return False
        for k, v in r.items():
            name = k.lower()
            if (name == "path" and not (v is None or isinstance(v, str))) or (name == "raw" and not _go_bytes(v)) \
                    or (name == "nil" and not (v is None or isinstance(v, bool))):
                return False
    return True


def _go_decodes(data: JSONObject, api: str, kind: str) -> bool:
    """Whether upstream's typed decoding of a spec payload succeeds (see :func:`read_envelope`)."""
    from .._schema._godecode import decode_error
    from .._schema._schemas import for_object

    schema = for_object(api, kind)
    if schema is None:
        return True
    if "spec" not in data:  # the legacy bare spec: the whole payload into T
        specs = [data]
    else:
        specs = []
        for k, v in data.items():  # the envelope's fields, matched case-insensitively
            name = k.lower()
            if name == "version" and not _go_int(v, -(2**63), 2**63 - 1):
                return False
            if name == "rawjson" and not _raw_json_decodes(v):
                return False
            if name == "spec":
                specs.append(v)
    return all(decode_error({"kind": kind, "spec": s}, schema) is None for s in specs)


def write_payload(meta: JSONObject, key: str, spec: JSONObject, layout: str | None = None) -> None:
    """The save in the version envelope: upstream's bytes (``marshalPreservedSpec``: ``json.Marshal`` of
    the typed spec ``layout``, version first) when a layout is given, else sorted keys."""
    anns = dict(meta.get("annotations") or {})
    if layout is not None:
        from .._k8s._gofmt import go_json

        anns[key] = go_json({"version": 1, "spec": go_encode(spec, layout)})
    else:
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
    payload = read_payload(meta, key, V1BETA1)
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
#: the spec payloads and the kind whose spec type they hold (in the version converted to)
_SPEC_PAYLOAD_KINDS = {DGD_SPEC_ANNOTATION: "DynamoGraphDeployment", DCD_SPEC_ANNOTATION: "DynamoComponentDeployment",
                       DGDR_SPEC_ANNOTATION: "DynamoGraphDeploymentRequest"}
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
