"""DynamoGraphDeploymentScalingAdapter nvidia.com/v1alpha1 <-> v1beta1.

The two CRD versions differ in one field: the target is ``spec.dgdRef.serviceName`` (the DGD's
``spec.services`` key) in v1alpha1 and ``spec.dgdRef.componentName`` (the ``name`` of its
``spec.components`` entry) in v1beta1, the same string since the DGD conversion keys components by
service name. Everything else (``replicas``, ``status``, metadata) is copied.
"""

from __future__ import annotations

from .._core._consts import V1ALPHA1 as ALPHA
from ._json import JSONObject, dc

_FIELD = {ALPHA: ("componentName", "serviceName"), "nvidia.com/v1beta1": ("serviceName", "componentName")}


def convert_dgdsa(obj: JSONObject, api: str) -> JSONObject:
    """``obj`` (the other version) in ``api``; input untouched."""
    out = dc(obj)
    out["apiVersion"] = api
    spec = out.get("spec")
    ref = spec.get("dgdRef") if isinstance(spec, dict) else None
    if isinstance(ref, dict):
        src, dst = _FIELD[api]
        if src in ref:
            value = ref.pop(src)
            ref[dst] = value
    return out
