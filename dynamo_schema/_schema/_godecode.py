"""The Go round trip of the operator's mutating webhooks (docs/decisions.md D34).

controller-runtime's defaulting handler (``admission.WithCustomDefaulter``) decodes the request's object
into the v1beta1 Go type, runs the defaulter, marshals the result with ``encoding/json`` (the operator's
``MarshalJSON`` then strips empty non-pointer structs: ``api/v1beta1/marshal.go``) and answers with the
JSON patch from the request to that text, less the removals the Go type alone causes
(``dropSchemeRemovals``). So:

* :func:`decode_error`: a body the Go type cannot hold is refused with the decoder's message, before the
  schema is checked (``json: cannot unmarshal string into Go struct field WorkloadSpec.spec.workload.isl
  of type int32``; a quantity ``resource.ParseQuantity`` refuses: ``quantities must match the regular
  expression …``). Decoding follows sigs.k8s.io/json (encoding/json): object keys in the order the API
  server writes them (sorted), the first type mismatch is kept and decoding goes on, an error of a type's
  own ``UnmarshalJSON`` (Quantity, IntOrString) stops it and wins;
* :func:`go_round_trip`: what the patch adds or replaces: the zero value of a field written without
  ``omitempty`` (``modelRef.name: ""``, DGDR ``spec.model: ""``, EPP ``plugins[].name: ""``), every
  quantity in Go's canonical form (``1.5Gi`` -> ``1536Mi``, ``0`` -> ``"0"``, ``"2 "`` -> ``"2"``); keys
  the Go type omits are kept (their removal is dropped), nulls are pruned as the API server prunes them.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic, Path
from .._k8s._quantity import json_quantity_text
from ._gotypes import GoType, embedded_in, root_type

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["decode_error", "go_round_trip", "parse_quantity_error"]

_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
_SUFFIX = "unable to parse quantity's suffix"
_NUMERIC = "unable to parse numeric part of quantity"
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_DIGITS = frozenset("0123456789")
_KNOWN_SUFFIXES = frozenset({"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"})


def parse_quantity_error(text: str) -> str | None:
    """``resource.ParseQuantity``'s error for ``text`` (already ``strings.TrimSpace``-d), or None.

    apimachinery ``pkg/api/resource/quantity.go``: ``parseQuantityString`` (sign, digits, ``.`` digits,
    then suffix characters ``[eEinumkKMGTP]*``, an optional sign and digits; anything else is
    ``ErrFormatWrong``), then the suffix must be known (``ErrSuffix``)."""
    if not text:
        return _FORMAT_WRONG
    if text == "0":
        return None
    i, n = 0, len(text)
    if text[0] in "+-":
        i = 1
    while i < n and text[i] in _DIGITS:
        i += 1
    if i < n and text[i] == ".":
        i += 1
        while i < n and text[i] in _DIGITS:
            i += 1
    start = i
    while i < n and text[i] in _SUFFIX_CHARS:
        i += 1
    if i < n:
        if text[i] in "+-":
            i += 1
        while i < n and text[i] in _DIGITS:
            i += 1
        if i < n:
            return _FORMAT_WRONG
    suffix = text[start:]
    if not any(c in _DIGITS for c in text[:start]):
        # no digits: the numerator reads as 0; the int64 fast path takes it, unless its binary precision
        # runs out (Pi, Ei) or its scale is below nano, and the exact path refuses an empty number (ErrNumeric)
        if suffix in ("Pi", "Ei"):
            return _NUMERIC
        if len(suffix) > 1 and suffix[0] in "eE" and suffix not in _KNOWN_SUFFIXES and parse_quantity_error("0" + suffix) is None \
                and int(suffix[1:]) < -9:
            return _NUMERIC
    if suffix in _KNOWN_SUFFIXES:
        return None
    if len(suffix) > 1 and suffix[0] in "eE":
        exp = suffix[1:]
        body = exp[1:] if exp[:1] in "+-" else exp
        # suffixHandler.interpret: strconv.ParseInt(suffix[1:], 10, 64); out of the int64 range it fails
        # (the digits are compared as text: int() of a very long one would hit Python's digit limit)
        if body and all(c in _DIGITS for c in body) and _fits_int64(exp[:1] == "-", body.lstrip("0")):
            return None
    return _SUFFIX


def _fits_int64(negative: bool, digits: str) -> bool:
    """Whether the decimal ``digits`` (no leading zeros) with that sign fit Go's int64."""
    limit = "9223372036854775808" if negative else "9223372036854775807"
    return len(digits) < len(limit) or (len(digits) == len(limit) and digits <= limit)


