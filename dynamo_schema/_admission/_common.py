"""Helpers shared by the admission rules: safe accessors on plain JSON-like data and the
Kubernetes ``field.Error`` rendering (``ErrorBody()``: ``<Type>: <value>: <detail>``)."""

from __future__ import annotations

# the safe accessors: one copy in _core, re-exported for the rules
from .._core._access import as_dict as as_dict
from .._core._access import as_int as as_int
from .._core._access import as_list as as_list
from .._core._access import as_str as as_str
from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import OMIT, field_error, go_quote

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


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


# --------------------------------------------------------------------------- field errors

Severity = str


def required(rule: str, path: Path, detail: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), field_error("Required value", OMIT, detail))


def forbidden(rule: str, path: Path, detail: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), field_error("Forbidden", OMIT, detail))


def invalid(rule: str, path: Path, value: Any, detail: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), field_error("Invalid value", value, detail))


def invalid_novalue(rule: str, path: Path, detail: str) -> Diagnostic:
    """A CEL-style ``Invalid value`` whose value is omitted."""
    return Diagnostic(rule, tuple(path), field_error("Invalid value", OMIT, detail))


def not_supported(rule: str, path: Path, value: Any, supported: list[str]) -> Diagnostic:
    detail = "supported values: " + ", ".join(go_quote(s) for s in supported) if supported else ""
    return Diagnostic(rule, tuple(path), field_error("Unsupported value", value, detail))


def duplicate(rule: str, path: Path, value: Any) -> Diagnostic:
    return Diagnostic(rule, tuple(path), field_error("Duplicate value", value))


def warning(rule: str, path: Path, message: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), message, severity="warning")


FIELD_IMMUTABLE = "field is immutable"


# Go struct field order (JSON names, omitempty) for values rendered in field errors.
if TYPE_CHECKING:
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
