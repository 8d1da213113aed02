"""What the render targets share: the kind check, the namespace, the child DCDs, the objects every DGD
gets, and the final clean-up of the rendered objects."""

from __future__ import annotations

from collections.abc import Mapping

from .._admit import admit
from .._backend_detect import backend_for_generated_dcds
from .._checkpointjob import check_compatibility, dgd_checkpoints, has_checkpoints, refuse_component_pathway
from .._dra import dgd_claim_templates
from .._envmerge import sort_keys_deep
from .._errors import RenderError
from .._extras import (
    discovery_rbac,
    epp_objects,
    has_multinode,
    scaling_adapters,
    wait_leader_configmap,
)
from .._graph import generate_dcds
from .._options import RenderOptions
from .._pod import is_k8s_discovery
from .._workloads import render_dcd_workloads

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

DGD = "DynamoGraphDeployment"
DCD = "DynamoComponentDeployment"

#: ``RenderOptions.worker_hash_algorithm`` for a render whose objects are only checked, not shown:
#: ``validate``'s reconcile check, which renders again with the real hash when a child is refused. Its worker
#: hash has only the hash's shape (eight lower-case hex digits, as every algorithm gives), and its objects'
#: keys are left in render order (no check reads key order; reconcile asks only whether any child is refused).
#: Not one of ``_workerhash.ALGORITHMS`` (the CLI offers only those).
SHAPE_ONLY_HASH = "-shape-only-"


def worker_hash(admitted: dict[str, Any], options: RenderOptions, ns: str) -> str:
    if options.worker_hash_algorithm == SHAPE_ONLY_HASH:
        # no hash, but the refusals hashing meets (the generated DCDs' backend): a shaped render that
        # succeeds must be one the real hash lets through (a refusal here is decided by the full render)
        backend_for_generated_dcds(admitted)
        return "0" * 8
    from .._workerhash import compute_worker_hash  # hashlib, the Go JSON layouts: only when hashing

    return compute_worker_hash(admitted, options, namespace=ns)


def namespace_of(obj: Mapping[str, Any], options: RenderOptions) -> str:
    return str((obj.get("metadata") or {}).get("namespace") or options.namespace)


def check_kind(obj: Mapping[str, Any], kinds: frozenset[str], target: str) -> None:
    if obj.get("apiVersion") != "nvidia.com/v1beta1" or obj.get("kind") not in kinds:
        raise RenderError.at(
            f"target {target!r} renders {', '.join(sorted(kinds))} (nvidia.com/v1beta1), got {obj.get('apiVersion')}/{obj.get('kind')}",
            rule="render.kind",
        )


def finish(objs: list[dict[str, Any]], options: RenderOptions | None = None) -> list[dict[str, Any]]:
    """The rendered objects, keys sorted at every level (copies); a :data:`SHAPE_ONLY_HASH` render is only
    checked: its objects as they are."""
    if options is not None and options.worker_hash_algorithm == SHAPE_ONLY_HASH:
        return objs
    return [sort_keys_deep(o) for o in objs]


def maybe_server_defaults(objs: list[dict[str, Any]], options: RenderOptions) -> list[dict[str, Any]]:
    if not options.apiserver_defaults:
        return objs
    from .._serverdefaults import apply_server_defaults

    return [apply_server_defaults(o) for o in objs]


def child_dcds(dgd: dict[str, Any], options: RenderOptions) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]], str]:
    """The component pathway of a DGD up to its child DCDs, in the order of ``dgd_component_program.go``
    ``componentProgram.Reconcile`` (so the first failure is the operator's): the checkpoint compatibility
    preflight, the worker hash (worker rollout), the DGD's shared resources (:func:`dgd_common`, with the
    DRA gate), the checkpoints, the multinode orchestrator check, then the DCDs (the workloads step).
    Returns (admitted DGD, DCDs, shared resources, namespace)."""
    admitted = admit(dgd, options, grove=False)
    check_compatibility(admitted)  # the DGD controller's preflight
    ns = namespace_of(admitted, options)
    wh = worker_hash(admitted, options, ns)
    common = dgd_common(admitted, ns, options)
    if has_checkpoints(admitted):
        dgd_checkpoints(admitted, ns, options, (wh,))  # its refusals, then: not rendered on this pathway
        refuse_component_pathway(admitted, options)
    if has_multinode(admitted) and not options.lws_enabled:
        raise RenderError.at("no multinode orchestrator available", ("spec", "components"),
                             rule="render.no-multinode-orchestrator")
    return admitted, generate_dcds(admitted, wh, ns), common, ns


def child_workloads(dcd: dict[str, Any], index: int, options: RenderOptions, ns: str,
                    owner: str | None = None) -> list[dict[str, Any]]:
    """The workloads of the child DCD of ``spec.components[index]`` (``owner``: the DGD); a refusal is
    located at that component of the DGD (the DCD controller's paths are relative to the DCD's ``spec``)."""
    try:
        return render_dcd_workloads(dcd, options, ns, owner=owner)
    except RenderError as exc:
        moved = [d._replace(path=("spec", "components", index) + tuple(d.path[1:]))
                 if tuple(d.path[:1]) == ("spec",) else d for d in exc.diagnostics]
        raise RenderError(str(exc), moved) from exc


def dgd_common(dgd: dict[str, Any], ns: str, options: RenderOptions) -> list[dict[str, Any]]:
    """The objects every DGD gets besides its workloads. The first ones are the shared resources of
    ``dgd_shared_resources_reconciler.go``, built in its order (discovery RBAC, then the DRA claim
    templates' step, the EPP resources, the wait-for-leader ConfigMap), before either pathway renders
    its workloads; the scaling adapters follow (model Services are the pathway's: the Grove stable
    resources with the DGD as owner, the DCD controller on the component pathway)."""
    name = str((dgd.get("metadata") or {}).get("name", ""))
    out: list[dict[str, Any]] = []
    if is_k8s_discovery(options.discovery_backend, (dgd.get("metadata") or {}).get("annotations") or {}):
        out += discovery_rbac(name, ns)
    out += dgd_claim_templates(dgd, ns, options)  # the DRA gate (dgdGMSResourceClaimsReconciler)
    out += epp_objects(dgd, ns, options.service_mesh)
    if has_multinode(dgd):
        out.append(wait_leader_configmap(name, ns))
    out += scaling_adapters(dgd, ns)
    return out
