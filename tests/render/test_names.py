"""Naming and hashes: values from rendering.md §2–§3 and upstream tests (graph_test.go TestPCSNameForDGD,
api/v1beta1 worker_hash_test.go)."""

from __future__ import annotations

import pytest

from dynamo_schema._render import pcs_name as dgd_pcs_name
from dynamo_schema._render import worker_hash
from dynamo_schema._render._hashjson import go_marshal
from dynamo_schema._render._names import (
    component_runtime_namespace,
    compute_dynamo_namespace,
    dcd_name,
    discovery_label_value,
    elastic_ep_service_name,
    fnv32a,
    lws_name,
    model_service_name,
    normalize_kube_name,
    pcs_name,
)
from dynamo_schema._render._workerhash import worker_hash_input


def single(name: str) -> dict:
    return {"name": name}


def multi(name: str) -> dict:
    return {"name": name, "multinode": {"nodeCount": 2}}


GOLDEN_WORKER_DGD = {
    "apiVersion": "nvidia.com/v1beta1",
    "kind": "DynamoGraphDeployment",
    "metadata": {"name": "test"},
    "spec": {"components": [{
        "name": "worker", "type": "worker",
        "podTemplate": {"spec": {"containers": [{"name": "main", "image": "worker:latest", "env": [{"name": "FOO", "value": "bar"}]}]}},
    }]},
}


def test_worker_hash_golden() -> None:
    # api/v1beta1/worker_hash_test.go goldenDGDWorkerHash
    assert worker_hash(GOLDEN_WORKER_DGD, algorithm="rollout-v2") == "2bc34b39"


def test_worker_hash_input_bytes() -> None:
    # rendering.md §3.2: the exact json.Marshal bytes that hash to 2bc34b39
    assert go_marshal(worker_hash_input(GOLDEN_WORKER_DGD)) == (
        '{"version":"dgd-worker-rollout-v2","workers":{"worker":{"podTemplate":{"metadata":{},"spec":'
        '{"containers":[{"name":"main","image":"worker:latest","env":[{"name":"FOO","value":"bar"}],"resources":{}}]}}}}}'
    )


def test_worker_hash_ignores_non_rollout_fields() -> None:
    import copy

    other = copy.deepcopy(GOLDEN_WORKER_DGD)
    comp = other["spec"]["components"][0]
    comp.update({"replicas": 7, "modelRef": {"name": "m"}, "scalingAdapter": {"enabled": True}, "topologyConstraint": {"packDomain": "rack"}})
    other["spec"]["components"].append({"name": "frontend", "type": "frontend", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "x"}]}}})
    assert worker_hash(other, algorithm="rollout-v2") == "2bc34b39"
    comp["podTemplate"]["spec"]["containers"][0]["image"] = "worker:v2"
    assert worker_hash(other, algorithm="rollout-v2") != "2bc34b39"


@pytest.mark.parametrize(
    "dgd,components,want",
    [
        ("trtllm-disagg", [single("prefill"), single("decode")], "trtllm-disagg"),
        ("my-dgd", [multi("prefill"), multi("decode")], "my-dgd"),
        ("my-dgd", [], "my-dgd"),
        ("grove-manifest", [single("frontend"), multi("decode")], "grove-manifest"),
    ],
)
def test_pcs_name_passthrough(dgd: str, components: list, want: str) -> None:
    assert pcs_name(dgd, components) == want


@pytest.mark.parametrize(
    "dgd,components,want_len",
    [
        ("deepseek-v32-fp4-trtllm-dgd", [multi("prefill"), multi("decode")], 27),
        ("deepseek-v32-fp4-trtllm-dgd", [multi("prefill")], 27),
        ("my-deployment-dgd", [multi("VllmPrefillWorker")], 8),
    ],
)
def test_pcs_name_truncation_lengths(dgd: str, components: list, want_len: int) -> None:
    got = pcs_name(dgd, components)
    assert len(got) == want_len
    assert got == pcs_name(dgd, components)


def test_pcs_name_fnv_rule() -> None:
    # rendering.md §3.1 (computed from the recipe): fnv32a = 0xd00b114a, budget 29
    name = "llama-3-70b-instruct-disagg-production-east1"
    assert fnv32a(name.encode()) == 0xD00B114A
    assert pcs_name(name, [single("frontend"), multi("decode")]) == "llama-3-70b-instruct-dis-114a"
    assert dgd_pcs_name({"metadata": {"name": name}, "spec": {"components": [single("frontend"), multi("decode")]}}) == "llama-3-70b-instruct-dis-114a"


def test_fnv32a_reference_vectors() -> None:
    # FNV-1a 32 reference values (offset basis for "", published test vector for "a")
    assert fnv32a(b"") == 0x811C9DC5
    assert fnv32a(b"a") == 0xE40C292C


def test_dynamo_namespace() -> None:
    assert compute_dynamo_namespace(False, "ns1", "grove-manifest") == "ns1-grove-manifest"
    assert compute_dynamo_namespace(False, "ns1", "qwen3.5") == "ns1-qwen3-5"
    assert compute_dynamo_namespace(True, "ns1", "anything") == "dynamo"
    assert component_runtime_namespace("ns1-x", "decode", "abcd1234") == "ns1-x-abcd1234"
    assert component_runtime_namespace("ns1-x", "frontend", "abcd1234") == "ns1-x"


def test_dcd_and_workload_names() -> None:
    assert dcd_name("component-manifests", "Frontend", "frontend", "81c30ad2") == "component-manifests-frontend"
    assert dcd_name("component-manifests", "decode", "decode", "81c30ad2") == "component-manifests-decode-81c30ad2"
    assert dcd_name("d", "decode", "decode", "") == "d-decode"
    assert lws_name("lws-manifest") == "lws-manifest-0"
    assert normalize_kube_name("Qwen3-0.6B-Frontend") == "qwen3-0-6b-frontend"


def test_model_service_name() -> None:
    # rendering.md §3.3 (computed example)
    assert model_service_name("Qwen/Qwen3-0.6B") == "dynamo-model-fb68f5a6"


def test_long_names() -> None:
    assert discovery_label_value("short-k8s-service-discovery") == "short-k8s-service-discovery"
    long = "x" * 70 + "-k8s-service-discovery"
    value = discovery_label_value(long)
    assert len(value) == 63 and value.startswith("x" * 54 + "-")
    assert len(elastic_ep_service_name("y" * 70)) == 63
