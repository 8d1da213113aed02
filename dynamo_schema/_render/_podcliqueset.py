"""DGD → Grove PodCliqueSet (``GenerateGrovePodCliqueSet``, ``buildCliqueForRole``, ``generateLabels``).

Facts from ``grove.md`` §8–§9 and upstream ``internal/dynamo/graph.go``/``grove.go``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import (
    ANN_DISCOVERY_BACKEND,
    ANN_ENABLE_METRICS,
    ANN_GROVE_UPDATE_STRATEGY,
    LABEL_BASE_MODEL_HASH,
    LABEL_COMPONENT,
    LABEL_COMPONENT_TYPE,
    LABEL_WORKER_HASH,
)
from .._core._consts import ANN_DISCOVERY_BACKEND as LABEL_DISCOVERY_BACKEND
from .._core._datacopy import deepcopy
from . import _gmsinterpod as gmsip
from . import _kvtransfer as kv
from ._alphacompat import dgd_alpha_annotations, dgd_alpha_metadata
from ._backend_detect import component_backend
from ._checkpoint import CheckpointInfo, apply_clique_metadata
from ._dra import is_inter_pod_failover
from ._errors import RenderError
from ._gmsinterpod import clique_startup_dependencies as startup_dependencies  # noqa: F401  (getCliqueStartupDependencies)
from ._graph import (
    LABEL_COMPONENT_CLASS,
    LABEL_DGD_NAME,
    LABEL_NAMESPACE,
    apply_dgd_template_defaults,
    ensure_pod_template,
    has_epp,
    propagate_dgd_annotations,
)
from ._names import (
    compute_dynamo_namespace,
    dcd_name,
    is_inter_pod_gms,
    is_worker_type,
    model_hash,
    node_count,
    pcs_name,
    uses_pcsg,
)
from ._options import RenderOptions
from ._pod import discovery_backend, generate_pod_spec
from ._podrequest import PodRequest, pod_template_annotations, pod_template_labels
from ._workloads import (
    LABEL_DISCOVERY_ENABLED,
    LABEL_METRICS,
    LABEL_SELECTOR,
    LABEL_SUB_TYPE,
)

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

ANN_KAI_QUEUE = "nvidia.com/kai-scheduler-queue"
ANN_VOLCANO_QUEUE = "nvidia.com/volcano-queue"
ANN_GROVE_VOLCANO_QUEUE = "scheduling.grove.io/volcano-queue"


def _roles(name: str, component: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """``expandRolesForComponent`` as (name, role, replicas); render uses ``_gmsinterpod.expand_roles``, which
    also gives each role its node rank."""
    return [(n, role, replicas) for n, role, replicas, _ in gmsip.expand_roles(name, component)]


def _labels(component: Mapping[str, Any], dgd: Mapping[str, Any], name: str, namespace: str, disc_backend: str) -> dict[str, str]:
    dgd_name = str((dgd.get("metadata") or {}).get("name", ""))
    ctype = str(component.get("type") or "")
    dyn_ns = compute_dynamo_namespace(bool(component.get("globalDynamoNamespace")), namespace, dgd_name)
    alpha = dgd_alpha_metadata(dgd, name)  # getDGDComponentAlphaSubComponentType
    sub = str(alpha.get("subComponentType") or "") if alpha is not None else (ctype if ctype in ("prefill", "decode") else "")

    def system(labels: dict[str, str]) -> None:
        labels[LABEL_SELECTOR] = dcd_name(dgd_name, name, None, "")
        labels[LABEL_DGD_NAME] = dgd_name
        labels[LABEL_COMPONENT] = name
        if ctype:
            labels[LABEL_COMPONENT_TYPE] = ctype
        if has_epp(dgd) and is_worker_type(ctype):
            labels[LABEL_COMPONENT_CLASS] = "worker"
        if sub:
            labels[LABEL_SUB_TYPE] = sub
        labels[LABEL_NAMESPACE] = dyn_ns

    labels: dict[str, str] = {}
    system(labels)
    model = (component.get("modelRef") or {}).get("name")
    if model:
        labels[LABEL_BASE_MODEL_HASH] = model_hash(str(model))
    if ((dgd.get("metadata") or {}).get("annotations") or {}).get(ANN_ENABLE_METRICS) != "false":
        labels[LABEL_METRICS] = "true"
    labels.update((dgd.get("spec") or {}).get("labels") or {})
    labels.update((alpha or {}).get("labels") or {})
    labels.update(pod_template_labels(component))
    system(labels)
    wh = pod_template_labels(component).get(LABEL_WORKER_HASH)
    if wh:
        labels[LABEL_WORKER_HASH] = wh
    if disc_backend == "kubernetes":
        labels[LABEL_DISCOVERY_BACKEND] = "kubernetes"
        labels[LABEL_DISCOVERY_ENABLED] = "true"
    return labels


def _annotations(component: Mapping[str, Any], dgd: Mapping[str, Any], name: str,
                 kv_topology: bool = True) -> dict[str, str]:
    """``generateAnnotations`` plus the topology-source handling of ``buildCliqueForRole`` (not for a GMS
    weight server: ``kv_topology`` False)."""
    ann: dict[str, str] = {}
    ann.update((dgd.get("spec") or {}).get("annotations") or {})
    ann.update(dgd_alpha_annotations(dgd, name))
    ann.update(pod_template_annotations(component))
    for key in kv.TOPOLOGY_SOURCE_ANNOTATION_KEYS:
        ann.pop(key, None)
    if kv_topology and kv.applies_to(component, dgd):
        kv.apply_topology_annotations(ann, kv.kv_transfer_policy(dgd))
    return ann


def _grove_constraint(topology_name: str, pack_domain: Any) -> dict[str, Any] | None:
    """``groveTopologyConstraint``: ``{topologyName, pack: {required}}`` or nothing without a domain."""
    if not pack_domain:
        return None
    out: dict[str, Any] = {"pack": {"required": pack_domain}}
    if topology_name:
        out["topologyName"] = topology_name
    return out


def _topology(tc: Any, spec_tc: Any) -> dict[str, Any] | None:
    """``toGroveTopologyConstraint``: components inherit the topology name from a constrained PCS;
    without a spec-level ``packDomain`` they carry ``clusterTopologyName`` themselves."""
    if not isinstance(tc, Mapping) or not tc.get("packDomain"):
        return None
    name = ""
    if isinstance(spec_tc, Mapping) and not spec_tc.get("packDomain"):
        name = str(spec_tc.get("clusterTopologyName") or "")
    return _grove_constraint(name, tc["packDomain"])


def _spec_topology(spec_tc: Any) -> dict[str, Any] | None:
    """``specToGroveTopologyConstraint``."""
    if not isinstance(spec_tc, Mapping):
        return None
    return _grove_constraint(str(spec_tc.get("clusterTopologyName") or ""), spec_tc.get("packDomain"))


def render_pcs(dgd: Mapping[str, Any], worker_hash: str, options: RenderOptions, namespace: str,
               checkpoints: Mapping[str, CheckpointInfo] | None = None) -> dict[str, Any]:
    """``GenerateGrovePodCliqueSet``; ``checkpoints``: the DGD-managed checkpoint of each component that has
    one (``_checkpointjob.dgd_checkpoints``)."""
    meta = dgd.get("metadata") or {}
    dgd_name = str(meta.get("name", ""))
    dgd_ann = meta.get("annotations") or {}
    spec = dgd.get("spec") or {}
    components = spec.get("components") or []
    labels = dict(spec.get("labels") or {})
    labels[LABEL_DGD_NAME] = dgd_name
    pcs_meta: dict[str, Any] = {"name": pcs_name(dgd_name, components), "namespace": namespace, "labels": labels}
    annotations = dict(spec.get("annotations") or {})
    # injectVolcanoQueueAnnotation: the trimmed metadata annotation wins over a spec pass-through.
    volcano_queue = str(dgd_ann.get(ANN_VOLCANO_QUEUE) or "").strip()
    if options.volcano_scheduler_enabled and volcano_queue:
        annotations[ANN_GROVE_VOLCANO_QUEUE] = volcano_queue
    if annotations:
        pcs_meta["annotations"] = annotations
    # GenerateGrovePodCliqueSet order: the update-strategy annotation is checked before the
    # scheduler integrations (resolveGroveSchedulerQueue).
    strategy = dgd_ann.get(ANN_GROVE_UPDATE_STRATEGY)
    if strategy is not None and strategy not in ("RollingRecreate", "OnDelete"):
        raise RenderError.at(
            f'unsupported Grove update strategy annotation "{ANN_GROVE_UPDATE_STRATEGY}"="{strategy}": supported values are "RollingRecreate" and "OnDelete"',
            ("metadata", "annotations", ANN_GROVE_UPDATE_STRATEGY), rule="render.grove",
        )
    if options.kai_scheduler_enabled and options.volcano_scheduler_enabled:
        raise RenderError.at("kai-scheduler and volcano scheduler integrations cannot both be enabled for Grove", rule="render.grove")

    template: dict[str, Any] = {
        "headlessServiceConfig": {"publishNotReadyAddresses": True},
        "cliqueStartupType": "CliqueStartupTypeAnyOrder",
    }
    if spec.get("priorityClassName"):
        template["priorityClassName"] = spec["priorityClassName"]
    if options.grove_termination_delay:
        template["terminationDelay"] = options.grove_termination_delay
    spec_tc = _spec_topology(spec.get("topologyConstraint"))
    if spec_tc:
        template["topologyConstraint"] = spec_tc

    disc = discovery_backend(options.discovery_backend, dgd_ann)
    topology_domains = kv.resolve_grove_domains(dgd, options.cluster_topology_domains)
    cliques: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    claim_templates: list[dict[str, Any]] = []
    explicit = False
    for i, comp_in in enumerate(components):
        comp = deepcopy(comp_in)
        name = str(comp.get("name", ""))
        ctype = str(comp.get("type") or "")
        path = ("spec", "components", i)
        dyn_ns = compute_dynamo_namespace(bool(comp.get("globalDynamoNamespace")), namespace, dgd_name)
        propagate_dgd_annotations(dgd, comp)
        pt = ensure_pod_template(comp)
        pt["metadata"]["labels"][LABEL_NAMESPACE] = dyn_ns
        if is_worker_type(ctype) and worker_hash:
            pt["metadata"]["labels"][LABEL_WORKER_HASH] = worker_hash
        backend = component_backend(comp, spec.get("backendFramework"), path)
        if disc:
            pt["metadata"]["annotations"][ANN_DISCOVERY_BACKEND] = disc
        n = node_count(comp)
        pcsg = uses_pcsg(comp)
        inter_pod = is_inter_pod_gms(comp)
        inter_pod_failover = is_inter_pod_failover(comp)
        roles = gmsip.expand_roles(name, comp)
        names: list[str] = []
        for role_name, role, replicas, rank in roles:
            rendered = deepcopy(comp)
            apply_dgd_template_defaults(rendered, dgd, topology_domains)
            gms = role == gmsip.ROLE_GMS
            pod = generate_pod_spec(PodRequest(
                component=rendered, component_type=ctype, backend=backend, dgd_name=dgd_name, namespace=namespace,
                role="main" if gms else role, nodes=1 if gms else n, deployer="grove", service_name=name,
                options=options, path=path, gms_rank=rank if inter_pod and n > 1 and not gms else None,
            ))
            if gms:  # generatePodSpecForRole: the weight server is the engine's single-node pod, transformed
                pod = gmsip.weight_server_pod(pod, rank, gmsip.weight_server_gpus(comp, path))
            elif inter_pod:
                gmsip.augment_engine(pod, rank, inter_pod_failover)
            min_available = 1
            if not pcsg and comp.get("minAvailable") is not None:
                min_available = int(comp["minAvailable"])
            if n > 1 and not inter_pod_failover:
                min_available = replicas
            labels = _labels(comp, dgd, name, namespace, disc)
            if inter_pod_failover and not gms:
                labels[gmsip.LABEL_FAILOVER_MEMBER] = "true"
            if gms:  # the weight server runs no Dynamo runtime: no discovery labels
                labels.pop(LABEL_DISCOVERY_BACKEND, None)
                labels.pop(LABEL_DISCOVERY_ENABLED, None)
            annotations = _annotations(comp, dgd, name, kv_topology=not gms)
            info = (checkpoints or {}).get(name)
            if not gms:  # GMS weight servers are no checkpoint targets
                apply_clique_metadata(labels, annotations, info, options.checkpoint_enabled)
                if info is not None and info.waiting:  # workers wait at zero until the checkpoint is Ready
                    replicas = 0
            clique: dict[str, Any] = {
                "name": role_name.lower(),
                "labels": labels,
                "annotations": annotations,
                "spec": {"roleName": role_name.lower(), "replicas": replicas, "minAvailable": min_available, "podSpec": pod},
            }
            if not pcsg:
                tc = _topology(comp.get("topologyConstraint"), spec.get("topologyConstraint"))
                if tc:
                    clique["topologyConstraint"] = tc
            if options.kai_scheduler_enabled and pod.get("schedulerName", "kai-scheduler") in ("", "kai-scheduler"):
                pod["schedulerName"] = "kai-scheduler"
                clique["labels"]["kai.scheduler/queue"] = (dgd_ann.get(ANN_KAI_QUEUE) or "").strip() or "dynamo"
            # injectVolcanoSchedulerIfEnabled: a user-set scheduler other than volcano is kept.
            if options.volcano_scheduler_enabled and pod.get("schedulerName", "volcano") in ("", "volcano"):
                pod["schedulerName"] = "volcano"
            if not clique["annotations"]:
                del clique["annotations"]
            cliques.append(clique)
            names.append(role_name.lower())
        depends = gmsip.startup_dependencies(roles, backend, n, inter_pod)
        for clique in cliques:  # applyCliqueStartupDependencies walks every clique of the set so far
            if clique["name"] in depends:
                clique["spec"]["startsAfter"] = list(depends[clique["name"]])
                explicit = True
        if inter_pod:
            claim_templates += gmsip.claim_template_configs(name, comp, roles, path)
        if pcsg:
            group: dict[str, Any] = {"name": name.lower(), "cliqueNames": names}
            if comp.get("replicas") is not None:
                group["replicas"] = comp["replicas"]
            if (checkpoints or {}).get(name) is not None and (checkpoints or {})[name].waiting:
                group["replicas"] = 0
            group["minAvailable"] = int(comp["minAvailable"]) if comp.get("minAvailable") is not None else 1
            tc = _topology(comp.get("topologyConstraint"), spec.get("topologyConstraint"))
            if tc:
                group["topologyConstraint"] = tc
            if inter_pod:
                group["resourceSharing"] = gmsip.resource_sharing(name, roles)
            groups.append(group)
    if explicit:
        template["cliqueStartupType"] = "CliqueStartupTypeExplicit"
    template["cliques"] = cliques
    if groups:
        template["podCliqueScalingGroups"] = groups
    if claim_templates:
        template["resourceClaimTemplates"] = claim_templates
    pcs_spec: dict[str, Any] = {"replicas": 1}
    if strategy is not None:
        pcs_spec["updateStrategy"] = {"type": strategy}
    pcs_spec["template"] = template
    return {"apiVersion": "grove.io/v1alpha1", "kind": "PodCliqueSet", "metadata": pcs_meta, "spec": pcs_spec}
