"""Go value formatting, the one place that knows how Go (and Kubernetes) print values in messages.

Lowest layer, stdlib only. Which function to use depends on which Go code printed the message:

* :func:`go_quote` — ``strconv.Quote`` / ``%q`` of a string.
* :func:`go_float` — ``%v`` of a ``float64`` (``strconv.FormatFloat(f, 'g', -1, 64)``).
* :func:`go_v` — ``%v`` of a decoded (unstructured) JSON value: ``map[a:1 b:x]``, ``[a b]``, ``<nil>``.
* :func:`go_sharp_v` — ``%#v`` of a decoded value: ``map[string]interface {}{"a":1}``
  (``map[interface {}]interface {}`` for go-yaml v2 values via ``map_type``).
* :func:`go_json` — ``encoding/json.Marshal`` (compact, HTML-safe escapes, Go number format).
* :func:`go_list` — ``%v`` of a ``[]string``: ``[a b c]``; :func:`go_type` — ``%T`` of a decoded value.
* :func:`go_scalar` — the boolean/number/string case the printers above share (``None`` otherwise).
* :func:`field_value` — how ``field.Error.ErrorBody`` prints a bad value in apimachinery ≥ v0.34
  (kubernetes#132314): ``int64/int32/float64/float32/bool`` with ``%v``, strings ``%q``, everything
  else ``json.Marshal`` (nil → ``null``, maps and structs as JSON). The operator's webhooks use this.
* :func:`field_value_v033` — the same for apimachinery ≤ v0.33 (the apiextensions-apiserver that
  the structural-schema messages were captured from): nil → ``"null"`` (the *string* "null"),
  composites with ``%#v``.
* :func:`field_error` — a whole ``ErrorBody()``: ``<Type>: <value>: <detail>``.
"""

from __future__ import annotations

import math
import struct
from decimal import Decimal

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = [
    "OMIT",
    "field_error",
    "field_value",
    "field_value_v033",
    "go_float",
    "go_json",
    "go_list",
    "go_quote",
    "go_scalar",
    "go_sharp_v",
    "go_type",
    "go_v",
    "json_kind",
]

# --------------------------------------------------------------------------------------- strings

_QUOTE_ESC = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


