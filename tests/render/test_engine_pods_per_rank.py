"""Engine pods per rank of a component (``_render._gmsinterpod.total_engine_pods``, the renderer's one
copy of the Go helper). Expected values: ai-dynamo/dynamo@2a6da14c
``deploy/operator/api/v1beta1/dynamocomponentdeployment_types.go`` ``GetTotalEnginePods`` (``GetNumShadows() +
1``) and ``GetNumShadows`` (0 without inter-pod failover, i.e. ``failover.mode`` other than ``InterPod``; else
``numShadows``, at least 1). The admission webhook has no use for it (``GetTotalEnginePods`` is called only
from ``internal/dynamo/graph.go``), so admission keeps no copy."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render._gmsinterpod import total_engine_pods


@pytest.mark.parametrize(("failover", "want"), [
    (None, 1),
    ({"mode": "IntraPod", "numShadows": 3}, 1),
    ({"numShadows": 3}, 1),  # no mode: not InterPod
    ({"mode": "InterPod"}, 2),  # numShadows below 1 reads as 1
    ({"mode": "InterPod", "numShadows": 0}, 2),
    ({"mode": "InterPod", "numShadows": 1}, 2),
    ({"mode": "InterPod", "numShadows": 3}, 4),
])
def test_engine_pods_are_the_primary_plus_the_shadows(failover: dict[str, Any] | None, want: int) -> None:
    comp: dict[str, Any] = {"experimental": {"failover": failover}} if failover is not None else {}
    assert total_engine_pods(comp) == want
