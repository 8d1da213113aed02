"""Helpers shared by the admission rules: safe accessors on plain JSON-like data and the
Kubernetes ``field.Error`` rendering (``ErrorBody()``: ``<Type>: <value>: <detail>``)."""

from __future__ import annotations

import json
from typing import Any

from .._diagnostics import Diagnostic, Path

# --------------------------------------------------------------------------- safe accessors


def as_dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def as_str(v: Any) -> str:
    return v if isinstance(v, str) else ""


def as_int(v: Any) -> int | None:
    if isinstance(v, bool) or not isinstance(v, int):
        return None
    return v


def get(d: Any, *keys: str) -> Any:
    """``d[k1][k2]...`` or None when a level is missing or not a mapping."""
    cur = d
    for k in keys:
        if not isinstance(cur, dict):
            return None
        cur = cur.get(k)
    return cur


def str_map(v: Any) -> dict[str, str]:
    """A map[string]string view (non-string values dropped, like a failed decode would)."""
    return {k: x for k, x in as_dict(v).items() if isinstance(k, str) and isinstance(x, str)}


# --------------------------------------------------------------------------- value rendering


def go_quote(s: str) -> str:
    """Go ``%q`` for a string (printable runes kept, Go escapes for the rest)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_value(v: Any) -> str:
    """Render a bad value the way ``field.Error.ErrorBody`` does: ``null`` for nil, bare numbers
    and booleans, ``%q`` for strings, compact JSON for structs, maps and slices."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        if isinstance(v, float):
            r = repr(v)
            return r.removesuffix(".0")
        return str(v)
    if isinstance(v, str):
        return go_quote(v)
    try:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # pragma: no cover - defensive
        return str(v)


def go_list(items: list[str]) -> str:
    """Go ``%v`` of a ``[]string``: ``[a b c]``."""
    return "[" + " ".join(items) + "]"


# --------------------------------------------------------------------------- field errors

Severity = str


def required(rule: str, path: Path, detail: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), f"Required value: {detail}" if detail else "Required value")


def forbidden(rule: str, path: Path, detail: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), f"Forbidden: {detail}" if detail else "Forbidden")


def invalid(rule: str, path: Path, value: Any, detail: str) -> Diagnostic:
    msg = f"Invalid value: {go_value(value)}"
    return Diagnostic(rule, tuple(path), f"{msg}: {detail}" if detail else msg)


def invalid_novalue(rule: str, path: Path, detail: str) -> Diagnostic:
    """A CEL-style ``Invalid value`` whose value is omitted."""
    return Diagnostic(rule, tuple(path), f"Invalid value: {detail}")


def not_supported(rule: str, path: Path, value: Any, supported: list[str]) -> Diagnostic:
    msg = f"Unsupported value: {go_value(value)}"
    if supported:
        msg += ": supported values: " + ", ".join(go_quote(s) for s in supported)
    return Diagnostic(rule, tuple(path), msg)


def duplicate(rule: str, path: Path, value: Any) -> Diagnostic:
    return Diagnostic(rule, tuple(path), f"Duplicate value: {go_value(value)}")


def warning(rule: str, path: Path, message: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), message, severity="warning")


FIELD_IMMUTABLE = "field is immutable"


# Go struct field order (JSON names, omitempty) for values rendered in field errors.
StructFields = tuple[tuple[str, bool, Any], ...]  # (json name, omitempty, zero value)

SPEC_TOPOLOGY_CONSTRAINT: StructFields = (("clusterTopologyName", False, ""), ("packDomain", True, ""))
TOPOLOGY_CONSTRAINT: StructFields = (("packDomain", False, ""),)
KV_TRANSFER_POLICY: StructFields = (
    ("clusterTopologyName", True, ""),
    ("labelKey", True, ""),
    ("domain", False, ""),
    ("enforcement", True, ""),
    ("preferredWeight", True, None),
)
FAILOVER: StructFields = (("mode", True, ""), ("numShadows", True, 0))
MULTINODE: StructFields = (("nodeCount", False, 0), ("leader", True, None), ("worker", True, None))


def go_struct(value: Any, fields: StructFields) -> Any:
    """Re-order a struct-like mapping the way ``encoding/json`` marshals the Go struct: declared
    field order, ``omitempty`` fields dropped when empty, unknown keys dropped. Non-mappings are
    returned unchanged (nil stays ``None``)."""
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for name, omitempty, zero in fields:
        v = value.get(name)
        if v is None or (omitempty and v in ("", 0, False)):
            if not omitempty:
                out[name] = zero
            continue
        out[name] = v
    return out
