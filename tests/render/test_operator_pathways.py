"""What the reference revision's reconcilers create, and the failures they stop at, per pathway.

Expected values: the operator-verified cases (``../shared/reference/dynamo/operator-cases``, named per
test) and the reference revision 2a6da14c (``deploy/operator/`` prefix omitted):

* ``internal/controller/dgd_component_program.go`` ``componentProgram.Reconcile``: worker hash, shared
  resources, then ``no multinode orchestrator available`` when a component spans several nodes and the
  LWS gate is off, then the child DCDs;
* ``dynamocomponentdeployment_controller.go`` ``checkMainContainer`` on the LeaderWorkerSet's pod
  templates (``container Command cannot be nil`` / ``container Args cannot be empty`` / ``main container
  not found``);
* ``internal/dynamo/graph.go`` ``GenerateBasePodSpecForController``: a DCD's pods name their parent by
  owner reference, else the DCD itself (not the ``nvidia.com/dynamo-graph-deployment-name`` label);
* ``internal/dynamo/model_service.go`` ``ReconcileModelServicesForComponents``: DGD annotations only
  when the DGD owns the Service (the Grove pathway); the DCD controller creates it for its component;
* ``internal/provideroverride/grove.go`` ``ComposeGroveOverrides``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._render import RenderError, RenderOptions, render

CASES = (Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "dynamo" / "operator-cases"
         / "cases").resolve()


def _case(name: str) -> dict[str, Any]:
    data = yaml.load((CASES / name).read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert isinstance(data, dict)
    return data


def _render_case(case: dict[str, Any], target: str, **options: Any) -> list[dict[str, Any]]:
    """The case's stored object rendered for ``target`` (the library render, no output check)."""
    settings = case.get("settings") or {}
    return render(copy.deepcopy(case["expected"]["defaulted"]), target,
                  RenderOptions(namespace=str(settings.get("namespace", "default")), **options))


def _by_key(objs: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(o["kind"], o["metadata"]["name"]): o for o in objs}


def _dgd(components: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "paths", "namespace": "ns"},
            "spec": {"backendFramework": "vllm", "components": components, **spec}}


def _worker(name: str = "worker", nodes: int = 1, **main: Any) -> dict[str, Any]:
    comp: dict[str, Any] = {"name": name, "type": "worker", "podTemplate": {"spec": {"containers": [
        {"name": "main", "image": "vllm-runtime:1.4.0", **main}]}}}
    if nodes > 1:
        comp["multinode"] = {"nodeCount": nodes}
    return comp


@pytest.mark.shared
@pytest.mark.parametrize("name", ["0139-dgd-k8s-nolws-probe-readinessprobe-ok.yaml", "0633-dgd-k8s-nolws-resources-requests-both-ok.yaml"])
def test_no_multinode_orchestrator(name: str) -> None:
    # 0633 also has a backend-framework mismatch: the DCD controller would report it, but the DGD
    # reconcile stops before creating any DCD
    case = _case(name)
    assert case["expected"]["renderError"].endswith("no multinode orchestrator available")
    for target in ("kubernetes", "dcd"):
        with pytest.raises(RenderError) as exc:
            _render_case(case, target, lws_enabled=False)
        assert exc.value.diagnostics[0].message == "no multinode orchestrator available"
        assert exc.value.diagnostics[0].rule == "render.no-multinode-orchestrator"


def test_multinode_without_lws_single_node_dgd_renders() -> None:
    objs = render(_dgd([_worker()]), "kubernetes", RenderOptions(namespace="ns", lws_enabled=False))
    assert any(o["kind"] == "Deployment" for o in objs)


@pytest.mark.parametrize(("main", "message"), [
    ({"command": ["python3"]}, "container Args cannot be empty for LWS pod"),
    ({"command": ["python3"], "args": ["-m", "dynamo.vllm"]}, None),
])
def test_lws_main_container_check(main: dict[str, Any], message: str | None) -> None:
    dgd = _dgd([_worker(nodes=2, **main)])
    if message is None:
        objs = render(dgd, "kubernetes", RenderOptions(namespace="ns"))
        assert any(o["kind"] == "LeaderWorkerSet" for o in objs)
        return
    with pytest.raises(RenderError) as exc:
        render(dgd, "kubernetes", RenderOptions(namespace="ns"))
    assert exc.value.diagnostics[0].message == message


