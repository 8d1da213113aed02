"""Render each upstream golden input and compare with the upstream golden output (MATCHERS.md).

The goldens are read back from a live cluster (``clusterenv_test.go``), so the rendered objects go
through the API-server defaults simulation (``RenderOptions.apiserver_defaults``) and the live-state
step below: the DCD and Deployment controllers write a ``status``; the clusterenv test has no LWS
controller, so LeaderWorkerSets carry none (the golden says ``status: $notexists``).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from dynamo_schema._render import RenderOptions, render, worker_hash
from dynamo_schema._render._admit import admit

from .matcher import load_expected, match_manifests

CASES = [
    ("dgd/components", "kubernetes"),
    ("dgd/grove", "grove"),
    ("dcd/deployment", "kubernetes"),
    ("dcd/lws", "kubernetes"),
    ("dcd/vllm-multinode-tp-args", "kubernetes"),
]
NAMESPACE = "clusterenv-test"
# The goldens expect origin version 1\.4\..* (the operator version of that test run).
OPTIONS = RenderOptions(namespace=NAMESPACE, operator_version="1.4.0", apiserver_defaults=True)


def live_state(objs: list[dict]) -> list[dict]:
    out = []
    for obj in objs:
        obj = copy.deepcopy(obj)
        if obj["kind"] in ("DynamoComponentDeployment", "Deployment"):
            obj.setdefault("status", {})
        out.append(obj)
    return out


@pytest.mark.parametrize("case,target", CASES, ids=[c for c, _ in CASES])
def test_upstream_golden(shared: Path, case: str, target: str) -> None:
    folder = shared / "reference" / "dynamo" / "golden" / case
    obj = yaml.load((folder / "input.yaml").read_text(), Loader=yaml.CSafeLoader)
    expected = load_expected(folder / "output.yaml")
    rendered = live_state(render(obj, target, OPTIONS))
    variables = {}
    if obj["kind"] == "DynamoGraphDeployment":
        variables["worker-hash"] = worker_hash(admit(obj, OPTIONS, grove=(target == "grove")))
    failures = match_manifests(expected, rendered, variables)
    assert failures == []


@pytest.mark.parametrize("case,target", CASES, ids=[c for c, _ in CASES])
def test_upstream_golden_through_the_cli(shared: Path, case: str, target: str) -> None:
    """The same golden pairs through ``python -m dynamo_schema render --stored`` (default target: the
    inputs' own annotations pick it), compared with the upstream matcher semantics."""
    import subprocess
    import sys

    folder = shared / "reference" / "dynamo" / "golden" / case
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_schema", "render", "--stored", "--operator-version", "1.4.0",
         "--namespace", NAMESPACE, str(folder / "input.yaml")],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    rendered = live_state(list(yaml.load_all(proc.stdout, Loader=yaml.CSafeLoader)))
    obj = yaml.load((folder / "input.yaml").read_text(), Loader=yaml.CSafeLoader)
    variables = {}
    if obj["kind"] == "DynamoGraphDeployment":
        variables["worker-hash"] = worker_hash(admit(obj, OPTIONS, grove=(target == "grove")))
    failures = match_manifests(load_expected(folder / "output.yaml"), rendered, variables)
    assert failures == []


def test_stored_flag_changes_the_output(shared: Path) -> None:
    """Without ``--stored`` the objects are what the operator sends (no built-in defaults): the golden
    Deployment then does not match (it carries ``progressDeadlineSeconds`` and friends)."""
    import io

    from dynamo_schema._cli._main import main

    folder = shared / "reference" / "dynamo" / "golden" / "dcd" / "deployment"
    out, err = io.StringIO(), io.StringIO()
    assert main(["render", "--namespace", NAMESPACE, "--operator-version", "1.4.0", str(folder / "input.yaml")],
                stdout=out, stderr=err) == 0
    plain = list(yaml.load_all(out.getvalue(), Loader=yaml.CSafeLoader))
    deployment = next(d for d in plain if d["kind"] == "Deployment")
    assert "progressDeadlineSeconds" not in deployment["spec"]
    assert match_manifests(load_expected(folder / "output.yaml"), live_state(plain), {}) != []
