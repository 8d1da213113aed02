"""Rules on preserved v1alpha1 fields (``shared_v1alpha1.go``), reached by converting a v1alpha1
manifest with the project's converter, as the API server does before the v1beta1 webhook runs.
Messages from ``dynamo{graph,component}deployment_validation_envtest_test.go``; the Go path
``spec.services[worker]`` is the tuple ``("spec", "services", "worker")`` here."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings, default, validate
from dynamo_schema._core._diagnostics import Diagnostic
from tests.admission._admission_helpers import beta_dcd

convert = pytest.importorskip("dynamo_schema._convert._v1alpha1")


def alpha_dcd(mutate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "worker", "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "serviceName": "worker",
            "runtimeVersionOverride": "1.1.0",
            "componentType": "worker",
            "extraPodSpec": {"mainContainer": {"image": "registry.example/runtime:1.1.0"}},
        },
    }
    if mutate:
        mutate(obj["spec"])
    return obj


def alpha_dgd(mutate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    svc = {
        "componentType": "worker",
        "runtimeVersionOverride": "1.1.0",
        "extraPodSpec": {"mainContainer": {"image": "registry.example/runtime:1.1.0"}},
    }
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "test-graph", "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "services": {"frontend": dict(copy.deepcopy(svc), componentType="frontend"), "worker": svc},
        },
    }
    if mutate:
        mutate(obj["spec"])
    return obj


def admit(alpha: dict[str, Any], settings: AdmissionSettings | None = None) -> list[Diagnostic]:
    s = settings or AdmissionSettings()
    beta = convert.to_v1beta1(alpha)
    return validate(default(beta, s), s, source_version="v1alpha1")


def rows(diags: list[Diagnostic], severity: str = "error") -> list[tuple[tuple[Any, ...], str]]:
    return [(d.path, d.message) for d in diags if d.severity == severity]


def test_valid_alpha_objects_are_admitted() -> None:
    assert rows(admit(alpha_dcd())) == []
    assert rows(admit(alpha_dgd())) == []


def test_dcd_v1alpha1_ingress_host_rejected() -> None:
    diags = admit(alpha_dcd(lambda s: s.__setitem__("ingress", {"enabled": True})))
    assert rows(diags) == [
        (("spec", "ingress", "host"), "Required value: is required when ingress is enabled")
    ]


def test_dcd_v1alpha1_ingress_host_accepted() -> None:
    assert (
        rows(admit(alpha_dcd(lambda s: s.__setitem__("ingress", {"enabled": True, "host": "x.example"}))))
        == []
    )


def test_dcd_v1alpha1_volume_mount_point_rejected() -> None:
    diags = admit(alpha_dcd(lambda s: s.__setitem__("volumeMounts", [{"name": "cache"}])))
    assert (
        ("spec", "volumeMounts", 0, "mountPoint"),
        "Required value: is required when useAsCompilationCache is false",
    ) in rows(diags)


def test_dcd_v1alpha1_volume_mount_point_accepted() -> None:
    diags = admit(
        alpha_dcd(lambda s: s.__setitem__("volumeMounts", [{"name": "cache", "useAsCompilationCache": True}]))
    )
    assert [r for r in rows(diags) if r[0][-1] == "mountPoint"] == []


def test_dcd_v1alpha1_frontend_sidecar_conflict_rejected() -> None:
    def m(s: dict[str, Any]) -> None:
        s["frontendSidecar"] = {"image": "frontend:latest"}
        s["extraPodSpec"]["containers"] = [{"name": "sidecar-frontend", "image": "conflict:latest"}]

    assert (
        ("spec", "frontendSidecar"),
        (
            'Forbidden: cannot inject frontend sidecar: a container named "sidecar-frontend" already exists in '
            "extraPodSpec.containers"
        ),
    ) in rows(admit(alpha_dcd(m)))


def test_dcd_v1alpha1_failover_num_shadows_rejected() -> None:
    def m(s: dict[str, Any]) -> None:
        s["resources"] = {"limits": {"gpu": "1"}}
        s["gpuMemoryService"] = {"enabled": True, "mode": "intraPod"}
        s["failover"] = {"enabled": True, "mode": "intraPod", "numShadows": 2}

    assert (
        ("spec", "failover", "numShadows"),
        (
            'Invalid value: 2: is invalid for mode="intraPod": intraPod uses a fixed 1 primary + 1 shadow sidecar; '
            'use failover.mode="interPod" to configure numShadows'
        ),
    ) in rows(admit(alpha_dcd(m)))


def test_dcd_v1alpha1_main_image_required_rejected() -> None:
    diags = admit(alpha_dcd(lambda s: s.pop("extraPodSpec")))
    assert rows(diags) == [
        (("spec", "extraPodSpec", "mainContainer", "image"), "Required value: is required")
    ]


def test_dgd_v1alpha1_runtime_version_override_required_rejected() -> None:
    def m(s: dict[str, Any]) -> None:
        s["services"]["worker"]["runtimeVersionOverride"] = ""
        s["services"]["worker"]["extraPodSpec"]["mainContainer"]["image"] = "registry.example/runtime:custom"

    assert rows(admit(alpha_dgd(m))) == [
        (
            ("spec", "services", "worker", "runtimeVersionOverride"),
            "Required value: is required when the specified main container image has no parseable semantic-version tag",
        )
    ]


def test_dgd_v1alpha1_vllm_executor_backend_rejected() -> None:
    def m(s: dict[str, Any]) -> None:
        s["services"]["worker"]["annotations"] = {"nvidia.com/vllm-distributed-executor-backend": "invalid"}

    assert rows(admit(alpha_dgd(m))) == [
        (
            ("spec", "services", "worker", "annotations", "nvidia.com/vllm-distributed-executor-backend"),
            'Invalid value: "invalid": must be "mp" or "ray"',
        )
    ]


def test_dgd_v1alpha1_compatibility_warnings() -> None:
    def m(s: dict[str, Any]) -> None:
        s["services"]["worker"]["dynamoNamespace"] = "legacy-namespace"
        s["services"]["worker"]["autoscaling"] = {"enabled": True}

    assert [d.message for d in admit(alpha_dgd(m)) if d.severity == "warning"] == [
        (
            'spec.services[worker].dynamoNamespace is deprecated and ignored. Value "legacy-namespace" will be replaced '
            'with "default-test-graph". Remove this field from your configuration'
        ),
        (
            "spec.services[worker].autoscaling is deprecated and ignored. Use DynamoGraphDeploymentScalingAdapter with "
            "HPA, KEDA, or Planner for autoscaling instead. See docs/kubernetes/autoscaling.md"
        ),
    ]


def test_dcd_v1alpha1_dynamo_namespace_warning_uses_owner() -> None:
    obj = alpha_dcd(lambda s: s.__setitem__("dynamoNamespace", "my-custom-namespace"))
    obj["metadata"]["namespace"] = "hannahz"
    obj["metadata"]["ownerReferences"] = [
        {
            "apiVersion": "nvidia.com/v1alpha1",
            "kind": "DynamoGraphDeployment",
            "name": "trtllm-disagg",
            "uid": "test-owner",
        }
    ]
    assert [d.message for d in admit(obj) if d.severity == "warning"] == [
        (
            'spec.dynamoNamespace is deprecated and ignored. Value "my-custom-namespace" will be replaced with '
            '"hannahz-trtllm-disagg". Remove this field from your configuration'
        )
    ]


def test_dcd_v1alpha1_epp_config_rejected() -> None:
    diags = admit(
        alpha_dcd(lambda s: (s.__setitem__("componentType", "epp"), s.__setitem__("eppConfig", {})))
    )
    assert rows(diags) == [
        (("spec", "eppConfig"), "Forbidden: exactly one of configMapRef or config is required")
    ]


def test_dcd_v1alpha1_epp_config_accepted() -> None:
    def m(s: dict[str, Any]) -> None:
        s["componentType"] = "epp"
        s["eppConfig"] = {"configMapRef": {"name": "epp"}}

    assert rows(admit(alpha_dcd(m))) == []


def test_dgd_v1alpha1_pvc_name_rejected() -> None:
    diags = admit(alpha_dgd(lambda s: s.__setitem__("pvcs", [{"name": ""}])))
    assert (("spec", "pvcs", 0, "name"), "Required value: is required") in rows(diags)


def test_dcd_preserved_failover_with_a_non_bool_enabled_is_not_validated() -> None:
    """upstream ``restoreDCDSpokeSpec`` -> ``restorePreservedSpec`` (api/v1alpha1/preservation.go):
    the ``nvidia.com/dcd-spec`` envelope is decoded with ``json.Unmarshal`` into the typed v1alpha1
    spec; ``"enabled": 1`` cannot go into the ``bool`` ``FailoverSpec.Enabled`` (UnmarshalTypeError),
    so the payload is dropped (``zero, false``), the compatibility view has no ``failover`` and
    ``validateFailoverSpecV1alpha1`` never runs: the v1beta1 DCD is admitted. (Only a JSON ``true``
    enables it.) # mutant 8ca17d689e01"""
    import json

    import dynamo_schema

    payload = {"version": 1, "spec": {"failover": {"enabled": 1, "mode": "intraPod", "numShadows": 2}}}
    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "worker", "namespace": "default",
                        "annotations": {"nvidia.com/dcd-spec": json.dumps(payload)}},
           "spec": {"backendFramework": "vllm", "name": "worker", "type": "worker",
                    "runtimeVersionOverride": "1.1.0",
                    "podTemplate": {"spec": {"containers": [{"name": "main",
                                                             "image": "registry.example/runtime:1.1.0"}]}}}}
    (result,) = dynamo_schema.validate(dcd)
    assert [d.rule for d in result.diagnostics if d.severity == "error"] == []


