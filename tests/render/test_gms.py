"""GPU Memory Service, DRA and failover rendering, against the operator-verified cases and upstream facts.

* the operator's DRA gate (operator-cases ``DRA-GATE``) and where it fails among the other reconcile
  failures (backend detection, compilationCache, the worker hash, LWS);
* the GMS wiring (``GMS-NOT-RENDERED``): ResourceClaimTemplates, the ``gms-server`` sidecar, failover
  engines, inter-pod GMS cliques; failover only for vLLM (``FAILOVER-BACKEND-REFUSED``);
* the facts of upstream ``internal/gms/gms_test.go`` (its four functions) and of the GMS rows of
  ``graph_test.go: TestExpandRolesForService`` with their node ranks, and the unknown-backend refusal of
  ``TestGeneratePodSpecForComponent_UnsupportedBackend``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dynamo_schema._render import RenderError, RenderOptions, _dra, _failover, _gms, _gmsinterpod, render
from tests.oracles import _operator_cases as oc

pytestmark = pytest.mark.shared


def case(prefix: str) -> dict[str, Any]:
    found = [p for p in oc.case_files() if p.name.startswith(prefix)]
    assert len(found) == 1, prefix
    return oc.load_case(found[0])


def objects_agree(prefix: str) -> None:
    outcome = oc.run(case(prefix))
    assert outcome.agree.get("objects") is True, outcome.detail.get("objects")


# ------------------------------------------------------------------ the DRA gate and reconcile order

# DRA unavailable (the default): the operator's shared-resource reconcile refuses GMS / failover DGDs on
# both pathways; 0385/0578 show it before "no multinode orchestrator" (LWS off), 0999/1005 before the
# checkpoints, 0804/0905 with other differences elsewhere.
DRA_GATE = ["0014", "0052", "0069", "0081", "0161", "0204", "0234", "0385", "0578", "0638", "0863", "0999",
            "1005", "1046", "1135", "1193"]
# the gate before the backend checks and the compilationCache checks of the pod builder
DRA_BEFORE_POD = ["0073", "0108", "0287", "0346", "0416", "0772", "1162"]


@pytest.mark.parametrize("prefix", DRA_GATE + DRA_BEFORE_POD)
def test_dra_gate_fails_the_reconcile(prefix: str) -> None:
    data = case(prefix)
    assert "requires DRA" in data["expected"]["renderError"]
    objects_agree(prefix)


def test_worker_hash_comes_before_the_dra_gate_on_the_component_pathway() -> None:
    """0382: the component pathway computes the worker hash before its shared resources, so a DGD whose
    workers disagree on the backend fails there even without DRA."""
    data = case("0382")
    assert "multiple backend frameworks" in data["expected"]["renderError"]
    objects_agree("0382")


def test_backend_mismatch_with_dra_fails_in_the_pod_builder() -> None:
    """With DRA the same DGDs reach the pod builder, which refuses the backend mismatch (0061, 0211, 0345)."""
    for prefix in ("0061", "0211", "0345"):
        assert "backend framework mismatch" in case(prefix)["expected"]["renderError"]
        objects_agree(prefix)


def test_validate_reports_the_dra_gate_as_a_reconcile_error() -> None:
    import dynamo_schema

    data = case("0234")
    diags = [d for r in dynamo_schema.validate(copy.deepcopy(data["input"]), settings=oc.admission_settings(data["settings"]))
             for d in r.diagnostics]
    found = [(d.rule, d.severity, d.message) for d in diags if d.severity != "note"]
    assert found == [("reconcile.dra-unavailable", "error", _dra.DRA_UNAVAILABLE)]
    assert data["expected"]["allowed"] is True  # admitted: the reconcile fails afterwards


def test_dra_gate_located_at_the_component() -> None:
    data = case("0069")
    with pytest.raises(RenderError) as exc:
        render(data["input"], "grove", RenderOptions())
    [d] = exc.value.diagnostics
    assert (d.rule, d.path[:2], d.path[-2:]) == ("render.dra-unavailable", ("spec", "components"),
                                                 ("experimental", "gpuMemoryService"))


# ------------------------------------------------------------------ GMS wiring with DRA

GMS_RENDERED = [
    "0130",  # standalone DCD: claim, sidecar, toleration (no ResourceClaimTemplate: the DGD owns those)
    "0169", "0170", "0575", "0613", "0742", "0787",  # intra-pod GMS on both pathways, multinode Grove
    "0457", "0837",  # intra-pod failover engines (Deployment, Grove scaling group)
    "0166", "0838", "0964", "0053",  # a multinode LWS with failover has no main container: refused
    "0417", "0602", "1092",  # inter-pod GMS with failover on Grove: GMS cliques per rank, shared claims
]


@pytest.mark.parametrize("prefix", GMS_RENDERED)
def test_gms_rendered_as_the_operator_does(prefix: str) -> None:
    objects_agree(prefix)


def _gms_view(objects: list[dict[str, Any]]) -> list[Any]:
    """What GMS and DRA change in rendered objects: claim templates, and per pod the claims, tolerations,
    init containers, volumes and each container's name, resources and mounts."""
    def pods(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, dict):
            if "containers" in node and isinstance(node["containers"], list):
                return [node]
            return [p for v in node.values() for p in pods(v)]
        if isinstance(node, list):
            return [p for v in node for p in pods(v)]
        return []

    out: list[Any] = []
    for obj in oc.normalise(objects):
        if obj["kind"] == "ResourceClaimTemplate":
            out.append(obj)
        if obj["kind"] in ("Deployment", "PodCliqueSet", "LeaderWorkerSet"):
            for pod in pods(obj["spec"]):
                out.append({k: pod.get(k) for k in ("resourceClaims", "tolerations", "initContainers", "volumes")})
                out += [(c["name"], c.get("resources"), c.get("volumeMounts")) for c in pod["containers"]]
    return out


