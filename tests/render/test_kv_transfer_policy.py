"""kvTransferPolicy rendering: topology label/cluster-topology annotations on worker DCDs and cliques, the
DYN_KV_TRANSFER_* / DYN_TOPOLOGY_* env, the topology-labels Downward API volume, ClusterTopologyBinding
domains and errors, the worker hash, and the metadata of a converted v1alpha1 DGD.

Expected values come from upstream tests (ai-dynamo/dynamo, ``deploy/operator/`` prefix omitted):
reference revision 2a6da14c ``internal/dynamo/graph_test.go`` (named per test below).
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render import RenderError, RenderOptions, render
from dynamo_schema._render._graph import generate_dcds

from ._dgd_fixtures import WORKER, _by_name, _cliques, _dgd, _env

LABEL_KEY = "topology.kubernetes.io/zone"  # testTopologyLabelKey
ANN_LABEL_KEY = "nvidia.com/topology-label-key"
ANN_CLUSTER = "nvidia.com/topology-cluster-topology-name"


def _kv(**policy: Any) -> dict[str, Any]:
    return {"kvTransferPolicy": policy}


FRONTEND = {"name": "frontend", "type": "frontend"}


def _main(pod: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in pod["containers"] if c["name"] == "main")


# ---------------------------------------------------------------- kvTransferPolicy


def test_dcd_topology_label_annotation_on_workers_only() -> None:
    # TestGenerateDynamoComponentsDeployments_AddsTopologyLabelAnnotationToWorkers
    from dynamo_schema._render._workloads import dcd_kube_annotations

    dgd = _dgd([WORKER, FRONTEND], experimental=_kv(labelKey=LABEL_KEY, domain="zone", enforcement="required"))
    dcds = _by_name(generate_dcds(dgd, "abc12345", "default"))
    worker, frontend = dcds["worker"], dcds["frontend"]
    assert worker["metadata"]["annotations"][ANN_LABEL_KEY] == LABEL_KEY
    assert dcd_kube_annotations(worker)[ANN_LABEL_KEY] == LABEL_KEY
    assert ANN_LABEL_KEY not in (frontend["metadata"].get("annotations") or {})
    assert ANN_LABEL_KEY not in dcd_kube_annotations(frontend)


def test_dcd_cluster_topology_annotation() -> None:
    # TestGenerateDynamoComponentsDeployments_AddsClusterTopologyAnnotationToWorkers
    from dynamo_schema._render._workloads import dcd_kube_annotations

    dgd = _dgd([WORKER, FRONTEND], experimental=_kv(clusterTopologyName="grove-topology", domain="rack",
                                                    enforcement="required"))
    dcds = _by_name(generate_dcds(dgd, "abc12345", "default"))
    worker, frontend = dcds["worker"], dcds["frontend"]
    assert worker["metadata"]["annotations"][ANN_CLUSTER] == "grove-topology"
    assert dcd_kube_annotations(worker)[ANN_CLUSTER] == "grove-topology"
    assert ANN_LABEL_KEY not in worker["metadata"]["annotations"]
    assert ANN_LABEL_KEY not in dcd_kube_annotations(worker)
    assert ANN_CLUSTER not in (frontend["metadata"].get("annotations") or {})
    # the DCD path has no topology domains (graph.go passes nil): an item-less Downward API volume
    vols = worker["spec"]["podTemplate"]["spec"]["volumes"]
    assert vols == [{"name": "topology-labels", "downwardAPI": {}}]


def test_dcd_no_annotation_without_label_key() -> None:
    # TestGenerateDynamoComponentsDeployments_SkipsTopologyLabelAnnotationWithoutLabelKey
    from dynamo_schema._render._workloads import dcd_kube_annotations

    dgd = _dgd([WORKER], experimental=_kv(domain="zone", enforcement="required"))
    worker = _by_name(generate_dcds(dgd, "abc12345", "default"))["worker"]
    assert ANN_LABEL_KEY not in (worker["metadata"].get("annotations") or {})
    assert ANN_LABEL_KEY not in dcd_kube_annotations(worker)
    assert "DYN_KV_TRANSFER_DOMAIN" not in _env(worker["spec"].get("podTemplate", {}).get("spec", {}).get("containers", [{}])[0])


def test_grove_required_policy_env_volume_and_annotation() -> None:
    # TestGeneratePodSpecForComponent_KvTransferPolicyEnvVars "worker gets required ..." and
    # TestGenerateGrovePodCliqueSet_AddsTopologyLabelAnnotationToWorkerCliques; volume/mount from
    # component_worker.go TopologyLabelVolume/TopologyLabelVolumeMount.
    dgd = _dgd([WORKER, FRONTEND], experimental=_kv(labelKey=LABEL_KEY, domain="zone", enforcement="required"))
    cliques = _cliques(render(dgd, "grove", RenderOptions(namespace="default")))
    worker, frontend = cliques["worker"], cliques["frontend"]
    assert worker["annotations"][ANN_LABEL_KEY] == LABEL_KEY
    assert ANN_LABEL_KEY not in (frontend.get("annotations") or {})
    pod = worker["spec"]["podSpec"]
    env = _env(_main(pod))
    assert env["DYN_KV_TRANSFER_DOMAIN"] == "zone"
    assert env["DYN_KV_TRANSFER_ENFORCEMENT"] == "required"
    assert env["DYN_TOPOLOGY_ENABLED"] == "true"
    assert env["DYN_TOPOLOGY_MOUNT_PATH"] == "/etc/dynamo/topology"
    assert "DYN_KV_TRANSFER_PREFERRED_WEIGHT" not in env
    assert {"name": "topology-labels", "mountPath": "/etc/dynamo/topology", "readOnly": True} in _main(pod)["volumeMounts"]
    assert {"name": "topology-labels", "downwardAPI": {"items": [
        {"path": "zone", "fieldRef": {"fieldPath": "metadata.labels['topology.kubernetes.io/zone']"}}]}} in pod["volumes"]
    fenv = _env(_main(frontend["spec"]["podSpec"]))
    assert "DYN_KV_TRANSFER_DOMAIN" not in fenv and "DYN_KV_TRANSFER_ENFORCEMENT" not in fenv


def test_preferred_policy_weight() -> None:
    # "worker gets preferred transfer policy env vars": PreferredWeight float32 0.85 → "0.85"
    dgd = _dgd([WORKER], experimental=_kv(labelKey="nvidia.com/rack", domain="rack", enforcement="preferred",
                                          preferredWeight=0.85))
    env = _env(_main(_cliques(render(dgd, "grove", RenderOptions(namespace="default")))["worker"]["spec"]["podSpec"]))
    assert env["DYN_KV_TRANSFER_DOMAIN"] == "rack"
    assert env["DYN_KV_TRANSFER_ENFORCEMENT"] == "preferred"
    assert env["DYN_KV_TRANSFER_PREFERRED_WEIGHT"] == "0.85"


def test_policy_env_overrides_user_env() -> None:
    # "worker policy env vars override user-supplied transfer and topology env vars"
    worker = {"name": "worker", "type": "worker", "podTemplate": {"spec": {"containers": [{"name": "main", "env": [
        {"name": "DYN_KV_TRANSFER_DOMAIN", "value": "wrong-domain"},
        {"name": "DYN_KV_TRANSFER_ENFORCEMENT", "value": "preferred"},
        {"name": "DYN_TOPOLOGY_MOUNT_PATH", "value": "/tmp/wrong-topology"},
        {"name": "USER_ENV", "value": "user"}]}]}}}
    dgd = _dgd([worker], env=[{"name": "DYN_KV_TRANSFER_PREFERRED_WEIGHT", "value": "1"},
                              {"name": "DYN_TOPOLOGY_ENABLED", "value": "false"},
                              {"name": "GLOBAL_ENV", "value": "global"}],
               experimental=_kv(labelKey=LABEL_KEY, domain="zone", enforcement="required"))
    env = _env(_main(_cliques(render(dgd, "grove", RenderOptions(namespace="default")))["worker"]["spec"]["podSpec"]))
    assert env["DYN_KV_TRANSFER_DOMAIN"] == "zone"
    assert env["DYN_KV_TRANSFER_ENFORCEMENT"] == "required"
    assert "DYN_KV_TRANSFER_PREFERRED_WEIGHT" not in env
    assert env["DYN_TOPOLOGY_ENABLED"] == "true"
    assert env["DYN_TOPOLOGY_MOUNT_PATH"] == "/etc/dynamo/topology"
    assert env["GLOBAL_ENV"] == "global"
    assert env["USER_ENV"] == "user"


def test_grove_cluster_topology_domains() -> None:
    # TestGenerateGrovePodCliqueSet_ProjectsClusterTopologyDomainsToWorkerCliques (the binding
    # "grove-topology" has levels zone, rack)
    dgd = _dgd([WORKER, FRONTEND], experimental=_kv(clusterTopologyName="grove-topology", domain="rack",
                                                    enforcement="required"))
    options = RenderOptions(namespace="default", cluster_topology_domains={"grove-topology": ("zone", "rack")})
    worker = _cliques(render(dgd, "grove", options))["worker"]
    assert worker["annotations"][ANN_CLUSTER] == "grove-topology"
    assert ANN_LABEL_KEY not in worker["annotations"]
    env = _env(worker["spec"]["podSpec"]["containers"][0])
    assert env["DYN_KV_TRANSFER_DOMAIN"] == "rack"
    assert env["DYN_TOPOLOGY_ENABLED"] == "true"
    assert "DYN_TOPOLOGY_DOMAIN" not in env
    items = {i["path"]: i["fieldRef"]["fieldPath"] for v in worker["spec"]["podSpec"]["volumes"]
             if v["name"] == "topology-labels" for i in v["downwardAPI"]["items"]}
    assert items == {"zone": "metadata.labels['nvidia.com/dynamo-topology.zone']",
                     "rack": "metadata.labels['nvidia.com/dynamo-topology.rack']"}


@pytest.mark.parametrize("bindings,message", [
    (None, 'spec.experimental.kvTransferPolicy.clusterTopologyName "grove-topology" requires a Kubernetes client '
           "to read ClusterTopologyBinding"),
    ({}, 'spec.experimental.kvTransferPolicy.clusterTopologyName "grove-topology" references a ClusterTopologyBinding '
         "resource that was not found"),
    ({"grove-topology": ("zone", "host")}, 'spec.experimental.kvTransferPolicy.domain "rack" does not exist in '
                                          'ClusterTopologyBinding "grove-topology"; available domains: [zone host]'),
])
def test_grove_cluster_topology_errors(bindings: Any, message: str) -> None:
    # resolveGroveClusterTopologyDomains error strings (graph.go)
    dgd = _dgd([WORKER], experimental=_kv(clusterTopologyName="grove-topology", domain="rack"))
    with pytest.raises(RenderError) as exc:
        render(dgd, "grove", RenderOptions(namespace="default", cluster_topology_domains=bindings))
    assert str(exc.value.diagnostics[0].message) == message


def test_kv_policy_changes_worker_hash() -> None:
    # the policy is baked into the worker DCDs the hash is computed from (applyDGDTemplateDefaults)
    from dynamo_schema._render import worker_hash

    base = _dgd([WORKER])
    with_policy = _dgd([WORKER], experimental=_kv(labelKey=LABEL_KEY, domain="zone"))
    assert worker_hash(base) != worker_hash(with_policy)


def test_topology_metadata_from_converted_alpha_dgd() -> None:
    # TestTopologyLabelMetadataFromConvertedAlphaDGD
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._render._workloads import dcd_kube_annotations, dcd_kube_labels

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "test-dgd", "namespace": "default"},
             "spec": {"backendFramework": "vllm",
                      "annotations": {ANN_LABEL_KEY: "wrong-from-dgd-spec"},
                      "labels": {"nvidia.com/dynamo-graph-deployment-name": "wrong-from-dgd-spec",
                                 "nvidia.com/dynamo-component": "wrong-from-dgd-spec"},
                      "services": {
                          "prefill": {"componentType": "worker", "subComponentType": "prefill",
                                      "annotations": {ANN_LABEL_KEY: "wrong-from-alpha-service"},
                                      "labels": {"nvidia.com/dynamo-graph-deployment-name": "wrong-from-alpha-service",
                                                 "nvidia.com/dynamo-component": "wrong-from-alpha-service"},
                                      "extraPodMetadata": {
                                          "annotations": {ANN_LABEL_KEY: "wrong-from-extra-metadata"},
                                          "labels": {"nvidia.com/dynamo-graph-deployment-name": "wrong-from-extra-metadata",
                                                     "nvidia.com/dynamo-component": "wrong-from-extra-metadata"}}},
                          "frontend": {"componentType": "frontend"}},
                      "experimental": {"kvTransferPolicy": {"labelKey": LABEL_KEY, "domain": "zone",
                                                            "enforcement": "required"}}}}
    beta = to_v1beta1(alpha)
    dcds = _by_name(generate_dcds(beta, "abc12345", "default"))
    prefill, frontend = dcds["prefill"], dcds["frontend"]
    assert prefill["metadata"]["annotations"][ANN_LABEL_KEY] == LABEL_KEY
    assert dcd_kube_annotations(prefill)[ANN_LABEL_KEY] == LABEL_KEY
    labels = dcd_kube_labels(prefill, "default")
    assert labels["nvidia.com/dynamo-graph-deployment-name"] == "test-dgd"
    assert labels["nvidia.com/dynamo-component"] == "prefill"
    assert ANN_LABEL_KEY not in (frontend["metadata"].get("annotations") or {})
    assert ANN_LABEL_KEY not in dcd_kube_annotations(frontend)

    cliques = _cliques(render(beta, "grove", RenderOptions(namespace="default")))
    assert cliques["prefill"]["annotations"][ANN_LABEL_KEY] == LABEL_KEY
    assert cliques["prefill"]["labels"]["nvidia.com/dynamo-graph-deployment-name"] == "test-dgd"
    assert cliques["prefill"]["labels"]["nvidia.com/dynamo-component"] == "prefill"
    assert ANN_LABEL_KEY not in (cliques["frontend"].get("annotations") or {})
