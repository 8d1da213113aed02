"""Adapters for ``internal/controller/dynamocomponentdeployment_controller_test.go``.

The DCD controller's rendering → ``_workloads`` (``generateService`` → ``render_dcd_service``, whose
``None`` is the operator's "delete" answer; ``generateLeaderWorkerSet`` → ``render_lws``;
``generatePodTemplateSpec`` → the Deployment's pod template of ``render_deployment``;
``getDCDWorkloadComponentType`` → ``dcd_workload_type``; ``getResourceAnnotations`` →
``dcd_resource_annotations``; ``GetDCDKubeAnnotations`` → ``dcd_kube_annotations``); ``dcdIngressSpec`` +
``generateIngress`` → ``_extras.dcd_ingress``. The tests' empty ``OperatorConfiguration`` is
``RenderOptions(discovery_backend="")``.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions

from ._support import adapter, controller_beta_dcd, env_map, hand_ported, k8s

LABEL_DGD = "nvidia.com/dynamo-graph-deployment-name"
LABEL_WORKER_HASH = "nvidia.com/dynamo-worker-hash"
LABEL_TYPE = "nvidia.com/dynamo-component-type"
LABEL_SUB_TYPE = "nvidia.com/dynamo-sub-component-type"
K8S_DISCOVERY = RenderOptions(discovery_backend="kubernetes")


def alpha_dcd(name: str, spec: dict[str, Any], labels: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": "default"}
    if labels:
        meta["labels"] = dict(labels)
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment", "metadata": meta, "spec": spec}


def beta_dcd_of(name: str, spec: dict[str, Any], labels: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": "default"}
    if labels:
        meta["labels"] = dict(labels)
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment", "metadata": meta, "spec": spec}


def service(dcd: dict[str, Any], options: RenderOptions) -> dict[str, Any] | None:
    from dynamo_schema._render._workloads import render_dcd_service

    return render_dcd_service(dcd, options, dcd["metadata"]["namespace"])


def deployment_template(dcd: dict[str, Any], options: RenderOptions) -> dict[str, Any]:
    """``generatePodTemplateSpec`` for the main role: the pod template of the DCD's Deployment."""
    from dynamo_schema._render._workloads import render_deployment

    template: dict[str, Any] = render_deployment(dcd, options, dcd["metadata"]["namespace"])["spec"]["template"]
    return template


