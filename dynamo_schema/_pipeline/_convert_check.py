"""What ``convert`` says about a converted object the v1beta1 schema would refuse as input.

The v1alpha1 CRD accepts values the v1beta1 one does not (``componentType: main``: any string in
v1alpha1, an enum in v1beta1). Upstream conversion copies them verbatim and the API server does not
check the converted object against the v1beta1 schema, so the v1alpha1 object is admitted; but the
converted file, applied as v1beta1, would be refused. ``convert`` warns (``convert.legacy-value``),
located at the field of the v1alpha1 document.
"""

from __future__ import annotations

from typing import Any

from .._core._diagnostics import Diagnostic


def legacy_value_warnings(alpha: dict[str, Any], converted: dict[str, Any]) -> list[Diagnostic]:
    from .._schema import _schemas, _structural
    from ._validate import alpha_path

    schema = _schemas.for_object(str(converted.get("apiVersion")), str(converted.get("kind")))
    if schema is None:
        return []
    pruned, _ = _structural.prune_nulls(converted, schema)
    out = []
    for d in _structural.validate(pruned, schema, strict=True, status_subresource=True):
        if d.severity != "error":
            continue
        mapped, exact = alpha_path(tuple(d.path), alpha, converted)
        if not exact and len(d.path) == 4 and d.path[-1] == "type" and len(mapped) == 3:
            mapped, exact = mapped + ("componentType",), True  # a component's type: the service's componentType
        where = "" if exact else f"{d.field}: "
        out.append(d._replace(rule="convert.legacy-value", severity="warning", path=mapped,
                           message=f"{where}{d.message} (valid v1alpha1, copied verbatim by the conversion; "
                                   f"not valid as nvidia.com/v1beta1 input: {d.rule})"))
    return out
