"""Kubernetes ``resource.Quantity`` values (``500m``, ``2Gi``, ``1e3``) as exact decimals."""

from __future__ import annotations

import re
import unicodedata
from decimal import MAX_EMAX, MIN_EMIN, ROUND_UP, Context, Decimal, InvalidOperation, localcontext

from .._core._lazyre import lazy

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

# k8s.io/apimachinery/pkg/api/resource: <signedNumber><suffix>, suffix binary, decimal or exponent
_QTY = re.compile(
    r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$"
)
SUFFIX: dict[str, Decimal] = {
    "": Decimal(1),
    "n": Decimal("1e-9"),
    "u": Decimal("1e-6"),
    "m": Decimal("1e-3"),
    "k": Decimal("1e3"),
    "M": Decimal("1e6"),
    "G": Decimal("1e9"),
    "T": Decimal("1e12"),
    "P": Decimal("1e15"),
    "E": Decimal("1e18"),
    "Ki": Decimal(2**10),
    "Mi": Decimal(2**20),
    "Gi": Decimal(2**30),
    "Ti": Decimal(2**40),
    "Pi": Decimal(2**50),
    "Ei": Decimal(2**60),
}


def parse_quantity(v: Any) -> Decimal | None:
    """The value of a quantity (a string, or a JSON number as the API server accepts), else ``None``.

    Like ``resource.ParseQuantity`` the string is not trimmed: ``" 1Gi "`` is not a quantity."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return Decimal(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return None
        return Decimal(repr(v))
    if not isinstance(v, str):
        return None
    parts = split_quantity(v)
    if parts is None:
        return digitless_quantity(v)
    num, suffix = parts
    try:
        # exact: resource.Quantity keeps arbitrary precision (the default context rounds at 28 digits)
        with localcontext(Context(prec=len(num.as_tuple().digits) + 60, Emax=MAX_EMAX, Emin=MIN_EMIN)):
            if suffix in SUFFIX:  # SI or binary, including "E" (exa) and "Ei" (exbi)
                value = num * SUFFIX[suffix]
            else:
                value = num.scaleb(int(suffix[1:]))  # a decimal exponent: "e3", "E-2"
            # ParseQuantity: a value finer than 1n rounds up (away from zero) to 1n; a binary one is capped at
            # MaxInt64 (apimachinery quantity.go)
            if value and int(value.as_tuple().exponent) < -9:
                value = value.quantize(_NANO, rounding=ROUND_UP)
            if suffix in _BINARY and abs(value) > _MAX_INT64:
                value = _MAX_INT64.copy_sign(value)
            return value
    except (ArithmeticError, ValueError):  # exponent beyond what a Decimal holds
        return None


_DIGITLESS = lazy(r"[+-]?\.?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?")  # digitless numbers only


def digitless_quantity(v: str) -> Decimal | None:
    """``ParseQuantity`` of a number without digits (``m``, ``.``, ``+.Mi``, ``e3``): parseQuantityString reads its
    numerator as 0, and the int64 fast path accepts it when its scale is at least nano and, binary, the precision
    left is not negative (up to ``Ti``); otherwise the exact path parses the empty number and refuses it."""
    m = _DIGITLESS.fullmatch(v)
    if not v or m is None:
        return None
    suffix = m.group(1) or ""
    if suffix in _BINARY:
        return Decimal(0) if suffix in ("Ki", "Mi", "Gi", "Ti") else None
    if suffix[:1] in ("e", "E") and len(suffix) > 1:
        return Decimal(0) if int(suffix[1:]) >= -9 else None
    return Decimal(0)
_BINARY = frozenset({"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"})
_NANO = Decimal("1e-9")
_MAX_INT64 = Decimal(2**63 - 1)


def split_quantity(text: str) -> tuple[Decimal, str] | None:
    """``(number, suffix)`` of a quantity string (``"1.5Gi"`` → ``(1.5, "Gi")``, ``"2e3"`` →
    ``(2, "e3")``, ``"7"`` → ``(7, "")``), or ``None`` when ``ParseQuantity`` rejects it. The suffix
    tells the format: binary (``Ki`` …), decimal SI (``m``, ``k`` …, ``""``) or exponent."""
    m = _QTY.fullmatch(text)
    if not m:
        return None
    try:
        return Decimal(m.group(1)), m.group(2) or m.group(3) or ""
    except InvalidOperation:  # pragma: no cover - the pattern only admits decimal numbers
        return None


def _go_is_space(ch: str) -> bool:
    """``unicode.IsSpace``: ``\t \n \v \f \r``, space, U+0085, U+00A0 and the Z categories."""
    return ch in "\t\n\v\f\r \x85\xa0" or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def go_trim_space(s: str) -> str:
    """``strings.TrimSpace``."""
    i, j = 0, len(s)
    while i < j and _go_is_space(s[i]):
        i += 1
    while j > i and _go_is_space(s[j - 1]):
        j -= 1
    return s[i:j]


def json_quantity_text(s: str) -> str:
    """The text ``Quantity.UnmarshalJSON`` parses for the JSON string ``s``: it strips the quotes of the raw JSON
    bytes without unescaping them, then ``strings.TrimSpace``-s. The API server and its webhooks write JSON with
    Go's encoder, which escapes control characters (tab, newline…), the quote, the backslash and U+2028/U+2029: a
    string holding one of those keeps a backslash sequence (not a space, never a valid quantity), so it is
    returned as it is for the parser to refuse; any other string is trimmed."""
    for ch in s:
        if ch < " " or ch in '"\\\u2028\u2029':
            return s
    return go_trim_space(s)


def parse_quantity_json(v: Any) -> Decimal | None:
    """A quantity as a Go program reads it from JSON (``Quantity.UnmarshalJSON``: the string is
    ``strings.TrimSpace``-d before ``ParseQuantity``) — the operator's view of a decoded field.
    The CRD schema pattern and CEL ``quantity()`` use :func:`parse_quantity`, which does not trim."""
    if isinstance(v, str):
        v = json_quantity_text(v)
    return parse_quantity(v)


def quantity_is_zero(v: Any) -> bool:
    """``Quantity.IsZero`` of a field as a Go program decodes it: absent or ``null`` (Go's zero
    ``Quantity``) is zero, else the value as ``Quantity.UnmarshalJSON`` reads it
    (:func:`parse_quantity_json`, exact: ``1e-400`` is not zero); a value that is not a quantity (the
    decoder refuses it) is not zero."""
    if v is None:
        return True
    q = parse_quantity_json(v)
    return q is not None and q == 0
