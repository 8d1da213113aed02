"""Every kind of the operator's CRD bundle is modelled and checked (issue 14, item 3): DynamoModel,
DynamoGraphDeploymentScalingAdapter, DynamoCheckpoint, DynamoWorkerMetadata; DynamoModel's webhook
rules with upstream's messages (internal/webhook/validation/dynamomodel.go); nvidia.com kinds that are
not Dynamo's are skipped like other unknown kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dynamo_schema._io._load import load_text
from dynamo_schema._pipeline._validate import ValidateOptions, validate_document

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus").resolve()
LORA = CORPUS / "v1beta1" / "examples__backends__vllm__deploy__lora__agg_lora_hf.yaml"


def _check(text: str, old: dict | None = None) -> list:
    return [validate_document(d, ValidateOptions(old=old)) for d in load_text(text, "m.yaml")]


def _model(spec: str, api: str = "nvidia.com/v1alpha1") -> str:
    return f"apiVersion: {api}\nkind: DynamoModel\nmetadata:\n  name: m\nspec:\n{spec}"


@pytest.mark.shared
def test_the_lora_example_validates_with_its_dynamo_model() -> None:
    text = LORA.read_text().replace(":my-tag", ":1.5.0")  # the example's image placeholder, filled in
    results = _check(text)
    assert [(r.kind, r.status) for r in results] == [("DynamoGraphDeployment", "valid"), ("DynamoModel", "valid")]


def test_lora_source_rules() -> None:
    base = "  modelName: a\n  baseModelName: b\n  modelType: lora\n"
    [r] = _check(_model(base))
    assert [(d.rule, d.field, d.message) for d in r.diagnostics] == [
        ("dynamomodel.source-required", "spec.source", 'Required value: is required when spec.modelType is "lora"')]
    [r] = _check(_model(base + "  source:\n    uri: http://example.com/x\n"))
    assert [(d.field, d.message, d.line) for d in r.diagnostics] == [
        ("spec.source.uri", 'Invalid value: "<redacted>": must start with "s3://", "hf://", or "file:///"', 10)]
    [r] = _check(_model(base + "  source:\n    uri: s3://bucket/x\n"))
    assert r.status == "valid"


def test_required_fields_and_unknown_fields_come_from_the_crd_schema() -> None:
    # strict field validation refuses an unknown field while decoding, before the schema runs (D50)
    [r] = _check(_model("  modelName: a\n  modelTyp: lora\n"))
    rules = sorted(d.rule for d in r.diagnostics if d.severity == "error")
    assert rules == ["schema.unknown-field"]
    assert any('did you mean "modelType"' in d.message for d in r.diagnostics)
    [r] = _check(_model("  modelName: a\n"))
    assert sorted(d.rule for d in r.diagnostics if d.severity == "error") == ["schema.required"]


def test_dynamo_model_update_rules() -> None:
    old = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoModel", "metadata": {"name": "m"},
           "spec": {"modelName": "a", "baseModelName": "b"}}
    [r] = _check(_model("  modelName: a\n  baseModelName: c\n"), old=old)
    assert [(d.severity, d.message) for d in r.diagnostics] == [
        ("warning", "Changing spec.baseModelName will break endpoint discovery"),
        ("error", 'Invalid value: "c": is immutable and cannot be changed after creation')]


@pytest.mark.parametrize("doc, status", [
    ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymentScalingAdapter\nmetadata: {name: a}\n"
     "spec: {replicas: 2, dgdRef: {name: g, componentName: c}}\n", "valid"),
    ("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeploymentScalingAdapter\nmetadata: {name: a}\n"
     "spec: {replicas: -1, dgdRef: {name: g, componentName: c}}\n", "invalid"),
    ("apiVersion: nvidia.com/v1alpha1\nkind: DynamoWorkerMetadata\nmetadata: {name: a}\nspec: {data: {x: 1}}\n",
     "valid"),
    ("apiVersion: nvidia.com/v1alpha1\nkind: DynamoWorkerMetadata\nmetadata: {name: a}\nspec: {}\n", "invalid"),
    ("apiVersion: nvidia.com/v1alpha1\nkind: DynamoCheckpoint\nmetadata: {name: a}\nspec: {}\n", "invalid"),
    ("apiVersion: nvidia.com/v1beta1\nkind: DynamoModel\nmetadata: {name: a}\n", "invalid"),  # not served
    ("apiVersion: nvidia.com/v1\nkind: GPUCluster\nmetadata: {name: a}\n", "skipped"),  # not Dynamo's
    ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymnet\nmetadata: {name: a}\n", "invalid"),  # typo
])
def test_every_bundle_kind_is_checked(doc: str, status: str) -> None:
    [r] = _check(doc)
    assert r.status == status, [(d.rule, d.message) for d in r.diagnostics]


def test_the_generated_schemas_follow_the_crds() -> None:
    """Spot checks against the upstream CRD bundle: required fields and bounds carried over."""
    data = ROOT / "schemas" / "nvidia.com"
    dm = json.loads((data / "dynamomodel_v1alpha1.json").read_text())
    spec = dm["$defs"]["DynamoModelSpec"]
    assert sorted(spec["required"]) == ["baseModelName", "modelName"]
    sa = json.loads((data / "dynamographdeploymentscalingadapter_v1beta1.json").read_text())
    assert sa["$defs"]["DynamoGraphDeploymentScalingAdapterSpec"]["properties"]["replicas"]["minimum"] == 0