#: Where Go's ``unicode.IsPrint`` (Unicode 15.0.0: Go 1.26, the operator's and the API server's toolchain) and
#: ``str.isprintable`` disagree, by the Unicode version of the running Python: the printable characters Unicode
#: assigned after that version up to 15.0.0 (Python 3.10: 13.0.0, 3.11: 14.0.0), or those assigned after 15.0.0
#: (Python 3.13: 15.1.0). Found by comparing every code point with Go's ``strconv.Quote`` (D59); a later Unicode
#: version than these falls back to ``str.isprintable``.
_PRINT_DELTA: dict[str, tuple[tuple[int, int], ...]] = {
    "13.0.0": (
        (0x61d, 0x61d), (0x870, 0x88e), (0x898, 0x89f), (0x8b5, 0x8b5), (0x8c8, 0x8d2), (0xc3c, 0xc3c), (0xc5d, 0xc5d),
        (0xcdd, 0xcdd), (0xcf3, 0xcf3), (0xece, 0xece), (0x170d, 0x170d), (0x1715, 0x1715), (0x171f, 0x171f),
        (0x180f, 0x180f), (0x1ac1, 0x1ace), (0x1b4c, 0x1b4c), (0x1b7d, 0x1b7e), (0x1dfa, 0x1dfa), (0x20c0, 0x20c0),
        (0x2c2f, 0x2c2f), (0x2c5f, 0x2c5f), (0x2e53, 0x2e5d), (0x9ffd, 0x9fff), (0xa7c0, 0xa7c1), (0xa7d0, 0xa7d1),
        (0xa7d3, 0xa7d3), (0xa7d5, 0xa7d9), (0xa7f2, 0xa7f4), (0xfbc2, 0xfbc2), (0xfd40, 0xfd4f), (0xfdcf, 0xfdcf),
        (0xfdfe, 0xfdff), (0x10570, 0x1057a), (0x1057c, 0x1058a), (0x1058c, 0x10592), (0x10594, 0x10595),
        (0x10597, 0x105a1), (0x105a3, 0x105b1), (0x105b3, 0x105b9), (0x105bb, 0x105bc), (0x10780, 0x10785),
        (0x10787, 0x107b0), (0x107b2, 0x107ba), (0x10efd, 0x10eff), (0x10f70, 0x10f89), (0x11070, 0x11075),
        (0x110c2, 0x110c2), (0x1123f, 0x11241), (0x116b9, 0x116b9), (0x11740, 0x11746), (0x11ab0, 0x11abf),
        (0x11b00, 0x11b09), (0x11f00, 0x11f10), (0x11f12, 0x11f3a), (0x11f3e, 0x11f59), (0x12f90, 0x12ff2),
        (0x1342f, 0x1342f), (0x13440, 0x13455), (0x16a70, 0x16abe), (0x16ac0, 0x16ac9), (0x1aff0, 0x1aff3),
        (0x1aff5, 0x1affb), (0x1affd, 0x1affe), (0x1b11f, 0x1b122), (0x1b132, 0x1b132), (0x1b155, 0x1b155),
        (0x1cf00, 0x1cf2d), (0x1cf30, 0x1cf46), (0x1cf50, 0x1cfc3), (0x1d1e9, 0x1d1ea), (0x1d2c0, 0x1d2d3),
        (0x1df00, 0x1df1e), (0x1df25, 0x1df2a), (0x1e030, 0x1e06d), (0x1e08f, 0x1e08f), (0x1e290, 0x1e2ae),
        (0x1e4d0, 0x1e4f9), (0x1e7e0, 0x1e7e6), (0x1e7e8, 0x1e7eb), (0x1e7ed, 0x1e7ee), (0x1e7f0, 0x1e7fe),
        (0x1f6dc, 0x1f6df), (0x1f774, 0x1f776), (0x1f77b, 0x1f77f), (0x1f7d9, 0x1f7d9), (0x1f7f0, 0x1f7f0),
        (0x1f979, 0x1f979), (0x1f9cc, 0x1f9cc), (0x1fa75, 0x1fa77), (0x1fa7b, 0x1fa7c), (0x1fa87, 0x1fa88),
        (0x1faa9, 0x1faaf), (0x1fab7, 0x1fabd), (0x1fabf, 0x1fabf), (0x1fac3, 0x1fac5), (0x1face, 0x1facf),
        (0x1fad7, 0x1fadb), (0x1fae0, 0x1fae8), (0x1faf0, 0x1faf8), (0x2a6de, 0x2a6df), (0x2b735, 0x2b739),
        (0x31350, 0x323af),
    ),
    "14.0.0": (
        (0xcf3, 0xcf3), (0xece, 0xece), (0x10efd, 0x10eff), (0x1123f, 0x11241), (0x11b00, 0x11b09), (0x11f00, 0x11f10),
        (0x11f12, 0x11f3a), (0x11f3e, 0x11f59), (0x1342f, 0x1342f), (0x13440, 0x13455), (0x1b132, 0x1b132),
        (0x1b155, 0x1b155), (0x1d2c0, 0x1d2d3), (0x1df25, 0x1df2a), (0x1e030, 0x1e06d), (0x1e08f, 0x1e08f),
        (0x1e4d0, 0x1e4f9), (0x1f6dc, 0x1f6dc), (0x1f774, 0x1f776), (0x1f77b, 0x1f77f), (0x1f7d9, 0x1f7d9),
        (0x1fa75, 0x1fa77), (0x1fa87, 0x1fa88), (0x1faad, 0x1faaf), (0x1fabb, 0x1fabd), (0x1fabf, 0x1fabf),
        (0x1face, 0x1facf), (0x1fada, 0x1fadb), (0x1fae8, 0x1fae8), (0x1faf7, 0x1faf8), (0x2b739, 0x2b739),
        (0x31350, 0x323af),
    ),
    "15.1.0": (
        (0x2ffc, 0x2fff), (0x31ef, 0x31ef), (0x2ebf0, 0x2ee5d),
    ),
}