def _json_kind(v: Any) -> str:
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    if isinstance(v, str):
        return "string"
    if isinstance(v, bool):
        return "bool"
    return "number"


def _number_text(v: Any) -> str:
    """The number as the API server writes it in the admission request (Go's float64 format)."""
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 2**63:
            return str(int(v))
        from .._k8s._gofmt import go_json

        try:
            return go_json(v)
        except ValueError:
            return repr(v)
    return str(v)


_INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1), "int": (-(2**63), 2**63 - 1)}


def _int_ok(v: Any, name: str) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if isinstance(v, float) and not v.is_integer():
        return False
    lo, hi = _INT_RANGES.get(name, _INT_RANGES["int64"])
    return lo <= v <= hi


class _Abort(Exception):
    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


class _Decoder:
    def __init__(self) -> None:
        self.saved: tuple[Path, str] | None = None

    def mismatch(self, path: Path, value: str, t_name: str, struct: str, stack: tuple[str, ...]) -> None:
        if self.saved is None:
            field = ".".join(stack)
            self.saved = (path, f"json: cannot unmarshal {value} into Go struct field {struct}.{field} of type {t_name}")

    def value(self, v: Any, t: GoType, path: Path, struct: str, stack: tuple[str, ...]) -> None:
        if v is None or t.kind == "any":
            return
        kind = t.kind
        if kind == "quantity":
            if isinstance(v, (dict, list, bool)):
                raise _Abort(path, _FORMAT_WRONG)
            if isinstance(v, str):
                err = parse_quantity_error(json_quantity_text(v))
                if err is not None:
                    raise _Abort(path, err)
            return
        if kind == "intorstr":
            if isinstance(v, str):
                return
            if not _int_ok(v, "int32"):
                # IntOrString.UnmarshalJSON decodes a non-string into int32 with a new decoder; the
                # outer decoder then names the field it was in (addErrorContext)
                value = f"number {_number_text(v)}" if _json_kind(v) == "number" else _json_kind(v)
                field = ".".join(stack)
                raise _Abort(path, f"json: cannot unmarshal {value} into Go struct field {struct}.{field} of type int32")
            return
        jk = _json_kind(v)
        if kind == "struct":
            if jk != "object":
                self.mismatch(path, jk, t.name, struct, stack)
                return
            fields = t.fields()
            for key in sorted(v):
                f = fields.get(key)
                if f is not None:
                    embedded = embedded_in(t.struct, key)
                    at = stack + (embedded, key) if embedded else stack + (key,)
                    self.value(v[key], f[0], path + (key,), t.struct, at)
            return
        if kind == "map":
            if jk != "object":
                self.mismatch(path, jk, t.name, struct, stack)
                return
            assert t.elem is not None
            for key in sorted(v):
                self.value(v[key], t.elem, path + (key,), struct, stack)
            return
        if kind == "slice":
            if jk != "array":
                self.mismatch(path, jk, t.name, struct, stack)
                return
            assert t.elem is not None
            for i, x in enumerate(v):
                self.value(x, t.elem, path + (i,), struct, stack)
            return
        if kind == "string":
            if jk != "string":
                self.mismatch(path, jk, t.name, struct, stack)
            return
        if kind == "bool":
            if jk != "bool":
                self.mismatch(path, jk, t.name, struct, stack)
            return
        if kind == "int":
            if jk == "number":
                if not _int_ok(v, t.name):
                    self.mismatch(path, f"number {_number_text(v)}", t.name, struct, stack)
            else:
                self.mismatch(path, jk, t.name, struct, stack)
            return
        if kind == "float":
            if jk == "number":
                if t.name == "float32" and abs(float(v)) > 3.4028234663852886e38:
                    self.mismatch(path, f"number {_number_text(v)}", t.name, struct, stack)
            else:
                self.mismatch(path, jk, t.name, struct, stack)


