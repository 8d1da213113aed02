"""Byte-exact Go ``encoding/json`` output for the Kubernetes types the worker hash covers.

The Go struct layouts and the encoder live in :mod:`dynamo_schema._k8s._golayout` (shared with the
converter's preservation annotations); this module keeps the renderer's entry points.
"""

from __future__ import annotations

from typing import Any

from .._k8s._golayout import canonical_quantity, go_marshal
from .._k8s._golayout import encode as _layout_encode

__all__ = ["canonical_quantity", "encode", "go_marshal"]


def encode(value: Any, type_name: str | None) -> Any:
    """``value`` as an ordered structure whose ``go_marshal`` is ``json.Marshal`` of Go type
    ``type_name`` (a layout of :data:`dynamo_schema._k8s._golayout.LAYOUTS`, ``list:<type>`` or
    ``None`` for untyped data)."""
    return _layout_encode(value, type_name)
