"""``_pipeline._releases``: mutants the suite left alive (issue 24)."""

from __future__ import annotations

from typing import Any

import dynamo_schema
from dynamo_schema import AdmissionSettings


def _dgd(*names: str) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "m", "namespace": "ns"},
            "spec": {"backendFramework": "vllm", "components": [
                {"name": n, "type": "worker", "podTemplate": {"spec": {"containers": [
                    {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.0"}]}}} for n in names]}}


def test_a_v1alpha1_webhook_error_on_the_whole_services_map_of_a_v1beta1_update() -> None:
    """Release 1.2 serves v1beta1 but validates the v1alpha1 object: removing a component is its
    ``ValidateUpdate`` refusal on the whole ``spec.services`` map (upstream dynamographdeployment_test.go at
    788d3ccd, "adding and removing services simultaneously is prohibited": ``service topology is immutable
    and cannot be modified after creation: … services removed: [cache]``). That path names no service, so
    there is no component to map it to; the refusal is reported, not a crash."""
    # mutant ea671dd74cc0 (len(path) >= 3 -> >= 2: path[2] of a two-element path)
    got = [(r.status, d.rule, d.message) for r in dynamo_schema.validate(
        _dgd("main"), old=_dgd("main", "cache"), settings=AdmissionSettings(operator_release="1.2"))
        for d in r.diagnostics]
    assert got == [("invalid", "dgd.components-immutable",
                    "service topology is immutable and cannot be modified after creation: services removed: [cache]")]