def _go_is_print(ch: str) -> bool:
    """``unicode.IsPrint`` of Unicode 15.0.0 (see :data:`_PRINT_DELTA`)."""
    printable = ch.isprintable()
    if ch < "\u0600":  # below the first character any delta holds: Python's answer is Go's
        return printable
    global _DELTA
    if _DELTA is None:
        import unicodedata

        _DELTA = _PRINT_DELTA.get(unicodedata.unidata_version, ())
    if _DELTA:
        import bisect

        cp = ord(ch)
        i = bisect.bisect_right(_DELTA, (cp, 0x110000)) - 1
        if i >= 0 and _DELTA[i][0] <= cp <= _DELTA[i][1]:
            return not printable
    return printable


_DELTA: tuple[tuple[int, int], ...] | None = None


def go_quote(s: str) -> str:
    """``strconv.Quote(s)``: a double-quoted Go string literal.

    Printable runes (``unicode.IsPrint``: letters, marks, numbers, punctuation, symbols and the
    ASCII space) are kept as they are; ``\\a \\b \\f \\n \\r \\t \\v \\\\ \\"`` use their short
    escapes; other runes below U+0080 are ``\\xhh``, the rest ``\\uhhhh`` / ``\\Uhhhhhhhh``
    (lower-case hex). ``strconv.Quote("a\\x07b")`` is ``"a\\ab"``.
    """
    out = ['"']
    for ch in s:
        esc = _QUOTE_ESC.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch == " " or _go_is_print(ch):  # Go's IsPrint set (Python's, for its Unicode version's delta)
            out.append(ch)
        else:
            cp = ord(ch)
            if cp < 0x80:
                out.append(f"\\x{cp:02x}")
            elif 0xD800 <= cp <= 0xDFFF:  # a lone surrogate is invalid UTF-8: Go prints U+FFFD's bytes
                out.append("\\ufffd")
            elif cp <= 0xFFFF:
                out.append(f"\\u{cp:04x}")
            else:
                out.append(f"\\U{cp:08x}")
    out.append('"')
    return "".join(out)


# --------------------------------------------------------------------------------------- numbers


def _shortest_digits(f: float) -> tuple[str, int, bool]:
    """Shortest round-trip decimal digits of ``abs(f)`` (no trailing zeros), the decimal point
    position ``dp`` (value = 0.digits × 10**dp) and the sign."""
    sign, digits_t, exp = Decimal(repr(f)).as_tuple()
    assert isinstance(exp, int)
    raw = "".join(map(str, digits_t))
    digits = raw.rstrip("0") or "0"
    return digits, len(raw) + exp, bool(sign)


def _f32(x: float) -> float:
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _shortest_digits32(f: float) -> tuple[str, int, bool]:
    """:func:`_shortest_digits` for the float32 nearest ``f`` (shortest digits that round-trip
    through float32)."""
    v = _f32(f)
    for prec in range(9):
        s = f"{v:.{prec}e}"
        if _f32(float(s)) == v:
            break
    return _shortest_digits(float(s))


def go_float(f: float, bits: int = 64) -> str:
    """``%v`` of a ``float64`` (``strconv.FormatFloat(f, 'g', -1, 64)``): ``1``, ``0.5``,
    ``1e+06``, ``1.23456789e+08``, ``1e-05``, ``NaN``, ``+Inf``; ``bits=32`` formats the float32
    nearest ``f`` (``FormatFloat(f, 'g', -1, 32)``; raises ``OverflowError`` beyond float32)."""
    if bits == 32 and math.isfinite(f):
        f = _f32(f)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    digits, dp, negative = _shortest_digits32(f) if bits == 32 else _shortest_digits(f)
    neg = "-" if negative else ""
    x = dp - 1
    eprec = 6  # shortest 'g': strconv decides %e against precision 6
    if x < -4 or x >= eprec:
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{neg}{mant}e{'-' if x < 0 else '+'}{abs(x):02d}"
    return neg + _fixed(digits, dp)


