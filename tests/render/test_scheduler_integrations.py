"""Rendering paths found untested by a coverage audit: Grove topology constraints, Grove scheduler
options, native Rust EPP and NIXL telemetry ports.

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render import RenderError, RenderOptions, render


def _dgd(components: list[dict[str, Any]], meta_annotations: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "test-deploy", "namespace": "default"}
    if meta_annotations:
        meta["annotations"] = meta_annotations
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": meta,
            "spec": {"backendFramework": "vllm", "components": components, **spec}}


def _pcs(objs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(o for o in objs if o["kind"] == "PodCliqueSet")


def _grove(dgd: dict[str, Any], **options: Any) -> dict[str, Any]:
    return _pcs(render(dgd, "grove", RenderOptions(namespace="default", **options)))


# ---------------------------------------------------------------- topology (grove.md §8.7)
# graph_test.go TestGenerateGrovePodCliqueSet_TopologyConstraints (v1alpha1 topologyProfile is the
# v1beta1 clusterTopologyName). Grove's Go field Pack.RequiredDomain is serialised as
# ``pack.required`` (grove operator/api v0.1.0-alpha.12-rc1, the version in the reference go.mod).

def _worker(tc: str | None, nodes: int = 1) -> dict[str, Any]:
    comp: dict[str, Any] = {"name": "Worker", "type": "worker", "replicas": 2}
    if nodes > 1:
        comp["multinode"] = {"nodeCount": nodes}
    if tc:
        comp["topologyConstraint"] = {"packDomain": tc}
    return comp


TOPOLOGY_CASES = [
    # name, spec topologyConstraint, component, want PCS TC, want clique TCs, want PCSG TCs
    ("no topology constraints", None, _worker(None), None, {"worker": None}, {}),
    ("single-node with spec and component constraints",
     {"clusterTopologyName": "test-topology", "packDomain": "zone"}, _worker("rack"),
     {"topologyName": "test-topology", "pack": {"required": "zone"}}, {"worker": {"pack": {"required": "rack"}}}, {}),
    ("service-only constraint: topology name explicit on clique",
     {"clusterTopologyName": "test-topology"}, _worker("rack"),
     None, {"worker": {"topologyName": "test-topology", "pack": {"required": "rack"}}}, {}),
    ("multinode: constraint on PCS template and PCSG, not clique",
     {"clusterTopologyName": "test-topology", "packDomain": "zone"}, _worker("block", nodes=4),
     {"topologyName": "test-topology", "pack": {"required": "zone"}}, {"worker-ldr": None, "worker-wkr": None},
     {"worker": {"pack": {"required": "block"}}}),
    ("service-only multinode: topology name explicit on scaling group",
     {"clusterTopologyName": "test-topology"}, _worker("block", nodes=4),
     None, {"worker-ldr": None, "worker-wkr": None},
     {"worker": {"topologyName": "test-topology", "pack": {"required": "block"}}}),
]


@pytest.mark.parametrize(("spec_tc", "component", "want_pcs", "want_cliques", "want_groups"),
                         [c[1:] for c in TOPOLOGY_CASES], ids=[c[0] for c in TOPOLOGY_CASES])
def test_grove_topology_constraints(spec_tc: Any, component: dict[str, Any], want_pcs: Any,
                                    want_cliques: dict[str, Any], want_groups: dict[str, Any]) -> None:
    spec = {"topologyConstraint": spec_tc} if spec_tc else {}
    pcs = _grove(_dgd([component], **spec))
    template = pcs["spec"]["template"]
    assert template.get("topologyConstraint") == want_pcs
    assert {c["name"]: c.get("topologyConstraint") for c in template["cliques"]} == want_cliques
    assert {g["name"]: g.get("topologyConstraint") for g in template.get("podCliqueScalingGroups") or []} == want_groups


def test_component_without_pack_domain_has_no_constraint() -> None:
    # toGroveTopologyConstraint: nil when the component constraint is nil or has an empty packDomain.
    comp = {"name": "worker", "type": "worker", "topologyConstraint": {"packDomain": ""}}
    pcs = _grove(_dgd([comp], topologyConstraint={"clusterTopologyName": "t"}))
    assert "topologyConstraint" not in pcs["spec"]["template"]["cliques"][0]
    assert "topologyConstraint" not in pcs["spec"]["template"]


# ---------------------------------------------------------------- Grove scheduler options
# grove.go injectKaiSchedulerIfEnabled / injectVolcanoSchedulerIfEnabled / injectVolcanoQueueAnnotation /
# resolveKaiSchedulerQueueName; graph.go resolveGroveSchedulerQueue; graph_test.go
# TestGenerateGrovePodCliqueSet_{MetadataVolcanoQueuePropagation,VolcanoSchedulerInjection,
# SchedulerIntegrationMutualExclusion,PriorityClassName}; grove_test.go TestResolveKaiSchedulerQueueName,
# TestInjectKaiSchedulerIfEnabled, TestInjectVolcanoSchedulerIfEnabled.

WORKER = {"name": "worker", "type": "worker", "replicas": 1}
VOLCANO_ANN = "nvidia.com/volcano-queue"
GROVE_VOLCANO_ANN = "scheduling.grove.io/volcano-queue"

VOLCANO_QUEUE_CASES = [
    ("metadata annotation maps to grove annotation", {VOLCANO_ANN: "qa-volcano-e2e"}, None, True, "qa-volcano-e2e"),
    ("metadata annotation trimmed, wins over spec", {VOLCANO_ANN: " metadata-queue "}, {GROVE_VOLCANO_ANN: "spec-queue"}, True, "metadata-queue"),
    ("whitespace metadata does not override spec", {VOLCANO_ANN: " \t "}, {GROVE_VOLCANO_ANN: "spec-queue"}, True, "spec-queue"),
    ("whitespace metadata ignored", {VOLCANO_ANN: " \t "}, None, True, None),
    ("spec annotation is a pass-through", None, {GROVE_VOLCANO_ANN: "spec-queue"}, True, "spec-queue"),
    ("ignored when volcano integration is off", {VOLCANO_ANN: "qa-volcano-e2e"}, None, False, None),
]


@pytest.mark.parametrize(("meta_ann", "spec_ann", "volcano", "want"), [c[1:] for c in VOLCANO_QUEUE_CASES],
                         ids=[c[0] for c in VOLCANO_QUEUE_CASES])
def test_volcano_queue_annotation(meta_ann: Any, spec_ann: Any, volcano: bool, want: Any) -> None:
    spec = {"annotations": spec_ann} if spec_ann else {}
    pcs = _grove(_dgd([dict(WORKER)], meta_annotations=meta_ann, **spec), volcano_scheduler_enabled=volcano)
    assert (pcs["metadata"].get("annotations") or {}).get(GROVE_VOLCANO_ANN) == want


def test_volcano_scheduler_injection() -> None:
    pcs = _grove(_dgd([dict(WORKER)], meta_annotations={VOLCANO_ANN: "gpu-training"}), volcano_scheduler_enabled=True)
    assert pcs["metadata"]["annotations"][GROVE_VOLCANO_ANN] == "gpu-training"
    assert pcs["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["schedulerName"] == "volcano"
    assert "kai.scheduler/queue" not in pcs["spec"]["template"]["cliques"][0]["labels"]


def _with_scheduler(name: str) -> dict[str, Any]:
    return dict(WORKER, podTemplate={"spec": {"schedulerName": name, "containers": [{"name": "main", "image": "img"}]}})


@pytest.mark.parametrize(("initial", "want"), [("manual-scheduler", "manual-scheduler"), ("volcano", "volcano")])
def test_volcano_respects_user_scheduler(initial: str, want: str) -> None:
    pcs = _grove(_dgd([_with_scheduler(initial)]), volcano_scheduler_enabled=True)
    assert pcs["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["schedulerName"] == want


@pytest.mark.parametrize(("annotation", "queue"), [(None, "dynamo"), ("", "dynamo"), ("custom-queue", "custom-queue"),
                                                   ("  custom-queue  ", "custom-queue")])
def test_kai_scheduler_queue(annotation: Any, queue: str) -> None:
    ann = None if annotation is None else {"nvidia.com/kai-scheduler-queue": annotation}
    clique = _grove(_dgd([dict(WORKER)], meta_annotations=ann), kai_scheduler_enabled=True)["spec"]["template"]["cliques"][0]
    assert clique["spec"]["podSpec"]["schedulerName"] == "kai-scheduler"
    assert clique["labels"]["kai.scheduler/queue"] == queue


def test_kai_respects_manual_scheduler() -> None:
    clique = _grove(_dgd([_with_scheduler("manual-scheduler")]), kai_scheduler_enabled=True)["spec"]["template"]["cliques"][0]
    assert clique["spec"]["podSpec"]["schedulerName"] == "manual-scheduler"
    assert "kai.scheduler/queue" not in clique["labels"]


def test_no_scheduler_injection_by_default() -> None:
    pcs = _grove(_dgd([dict(WORKER)], meta_annotations={VOLCANO_ANN: "q"}))
    assert "schedulerName" not in pcs["spec"]["template"]["cliques"][0]["spec"]["podSpec"]
    assert GROVE_VOLCANO_ANN not in (pcs["metadata"].get("annotations") or {})


def test_scheduler_integrations_mutually_exclusive() -> None:
    with pytest.raises(RenderError) as exc:
        _grove(_dgd([dict(WORKER)]), kai_scheduler_enabled=True, volcano_scheduler_enabled=True)
    assert "kai-scheduler and volcano scheduler integrations cannot both be enabled" in str(exc.value)


def test_update_strategy_error_precedes_scheduler_error() -> None:
    # GenerateGrovePodCliqueSet checks groveUpdateStrategyFromAnnotations before resolveGroveSchedulerQueue.
    dgd = _dgd([dict(WORKER)], meta_annotations={"nvidia.com/grove-update-strategy": "Bogus"})
    with pytest.raises(RenderError) as exc:
        _grove(dgd, kai_scheduler_enabled=True, volcano_scheduler_enabled=True)
    assert "unsupported Grove update strategy annotation" in str(exc.value)


def test_priority_class_name() -> None:
    pcs = _grove(_dgd([dict(WORKER)], priorityClassName="high-priority"))
    assert pcs["spec"]["template"]["priorityClassName"] == "high-priority"
    assert "priorityClassName" not in _grove(_dgd([dict(WORKER)]))["spec"]["template"]


def test_single_node_force_scaling_group() -> None:
    # graph_test.go TestGenerateGrovePodCliqueSet_SingleNodeForceScalingGroup.
    comp = {"name": "worker", "type": "worker", "replicas": 4, "minAvailable": 2,
            "experimental": {"grove": {"forceScalingGroup": True}},
            "podTemplate": {"spec": {"containers": [{"name": "main", "image": "img",
                                                     "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}
    dgd = _dgd([comp])
    dgd["metadata"]["namespace"] = "test-ns"
    template = _grove(dgd)["spec"]["template"]
    assert [c["name"] for c in template["cliques"]] == ["worker"]
    clique = template["cliques"][0]
    assert clique["spec"]["replicas"] == 1
    assert clique["spec"]["minAvailable"] == 1
    groups = template["podCliqueScalingGroups"]
    assert len(groups) == 1
    assert groups[0]["name"] == "worker"
    assert groups[0]["cliqueNames"] == ["worker"]
    assert groups[0]["replicas"] == 4
    assert groups[0]["minAvailable"] == 2


# ---------------------------------------------------------------- EPP launch contract
# Reference revision component_epp.go (one contract: the Go EPP reading its mounted config file).

def _epp_dgd(image: str, epp_config: Any = None) -> dict[str, Any]:
    epp: dict[str, Any] = {"name": "epp", "type": "epp",
                           "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}}}
    if epp_config is not None:
        epp["eppConfig"] = epp_config
    worker = {"name": "worker", "type": "worker",
              "podTemplate": {"spec": {"containers": [{"name": "main", "image": "vllm-runtime:1.5.0"}]}}}
    return _dgd([epp, worker])


def _epp_container(objs: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    dep = next(o for o in objs if o["kind"] == "Deployment" and o["metadata"]["name"].endswith("-epp"))
    pod = dep["spec"]["template"]["spec"]
    return next(c for c in pod["containers"] if c["name"] == "main"), pod


@pytest.mark.parametrize("image", ["nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.4.0", "nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.5.0"])
def test_epp_contract_for_every_runtime(image: str) -> None:
    cfg = {"config": {"plugins": [{"type": "dyn-kv"}]}}
    objs = render(_epp_dgd(image, cfg), "kubernetes", RenderOptions(namespace="ns1"))
    main, pod = _epp_container(objs)
    assert main["args"][:2] == ["--pool-name", "test-deploy-pool"]
    assert "HOME" not in {e["name"] for e in main["env"]}
    assert {"name": "epp-config", "mountPath": "/etc/epp", "readOnly": True} in main["volumeMounts"]
    assert any(o["kind"] == "ConfigMap" and o["metadata"]["name"] == "test-deploy-epp-config" for o in objs)


# ---------------------------------------------------------------- NIXL telemetry settings
# Reference revision backend_sglang.go UpdateContainer: a single-node SGLang worker is left as it is
# (no per-rank NIXL exporter ports; the GPU count is not read), whatever the NIXL telemetry env says.

def _sglang_worker(gpus: int, env: list[dict[str, Any]] | None, backend: str = "sglang") -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": "img", "command": ["python3", "-m", f"dynamo.{backend}"],
                            "resources": {"limits": {"nvidia.com/gpu": str(gpus)}}}
    if env is not None:
        main["env"] = env
    dgd = _dgd([{"name": "worker", "type": "worker", "podTemplate": {"spec": {"containers": [main]}}}])
    dgd["spec"]["backendFramework"] = backend
    return dgd


def _worker_ports(dgd: dict[str, Any]) -> list[tuple[str, int]]:
    clique = _grove(dgd)["spec"]["template"]["cliques"][0]
    main = next(c for c in clique["spec"]["podSpec"]["containers"] if c["name"] == "main")
    return [(p["name"], p["containerPort"]) for p in main["ports"]]


BASE_PORTS = [("system", 9090), ("nixl", 19090)]


@pytest.mark.parametrize(("gpus", "env"), [
    (4, [{"name": "NIXL_TELEMETRY_ENABLE", "value": "y"}]),
    (16, [{"name": "NIXL_TELEMETRY_ENABLE", "value": "y"}]),
    (4, [{"name": "NIXL_TELEMETRY_ENABLE", "value": "y"}, {"name": "NIXL_TELEMETRY_PROMETHEUS_PORT", "value": "abc"}]),
    (4, None),
])
def test_sglang_worker_ports_are_the_worker_defaults(gpus: int, env: Any) -> None:
    assert _worker_ports(_sglang_worker(gpus, env)) == BASE_PORTS
