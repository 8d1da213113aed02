"""Conversion behaviours pinned against upstream's conversion code (reference revision 2a6da14c,
``deploy/operator/api/v1alpha1/*_conversion.go``); each test names the surviving mutant it kills."""

from __future__ import annotations

import copy
import json
from typing import Any

from dynamo_schema._convert._v1alpha1 import DGD_SPEC_ANNOTATION, to_v1alpha1, to_v1beta1


def _alpha(services: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "g", "namespace": "ns"}, "spec": {"services": services}}


def _hub(components: list[dict[str, Any]], annotations: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "g", "namespace": "ns"}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": meta,
            "spec": {"components": components}}


def test_saved_frontend_sidecar_is_restored_only_under_the_default_name() -> None:
    """Upstream shared_spec_conversion.go restoredDefaultFrontendSidecar: the saved v1alpha1 FrontendSidecarSpec
    comes back only when the hub's ``frontendSidecar`` is exactly ``sidecar-frontend``; renamed (here to a name
    sorting before it) the sidecar is an ordinary extra container and no FrontendSidecarSpec is written."""
    # mutant 48990f876325
    svc = {"componentType": "frontend",
           "frontendSidecar": {"image": "fe:1", "args": ["-m", "dynamo.frontend"], "envFromSecret": "s"}}
    hub = to_v1beta1(_alpha({"w": svc}))
    comp = hub["spec"]["components"][0]
    assert comp["frontendSidecar"] == "sidecar-frontend"
    comp["frontendSidecar"] = "aaa"
    for ctr in comp["podTemplate"]["spec"]["containers"]:
        if ctr["name"] == "sidecar-frontend":
            ctr["name"] = "aaa"
    back = to_v1alpha1(hub)["spec"]["services"]["w"]
    assert "frontendSidecar" not in back
    assert [c["name"] for c in back["extraPodSpec"]["containers"]] == ["aaa"]


def test_dcd_empty_hub_name_restored_only_while_the_name_is_the_object_name() -> None:
    """Upstream dynamocomponentdeployment_conversion.go ConvertFromDynamoComponentDeploymentSpec: a saved empty
    ``spec.name`` comes back only when the converted name equals ``metadata.name``; a serviceName set on the
    v1alpha1 side since (here sorting after the object name) is kept."""
    # mutant 1ff91321246b
    hub = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "dcd", "namespace": "ns"},
           "spec": {"name": "", "type": "worker", "backendFramework": "vllm"}}
    alpha = to_v1alpha1(hub)
    assert to_v1beta1(alpha)["spec"]["name"] == ""
    alpha["spec"]["serviceName"] = "zzz"
    assert to_v1beta1(alpha)["spec"]["name"] == "zzz"
