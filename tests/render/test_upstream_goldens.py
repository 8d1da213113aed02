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
from dynamo_schema._render._graph import admit

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
