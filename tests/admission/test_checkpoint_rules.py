"""Checkpoint admission rules (rule 45): GMS client containers of a checkpoint job need intra-pod GMS, and
the component type is not checked at the reference revision.

Expected messages and paths come from the upstream tests at the reference revision
(ai-dynamo/dynamo@2a6da14c, ``deploy/operator/internal/webhook/validation/*_test.go``, among them
``dynamocomponentdeployment_validation_envtest_test.go``); where a table has no case, they are built from
the Go format strings named in each test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dcd,
    beta_dgd,
    errors,
    frontend,
    run,
    with_gpu,
    worker,
)

Mutator = Callable[[dict[str, Any]], Any]
CHECKPOINT_ON = AdmissionSettings(checkpoint_enabled=True)


# ----------------------------------------------------------------------------- rule 45


def _checkpoint_gms(mode: str, enabled: bool = True) -> Mutator:
    def m(spec: dict[str, Any]) -> None:
        with_gpu(spec)
        spec["experimental"] = {
            "gpuMemoryService": {"mode": mode},
            "checkpoint": {"enabled": enabled, "job": {"gmsClientContainers": ["gms-saver"]}},
        }

    return m


def test_checkpoint_gms_clients_accept_intra_pod_gms() -> None:
    assert errors(run(beta_dcd(lambda d: _checkpoint_gms("IntraPod")(d["spec"])), CHECKPOINT_ON)) == []


def test_checkpoint_gms_clients_reject_inter_pod_gms() -> None:
    # dynamocomponentdeployment_validation_envtest_test.go "checkpoint GMS clients reject inter-pod GMS".
    diags = run(beta_dcd(lambda d: _checkpoint_gms("InterPod")(d["spec"])), CHECKPOINT_ON)
    assert errors(diags) == [
        "spec.experimental.checkpoint.job.gmsClientContainers: Forbidden: is only supported with "
        "gpuMemoryService.mode=IntraPod",
        "spec.experimental.checkpoint: Forbidden: Snapshot with gpuMemoryService.mode=InterPod is unsupported",
    ]
    assert [d.rule for d in diags] == ["dcd.checkpoint-gms-client-containers", "dcd.checkpoint-compatibility"]


def test_checkpoint_gms_clients_reject_inter_pod_gms_without_enabled_checkpoint() -> None:
    # validateComponentCheckpointJobConfig does not look at enabled; the compatibility check does.
    diags = run(beta_dcd(lambda d: _checkpoint_gms("InterPod", enabled=False)(d["spec"])), CHECKPOINT_ON)
    assert errors(diags) == [
        "spec.experimental.checkpoint.job.gmsClientContainers: Forbidden: is only supported with "
        "gpuMemoryService.mode=IntraPod"
    ]


def test_checkpoint_gms_clients_reject_inter_pod_gms_in_dgd() -> None:
    diags = run(beta_dgd(lambda d: _checkpoint_gms("InterPod")(worker(d))), CHECKPOINT_ON)
    assert errors(diags) == [
        "spec.components[1].experimental.checkpoint.job.gmsClientContainers: Forbidden: is only supported with "
        "gpuMemoryService.mode=IntraPod",
        "spec.components[1].experimental.checkpoint: Forbidden: Snapshot with gpuMemoryService.mode=InterPod "
        "is unsupported",
    ]


def test_checkpoint_component_type_not_checked_at_reference_revision() -> None:
    """admission.md rule 45 bullets 2-3 exist only in newer upstream: at 2a6da14c
    ``validateComponentCheckpointConfig`` checks the gate and the job, not the component type."""
    base = beta_dgd(lambda d: frontend(d).setdefault("experimental", {}).__setitem__("checkpoint", {"enabled": True}))
    assert errors(run(base, CHECKPOINT_ON)) == []
    dcd = beta_dcd(lambda d: d["spec"].pop("type"))
    dcd["spec"]["experimental"] = {"checkpoint": {"enabled": True}}
    assert errors(run(dcd, CHECKPOINT_ON)) == []
