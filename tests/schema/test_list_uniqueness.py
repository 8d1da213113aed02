"""The quick distinctness check of list-type set/map lists (``_values._distinct_fast``) only ever answers
"no duplicates" when the detailed check (Kubernetes' ``validateListSetsAndMaps``: Go map-key identity,
``1`` != ``"1"`` != ``true``, defaults filled in before the keys are compared) finds none: a generated
differential test over lists built to collide."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._schema import _values
from dynamo_schema._schema._fielderrors import Run
from dynamo_schema._schema._nodes import compile_schema

SCALARS = st.one_of(st.sampled_from(["a", "b", "1", "TCP"]), st.sampled_from([1, 2, 0]), st.booleans(),
                    st.none(), st.sampled_from([1.0, 2.5]))
ITEM = st.one_of(st.dictionaries(st.sampled_from(["name", "port", "protocol", "x"]), SCALARS, max_size=4),
                 SCALARS)

SCHEMAS = {
    "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
    "map1": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
             "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
    "map2": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
             "items": {"type": "object", "properties": {"port": {"type": "integer"},
                                                        "protocol": {"type": "string", "default": "TCP"}}}},
}


def _detailed(data: list[Any], schema: dict[str, Any]) -> list[Any]:
    node = compile_schema(schema)
    run = Run(True)
    saved = _values._distinct_fast
    _values._distinct_fast = lambda data, node: False  # type: ignore[assignment]
    try:
        _values.list_uniqueness(run, data, node, ())
    finally:
        _values._distinct_fast = saved
    return [d for d in run.diags if d.rule == "schema.duplicate"]


@settings(max_examples=600, deadline=None)
@given(kind=st.sampled_from(sorted(SCHEMAS)), data=st.lists(ITEM, max_size=5))
def test_the_quick_check_never_hides_a_duplicate(kind: str, data: list[Any]) -> None:
    schema = SCHEMAS[kind]
    if _values._distinct_fast(data, compile_schema(schema)):
        assert _detailed(data, schema) == []


def test_the_quick_check_decides_the_common_lists() -> None:
    """It must answer for the lists that are the bulk of a manifest (env names, container ports), else it is
    no help; a duplicate, a missing key with a default or a bool key leaves it to the detailed check."""
    node1, node2 = compile_schema(SCHEMAS["map1"]), compile_schema(SCHEMAS["map2"])
    assert _values._distinct_fast([{"name": "A"}, {"name": "B"}], node1)
    assert _values._distinct_fast([{"port": 80, "protocol": "TCP"}, {"port": 80, "protocol": "UDP"}], node2)
    assert not _values._distinct_fast([{"name": "A"}, {"name": "A"}], node1)
    assert not _values._distinct_fast([{"port": 80}, {"port": 80, "protocol": "TCP"}], node2)  # the default
    assert _detailed([{"port": 80}, {"port": 80, "protocol": "TCP"}], SCHEMAS["map2"])  # collides once defaulted
    assert not _values._distinct_fast([{"name": True}, {"name": "true"}], node1)
