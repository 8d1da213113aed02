"""Feature combinations still give DGDs the project's models and checks accept."""

from __future__ import annotations

import pytest

from dynamo_schema._dgdr import materialize
from dynamo_schema.models import DynamoGraphDeployment
from tests.dgdr._support import dgdr

JOB = {"template": {"spec": {"containers": [], "tolerations": [{"key": "a", "operator": "Exists"}]}}}

CASES = [
    (dgdr(features={"planner": {}}), None),
    (
        dgdr(backend="trtllm", features={"planner": {"mode": "agg"}, "kvRouter": {"enabled": True}}),
        {"mode": "agg"},
    ),
    (dgdr(features={"mocker": {"enabled": True}, "planner": {}}), None),
    (dgdr(hardware={"gpuSku": "h100_sxm", "numGpusPerNode": 2}), {"mode": "disagg", "decode": {"tp": 4}}),
    (
        dgdr(
            backend="sglang",
            runtimeVersionOverride="1.3.0",
            overrides={"trustRemoteCode": True, "profilingJob": JOB},
        ),
        {"mode": "disagg"},
    ),
    (dgdr(backend="trtllm"), {"mode": "disagg", "prefill": {"tp": 2}}),
    (dgdr(modelCache={"pvcName": "c", "pvcModelPath": "m"}), None),
]


@pytest.mark.parametrize("spec,topology", CASES)
def test_feature_combination_validates(spec: dict, topology: dict | None) -> None:
    dgd = materialize(spec, topology).dgd
    DynamoGraphDeployment.model_validate(dgd)
    try:
        from dynamo_schema._pipeline import _validate
    except ImportError:  # pragma: no cover
        return
    diags, _ = _validate.check_nvidia(dgd, _validate.ValidateOptions())
    assert [(d.rule, d.field, d.message) for d in diags if d.severity == "error"] == []
