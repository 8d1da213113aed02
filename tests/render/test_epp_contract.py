"""The EPP launch contract: whatever the runtime image, the EPP runs as the Go EPP reading its mounted config
file (pool name argument, no HOME override, the epp-config ConfigMap and mount).

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render import RenderOptions, render

from ._grove_fixtures import _dgd

# ---------------------------------------------------------------- EPP launch contract
# Reference revision component_epp.go (one contract: the Go EPP reading its mounted config file).

def _epp_dgd(image: str, epp_config: Any = None) -> dict[str, Any]:
    epp: dict[str, Any] = {"name": "epp", "type": "epp",
                           "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}}}
    if epp_config is not None:
        epp["eppConfig"] = epp_config
    worker = {"name": "worker", "type": "worker",
              "podTemplate": {"spec": {"containers": [{"name": "main", "image": "vllm-runtime:1.5.0"}]}}}
    return _dgd([epp, worker])


def _epp_container(objs: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    dep = next(o for o in objs if o["kind"] == "Deployment" and o["metadata"]["name"].endswith("-epp"))
    pod = dep["spec"]["template"]["spec"]
    return next(c for c in pod["containers"] if c["name"] == "main"), pod


@pytest.mark.parametrize("image", ["nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.4.0", "nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.5.0"])
def test_epp_contract_for_every_runtime(image: str) -> None:
    cfg = {"config": {"plugins": [{"type": "dyn-kv"}]}}
    objs = render(_epp_dgd(image, cfg), "kubernetes", RenderOptions(namespace="ns1"))
    main, pod = _epp_container(objs)
    assert main["args"][:2] == ["--pool-name", "test-deploy-pool"]
    assert "HOME" not in {e["name"] for e in main["env"]}
    assert {"name": "epp-config", "mountPath": "/etc/epp", "readOnly": True} in main["volumeMounts"]
    assert any(o["kind"] == "ConfigMap" and o["metadata"]["name"] == "test-deploy-epp-config" for o in objs)
