"""The render API and registry shape, merge helpers and render-time errors."""

from __future__ import annotations

import copy

import pytest

from dynamo_schema._render import RenderError, RenderOptions, render, target_registry
from dynamo_schema._render._envmerge import merge_envs, mergo_override

DGD = {
    "apiVersion": "nvidia.com/v1beta1",
    "kind": "DynamoGraphDeployment",
    "metadata": {"name": "g"},
    "spec": {"backendFramework": "vllm", "components": [
        {"name": "frontend", "type": "frontend", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f:1.4.0"}]}}},
        {"name": "decode", "type": "decode", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "w:1.4.0"}]}}},
    ]},
}


def test_registry_shape() -> None:
    reg = target_registry()
    assert set(reg) == {"kubernetes", "grove", "dcd"}
    for name, plugin in reg.items():
        assert plugin.name == name
        assert isinstance(plugin.kinds, frozenset)
        assert callable(plugin.render)
    assert reg["kubernetes"].kinds == frozenset({"DynamoGraphDeployment", "DynamoComponentDeployment"})
    assert reg["dcd"].kinds == frozenset({"DynamoGraphDeployment"})


def test_dcd_target_only_dcds_and_input_untouched() -> None:
    before = copy.deepcopy(DGD)
    objs = render(DGD, "dcd", RenderOptions(namespace="ns"))
    assert DGD == before
    assert [o["kind"] for o in objs] == ["DynamoComponentDeployment"] * 2
    assert objs[0]["metadata"]["name"] == "g-frontend"
    assert objs[1]["metadata"]["name"].startswith("g-decode-") and len(objs[1]["metadata"]["name"]) == len("g-decode-") + 8


def test_unknown_target_and_kind() -> None:
    with pytest.raises(RenderError, match="unknown render target"):
        render(DGD, "helm", RenderOptions())
    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment", "metadata": {"name": "x"}, "spec": {"type": "frontend"}}
    with pytest.raises(RenderError):
        render(dcd, "grove", RenderOptions())


