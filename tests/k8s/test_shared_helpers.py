"""The helpers admission and render share (one copy each, issue 9): the operator's command-line search and
its PodClique role names."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._admission._component import longest_podclique_name
from dynamo_schema._admission._component import role_names as admission_role_names
from dynamo_schema._k8s._container import has_arg
from dynamo_schema._k8s._roles import expand_role_names, longest_role_name
from dynamo_schema._render._names import longest_clique_name


@pytest.mark.parametrize(("args", "want"), [
    (["--data-parallel-backend", "ray"], True),
    (["--data-parallel-backend=ray"], True),
    (["python3 -m x --data-parallel-backend ray"], True),
    (["--data-parallel-backend"], False),
    (["--data-parallel-backend", "mp"], False),
    (["ray", "--data-parallel-backend"], False),
])
def test_has_arg(args: list[str], want: bool) -> None:
    assert has_arg(args, "--data-parallel-backend", "ray") is want


def test_role_names() -> None:
    assert expand_role_names("w", 1, False) == ["w"]
    assert expand_role_names("w", 1, True) == ["w-gms-0", "w"]
    assert expand_role_names("w", 3, False) == ["w-ldr", "w-wkr"]
    assert expand_role_names("w", 3, True) == ["w-gms-0", "w-ldr", "w-gms-1", "w-wkr-1", "w-gms-2", "w-wkr-2"]


@pytest.mark.parametrize("gms", [False, True])
@pytest.mark.parametrize("nodes", [1, 2, 9, 10, 11, 101])
def test_longest_role_name_is_the_first_longest(nodes: int, gms: bool) -> None:
    names = [n.lower() for n in ["Worker", *expand_role_names("Worker", nodes, gms)]]
    assert longest_role_name("Worker", nodes, gms) == max(names, key=len)


def _component(nodes: int, gms: bool) -> dict[str, Any]:
    comp: dict[str, Any] = {"name": "Decode", "type": "decode", "multinode": {"nodeCount": nodes}}
    if gms:
        comp["experimental"] = {"gpuMemoryService": {"enabled": True, "mode": "InterPod"}}
    return comp


@pytest.mark.parametrize("gms", [False, True])
@pytest.mark.parametrize("nodes", [1, 2, 12])
def test_admission_and_render_agree(nodes: int, gms: bool) -> None:
    comp = _component(nodes, gms)
    assert longest_podclique_name(comp) == longest_clique_name("Decode", comp)
    assert admission_role_names(comp) == expand_role_names("Decode", nodes, gms)
    assert len(longest_clique_name("Decode", comp)) > len("decode") or nodes == 1 and not gms
