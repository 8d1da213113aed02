"""Value checks shared by the structural walk (``_structural``) and its fast path (``_fastcheck``):
the string formats kube-apiserver checks, enum membership, ``x-kubernetes-list-type`` uniqueness."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from .._core._diagnostics import Path
from .._core._lazyre import lazy
from .._k8s._gofmt import field_error, go_json
from ._fielderrors import Run, schema_field_error
from ._nodes import Node

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["STRING_FORMATS", "enum_ok", "list_uniqueness", "scalar_key"]

_DATE_TIME = lazy(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))\Z")
_DATE = lazy(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")


def _is_date(s: str) -> bool:
    m = _DATE.match(s)
    if not m:
        return False
    try:
        datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return False
    return True


def _is_date_time(s: str) -> bool:
    """``strfmt.IsDateTime`` (the ``date-time`` format check kube-openapi performs)."""
    if len(s) < 4:
        return False
    parts = s.lower().split("t")
    if len(parts) < 2 or not _is_date(parts[0]):
        return False
    m = _DATE_TIME.match(parts[1])
    if not m:
        return False
    return m.group(1) <= "23" and m.group(2) <= "59" and m.group(3) <= "59"


def _is_byte(s: str) -> bool:
    import base64
    import binascii

    try:
        base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


# formats kube-apiserver keeps (StripUnsupportedFormatsPostProcess) and that we can check cheaply;
# the others (uri, email, hostname, ...) are accepted leniently.
STRING_FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": _is_date_time,
    "datetime": _is_date_time,
    "date": _is_date,
    "byte": _is_byte,
}


def enum_ok(v: Any, enum: list[Any]) -> bool:
    for e in enum:
        if isinstance(e, bool) or isinstance(v, bool):
            if isinstance(e, bool) and isinstance(v, bool) and e == v:
                return True
            continue
        if isinstance(e, str) != isinstance(v, str):
            continue
        if e == v:
            return True
    return False


def scalar_key(x: Any) -> Any:
    """Go map-key identity of an unstructured value (int64 1 != float64 1 != "1")."""
    if isinstance(x, (dict, list)):
        import json

        return ("c", json.dumps(x, sort_keys=True, separators=(",", ":")))
    return (type(x).__name__, x)


def _json_key(v: Any) -> str:
    try:
        return go_json(v, sort_keys=True)
    except ValueError:  # NaN/Inf: not JSON; the older Go form
        return schema_field_error("", v)[2:]


def _distinct_fast(data: list[Any], node: Node) -> bool:
    """True when the list is certainly free of duplicates, decided without building keys: a set of strings,
    or a map whose items all are mappings holding every key with a string (or integer) value. Anything else
    (and every list with a duplicate) goes to the detailed check below."""
    if node.list_type == "set":
        return all(type(x) is str for x in data) and len(set(data)) == len(data)
    keys = node.map_keys
    if len(keys) == 1:
        kf = keys[0]
        vals = [x.get(kf) if type(x) is dict else None for x in data]
        return all(type(v) is str for v in vals) and len(set(vals)) == len(vals)
    tuples = set()
    for x in data:
        if type(x) is not dict:
            return False
        t = []
        for kf in keys:
            v = x.get(kf)
            if type(v) is not str and type(v) is not int:  # bool, float, None, collections: the detailed way
                return False
            t.append((type(v) is str, v))
        tuples.add(tuple(t))
    return len(tuples) == len(data)


def list_uniqueness(run: Run, data: list[Any], node: Node, path: Path) -> None:
    if _distinct_fast(data, node):
        return
    if node.list_type == "set":
        seen: set[Any] = set()
        reported: set[Any] = set()
        for i, x in enumerate(data):
            k = scalar_key(x)
            if k in seen:
                if k not in reported:
                    reported.add(k)
                    run.add("schema.duplicate", path + (i,), schema_field_error("Duplicate value", x))
            else:
                seen.add(k)
        return
    # map
    for i, x in enumerate(data):
        if x is not None and not isinstance(x, dict):
            run.add(
                "schema.list-map",
                path + (i,),
                schema_field_error("Invalid value", x, "must be an object for an array of list-type map"),
            )
            return
    keys = node.map_keys
    seen = set()
    reported = set()
    for i, x in enumerate(data):
        keyval: dict[str, Any] = {}
        if isinstance(x, dict):
            for kf in keys:
                if kf in x:
                    keyval[kf] = x[kf]
                else:
                    sub = node.items()
                    kn = sub.prop(kf) if sub is not None else None
                    if kn is not None and kn.has_default:  # defaulted before validation
                        keyval[kf] = kn.default
        k = scalar_key(keyval) if len(keys) != 1 or keyval else ("unspecified",)
        if len(keys) == 1 and keyval:
            k = scalar_key(keyval[keys[0]])
        if k in seen:
            if k not in reported:
                reported.add(k)
                # Kubernetes 1.36 prints the key as JSON (a Go map: sorted keys), e.g.
                # ``Duplicate value: {"name":"A"}`` (operator case 1036-dgd-grove-duplicate-env-denied)
                run.add("schema.duplicate", path + (i,), field_error("Duplicate value", keyval, render=_json_key))
        else:
            seen.add(k)
