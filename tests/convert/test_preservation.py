"""Sparse preservation of v1alpha1 leaves the hub cannot hold (conversion.md §2, §4, §9).

Modelled on upstream ``deploy/operator/api/v1alpha1/shared_spec_conversion_bugs_test.go``
(``TestBugDGD_*``) and ``shared_spec_conversion.go`` (``resourcesNeedPreservation``,
``volumeMountsRoundTripThroughHub``, ``restoreSharedPreservedFlatVolumeMounts``,
``sharedMemoryNeedsPreservation``): the expected values below are upstream's test expectations.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dynamo_schema._convert._v1alpha1 import (
    DCD_SPEC_ANNOTATION,
    DCD_STATUS_ANNOTATION,
    DGD_SPEC_ANNOTATION,
    DGD_STATUS_ANNOTATION,
    to_v1alpha1,
    to_v1beta1,
)

CACHES = [
    {"name": "model-cache", "mountPoint": "/models", "useAsCompilationCache": True},
    {"name": "compile-cache", "mountPoint": "/compile", "useAsCompilationCache": True},
]
CONFIG_POD = {
    "volumes": [{"name": "config", "configMap": {}}],
    "mainContainer": {"volumeMounts": [{"name": "config", "mountPath": "/config"}]},
}


def _alpha(services: dict) -> dict:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {"services": services},
    }


def _worker(**fields: Any) -> dict:
    return _alpha({"worker": {"componentType": "worker", **fields}})


def _saved_service(hub: dict, name: str) -> dict:
    """Upstream ``mustRestoreDGDSpokeServiceSave``: the preserved v1alpha1 service payload."""
    raw = json.loads(hub["metadata"]["annotations"][DGD_SPEC_ANNOTATION])
    return raw.get("spec", raw)["services"][name]


def _main(hub: dict, i: int = 0) -> dict:
    containers = hub["spec"]["components"][i]["podTemplate"]["spec"]["containers"]
    return next(c for c in containers if c["name"] == "main")


def _round_trip(alpha: dict) -> tuple[dict, dict]:
    before = copy.deepcopy(alpha)
    hub = to_v1beta1(alpha)
    back = to_v1alpha1(hub)
    assert alpha == before, "input mutated"
    return hub, back


# -- resources.gpuType -------------------------------------------------------------------------------

RESOURCES = {
    "requests": {"cpu": "1", "memory": "4Gi", "gpu": "1", "gpuType": "nvidia.com/gpu"},
    "limits": {"cpu": "2", "memory": "8Gi", "gpu": "1"},
    "claims": [{"name": "gpu-claim"}],
}


def test_default_gpu_type_is_preserved_and_restored() -> None:
    hub, back = _round_trip(_worker(resources=copy.deepcopy(RESOURCES)))
    # the hub holds the native list: gpuType only selects the key
    assert _main(hub)["resources"] == {
        "limits": {"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"},
        "requests": {"cpu": "1", "memory": "4Gi", "nvidia.com/gpu": "1"},
        "claims": [{"name": "gpu-claim"}],
    }
    # resourcesNeedPreservation: the whole struct is saved
    assert _saved_service(hub, "worker")["resources"] == RESOURCES
    assert back["spec"]["services"]["worker"]["resources"] == RESOURCES


def test_non_default_gpu_type_round_trips() -> None:
    # TestDGD_FromV1alpha1_Resources_ForwardOnly: the forward key; the struct itself is preserved
    # because resourceItemFromList would read the key back as a custom resource
    res = {"requests": {"cpu": "2", "gpu": "2", "gpuType": "gpu.intel.com/xe", "custom": {"example.com/fpga": "1"}}}
    hub, back = _round_trip(_worker(resources=copy.deepcopy(res)))
    assert _main(hub)["resources"] == {"requests": {"cpu": "2", "gpu.intel.com/xe": "2", "example.com/fpga": "1"}}
    assert _saved_service(hub, "worker")["resources"] == res
    assert back["spec"]["services"]["worker"]["resources"] == res


def test_empty_resources_round_trip() -> None:
    # TestDGD_FromV1alpha1_EmptyResourcesRoundTrip
    _, back = _round_trip(_worker(resources={}))
    assert back["spec"]["services"]["worker"]["resources"] == {}


def test_edited_hub_resources_win_over_preserved_gpu_type() -> None:
    hub = to_v1beta1(_worker(resources=copy.deepcopy(RESOURCES)))
    _main(hub)["resources"]["requests"]["nvidia.com/gpu"] = "2"
    back = to_v1alpha1(hub)
    assert back["spec"]["services"]["worker"]["resources"]["requests"] == {"cpu": "1", "memory": "4Gi", "gpu": "2"}


def test_preserved_resources_need_a_live_main_container() -> None:
    hub = to_v1beta1(_worker(resources={"requests": {}}))
    assert _saved_service(hub, "worker")["resources"] == {"requests": {}}
    assert to_v1alpha1(hub)["spec"]["services"]["worker"]["resources"] == {"requests": {}}
    del hub["spec"]["components"][0]["podTemplate"]
    assert "resources" not in to_v1alpha1(hub)["spec"]["services"]["worker"]


def test_dcd_gpu_type_round_trip() -> None:
    dcd = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "w"},
        "spec": {"serviceName": "w", "componentType": "worker", "resources": copy.deepcopy(RESOURCES)},
    }
    hub = to_v1beta1(dcd)
    assert DCD_SPEC_ANNOTATION in hub["metadata"]["annotations"]
    assert to_v1alpha1(hub)["spec"] == dcd["spec"]


# -- several useAsCompilationCache mounts ----------------------------------------------------------


def test_multiple_compilation_cache_volume_mounts_round_trip() -> None:
    # TestBugDGD_SpokeMultipleCompilationCacheVolumeMountsRoundTrip
    hub, back = _round_trip(_worker(volumeMounts=copy.deepcopy(CACHES)))
    assert hub["spec"]["components"][0]["compilationCache"] == {"pvcName": "model-cache", "mountPath": "/models"}
    assert _saved_service(hub, "worker")["volumeMounts"] == CACHES
    assert back["spec"]["services"]["worker"]["volumeMounts"] == CACHES


def test_service_and_extra_volume_mounts_compose() -> None:
    # TestBugDGD_SpokeServiceAndExtraVolumeMountsCompose
    alpha = _worker(volumeMounts=copy.deepcopy(CACHES), extraPodSpec=copy.deepcopy(CONFIG_POD))
    hub, back = _round_trip(alpha)
    assert _main(hub)["volumeMounts"] == [
        {"name": "config", "mountPath": "/config"},
        {"name": "model-cache", "mountPath": "/models"},
        {"name": "compile-cache", "mountPath": "/compile"},
    ]
    got = back["spec"]["services"]["worker"]
    assert got["volumeMounts"] == CACHES
    assert got["extraPodSpec"]["mainContainer"]["volumeMounts"] == [{"name": "config", "mountPath": "/config"}]
    assert got["extraPodSpec"]["volumes"] == CONFIG_POD["volumes"]
    assert back["spec"] == alpha["spec"]


def test_changed_compilation_cache_does_not_restore_stale_volume_mounts() -> None:
    # TestBugDGD_ChangedCompilationCacheDoesNotRestoreStaleVolumeMounts
    hub = to_v1beta1(_worker(volumeMounts=copy.deepcopy(CACHES)))
    hub["spec"]["components"][0]["compilationCache"] = {"pvcName": "new-cache", "mountPath": "/new-cache"}
    back = to_v1alpha1(hub)
    assert back["spec"]["services"]["worker"]["volumeMounts"] == [
        {"name": "new-cache", "mountPoint": "/new-cache", "useAsCompilationCache": True}
    ]


def test_deleted_secondary_compilation_cache_does_not_restore() -> None:
    # TestBugDGD_DeletedSecondaryCompilationCacheDoesNotRestore
    hub = to_v1beta1(_worker(volumeMounts=copy.deepcopy(CACHES), extraPodSpec=copy.deepcopy(CONFIG_POD)))
    main = _main(hub)
    main["volumeMounts"] = [m for m in main["volumeMounts"] if m["name"] != "compile-cache"]

    def check(stage: str, got: dict) -> None:
        svc = got["spec"]["services"]["worker"]
        assert svc["volumeMounts"] == [CACHES[0]], stage
        assert svc["extraPodSpec"]["mainContainer"]["volumeMounts"] == [{"name": "config", "mountPath": "/config"}], (
            stage
        )

    out = to_v1alpha1(hub)
    check("first round trip", out)
    check("second round trip", to_v1alpha1(to_v1beta1(out)))


def test_pod_template_edit_preserves_live_mounts_only() -> None:
    # TestBugDGD_PodTemplateEditPreservesLiveMountsOnly
    hub = to_v1beta1(_worker(volumeMounts=copy.deepcopy(CACHES)))
    hub["spec"]["components"][0]["podTemplate"] = {
        "spec": {"containers": [{"name": "main", "volumeMounts": [{"name": "runtime-cache", "mountPath": "/runtime"}]}]}
    }
    back = to_v1alpha1(hub)
    assert back["spec"]["services"]["worker"]["volumeMounts"] == [
        CACHES[0],
        {"name": "runtime-cache", "mountPoint": "/runtime"},
    ]


def test_single_cache_mount_needs_no_payload() -> None:
    mounts = [{"name": "p", "mountPoint": "/p"}, {"name": "c", "mountPoint": "/c", "useAsCompilationCache": True}]
    hub, back = _round_trip(_worker(volumeMounts=copy.deepcopy(mounts)))
    # volumeMountsRoundTripThroughHub: one cache mount needs no payload
    assert DGD_SPEC_ANNOTATION not in hub["metadata"].get("annotations", {})
    # and the way back writes the flagged cache mount first (convertVolumeMountsFromHub), the main
    # container's mounts after it: the order the operator's own conversion gives (the operator-verified
    # cases 0009, 0323, 0871: the child DCDs' nvidia.com/dcd-spec lists the cache mount first)
    assert back["spec"]["services"]["worker"]["volumeMounts"] == [mounts[1], mounts[0]]


# -- sharedMemory ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shm,hub_size",
    [
        ({"disabled": True, "size": "1Gi"}, "0"),  # disabled wins; the size is kept aside
        ({}, None),  # {} -> nil
        ({"size": "0"}, None),
        ({"size": "2Gi"}, "2Gi"),
        ({"disabled": True, "size": "0"}, "0"),
    ],
)
def test_shared_memory_struct_round_trips(shm: dict, hub_size: str | None) -> None:
    hub, back = _round_trip(_worker(sharedMemory=copy.deepcopy(shm)))
    assert hub["spec"]["components"][0].get("sharedMemorySize") == hub_size
    # upstream saves the struct typed: SharedMemorySpec{} and {size: 0} are the same Go value and
    # both marshal as {"size":"0"}; the restore reads that zero size as absent
    assert back["spec"]["services"]["worker"]["sharedMemory"] == ({} if shm == {"size": "0"} else shm)


def test_edited_shared_memory_size_wins() -> None:
    hub = to_v1beta1(_worker(sharedMemory={"disabled": True, "size": "1Gi"}))
    hub["spec"]["components"][0]["sharedMemorySize"] = "4Gi"
    assert to_v1alpha1(hub)["spec"]["services"]["worker"]["sharedMemory"] == {"size": "4Gi"}


# -- the field table (conversion.md §4): every v1alpha1 field survives alpha -> beta -> alpha ---------

RICH: dict = {
    "componentType": "worker",
    "subComponentType": "prefill",
    "dynamoNamespace": "old-ns",
    "globalDynamoNamespace": True,
    "replicas": 2,
    "minAvailable": 1,
    "multinode": {"nodeCount": 2},
    "modelRef": {"name": "m"},
    "topologyConstraint": {"packDomain": "rack"},
    "eppConfig": {"configMapRef": {"name": "epp"}},
    "runtimeVersionOverride": "1.2.3",
    "providerOverride": {"provider": "x"},
    "resources": {
        "requests": {"cpu": "1", "gpu": "1", "gpuType": "nvidia.com/gpu", "custom": {"x/y": "1"}},
        "limits": {"memory": "1Gi", "gpu": "2", "gpuType": "amd.com/gpu"},
        "claims": [{"name": "c"}],
    },
    "envs": [{"name": "A", "value": "1"}],
    "envFromSecret": "sec",
    "livenessProbe": {"initialDelaySeconds": 3},
    "readinessProbe": {"timeoutSeconds": 2},
    "volumeMounts": [
        {"name": "plain", "mountPoint": "/p"},
        {"name": "c1", "mountPoint": "/c1", "useAsCompilationCache": True},
        {"name": "c2", "mountPoint": "/c2", "useAsCompilationCache": True},
    ],
    "extraPodMetadata": {"annotations": {"a": "1"}, "labels": {"l": "1"}},
    "extraPodSpec": {
        "tolerations": [{"key": "k", "operator": "Exists"}],
        "volumes": [{"name": "plain", "emptyDir": {}}],
        "mainContainer": {
            "image": "img",
            "command": ["run"],
            "workingDir": "/w",
            "env": [{"name": "B", "value": "2"}],
            "volumeMounts": [{"name": "cfg", "mountPath": "/cfg"}],
        },
    },
    "annotations": {"svc": "a"},
    "labels": {"svc": "l"},
    "sharedMemory": {"size": "1Gi"},
    "scalingAdapter": {"enabled": True},
    "gpuMemoryService": {"enabled": True, "mode": "intraPod"},
    "failover": {"enabled": True, "mode": "interPod", "numShadows": 2},
    "checkpoint": {"enabled": True, "mode": "Auto"},
    "frontendSidecar": {"image": "fe", "args": ["-x"], "envFromSecret": "fes", "envs": [{"name": "F", "value": "1"}]},
    "ingress": {"enabled": True, "host": "h"},
    "autoscaling": {"enabled": True, "minReplicas": 1},
}

LOSSY = [
    {"componentType": "worker", "scalingAdapter": {"enabled": False}},
    {"componentType": "worker", "gpuMemoryService": {"enabled": False, "mode": "intraPod"}},
    {"componentType": "worker", "failover": {"enabled": False, "numShadows": 1}},
    {"componentType": "worker", "checkpoint": {"enabled": False}},
    {"componentType": "worker", "subComponentType": "custom"},
    {"componentType": "frontend", "serviceName": "other"},
    {"componentType": "frontend", "resources": {}},
    {"componentType": "frontend", "resources": {"requests": {"gpuType": "amd.com/gpu"}}},
    {"componentType": "frontend", "envFromSecret": ""},
    {"componentType": "frontend", "extraPodMetadata": {}},
    {"componentType": "frontend", "extraPodSpec": {}},
    {"componentType": "frontend", "extraPodSpec": {"mainContainer": {"name": "main"}}},
    {"componentType": "frontend", "frontendSidecar": {}},
    {"componentType": "frontend", "volumeMounts": [{"name": "c", "useAsCompilationCache": True}]},
    {
        "componentType": "frontend",
        "volumeMounts": [
            {"name": "c", "mountPoint": "/c", "useAsCompilationCache": True},
            {"name": "p", "mountPoint": "/p"},
        ],
    },
]


@pytest.mark.parametrize("svc", [RICH, *LOSSY], ids=["rich", *[f"lossy{i}" for i in range(len(LOSSY))]])
def test_every_alpha_field_round_trips(svc: dict) -> None:
    alpha = _alpha({"w": copy.deepcopy(svc)})
    alpha["spec"].update(
        pvcs=[{"name": "p", "create": True}],
        envs=[{"name": "G", "value": "1"}],
        topologyConstraint={"topologyProfile": "t"},
    )
    hub, back = _round_trip(alpha)
    assert back["spec"] == alpha["spec"]
    # stable: a second pass produces the same hub
    assert to_v1beta1(back)["spec"] == hub["spec"]


def test_service_name_equal_to_key_is_redundant() -> None:
    # upstream ConvertFromDynamoGraphDeploymentSpec saves only a mismatched serviceName
    _, back = _round_trip(_alpha({"w": {"componentType": "worker", "serviceName": "w"}}))
    assert back["spec"]["services"]["w"] == {"componentType": "worker"}


# -- DCD: omitted serviceName, generated podTemplate, status (dynamocomponentdeployment_conversion.go) --


def _alpha_dcd(spec: dict, **top: Any) -> dict:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "default-name", "namespace": "ns"},
        "spec": spec,
        **top,
    }


def _payload(obj: dict, key: str) -> dict:
    raw = json.loads(obj["metadata"]["annotations"][key])
    return raw.get("spec", raw)


def test_dcd_omitted_service_name_origin_does_not_override_hub_edit() -> None:
    # TestDCD_OmittedServiceNameOriginDoesNotOverrideHubEdit
    src = _alpha_dcd({"backendFramework": "sglang", "componentType": "worker"})
    hub = to_v1beta1(src)
    assert hub["spec"]["name"] == "default-name"
    # marshalDCDSpokeSpec: empty typed save + the serviceName nil record
    assert hub["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{},"rawJSON":[{"path":"serviceName","nil":true}]}'
    )
    assert "serviceName" not in to_v1alpha1(hub)["spec"]
    hub["spec"]["name"] = "live-edit"
    assert to_v1alpha1(hub)["spec"]["serviceName"] == "live-edit"


def test_dcd_generated_pod_template_is_marked() -> None:
    # upstream generatedPodTemplateSave: an alpha-origin DCD with a podTemplate always carries the payload
    hub = to_v1beta1(_alpha_dcd({"serviceName": "w", "componentType": "worker", "envs": [{"name": "A", "value": "1"}]}))
    assert hub["spec"]["podTemplate"]["spec"]["containers"][0]["env"] == [{"name": "A", "value": "1"}]
    assert DCD_SPEC_ANNOTATION in hub["metadata"]["annotations"]
    plain = to_v1beta1(_alpha_dcd({"serviceName": "w", "componentType": "worker"}))
    assert DCD_SPEC_ANNOTATION not in plain["metadata"].get("annotations", {})


def test_dcd_status_pod_selector_and_component_name() -> None:
    status = {
        "observedGeneration": 2,
        "podSelector": {"app": "w"},
        "service": {"componentKind": "Deployment", "componentName": "default-name", "replicas": 1},
    }
    src = _alpha_dcd({"serviceName": "w", "componentType": "worker"}, status=copy.deepcopy(status))
    hub = to_v1beta1(src)
    # podSelector is removed in v1beta1; service -> component with componentNames
    assert hub["status"] == {
        "observedGeneration": 2,
        "component": {"componentKind": "Deployment", "componentNames": ["default-name"], "replicas": 1},
    }
    # upstream setJSONAnnOnObj of the typed v1alpha1 DynamoComponentDeploymentStatus save:
    # conditions has no omitempty (null), ServiceReplicaStatus writes its non-omitempty zeros
    assert hub["metadata"]["annotations"][DCD_STATUS_ANNOTATION] == (
        '{"conditions":null,"podSelector":{"app":"w"},"service":{"componentKind":"",'
        '"componentName":"default-name","replicas":0,"updatedReplicas":0}}'
    )
    assert to_v1alpha1(hub)["status"] == status


def test_dgd_status_component_name_round_trip() -> None:
    status = {
        "state": "successful",
        "services": {
            "w": {"componentKind": "Deployment", "componentName": "g-w", "replicas": 1},
            "x": {"componentName": "a", "componentNames": ["a", "b"]},
            "y": {"componentName": "b", "componentNames": ["a", "b"]},
        },
    }
    src = _worker()
    src["status"] = copy.deepcopy(status)
    hub = to_v1beta1(src)
    assert hub["status"]["components"]["w"] == {"componentKind": "Deployment", "componentNames": ["g-w"], "replicas": 1}
    # saveDGDAlphaOnlyStatus keeps only names the hub list cannot express
    # typed v1alpha1 DynamoGraphDeploymentStatus save: state has no omitempty, map keys sorted
    assert hub["metadata"]["annotations"][DGD_STATUS_ANNOTATION] == (
        '{"state":"","services":{'
        '"w":{"componentKind":"","componentName":"g-w","replicas":0,"updatedReplicas":0},'
        '"x":{"componentKind":"","componentName":"a","componentNames":["a","b"],"replicas":0,"updatedReplicas":0}}}'
    )
    assert to_v1alpha1(hub)["status"] == status
    # a live hub change wins over the preserved names
    hub["status"]["components"]["w"]["componentNames"] = ["g-w-2"]
    assert to_v1alpha1(hub)["status"]["services"]["w"] == {
        "componentKind": "Deployment",
        "componentNames": ["g-w-2"],
        "componentName": "g-w-2",
        "replicas": 1,
    }


def test_only_a_disabled_saved_feature_is_restored() -> None:
    """api/v1alpha1/shared_spec_conversion.go ``restoreSharedAlphaOnlyDisabledFeatures``: a scalingAdapter,
    gpuMemoryService, failover or checkpoint saved in the spoke annotation comes back only when the live object has
    none and the saved one is disabled (an enabled feature lives in the hub's own fields). So a v1beta1 DCD whose
    annotation holds an *enabled* failover converts to a v1alpha1 DCD without it, and is admitted."""
    import json

    import dynamo_schema

    def dcd(failover: dict[str, Any]) -> dict[str, Any]:
        spec = {"version": 1, "spec": {"failover": failover}, "rawJSON": [{"path": "serviceName", "nil": True}]}
        return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
                "metadata": {"name": "c", "namespace": "default",
                             "annotations": {"nvidia.com/dcd-spec": json.dumps(spec, separators=(",", ":"))}},
                "spec": {"backendFramework": "vllm", "name": "c", "type": "worker", "replicas": 1, "podTemplate": {
                    "spec": {"containers": [{"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0"}]}}}}

    disabled = {"enabled": False, "mode": "intraPod", "numShadows": 2}
    enabled = {**disabled, "enabled": True}
    assert dynamo_schema.convert(dcd(disabled), to="nvidia.com/v1alpha1")["spec"]["failover"] == disabled
    assert "failover" not in dynamo_schema.convert(dcd(enabled), to="nvidia.com/v1alpha1")["spec"]
    assert [r.status for r in dynamo_schema.validate(dcd(enabled))] == ["valid"]


# -- a payload upstream's typed decoding refuses is no payload (preservation.go restorePreservedSpec) ---------


def _beta_dcd(payload: Any) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
            "metadata": {"name": "c", "namespace": "default",
                         "annotations": {DCD_SPEC_ANNOTATION: json.dumps(payload, separators=(",", ":"))}},
            "spec": {"backendFramework": "vllm", "name": "c", "type": "worker", "replicas": 1, "podTemplate": {
                "spec": {"containers": [{"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0"}]}}}}


DISABLED_FAILOVER = {"enabled": False, "mode": "intraPod", "numShadows": 2}


@pytest.mark.parametrize("payload, restored", [
    # decodes: the saved (disabled) failover and the serviceName nil record come back
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER}, "rawJSON": [{"path": "serviceName", "nil": True}]}, True),
    # the legacy bare spec (no "spec" key): the whole payload into the v1alpha1 DynamoComponentDeploymentSpec
    ({"failover": DISABLED_FAILOVER}, True),
    ({"failover": DISABLED_FAILOVER, "dynamoNamespace": 5}, False),
    # json.Unmarshal into preservedSpecEnvelope[v1alpha1.DynamoComponentDeploymentSpec] fails: nothing restored
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER, "dynamoNamespace": 5}}, False),  # string field
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER, "replicas": "2"}}, False),  # *int32
    ({"version": 1, "spec": {"failover": {**DISABLED_FAILOVER, "numShadows": 1.5}}}, False),
    ({"version": "1", "spec": {"failover": DISABLED_FAILOVER}}, False),  # Version int
    ({"version": 1.0, "spec": {"failover": DISABLED_FAILOVER}}, False),  # 1.0 is not an int to encoding/json
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER}, "rawJSON": {"path": "serviceName"}}, False),
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER}, "rawJSON": [{"path": "serviceName", "nil": "yes"}]}, False),
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER}, "rawJSON": [{"path": "x", "raw": "not base64!"}]}, False),
    # Raw []byte: a standard base64 string or an array of bytes; unknown keys and nulls are ignored
    ({"version": 1, "spec": {"failover": DISABLED_FAILOVER, "unknown": 5, "dynamoNamespace": None},
      "rawJSON": [{"path": "x", "raw": "e30="}, {"path": "y", "raw": [123, 125]}, None], "extra": "ignored"}, True),
    # encoding/json matches struct fields case-insensitively: "Version" is the Version field
    ({"Version": "one", "spec": {"failover": DISABLED_FAILOVER}}, False),
])
def test_a_payload_that_does_not_decode_is_dropped(payload: dict[str, Any], restored: bool) -> None:
    """Upstream ``restorePreservedSpec``: ``json.Unmarshal`` of the annotation into
    ``preservedSpecEnvelope[T]`` (or, without a ``spec`` key, into ``T``) returns ``(zero, false)`` on any
    error, and ``ConvertFrom`` then restores nothing from it (not even the fields that decoded)."""
    import dynamo_schema

    spec = dynamo_schema.convert(_beta_dcd(payload), to="nvidia.com/v1alpha1")["spec"]
    assert spec.get("failover") == (DISABLED_FAILOVER if restored else None)


def test_a_hub_payload_that_does_not_decode_is_dropped() -> None:
    """The other direction (``ConvertTo``, ``restoreDCDHubSpec``: ``T`` is the v1beta1 spec type): a v1alpha1
    DCD whose hub payload holds a v1beta1 field of the wrong type converts as if it had no payload."""
    src = _alpha_dcd({"backendFramework": "sglang", "componentType": "worker", "serviceName": "w"})
    plain = to_v1beta1(src)
    good = copy.deepcopy(src)
    bad = copy.deepcopy(src)
    hub_spec = {"version": 1, "spec": {"backendFramework": "sglang", "name": "w", "type": "worker", "podTemplate": {
        "metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "main"}]}}}}
    good["metadata"]["annotations"] = {DCD_SPEC_ANNOTATION: json.dumps(hub_spec)}
    hub_spec["spec"]["replicas"] = "three"  # *int32 in v1beta1.DynamoComponentDeploymentSpec
    bad["metadata"]["annotations"] = {DCD_SPEC_ANNOTATION: json.dumps(hub_spec)}
    # restoreSharedHubOnlyFields: the saved pod template's labels come back from a payload that decodes
    assert to_v1beta1(good)["spec"]["podTemplate"]["metadata"] == {"labels": {"a": "b"}}
    assert to_v1beta1(bad)["spec"] == plain["spec"]
