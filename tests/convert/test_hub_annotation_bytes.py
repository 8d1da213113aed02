"""Exact bytes of the hub -> spoke preservation annotations (``to_v1alpha1``), as upstream writes them.

Upstream (wxsms/dynamo main = the reference revision, ``deploy/operator/api/v1alpha1/``):
``dynamocomponentdeployment_conversion.go`` ``marshalDCDHubSpec`` / ``dcdHubSpecNeedsSave`` (the save
is a typed v1beta1 ``DynamoComponentDeploymentSpec`` whose ``name`` is always set from the live hub),
``dynamographdeployment_conversion.go`` ``marshalDGDHubSpec`` (a v1beta1 ``DynamoGraphDeploymentSpec``
holding only ``components``: order preservation, non-zero saves, hub-origin podTemplates),
``shared_spec_conversion.go`` ``saveSharedHubOnlySpec`` / ``sparseSharedHubOnlyPodTemplate`` (what a
component save holds) and ``restoreSharedHubOnlyFields`` (how it is read back); ``preservation.go``
``marshalPreservedSpec`` (the JSON of an envelope with ``version`` 1 and the ``spec`` saved).
Go's encoder: fields in declaration order; ``DynamoComponentDeploymentSharedSpec.ComponentName``
(``json:"name"``) has no omitempty; ``PodTemplateSpec.ObjectMeta`` is a value struct whose
``creationTimestamp`` (``metav1.Time``) is ``omitempty,omitzero`` in apimachinery v0.36 (left out); ``PodSpec.Containers`` has no
omitempty (``null`` when nil); ``Container.Resources`` is a value struct (``{}``). The expected
strings are derived from those declarations and are upstream's own ``ConvertFrom`` bytes at 2a6da14c (its
v1alpha1 package run on each scenario outside the project); the scenarios are upstream's tests (named per test).
"""

from __future__ import annotations

import copy
import json

from dynamo_schema._convert._v1alpha1 import DCD_SPEC_ANNOTATION, DGD_SPEC_ANNOTATION, to_v1alpha1, to_v1beta1

EMPTY_POD_TEMPLATE = '{"metadata":{},"spec":{"containers":null}}'


def _dcd(spec: dict, name: str) -> dict:
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": name, "namespace": "ns"},
        "spec": spec,
    }


def _dgd(components: list) -> dict:
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {"components": components},
    }


def _ctrs(pt: dict | None) -> list:
    return ((pt or {}).get("spec") or {}).get("containers") or []


