"""Go ``encoding/json`` strict decoding (``json.Decoder`` with ``DisallowUnknownFields``) for settings values.

Upstream ``internal/config/config.go`` (``envStringMap``, ``envSkyPilotProviders``) decodes JSON settings
into Go types with a strict decoder and appends the decoder's error to its own message. This module
reproduces the error a Go decoder returns for the two target types:

* syntax errors first (the decoder reads the whole value before unmarshalling): the scanner's
  ``invalid character ...`` text, or ``unexpected EOF`` for a truncated value;
* then, in document order, the first saved error: ``json: unknown field "KEY"`` for an object key that
  matches no struct field (Go matches a field name exactly, else case-insensitively), or
  ``json: cannot unmarshal KIND into Go struct field Struct.field of type T`` /
  ``json: cannot unmarshal KIND into Go value of type T`` for a value of the wrong JSON kind
  (``null`` is accepted everywhere and leaves the zero value).
"""

from __future__ import annotations

import json
from typing import Any

from .._k8s._gofmt import go_quote, json_kind

#: ``config.SkyPilotProvider``: JSON name -> kind ("string" or "[]string").
SKYPILOT_PROVIDER_FIELDS = {"cloud": "string", "label": "string", "runtimes": "[]string", "credential_env": "[]string"}
SKYPILOT_PROVIDER_TYPE = "config.SkyPilotProvider"


class _Obj(list):  # type: ignore[type-arg]
    """A JSON object as its (key, value) pairs, in document order (duplicates kept)."""


class GoJSONError(ValueError):
    """The text Go's decoder returns (without the caller's prefix)."""


def _kind(value: Any) -> str:
    """:func:`json_kind` of a decoded value (objects are :class:`_Obj`, a list of pairs)."""
    return "object" if isinstance(value, _Obj) else json_kind(value)


def _syntax_error(raw: str, exc: json.JSONDecodeError) -> GoJSONError:
    from .._io._jsonscan import syntax_error

    found = syntax_error(raw)
    message = found[0] if found is not None else exc.msg
    # json.Decoder reports a value cut short as io.ErrUnexpectedEOF
    if message == "unexpected end of JSON input":
        message = "unexpected EOF"
    return GoJSONError(message)


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def parse_first(raw: str) -> tuple[Any, str]:
    """The first JSON value of ``raw`` (objects as :class:`_Obj`) and the rest of the text; syntax errors
    raise :class:`GoJSONError` with Go's wording."""
    decoder = json.JSONDecoder(object_pairs_hook=_Obj, parse_constant=_reject_constant)
    try:
        value, end = decoder.raw_decode(raw)
    except json.JSONDecodeError as exc:
        raise _syntax_error(raw, exc) from None
    except ValueError:  # NaN / Infinity: not JSON for Go
        pos = next((i for i, ch in enumerate(raw) if ch in "NI-"), 0)
        c = raw[pos] if pos < len(raw) else ""
        raise GoJSONError(f"invalid character '{c}' looking for beginning of value") from None
    return value, raw[end:]


def _type_error(kind: str, go_type: str, struct: str = "", field: str = "") -> str:
    if struct or field:
        return f"json: cannot unmarshal {kind} into Go struct field {struct}.{field} of type {go_type}"
    return f"json: cannot unmarshal {kind} into Go value of type {go_type}"


def _field_for(key: str, fields: dict[str, str]) -> str | None:
    if key in fields:
        return key
    folded = key.casefold()
    for name in fields:
        if name.casefold() == folded:
            return name
    return None


def decode_string_map(value: Any) -> dict[str, str]:
    """``map[string]string``; raises :class:`GoJSONError` with the first error."""
    if value is None:
        return {}
    if not isinstance(value, _Obj):
        raise GoJSONError(_type_error(_kind(value), "map[string]string"))
    out: dict[str, str] = {}
    first: str | None = None
    for key, item in value:
        if item is None:
            out[key] = out.get(key, "")
            continue
        if not isinstance(item, str):
            first = first or _type_error(_kind(item), "string")
            continue
        out[key] = item
    if first:
        raise GoJSONError(first)
    return out


def decode_struct_slice(value: Any, fields: dict[str, str], struct_type: str) -> list[dict[str, Any]]:
    """``[]Struct`` of string / []string fields with ``DisallowUnknownFields``."""
    if value is None:
        return []
    struct = struct_type.rsplit(".", 1)[-1]
    if not isinstance(value, list) or isinstance(value, _Obj):
        raise GoJSONError(_type_error(_kind(value), "[]" + struct_type))
    first: str | None = None
    out: list[dict[str, Any]] = []
    for element in value:
        record: dict[str, Any] = {}
        out.append(record)
        if element is None:
            continue
        if not isinstance(element, _Obj):
            first = first or _type_error(_kind(element), struct_type)
            continue
        for key, item in element:
            name = _field_for(key, fields)
            if name is None:
                first = first or f"json: unknown field {go_quote(key)}"
                continue
            kind = fields[name]
            if item is None:
                continue
            if kind == "string":
                if isinstance(item, str):
                    record[name] = item
                else:
                    first = first or _type_error(_kind(item), "string", struct, name)
                continue
            if not isinstance(item, list) or isinstance(item, _Obj):
                first = first or _type_error(_kind(item), "[]string", struct, name)
                continue
            values: list[str] = []
            for entry in item:
                if entry is None:
                    values.append("")
                elif isinstance(entry, str):
                    values.append(entry)
                else:
                    first = first or _type_error(_kind(entry), "string", struct, name)
            record[name] = values
    if first:
        raise GoJSONError(first)
    return out
