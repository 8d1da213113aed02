"""``PCSNameForDGD`` and the component facts it reads: one copy (_k8s/_grovenames) for admission and render."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._admission import _component
from dynamo_schema._k8s import _grovenames
from dynamo_schema._render import _names


def test_admission_and_render_use_the_one_copy() -> None:
    assert _component.pcs_name_for_dgd is _names.pcs_name is _grovenames.pcs_name_for_dgd
    assert _component.node_count is _names.node_count is _grovenames.node_count
    assert _component.uses_pcsg is _names.uses_pcsg is _grovenames.uses_pcsg


@pytest.mark.parametrize(("multinode", "want"), [
    (None, 1),
    ({}, 2),  # the schema default
    ({"nodeCount": None}, 2),
    ({"nodeCount": 3}, 3),
    # a JSON 2.0 reaches the webhook and the operator as 2: the API server decodes it as float64 and
    # re-encodes it with Go's json.Marshal, which prints float64(2) as 2 (Go 1.26: {"nodeCount":2.0}
    # unmarshalled into map[string]any and marshalled again is {"nodeCount":2})
    ({"nodeCount": 2.0}, 2),
    # unvalidated input (admission): not an integer is 0 nodes
    ({"nodeCount": True}, 0),
    ({"nodeCount": "2"}, 0),
    ({"nodeCount": 2.5}, 0),
])
def test_node_count(multinode: Any, want: int) -> None:
    comp: dict[str, Any] = {"name": "w"}
    if multinode is not None:
        comp["multinode"] = multinode
    assert _grovenames.node_count(comp) == want


def test_pcs_name_json_integral_float_is_the_integer() -> None:
    name = "a-deployment-name-that-is-long-enough"
    as_int = [{"name": "VeryLongDecodeWorker", "multinode": {"nodeCount": 2}}]
    as_float = [{"name": "VeryLongDecodeWorker", "multinode": {"nodeCount": 2.0}}]
    assert _grovenames.pcs_name_for_dgd(name, as_float) == _grovenames.pcs_name_for_dgd(name, as_int) != name


def test_pcs_name_truncated_to_the_budget() -> None:  # mutant 6cdd8f20746d
    """upstream graph.go PCSNameForDGD: a DGD name longer than the budget (45 minus the longest component
    budget) keeps its first budget-5 characters, then "-" and 4 hex digits of FNV-1a: budget characters in all."""
    name = "a" * 50
    got = _grovenames.pcs_name_for_dgd(name, [{"name": "w"}])  # single node: budget 45 - 1 = 44
    h = 0x811C9DC5  # FNV-1a 32 (hash/fnv New32a): offset basis, then xor and multiply by the prime per byte
    for b in name.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    want_hash = format(h & 0xFFFF, "04x")
    assert got == "a" * 39 + "-" + want_hash and len(got) == 44
    assert _grovenames.pcs_name_for_dgd("a" * 44, [{"name": "w"}]) == "a" * 44
