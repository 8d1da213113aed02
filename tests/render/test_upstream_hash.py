"""The operator's worker-spec hash unit-test rows (reference revision 2a6da14c), run against our render code:
``internal/dynamo/hash_test.go`` (``ComputeBetaDGDWorkersSpecHash`` → ``worker_hash``).

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
from .upstream._support import (
    ADAPTERS,
    adapter,
    beta_dgd,
)

pytestmark = pytest.mark.shared


# ---------------------------------------------------------------- hash_test.go


def dgd_hash(dgd: dict[str, Any]) -> str:
    from dynamo_schema._render import worker_hash

    return worker_hash(dgd, RenderOptions())


HASH_TESTS = [f"TestComputeBetaDGDWorkersSpecHash_{n}" for n in (
    "Deterministic", "IgnoresNonWorkers", "IgnoresGeneratedDCDObjectIdentity", "NoWorkers",
    "ChangesOnPodAffectingFields", "TracksPropagatedDGDObjectAnnotations", "IgnoresOverriddenDGDObjectAnnotations",
    "TracksGeneratedDCDSpecAndMetadata", "IgnoresNonRolloutFields", "EnvOrderMatters", "AllWorkerTypes")]


@adapter(*HASH_TESTS)
def _hash_relation(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    if "dgd" in row:
        assert len(dgd_hash(beta_dgd(row["dgd"]))) == row["len"]
        return
    left, right = dgd_hash(beta_dgd(row["left"])), dgd_hash(beta_dgd(row["right"]))
    assert (left == right) is row["equal"]
    if "len" in row:
        assert len(left) == row["len"]


def _runtime_version_dgd(image: str, override: str) -> dict[str, Any]:
    """``betaDGDWithRuntimeVersion``."""
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": {"name": "test", "namespace": "default"},
                              "spec": {"services": {"worker": {"componentType": "worker"}}}}})
    comp = dgd["spec"]["components"][0]
    if override:
        comp["runtimeVersionOverride"] = override
    comp["podTemplate"] = {"spec": {"containers": [{"name": "main", "image": image}]}}
    return dgd


@adapter("TestComputeBetaDGDWorkersSpecHash_UsesResolvedRuntimeVersion")
def _hash_runtime_version(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    left = dgd_hash(_runtime_version_dgd(row["leftImage"], row["leftOverride"]))
    right = dgd_hash(_runtime_version_dgd(row["rightImage"], row["rightOverride"]))
    assert (left == right) is row["wantEqual"]


@adapter("TestComputeBetaDGDWorkersSpecHash_TracksPreservedAlphaResourceMetadata")
def _hash_alpha_metadata(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # the row's mutate func: services.worker.<row name> = {"foo": "bar"}; rawBetaDGD (no metadata copy)
    def dgd(extra: dict[str, Any]) -> dict[str, Any]:
        return beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                                   "metadata": {"name": "test", "namespace": "default"},
                                   "spec": {"services": {"worker": {"componentType": "worker", **extra}}}}},
                        raw=True)

    assert dgd_hash(dgd({})) != dgd_hash(dgd({row["name"]: {"foo": "bar"}}))


# ---------------------------------------------------------------- tests


PARAMS = row_params(__name__)


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)