def test_generated_main_marker_bytes() -> None:
    # TestDCD_RoundTrip_PodTemplateKeepsGeneratedMainMarker: the name-only main is kept as a key, the
    # frontend sidecar reference has no v1alpha1 form without a spoke save (restoredDefaultFrontendSidecar)
    hub = _dcd(
        {
            "name": "generated-main-marker",
            "frontendSidecar": "sidecar-frontend",
            "podTemplate": {"spec": {"containers": [{"name": "main"}, {"name": "sidecar-frontend", "image": "frontend:v1"}]}},
        },
        "generated-main-marker",
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"name":"generated-main-marker","podTemplate":{"metadata":{},'
        '"spec":{"containers":[{"name":"main","resources":{}},{"name":"sidecar-frontend","resources":{}}]}},'
        '"frontendSidecar":"sidecar-frontend"}}'
    )
    assert to_v1beta1(spoke)["spec"] == hub["spec"]


def test_compilation_cache_without_generated_mount_keeps_marker() -> None:
    # TestDCD_RoundTrip_CompilationCacheWithoutGeneratedMountKeepsMarker
    hub = _dcd(
        {
            "name": "compilation-cache-no-mount",
            "compilationCache": {"pvcName": "cache-pvc", "mountPath": "/opt/cache"},
            "podTemplate": {"spec": {"containers": [{"name": "main", "readinessProbe": {"exec": {"command": ["ready"]}}}]}},
        },
        "compilation-cache-no-mount",
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"name":"compilation-cache-no-mount","podTemplate":{"metadata":'
        '{},"spec":{"containers":[{"name":"main","resources":{}}]}}}}'
    )
    back = to_v1beta1(spoke)
    assert "volumeMounts" not in _ctrs(back["spec"]["podTemplate"])[0]
    assert back["spec"] == hub["spec"]


def test_metadata_only_save_does_not_freeze_container_order() -> None:
    # TestBugDCD_MetadataOnlyPodTemplateSaveDoesNotFreezeContainerOrder
    hub = _dcd(
        {
            "name": "metadata-only-container-order",
            "podTemplate": {
                "metadata": {"name": "hub-only-template"},
                "spec": {
                    "containers": [
                        {"name": "main", "image": "worker:latest"},
                        {"name": "metrics", "image": "metrics:latest"},
                        {"name": "logger", "image": "logger:latest"},
                    ]
                },
            },
        },
        "metadata-only-container-order",
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"name":"metadata-only-container-order","podTemplate":{"metadata":'
        '{"name":"hub-only-template"},"spec":{"containers":null}}}}'
    )
    sidecars = spoke["spec"]["extraPodSpec"]["containers"]
    assert [c["name"] for c in sidecars] == ["metrics", "logger"]
    sidecars.reverse()
    back = to_v1beta1(spoke)
    assert [c["name"] for c in _ctrs(back["spec"]["podTemplate"])] == ["main", "logger", "metrics"]
    assert back["spec"]["podTemplate"]["metadata"] == {"name": "hub-only-template"}


def test_empty_pod_template_marker_and_hub_origin() -> None:
    # sparseSharedHubOnlyPodTemplate needsEmptyPodTemplateMarker; dcdHubSpecNeedsSave (hub origin with a
    # podTemplate, and a hub name left empty while metadata.name is set)
    hub = _dcd({"name": "x", "podTemplate": {}}, "x")
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"name":"x","podTemplate":' + EMPTY_POD_TEMPLATE + "}}"
    )
    assert to_v1beta1(spoke)["spec"] == hub["spec"]
    origin = to_v1alpha1(_dcd({"name": "x", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "m"}]}}}, "x"))
    assert origin["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == '{"version":1,"spec":{"name":"x"}}'
    unnamed = to_v1alpha1(_dcd({"name": ""}, "x"))
    assert unnamed["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == '{"version":1,"spec":{"name":""}}'
    assert to_v1beta1(unnamed)["spec"]["name"] == ""
    assert "annotations" not in to_v1alpha1(_dcd({"name": "x"}, "x"))["metadata"]


def test_spoke_origin_hub_skips_origin_marker() -> None:
    # SaveHubOrigin = !hasDCDSpokeAnnotations: a hub that came from a spoke is not marked again
    hub = _dcd({"name": "x", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "m"}]}}}, "x")
    hub["metadata"]["annotations"] = {"nvidia.com/dcd-status": "{}"}
    assert DCD_SPEC_ANNOTATION not in (to_v1alpha1(hub)["metadata"].get("annotations") or {})


