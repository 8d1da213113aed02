"""SGLang worker ports: a single-node SGLang worker keeps the default worker ports whatever its GPU count and
NIXL telemetry env.

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from typing import Any

import pytest

from ._grove_fixtures import _dgd, _grove

# ---------------------------------------------------------------- NIXL telemetry settings
# Reference revision backend_sglang.go UpdateContainer: a single-node SGLang worker is left as it is
# (no per-rank NIXL exporter ports; the GPU count is not read), whatever the NIXL telemetry env says.

def _sglang_worker(gpus: int, env: list[dict[str, Any]] | None, backend: str = "sglang") -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": "img", "command": ["python3", "-m", f"dynamo.{backend}"],
                            "resources": {"limits": {"nvidia.com/gpu": str(gpus)}}}
    if env is not None:
        main["env"] = env
    dgd = _dgd([{"name": "worker", "type": "worker", "podTemplate": {"spec": {"containers": [main]}}}])
    dgd["spec"]["backendFramework"] = backend
    return dgd


def _worker_ports(dgd: dict[str, Any]) -> list[tuple[str, int]]:
    clique = _grove(dgd)["spec"]["template"]["cliques"][0]
    main = next(c for c in clique["spec"]["podSpec"]["containers"] if c["name"] == "main")
    return [(p["name"], p["containerPort"]) for p in main["ports"]]


BASE_PORTS = [("system", 9090), ("nixl", 19090)]


@pytest.mark.parametrize(("gpus", "env"), [
    (4, [{"name": "NIXL_TELEMETRY_ENABLE", "value": "y"}]),
    (16, [{"name": "NIXL_TELEMETRY_ENABLE", "value": "y"}]),
    (4, [{"name": "NIXL_TELEMETRY_ENABLE", "value": "y"}, {"name": "NIXL_TELEMETRY_PROMETHEUS_PORT", "value": "abc"}]),
    (4, None),
])
def test_sglang_worker_ports_are_the_worker_defaults(gpus: int, env: Any) -> None:
    assert _worker_ports(_sglang_worker(gpus, env)) == BASE_PORTS