def test_dgd_compatibility_gate_counts_only_a_disabled_gpu_memory_service() -> None:
    """upstream ``hasV1Alpha1CompatibilityFields`` (webhook/validation/dynamographdeployment_helpers.go):
    a DGD service's ``gpuMemoryService`` is a compatibility field when present and not enabled
    (``GPUMemoryService != nil && !GPUMemoryService.Enabled``; an enabled one converts to
    ``experimental.gpuMemoryService``); the DCD check (``hasDynamoComponentDeploymentV1alpha1CompatibilityFields``)
    does not look at it. The gate decides whether ``validateDynamoGraphDeploymentSpecV1alpha1`` runs.
    # mutant eed69a8078fa"""
    from dynamo_schema._admission.rules._alpha import _has_service_compat

    assert _has_service_compat({"gpuMemoryService": {"enabled": False}}, dgd=True)
    assert _has_service_compat({"gpuMemoryService": {}}, dgd=True)
    assert not _has_service_compat({"gpuMemoryService": {"enabled": True}}, dgd=True)
    assert not _has_service_compat({}, dgd=True)
    assert not _has_service_compat({"gpuMemoryService": {"enabled": False}}, dgd=False)


def test_compatibility_gate_counts_failover_and_frontend_sidecar_alone() -> None:
    """upstream ``hasV1Alpha1CompatibilityFields`` and ``hasDynamoComponentDeploymentV1alpha1CompatibilityFields``
    (webhook/validation/dynamographdeployment_helpers.go): ``service.FrontendSidecar != nil`` and
    ``service.Failover != nil`` are each a compatibility field on their own, so either one alone makes the
    v1alpha1 validation run. # mutant 5c17c8fe80a0"""
    from dynamo_schema._admission.rules._alpha import _has_service_compat

    failover = {"enabled": True, "mode": "intraPod", "numShadows": 1}
    gms = {"enabled": True, "mode": "intraPod"}
    for dgd in (True, False):
        assert _has_service_compat({"gpuMemoryService": gms, "failover": failover}, dgd=dgd)
        assert _has_service_compat({"frontendSidecar": {"image": "frontend:latest"}}, dgd=dgd)
        assert _has_service_compat({"failover": {}}, dgd=dgd)
        assert not _has_service_compat({"gpuMemoryService": gms}, dgd=dgd)