@pytest.mark.parametrize("prefix", ["0172", "0304", "0334", "0335", "0701", "0963", "1172"])
def test_gms_parts_of_cases_that_differ_elsewhere(prefix: str) -> None:
    """These cases differ from the operator in other ways (the 1.5 health gate, the typed EPP config), not
    in their GMS wiring."""
    from dynamo_schema._pipeline._render_object import render_object

    data = case(prefix)
    settings = oc.admission_settings(data["settings"])
    ours = render_object(copy.deepcopy(data["input"]), namespace=oc.namespace_of(data["settings"]), settings=settings)
    assert _gms_view(ours) == _gms_view(data["expected"]["objects"])


@pytest.mark.parametrize("prefix", ["0384", "0864", "1107", "1108"])
def test_failover_only_for_vllm(prefix: str) -> None:
    assert "failover is currently supported only for vLLM" in case(prefix)["expected"]["renderError"]
    objects_agree(prefix)


def test_validate_reports_failover_backend() -> None:
    import dynamo_schema

    data = case("0384")
    diags = [d for r in dynamo_schema.validate(copy.deepcopy(data["input"]), settings=oc.admission_settings(data["settings"]))
             for d in r.diagnostics]
    found = [(d.rule, d.severity) for d in diags if d.severity != "note"]
    assert found == [("reconcile.failover-backend", "error")]
    assert [d.message for d in diags if d.rule == "reconcile.failover-backend"] == [
        "failed to build failover pod: failover is currently supported only for vLLM (detected: sglang)"]


# ------------------------------------------------------------------ internal/gms/gms_test.go


