"""Standalone DynamoComponentDeployment rules (``dynamo_schema/_admission/rules/_dcd.py``): a DCD
may omit runtimeVersionOverride and skips the InferencePool check. The shared component-spec rules on
a DCD are in test_shared_rules.py, its update rules in test_update_rules.py.

Cases are modelled on the upstream tables in
``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages are copied from those
tables where they exist, else built from the Go format strings.
"""

from __future__ import annotations

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dcd,
    errors,
    run,
)
from tests.admission._rules_support import _epp


def test_dcd_runtime_version_override_may_be_omitted() -> None:
    obj = beta_dcd(
        lambda d: d["spec"]["podTemplate"]["spec"]["containers"][0].__setitem__("image", "x/runtime:latest")
    )
    assert errors(run(obj)) == []


def test_epp_checks_on_dcd_skip_inference_pool() -> None:
    obj = beta_dcd(lambda d: _epp(d["spec"]))
    assert errors(run(obj, AdmissionSettings(inference_pool_available=False))) == []
