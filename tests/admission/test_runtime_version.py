"""Runtime-version resolution (cases from ``internal/runtimeversion/runtimeversion_test.go``)."""

from __future__ import annotations

import pytest

from dynamo_schema._admission import RuntimeVersion, component_runtime_version, resolve_runtime_version
from dynamo_schema._admission._runtime_version import (
    RuntimeVersionError,
    image_tag,
    parse_image_version,
    parse_runtime_version,
)


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ("1.2.3", RuntimeVersion(1, 2, 3)),
        ("1.2", None),
        ("18446744073709551616.0.0", None),
        ("v1.2.3", None),
        ("1.2.3-rc.1+b7", RuntimeVersion(1, 2, 3)),
    ],
)
def test_parse_override(value: str, want: RuntimeVersion | None) -> None:
    if want is None:
        with pytest.raises(RuntimeVersionError, match='must be a semantic version such as "1.1.0"'):
            parse_runtime_version(value)
    else:
        assert parse_runtime_version(value) == want


@pytest.mark.parametrize(
    ("image", "want"),
    [
        ("nvcr.io/nvidia/ai-dynamo/vllm-runtime:v1.2.3-cuda13", RuntimeVersion(1, 2, 3)),
        ("registry.example/runtime:sha-123", None),
        ("registry:5000/runtime", None),  # the colon belongs to the registry host
        ("registry:5000/runtime:1.4.0@sha256:abc", RuntimeVersion(1, 4, 0)),
        ("runtime:V2.0.1+build.5", RuntimeVersion(2, 0, 1)),
        ("runtime:1.5.0-nemotron-3.5-lightning-dev.1", RuntimeVersion(1, 5, 0)),
        ("runtime:01.2.3", None),
    ],
)
def test_parse_image_version(image: str, want: RuntimeVersion | None) -> None:
    if want is None:
        with pytest.raises(RuntimeVersionError):
            parse_image_version(image)
    else:
        assert parse_image_version(image) == want


def test_error_messages() -> None:
    with pytest.raises(RuntimeVersionError, match='image "x/runtime" does not contain a tag'):
        parse_image_version("x/runtime")
    with pytest.raises(
        RuntimeVersionError, match='image tag "latest" must contain a semantic version such as "1.1.0"'
    ):
        parse_image_version("x/runtime:latest")
    assert image_tag("a/b:c@sha256:d") == "c"


def test_resolve() -> None:
    assert resolve_runtime_version("nvcr.io/nvidia/ai-dynamo/runtime:v1.5.0-cuda13") == RuntimeVersion(
        1, 5, 0
    )
    assert resolve_runtime_version("nvcr.io/nvidia/ai-dynamo/runtime:1.5.0", "1.4.0") == RuntimeVersion(
        1, 4, 0
    )
    assert resolve_runtime_version("nvcr.io/nvidia/ai-dynamo/runtime:1.5.0", "invalid") is None
    assert str(RuntimeVersion(1, 5, 0)) == "1.5.0"


def test_component_runtime_version_reads_main_container() -> None:
    comp = {
        "podTemplate": {
            "spec": {
                "containers": [{"name": "sidecar", "image": "x:9.9.9"}, {"name": "main", "image": "x:1.3.0"}]
            }
        }
    }
    assert component_runtime_version(comp) == RuntimeVersion(1, 3, 0)
    assert component_runtime_version({**comp, "runtimeVersionOverride": "1.6.0"}) == RuntimeVersion(1, 6, 0)
    assert component_runtime_version({}) is None


def test_a_runtime_version_is_an_ordered_triple() -> None:
    import copy
    import pickle

    from dynamo_schema._admission._runtime_version import RuntimeVersion, parse_image_version

    v = parse_image_version("nvcr.io/nvidia/ai-dynamo/vllm-runtime:v1.5.2")
    assert (v.major, v.minor, v.patch) == (1, 5, 2) and v == (1, 5, 2) and isinstance(v, tuple)
    assert str(v) == "1.5.2" and repr(v) == "RuntimeVersion(major=1, minor=5, patch=2)"
    assert RuntimeVersion(1, 5, 0) < v < RuntimeVersion(1, 10, 0) and v >= (1, 5, 2)
    assert sorted([RuntimeVersion(1, 10, 0), v, RuntimeVersion(0, 9, 9)])[0] == (0, 9, 9)
    for twin in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v), copy.copy(v)):
        assert type(twin) is RuntimeVersion and twin == v and str(twin) == "1.5.2"
    assert hash(v) == hash((1, 5, 2)) and len({v, (1, 5, 2)}) == 1
