"""Kubernetes ``resource.Quantity`` values (``500m``, ``2Gi``, ``1e3``) as exact decimals."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
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
    """The value of a quantity (a string, or a JSON number as the API server accepts), else ``None``."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return Decimal(v)
    if isinstance(v, float):
        try:
            return Decimal(repr(v))
        except InvalidOperation:  # pragma: no cover
            return None
    if not isinstance(v, str):
        return None
    m = _QTY.match(v.strip())
    if not m:
        return None
    try:
        num = Decimal(m.group(1))
        if m.group(2):
            return num * (Decimal(10) ** int(m.group(2)[1:]))
        return num * SUFFIX[m.group(3) or ""]
    except (InvalidOperation, OverflowError):  # pragma: no cover
        return None
