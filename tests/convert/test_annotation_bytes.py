"""Exact bytes of the preservation annotations, as upstream writes them.

Upstream (wxsms/dynamo main = the reference revision, ``deploy/operator/api/v1alpha1/``):
``preservation.go`` ``marshalPreservedSpec`` (the JSON of ``preservedSpecEnvelope``: ``version`` 1, ``spec``
the typed v1alpha1 DynamoComponentDeploymentSpec save, ``rawJSON`` a list omitted when empty, whose entries
hold ``path`` and, each omitted when empty, ``raw`` and ``nil``);
``dynamocomponentdeployment_conversion.go`` ``marshalDCDSpokeSpec`` (records an entry for the path
``serviceName`` with ``nil`` true when the name was defaulted from metadata.name),
``shared_spec_conversion.go`` ``saveSharedAlphaOnlySpec`` / ``saveSharedMainContainerOrigins``
(what the save holds), ``setJSONAnnOnObj`` (status saves: the typed v1alpha1 status struct).
Go's encoder: struct fields in declaration order, ``omitempty`` never drops a value-typed struct
(``Container.resources`` -> ``{}``), ``Container.name`` has no omitempty (``""``), map keys sorted,
``<``, ``>``, ``&`` escaped as ``\\u003c``... The expected strings below are derived from those
declarations (the upstream tests decode the payload; they do not pin bytes).
"""

from __future__ import annotations

import copy

from dynamo_schema._convert._v1alpha1 import (
    DCD_SPEC_ANNOTATION,
    DCD_STATUS_ANNOTATION,
    to_v1alpha1,
    to_v1beta1,
)

EMPTY_NAME = '"rawJSON":[{"path":"serviceName","nil":true}]'


def _alpha_dcd(spec: dict, name: str = "full") -> dict:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": name, "namespace": "ns"},
        "spec": spec,
    }


def _ann(obj: dict, key: str = DCD_SPEC_ANNOTATION) -> str:
    return obj["metadata"]["annotations"][key]


def test_sparse_spoke_save_carries_alpha_only_fields() -> None:
    # TestDCD_FromV1alpha1_SparseSpokeSaveCarriesAlphaOnlyFields (same source object)
    spec = {
        "componentType": "worker",
        "subComponentType": "custom-prefill",
        "serviceName": "worker-svc",
        "dynamoNamespace": "legacy-dyn-ns",
        "annotations": {"team": "alpha"},
        "labels": {"tier": "gpu"},
        "sharedMemory": {"disabled": True},
        "autoscaling": {"enabled": True, "minReplicas": 1, "maxReplicas": 5},
        "ingress": {"enabled": True, "host": "api.example.com"},
        "scalingAdapter": {"enabled": False},
        "gpuMemoryService": {"enabled": False, "mode": "intraPod"},
    }
    hub = to_v1beta1(_alpha_dcd(spec))
    # sharedMemory {disabled, size 0} round-trips through sharedMemorySize: not saved
    # (sharedMemoryNeedsPreservation); ScalingAdapter{Enabled:false} marshals as {} (omitempty)
    assert _ann(hub) == (
        '{"version":1,"spec":{"annotations":{"team":"alpha"},"labels":{"tier":"gpu"},'
        '"subComponentType":"custom-prefill","dynamoNamespace":"legacy-dyn-ns",'
        '"autoscaling":{"enabled":true,"minReplicas":1,"maxReplicas":5},'
        '"ingress":{"enabled":true,"host":"api.example.com"},"scalingAdapter":{},'
        '"gpuMemoryService":{"enabled":false,"mode":"intraPod"}}}'
    )
    back = to_v1alpha1(hub)["spec"]
    for key in ("subComponentType", "dynamoNamespace", "annotations", "labels", "autoscaling", "ingress",
                "gpuMemoryService", "scalingAdapter"):
        assert back[key] == spec[key]


def test_omitted_service_name_marker_only() -> None:
    # TestDCD_OmittedServiceNameOriginDoesNotOverrideHubEdit: empty save + the nil record
    hub = to_v1beta1(_alpha_dcd({"backendFramework": "sglang", "componentType": "worker"}, name="default-name"))
    assert _ann(hub) == '{"version":1,"spec":{},' + EMPTY_NAME + "}"
    assert "serviceName" not in to_v1alpha1(hub)["spec"]


def test_main_container_origin_split_bytes() -> None:
    # saveSharedMainContainerOrigins (IncludeOriginSplits for an alpha-origin DCD): envs and the
    # main container's env both saved; ensureExtraPodSpecMainContainer gives a Container with
    # name "" (no omitempty) and resources {} (value struct)
    spec = {
        "serviceName": "w",
        "componentType": "worker",
        "envs": [{"name": "A", "value": "1"}],
        "extraPodSpec": {"mainContainer": {"image": "x", "env": [{"name": "B", "value": "2"}]}},
    }
    hub = to_v1beta1(_alpha_dcd(copy.deepcopy(spec), name="w"))
    assert _ann(hub) == (
        '{"version":1,"spec":{"envs":[{"name":"A","value":"1"}],'
        '"extraPodSpec":{"mainContainer":{"name":"","env":[{"name":"B","value":"2"}],"resources":{}}}}}'
    )
    assert to_v1alpha1(hub)["spec"] == spec