def _fixed(digits: str, dp: int) -> str:
    if dp <= 0:
        return "0." + "0" * (-dp) + digits
    if dp >= len(digits):
        return digits + "0" * (dp - len(digits))
    return digits[:dp] + "." + digits[dp:]


def _json_float(f: float) -> str:
    """``encoding/json`` float64: ``'f'`` format, ``'e'`` below 1e-6 / from 1e21 (``e-07`` → ``e-7``)."""
    if math.isnan(f) or math.isinf(f):
        raise ValueError(f"json: unsupported value: {go_float(f)}")
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    digits, dp, negative = _shortest_digits(f)
    neg = "-" if negative else ""
    a = abs(f)
    if a < 1e-6 or a >= 1e21:
        x = dp - 1
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        exp = f"{abs(x):02d}"
        if x < 0 and exp[0] == "0":
            exp = exp[1:]
        return f"{neg}{mant}e{'-' if x < 0 else '+'}{exp}"
    return neg + _fixed(digits, dp)


# --------------------------------------------------------------------------------------- %v, %#v


def go_scalar(
    v: Any, quote: Callable[[str], str] = go_quote, number: Callable[[float], str] = go_float
) -> str | None:
    """A boolean, integer, float or string as most Go printers write it: ``true``/``false``,
    decimal integers, ``number(f)`` for floats (``%v`` by default) and ``quote(s)`` for strings
    (``%q`` by default); ``None`` for anything else (nil, maps, lists), which the caller prints."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return number(v)
    if isinstance(v, str):
        return quote(v)
    return None


def go_v(v: Any) -> str:
    """``%v`` of a decoded JSON value (``map[string]interface {}`` keys sorted, as ``fmt`` does)."""
    if v is None:
        return "<nil>"
    scalar = go_scalar(v, str)
    if scalar is not None:
        return scalar
    if isinstance(v, dict):
        return "map[" + " ".join(f"{go_v(k)}:{go_v(v[k])}" for k in _sorted_keys(v)) + "]"
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(go_v(x) for x in v) + "]"
    return str(v)


def go_type(v: Any) -> str:
    """``%T`` of a value decoded by apimachinery's unstructured JSON decoder (integers are int64)."""
    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, str):
        return "string"
    if isinstance(v, dict):
        return "map[string]interface {}"
    if isinstance(v, (list, tuple)):
        return "[]interface {}"
    return type(v).__name__


