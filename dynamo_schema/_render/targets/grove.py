"""Target ``grove`` (Grove on): the PodCliqueSet of a DGD and its stable resources."""

from __future__ import annotations

from ..._core._consts import LABEL_WORKER_HASH
from .._admit import admit
from .._checkpoint import CheckpointInfo
from .._checkpointjob import check_compatibility, dgd_checkpoints, has_checkpoints
from .._extras import frontend_ingress, model_services
from .._names import compute_dynamo_namespace, dcd_name
from .._options import RenderOptions
from .._pod import is_k8s_discovery
from .._podcliqueset import render_pcs
from .._provideroverride import compose_grove_overrides
from .._workloads import component_service
from ._common import (
    DGD,
    check_kind,
    dgd_common,
    finish,
    maybe_server_defaults,
    namespace_of,
    worker_hash,
)
from ._target import Target

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def render_grove_target(obj: dict[str, Any], options: RenderOptions) -> list[dict[str, Any]]:
    check_kind(obj, frozenset({DGD}), "grove")
    admitted = admit(obj, options, grove=True)
    check_compatibility(admitted)  # the DGD controller's preflight
    ns = namespace_of(admitted, options)
    # dgd_grove_program.go groveProgram.Reconcile: the shared resources first, then the workloads (the
    # worker hash, the PodCliqueSet), so the first failure is the operator's
    common = dgd_common(admitted, ns, options)
    wh = worker_hash(admitted, options, ns)
    checkpoints: list[dict[str, Any]] = []
    infos: dict[str, CheckpointInfo] = {}
    if has_checkpoints(admitted):
        # the first pass knows no worker hash yet (the workloads record it), the next one does
        checkpoints, infos = dgd_checkpoints(admitted, ns, options, ("", wh))
    pcs = render_pcs(admitted, wh, options, ns, infos)
    compose_grove_overrides(admitted, pcs)  # dgd_grove_workloads_reconciler.go: on the rendered PodCliqueSet
    out: list[dict[str, Any]] = [pcs]
    if any(info.waiting for info in infos.values()):  # no scaling adapters while waiting for a checkpoint
        common = [o for o in common if o.get("kind") != "DynamoGraphDeploymentScalingAdapter"]
    out += common + checkpoints
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
    out += model_services(admitted, ns)  # dgd_grove_stable_resources_reconciler.go: owned by the DGD
    return finish(maybe_server_defaults(out, options), options)


TARGET = Target("grove", frozenset({DGD}), render_grove_target, "Grove on: PodCliqueSet and stable resources")