def test_ensure_server_sidecar() -> None:
    """``TestEnsureServerSidecar``: one init container, the server module, restartPolicy Always, no startup
    probe, the shared claim; the main container gets the socket dir and the pod the shared volume."""
    pod: dict[str, Any] = {"containers": [{"name": "main", "image": "test-image:latest",
                                           "resources": {"claims": [{"name": _dra.CLAIM_NAME}]}}]}
    _gms.ensure_server_sidecar(pod, pod["containers"][0])
    [server] = pod["initContainers"]
    assert server["name"] == "gms-server"
    assert server["command"] == ["python3", "-m", "gpu_memory_service.cli.server"]
    assert server["restartPolicy"] == "Always"
    assert "startupProbe" not in server
    assert server["resources"]["claims"] == [{"name": "intrapod-shared-gpu"}]
    assert {"name": "GMS_SOCKET_DIR", "value": "/gms-intrapod-control"} in pod["containers"][0]["env"]
    assert [v["name"] for v in pod["volumes"]] == ["gms-intrapod-control"]
    assert pod["containers"][0]["resources"]["claims"] == [{"name": "intrapod-shared-gpu"}]  # not added twice


def test_ensure_server_sidecar_idempotent() -> None:
    pod: dict[str, Any] = {"containers": [{"name": "main", "image": "test:latest"}]}
    _gms.ensure_server_sidecar(pod, pod["containers"][0])
    _gms.ensure_server_sidecar(pod, pod["containers"][0])
    assert len(pod["initContainers"]) == 1
    assert len(pod["volumes"]) == 1 and len(pod["containers"][0]["volumeMounts"]) == 1


def test_ensure_server_sidecar_does_not_add_checkpoint_control() -> None:
    pod: dict[str, Any] = {"containers": [{"name": "main", "image": "test:latest"}]}
    _gms.ensure_server_sidecar(pod, pod["containers"][0])
    assert "gms-control" not in [v["name"] for v in pod["volumes"]]


def test_ensure_client_overrides_operator_owned_socket_fields() -> None:
    """``TestEnsureClientOverridesOperatorOwnedSocketFields``: a user's volume, mount and env of the same
    names are replaced by the operator's (emptyDir, the mount path, a plain value)."""
    pod: dict[str, Any] = {
        "volumes": [{"name": "gms-intrapod-control", "hostPath": {"path": "/wrong"}}],
        "containers": [{"name": "main", "env": [{"name": "GMS_SOCKET_DIR", "valueFrom": {}}],
                        "volumeMounts": [{"name": "gms-intrapod-control", "mountPath": "/wrong"}]}],
    }
    _gms.ensure_client(pod, pod["containers"][0])
    assert pod["volumes"] == [{"name": "gms-intrapod-control", "emptyDir": {}}]
    main = pod["containers"][0]
    assert main["volumeMounts"] == [{"name": "gms-intrapod-control", "mountPath": "/gms-intrapod-control"}]
    assert main["env"] == [{"name": "GMS_SOCKET_DIR", "value": "/gms-intrapod-control"}]
    assert main["resources"]["claims"] == [{"name": "intrapod-shared-gpu"}]


# ------------------------------------------------------------------ graph_test.go rows

