"""The render targets (plug-ins): ``dcd``, ``kubernetes``, ``grove``.

Each target is an object with ``name``, ``kinds`` (input kinds it accepts) and
``render(obj, options) -> list[dict]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .._core._consts import LABEL_WORKER_HASH
from ._extras import (
    dcd_ingress,
    discovery_rbac,
    epp_objects,
    frontend_ingress,
    has_multinode,
    model_services,
    scaling_adapters,
    wait_leader_configmap,
)
from ._graph import admit, generate_dcds, strip_private
from ._grove import render_pcs
from ._merge import sort_keys_deep
from ._names import compute_dynamo_namespace, dcd_name
from ._options import RenderError, RenderOptions
from ._pod import is_k8s_discovery
from ._workloads import component_service, render_dcd_workloads

DGD = "DynamoGraphDeployment"
DCD = "DynamoComponentDeployment"

#: ``RenderOptions.worker_hash_algorithm`` for a render whose worker hash needs only the hash's shape (eight
#: lower-case hex digits, as every algorithm gives): ``validate``'s reconcile check, which renders again with
#: the real hash when a child is refused. Not one of ``_workerhash.ALGORITHMS`` (the CLI offers only those).
SHAPE_ONLY_HASH = "-shape-only-"


def _worker_hash(admitted: dict[str, Any], options: RenderOptions, ns: str) -> str:
    if options.worker_hash_algorithm == SHAPE_ONLY_HASH:
        return "0" * 8
    from ._workerhash import compute_worker_hash  # hashlib, the Go JSON layouts: only when hashing

    return compute_worker_hash(admitted, options, namespace=ns)


@dataclass(frozen=True)
class Target:
    name: str
    kinds: frozenset[str]
    _render: Callable[[dict[str, Any], RenderOptions], list[dict[str, Any]]]
    description: str = ""

    def render(self, obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
        return self._render(obj, options)


def _namespace(obj: Mapping[str, Any], options: RenderOptions) -> str:
    return str((obj.get("metadata") or {}).get("namespace") or options.namespace)


def _check_kind(obj: Mapping[str, Any], kinds: frozenset[str], target: str) -> None:
    if obj.get("apiVersion") != "nvidia.com/v1beta1" or obj.get("kind") not in kinds:
        raise RenderError(
            f"target {target!r} renders {', '.join(sorted(kinds))} (nvidia.com/v1beta1), got {obj.get('apiVersion')}/{obj.get('kind')}",
            rule="render.kind",
        )


def _finish(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [sort_keys_deep(strip_private(o)) for o in objs]


def _maybe_server_defaults(objs: list[dict[str, Any]], options: RenderOptions) -> list[dict[str, Any]]:
    if not options.apiserver_defaults:
        return objs
    from ._apiserver import apply_server_defaults

    return [apply_server_defaults(o) for o in objs]


def _child_dcds(dgd: dict[str, Any], options: RenderOptions) -> tuple[dict[str, Any], list[dict[str, Any]], str, str]:
    admitted = admit(dgd, options, grove=False)
    ns = _namespace(admitted, options)
    wh = _worker_hash(admitted, options, ns)
    return admitted, generate_dcds(admitted, wh, ns), wh, ns


def render_dcd_target(obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
    _check_kind(obj, frozenset({DGD}), "dcd")
    _, dcds, _, _ = _child_dcds(obj, options)
    return _finish(dcds)


def _dgd_common(dgd: dict[str, Any], ns: str, options: RenderOptions) -> list[dict[str, Any]]:
    name = str((dgd.get("metadata") or {}).get("name", ""))
    out: list[dict[str, Any]] = []
    if is_k8s_discovery(options.discovery_backend, (dgd.get("metadata") or {}).get("annotations") or {}):
        out += discovery_rbac(name, ns)
    if has_multinode(dgd):
        out.append(wait_leader_configmap(name, ns))
    out += epp_objects(dgd, ns)
    out += model_services(dgd, ns)
    out += scaling_adapters(dgd, ns)
    return out


def render_kubernetes_target(obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
    _check_kind(obj, frozenset({DGD, DCD}), "kubernetes")
    if obj.get("kind") == DCD:
        admitted = admit(obj, options, grove=False)
        ns = _namespace(admitted, options)
        objs = render_dcd_workloads(admitted, options, ns) + dcd_ingress(admitted, ns, options)
        return _finish(_maybe_server_defaults(objs, options))
    admitted, dcds, _, ns = _child_dcds(obj, options)
    out: list[dict[str, Any]] = list(dcds)
    out += _dgd_common(admitted, ns, options)
    dgd_name = str((admitted.get("metadata") or {}).get("name", ""))
    for dcd in dcds:
        out += render_dcd_workloads(strip_private(dcd), options, ns)
        if (dcd.get("spec") or {}).get("type") == "frontend":
            out += frontend_ingress(dcd["metadata"]["name"], dgd_name, ns, options)
    return _finish(_maybe_server_defaults(out, options))


def render_grove_target(obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
    _check_kind(obj, frozenset({DGD}), "grove")
    admitted = admit(obj, options, grove=True)
    ns = _namespace(admitted, options)
    wh = _worker_hash(admitted, options, ns)
    out: list[dict[str, Any]] = [render_pcs(admitted, wh, options, ns)]
    out += _dgd_common(admitted, ns, options)
    meta = admitted.get("metadata") or {}
    dgd_name = str(meta.get("name", ""))
    spec = admitted.get("spec") or {}
    k8s = is_k8s_discovery(options.discovery_backend, meta.get("annotations") or {})
    ingress: list[dict[str, Any]] = []
    for comp in spec.get("components") or []:
        ctype = str(comp.get("type") or "")
        if not (k8s or ctype == "frontend"):
            continue
        name = str(comp.get("name", ""))
        pt_meta = ((comp.get("podTemplate") or {}).get("metadata") or {})
        labels = dict(spec.get("labels") or {})
        labels.update(pt_meta.get("labels") or {})
        if ctype in ("worker", "prefill", "decode") and wh:
            # groveRenderDeployment stamps the worker hash on worker pod templates first.
            labels[LABEL_WORKER_HASH] = wh
        annotations = dict(spec.get("annotations") or {})
        annotations.update(pt_meta.get("annotations") or {})
        if ctype == "frontend":
            ingress += frontend_ingress(dcd_name(dgd_name, name, None, ""), dgd_name, ns, options)
        out.append(component_service(
            dcd_name(dgd_name, name, None, ""), ns, ctype,
            compute_dynamo_namespace(bool(comp.get("globalDynamoNamespace")), ns, dgd_name), name, labels, annotations, k8s,
        ))
    out += ingress
    return _finish(_maybe_server_defaults(out, options))


TARGETS: dict[str, Target] = {
    "dcd": Target("dcd", frozenset({DGD}), render_dcd_target, "the child DynamoComponentDeployments of a DGD"),
    "kubernetes": Target("kubernetes", frozenset({DGD, DCD}), render_kubernetes_target,
                         "Grove off: child DCDs, Deployments/LeaderWorkerSets, Services, RBAC, ConfigMaps"),
    "grove": Target("grove", frozenset({DGD}), render_grove_target, "Grove on: PodCliqueSet and stable resources"),
}