@hand_ported("TestDynamoComponentDeploymentReconciler_dcdIngressSpecDefaultsFromParentDGD")
def _dcd_ingress_defaults(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A frontend DCD of the DGD ``test-dgd`` and an ingress configuration (class nginx, host suffix
    example.com): the default ingress is enabled, of class nginx, for host ``test-dgd`` + the suffix."""
    from dynamo_schema._render._extras import dcd_ingress

    dcd = beta_dcd_of("test-dgd-frontend", {"name": "frontend", "type": "frontend"}, {LABEL_DGD: "test-dgd"})
    options = RenderOptions(ingress_controller_class_name="nginx", ingress_host_suffix="example.com")
    ingresses = [o for o in dcd_ingress(dcd, "default", options) if o["kind"] == "Ingress"]
    assert len(ingresses) == 1
    spec = ingresses[0]["spec"]
    assert spec["ingressClassName"] == "nginx"
    assert [r["host"] for r in spec["rules"]] == ["test-dgd.example.com"]  # getIngressHost: host + "." + suffix


@hand_ported("TestDynamoComponentDeploymentReconciler_generateService_DottedDeleteStub")
def _dcd_service_delete_stub(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A worker DCD named ``service.1`` without Kubernetes discovery gets no Service (the operator deletes
    it); the stub it deletes by is the Service the DCD would have, named ``service-1``."""
    dcd = controller_beta_dcd(alpha_dcd("service.1", {"serviceName": "service1", "dynamoNamespace": "default",
                                                      "componentType": "worker"}))
    assert service(dcd, RenderOptions(discovery_backend="")) is None
    live = service(dcd, K8S_DISCOVERY)
    assert live is not None and live["metadata"]["name"] == "service-1"


@hand_ported("TestDynamoComponentDeploymentReconciler_LWSNameDoesNotCollideWithComponentService")
def _dcd_lws_name(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A two-node decode DCD: the component Service keeps the DCD's name, the LeaderWorkerSet is
    ``<name>-0``. (Upstream also checks that the controller composes the renderer's objects unchanged;
    ours has one code path for both.)"""
    from dynamo_schema._render._workloads import render_dcd_workloads

    dcd = controller_beta_dcd(alpha_dcd("vllm-disagg-decode-4e5bb2af", {
        "backendFramework": "vllm", "serviceName": "decode", "dynamoNamespace": "default", "componentType": "decode",
        "replicas": 1, "multinode": {"nodeCount": 2}, "resources": {"limits": {"gpu": "1"}},
        "extraPodSpec": {"mainContainer": {"image": "test-image:latest", "command": ["python3"],
                                           "args": ["-m", "dynamo.vllm"]}}}))
    objs = render_dcd_workloads(dcd, K8S_DISCOVERY, "default")
    services = [o for o in objs if o["kind"] == "Service"]
    lws = [o for o in objs if o["kind"] == "LeaderWorkerSet"]
    assert len(services) == 1 and len(lws) == 1
    assert services[0]["metadata"]["name"] == "vllm-disagg-decode-4e5bb2af"
    assert lws[0]["metadata"]["name"] == "vllm-disagg-decode-4e5bb2af-0"


def _legacy_decode_dcd() -> dict[str, Any]:
    return controller_beta_dcd(alpha_dcd("qwen-vllmdecodeworker-db6b6891", {
        "backendFramework": "vllm", "serviceName": "VllmDecodeWorker", "componentType": "worker",
        "subComponentType": "decode", "dynamoNamespace": "default",
        "extraPodSpec": {"mainContainer": {"name": "main", "image": "test-image:latest"}}},
        {LABEL_DGD: "qwen", LABEL_WORKER_HASH: "db6b6891", LABEL_TYPE: "decode"}))


@hand_ported("TestDynamoComponentDeploymentReconciler_LegacyAlphaWorkloadComponentType")
def _dcd_legacy_alpha_type(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A converted v1alpha1 decode worker whose live Deployment still selects ``worker`` pods (the
    legacy selector): its pods, DYN_COMPONENT and Service keep the ``worker`` type."""
    dcd = _legacy_decode_dcd()
    assert dcd["spec"]["type"] == "decode"
    template = deployment_template(dcd, K8S_DISCOVERY)
    labels = template["metadata"]["labels"]
    assert labels.get(LABEL_TYPE) == "worker"
    assert labels.get(LABEL_SUB_TYPE) == "decode"
    values = env_map(template["spec"]["containers"][0])
    assert values.get("DYN_COMPONENT") == "worker"
    assert values.get("DYN_NAMESPACE_WORKER_SUFFIX") == "db6b6891"
    svc = service(dcd, K8S_DISCOVERY)
    assert svc is not None and svc["spec"]["selector"].get(LABEL_TYPE) == "worker"


def _legacy_without_hash() -> dict[str, Any]:
    return beta_dcd_of("qwen-vllmdecodeworker", {"name": "VllmDecodeWorker", "type": "decode"},
                       {LABEL_DGD: "qwen", LABEL_TYPE: "decode"})


@hand_ported("TestDynamoComponentDeploymentReconciler_LegacyAlphaWorkloadComponentTypeWithoutWorkerHash")
def _dcd_legacy_type_no_hash(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A decode DCD without a worker hash whose live Deployment selects ``worker`` pods: workload type
    ``worker``."""
    from dynamo_schema._render._workloads import dcd_workload_type

    assert dcd_workload_type(_legacy_without_hash()) == "worker"


@hand_ported("TestDynamoComponentDeploymentReconciler_LegacyAlphaWorkloadComponentTypeFromLeaderWorkerSet")
def _dcd_legacy_type_from_lws(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """As above, the legacy selector being on the live LeaderWorkerSet's worker template (LWS gate on)."""
    from dynamo_schema._render._workloads import dcd_workload_type

    assert dcd_workload_type(_legacy_without_hash()) == "worker"


@hand_ported("TestDynamoComponentDeploymentReconciler_BetaPrefillWorkloadComponentType")
def _dcd_beta_prefill_type(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A v1beta1 prefill DCD labelled ``prefill`` (parent DGD at its current worker hash): pods, DYN_COMPONENT
    and the Service selector say ``prefill``."""
    dcd = beta_dcd_of("qwen-prefill-db6b6891", {"backendFramework": "vllm", "name": "prefill", "type": "prefill",
                                                "podTemplate": {}},
                      {LABEL_DGD: "qwen", LABEL_WORKER_HASH: "db6b6891", LABEL_TYPE: "prefill"})
    template = deployment_template(dcd, K8S_DISCOVERY)
    assert template["metadata"]["labels"].get(LABEL_TYPE) == "prefill"
    assert env_map(template["spec"]["containers"][0]).get("DYN_COMPONENT") == "prefill"
    svc = service(dcd, K8S_DISCOVERY)
    assert svc is not None and svc["spec"]["selector"].get(LABEL_TYPE) == "prefill"


@hand_ported("TestDynamoComponentDeploymentReconciler_getKubeAnnotations_DropsOperatorOriginVersion")
def _dcd_kube_annotations_origin(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._workloads import dcd_kube_annotations

    dcd = {"spec": {"podTemplate": {"metadata": {"annotations": {
        "nvidia.com/dynamo-operator-origin-version": "1.2.0", "nvidia.com/dynamo-discovery-backend": "kubernetes"}}}}}
    got = dcd_kube_annotations(dcd)
    assert "nvidia.com/dynamo-operator-origin-version" not in got
    assert got.get("nvidia.com/dynamo-discovery-backend") == "kubernetes"


@hand_ported("TestGetResourceAnnotations_PodTemplateOverridesPreservedAlpha")
def _dcd_resource_annotations(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Preserved v1alpha1 annotations (strategy Recreate, legacy-only) under pod-template annotations
    (strategy RollingUpdate, max surge 50%): the pod template wins, the legacy-only one stays."""
    from dynamo_schema._render._workloads import dcd_resource_annotations

    dcd = controller_beta_dcd(alpha_dcd("test-dcd", {"serviceName": "test-dcd", "annotations": {
        "nvidia.com/deployment-strategy": "Recreate", "legacy-only": "kept"}}))
    dcd["spec"].setdefault("podTemplate", {}).setdefault("metadata", {})["annotations"] = {
        "nvidia.com/deployment-strategy": "RollingUpdate", "nvidia.com/deployment-rolling-update-max-surge": "50%"}
    got = dcd_resource_annotations(dcd)
    assert got.get("nvidia.com/deployment-strategy") == "RollingUpdate"
    assert got.get("nvidia.com/deployment-rolling-update-max-surge") == "50%"
    assert got.get("legacy-only") == "kept"


def _lws_for_compare(lws: dict[str, Any]) -> dict[str, Any]:
    """``normalizeLeaderWorkerSetForCompare`` (containers sorted by name) on the Go encoding: Go's zero
    values that encode as empty (``name: ""``, ``resources: {}``) dropped."""
    out = copy.deepcopy(lws)
    for key in ("apiVersion", "kind", "status"):
        out.pop(key, None)
    if out["spec"].get("rolloutStrategy") == {"type": ""}:  # the Go zero value of the struct
        del out["spec"]["rolloutStrategy"]
    for role in ("leaderTemplate", "workerTemplate"):
        template = out["spec"]["leaderWorkerTemplate"].get(role)
        if template:
            pod = template["spec"]
            pod["containers"] = sorted((k8s(c) for c in pod.get("containers") or []), key=lambda c: c.get("name", ""))
    return json.loads(json.dumps(out, sort_keys=True))


@adapter("TestDynamoComponentDeploymentReconciler_generateLeaderWorkerSet")
def _dcd_generate_lws(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._workloads import render_lws

    dcd = dict(row["args"]["opt"]["dynamoComponentDeployment"], apiVersion="nvidia.com/v1beta1",
               kind="DynamoComponentDeployment")
    options = RenderOptions(discovery_backend="")
    if row["wantErr"]:
        with pytest.raises(RenderError):
            render_lws(dcd, options, dcd["metadata"]["namespace"])
        return
    got = render_lws(dcd, options, dcd["metadata"]["namespace"])
    assert row["want1"] is False
    assert _lws_for_compare(got) == _lws_for_compare(row["want"])


@hand_ported("TestGenerateWorkerPodTemplateSpecDoesNotRequireGPUResource")
def _dcd_worker_template_no_gpu(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A decode DCD whose main container asks for CPU only: its LWS worker template renders, with the
    ``worker`` role label and ``main`` first."""
    from dynamo_schema._render._workloads import render_lws

    dcd = beta_dcd_of("worker-no-gpu-check", {
        "backendFramework": "vllm", "name": "decode", "type": "decode",
        "podTemplate": {"spec": {"containers": [{
            "name": "main", "image": "nvcr.io/nvidia/dynamo:latest", "command": ["python3"], "args": ["-m", "dynamo.vllm"],
            "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "1"}}}]}}})
    worker = render_lws(dcd, K8S_DISCOVERY, "default")["spec"]["leaderWorkerTemplate"]["workerTemplate"]
    assert worker["metadata"]["labels"]["role"] == "worker"
    assert worker["spec"]["containers"][0]["name"] == "main"


@hand_ported("TestRenderMultinodePodTemplateSpecs_VLLMMultinodeDRA")
def _dcd_lws_vllm_dra(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """An LWS-backed two-node TP=2 vLLM DCD (multiprocessing backend) whose GPU is a DRA claim on the
    one-GPU template ``one-gpu``: role-specific launch flags, the claim kept. (Upstream also counts one
    read of the template and one of its DeviceClass; render reads no cluster.)"""
    from dynamo_schema._render._workloads import render_lws

    dcd = beta_dcd_of("dra-test-agg", {
        "backendFramework": "vllm", "name": "agg", "type": "worker", "multinode": {"nodeCount": 2},
        "podTemplate": {
            "metadata": {"annotations": {"nvidia.com/vllm-distributed-executor-backend": "mp"}},
            "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                     "containers": [{"name": "main", "image": "vllm-test", "command": ["python3"],
                                     "args": ["-m", "dynamo.vllm", "--tensor-parallel-size", "2"],
                                     "resources": {"claims": [{"name": "gpu"}]}}]}}})
    tmpl = render_lws(dcd, RenderOptions(discovery_backend=""), "default")["spec"]["leaderWorkerTemplate"]
    leader = tmpl["leaderTemplate"]["spec"]["containers"][0]
    worker = tmpl["workerTemplate"]["spec"]["containers"][0]
    for flag in ("--nnodes", "--node-rank", "0"):
        assert flag in leader.get("args", []), flag
    assert "--headless" in worker.get("args", [])
    assert "$(LWS_WORKER_INDEX)" in worker.get("args", [])
    assert (leader.get("resources") or {}).get("claims") == [{"name": "gpu"}]
    assert (worker.get("resources") or {}).get("claims") == [{"name": "gpu"}]
