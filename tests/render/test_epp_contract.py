"""The EPP launch contract: whatever the runtime image, the EPP runs as the Go EPP reading its mounted config
file (pool name argument, no HOME override, the epp-config ConfigMap and mount).

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render import RenderOptions, render

from ._grove_fixtures import _dgd

# ---------------------------------------------------------------- EPP launch contract
# Reference revision component_epp.go (one contract: the Go EPP reading its mounted config file).

def _epp_dgd(image: str, epp_config: Any = None) -> dict[str, Any]:
    epp: dict[str, Any] = {"name": "epp", "type": "epp",
                           "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}}}
    if epp_config is not None:
        epp["eppConfig"] = epp_config
    worker = {"name": "worker", "type": "worker",
              "podTemplate": {"spec": {"containers": [{"name": "main", "image": "vllm-runtime:1.5.0"}]}}}
    return _dgd([epp, worker])


def _epp_container(objs: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    dep = next(o for o in objs if o["kind"] == "Deployment" and o["metadata"]["name"].endswith("-epp"))
    pod = dep["spec"]["template"]["spec"]
    return next(c for c in pod["containers"] if c["name"] == "main"), pod


@pytest.mark.parametrize("image", ["nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.4.0", "nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.5.0"])
def test_epp_contract_for_every_runtime(image: str) -> None:
    cfg = {"config": {"plugins": [{"type": "dyn-kv"}]}}
    objs = render(_epp_dgd(image, cfg), "kubernetes", RenderOptions(namespace="ns1"))
    main, pod = _epp_container(objs)
    assert main["args"][:2] == ["--pool-name", "test-deploy-pool"]
    assert "HOME" not in {e["name"] for e in main["env"]}
    assert {"name": "epp-config", "mountPath": "/etc/epp", "readOnly": True} in main["volumeMounts"]
    assert any(o["kind"] == "ConfigMap" and o["metadata"]["name"] == "test-deploy-epp-config" for o in objs)


# ---------------------------------------------------------------- the Istio DestinationRule of the EPP
# dgd_epp_reconciler.go: with features.Istio on (ServiceMeshConfiguration.IsEnabled: provider istio, enabled not
# false), after the InferencePool, graph.go GenerateEPPDestinationRule(eppServiceName, dgd.Namespace, mesh).

MUTUAL = {"provider": "istio", "istio": {"tlsMode": "MUTUAL", "clientCertificate": "/c.pem", "privateKey": "/k.pem",
                                         "caCertificates": "/ca.pem", "insecureSkipVerify": False}}


@pytest.mark.parametrize("target", ["kubernetes", "grove"])
def test_istio_mesh_adds_the_epp_destination_rule(target: str) -> None:
    dgd = _epp_dgd("nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.5.0", {"config": {"plugins": [{"type": "dyn-kv"}]}})
    objs = render(dgd, target, RenderOptions(namespace="ns1", service_mesh=MUTUAL))
    kinds = [o["kind"] for o in objs]
    (rule,) = [o for o in objs if o["kind"] == "DestinationRule"]
    assert kinds.index("DestinationRule") == kinds.index("InferencePool") + 1
    pool = next(o for o in objs if o["kind"] == "InferencePool")
    service, ns = pool["spec"]["endpointPickerRef"]["name"], pool["metadata"]["namespace"]
    assert (service, ns) == ("test-deploy-epp", "default")  # the DGD's own namespace wins over the option
    assert rule == {
        "apiVersion": "networking.istio.io/v1beta1", "kind": "DestinationRule",
        "metadata": {"name": service, "namespace": ns},
        "spec": {"host": f"{service}.{ns}.svc.cluster.local", "trafficPolicy": {"tls": {
            "mode": "MUTUAL", "clientCertificate": "/c.pem", "privateKey": "/k.pem", "caCertificates": "/ca.pem",
            "insecureSkipVerify": False}}}}
    for mesh in (None, {"provider": ""}, {**MUTUAL, "enabled": False}, {"provider": "linkerd"}):
        assert "DestinationRule" not in [o["kind"] for o in render(dgd, target, RenderOptions(service_mesh=mesh))]


@pytest.mark.parametrize(("istio", "tls"), [
    ({}, {"mode": "SIMPLE", "insecureSkipVerify": True}),                       # the defaults
    ({"tlsMode": "SIMPLE", "clientCertificate": "/c.pem"}, {"mode": "SIMPLE", "insecureSkipVerify": True}),
    ({"tlsMode": "ISTIO_MUTUAL"}, {"mode": "ISTIO_MUTUAL", "insecureSkipVerify": True}),
    ({"tlsMode": "DISABLE", "insecureSkipVerify": False}, {"insecureSkipVerify": False}),  # the enum's zero
    ({"tlsMode": "bogus"}, {"mode": "SIMPLE", "insecureSkipVerify": True}),   # anything else: SIMPLE
])
def test_destination_rule_tls(istio: dict[str, Any], tls: dict[str, Any]) -> None:
    from dynamo_schema._render._extras import epp_destination_rule

    rule = epp_destination_rule("Qwen.EPP", "ns", {"provider": "istio", "istio": istio})
    assert rule["metadata"] == {"name": "qwen-epp", "namespace": "ns"}
    assert rule["spec"] == {"host": "qwen-epp.ns.svc.cluster.local", "trafficPolicy": {"tls": tls}}
    # an istio provider without Istio settings: the rule with its name only
    assert epp_destination_rule("q-epp", "ns", {"provider": "istio"})["spec"] == {}
