"""DynamoGraphDeploymentRequest rules (``dynamo_schema/_admission/rules/_dgdr.py``): hardware, search
strategy, runtimeVersionOverride on create and the phase-frozen spec on update, one accepted and one
rejected case per rule id. More DGDR update cases are in test_dgdr_update_rules.py.

Cases are modelled on the upstream tables in
``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages are copied from those
tables where they exist, else built from the Go format strings.
"""

from __future__ import annotations

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dgdr,
    run_update,
)
from tests.admission._rules_support import (
    Case,
    _both,
    _create,
    _set,
    register,
)

# (rule id, accepted case, rejected case, exact expected error list for the rejected case)
CASES: list[Case] = [
    # ---------------------------------------------------------------- DGDR
    (
        "dgdr.hardware-required",
        _create(
            beta_dgdr,
            _set(["spec", "hardware"], {"gpuSku": "h100_sxm"}),
            AdmissionSettings(gpu_discovery_enabled=False),
        ),
        _create(beta_dgdr, None, AdmissionSettings(gpu_discovery_enabled=False)),
        [
            "spec.hardware: Required value: GPU hardware configuration is required when GPU discovery is disabled"
        ],
    ),
    (
        "dgdr.search-strategy-backend",
        _create(
            beta_dgdr, _both(_set(["spec", "searchStrategy"], "thorough"), _set(["spec", "backend"], "vllm"))
        ),
        _create(beta_dgdr, _set(["spec", "searchStrategy"], "thorough")),
        [
            'spec.searchStrategy: Invalid value: "thorough": is incompatible with spec.backend "auto"; set spec.backend to a specific backend (sglang, trtllm, or vllm)'
        ],
    ),
    (
        "dgdr.runtime-version-override-required",
        _create(beta_dgdr, _set(["spec", "image"], "registry.example/planner:1.4.0")),
        _create(beta_dgdr, _set(["spec", "image"], "registry.example/planner:latest")),
        [
            "spec.runtimeVersionOverride: Required value: is required when spec.image has no parseable semantic-version tag"
        ],
    ),
    (
        "dgdr.phase-immutable",
        lambda: run_update(beta_dgdr(), lambda d: None, old_status={"phase": "Profiling"}),
        lambda: run_update(beta_dgdr(), _set(["spec", "model"], "other"), old_status={"phase": "Profiling"}),
        [
            'spec: Forbidden: updates are forbidden while the resource is in phase "Profiling"; delete and recreate the resource to change its spec'
        ],
    ),
]

register(CASES, globals())


def test_any_one_manual_hardware_field_is_enough() -> None:  # mutant ad8b554a1a43
    """dynamographdeploymentrequest_helpers.go (2a6da14c) hasManualHardwareConfig: ``hardware.GPUSKU != "" ||
    hardware.VRAMMB != nil || hardware.NumGPUsPerNode != nil``: each field alone satisfies the hardware rule."""
    off = AdmissionSettings(gpu_discovery_enabled=False)
    for hw in ({"gpuSku": "h100_sxm"}, {"vramMb": 81920}, {"numGpusPerNode": 8}):
        assert _create(beta_dgdr, _set(["spec", "hardware"], hw), off)() == [], hw
    assert _create(beta_dgdr, _set(["spec", "hardware"], {}), off)() != []
