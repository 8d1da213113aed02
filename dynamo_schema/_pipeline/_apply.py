"""``kubectl apply`` of an update over the live object (``validate --old``, every release)."""

from __future__ import annotations

from typing import Any


def apply_over(live: Any, last: Any, new: Any) -> Any:
    """``kubectl apply`` of ``new`` over the ``live`` object last applied as ``last`` (the three-way JSON
    merge patch used for custom resources): maps are merged, lists and scalars replaced, a field the user
    removed (in ``last``, not in ``new``) is deleted, and a field only the server wrote (schema defaults,
    webhook annotations) is kept."""
    if not isinstance(new, dict) or not isinstance(live, dict):
        return new
    prev = last if isinstance(last, dict) else {}
    out: dict[str, Any] = {}
    for k, v in new.items():
        out[k] = apply_over(live[k], prev.get(k), v) if k in live else v
    for k, v in live.items():
        if k in new or k in prev:
            continue
        out[k] = v
    return out