def admit_update(old_alpha: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> list[Diagnostic]:
    """UPDATE from a v1alpha1 client: the stored (defaulted v1beta1) object is read back as v1alpha1,
    ``change`` edits its spec, and the API server converts it to v1beta1 before the webhook runs."""
    s = AdmissionSettings()
    old = default(convert.to_v1beta1(old_alpha), s)
    alpha = convert.to_v1alpha1(old)
    change(alpha["spec"])
    new = default(convert.to_v1beta1(alpha), s, operation="UPDATE", old=old)
    return validate(new, s, old=old, source_version="v1alpha1")


def test_dcd_v1alpha1_main_image_cannot_be_removed_on_update() -> None:  # mutants 733d6b40cf87 2784955ee7b8
    """dynamocomponentdeployment_validation_envtest_test.go "v1alpha1 main image cannot be removed by removing
    extra pod spec" (dynamocomponentdeployment.go ValidateUpdate ->
    validateDynamoComponentDeploymentSharedSpecUpdateV1alpha1: ``newImage == "" && oldImage != ""``)."""
    assert rows(admit_update(alpha_dcd(), lambda s: s.pop("extraPodSpec"))) == [
        (("spec", "extraPodSpec", "mainContainer", "image"), "Required value: is required")
    ]
    assert rows(admit_update(alpha_dcd(), lambda s: None)) == []


def test_dcd_v1beta1_update_has_no_v1alpha1_runtime_ratchet() -> None:  # mutant 733d6b40cf87
    """dynamocomponentdeployment_validation_envtest_test.go "v1beta1 main image cannot be removed by removing pod
    template": one error, on the v1beta1 field; the v1alpha1 ratchet runs only for a v1alpha1 request
    (``validatesRuntimeVersionFor(runtimeVersionSourceV1Alpha1)``)."""
    s = AdmissionSettings()
    old = default(beta_dcd(), s)
    new = copy.deepcopy(old)
    new["spec"].pop("podTemplate")
    assert [d.field + ": " + d.message for d in validate(new, s, old=old) if d.severity == "error"] == [
        "spec.podTemplate.spec.containers: Required value: is required"
    ]


def test_dgd_v1alpha1_changed_custom_image_requires_override_on_update() -> None:  # mutant 2784955ee7b8
    """dynamographdeployment_validation_envtest_test.go "changing a legacy alpha custom image requires runtime
    version override" (validateDynamoGraphDeploymentSpecUpdateV1alpha1, per service); the unchanged legacy
    tuple is ratcheted ("unchanged legacy alpha service runtime version is ratcheted on update")."""

    def custom(image: str) -> Callable[[dict[str, Any]], None]:
        def m(s: dict[str, Any]) -> None:
            w = s["services"]["worker"]
            w["runtimeVersionOverride"] = ""
            w["extraPodSpec"]["mainContainer"]["image"] = image

        return m

    old = alpha_dgd(custom("registry.example/runtime:custom"))
    assert rows(admit_update(old, custom("registry.example/runtime:other-custom"))) == [
        (
            ("spec", "services", "worker", "runtimeVersionOverride"),
            "Required value: is required when the specified main container image has no parseable semantic-version tag",
        )
    ]
    assert rows(admit_update(old, lambda s: None)) == []
