"""Adapters for ``internal/dynamo/graph_test.go``: child DCD generation, pod specs, kvTransferPolicy.

Each adapter restates its Go test's setup and makes the Go test's assertions against our counterpart:
``GenerateDynamoComponentsDeployments`` → ``_graph.generate_dcds``; ``GenerateBasePodSpec`` →
``_pod.generate_pod_spec``; ``GeneratePodSpecForComponent`` (the DGD's template defaults, then the base
pod spec) → ``_graph.apply_dgd_template_defaults`` + ``generate_pod_spec``; ``GetDCDKubeAnnotations`` /
``GetDCDKubeLabels`` / ``GetDCDDynamoNamespace`` / ``GetDCDSubComponentType`` → ``_workloads``;
``GetDCDPreservedAlpha*`` → the DCD's v1alpha1 view (``_alphacompat.dcd_alpha_spec``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions
from dynamo_schema._render._podrequest import PodRequest

from ._support import (
    adapter,
    alpha_dgd,
    base_pod,
    beta_component,
    beta_dgd,
    beta_dgd_of,
    env_map,
    hand_ported,
    k8s,
)

TOPOLOGY_LABEL_KEY = "topology.kubernetes.io/zone"  # graph_test.go testTopologyLabelKey
ANN_LABEL_KEY = "nvidia.com/topology-label-key"
ANN_CLUSTER_TOPOLOGY = "nvidia.com/topology-cluster-topology-name"
LABEL_DGD = "nvidia.com/dynamo-graph-deployment-name"
LABEL_COMPONENT = "nvidia.com/dynamo-component"
LABEL_WORKER_HASH = "nvidia.com/dynamo-worker-hash"
LABEL_CLASS = "nvidia.com/dynamo-component-class"
TOPOLOGY_VOLUME = "topology-labels"  # graph.go topologyVolumeName
VLLM_CACHE_DEFAULT = "/root/.cache/vllm"  # consts.go DefaultVLLMCacheMountPoint


def dcds_of(dgd: dict[str, Any], worker_hash: str = "") -> dict[str, dict[str, Any]]:
    """``GenerateDynamoComponentsDeployments``: component name → generated DCD."""
    from dynamo_schema._render._graph import generate_dcds

    ns = str(dgd["metadata"].get("namespace") or "default")
    return {d["spec"]["name"]: d for d in generate_dcds(dgd, worker_hash, ns)}


def kube_annotations(dcd: dict[str, Any]) -> dict[str, str]:
    from dynamo_schema._render._workloads import dcd_kube_annotations

    return dcd_kube_annotations(dcd)


def kube_labels(dcd: dict[str, Any]) -> dict[str, str]:
    from dynamo_schema._render._workloads import dcd_kube_labels

    return dcd_kube_labels(dcd, str(dcd["metadata"].get("namespace") or "default"))


def to_beta(alpha: dict[str, Any]) -> dict[str, Any]:
    """``alpha.ConvertTo(beta)``: the conversion alone (no metadata copied onto pod templates)."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    return to_v1beta1(copy.deepcopy(alpha))


def kv_dgd(components: list[dict[str, Any]], policy: dict[str, Any] | None, env: list[dict[str, Any]] | None = None,
           experimental: bool = True) -> dict[str, Any]:
    """A v1beta1 vLLM DGD ``test-dgd``/``default`` with ``spec.experimental.kvTransferPolicy``."""
    exp: dict[str, Any] | None = None
    if experimental:
        exp = {} if policy is None else {"kvTransferPolicy": policy}
    return beta_dgd_of("test-dgd", "default", components, backendFramework="vllm", env=env, experimental=exp)


# ---------------------------------------------------------------- DCD generation