def _decodes(v: Any, t: GoType) -> bool:
    """Whether :meth:`_Decoder.value` finds nothing in ``v`` (no mismatch, no refusal): the same checks,
    without the paths and field names a finding needs (most objects decode; a finding is then looked
    for, and located, by the decoder itself)."""
    if v is None:
        return True
    kind = t.kind
    if kind == "struct":
        if not isinstance(v, dict):
            return False
        fields = t.fields()
        for key, x in v.items():
            f = fields.get(key)
            if f is None or x is None:
                continue
            ft = f[0]
            fk = ft.kind
            if fk == "string":  # the commonest field, without the call
                if not isinstance(x, str):
                    return False
            elif fk != "any" and not _decodes(x, ft):
                return False
        return True
    if kind == "string":
        return isinstance(v, str)
    if kind == "any":
        return True
    if kind == "slice" or kind == "map":
        elem = t.elem
        items: Any
        if kind == "slice" and isinstance(v, list):
            items = v
        elif kind == "map" and isinstance(v, dict):
            items = v.values()
        else:
            return False
        if elem is None:
            return False
        if elem.kind == "string":
            return all(x is None or isinstance(x, str) for x in items)
        return all(_decodes(x, elem) for x in items)
    if kind == "quantity":
        if isinstance(v, (dict, list, bool)):
            return False
        if isinstance(v, str):
            return parse_quantity_error(json_quantity_text(v)) is None
        return True
    if kind == "intorstr":
        return isinstance(v, str) or _int_ok(v, "int32")
    jk = _json_kind(v)
    if kind == "bool":
        return jk == "bool"
    if kind == "int":
        return jk == "number" and _int_ok(v, t.name)
    if kind == "float":
        return jk == "number" and not (t.name == "float32" and abs(float(v)) > 3.4028234663852886e38)
    return True


def decode_error(obj: dict[str, Any], schema: dict[str, Any]) -> Diagnostic | None:
    """The mutating webhook's refusal of ``obj`` (a v1beta1 DGD / DCD / DGDR, nulls pruned, CRD
    defaults applied) when it does not decode into the Go type, as one ``webhook.decode`` error at the
    offending value; None when it decodes."""
    root = root_type(schema, str(obj.get("kind")))
    if root is None:
        return None
    body = {k: v for k, v in obj.items() if k == "spec"}
    if _decodes(body, root):
        return None
    dec = _Decoder()
    try:
        dec.value(body, root, (), root.struct, ())
    except _Abort as exc:
        return Diagnostic("webhook.decode", exc.path, exc.message)
    if dec.saved is not None:
        return Diagnostic("webhook.decode", dec.saved[0], dec.saved[1])
    return None


# --- the patch ---------------------------------------------------------------------------------------

_MISSING: Any = object()


def _zero(t: GoType, value_struct: bool) -> Any:
    """What the patch adds for an absent field written at its zero value (``_MISSING``: nothing, as for a
    nil pointer, slice, map or raw JSON that Go writes as ``null`` and the API server prunes)."""
    if t.kind == "string":
        return ""
    if t.kind == "int":
        return 0
    if t.kind == "float":
        return 0
    if t.kind == "bool":
        return False
    if t.kind == "quantity" and value_struct:
        return "0"
    if t.kind == "intorstr":
        return 0
    if t.kind == "struct" and value_struct:
        out = _zero_struct(t)
        return _MISSING if out is None else out
    return _MISSING


def _zero_struct(t: GoType) -> dict[str, Any] | None:
    """A zero struct as marshalled, then stripped when ``{}`` (None), with its nulls pruned."""
    out: dict[str, Any] = {}
    for key, (ft, written, value_struct) in t.fields().items():
        if value_struct:
            z = _zero(ft, True)
            if z is not _MISSING:
                out[key] = z
        elif written:
            z = _zero(ft, False)
            if z is not _MISSING:
                out[key] = z
    if not out:
        # {} is stripped; a struct holding only nulls (PodSpec{} is {"containers": null}) is not added
        # either: the API server's handling of such a patch is not shown by the cases (D34)
        return None
    return out


