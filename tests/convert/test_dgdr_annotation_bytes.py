"""DGDR conversion saves in upstream's bytes: ``marshalPreservedSpec`` of the typed spec (the v1alpha1
``DynamoGraphDeploymentRequestSpec`` on the stored v1beta1 object, the v1beta1 one on the v1alpha1 view):
version first, Go field order, fields without ``omitempty`` written at their zero (``model``, ``backend``,
``profilerImage``), value structs always (a container's ``resources``, a template's ``metadata``).

Expected strings: upstream's own ``ConvertTo`` / ``ConvertFrom`` at 2a6da14c (its v1alpha1 package, run on
these inputs outside the project). A raw field (``overrides.dgd``) holds the bytes it was given, which the
API server writes with sorted keys; the inputs here are sorted so."""

from __future__ import annotations

import copy

from dynamo_schema._convert._v1alpha1 import DGDR_SPEC_ANNOTATION, to_v1alpha1, to_v1beta1

ALPHA = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentRequest",
         "metadata": {"name": "r", "namespace": "ns"},
         "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "vllm", "enableGpuDiscovery": True,
                  "profilingConfig": {"profilerImage": "img:1", "outputPVC": "pvc1",
                                      "configMapRef": {"name": "cm", "key": "k"},
                                      "config": {"sla": {"ttft": 100, "itl": 10, "isl": 1000, "osl": 100}, "zeta": 1,
                                                 "alpha": {"b": 2, "a": 1}}},
                  "deploymentOverrides": {"name": "dgd-x", "namespace": "ns2", "labels": {"z": "1", "a": "2"},
                                          "workersImage": "w:1"}}}
BETA = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest",
        "metadata": {"name": "r", "namespace": "ns"},
        "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "sglang",
                 "hardware": {"gpuSku": "h200_sxm", "numGpusPerNode": 8, "rdma": False},
                 "workload": {"isl": 1000, "requestRate": 2.5, "concurrency": 8}, "sla": {"ttft": 200, "e2eLatency": 1500.5},
                 "features": {"mocker": {"enabled": False}, "planner": {"a": [1, {"b": 3, "y": 2}], "z": 1}},
                 "overrides": {"dgd": {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment"},
                               "profilingJob": {"backoffLimit": 0, "template": {"spec": {
                                   "containers": [{"name": "profiler", "image": "p:1"}]}}}},
                 "searchStrategy": "thorough", "autoApply": False}}


def test_spoke_save_on_the_stored_v1beta1_object() -> None:
    out = to_v1beta1(copy.deepcopy(ALPHA))
    assert out["metadata"]["annotations"][DGDR_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"model":"","backend":"","profilingConfig":{"config":{"alpha":{"a":1,"b":2},"zeta":1},'
        '"configMapRef":{"name":"cm","key":"k"},"profilerImage":"","outputPVC":"pvc1"},"enableGpuDiscovery":true,'
        '"deploymentOverrides":{"name":"dgd-x","namespace":"ns2","labels":{"a":"2","z":"1"},"workersImage":"w:1"}}}')


def test_hub_save_on_the_v1alpha1_view() -> None:
    out = to_v1alpha1(copy.deepcopy(BETA))
    assert out["metadata"]["annotations"][DGDR_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"model":"","hardware":{"gpuSku":"h200_sxm","numGpusPerNode":8,"rdma":false},'
        '"workload":{"concurrency":8,"requestRate":2.5},"sla":{"e2eLatency":1500.5},"overrides":{"profilingJob":'
        '{"backoffLimit":0,"template":{"metadata":{},"spec":{"containers":[{"name":"profiler","image":"p:1",'
        '"resources":{}}]}}},"dgd":{"apiVersion":"nvidia.com/v1beta1","kind":"DynamoGraphDeployment"}},'
        '"features":{"mocker":{}},"searchStrategy":"thorough"}}')


def test_both_ways_round_trip() -> None:
    # v1alpha1 autoApply is a plain bool: written false here, left out by Go's omitempty (the same value)
    assert to_v1alpha1(to_v1beta1(copy.deepcopy(ALPHA)))["spec"] == {**ALPHA["spec"], "autoApply": False}
    assert to_v1beta1(to_v1alpha1(copy.deepcopy(BETA)))["spec"] == BETA["spec"]
