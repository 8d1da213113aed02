"""``merge``'s check of the effective DGD (``_pipeline._merge_check``): the admission errors, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dynamo_schema._pipeline._merge_check import merged_errors, result_errors


@pytest.mark.shared
def test_the_merged_dgd_is_refused_with_the_api_servers_causes(shared: Path) -> None:
    """An operator-verified refusal (operator-cases 0035: ``backendFramework: tensorrt``): its causes are the
    merged DGD's errors, ``<nil>`` being the object's root."""
    # mutant 943d3b35d1bc
    case = yaml.safe_load((shared / "reference" / "dynamo" / "operator-cases" / "cases"
                           / "0035-dgd-k8s-backend-enum-denied.yaml").read_text())
    assert case["expected"]["allowed"] is False
    want = {(c["field"] if c["field"] != "<nil>" else "", c["message"]) for c in case["expected"]["causes"]}
    errors = merged_errors(case["input"])
    assert {(d.field, d.message) for d in errors} == want
    assert {d.severity for d in errors} == {"error"}
    assert len(result_errors(case["input"])) == len(want)


def test_a_warning_is_no_merge_error() -> None:
    """Only errors refuse a merge (docs/cli.md ``merge``: "when refused, each problem as error: merged DGD…"):
    the webhook's admission warning for a deprecated ``dynamoNamespace`` (upstream's v1alpha1 DGD validator:
    "spec.services[worker].dynamoNamespace is deprecated and ignored…", a warning) is none."""
    from dynamo_schema._pipeline._validate import ValidateOptions, check_nvidia

    dgd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
           "metadata": {"name": "m", "namespace": "ns"},
           "spec": {"backendFramework": "vllm", "services": {"Frontend": {
               "componentType": "frontend", "dynamoNamespace": "old",
               "extraPodSpec": {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}}}}}}
    diags, _ = check_nvidia(dgd, ValidateOptions())
    assert [(d.severity, d.rule) for d in diags] == [("warning", "dgd.v1alpha1-dynamo-namespace-deprecated")]
    assert merged_errors(dgd) == []
    assert result_errors(dgd) == []
