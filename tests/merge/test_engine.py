"""The schema-driven structural merge engine on its own: both schema shapes (inline CRD and
``$ref``/``$defs``), keyed lists, sets, atomic lists and maps, preserve-unknown objects, validation."""

from __future__ import annotations

import copy

import pytest

from dynamo_schema._merge._engine import StructuralError, StructuralMerger
from dynamo_schema._merge._schema import SchemaWalker, root_schema

ENV = {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name"],
    "items": {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string"},
            "value": {"type": "string"},
            "valueFrom": {
                "type": "object",
                "properties": {
                    "secretKeyRef": {
                        "type": "object",
                        "x-kubernetes-map-type": "atomic",
                        "properties": {"name": {"type": "string"}, "key": {"type": "string"}},
                    }
                },
            },
        },
    },
}
INLINE = {
    "type": "object",
    "properties": {
        "env": ENV,
        "args": {"type": "array", "items": {"type": "string"}},
        "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
        "ports": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
            "items": {
                "type": "object",
                "properties": {
                    "containerPort": {"type": "integer"},
                    "protocol": {"type": "string", "default": "TCP"},
                    "name": {"type": "string"},
                },
            },
        },
        "config": {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": True,
            "properties": {"kind": {"type": "string"}},
        },
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}
# the same, deduplicated the way pydantic emits it
DEFS = {
    "$defs": {
        "EnvVar": ENV["items"],
        "EnvList": {k: v for k, v in ENV.items() if k != "items"} | {"items": {"$ref": "#/$defs/EnvVar"}},
        "Root": INLINE | {"properties": INLINE["properties"] | {"env": {"$ref": "#/$defs/EnvList"}}},
    },
    "$ref": "#/$defs/Root",
}
OPTIONAL_DEFS = {
    "$defs": DEFS["$defs"],
    "type": "object",
    "properties": {"wrapped": {"anyOf": [{"$ref": "#/$defs/Root"}, {"type": "null"}], "default": None}},
}


@pytest.fixture(params=["inline", "defs"])
def merger(request: pytest.FixtureRequest) -> StructuralMerger:
    return StructuralMerger(INLINE if request.param == "inline" else DEFS)


def e(name: str, value: str) -> dict:
    return {"name": name, "value": value}


def test_keyed_list_merge_order_matches_kubectl(merger: StructuralMerger) -> None:
    # kubectl patch --local --type strategic on a Deployment gave env C, A(z), B for this input
    base = {"env": [e("A", "a"), e("B", "b")]}
    patch = {"env": [e("C", "c"), e("A", "z")]}
    assert merger.merge(base, patch)["env"] == [e("C", "c"), e("A", "z"), e("B", "b")]
    # base A,B + patch B,C -> A,B,C (ecosystem-notes §4.3)
    assert merger.merge(base, {"env": [e("B", "x"), e("C", "c")]})["env"] == [
        e("A", "a"),
        e("B", "x"),
        e("C", "c"),
    ]


def test_items_merge_field_by_field_and_atomic_map(merger: StructuralMerger) -> None:
    base = {"env": [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}]}
    patch = {"env": [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "t"}}}]}
    assert merger.merge(base, patch)["env"] == [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "t"}}}]


def test_set_atomic_and_maps(merger: StructuralMerger) -> None:
    base = {"args": ["--a", "--b"], "tags": ["sidecar", "shared"], "labels": {"x": "1", "y": "2"}}
    patch = {"args": ["--c"], "tags": ["metrics", "shared"], "labels": {"y": "3", "z": "4"}}
    out = merger.merge(base, patch)
    assert out["args"] == ["--c"]
    assert sorted(out["tags"]) == ["metrics", "shared", "sidecar"] and len(out["tags"]) == 3
    assert out["labels"] == {"x": "1", "y": "3", "z": "4"}
    assert list(out["labels"]) == ["x", "y", "z"]  # base key order kept, new keys appended


def test_multi_key_list_uses_defaults(merger: StructuralMerger) -> None:
    base = {"ports": [{"containerPort": 53, "protocol": "UDP", "name": "dns"}, {"containerPort": 80}]}
    patch = {
        "ports": [
            {"containerPort": 80, "protocol": "TCP", "name": "http"},
            {"containerPort": 53, "name": "tcp-dns"},
        ]
    }
    out = merger.merge(base, patch)["ports"]
    assert {"containerPort": 53, "protocol": "UDP", "name": "dns"} in out
    assert {"containerPort": 80, "name": "http", "protocol": "TCP"} in out
    assert {"containerPort": 53, "name": "tcp-dns"} in out
    assert len(out) == 3


def test_preserve_unknown_is_deduced(merger: StructuralMerger) -> None:
    base = {"config": {"kind": "A", "extra": {"list": [1, 2], "keep": True}}}
    patch = {"config": {"extra": {"list": [3], "new": None}}}
    assert merger.merge(base, patch) == {"config": {"kind": "A", "extra": {"list": [3], "keep": True, "new": None}}}


