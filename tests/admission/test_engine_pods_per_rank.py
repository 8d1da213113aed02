"""Engine pods per rank of a component (``_admission._component.total_engine_pods``, the Go helper
``GetTotalEnginePods``): the CRD's ``failover.numShadows`` doc says "Total engine pods per rank =
NumShadows + 1 (1 primary + NumShadows shadows)"; without inter-pod failover there is one engine pod.
The renderer has its own copy (``_render/_gmsinterpod``, pinned by tests/render/test_gms.py)."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._admission._component import total_engine_pods


@pytest.mark.parametrize(("failover", "want"), [
    (None, 1),
    ({"mode": "IntraPod", "numShadows": 3}, 1),
    ({"mode": "InterPod"}, 2),  # numShadows defaults to (at least) 1
    ({"mode": "InterPod", "numShadows": 1}, 2),
    ({"mode": "InterPod", "numShadows": 3}, 4),
])
def test_engine_pods_are_the_primary_plus_the_shadows(failover: dict[str, Any] | None, want: int) -> None:
    """CRD ``numShadows``: total engine pods per rank = NumShadows + 1 for inter-pod failover, else 1."""
    comp: dict[str, Any] = {"experimental": {"failover": failover}} if failover is not None else {}
    assert total_engine_pods(comp) == want
