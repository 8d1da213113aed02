"""Adapters for the Grove PodCliqueSet tests of ``internal/dynamo/graph_test.go``.

``GenerateGrovePodCliqueSet`` → ``_grove.render_pcs`` (``_support.pcs``; an empty operator configuration is
``RenderOptions(discovery_backend="")``, the runtime gates are the scheduler flags of ``RenderOptions``);
``generateLabels`` / ``generateAnnotations`` → ``_grove._labels`` / ``_grove._annotations``;
``getCliqueStartupDependencies`` → ``_grove.startup_dependencies``.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions

from ._support import (
    GPU,
    adapter,
    alpha_dgd,
    beta_dgd,
    beta_dgd_of,
    cliques_by_name,
    env_map,
    hand_ported,
    pcs,
)

TOPOLOGY_LABEL_KEY = "topology.kubernetes.io/zone"  # graph_test.go testTopologyLabelKey
ANN_LABEL_KEY = "nvidia.com/topology-label-key"
ANN_CLUSTER_TOPOLOGY = "nvidia.com/topology-cluster-topology-name"
LABEL_NAMESPACE = "nvidia.com/dynamo-namespace"
LABEL_SUB_TYPE = "nvidia.com/dynamo-sub-component-type"
LABEL_DISCOVERY_BACKEND = "nvidia.com/dynamo-discovery-backend"
LABEL_DISCOVERY_ENABLED = "nvidia.com/dynamo-discovery-enabled"
TOPOLOGY_VOLUME = "topology-labels"
NO_CONFIG = RenderOptions(discovery_backend="")  # &configv1alpha1.OperatorConfiguration{}
# the configuration of the GMS tests: kubernetes discovery, etcd and NATS addresses (the DRA gate is on)
GMS_CONFIG = RenderOptions(discovery_backend="kubernetes", etcd_address="etcd-address", nats_address="nats-address")


def _worker_frontend_policy(policy: dict[str, Any]) -> dict[str, Any]:
    return beta_dgd_of("test-dgd", "default", [{"name": "worker", "type": "worker"}, {"name": "frontend", "type": "frontend"}],
                       backendFramework="vllm", experimental={"kvTransferPolicy": policy})


@hand_ported("TestGenerateGrovePodCliqueSet_AddsTopologyLabelAnnotationToWorkerCliques")
def _pcs_topology_label(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    cliques = cliques_by_name(pcs(_worker_frontend_policy(
        {"labelKey": TOPOLOGY_LABEL_KEY, "domain": "zone", "enforcement": "required"}), NO_CONFIG))
    assert {"worker", "frontend"} <= set(cliques)
    assert (cliques["worker"].get("annotations") or {}).get(ANN_LABEL_KEY) == TOPOLOGY_LABEL_KEY
    assert ANN_LABEL_KEY not in (cliques["frontend"].get("annotations") or {})


@hand_ported("TestGenerateGrovePodCliqueSet_ProjectsClusterTopologyDomainsToWorkerCliques")
def _pcs_cluster_topology_domains(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A ClusterTopologyBinding ``grove-topology`` with levels zone and rack (the cluster read is
    ``RenderOptions.cluster_topology_domains``): the worker clique projects both level labels."""
    options = RenderOptions(discovery_backend="", cluster_topology_domains={"grove-topology": ("zone", "rack")})
    cliques = cliques_by_name(pcs(_worker_frontend_policy(
        {"clusterTopologyName": "grove-topology", "domain": "rack", "enforcement": "required"}), options))
    assert {"worker", "frontend"} <= set(cliques)
    worker = cliques["worker"]
    ann = worker.get("annotations") or {}
    assert ann.get(ANN_CLUSTER_TOPOLOGY) == "grove-topology"
    assert ANN_LABEL_KEY not in ann
    values = env_map(worker["spec"]["podSpec"]["containers"][0])
    assert values.get("DYN_KV_TRANSFER_DOMAIN") == "rack"
    assert values.get("DYN_TOPOLOGY_ENABLED") == "true"
    assert "DYN_TOPOLOGY_DOMAIN" not in values
    items: dict[str, str] = {}
    for volume in worker["spec"]["podSpec"].get("volumes") or []:
        if volume["name"] == TOPOLOGY_VOLUME:
            assert volume.get("downwardAPI") is not None
            items.update({i["path"]: i["fieldRef"]["fieldPath"] for i in volume["downwardAPI"].get("items") or []})
    assert items == {"zone": "metadata.labels['nvidia.com/dynamo-topology.zone']",
                     "rack": "metadata.labels['nvidia.com/dynamo-topology.rack']"}
    frontend = cliques["frontend"]
    assert ANN_CLUSTER_TOPOLOGY not in (frontend.get("annotations") or {})
    assert all(v["name"] != TOPOLOGY_VOLUME for v in frontend["spec"]["podSpec"].get("volumes") or [])


