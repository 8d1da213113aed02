"""The operator's DCD controller render unit-test rows (reference revision 2a6da14c), run against our render
code: ``internal/controller/dynamocomponentdeployment_controller_test.go`` (Deployment strategy, ingress and
VirtualService here; services, LeaderWorkerSets, pod templates and annotations in ``upstream/controller.py``).

The rows are reference data in ``../shared/reference/dynamo/upstream-render-tests/`` (read by
``upstream/_support.py``; skipped without ../shared). An adapter calls our counterpart of the Go function
under test and makes the assertions the Go loop makes; ``upstream/state.py`` lists the rows expected to
fail (strict xfail), ``test_upstream_index.py`` keeps the index, the adapters and the data in step.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions

from ._upstream_rows import row_params
from .upstream import controller as _controller
from .upstream._support import (
    ADAPTERS,
    adapter,
    beta_dcd,
    controller_options,
)

pytestmark = pytest.mark.shared


# ---------------------------------------------------------------- DCD renderer (internal/controller)


@adapter("Test_generateDeployment_Strategy")
def _deployment_strategy(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import render

    spec: dict[str, Any] = {"backendFramework": "vllm", "serviceName": "test-service", "dynamoNamespace": "default",
                            "componentType": "decode", "replicas": 1,
                            "extraPodSpec": {"mainContainer": {"image": "test-image:latest"}}}
    if row["args"]["annotations"]:
        spec["annotations"] = row["args"]["annotations"]
    dcd = beta_dcd({"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                    "metadata": {"name": "test-deployment-strategy", "namespace": "default"}, "spec": spec})
    objs = render(dcd, "kubernetes", controller_options({}))
    deployments = [o for o in objs if o["kind"] == "Deployment"]
    assert len(deployments) == 1
    assert deployments[0]["spec"]["strategy"] == row["wantStrategy"]


# ---------------------------------------------------------------- hand-ported single tests


@adapter("TestDynamoComponentDeploymentReconciler_generateIngress",
         "TestDynamoComponentDeploymentReconciler_generateVirtualService")
def _dcd_ingress(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # generateIngress / generateVirtualService: (object, toDelete); toDelete means nothing is rendered
    from dynamo_schema._render._extras import dcd_ingress

    kind = "Ingress" if row["_test"].endswith("generateIngress") else "VirtualService"
    dcd = dict(row["args"]["opt"]["dynamoComponentDeployment"], apiVersion="nvidia.com/v1beta1",
               kind="DynamoComponentDeployment")
    got = [o for o in dcd_ingress(dcd, dcd["metadata"]["namespace"], RenderOptions()) if o["kind"] == kind]
    if row["want1"]:
        assert got == []
        return
    assert len(got) == 1
    assert got[0]["metadata"] == {k: row["want"]["metadata"][k] for k in ("name", "namespace")}
    assert got[0]["spec"] == row["want"]["spec"]


# ---------------------------------------------------------------- tests


PARAMS = row_params(__name__, _controller.__name__)


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)