def test_etcd_discovery_drops_rbac_and_env() -> None:
    objs = render(DGD, "grove", RenderOptions(namespace="ns", discovery_backend="etcd"))
    kinds = [o["kind"] for o in objs]
    assert "ServiceAccount" not in kinds
    # only the frontend Service without Kubernetes discovery
    assert [o["metadata"]["name"] for o in objs if o["kind"] == "Service"] == ["g-frontend"]
    env = objs[0]["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["containers"][0]["env"]
    assert "DYN_DISCOVERY_BACKEND" not in {e["name"] for e in env}


def test_etcd_discovery_annotation_on_the_dgd_overrides_the_operator_default() -> None:
    """``nvidia.com/dynamo-discovery-backend`` on the DGD wins over the configured backend
    (controller_common/predicate.go ``GetDiscoveryBackend``): the Grove stable-resources reconciler then
    creates only the frontend's Service, and no discovery RBAC, env or pod labels are rendered."""
    dgd = copy.deepcopy(DGD)
    dgd["metadata"]["annotations"] = {"nvidia.com/dynamo-discovery-backend": "etcd"}
    objs = render(dgd, "grove", RenderOptions(namespace="ns"))  # the default backend is kubernetes
    assert "ServiceAccount" not in [o["kind"] for o in objs]
    assert [o["metadata"]["name"] for o in objs if o["kind"] == "Service"] == ["g-frontend"]
    clique = objs[0]["spec"]["template"]["cliques"][0]
    assert clique["annotations"]["nvidia.com/dynamo-discovery-backend"] == "etcd"  # graph.go: stamped as resolved
    assert "nvidia.com/dynamo-discovery-enabled" not in clique["labels"]
    assert "DYN_DISCOVERY_BACKEND" not in {e["name"] for e in clique["spec"]["podSpec"]["containers"][0]["env"]}


@pytest.mark.parametrize("value", ["", "Kubernetes"])
@pytest.mark.parametrize("target", ["grove", "kubernetes"])
def test_discovery_backend_annotation_is_taken_as_written(value: str, target: str) -> None:
    """The operator takes the annotation's value whenever the annotation is set (predicate.go
    ``GetDiscoveryBackend``, no check of the value): "" or an unknown value is not Kubernetes discovery
    (``IsK8sDiscoveryEnabled``: no discovery RBAC, only the frontend's Service), though the pods still get
    ``DYN_DISCOVERY_BACKEND=kubernetes`` (component_common.go: set unless the backend is ``etcd``)."""
    dgd = copy.deepcopy(DGD)
    dgd["metadata"]["annotations"] = {"nvidia.com/dynamo-discovery-backend": value}
    objs = render(dgd, target, RenderOptions(namespace="ns"))
    assert not {"ServiceAccount", "Role", "RoleBinding"} & {o["kind"] for o in objs}
    assert [o["metadata"]["name"] for o in objs if o["kind"] == "Service"] == ["g-frontend"]
    if target == "grove":
        for clique in objs[0]["spec"]["template"]["cliques"]:
            assert clique["annotations"]["nvidia.com/dynamo-discovery-backend"] == value
            assert "nvidia.com/dynamo-discovery-enabled" not in clique["labels"]
            env = clique["spec"]["podSpec"]["containers"][0]["env"]
            assert {"name": "DYN_DISCOVERY_BACKEND", "value": "kubernetes"} in env


def test_standard_env_sorted_in() -> None:
    objs = render(DGD, "grove", RenderOptions(namespace="ns", nats_address="nats://n:4222", etcd_address="etcd:2379"))
    names = [e["name"] for e in objs[0]["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["containers"][0]["env"]]
    assert names == sorted(names, key=lambda s: s.encode())
    assert {"NATS_SERVER", "ETCD_ENDPOINTS"} <= set(names)


def test_merge_envs_byte_order_and_override() -> None:
    merged = merge_envs([{"name": "DYN_X", "value": "1"}, {"name": "A", "value": "base"}], [{"name": "A", "value": "user"}, {"name": "DYNAMO_PORT", "value": "1"}])
    assert [e["name"] for e in merged] == ["A", "DYNAMO_PORT", "DYN_X"]
    assert merged[0]["value"] == "user"


def test_mergo_override() -> None:
    dst = {"a": 1, "m": {"x": 1, "y": 2}, "l": [1, 2], "s": "keep"}
    mergo_override(dst, {"a": 2, "m": {"y": 3}, "l": [9], "s": "", "n": None})
    assert dst == {"a": 2, "m": {"x": 1, "y": 3}, "l": [9], "s": "keep"}


def test_compilation_cache_errors() -> None:
    dgd = copy.deepcopy(DGD)
    dgd["spec"]["backendFramework"] = "sglang"
    dgd["spec"]["components"][1]["compilationCache"] = {"pvcName": "c"}
    with pytest.raises(RenderError, match=r"compilationCache.mountPath is required for backend framework sglang \(no default available\)"):
        render(dgd, "grove", RenderOptions())
    dgd["spec"]["components"][1]["compilationCache"] = {"mountPath": "/c"}
    with pytest.raises(RenderError, match="compilationCache.pvcName is required when compilationCache is set"):
        render(dgd, "grove", RenderOptions())


def test_shared_memory_zero_disables_volume() -> None:
    dgd = copy.deepcopy(DGD)
    dgd["spec"]["components"][1]["sharedMemorySize"] = "0"
    pod = render(dgd, "grove", RenderOptions())[0]["spec"]["template"]["cliques"][1]["spec"]["podSpec"]
    assert "volumes" not in pod and "volumeMounts" not in pod["containers"][0]


def test_user_security_context_and_probe_replace() -> None:
    dgd = copy.deepcopy(DGD)
    spec = dgd["spec"]["components"][1]["podTemplate"]["spec"]
    spec["securityContext"] = {"runAsUser": 0}
    spec["containers"][0]["livenessProbe"] = {"exec": {"command": ["true"]}}
    pod = render(dgd, "grove", RenderOptions())[0]["spec"]["template"]["cliques"][1]["spec"]["podSpec"]
    assert pod["securityContext"] == {"runAsUser": 0}
    assert pod["containers"][0]["livenessProbe"] == {"exec": {"command": ["true"]}}


def test_pcs_name_truncated_for_long_dgd() -> None:
    dgd = copy.deepcopy(DGD)
    dgd["metadata"]["name"] = "llama-3-70b-instruct-disagg-production-east1"
    dgd["spec"]["components"][1]["multinode"] = {"nodeCount": 2}
    pcs = render(dgd, "grove", RenderOptions())[0]
    assert pcs["metadata"]["name"] == "llama-3-70b-instruct-dis-114a"
    assert pcs["metadata"]["labels"]["nvidia.com/dynamo-graph-deployment-name"] == "llama-3-70b-instruct-disagg-production-east1"


def test_one_render_error() -> None:
    """The render stages and the render orchestration raise the same class (issue 9: one hierarchy)."""
    from dynamo_schema._core._diagnostics import DynamoSchemaError
    from dynamo_schema._pipeline import _render_object
    from dynamo_schema._render import _errors

    assert _render_object.RenderError is RenderError is _errors.RenderError
    assert issubclass(RenderError, DynamoSchemaError)
    staged = RenderError.at("bad", ("spec", 0), rule="render.x")
    assert [(d.rule, d.path, d.message) for d in staged.diagnostics] == [("render.x", ("spec", 0), "bad")]
    assert RenderError("refused").diagnostics == []  # the orchestration's form: words the failure itself
    with pytest.raises(RenderError) as info:
        render(DGD, "helm", RenderOptions())
    assert [d.rule for d in info.value.diagnostics] == ["render.target"]
