"""The object around a converted spec: top-level copy, metadata, payload, status; shared by every kind."""

from __future__ import annotations

from .._core._diagnostics import DynamoSchemaError
from ._annotations import read_payload, scrub_annotations, write_payload
from ._json import JSONObject, dc

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, Callable


class ConversionError(DynamoSchemaError, ValueError):
    """A document the conversion webhook refuses (bad input: the CLI reports it and exits 1; still a
    ``ValueError`` for callers that catch that)."""


def _copy_top(obj: JSONObject, api: str) -> tuple[JSONObject, JSONObject]:
    out: JSONObject = {}
    for k, v in obj.items():
        if k in ("spec", "status"):
            continue
        out[k] = dc(v)
    out["apiVersion"] = api
    meta = out.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    return out, meta


def open_conversion(obj: JSONObject, api: str, key: str, scrub: tuple[str, ...]) -> tuple[JSONObject, JSONObject, JSONObject | None]:
    """Start a conversion: copy of the top level, its metadata and the preserved payload (scrubbed)."""
    out, meta = _copy_top(obj, api)
    payload = read_payload(meta, key, api)  # what upstream's typed decoding of it into api's spec type keeps
    scrub_annotations(meta, scrub)
    return out, meta, payload


def finish_conversion(obj: JSONObject, out: JSONObject, meta: JSONObject, spec: JSONObject, status: Callable[[Any], Any], key: str, save: JSONObject | None, layout: str | None = None) -> JSONObject:
    """End a conversion: spec, converted status (``status`` maps the source status), payload (typed as
    ``layout`` when given), metadata."""
    if "spec" in obj:
        out["spec"] = spec if obj["spec"] is not None else None
    if "status" in obj:
        out["status"] = status(obj["status"])
    if save:
        write_payload(meta, key, save, layout)
    if meta or "metadata" in obj:
        out["metadata"] = meta
    return out


def _renamed(d: JSONObject, old: str, new: str) -> JSONObject:
    """A copy of ``d`` with key ``old`` spelled ``new`` (first; a null value is dropped)."""
    out: JSONObject = {}
    if d.get(old) is not None:
        out[new] = d[old]
    for k, v in d.items():
        if k != old:
            out[k] = dc(v)
    return out


def top_spec(src: JSONObject, skip: tuple[str, ...], env: tuple[str, str], topology: tuple[str, str]) -> JSONObject:
    """The graph-level spec fields: ``envs``/``env`` and the topology profile name renamed."""
    spec: JSONObject = {}
    for k, v in src.items():
        if k in skip:
            continue
        if k == env[0]:
            spec[env[1]] = dc(v)
        elif k == "topologyConstraint" and isinstance(v, dict):
            spec[k] = _renamed(v, *topology)
        else:
            spec[k] = dc(v)
    return spec