#: the kinds whose values the patch can change (a quantity's text, a struct's zero fields, their elements)
_WALKED = frozenset({"quantity", "struct", "slice", "map"})


def _struct_plan(t: GoType) -> tuple[dict[str, GoType], tuple[tuple[str, GoType, bool], ...]]:
    """A struct's fields the patch can change: those whose values are walked (by json name), and those
    it adds, at their zero value, when absent (in field order)."""
    if t.plan is None:
        walked: dict[str, GoType] = {}
        added: list[tuple[str, GoType, bool]] = []
        for key, (ft, written, value_struct) in t.fields().items():
            if ft.kind in _WALKED:
                walked[key] = ft
            if (written or value_struct) and _zero(ft, value_struct) is not _MISSING:
                added.append((key, ft, value_struct))
        t.plan = (walked, tuple(added))
    plan: tuple[dict[str, GoType], tuple[tuple[str, GoType, bool], ...]] = t.plan
    return plan


_QUANTITIES: dict[tuple[type, Any], str | None] = {}
_MISS = object()


def _patched_quantity(v: Any) -> str | None:
    """The canonical text Go writes back for quantity ``v`` when it differs from ``v``, else None (equal, or
    ``v`` does not parse: left as it is)."""
    from .._k8s._golayout import canonical_quantity

    if isinstance(v, str) and parse_quantity_error(json_quantity_text(v)) is not None:
        return None
    try:
        text = canonical_quantity(v)
    except ArithmeticError:
        return None
    return None if text == v else text


def _patched(v: Any, t: GoType) -> Any:
    kind = t.kind
    if kind == "quantity":
        tv = type(v)
        if tv is str or tv is int:  # a pure function of the value: remembered (bounded), as the names rules are
            hit = _QUANTITIES.get((tv, v), _MISS)
            if hit is _MISS:
                hit = _patched_quantity(v)
                if len(_QUANTITIES) < 4096:
                    _QUANTITIES[(tv, v)] = hit
            return v if hit is None else hit
        if isinstance(v, (str, int, float)) and not isinstance(v, bool):
            text = _patched_quantity(v)
            return v if text is None else text
        return v
    if kind == "struct":
        if not isinstance(v, dict):
            return v
        walked, added = _struct_plan(t)
        out: dict[str, Any] | None = None
        # the keys are independent: a changed value keeps its place, an added field goes last (in
        # field order), as when the fields are visited in their declared order
        for key, cur in v.items():
            ft = walked.get(key)
            if ft is None or cur is None:
                continue
            new = _patched(cur, ft)
            if new is cur:
                continue
            if out is None:
                out = dict(v)
            out[key] = new
        for key, ft, value_struct in added:
            if key in v:
                continue
            if out is None:
                out = dict(v)
            out[key] = _zero(ft, value_struct)
        return v if out is None else out
    if kind == "slice":
        elem = t.elem
        if not isinstance(v, list) or elem is None or elem.kind not in _WALKED:
            return v
        items = [x if x is None else _patched(x, elem) for x in v]
        return v if all(a is b for a, b in zip(items, v)) else items
    if kind == "map":
        elem = t.elem
        if not isinstance(v, dict) or elem is None or elem.kind not in _WALKED:
            return v
        vals = {k: (x if x is None else _patched(x, elem)) for k, x in v.items()}
        return v if all(vals[k] is v[k] for k in v) else vals
    return v


def go_round_trip(obj: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``obj`` (a defaulted v1beta1 DGD / DCD / DGDR) with what the webhook's patch adds and replaces
    (a new object where something changed; parts that do not decode are left as they are)."""
    root = root_type(schema, str(obj.get("kind")))
    if root is None or not isinstance(obj.get("spec"), dict):
        return obj
    spec_t = root.fields()["spec"][0]
    spec = _patched(obj["spec"], spec_t)
    if spec is obj["spec"]:
        return obj
    out = dict(obj)
    out["spec"] = spec
    return out