@hand_ported("TestGenerateLabelsAndAnnotations_UsePreservedAlphaDGDServiceMetadata")
def _labels_annotations_preserved_alpha(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A converted v1alpha1 DGD: the clique labels carry the service's preserved labels and
    sub-component type; the annotations merge the DGD's, the service's preserved ones and the pod
    template's, in that order of strength."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._render._graph import ensure_pod_template
    from dynamo_schema._render._podcliqueset import _annotations, _labels

    alpha = alpha_dgd("test-dgd", "default", {"worker": {
        "componentType": "worker", "subComponentType": "legacy-sub", "annotations": {"legacy-annotation": "kept"},
        "labels": {"legacy-label": "kept"}}},
        annotations={"dgd-annotation": "from-dgd", "legacy-annotation": "from-dgd", "pod-template-annotation": "from-dgd"})
    beta = to_v1beta1(alpha["alpha"])
    component = next(c for c in beta["spec"]["components"] if c["name"] == "worker")
    ensure_pod_template(component)["metadata"]["annotations"]["pod-template-annotation"] = "from-pod-template"
    labels = _labels(component, beta, "worker", "default", "")
    assert labels.get("legacy-label") == "kept"
    assert labels.get(LABEL_SUB_TYPE) == "legacy-sub"
    annotations = _annotations(component, beta, "worker")
    assert annotations.get("dgd-annotation") == "from-dgd"
    assert annotations.get("legacy-annotation") == "kept"
    assert annotations.get("pod-template-annotation") == "from-pod-template"


@adapter("TestGenerateGrovePodCliqueSet_DoesNotResolveUnusedContainerGPUCount")
def _pcs_unused_gpu_count(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A container whose only device is a DRA claim on a template that does not exist renders without
    error when no GPU count is needed (multinode SGLang, single-node vLLM)."""
    component = {"name": "worker", "type": "worker", "multinode": {"nodeCount": row["numberOfNodes"]},
                 "podTemplate": {"spec": {
                     "resourceClaims": [{"name": "network", "resourceClaimTemplateName": "missing-network-template"}],
                     "containers": [{"name": "main", "image": "backend-test", "command": ["python3"],
                                     "args": ["-m", row["module"]], "resources": {"claims": [{"name": "network"}]}}]}}}
    got = pcs(beta_dgd_of("dra-test", "default", [component], backendFramework=row["backendFramework"]), NO_CONFIG)
    assert got["spec"]["template"]["cliques"]


def _dra_agg(backend: str, args: list[str], image: str, annotations: dict[str, str] | None = None) -> dict[str, Any]:
    """A two-node worker ``agg`` whose GPU is a DRA claim on the one-GPU ResourceClaimTemplate ``one-gpu``."""
    component = {"name": "agg", "type": "worker", "multinode": {"nodeCount": 2},
                 "podTemplate": {"spec": {
                     "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                     "containers": [{"name": "main", "image": image, "command": ["python3"], "args": args,
                                     "resources": {"claims": [{"name": "gpu"}]}}]}}}
    dgd = beta_dgd_of("dra-test", "default", [component], backendFramework=backend)
    if annotations:
        dgd["metadata"]["annotations"] = dict(annotations)
    return dgd


def _leader_worker(dgd: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    cliques = cliques_by_name(pcs(dgd, NO_CONFIG))
    assert {"agg-ldr", "agg-wkr"} <= set(cliques)
    return cliques["agg-ldr"]["spec"]["podSpec"]["containers"][0], cliques["agg-wkr"]["spec"]["podSpec"]["containers"][0]


@hand_ported("TestGenerateGrovePodCliqueSet_VLLMMultinodeDRA")
def _pcs_vllm_multinode_dra(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """TP=2 over two one-GPU nodes, multiprocessing backend, GPUs only through DRA: role-specific
    launch flags, the claim kept, no scalar GPU added."""
    leader, worker = _leader_worker(_dra_agg(
        "vllm", ["-m", "dynamo.vllm", "--tensor-parallel-size", "2"], "vllm-test",
        {"nvidia.com/vllm-distributed-executor-backend": "mp"}))
    for flag in ("--distributed-executor-backend", "--nnodes", "--node-rank", "0"):
        assert flag in leader.get("args", []), flag
    assert len(worker.get("args") or []) == 1
    assert "--node-rank $((GROVE_PCLQ_POD_INDEX + 1))" in worker["args"][0]
    assert "--headless" in worker["args"][0]
    for container in (leader, worker):
        resources = container.get("resources") or {}
        assert resources.get("claims") == [{"name": "gpu"}]
        assert GPU not in (resources.get("limits") or {})
        assert GPU not in (resources.get("requests") or {})


@hand_ported("TestGenerateGrovePodCliqueSet_TRTLLMMultinodeDRA")
def _pcs_trtllm_multinode_dra(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Two one-GPU nodes through DRA: mpirun starts 2 ranks; the claim is kept on both roles."""
    leader, worker = _leader_worker(_dra_agg("trtllm", ["-m", "dynamo.trtllm"], "trtllm-test"))
    assert len(leader.get("args") or []) == 1
    assert "--oversubscribe -n 2 " in leader["args"][0]
    assert (leader.get("resources") or {}).get("claims") == [{"name": "gpu"}]
    assert (worker.get("resources") or {}).get("claims") == [{"name": "gpu"}]


@hand_ported("Test_GeneratePodCliqueSetGlobalDynamoNamespace")
def _pcs_global_namespace(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A frontend in the global Dynamo namespace and a planner in the DGD's: both the clique label and
    the container's DYN_NAMESPACE say so."""
    got = pcs(beta_dgd(alpha_dgd("test-dynamo-graph", "k8s-namespace", {
        "Frontend": {"componentType": "frontend", "globalDynamoNamespace": True, "replicas": 1},
        "Planner": {"componentType": "planner", "replicas": 1}})), NO_CONFIG)
    cliques = got["spec"]["template"]["cliques"]
    assert len(cliques) == 2
    want = {"frontend": "dynamo", "planner": "k8s-namespace-test-dynamo-graph"}
    for clique in cliques:
        assert clique["name"] in want, clique["name"]
        assert clique["labels"][LABEL_NAMESPACE] == want[clique["name"]]
        containers = clique["spec"]["podSpec"]["containers"]
        assert len(containers) == 1
        assert env_map(containers[0]).get("DYN_NAMESPACE") == want[clique["name"]]


# ---------------------------------------------------------------- startup dependencies


@adapter("TestGetCliqueStartupDependencies")
def _startup_dependencies(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._podcliqueset import startup_dependencies

    got = startup_dependencies(row["role"], row["backendFramework"], row["leaderCliqueName"],
                               list(row["workerCliqueNames"] or []))
    assert got == row["expected"]


def _inter_pod_gms(name: str, shadows: int) -> dict[str, Any]:
    """A vLLM engine with inter-pod GMS and inter-pod failover (``shadows`` hot spares), one GPU."""
    return {"componentType": "worker", "replicas": 1, "resources": {"limits": {"gpu": "1"}},
            "gpuMemoryService": {"enabled": True, "mode": "interPod"},
            "failover": {"enabled": True, "mode": "interPod", "numShadows": shadows}}


GMS_STARTUP_ROWS: list[tuple[str, dict[str, Any]]] = [
    ("gms_single_node_engine_starts_after_gms",
     {"services": {"svc": _inter_pod_gms("svc", 1)}, "want": {"svc-gms-0": None, "svc": ["svc-gms-0"]}}),
    ("gms_does_not_leak_startsAfter_to_unrelated_cliques",
     {"services": {"frontend": {"componentType": "frontend", "replicas": 1}, "engine": _inter_pod_gms("engine", 1)},
      "want": {"frontend": None, "engine-gms-0": None, "engine": ["engine-gms-0"]}}),
]


@hand_ported("TestApplyCliqueStartupDependencies_GMS", GMS_STARTUP_ROWS)
def _startup_dependencies_gms(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """The roles of the Go test (a rank-0 GMS clique and a main engine clique of 2 replicas) are those
    of a single-node inter-pod GMS engine with one shadow: rendered, the engine starts after its rank's
    GMS clique and nothing else gains a dependency."""
    got = pcs(beta_dgd(alpha_dgd("test-dgd", "default", row["services"], backendFramework="vllm")), GMS_CONFIG)
    template = got["spec"]["template"]
    assert template.get("cliqueStartupType") == "CliqueStartupTypeExplicit"
    cliques = cliques_by_name(got)
    for name, after in row["want"].items():
        assert name in cliques, name
        assert (cliques[name]["spec"].get("startsAfter") or None) == after, name


# ---------------------------------------------------------------- inter-pod GMS cliques


def _gms_decode(nodes: int) -> dict[str, Any]:
    decode: dict[str, Any] = {**_inter_pod_gms("decode", 1), "componentType": "decode"}
    if nodes > 1:
        decode["multinode"] = {"nodeCount": nodes}
    return pcs(beta_dgd(alpha_dgd("test-dgd", "test-ns", {"decode": decode}, backendFramework="vllm")), GMS_CONFIG)


@hand_ported("TestGenerateGrovePodCliqueSet_GMSPodsDoNotCarryDiscoveryLabels")
def _pcs_gms_discovery_labels(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """GMS weight-server cliques carry no discovery labels, engine cliques both."""
    saw_gms = saw_engine = False
    for clique in _gms_decode(1)["spec"]["template"]["cliques"]:
        labels = clique.get("labels") or {}
        has = (LABEL_DISCOVERY_BACKEND in labels, LABEL_DISCOVERY_ENABLED in labels)
        if "gms" in clique["name"]:
            saw_gms = True
            assert has == (False, False), clique["name"]
        else:
            saw_engine = True
            assert has == (True, True), clique["name"]
    assert saw_gms and saw_engine


@hand_ported("TestGenerateGrovePodCliqueSet_MinAvailable_FailoverShadowsAreRedundant")
def _pcs_failover_min_available(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Two nodes, one shadow: each engine clique holds primary + shadow (2 replicas) but needs only 1;
    each GMS clique holds and needs 1."""
    saw_engine = False
    for clique in _gms_decode(2)["spec"]["template"]["cliques"]:
        spec = clique["spec"]
        assert spec.get("minAvailable") is not None, clique["name"]
        if "gms" in clique["name"]:
            assert (spec["minAvailable"], spec["replicas"]) == (1, 1), clique["name"]
            continue
        saw_engine = True
        assert spec["replicas"] == 2, clique["name"]
        assert spec["minAvailable"] == 1, clique["name"]
    assert saw_engine


# ---------------------------------------------------------------- PodCliqueSet metadata and scheduling


@hand_ported("TestGenerateGrovePodCliqueSet_SingleNodeForceScalingGroup")
def _pcs_force_scaling_group(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """``experimental.grove.forceScalingGroup`` on a single-node worker (4 replicas, minAvailable 2):
    one clique of one pod, in a scaling group that carries the replicas and minAvailable."""
    dgd = beta_dgd({**alpha_dgd("test-dgd", "test-ns", {"worker": {
        "componentType": "worker", "replicas": 4, "minAvailable": 2, "resources": {"limits": {"gpu": "1"}}}},
        backendFramework="vllm"),
        "beta_patch": [{"path": ["spec", "components", 0, "experimental"], "value": {"grove": {"forceScalingGroup": True}}}]})
    assert len(dgd["spec"]["components"]) == 1
    template = pcs(dgd, NO_CONFIG)["spec"]["template"]
    assert len(template["cliques"]) == 1
    clique = template["cliques"][0]
    assert clique["name"] == "worker"
    assert clique["spec"]["replicas"] == 1
    assert clique["spec"].get("minAvailable") == 1
    groups = template.get("podCliqueScalingGroups") or []
    assert len(groups) == 1
    assert groups[0]["name"] == "worker"
    assert groups[0]["cliqueNames"] == ["worker"]
    assert groups[0].get("replicas") == 4
    assert groups[0].get("minAvailable") == 2


@hand_ported("TestGenerateGrovePodCliqueSet_SpecMetadataPropagation")
def _pcs_spec_metadata(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    got = pcs(beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": {
        "componentType": "worker", "replicas": 1, "annotations": {"team/cost-center": "svc-override"}}},
        annotations={"team/cost-center": "abc"}, labels={"env": "prod"})), NO_CONFIG)
    assert (got["metadata"].get("annotations") or {}).get("team/cost-center") == "abc"
    assert got["metadata"]["labels"].get("env") == "prod"
    cliques = got["spec"]["template"]["cliques"]
    assert len(cliques) == 1
    assert (cliques[0].get("annotations") or {}).get("team/cost-center") == "svc-override"


def _one_worker(annotations: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    return beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": {"componentType": "worker", "replicas": 1}}, annotations, **spec))


@hand_ported("TestGenerateGrovePodCliqueSet_VolcanoSchedulerInjection")
def _pcs_volcano(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    got = pcs(_one_worker({"nvidia.com/volcano-queue": "gpu-training"}),
              RenderOptions(discovery_backend="", volcano_scheduler_enabled=True))
    assert len(got["spec"]["template"]["cliques"]) == 1
    assert got["metadata"]["annotations"].get("scheduling.grove.io/volcano-queue") == "gpu-training"
    assert got["spec"]["template"]["cliques"][0]["spec"]["podSpec"].get("schedulerName") == "volcano"


@hand_ported("TestGenerateGrovePodCliqueSet_SchedulerIntegrationMutualExclusion")
def _pcs_scheduler_exclusion(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    with pytest.raises(RenderError) as exc:
        pcs(_one_worker(), RenderOptions(discovery_backend="", kai_scheduler_enabled=True, volcano_scheduler_enabled=True))
    assert "kai-scheduler and volcano scheduler integrations cannot both be enabled" in str(exc.value)


@hand_ported("TestGenerateGrovePodCliqueSet_PriorityClassName")
def _pcs_priority_class(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    got = pcs(_one_worker(priorityClassName="high-priority"), NO_CONFIG)
    assert got["spec"]["template"].get("priorityClassName") == "high-priority"
