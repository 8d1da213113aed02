"""Go's ``hash/fnv`` 32-bit FNV-1a (``fnv.New32a``), which the operator uses to shorten names
(``PCSNameForDGD`` and the other truncated names): the one copy."""

from __future__ import annotations


def fnv32a(data: bytes) -> int:
    """FNV-1a, 32 bit: offset basis 0x811C9DC5, prime 0x01000193."""
    h = 0x811C9DC5
    for b in data:
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h