def test_frontend_sidecar_key_and_stale_sidecar() -> None:
    # TestDCD_IntermediateSpokeDeletesFrontendSidecarContainerDropsHubReference
    hub = _dcd(
        {
            "name": "stale-sidecar",
            "type": "frontend",
            "frontendSidecar": "sidecar",
            "podTemplate": {"spec": {"containers": [{"name": "main", "image": "main:v1"}, {"name": "sidecar", "image": "frontend:v1"}]}},
        },
        "stale-sidecar",
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"name":"stale-sidecar","podTemplate":{"metadata":{},'
        '"spec":{"containers":[{"name":"sidecar","resources":{}}]}},"frontendSidecar":"sidecar"}}'
    )
    assert to_v1beta1(copy.deepcopy(spoke))["spec"] == hub["spec"]
    del spoke["spec"]["extraPodSpec"]["containers"]
    back = to_v1beta1(spoke)["spec"]
    assert "frontendSidecar" not in back
    assert [c["name"] for c in _ctrs(back.get("podTemplate"))] == ["main"]


def test_generated_frontend_sidecar_hub_only_field() -> None:
    # TestBugDCD_HubEditToFrontendSidecarHubOnlyFieldRoundTrips and
    # TestBugDCD_IntermediateSpokeDeletesGeneratedFrontendSidecarDropsHubOnlyContainer
    alpha = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "frontend-sidecar-hub-only", "namespace": "ns"},
        "spec": {"serviceName": "frontend-sidecar-hub-only", "frontendSidecar": {"image": "frontend:v1"}},
    }
    hub = to_v1beta1(alpha)
    side = next(c for c in _ctrs(hub["spec"]["podTemplate"]) if c["name"] == "sidecar-frontend")
    side["securityContext"] = {"runAsNonRoot": True}
    spoke = to_v1alpha1(copy.deepcopy(hub))
    saved = json.loads(spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION])
    kept = next(c for c in saved["spec"]["podTemplate"]["spec"]["containers"] if c["name"] == "sidecar-frontend")
    assert kept == {"name": "sidecar-frontend", "resources": {}, "securityContext": {"runAsNonRoot": True}}
    assert to_v1beta1(copy.deepcopy(spoke))["spec"]["podTemplate"] == hub["spec"]["podTemplate"]
    del spoke["spec"]["frontendSidecar"]
    back = to_v1beta1(spoke)["spec"]
    assert "frontendSidecar" not in back
    assert all(c["name"] != "sidecar-frontend" for c in _ctrs(back.get("podTemplate")))


