"""Elastic-EP replica admission (rule 22): absent at the reference revision, so any replica count of an
elastic-EP Ray worker is accepted (ai-dynamo/dynamo@2a6da14c ``deploy/operator/internal/features/gates.go``
has no ``ElasticEPRayPoC`` gate and the webhook no replica rule).
"""

from __future__ import annotations

from typing import Any

from tests.admission._admission_helpers import (
    beta_dgd,
    errors,
    run,
    worker,
)

# ----------------------------------------------------------------------------- rule 22


def test_elastic_ep_replicas_not_limited_at_reference_revision() -> None:
    """admission.md rule 22 (gate ``ElasticEPRayPoC``) exists only in newer upstream: the reference
    revision has no such gate (``internal/features/gates.go``) and no replica rule."""

    def m(d: dict[str, Any]) -> None:
        main = worker(d)["podTemplate"]["spec"]["containers"][0]
        main["command"] = ["python3", "-m", "dynamo.vllm"]
        main["args"] = ["--enable-elastic-ep", "--data-parallel-backend", "ray"]
        worker(d)["replicas"] = 3

    assert errors(run(beta_dgd(m))) == []
