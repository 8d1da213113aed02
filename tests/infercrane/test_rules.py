"""Loader rules: exact upstream messages (``internal/spec/spec.go@64491a4`` and the contracts it calls)
and precise paths, for the bad specs the library must refuse."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._infercrane import DeploymentSpec, SpecError, load_spec, validate_spec

DIGEST = "registry.example/runtime@sha256:" + "a" * 64

BASE: dict[str, Any] = {
    "apiVersion": "infercrane.dev/v1",
    "kind": "Deployment",
    "name": "qwen",
    "model": {"id": "Qwen/Qwen3-8B", "revision": "0123456789abcdef0123456789abcdef01234567"},
    "runtime": {"engine": "vllm"},
    "compute": {"mode": "elastic"},
    "resources": {"gpu": "L40S"},
    "provider": {"cloud": "aws", "region": "eu-central-1"},
    "scaling": {"min_replicas": 1, "max_replicas": 1},
    "routing": {"strategy": "round-robin"},
}

WORKLOAD = {
    "image": DIGEST, "command": ["serve", "--model", "${MODEL}"], "protocol": "openai", "port": 8000,
    "readiness_path": "/health", "models_path": "/v1/models", "metrics_path": "/metrics",
    "cancellation": "http-disconnect", "drain": "connection", "shutdown_grace_seconds": 30,
}


def spec(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(BASE)
    for dotted, value in changes.items():
        node = out
        parts = dotted.split("__")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if value is None:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = value
    return out


def only(diags: list[Diagnostic]) -> Diagnostic:
    assert len(diags) == 1, diags
    return diags[0]


def test_base_spec_loads() -> None:
    assert validate_spec(BASE) == []
    assert load_spec(BASE).get("endpoint") == "qwen"  # endpoint defaults to name (spec.go step 12)


def test_unknown_field_at_depth() -> None:
    data = spec(runtime={"engine": "custom-oci", "workload": dict(WORKLOAD, readyness_path="/typo")})
    d = only(validate_spec(data))
    assert d.rule == "infercrane.decode.unknown-field"
    assert d.path == ("runtime", "workload", "readyness_path")
    assert d.message == (
        "parse deployment file: yaml: unmarshal errors: field readyness_path not found in type runtimecontract.Workload"
    )


def test_unknown_fields_everywhere_fail_closed() -> None:
    data = spec(extra=1, serving={"backend": "dynamo", "cache": {"backend": "kvbm", "size": 3}})
    paths = {d.path for d in validate_spec(data)}
    assert paths == {("extra",), ("serving", "cache", "size")}


def test_mutable_image_tag() -> None:
    data = spec(runtime={"engine": "custom-oci", "workload": dict(WORKLOAD, image="registry.example/runtime:latest")})
    d = only(validate_spec(data))
    assert d.path == ("runtime", "workload", "image")
    assert d.message == "runtime.workload: workload.image: must be an OCI reference pinned by @sha256:<64 lowercase hex characters>"


@pytest.mark.parametrize("count", [1025, -1, 4096])
def test_gpu_count_out_of_range(count: int) -> None:
    d = only(validate_spec(spec(resources={"gpu": "L40S", "gpu_count": count})))
    assert (d.path, d.message) == (("resources", "gpu_count"), "resources.gpu_count must be between 1 and 1024")


def test_gpu_count_zero_reads_as_one() -> None:
    assert load_spec(spec(resources={"gpu": "L40S", "gpu_count": 0})).get("resources.gpu_count") == 1


def test_serverless_two_gpus() -> None:
    data = spec(compute={"mode": "serverless"}, provider={"cloud": "runpod"}, resources={"gpu": "L40S", "gpu_count": 2},
                scaling={"min_replicas": 0, "max_replicas": 2})
    d = only(validate_spec(data))
    assert (d.path, d.message) == (("resources", "gpu_count"), "serverless compute currently requires resources.gpu_count 1")


def test_aws_without_region() -> None:
    d = only(validate_spec(spec(provider={"cloud": "aws"})))
    assert (d.path, d.message) == (("provider", "region"), "AWS BYOC requires provider.region")


def test_gcp_without_region_library_rule() -> None:
    d = only(validate_spec(spec(provider={"cloud": "gcp"})))
    assert (d.rule, d.path) == ("infercrane.provider.region", ("provider", "region"))


def test_dynamo_two_outer_replicas() -> None:
    data = spec(provider={"cloud": "kubernetes", "adapter": "kubernetes-dynamo"}, scaling={"min_replicas": 1, "max_replicas": 2},
                serving={"backend": "dynamo", "mode": "aggregated", "worker": {"replicas": 1, "tensor_parallelism": 1}})
    d = only(validate_spec(data))
    assert d.path == ("scaling", "max_replicas")
    assert d.message == "serving: Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1"


def test_dynamo_adapter_without_topology_points_at_adapter() -> None:
    d = only(validate_spec(spec(provider={"cloud": "kubernetes", "adapter": "kubernetes-dynamo"})))
    assert d.path == ("provider", "adapter")
    assert d.message == "serving: provider_adapter kubernetes-dynamo requires an explicit Dynamo serving topology"


def test_header_rules() -> None:
    headerless = spec(apiVersion=None, kind=None)
    assert validate_spec(headerless) == []
    assert load_spec(headerless).get("apiVersion") == "infercrane.dev/v1"
    d = only(validate_spec(spec(apiVersion="infercrane.dev/v2")))
    assert (d.path, d.message) == (("apiVersion",), "DeploymentSpec must use apiVersion infercrane.dev/v1 and kind Deployment")


def test_upstream_order_mode_before_required() -> None:
    # compute.mode is checked (step 5) before the required fields (step 9).
    d = only(validate_spec({"compute": {"mode": "batch"}}))
    assert d.message == "compute.mode must be elastic or serverless"
    d = only(validate_spec({}))
    assert (d.path, d.message) == (("name",), "name, model.id, resources.gpu, and provider.cloud are required")


def test_upstream_order_support_matrix_before_region() -> None:
    d = only(validate_spec(spec(compute={"mode": "serverless"}, scaling={"min_replicas": 0, "max_replicas": 1},
                                provider={"cloud": "aws"})))
    assert d.message == 'support policy: compute mode "serverless" is not qualified for cloud "aws"'


def test_custom_oci_without_workload_and_workload_mode() -> None:
    d = only(validate_spec(spec(runtime={"engine": "custom-oci"})))
    assert (d.path, d.message) == (("runtime", "workload"), "runtime.workload is required for custom-oci")
    data = spec(runtime={"engine": "vllm", "workload": WORKLOAD}, compute={"mode": "serverless"},
                provider={"cloud": "runpod"}, scaling={"min_replicas": 0, "max_replicas": 1})
    d = only(validate_spec(data))
    assert (d.path, d.message) == (("compute", "mode"), "custom OCI workloads require compute.mode elastic")


def test_sglang_gets_builtin_profile() -> None:
    loaded = load_spec(spec(runtime={"engine": "sglang"}))
    assert loaded.get("runtime.workload.image").startswith("lmsysorg/sglang:v0.5.12@sha256:42194170")
    assert "--revision" in loaded.get("runtime.workload.command")


def test_partial_spec_returned_with_error() -> None:
    data = spec(provider={"cloud": "kubernetes", "adapter": "kubernetes-dynamo"},
                serving={"backend": "dynamo", "mode": "disaggregated", "prefill": {"replicas": 1},
                         "decode": {"replicas": 2}})
    with pytest.raises(SpecError) as info:
        load_spec(data)
    assert info.value.partial is not None
    assert info.value.partial.get("serving.schema_version") == "infercrane.serving/v1"
    assert info.value.partial.get("serving.decode.tensor_parallelism") == 1


def test_type_mismatch_reports_yaml_v3_text() -> None:
    d = only(validate_spec(spec(scaling={"min_replicas": "one", "max_replicas": 1})))
    assert d.path == ("scaling", "min_replicas")
    assert d.message == "parse deployment file: yaml: unmarshal errors: cannot unmarshal !!str `one` into int"


def test_pydantic_model_fails_closed_at_every_depth() -> None:
    from pydantic import ValidationError

    DeploymentSpec.model_validate(BASE)
    for bad in (spec(x=1), spec(model={"id": "a", "x": 1}),
                spec(serving={"cache": {"nope": 1}}), spec(runtime={"workload": dict(WORKLOAD, nope=1)})):
        with pytest.raises(ValidationError):
            DeploymentSpec.model_validate(bad)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(min_value=-5000, max_value=5000))
def test_gpu_count_property(count: int) -> None:
    diags = validate_spec(spec(resources={"gpu": "L40S", "gpu_count": count}))
    if 0 <= count <= 1024:
        assert diags == []
    else:
        assert [d.message for d in diags] == ["resources.gpu_count must be between 1 and 1024"]