@pytest.mark.shared
def test_lws_args_required_case() -> None:
    case = _case("1007-dcd-grove-podspec-serviceaccountname-ok.yaml")
    assert case["expected"]["renderError"].endswith("container Args cannot be empty for LWS pod")
    with pytest.raises(RenderError) as exc:
        _render_case(case, "kubernetes")
    assert exc.value.diagnostics[0].message == "container Args cannot be empty for LWS pod"


@pytest.mark.shared
def test_standalone_dcd_pods_name_the_dcd_as_parent() -> None:
    case = _case("1058-dcd-k8s-seed-ok.yaml")
    want = _by_key(case["expected"]["objects"])
    got = _by_key(_render_case(case, "kubernetes"))
    key = next(k for k in want if k[0] == "Deployment")
    env = {e["name"]: e.get("value") for e in got[key]["spec"]["template"]["spec"]["containers"][0]["env"]}
    want_env = {e["name"]: e.get("value") for e in want[key]["spec"]["template"]["spec"]["containers"][0]["env"]}
    for name in ("DYN_NAMESPACE", "DYN_PARENT_DGD_K8S_NAME"):
        assert env[name] == want_env[name]
    assert env["DYN_PARENT_DGD_K8S_NAME"] == case["input"]["metadata"]["name"]
    assert (got[key]["spec"]["template"]["spec"]["serviceAccountName"]
            == want[key]["spec"]["template"]["spec"]["serviceAccountName"])