def test_dgd_hub_save_bytes() -> None:
    # ConvertToDynamoGraphDeploymentSpec: unsorted components keep every entry (name only when nothing
    # else); a hub-origin podTemplate marks its component; grove (no v1alpha1 form) is saved sparsely
    hub = _dgd(
        [
            {"name": "worker", "type": "worker", "experimental": {"grove": {"forceScalingGroup": True}}},
            {"name": "frontend", "type": "frontend", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f"}]}}},
        ]
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DGD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"components":[{"name":"worker","experimental":{"grove":{"forceScalingGroup":true}}},'
        '{"name":"frontend"}]}}'
    )
    assert to_v1beta1(spoke)["spec"] == hub["spec"]
    sorted_hub = _dgd([{"name": "a", "type": "worker"}, {"name": "b", "type": "frontend"}])
    assert "annotations" not in to_v1alpha1(sorted_hub)["metadata"]


def test_dgd_hub_save_with_pod_template_order() -> None:
    # test_convert.test_beta_only_fields_survive_round_trip, written as upstream would
    hub = _dgd(
        [
            {
                "name": "Worker",
                "type": "worker",
                "frontendSidecar": "sidecar",
                "podTemplate": {"spec": {"containers": [{"name": "sidecar", "image": "s"}, {"name": "main", "image": "m"}]}},
            },
            {"name": "Frontend", "type": "frontend"},
        ]
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DGD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"components":[{"name":"Worker","podTemplate":{"metadata":{},'
        '"spec":{"containers":[{"name":"sidecar","resources":{}},{"name":"main","resources":{}}]}},'
        '"frontendSidecar":"sidecar"},{"name":"Frontend"}]}}'
    )
    assert to_v1beta1(spoke)["spec"] == hub["spec"]


def test_earlier_hub_payload_shape_still_read() -> None:
    # this module's earlier hub save ({"spec":{"component(s)":...},"version":1}, keys sorted)
    spoke = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": "g",
            "annotations": {DGD_SPEC_ANNOTATION: '{"spec":{"components":[{"name":"b"},{"name":"a"}]},"version":1}'},
        },
        "spec": {"services": {"a": {"componentType": "worker"}, "b": {"componentType": "frontend"}}},
    }
    assert [c["name"] for c in to_v1beta1(spoke)["spec"]["components"]] == ["b", "a"]
    dcd = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {
            "name": "x",
            "annotations": {DCD_SPEC_ANNOTATION: '{"spec":{"component":{"frontendSidecar":"s"}},"version":1}'},
        },
        "spec": {"serviceName": "x"},
    }
    assert to_v1beta1(dcd)["spec"]["frontendSidecar"] == "s"


def _alpha(kind: str, name: str, spec: dict) -> dict:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": kind, "metadata": {"name": name, "namespace": "ns"}, "spec": spec}


def test_intermediate_hub_pod_template_edit_round_trips() -> None:
    # TestDGD_IntermediateHubPodTemplateEditsRoundTripThroughSpoke / TestDCD_...: a representable main
    # image is never kept in the save; the spoke carries it in extraPodSpec.mainContainer
    dgd = to_v1beta1(_alpha("DynamoGraphDeployment", "hub-only-edit",
                            {"services": {"worker": {"serviceName": "worker", "componentType": "worker"}}}))
    dgd["spec"]["components"][0]["podTemplate"] = {"spec": {"containers": [{"name": "main", "image": "worker:edited"}]}}
    spoke = to_v1alpha1(copy.deepcopy(dgd))
    raw = (spoke["metadata"].get("annotations") or {}).get(DGD_SPEC_ANNOTATION)
    if raw is not None:
        for comp in json.loads(raw)["spec"]["components"]:
            assert all("image" not in c for c in _ctrs(comp.get("podTemplate")))
    assert spoke["spec"]["services"]["worker"]["extraPodSpec"]["mainContainer"]["image"] == "worker:edited"
    assert to_v1beta1(spoke)["spec"]["components"][0]["podTemplate"] == dgd["spec"]["components"][0]["podTemplate"]

    dcd = to_v1beta1(_alpha("DynamoComponentDeployment", "hub-only-edit",
                            {"serviceName": "hub-only-edit", "componentType": "worker"}))
    dcd["spec"]["podTemplate"] = {"spec": {"containers": [{"name": "main", "image": "worker:edited"}]}}
    spoke = to_v1alpha1(copy.deepcopy(dcd))
    assert spoke["spec"]["extraPodSpec"]["mainContainer"]["image"] == "worker:edited"
    assert to_v1beta1(spoke)["spec"]["podTemplate"] == dcd["spec"]["podTemplate"]


def test_hub_edit_to_env_from_secret_optional_round_trips() -> None:
    # TestBugDCD_HubEditToEnvFromSecretOptionalRoundTrips
    hub = to_v1beta1(_alpha("DynamoComponentDeployment", "env-from-secret",
                            {"serviceName": "env-from-secret", "envFromSecret": "secret-a"}))
    hub["spec"]["podTemplate"]["spec"]["containers"][0]["envFrom"][0]["secretRef"]["optional"] = True
    out = to_v1beta1(to_v1alpha1(copy.deepcopy(hub)))
    assert out["spec"]["podTemplate"] == hub["spec"]["podTemplate"]


def test_hub_only_volume_mount_fields_sparse_bytes() -> None:
    # sparseSharedHubOnlyVolumeMounts: a mount the projection reproduces is kept as {name, mountPath}
    # (VolumeMount.name and mountPath have no omitempty), a differing one whole: readOnly does not
    # survive the flat v1alpha1 volumeMounts (restoreFlatVolumeMountsFromMain); it comes back through
    # restoreSharedHubOnlyFlatVolumeMountFields
    hub = _dcd(
        {
            "name": "w",
            "podTemplate": {
                "metadata": {"name": "t"},
                "spec": {"containers": [{"name": "main", "volumeMounts": [
                    {"name": "a", "mountPath": "/a"},
                    {"name": "b", "mountPath": "/b", "readOnly": True},
                ]}]},
            },
        },
        "w",
    )
    spoke = to_v1alpha1(copy.deepcopy(hub))
    assert spoke["metadata"]["annotations"][DCD_SPEC_ANNOTATION] == (
        '{"version":1,"spec":{"name":"w","podTemplate":{"metadata":{"name":"t"},'
        '"spec":{"containers":[{"name":"main","resources":{},"volumeMounts":[{"name":"a","mountPath":"/a"},'
        '{"name":"b","readOnly":true,"mountPath":"/b"}]}]}}}}'
    )
    assert to_v1beta1(spoke)["spec"] == hub["spec"]
