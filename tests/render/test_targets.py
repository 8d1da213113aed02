"""The render-target registry: every entry satisfies the ``RenderTarget`` Protocol, names are unique, and
the targets the command line accepts are the registry's (issue 9)."""

from __future__ import annotations

import inspect
import pkgutil
import subprocess
import sys
from importlib import import_module

import pytest

from dynamo_schema._render import RenderError, RenderOptions, render, target_registry
from dynamo_schema._render import targets as targets_pkg
from dynamo_schema._render.targets import _MODULES, TARGETS, RenderTarget, names_for
from dynamo_schema._render.targets._common import DCD, DGD

DGD_OBJ = {
    "apiVersion": "nvidia.com/v1beta1",
    "kind": DGD,
    "metadata": {"name": "g"},
    "spec": {"backendFramework": "vllm", "components": [
        {"name": "frontend", "type": "frontend", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f:1.4.0"}]}}},
        {"name": "decode", "type": "decode", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "w:1.4.0"}]}}},
    ]},
}
DCD_OBJ = {"apiVersion": "nvidia.com/v1beta1", "kind": DCD, "metadata": {"name": "x"},
           "spec": {"type": "frontend", "backendFramework": "vllm",
                    "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f:1.4.0"}]}}}}
SAMPLES = {DGD: DGD_OBJ, DCD: DCD_OBJ}


def test_every_target_module_is_registered_once() -> None:
    found = sorted(m.name for m in pkgutil.iter_modules(targets_pkg.__path__) if not m.name.startswith("_"))
    assert found == sorted(_MODULES) and len(set(_MODULES)) == len(_MODULES)
    assert [t.name for t in TARGETS.values()] == list(TARGETS) == list(_MODULES)
    for module in _MODULES:
        assert import_module(f"{targets_pkg.__name__}.{module}").TARGET is TARGETS[module]


@pytest.mark.parametrize("name", list(TARGETS))
def test_target_satisfies_the_protocol(name: str) -> None:
    target = TARGETS[name]
    assert isinstance(target, RenderTarget)
    assert target.name == name and target.description
    assert isinstance(target.kinds, frozenset) and target.kinds and target.kinds <= {DGD, DCD}
    assert list(inspect.signature(target.render).parameters) == ["obj", "options"]
    for kind in (DGD, DCD):
        obj = SAMPLES[kind]
        if kind in target.kinds:
            out = target.render(obj, RenderOptions(namespace="ns"))
            assert out and all(isinstance(o, dict) and o.get("kind") and o.get("apiVersion") for o in out)
            assert out == render(obj, name, RenderOptions(namespace="ns"))
        else:
            with pytest.raises(RenderError) as info:
                target.render(obj, RenderOptions())
            assert [d.rule for d in info.value.diagnostics] == ["render.kind"]


def test_public_registry_is_the_registry() -> None:
    assert target_registry() == TARGETS and target_registry() is not TARGETS


def test_command_line_targets_are_the_registry() -> None:
    """``render``/``diff --target`` accept (and document) exactly the registered targets per kind."""
    import io

    from dynamo_schema._cli.commands.diff import run_diff
    from dynamo_schema._pipeline import _render_object

    listed_dgd = ", ".join(names_for(DGD))  # render and diff read the registry: their refusals list it
    assert listed_dgd == "kubernetes, grove, dcd"
    with pytest.raises(RenderError) as refused:
        _render_object.render_object(DGD_OBJ, target="nope")
    assert str(refused.value) == f"unknown target 'nope' for a DynamoGraphDeployment (one of {listed_dgd})"
    err = io.StringIO()
    assert run_diff("old.yaml", "new.yaml", "nope", "default", io.StringIO(), err) == 2
    assert err.getvalue() == f"error: unknown target 'nope' (one of {listed_dgd})\n"
    assert names_for(DCD) == ("kubernetes",)  # _render_object: a DCD renders only for kubernetes
    for command in ("render", "diff"):
        proc = subprocess.run([sys.executable, "-m", "dynamo_schema", command, "--help"], capture_output=True,
                              text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        help_text = " ".join(proc.stdout.split())
        listed = help_text.split("render target: ", 1)[1].split(" (default", 1)[0]
        assert listed.replace(" or ", ", ").split(", ") == list(TARGETS), (command, listed)


def test_child_dcd_refusals_move_to_their_dgd_component(monkeypatch: pytest.MonkeyPatch) -> None:
    """The DCD controller's field paths are relative to the child DCD's ``spec``: they are reported at
    ``spec.components[i]`` of the DGD; a refusal without a ``spec`` path (the object, its metadata) stays put."""
    from dynamo_schema._core._diagnostics import Diagnostic
    from dynamo_schema._render.targets import _common

    diags = [Diagnostic("render.error", ("spec", "podTemplate"), "a"), Diagnostic("render.error", (), "b"),
             Diagnostic("render.error", ("metadata", "name"), "c"), Diagnostic("render.error", ("apiVersion",), "d")]

    def refuse(*_a: object, **_k: object) -> list[dict]:
        raise RenderError("refused", diags)

    monkeypatch.setattr(_common, "render_dcd_workloads", refuse)
    with pytest.raises(RenderError) as info:
        _common.child_workloads({"spec": {}}, 3, RenderOptions(), "ns")
    assert [d.path for d in info.value.diagnostics] == [
        ("spec", "components", 3, "podTemplate"), (), ("metadata", "name"), ("apiVersion",)]