@pytest.mark.shared
def test_owned_dcd_pods_name_the_owning_dgd_as_parent() -> None:
    """``GetParentGraphDeploymentName``: the first owner reference of kind DynamoGraphDeployment names the
    pods' parent; owners of other kinds do not count."""
    case = _case("1058-dcd-k8s-seed-ok.yaml")
    dcd = copy.deepcopy(case["expected"]["defaulted"])
    dcd["metadata"]["ownerReferences"] = [
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "not-a-graph", "uid": "1"},
        {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "name": "graph", "uid": "2"},
    ]
    deployment = next(o for o in render(dcd, "kubernetes", RenderOptions(namespace="default"))
                      if o["kind"] == "Deployment")
    env = {e["name"]: e.get("value") for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["DYN_PARENT_DGD_K8S_NAME"] == "graph"
    dcd["metadata"]["ownerReferences"] = dcd["metadata"]["ownerReferences"][:1]
    deployment = next(o for o in render(dcd, "kubernetes", RenderOptions(namespace="default"))
                      if o["kind"] == "Deployment")
    env = {e["name"]: e.get("value") for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["DYN_PARENT_DGD_K8S_NAME"] == dcd["metadata"]["name"]


@pytest.mark.shared
@pytest.mark.parametrize(("name", "target"), [
    ("0372-dcd-grove-model-ref-ok.yaml", "kubernetes"),  # a standalone DCD gets the model Service
    ("0620-dgd-k8s-model-ref-ok.yaml", "kubernetes"),  # owned by a DCD: no DGD spec.annotations
])
def test_model_service(name: str, target: str) -> None:
    case = _case(name)
    want = {k: v for k, v in _by_key(case["expected"]["objects"]).items() if k[1].startswith("dynamo-model-")}
    got = {k: v for k, v in _by_key(_render_case(case, target)).items() if k[1].startswith("dynamo-model-")}
    assert want and set(got) == set(want)
    for key, svc in want.items():
        got[key]["spec"].pop("publishNotReadyAddresses")  # the README's normalisation 6
        assert got[key] == svc


def test_grove_model_service_carries_dgd_annotations() -> None:
    worker = _worker()
    worker["modelRef"] = {"name": "Qwen/Qwen3-0.6B"}
    objs = render(_dgd([worker], annotations={"team": "inference"}), "grove", RenderOptions(namespace="ns"))
    svc = next(o for o in objs if o["metadata"]["name"].startswith("dynamo-model-"))
    assert svc["metadata"]["annotations"] == {"nvidia.com/dynamo-base-model": "Qwen/Qwen3-0.6B", "team": "inference"}


def test_child_dcd_omits_go_zero_values() -> None:
    worker = _worker()
    worker["experimental"] = {"grove": {"forceScalingGroup": False}}
    worker["globalDynamoNamespace"] = False
    dcd = next(o for o in render(_dgd([worker]), "dcd", RenderOptions(namespace="ns")))
    assert dcd["spec"]["experimental"] == {"grove": {}}
    assert "globalDynamoNamespace" not in dcd["spec"]


@pytest.mark.shared
@pytest.mark.parametrize("name", ["0515-dgd-grove-provider-override-root-ok.yaml",
                                  "0973-dgd-grove-provider-override-component-ok.yaml"])
def test_provider_override_topology(name: str) -> None:
    case = _case(name)
    want = next(o for o in case["expected"]["objects"] if o["kind"] == "PodCliqueSet")
    got = next(o for o in _render_case(case, "grove") if o["kind"] == "PodCliqueSet")
    assert got == want


def test_provider_override_roles_and_groups() -> None:
    tc = {"packDomain": "rack", "extra": None}
    leader = {"providerOverride": {"apiVersion": "grove.io/v1alpha1", "target": "PodCliqueTemplateSpec",
                                   "value": {"topologyConstraint": tc}}}
    mn = _worker("decode", nodes=2, command=["python3"], args=["-m", "dynamo.vllm"])
    mn["multinode"]["worker"] = leader
    mn["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "value": {"topologyConstraint": {"packDomain": "zone"}}}
    pcs = next(o for o in render(_dgd([mn]), "grove", RenderOptions(namespace="ns")) if o["kind"] == "PodCliqueSet")
    cliques = {c["name"]: c for c in pcs["spec"]["template"]["cliques"]}
    assert cliques["decode-wkr"]["topologyConstraint"] == tc and "topologyConstraint" not in cliques["decode-ldr"]
    assert pcs["spec"]["template"]["podCliqueScalingGroups"][0]["topologyConstraint"] == {"packDomain": "zone"}
    mn["providerOverride"]["target"] = "PodCliqueTemplateSpec"  # a stale target: no clique named "decode"
    with pytest.raises(RenderError) as exc:
        render(_dgd([mn]), "grove", RenderOptions(namespace="ns"))
    assert exc.value.diagnostics[0].message == 'generated destination spec.template.cliques["decode"] was not found'


def _sidecar_mounts(objs: list[dict[str, Any]], clique: str, name: str) -> list[dict[str, Any]]:
    pcs = next(o for o in objs if o["kind"] == "PodCliqueSet")
    cl = next(c for c in pcs["spec"]["template"]["cliques"] if c["name"] == clique)
    return next(c for c in cl["spec"]["podSpec"]["containers"] if c["name"] == name).get("volumeMounts") or []


@pytest.mark.shared
def test_frontend_sidecar_gets_the_main_mounts_it_lacks() -> None:
    """graph.go ``mergeFrontendSidecarDefaults`` / ``appendMissingVolumeMounts``: the sidecar keeps its own
    mounts, then gets each of the main container's mounts whose name it does not have yet, in their order."""
    case = _case("0377-dgd-grove-ns-grove-only-priority-ok.yaml")
    want = _sidecar_mounts(case["expected"]["objects"], "vllmworker", "sidecar-frontend")
    assert _sidecar_mounts(_render_case(case, "grove"), "vllmworker", "sidecar-frontend") == want
    assert [m["name"] for m in want] == ["shared-model-cache", "artifact-root", "runtime-tmp", "flashinfer-cubins"]
    # the sidecar mounts artifact-root itself (elsewhere): that one is its own, the rest still follow
    comp = next(c for c in case["expected"]["defaulted"]["spec"]["components"] if c.get("frontendSidecar"))
    sidecar = next(c for c in comp["podTemplate"]["spec"]["containers"] if c["name"] == "sidecar-frontend")
    own = {"name": "artifact-root", "mountPath": "/sidecar-artifacts"}
    sidecar["volumeMounts"] = [own]
    got = _sidecar_mounts(_render_case(case, "grove"), "vllmworker", "sidecar-frontend")
    assert got == [own] + [m for m in want if m["name"] != "artifact-root"]