# TestExpandRolesForService: the GMS rows (component, nodes) -> (name, role, replicas, rank)
_ROLE_ROWS = {
    "single-node standalone inter-pod GMS (no failover)": (
        {"gpuMemoryService": {"mode": "InterPod"}}, 1, [("svc-gms-0", "gms", 1, 0), ("svc", "main", 1, 0)]),
    "single-node GMS with 1 shadow": (
        {"gpuMemoryService": {"mode": "InterPod"}, "failover": {"mode": "InterPod", "numShadows": 1}}, 1,
        [("svc-gms-0", "gms", 1, 0), ("svc", "main", 2, 0)]),
    "single-node GMS with 3 shadows": (
        {"gpuMemoryService": {"mode": "InterPod"}, "failover": {"mode": "InterPod", "numShadows": 3}}, 1,
        [("svc-gms-0", "gms", 1, 0), ("svc", "main", 4, 0)]),
    "multinode standalone inter-pod GMS (no failover)": (
        {"gpuMemoryService": {"mode": "InterPod"}}, 2,
        [("svc-gms-0", "gms", 1, 0), ("svc-ldr", "leader", 1, 0), ("svc-gms-1", "gms", 1, 1),
         ("svc-wkr-1", "worker", 1, 1)]),
    "multinode GMS 2 nodes 1 shadow": (
        {"gpuMemoryService": {"mode": "InterPod"}, "failover": {"mode": "InterPod", "numShadows": 1}}, 2,
        [("svc-gms-0", "gms", 1, 0), ("svc-ldr", "leader", 2, 0), ("svc-gms-1", "gms", 1, 1),
         ("svc-wkr-1", "worker", 2, 1)]),
    "multinode GMS 3 nodes 2 shadows": (
        {"gpuMemoryService": {"mode": "InterPod"}, "failover": {"mode": "InterPod", "numShadows": 2}}, 3,
        [("svc-gms-0", "gms", 1, 0), ("svc-ldr", "leader", 3, 0), ("svc-gms-1", "gms", 1, 1),
         ("svc-wkr-1", "worker", 3, 1), ("svc-gms-2", "gms", 1, 2), ("svc-wkr-2", "worker", 3, 2)]),
}


@pytest.mark.parametrize("row", sorted(_ROLE_ROWS))
def test_expand_roles_gms_rows(row: str) -> None:
    experimental, nodes, want = _ROLE_ROWS[row]
    comp: dict[str, Any] = {"experimental": experimental}
    if nodes > 1:
        comp["multinode"] = {"nodeCount": nodes}
    assert _gmsinterpod.expand_roles("svc", comp) == want


def test_unknown_backend_refused_by_the_pod_builder() -> None:
    """``TestGeneratePodSpecForComponent_UnsupportedBackend/unknown_backend``."""
    from dynamo_schema._render._pod import generate_pod_spec
    from dynamo_schema._render._podrequest import PodRequest

    req = PodRequest(component={"type": "worker"}, component_type="worker", backend="unknown",
                     dgd_name="test-deployment", namespace="default", role="main", nodes=1, deployer="grove",
                     service_name="worker", options=RenderOptions())
    with pytest.raises(RenderError, match="unsupported backend framework: unknown"):
        generate_pod_spec(req)


# ------------------------------------------------------------------ smaller facts


def test_gpu_count_must_be_whole() -> None:
    """``ExtractGPUCountFromResourceRequirements``: limits before requests, names sorted, whole numbers."""
    assert _dra.gpu_count({"limits": {"nvidia.com/gpu": "2"}, "requests": {"nvidia.com/gpu": "4"}}) == 2
    assert _dra.gpu_count({"limits": {"nvidia.com/mig-3g.20gb": "1", "nvidia.com/gpu": "3"}}) == 3  # gpu < mig-…
    assert _dra.gpu_count({"limits": {"nvidia.com/mig-3g.20gb": "2", "memory": "1Gi"}}) == 2
    assert _dra.gpu_count({"requests": {"cpu": "1"}}) == 0
    with pytest.raises(RenderError, match='GPU resource "nvidia.com/gpu" quantity "1500m" must be a whole number'):
        _dra.gpu_count({"limits": {"nvidia.com/gpu": "1.5"}})


def test_claim_template_needs_a_known_device_class() -> None:
    options = RenderOptions(dra_enabled=True)
    rct = _dra.resource_claim_template("dgd-w-gpu", "ns", 2, "gpu.nvidia.com", options)
    assert rct is not None and rct["spec"]["spec"]["devices"]["requests"][0]["exactly"]["count"] == 2
    assert _dra.resource_claim_template("dgd-w-gpu", "ns", 0, "gpu.nvidia.com", options) is None
    with pytest.raises(RenderError, match='DeviceClass "other.example.com" not found'):
        _dra.resource_claim_template("dgd-w-gpu", "ns", 1, "other.example.com", options)


