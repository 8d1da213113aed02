"""Under a release profile the root ObjectMeta is checked as the API server does: strict decoding's
unknown field refuses first (no metadata check), a schema error is reported together with it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import dynamo_schema
from dynamo_schema import AdmissionSettings

BASE: dict[str, Any] = {
    "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
    "metadata": {"name": "Bad_Name", "namespace": "ns"},
    "spec": {"backendFramework": "vllm", "components": [{"name": "frontend", "type": "frontend"}]},
}


def _diagnostics(obj: Any, **kw: Any) -> list[Any]:
    """Every diagnostic ``dynamo_schema.validate`` gives for ``obj`` (its results flattened)."""
    return [d for r in dynamo_schema.validate(obj, **kw) for d in r.diagnostics]


@pytest.mark.parametrize(("change", "want"), [
    (lambda d: None, [("metadata.invalid-name", ("metadata", "name"))]),
    (lambda d: d["spec"].update(nope=1), [("schema.unknown-field", ("spec", "nope"))]),
    (lambda d: d["spec"]["components"][0].update(replicas="x"),
     [("schema.type", ("spec", "components", 0, "replicas")), ("metadata.invalid-name", ("metadata", "name"))]),
])
def test_metadata_errors_after_the_schema(change: Any, want: list[tuple[str, tuple[Any, ...]]]) -> None:
    doc = copy.deepcopy(BASE)
    change(doc)
    got = [(d.rule, d.path) for d in _diagnostics(doc, settings=AdmissionSettings(operator_release="1.3"))
           if d.severity == "error" and d.rule != "cel.not-checked"]
    assert got == want