def json_kind(v: Any) -> str:
    """encoding/json's name of a decoded JSON value in an ``UnmarshalTypeError`` (``json: cannot unmarshal
    <kind> into Go value of type ...``): ``bool``, ``number``, ``string``, ``array``, ``object``. A JSON
    ``null`` never causes one (Go decodes it into any type): callers handle ``None`` first."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def go_list(items: list[str]) -> str:
    """``%v`` of a ``[]string``: ``[a b c]``."""
    return "[" + " ".join(items) + "]"


def _sorted_keys(d: dict[Any, Any]) -> list[Any]:
    """``fmt`` prints maps with sorted keys (``internal/fmtsort``); keys of mixed types keep
    their order (Go orders them by type identity, which is not observable here)."""
    keys = list(d)
    kinds = {type(k) for k in keys}
    if len(kinds) <= 1 or kinds <= {int, float}:
        try:
            return sorted(keys)
        except TypeError:  # pragma: no cover - unorderable keys
            return keys
    return keys


def go_sharp_v(v: Any, map_type: str = "map[string]interface {}", *, top: bool = True) -> str:
    """``%#v`` of a decoded value held in an ``interface{}``.

    ``map_type`` is the Go map type the decoder produced (``map[string]interface {}`` for JSON,
    ``map[interface {}]interface {}`` for go-yaml v2). A nil at the top is ``<nil>``, a nil inside
    a composite ``interface {}(nil)``.
    """
    if v is None:
        return "<nil>" if top else "interface {}(nil)"
    scalar = go_scalar(v)
    if scalar is not None:
        return scalar
    if isinstance(v, dict):
        inner = ", ".join(
            f"{go_sharp_v(k, map_type, top=False)}:{go_sharp_v(v[k], map_type, top=False)}" for k in _sorted_keys(v)
        )
        return map_type + "{" + inner + "}"
    if isinstance(v, (list, tuple)):
        return "[]interface {}{" + ", ".join(go_sharp_v(x, map_type, top=False) for x in v) + "}"
    return repr(v)


# --------------------------------------------------------------------------------------- JSON

# Go >= 1.22 writes \b and \f short; other control characters \u00XX; HTML characters escaped
_JSON_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f",
             "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _json_string(s: str) -> str:
    if (s.isascii() and s.isprintable() and '"' not in s and "\\" not in s and "<" not in s and ">" not in s
            and "&" not in s):
        return '"' + s + '"'  # printable ASCII with nothing to escape: as it is (_json_escaped agrees)
    return _json_escaped(s)


def _json_escaped(s: str) -> str:
    """Go's ``encoding/json`` string, character by character."""
    out = ['"']
    for ch in s:
        esc = _JSON_ESC.get(ch)
        if esc is not None:
            out.append(esc)
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            out.append("\\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_json(v: Any, *, sort_keys: bool = False) -> str:
    """``json.Marshal(v)`` of plain data, compact, with Go's escapes (``<`` → ``\\u003c``, …) and
    number format. Mappings keep their order unless ``sort_keys`` (Go sorts ``map`` keys; a struct
    keeps its declared field order, so callers pass structs already ordered). Raises
    ``ValueError`` for NaN/Inf, as Go does."""
    if v is None:
        return "null"
    scalar = go_scalar(v, _json_string, _json_float)
    if scalar is not None:
        return scalar
    if isinstance(v, dict):
        keys = sorted(v, key=str) if sort_keys else list(v)
        return "{" + ",".join(f"{_json_string(str(k))}:{go_json(v[k], sort_keys=sort_keys)}" for k in keys) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(go_json(x, sort_keys=sort_keys) for x in v) + "]"
    raise ValueError(f"json: unsupported type: {type(v).__name__}")


# --------------------------------------------------------------------------------------- field errors


class _Omit:
    """``field.OmitValueType``: the error body prints no value."""

    def __repr__(self) -> str:
        return "OMIT"


OMIT: Any = _Omit()


def field_value(v: Any) -> str:
    """A bad value as ``field.Error.ErrorBody`` prints it (apimachinery ≥ v0.34): bare numbers and
    booleans, ``%q`` for strings, ``json.Marshal`` for nil (``null``), maps, slices and structs."""
    scalar = go_scalar(v)
    if scalar is not None:
        return scalar
    try:
        return go_json(v)
    except ValueError:  # NaN/Inf inside a composite: Go falls back to %#v
        return go_sharp_v(v)


def field_value_v033(v: Any) -> str:
    """A bad value as ``ErrorBody`` printed it up to apimachinery v0.33 (the apiextensions-apiserver
    messages): nil → ``"null"``, bare numbers and booleans, ``%q`` strings, ``%#v`` composites."""
    if v is None:
        return '"null"'
    scalar = go_scalar(v)
    return scalar if scalar is not None else go_sharp_v(v)


def field_error(
    type_: str, value: Any = OMIT, detail: str = "", *, render: Callable[[Any], str] = field_value
) -> str:
    """``field.Error.ErrorBody()``: ``<Type>[: <value>][: <detail>]`` (no leading field path).

    ``type_`` is the printed type (``Invalid value``, ``Unsupported value``, ``Duplicate value``,
    ``Required value``, ``Forbidden``, …); ``value`` is left out when it is :data:`OMIT`; a value
    that is already rendered can be passed with ``render=str``.
    """
    s = type_ if value is OMIT else f"{type_}: {render(value)}"
    return f"{s}: {detail}" if detail else s