def test_extra_client_container_errors() -> None:
    """``gmsExtraClientContainersError``: duplicates and missing containers, each sorted, in Go's %q form."""
    spec = {"extraClientContainers": ["b", "a", "b", "main", "c"]}
    assert _gms.extra_client_containers_error(spec, [{"name": "main"}, {"name": "b"}]) == (
        'gpuMemoryService.extraClientContainers contains duplicate names ["b"]; '
        'references missing pod containers ["a" "c"]')
    assert _gms.extra_client_containers_error({"extraClientContainers": ["main"]}, [{"name": "main"}]) is None


def test_failover_master_port_staggered() -> None:
    """``staggerFlagValue``: an existing ``--master-port`` value (own argument or inside a shell line) moves by
    100 per engine; without one the second engine gets ``--master-port 29600``."""
    pod = {"containers": [{"name": "main", "args": ["--master-port", "30000"]}]}
    _failover.build_failover_pod(pod, 1, "vllm")
    assert [c["args"] for c in pod["containers"]] == [["--master-port", "30000"], ["--master-port", "30100"]]
    pod = {"containers": [{"name": "main", "args": ["python3 -m dynamo.vllm --master-port 29510 --x"]}]}
    _failover.build_failover_pod(pod, 2, "vllm")
    assert pod["containers"][1]["args"] == ["python3 -m dynamo.vllm --master-port 29610 --x"]
    assert {"name": "NNODES", "value": "2"} in pod["containers"][1]["env"]
    pod = {"containers": [{"name": "main", "args": ["--model", "m"]}, {"name": "sidecar"}]}
    _failover.build_failover_pod(pod, 1, "vllm")
    assert [c["name"] for c in pod["containers"]] == ["engine-0", "engine-1", "sidecar"]
    assert pod["containers"][1]["args"] == ["--model", "m", "--master-port", "29600"]


def test_interpod_trtllm_leader_waits_for_gms_then_workers() -> None:
    """``applyCliqueStartupDependencies``: an engine starts after its rank's GMS clique; a TRT-LLM multinode
    leader then after its workers."""
    comp = {"experimental": {"gpuMemoryService": {"mode": "InterPod"}}, "multinode": {"nodeCount": 2}}
    roles = _gmsinterpod.expand_roles("Svc", comp)
    assert _gmsinterpod.startup_dependencies(roles, "trtllm", 2, True) == {
        "svc-ldr": ["svc-gms-0", "svc-wkr-1"], "svc-wkr-1": ["svc-gms-1"]}
    assert _gmsinterpod.startup_dependencies(roles, "vllm", 2, True) == {
        "svc-ldr": ["svc-gms-0"], "svc-wkr-1": ["svc-gms-1"]}



def _interpod_pcs(nodes: int) -> dict[str, Any]:
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._render._admit import admit
    from dynamo_schema._render._podcliqueset import render_pcs

    service: dict[str, Any] = {
        "componentType": "decode", "replicas": 1, "resources": {"limits": {"gpu": "1"}},
        "gpuMemoryService": {"enabled": True, "mode": "interPod"},
        "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}
    if nodes > 1:
        service["multinode"] = {"nodeCount": nodes}
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "test-dgd", "namespace": "test-ns"},
             "spec": {"backendFramework": "vllm", "services": {"decode": service}}}
    dgd = admit(to_v1beta1(alpha), RenderOptions(), grove=True)
    return render_pcs(dgd, "", RenderOptions(dra_enabled=True), "test-ns")


def test_gms_cliques_carry_no_discovery_labels() -> None:
    """``TestGenerateGrovePodCliqueSet_GMSPodsDoNotCarryDiscoveryLabels``: the weight servers run no Dynamo
    runtime; the engines keep the discovery labels."""
    keys = {"nvidia.com/dynamo-discovery-backend", "nvidia.com/dynamo-discovery-enabled"}
    cliques = _interpod_pcs(1)["spec"]["template"]["cliques"]
    assert {c["name"]: keys <= set(c["labels"]) for c in cliques} == {"decode-gms-0": False, "decode": True}
    assert not keys & set(cliques[0]["labels"])