@hand_ported("TestGenerateDynamoComponentsDeployments_PropagatesPreservedAlphaServiceAnnotations")
def _dcds_preserve_alpha_service(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._alphacompat import dcd_alpha_spec
    from dynamo_schema._render._workloads import dcd_dynamo_namespace, dcd_sub_component_type

    frontend = {"serviceName": "frontend", "dynamoNamespace": "custom-ns", "componentType": "frontend",
                "subComponentType": "legacy-sub", "annotations": {"legacy-annotation": "kept"},
                "labels": {"legacy-label": "kept"},
                "ingress": {"enabled": True, "host": "legacy.example", "ingressControllerClassName": "nginx"}}
    dgd = to_beta(alpha_dgd("test-dgd", "default", {"frontend": frontend})["alpha"])
    dcd = dcds_of(dgd)["frontend"]
    assert dcd_dynamo_namespace(dcd, "default") == "custom-ns"
    assert dcd_sub_component_type(dcd) == "legacy-sub"
    alpha = dcd_alpha_spec(dcd) or {}
    assert alpha.get("annotations") == {"legacy-annotation": "kept"}
    assert alpha.get("labels") == {"legacy-label": "kept"}
    ingress = alpha.get("ingress")
    assert isinstance(ingress, dict)
    assert ingress.get("host") == "legacy.example"
    assert ingress.get("ingressControllerClassName") == "nginx"


def _worker_and_frontend() -> list[dict[str, Any]]:
    return [{"name": "worker", "type": "worker"}, {"name": "frontend", "type": "frontend"}]


@hand_ported("TestGenerateDynamoComponentsDeployments_AddsTopologyLabelAnnotationToWorkers")
def _dcds_topology_label(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dcds = dcds_of(kv_dgd(_worker_and_frontend(),
                          {"labelKey": TOPOLOGY_LABEL_KEY, "domain": "zone", "enforcement": "required"}))
    worker, frontend = dcds["worker"], dcds["frontend"]
    assert (worker["metadata"].get("annotations") or {}).get(ANN_LABEL_KEY) == TOPOLOGY_LABEL_KEY
    assert kube_annotations(worker).get(ANN_LABEL_KEY) == TOPOLOGY_LABEL_KEY
    assert ANN_LABEL_KEY not in (frontend["metadata"].get("annotations") or {})
    assert ANN_LABEL_KEY not in kube_annotations(frontend)


@hand_ported("TestGenerateDynamoComponentsDeployments_AddsClusterTopologyAnnotationToWorkers")
def _dcds_cluster_topology(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dcds = dcds_of(kv_dgd(_worker_and_frontend(),
                          {"clusterTopologyName": "grove-topology", "domain": "rack", "enforcement": "required"}))
    worker, frontend = dcds["worker"], dcds["frontend"]
    worker_ann = worker["metadata"].get("annotations") or {}
    assert worker_ann.get(ANN_CLUSTER_TOPOLOGY) == "grove-topology"
    assert kube_annotations(worker).get(ANN_CLUSTER_TOPOLOGY) == "grove-topology"
    assert ANN_LABEL_KEY not in worker_ann
    assert ANN_LABEL_KEY not in kube_annotations(worker)
    assert ANN_CLUSTER_TOPOLOGY not in (frontend["metadata"].get("annotations") or {})
    assert ANN_CLUSTER_TOPOLOGY not in kube_annotations(frontend)


@hand_ported("TestGenerateDynamoComponentsDeployments_SkipsTopologyLabelAnnotationWithoutLabelKey")
def _dcds_no_label_key(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    worker = dcds_of(kv_dgd([{"name": "worker", "type": "worker"}], {"domain": "zone", "enforcement": "required"}))["worker"]
    assert ANN_LABEL_KEY not in (worker["metadata"].get("annotations") or {})
    assert ANN_LABEL_KEY not in kube_annotations(worker)


@hand_ported("TestTopologyLabelMetadataFromConvertedAlphaDGD")
def _topology_from_converted_alpha(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A converted v1alpha1 DGD whose spec, service and extra pod metadata all carry wrong values for the
    topology annotation and the identity labels: the generated DCD and the Grove clique carry the
    policy's label key and the operator's identity labels."""
    from ._support import cliques_by_name, pcs

    def wrong(where: str) -> dict[str, Any]:
        return {"annotations": {ANN_LABEL_KEY: f"wrong-from-{where}"},
                "labels": {LABEL_DGD: f"wrong-from-{where}", LABEL_COMPONENT: f"wrong-from-{where}"}}

    prefill = {"componentType": "worker", "subComponentType": "prefill", **wrong("alpha-service"),
               "extraPodMetadata": wrong("extra-metadata")}
    alpha = alpha_dgd("test-dgd", "default", {"prefill": prefill, "frontend": {"componentType": "frontend"}},
                      backendFramework="vllm",
                      experimental={"kvTransferPolicy": {"labelKey": TOPOLOGY_LABEL_KEY, "domain": "zone",
                                                         "enforcement": "required"}},
                      **wrong("dgd-spec"))
    dgd = to_beta(alpha["alpha"])
    dcds = dcds_of(dgd)
    pre, front = dcds["prefill"], dcds["frontend"]
    assert (pre["metadata"].get("annotations") or {}).get(ANN_LABEL_KEY) == TOPOLOGY_LABEL_KEY
    assert kube_annotations(pre).get(ANN_LABEL_KEY) == TOPOLOGY_LABEL_KEY
    labels = kube_labels(pre)
    assert labels.get(LABEL_DGD) == "test-dgd"
    assert labels.get(LABEL_COMPONENT) == "prefill"
    assert ANN_LABEL_KEY not in (front["metadata"].get("annotations") or {})
    assert ANN_LABEL_KEY not in kube_annotations(front)

    cliques = cliques_by_name(pcs(dgd, RenderOptions(discovery_backend="")))
    assert "prefill" in cliques
    assert (cliques["prefill"].get("annotations") or {}).get(ANN_LABEL_KEY) == TOPOLOGY_LABEL_KEY
    assert cliques["prefill"]["labels"].get(LABEL_DGD) == "test-dgd"
    assert cliques["prefill"]["labels"].get(LABEL_COMPONENT) == "prefill"
    assert ANN_LABEL_KEY not in (cliques["frontend"].get("annotations") or {})


@hand_ported("TestGenerateSingleDCD_RollingUpdateContext")
def _dcd_rolling_update_context(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A rolling update to worker hash aabb1122 whose new prefill target is 2 replicas (the component
    says 4): the worker DCD is renamed and labelled with the hash and takes the target; the frontend
    keeps its name, has no hash label and keeps its replicas."""
    dgd = beta_dgd(alpha_dgd("my-dgd", "ns", {"prefill": {"componentType": "prefill", "replicas": 4},
                                              "frontend": {"componentType": "frontend", "replicas": 1}}))
    # render takes no rolling-update state: the replica targets have no counterpart (state.XFAIL)
    dcds = dcds_of(dgd, "aabb1122")
    prefill, frontend = dcds["prefill"], dcds["frontend"]
    assert prefill["metadata"]["name"] == "my-dgd-prefill-aabb1122"
    assert prefill["metadata"]["labels"][LABEL_WORKER_HASH] == "aabb1122"
    assert frontend["metadata"]["name"] == "my-dgd-frontend"
    assert not frontend["metadata"]["labels"].get(LABEL_WORKER_HASH)
    assert frontend["spec"]["replicas"] == 1
    assert prefill["spec"]["replicas"] == 2


@hand_ported("TestGenerateSingleDCD_RollingUpdateZeroReplicas")
def _dcd_rolling_update_zero(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A rolling update whose new decode target is 0 replicas (old target 3, the component says 4): the
    new DCD takes 0."""
    dgd = beta_dgd(alpha_dgd("my-dgd", "ns", {"decode": {"componentType": "decode", "replicas": 4}}))
    decode = dcds_of(dgd, "aabb1122")["decode"]
    assert decode["metadata"]["name"] == "my-dgd-decode-aabb1122"
    assert decode["spec"]["replicas"] == 0


@hand_ported("TestGenerateDynamoComponentsDeploymentsAddsWorkerClassForEPP")
def _dcds_worker_class_for_epp(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._podrequest import pod_template_labels

    dgd = beta_dgd_of("my-dgd", "ns", [{"name": "epp", "type": "epp"}, {"name": "prefill", "type": "prefill"}])
    prefill = dcds_of(dgd, "aabb1122")["prefill"]
    assert prefill["metadata"]["labels"].get(LABEL_CLASS) == "worker"
    assert pod_template_labels(prefill["spec"]).get(LABEL_CLASS) == "worker"


@hand_ported("TestGenerateDynamoComponentsDeployments_SpecMetadataPropagation")
def _dcds_spec_metadata(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """DGD spec annotations/labels are low priority: the service's own values win, DGD-only ones
    propagate; the controller labels are always set."""
    from dynamo_schema._render._podrequest import pod_template_annotations, pod_template_labels

    frontend = {"componentType": "frontend", "replicas": 1, "annotations": {"shared": "svc"},
                "labels": {"shared-label": "svc", "svc-only": "val"}}
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"frontend": frontend},
                             annotations={"team/cost-center": "abc", "shared": "dgd"},
                             labels={"env": "prod", "shared-label": "dgd"}))
    dcd = dcds_of(dgd)["frontend"]
    ann, labels = pod_template_annotations(dcd["spec"]), pod_template_labels(dcd["spec"])
    assert ann.get("team/cost-center") == "abc"
    assert ann.get("shared") == "svc"
    assert labels.get("shared-label") == "svc"
    assert labels.get("svc-only") == "val"
    assert labels.get("env") == "prod"
    assert dcd["metadata"]["labels"][LABEL_COMPONENT] == "frontend"
    assert dcd["metadata"]["labels"][LABEL_DGD] == "test-dgd"


@hand_ported("TestApplyDynDeploymentConfig_FallsBackToFrontendConfigKeyForRenamedFrontend")
def _dyn_config_renamed_frontend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A frontend component named ``router`` whose DYN_DEPLOYMENT_CONFIG has only a ``Frontend`` entry:
    that entry's resources are applied (cpu 2, memory 2Gi, GPU 1 as requests)."""
    from dynamo_schema._render._depconfig import apply_dyn_deployment_config
    from dynamo_schema._render._podrequest import main_container

    config = '{"Frontend":{"ServiceArgs":{"Resources":{"CPU":"2","Memory":"2Gi","GPU":"1"}}}}'
    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "router", "namespace": "default"},
           "spec": {"backendFramework": "vllm", "name": "router", "type": "frontend",
                    "podTemplate": {"spec": {"containers": [
                        {"name": "main", "env": [{"name": "DYN_DEPLOYMENT_CONFIG", "value": config}]}]}}}}
    apply_dyn_deployment_config(dcd)
    main = main_container(dcd["spec"])
    assert main is not None
    requests = (main.get("resources") or {}).get("requests") or {}
    assert requests.get("cpu") == "2"
    assert requests.get("memory") == "2Gi"
    assert requests.get("nvidia.com/gpu") == "1"


# ---------------------------------------------------------------- GenerateBasePodSpec


@adapter("TestGenerateBasePodSpec_Worker")
def _pod_worker(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """The whole pod spec (cmp.Diff) of an SGLang worker, main role, one node, empty configuration."""
    pod = base_pod(row["component"], "sglang", RenderOptions(discovery_backend=""))
    assert pod == k8s_pod(row["expectedPodSpec"])


def k8s_pod(pod: dict[str, Any]) -> dict[str, Any]:
    """A pod spec as the dump gives it, in the form our renderer writes: the containers' ``resources: {}``
    (Go always encodes the struct) kept, other Go zero values dropped."""
    out = copy.deepcopy(pod)
    for key in ("containers", "initContainers"):
        if key in out:
            out[key] = [dict(k8s(c), resources=c.get("resources") or {}) for c in out[key]]
    return out


@hand_ported("TestGenerateBasePodSpec_TRTLLMSSHMountUsesSecretVolume")
def _pod_trtllm_ssh_secret(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A TRT-LLM leader of two nodes: exactly one volume named after the MPI SSH secret, a Secret
    volume, not a PVC (the secret name is also a mount name, which must not add a PVC volume)."""
    alpha = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
             "extraPodSpec": {"mainContainer": {"command": ["python3"],
                                                "args": ["-m", "dynamo.trtllm", "--model-path", "/model"]}}}
    pod = base_pod(alpha, "trtllm", RenderOptions(discovery_backend="", mpi_ssh_secret_name="mpi-run-ssh-secret"),
                   role="leader", nodes=2, service="worker")
    ssh = [v for v in pod.get("volumes") or [] if v["name"] == "mpi-run-ssh-secret"]
    assert len(ssh) == 1
    assert ssh[0].get("secret") is not None
    assert ssh[0].get("persistentVolumeClaim") is None


def _converted_cache_component(mount_path: str | None) -> dict[str, Any]:
    cache: dict[str, Any] = {"name": "compilation-cache", "useAsCompilationCache": True}
    if mount_path:
        cache["mountPoint"] = mount_path
    return {"componentType": "frontend", "volumeMounts": [{"name": "model-cache", "mountPoint": "/models"}, cache]}


@hand_ported("TestGenerateBasePodSpec_ConvertedCompilationCacheMountIsNotDuplicated")
def _pod_converted_cache_once(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A v1alpha1 volume mount used as compilation cache, converted: one mount at its path, for both
    multinode deployers (the subtests)."""
    from dynamo_schema._render._pod import generate_pod_spec

    for deployer in ("grove", "lws"):
        comp = beta_component(_converted_cache_component("/home/dynamo/.cache/vllm"))
        pod = generate_pod_spec(PodRequest(
            component=comp, component_type=str(comp.get("type") or ""), backend="vllm", dgd_name="test-deployment",
            namespace="default", role="main", nodes=1, deployer=deployer, service_name="test-service",
            options=RenderOptions(discovery_backend="")))
        mounts = [m for m in pod["containers"][0].get("volumeMounts") or [] if m["mountPath"] == "/home/dynamo/.cache/vllm"]
        assert mounts == [{"name": "compilation-cache", "mountPath": "/home/dynamo/.cache/vllm"}], deployer


@hand_ported("TestGenerateBasePodSpec_ConvertedCompilationCacheUsesDefaultMount")
def _pod_converted_cache_default(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = base_pod(_converted_cache_component(None), "vllm", RenderOptions(discovery_backend=""))
    assert {"name": "compilation-cache", "mountPath": VLLM_CACHE_DEFAULT} in pod["containers"][0]["volumeMounts"]


@hand_ported("TestApplyCompilationCacheRepairsLegacyMounts")
def _cache_repairs_legacy_mounts(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """Two path-less mounts of the cache PVC (a legacy shape): one mount remains, at vLLM's default
    path, which is also the cache's resolved mount path (upstream writes it back into the component;
    our ``_compilation_cache`` returns it)."""
    from dynamo_schema._render._pod import _compilation_cache

    container = {"volumeMounts": [{"name": "model-cache", "mountPath": "/models"}, {"name": "compilation-cache"},
                                  {"name": "compilation-cache"}]}
    resolved = _compilation_cache(container, {"compilationCache": {"pvcName": "compilation-cache"}}, "vllm", ())
    assert container["volumeMounts"] == [{"name": "model-cache", "mountPath": "/models"},
                                         {"name": "compilation-cache", "mountPath": VLLM_CACHE_DEFAULT}]
    assert resolved == VLLM_CACHE_DEFAULT


@hand_ported("TestGenerateComponentContext_WorkerHashSuffix")
def _context_worker_hash(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """The worker hash suffix of the component context: a worker's hash label (also ``legacy``); none
    without the label; never for a frontend."""
    from dynamo_schema._render._pod import build_context

    def suffix(component_type: str, labels: dict[str, str] | None) -> str:
        alpha: dict[str, Any] = {"componentType": component_type}
        if labels:
            alpha["labels"] = labels
        comp = beta_component(alpha)
        req = PodRequest(component=comp, component_type=str(comp.get("type") or ""), backend="noop", dgd_name="dgd",
                         namespace="ns", role="main", nodes=1, deployer="grove", service_name="x",
                         options=RenderOptions(discovery_backend="kubernetes"))
        return build_context(req).worker_hash

    assert suffix("worker", {LABEL_WORKER_HASH: "abc123"}) == "abc123"
    assert suffix("worker", None) == ""
    assert suffix("worker", {LABEL_WORKER_HASH: "legacy"}) == "legacy"
    assert suffix("frontend", {LABEL_WORKER_HASH: "abc123"}) == ""


# ---------------------------------------------------------------- GeneratePodSpecForComponent and kvTransferPolicy


def pod_for_dgd_component(dgd: dict[str, Any], backend: str, service: str) -> dict[str, Any]:
    """``GeneratePodSpecForComponent`` for the DGD's first component as the tests call it: main role, one
    node, an empty configuration, the Grove deployer, no GPUs counted."""
    from dynamo_schema._render._graph import apply_dgd_template_defaults
    from dynamo_schema._render._pod import generate_pod_spec

    comp = copy.deepcopy(dgd["spec"]["components"][0])
    apply_dgd_template_defaults(comp, dgd, None)
    return generate_pod_spec(PodRequest(
        component=comp, component_type=str(comp.get("type") or ""), backend=backend, dgd_name=dgd["metadata"]["name"],
        namespace=dgd["metadata"]["namespace"], role="main", nodes=1, deployer="grove", service_name=service,
        options=RenderOptions(discovery_backend="")))


KV_DOMAIN, KV_ENFORCEMENT, KV_WEIGHT = "DYN_KV_TRANSFER_DOMAIN", "DYN_KV_TRANSFER_ENFORCEMENT", "DYN_KV_TRANSFER_PREFERRED_WEIGHT"
TOPOLOGY_ENABLED, TOPOLOGY_MOUNT_PATH = "DYN_TOPOLOGY_ENABLED", "DYN_TOPOLOGY_MOUNT_PATH"
_ZONE_POLICY = {"labelKey": TOPOLOGY_LABEL_KEY, "domain": "zone", "enforcement": "required"}
_WORKER = {"name": "worker", "type": "worker"}
_FRONTEND = {"name": "frontend", "type": "frontend"}

KV_ROWS: list[tuple[str, dict[str, Any]]] = [
    ("worker gets required transfer policy env vars when experimental kvTransferPolicy is set",
     {"component": _WORKER, "policy": _ZONE_POLICY, "one_container": True,
      "want": {KV_DOMAIN: "zone", KV_ENFORCEMENT: "required"}, "absent": [KV_WEIGHT]}),
    ("worker gets preferred transfer policy env vars",
     {"component": _WORKER,
      "policy": {"labelKey": "nvidia.com/rack", "domain": "rack", "enforcement": "preferred", "preferredWeight": 0.85},
      "want": {KV_DOMAIN: "rack", KV_ENFORCEMENT: "preferred", KV_WEIGHT: "0.85"}, "absent": []}),
    ("worker policy env vars override user-supplied transfer and topology env vars",
     {"component": {**_WORKER, "podTemplate": {"spec": {"containers": [{"name": "main", "env": [
         {"name": KV_DOMAIN, "value": "wrong-domain"}, {"name": KV_ENFORCEMENT, "value": "preferred"},
         {"name": TOPOLOGY_MOUNT_PATH, "value": "/tmp/wrong-topology"}, {"name": "USER_ENV", "value": "user"}]}]}}},
      "env": [{"name": KV_WEIGHT, "value": "1"}, {"name": TOPOLOGY_ENABLED, "value": "false"},
              {"name": "GLOBAL_ENV", "value": "global"}],
      "policy": _ZONE_POLICY,
      "want": {KV_DOMAIN: "zone", KV_ENFORCEMENT: "required", TOPOLOGY_ENABLED: "true",
               TOPOLOGY_MOUNT_PATH: "/etc/dynamo/topology", "GLOBAL_ENV": "global", "USER_ENV": "user"},
      "absent": [KV_WEIGHT]}),
    ("frontend does NOT get transfer policy env vars",
     {"component": _FRONTEND, "policy": _ZONE_POLICY, "backend": "sglang", "want": {},
      "absent": [KV_DOMAIN, KV_ENFORCEMENT, KV_WEIGHT]}),
    ("worker without policy has no transfer policy env vars",
     {"component": _WORKER, "experimental": False, "want": {}, "absent": [KV_DOMAIN, KV_ENFORCEMENT, KV_WEIGHT]}),
    ("worker with experimental but without policy has no transfer policy env vars",
     {"component": _WORKER, "policy": None, "want": {}, "absent": [KV_DOMAIN, KV_ENFORCEMENT, KV_WEIGHT]}),
    ("worker defaults enforcement to required when omitted",
     {"component": _WORKER, "policy": {"labelKey": TOPOLOGY_LABEL_KEY, "domain": "zone"},
      "want": {KV_ENFORCEMENT: "required"}, "absent": []}),
]


def _kv_pod(row: dict[str, Any]) -> dict[str, Any]:
    dgd = kv_dgd([copy.deepcopy(row["component"])], row.get("policy"), row.get("env"), row.get("experimental", True))
    return pod_for_dgd_component(dgd, row.get("backend", "vllm"), row["component"]["name"])


@hand_ported("TestGeneratePodSpecForComponent_KvTransferPolicyEnvVars", KV_ROWS)
def _kv_policy_env(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = _kv_pod(row)
    if row.get("one_container"):
        assert len(pod["containers"]) == 1
    values = env_map(pod["containers"][0])
    for name, value in row["want"].items():
        assert values.get(name) == value, name
    for name in row["absent"]:
        assert name not in values, name


def _has_topology(pod: dict[str, Any]) -> tuple[bool, bool]:
    volumes = any(v["name"] == TOPOLOGY_VOLUME for v in pod.get("volumes") or [])
    mounts = any(m["name"] == TOPOLOGY_VOLUME for m in pod["containers"][0].get("volumeMounts") or [])
    return volumes, mounts


TOPOLOGY_ROWS: list[tuple[str, dict[str, Any]]] = [
    ("worker gets topology env vars and volume",
     {"component": {**_WORKER, "podTemplate": {"spec": {
         "volumes": [{"name": TOPOLOGY_VOLUME, "emptyDir": {}}, {"name": "keep-me", "emptyDir": {}}],
         "containers": [{"name": "main", "volumeMounts": [
             {"name": TOPOLOGY_VOLUME, "mountPath": "/tmp/wrong-topology"},
             {"name": "wrong-volume", "mountPath": "/etc/dynamo/topology"},
             {"name": "keep-me", "mountPath": "/mnt/keep-me"}]}]}}},
      "policy": _ZONE_POLICY, "topology": True}),
    ("frontend does NOT get topology env vars", {"component": _FRONTEND, "policy": _ZONE_POLICY, "backend": "sglang"}),
    ("worker without policy has no topology", {"component": _WORKER, "experimental": False}),
    ("worker with experimental but without policy has no topology", {"component": _WORKER, "policy": None}),
    ("worker with empty label key has no topology",
     {"component": _WORKER, "policy": {"domain": "zone", "enforcement": "required"}, "no_domain": True}),
]


@hand_ported("TestGeneratePodSpecForComponent_WorkerTopologyEnvVars", TOPOLOGY_ROWS)
def _kv_topology(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = _kv_pod(row)
    main = pod["containers"][0]
    values = env_map(main)
    if not row.get("topology"):
        if row.get("no_domain"):
            assert KV_DOMAIN not in values
        assert TOPOLOGY_ENABLED not in values
        assert _has_topology(pod) == (False, False)
        return
    assert values.get(TOPOLOGY_ENABLED) == "true"
    assert values.get(TOPOLOGY_MOUNT_PATH) == "/etc/dynamo/topology"
    assert "DYN_TOPOLOGY_DOMAIN" not in values
    volumes = pod.get("volumes") or []
    assert any(v["name"] == "keep-me" for v in volumes)
    topology = [v for v in volumes if v["name"] == TOPOLOGY_VOLUME]
    assert len(topology) == 1, "the topology-labels volume is the operator's"
    items = (topology[0].get("downwardAPI") or {}).get("items") or []
    assert len(items) == 1
    assert items[0]["path"] == "zone"
    assert items[0]["fieldRef"]["fieldPath"] == f"metadata.labels['{TOPOLOGY_LABEL_KEY}']"
    mounts = main.get("volumeMounts") or []
    assert any(m["name"] == "keep-me" for m in mounts)
    topology_mounts = [m for m in mounts if m["name"] == TOPOLOGY_VOLUME]
    assert len(topology_mounts) == 1, "the topology-labels mount is the operator's"
    assert topology_mounts[0]["mountPath"] == "/etc/dynamo/topology"
    assert topology_mounts[0].get("readOnly") is True
    assert all(m["name"] != "wrong-volume" for m in mounts)



# ---------------------------------------------------------------- ingress and service mesh


@hand_ported("TestGenerateComponentIngressResources_NormalizeBackendServiceName")
def _ingress_normalized_names(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """A component named ``model.Qwen3-0.6B``: the Ingress, its backend Service, the VirtualService and
    its destination are all ``model-qwen3-0-6b``. (Our ``component_ingress`` creates the Ingress only with a
    controller class, as the DCD controller does; the class names nothing and is given here.)"""
    from dynamo_schema._render._extras import component_ingress

    spec = {"enabled": True, "host": "example", "useVirtualService": True, "virtualServiceGateway": "mesh/gateway",
            "ingressControllerClassName": "nginx"}
    objs = {o["kind"]: o for o in component_ingress("model.Qwen3-0.6B", "default", spec)}
    ingress, virtual_service = objs["Ingress"], objs["VirtualService"]
    rules = ingress["spec"]["rules"]
    assert len(rules) == 1 and len(rules[0]["http"]["paths"]) == 1
    assert ingress["metadata"]["name"] == "model-qwen3-0-6b"
    assert rules[0]["http"]["paths"][0]["backend"]["service"]["name"] == "model-qwen3-0-6b"
    http = virtual_service["spec"]["http"]
    assert len(http) == 1 and len(http[0]["route"]) == 1
    assert virtual_service["metadata"]["name"] == "model-qwen3-0-6b"
    assert http[0]["route"][0]["destination"]["host"] == "model-qwen3-0-6b"


@hand_ported("TestGenerateEPPDestinationRule_MUTUALPropagatesCerts")
def _epp_destination_rule(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    """An Istio service mesh in MUTUAL TLS mode with client certificate, key and CA paths: the DestinationRule of
    the EPP Service ``qwen-epp`` (namespace dynamo-cloud) carries them."""
    from dynamo_schema._render._extras import epp_destination_rule

    mesh = {"provider": "istio", "istio": {"tlsMode": "MUTUAL", "clientCertificate": "/etc/certs/client.pem",
                                           "privateKey": "/etc/certs/client.key", "caCertificates": "/etc/certs/ca.pem"}}
    rule = epp_destination_rule("qwen-epp", "dynamo-cloud", mesh)
    tls = rule["spec"]["trafficPolicy"]["tls"]
    assert tls["mode"] == "MUTUAL"
    assert tls["clientCertificate"] == "/etc/certs/client.pem"
    assert tls["privateKey"] == "/etc/certs/client.key"
    assert tls["caCertificates"] == "/etc/certs/ca.pem"
