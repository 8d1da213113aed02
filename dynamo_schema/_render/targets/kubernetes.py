"""Target ``kubernetes`` (Grove off): child DCDs and their Deployments/LeaderWorkerSets, Services, RBAC,
ConfigMaps; a DCD alone renders to its workloads."""

from __future__ import annotations

from typing import Any

from ..._core._datacopy import deepcopy
from .._admit import admit
from .._extras import dcd_ingress, dcd_model_service, frontend_ingress
from .._options import RenderOptions
from .._workloads import render_dcd_workloads
from ._common import (
    DCD,
    DGD,
    check_kind,
    child_dcds,
    child_workloads,
    finish,
    maybe_server_defaults,
    namespace_of,
)
from ._target import Target


def render_kubernetes_target(obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
    check_kind(obj, frozenset({DGD, DCD}), "kubernetes")
    if obj.get("kind") == DCD:
        admitted = admit(obj, options, grove=False)
        ns = namespace_of(admitted, options)
        objs = render_dcd_workloads(admitted, options, ns) + dcd_model_service(admitted, ns) + dcd_ingress(admitted, ns, options)
        return finish(maybe_server_defaults(objs, options), options)
    admitted, dcds, common, ns = child_dcds(obj, options)
    out: list[dict[str, Any]] = list(dcds)
    out += common
    dgd_name = str((admitted.get("metadata") or {}).get("name", ""))
    models: set[str] = set()
    for i, dcd in enumerate(dcds):
        out += child_workloads(deepcopy(dcd), i, options, ns, owner=dgd_name)
        for svc in dcd_model_service(dcd, ns):  # one Service per model, whichever DCD reconciles first
            if svc["metadata"]["name"] not in models:
                models.add(svc["metadata"]["name"])
                out.append(svc)
        if (dcd.get("spec") or {}).get("type") == "frontend":
            out += frontend_ingress(dcd["metadata"]["name"], dgd_name, ns, options)
    return finish(maybe_server_defaults(out, options), options)


TARGET = Target("kubernetes", frozenset({DGD, DCD}), render_kubernetes_target,
                "Grove off: child DCDs, Deployments/LeaderWorkerSets, Services, RBAC, ConfigMaps")