def test_failover_shadows_are_not_gang_peers() -> None:
    """``TestGenerateGrovePodCliqueSet_MinAvailable_FailoverShadowsAreRedundant``: multinode inter-pod
    failover engines run primary + shadows per rank with minAvailable 1; GMS cliques one pod."""
    cliques = _interpod_pcs(2)["spec"]["template"]["cliques"]
    assert [(c["name"], c["spec"]["replicas"], c["spec"]["minAvailable"]) for c in cliques] == [
        ("decode-gms-0", 1, 1), ("decode-ldr", 2, 1), ("decode-gms-1", 1, 1), ("decode-wkr-1", 2, 1)]
    assert [c["spec"].get("startsAfter") for c in cliques] == [None, ["decode-gms-0"], None, ["decode-gms-1"]]


def test_rendered_claim_templates_are_schema_checked() -> None:
    """The output check validates ``resource.k8s.io/v1`` with a release that serves it (1.34)."""
    from dynamo_schema._pipeline._render_object import check_rendered

    rct = _dra.resource_claim_template("dgd-w-gpu", "ns", 1, "gpu.nvidia.com", RenderOptions(dra_enabled=True))
    assert rct is not None and check_rendered([rct]) == []
    rct["spec"]["spec"]["devices"]["requests"][0]["exactly"]["count"] = "two"
    assert [d.rule for d in check_rendered([rct])] == ["k8s-schema.type"]


@pytest.mark.parametrize("existing", [
    {"key": "example.com/other", "operator": "Exists", "effect": "NoSchedule"},  # another key
    {"key": _dra.GPU_TOLERATION_KEY, "operator": "Exists", "effect": "NoExecute"},  # another effect
])
def test_apply_claim_adds_the_gpu_toleration_unless_key_and_effect_match(existing: dict[str, Any]) -> None:
    """``dra.ApplyClaim``: the ``nvidia.com/gpu`` NoSchedule toleration is added unless one with that key
    *and* that effect is there already."""
    pod: dict[str, Any] = {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "1"}}}],
                           "tolerations": [dict(existing)]}
    _dra.apply_claim(pod, "t-gpu")
    assert pod["tolerations"] == [existing, {"key": _dra.GPU_TOLERATION_KEY, "operator": "Exists",
                                             "effect": "NoSchedule"}]
    again = copy.deepcopy(pod)
    _dra.apply_claim(again, "t-gpu")  # once: a second application adds nothing
    assert again["tolerations"] == pod["tolerations"]


@pytest.mark.parametrize("role,backend,expected", [
    ("worker", "vllm", ["svc-ldr"]), ("worker", "sglang", ["svc-ldr"]),
    ("leader", "vllm", None), ("leader", "sglang", None), ("main", "vllm", None),
    ("leader", "trtllm", ["svc-wkr"]), ("worker", "trtllm", None), ("worker", "other", None),
])
def test_clique_startup_dependencies(role: str, backend: str, expected: list[str] | None) -> None:
    """Operator ``getCliqueStartupDependencies``: vLLM/SGLang workers start after the leader, a TRT-LLM leader after
    its workers, nothing else."""
    assert _gmsinterpod.clique_startup_dependencies(role, backend, "svc-ldr", ["svc-wkr"]) == expected


def test_clique_startup_dependencies_need_the_other_clique() -> None:
    """``getCliqueStartupDependencies``: no leader name / no worker names, no dependency."""
    assert _gmsinterpod.clique_startup_dependencies("worker", "vllm", "", ["svc-wkr"]) is None
    assert _gmsinterpod.clique_startup_dependencies("leader", "trtllm", "svc-ldr", []) is None
