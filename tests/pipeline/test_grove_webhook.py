"""validate runs Grove's validating webhook on a PodCliqueSet (after its CRD schema passes), and only there."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

import dynamo_schema

pytestmark = pytest.mark.shared

SAMPLE = Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "grove" / "samples" / "simple1.yaml"


def _diagnostics(obj: Any, **kw: Any) -> list[Any]:
    """Every diagnostic ``dynamo_schema.validate`` gives for ``obj`` (its results flattened)."""
    return [d for r in dynamo_schema.validate(obj, **kw) for d in r.diagnostics]


def _sample() -> dict[str, Any]:
    docs = [d for d in yaml.safe_load_all(SAMPLE.read_text(encoding="utf-8")) if d]
    return docs[0]


def test_upstream_sample_is_admitted() -> None:
    assert _diagnostics(_sample()) == []


def test_webhook_rules_reach_a_podcliqueset() -> None:
    pcs = copy.deepcopy(_sample())
    pcs["spec"]["template"]["cliques"][0]["spec"]["minAvailable"] = 4  # replicas 3 (Grove validateClique)
    got = [(d.rule, d.path, d.message) for d in _diagnostics(pcs)]
    c0 = ("spec", "template", "cliques", 0, "spec")
    assert got == [
        ("grove.clique-min-available", (*c0, "minAvailable"),
         "Invalid value: 4: minAvailable must not be greater than replicas"),
        ("grove.autoscaling", (*c0, "autoScalingConfig", "minReplicas"),
         "Invalid value: 3: must be greater than or equal to podCliqueSpec.minAvailable"),
    ]


def test_a_leaderworkerset_is_not_judged_by_grove() -> None:
    """LeaderWorkerSet shares the workload path (its schema) but not Grove's webhook."""
    lws = {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
           "metadata": {"name": "w", "namespace": "ns"},
           "spec": {"replicas": 1, "leaderWorkerTemplate": {
               "size": 2, "workerTemplate": {"spec": {"containers": [{"name": "m", "image": "x:1"}]}}}}}
    assert _diagnostics(lws) == []


def test_grove_waits_for_the_schema() -> None:
    """The API server runs the webhook only on an object its schema accepted: a schema error alone."""
    pcs = copy.deepcopy(_sample())
    pcs["spec"]["template"]["cliques"][0]["spec"]["minAvailable"] = 4
    pcs["spec"]["replicas"] = "one"
    got = [(d.rule, d.path) for d in _diagnostics(pcs) if d.severity == "error"]
    assert got == [("schema.type", ("spec", "replicas")), ("cel.not-checked", ())]  # no grove.* errors