def test_validation(merger: StructuralMerger) -> None:
    with pytest.raises(StructuralError, match=r"\.nope: field not declared in schema"):
        merger.validate({"nope": 1})
    with pytest.raises(StructuralError, match=r'\.env: duplicate entries for key \[name="A"\]'):
        merger.validate({"env": [e("A", "1"), e("A", "2")]})
    merger.validate({"config": {"anything": {"goes": [1]}}, "labels": {"a": "b"}})
    with pytest.raises(
        StructuralError, match=r"\.ports\[containerPort=\"x\",protocol=\"TCP\"\]\.containerPort: expected numeric"
    ):
        merger.validate({"ports": [{"containerPort": "x"}]})
    with pytest.raises(StructuralError, match=r"\.labels\.a: expected string, got bool"):
        merger.validate({"labels": {"a": True}})
    merger.validate({"ports": [{"containerPort": 80.0}]})  # JSON numbers: an integral float is an int


def test_inputs_untouched(merger: StructuralMerger) -> None:
    base = {"env": [e("A", "a")], "labels": {"x": "1"}}
    patch = {"env": [e("A", "b")], "labels": {"y": "2"}}
    before = copy.deepcopy((base, patch))
    out = merger.merge(base, patch)
    out["env"][0]["value"] = "changed"
    out["labels"]["x"] = "changed"
    assert (base, patch) == before


def test_optional_wrapping_resolves() -> None:
    walker = SchemaWalker(OPTIONAL_DEFS)
    wrapped = walker.property(OPTIONAL_DEFS, "wrapped")
    assert walker.list_keys(walker.property(wrapped, "env")) == ["name"]
    assert walker.list_type(walker.property(wrapped, "tags")) == "set"


def test_root_metadata_gets_object_meta() -> None:
    crd_like = {"type": "object", "properties": {"metadata": {"type": "object"}, "spec": {"type": "object"}}}
    merger = StructuralMerger(root_schema(crd_like))
    out = merger.merge(
        {"metadata": {"labels": {"a": "1"}, "finalizers": ["x"]}},
        {"metadata": {"labels": {"b": "2"}, "finalizers": ["y", "x"]}},
    )
    assert out["metadata"]["labels"] == {"a": "1", "b": "2"}
    assert sorted(out["metadata"]["finalizers"]) == ["x", "y"]


def test_package_schema_and_crd_agree_on_list_semantics() -> None:
    """The generated schema ($defs) and the upstream CRD give the same markers on key paths."""
    pytest.importorskip("dynamo_schema._schema._schemas")
    from dynamo_schema._schema import _schemas
    from tests.merge._support import CRDS, crd_schema_for

    if not CRDS.is_dir():
        pytest.skip("../shared CRDs not available")
    try:
        generated = _schemas.load("nvidia.com", "DynamoGraphDeployment", "v1beta1")
    except (OSError, KeyError, ValueError):
        pytest.skip("package schema not shipped")
    crd = crd_schema_for("nvidia.com/v1beta1", "DynamoGraphDeployment")
    paths = [
        ("spec", "components"),
        ("spec", "components", "[]", "podTemplate", "spec", "containers"),
        ("spec", "components", "[]", "podTemplate", "spec", "containers", "[]", "env"),
        ("spec", "components", "[]", "podTemplate", "spec", "containers", "[]", "ports"),
        ("spec", "components", "[]", "podTemplate", "spec", "containers", "[]", "volumeMounts"),
        ("spec", "components", "[]", "podTemplate", "spec", "volumes"),
        ("spec", "components", "[]", "experimental", "gpuMemoryService", "extraClientContainers"),
        ("spec", "env"),
        ("spec", "components", "[]", "podTemplate", "spec", "containers", "[]", "args"),
    ]
    for schema in (generated, crd):
        walker = SchemaWalker(schema)
        results = []
        for path in paths:
            node = schema
            for step in path:
                node = walker.items(node) if step == "[]" else walker.property(node, step)
            results.append((walker.list_type(node), walker.list_keys(node)))
        if schema is generated:
            first = results
    assert results == first
    assert results[0] == ("map", ["name"]) and results[3] == ("map", ["containerPort", "protocol"])
    assert results[4] == ("map", ["mountPath"]) and results[6] == ("set", []) and results[7] == ("atomic", [])


def test_keyed_list_keeps_base_only_item_between_reordered_shared_items(merger: StructuralMerger) -> None:
    """structured-merge-diff ``visitListItems``: a shared LHS item out of the RHS order is skipped one at a time,
    so a base-only item right after it is still taken (B, X, A + A, B -> X, A, B)."""
    base = {"env": [e("B", "b"), e("X", "x"), e("A", "a")]}
    patch = {"env": [e("A", "z"), e("B", "y")]}
    assert merger.merge(base, patch)["env"] == [e("X", "x"), e("A", "z"), e("B", "y")]


def test_several_validation_errors_listed_as_structured_merge_diff_does(merger: StructuralMerger) -> None:
    """smd ``ValidationErrors.Error()``: one error alone, else ``errors:`` then each on its own line indented by two."""
    with pytest.raises(StructuralError) as info:
        merger.validate({"nope": 1, "labels": {"a": True}})
    assert str(info.value) == "errors:\n  .nope: field not declared in schema\n  .labels.a: expected string, got bool"