def test_probe_origin_keeps_grpc_service_null() -> None:
    # GRPCAction.Service is a *string without omitempty: nil -> null
    spec = {
        "serviceName": "w",
        "componentType": "worker",
        "livenessProbe": {"httpGet": {"path": "/h", "port": 8000}},
        "extraPodSpec": {"mainContainer": {"readinessProbe": {"grpc": {"port": 9}}}},
    }
    hub = to_v1beta1(_alpha_dcd(copy.deepcopy(spec), name="w"))
    assert _ann(hub) == (
        '{"version":1,"spec":{"extraPodSpec":{"mainContainer":{"name":"","resources":{},'
        '"readinessProbe":{"grpc":{"port":9,"service":null}}}},'
        '"livenessProbe":{"httpGet":{"path":"/h","port":8000}}}}'
    )
    assert to_v1alpha1(hub)["spec"] == spec


def test_html_characters_escaped_like_go() -> None:
    hub = to_v1beta1(_alpha_dcd({"serviceName": "w", "componentType": "worker",
                                 "annotations": {"q": "a<b>&c"}}, name="w"))
    assert _ann(hub) == '{"version":1,"spec":{"annotations":{"q":"a\\u003cb\\u003e\\u0026c"}}}'
    assert to_v1alpha1(hub)["spec"]["annotations"] == {"q": "a<b>&c"}


def test_generated_dcd_carrier_annotation() -> None:
    # graph.go applyDGDComponentAlphaCompatibilityToDCD: the DGD's v1alpha1 view of a component
    # (no serviceName; decomposePodTemplateFromHub clears the main container's name) wrapped in
    # a v1alpha1 DCD named after the generated DCD and converted back: nothing alpha-only to save,
    # only the defaulted-name record
    dgd = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {"backendFramework": "vllm", "components": [
            {"name": "decode", "type": "decode", "replicas": 2,
             "podTemplate": {"spec": {"containers": [{"name": "main", "image": "w:1"}]}}},
        ]},
    }
    component = to_v1alpha1(dgd)["spec"]["services"]["decode"]
    carrier = to_v1beta1(_alpha_dcd({"backendFramework": "vllm", **component}, name="g-decode-abc"))
    assert _ann(carrier) == '{"version":1,"spec":{},' + EMPTY_NAME + "}"


def test_upstream_written_spoke_payload_is_read() -> None:
    # an object annotated by the operator itself (bytes as marshalDCDSpokeSpec writes them)
    hub = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "default-name", "namespace": "ns", "annotations": {
            DCD_SPEC_ANNOTATION: '{"version":1,"spec":{"subComponentType":"custom","dynamoNamespace":"d"},'
                                 + EMPTY_NAME + "}",
        }},
        "spec": {"name": "default-name", "type": "worker"},
    }
    spoke = to_v1alpha1(hub)["spec"]
    assert spoke["subComponentType"] == "custom"
    assert spoke["dynamoNamespace"] == "d"
    assert "serviceName" not in spoke


def test_dcd_status_bytes_without_pod_selector() -> None:
    status = {"service": {"componentKind": "Deployment", "componentNames": ["a", "b"], "componentName": "a",
                          "replicas": 1}}
    hub = to_v1beta1(_alpha_dcd({"serviceName": "w", "componentType": "worker"}, name="w") | {"status": status})
    assert _ann(hub, DCD_STATUS_ANNOTATION) == (
        '{"conditions":null,"service":{"componentKind":"","componentName":"a","componentNames":["a","b"],'
        '"replicas":0,"updatedReplicas":0}}'
    )
    assert to_v1alpha1(hub)["status"] == status


def test_dgd_spoke_save_bytes() -> None:
    # dynamographdeployment_conversion.go ConvertFromDynamoGraphDeploymentSpec + marshalDGDSpokeSpec:
    # a sparse v1alpha1 DynamoGraphDeploymentSpec {pvcs, services{name: save | nil}}; PVC.size is a
    # value-typed Quantity (always written, "0"); a mismatched serviceName is saved; a nil service
    # is null; services with nothing to save are left out
    alpha = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {
            "pvcs": [{"name": "p", "create": True}],
            "services": {
                "w": {"componentType": "worker", "subComponentType": "custom", "serviceName": "legacy"},
                "f": {"componentType": "frontend"},
                "gone": None,
            },
        },
    }
    hub = to_v1beta1(copy.deepcopy(alpha))
    assert hub["metadata"]["annotations"]["nvidia.com/dgd-spec"] == (
        '{"version":1,"spec":{"pvcs":[{"create":true,"name":"p","size":"0"}],'
        '"services":{"gone":null,"w":{"serviceName":"legacy","subComponentType":"custom"}}}}'
    )
    assert to_v1alpha1(hub)["spec"] == alpha["spec"]
