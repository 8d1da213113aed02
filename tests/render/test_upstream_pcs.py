"""The operator's Grove PodCliqueSet render unit-test rows (reference revision 2a6da14c), run against our render
code: ``internal/dynamo/graph_test.go`` GenerateGrovePodCliqueSet (minAvailable, update strategy, volcano
queue, topology constraints, startup dependencies, the whole PodCliqueSet) and ``grove_test.go`` scheduler
injection; more adapters in ``upstream/pcs.py``.

The rows are reference data in ``../shared/reference/dynamo/upstream-render-tests/`` (read by
``upstream/_support.py``; skipped without ../shared). An adapter calls our counterpart of the Go function
under test and makes the assertions the Go loop makes; ``upstream/state.py`` lists the rows expected to
fail (strict xfail), ``test_upstream_index.py`` keeps the index, the adapters and the data in step.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions

from ._upstream_rows import row_params
from .upstream import pcs as _pcs
from .upstream._support import (
    ADAPTERS,
    adapter,
    alpha_dgd,
    beta_dgd,
    full_controller_options,
    pcs,
)

pytestmark = pytest.mark.shared


# ---------------------------------------------------------------- GenerateGrovePodCliqueSet


@adapter("TestGenerateGrovePodCliqueSet_ComponentMinAvailable")
def _pcs_min_available(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    got = pcs(beta_dgd(alpha_dgd("test-dgd", "test-ns", {"worker": row["service"]}, backendFramework="vllm")))
    tmpl = got["spec"]["template"]
    if row["wantClique"]:
        assert len(tmpl["cliques"]) == 1
        assert tmpl["cliques"][0]["spec"]["minAvailable"] == row["wantMinAvailable"]
    if row["wantScalingGroup"]:
        groups = tmpl.get("podCliqueScalingGroups") or []
        assert len(groups) == 1 and groups[0]["minAvailable"] == row["wantMinAvailable"]


@adapter("TestGenerateGrovePodCliqueSet_UpdateStrategy")
def _pcs_update_strategy(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    ann = {"nvidia.com/grove-update-strategy": row["annotation"]} if row["hasAnnotation"] else None
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": {"componentType": "worker", "replicas": 1}}, ann))
    if row["wantErr"]:
        with pytest.raises(RenderError) as exc:
            pcs(dgd)
        assert row["wantErr"] in str(exc.value)
        return
    got = pcs(dgd)["spec"]
    if row["wantStrategy"] is None:
        assert "updateStrategy" not in got
    else:
        assert got["updateStrategy"]["type"] == row["wantStrategy"]


@adapter("TestGenerateGrovePodCliqueSet_MetadataVolcanoQueuePropagation")
def _pcs_volcano_queue(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    gate = (row["runtimeConfig"] or {}).get("Gate") or {}
    options = RenderOptions(discovery_backend="", volcano_scheduler_enabled=bool(gate.get("volcanoScheduler")),
                            kai_scheduler_enabled=bool(gate.get("kaiScheduler")))
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": {"componentType": "worker", "replicas": 1}},
                             row["metadataAnnotations"], annotations=row["specAnnotations"]))
    ann = pcs(dgd, options)["metadata"].get("annotations") or {}
    if row["expectQueue"]:
        assert ann.get("scheduling.grove.io/volcano-queue") == row["expectedQueue"]
    else:
        assert "scheduling.grove.io/volcano-queue" not in ann


def _go_topology(tc: Any) -> Any:
    return tc


@adapter("TestGenerateGrovePodCliqueSet_TopologyConstraints")
def _pcs_topology(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dep = row["deployment"]
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": dep["metadata"], "spec": dep["spec"]}})
    tmpl = pcs(dgd)["spec"]["template"]
    assert tmpl.get("topologyConstraint") == row["wantPCSTemplateTC"]
    cliques = {c["name"]: c for c in tmpl["cliques"]}
    assert set(cliques) == set(row["wantCliqueTC"])
    for name, want in row["wantCliqueTC"].items():
        assert cliques[name].get("topologyConstraint") == want, name
    groups = tmpl.get("podCliqueScalingGroups") or []
    assert len(groups) == row["wantPCSGCount"]
    if row["wantPCSGTC"] is not None:
        by_name = {g["name"]: g for g in groups}
        assert set(by_name) == set(row["wantPCSGTC"])
        for name, want in row["wantPCSGTC"].items():
            assert by_name[name].get("topologyConstraint") == want, name


def _multinode_pcs(service: str, nodes: int, backend: str) -> dict[str, Any]:
    alpha = {"componentType": "worker", "replicas": 1, "resources": {"requests": {"gpu": "1"}}}
    if nodes > 1:
        alpha["multinode"] = {"nodeCount": nodes}
    return pcs(beta_dgd(alpha_dgd("test-deployment", "default", {service: alpha}, backendFramework=backend)))


def _check_startup(tmpl: dict[str, Any], explicit: bool, deps: dict[str, Any]) -> None:
    assert (tmpl.get("cliqueStartupType") == "CliqueStartupTypeExplicit") is explicit
    cliques = {c["name"]: c for c in tmpl["cliques"]}
    for name, want in deps.items():
        assert name in cliques, name
        assert (cliques[name]["spec"].get("startsAfter") or None) == want, name


@adapter("TestGenerateGrovePodCliqueSet_StartsAfterDependencies")
def _pcs_starts_after(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    tmpl = _multinode_pcs("main", 2, row["backendFramework"])["spec"]["template"]
    if not row["expectStartupType"]:
        assert tmpl.get("cliqueStartupType", "CliqueStartupTypeAnyOrder") == "CliqueStartupTypeAnyOrder"
    _check_startup(tmpl, row["expectStartupType"], row["expectedDeps"])


@adapter("TestApplyCliqueStartupDependencies")
def _apply_startup(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # applyCliqueStartupDependencies on the cliques of tt.roles: observed on the PodCliqueSet rendered
    # for a component with those roles (service "service", numberOfNodes nodes)
    got = _multinode_pcs("service", row["numberOfNodes"], row["backendFramework"])["spec"]["template"]
    roles = [(c["name"], c["spec"]["replicas"]) for c in got["cliques"]]
    assert roles == [(r["Name"].lower(), r["Replicas"]) for r in row["roles"]]
    _check_startup(got, row["expectStartupType"], row["expectedDeps"])
    assert set(c["name"] for c in got["cliques"]) == set(row["expectedDeps"])


def _gate_options(runtime: dict[str, Any] | None) -> tuple[bool, RenderOptions]:
    gate = (runtime or {}).get("Gate") or {}
    return bool(gate.get("grove")), RenderOptions(discovery_backend="", kai_scheduler_enabled=bool(gate.get("kaiScheduler")),
                                                  volcano_scheduler_enabled=bool(gate.get("volcanoScheduler")))


def _scheduled_pods(initial_scheduler: str, runtime: dict[str, Any] | None, annotations: dict[str, str] | None = None,
                    labels: dict[str, str] | None = None) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(labels, pod spec) of every worker pod rendered with the runtime gates: on the Grove path the
    PodCliqueSet cliques; with Grove off the Deployments (no clique exists to inject into)."""
    from dynamo_schema._render import render

    grove, options = _gate_options(runtime)
    comp: dict[str, Any] = {"componentType": "worker", "replicas": 1}
    if initial_scheduler:
        comp["extraPodSpec"] = {"schedulerName": initial_scheduler}
    if labels:
        comp["labels"] = dict(labels)
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": comp}, annotations))
    if grove:
        return [(c.get("labels") or {}, c["spec"]["podSpec"]) for c in pcs(dgd, options)["spec"]["template"]["cliques"]]
    objs = render(dgd, "kubernetes", options)
    return [((o["spec"]["template"]["metadata"].get("labels") or {}), o["spec"]["template"]["spec"])
            for o in objs if o["kind"] == "Deployment"]


@adapter("TestInjectKaiSchedulerIfEnabled")
def _kai_inject(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # validatedQueueName: the queue the DGD's nvidia.com/kai-scheduler-queue annotation names (its
    # existence check against the cluster, ensureQueueExists, is out of scope)
    initial = row["initialClique"]["spec"]["podSpec"].get("schedulerName", "")
    existing = row["initialClique"].get("labels") or {}
    pods = _scheduled_pods(initial, row["runtimeConfig"], {"nvidia.com/kai-scheduler-queue": row["validatedQueueName"]},
                           existing)
    assert pods
    for labels, pod in pods:
        if row["shouldInject"]:
            assert pod.get("schedulerName") == row["expectedScheduler"]
            assert labels.get("kai.scheduler/queue") == row["expectedQueueLabel"]
            for k, v in existing.items():
                assert labels.get(k) == v, k
        else:
            assert pod.get("schedulerName", "") == initial
            assert not labels.get("kai.scheduler/queue")


@adapter("TestInjectVolcanoSchedulerIfEnabled")
def _volcano_inject(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pods = _scheduled_pods(row["initialScheduler"], row["runtimeConfig"])
    assert pods
    for _, pod in pods:
        assert pod.get("schedulerName", "") == row["expectedScheduler"]


# ---------------------------------------------------------------- hand-ported single tests


def _sorted_pcs(obj: dict[str, Any]) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    obj.pop("status", None)
    tmpl = obj["spec"]["template"]
    tmpl["cliques"] = sorted(tmpl.get("cliques") or [], key=lambda c: c["name"])
    for clique in tmpl["cliques"]:
        for c in clique["spec"]["podSpec"].get("containers") or []:
            if c.get("env"):
                c["env"] = sorted(c["env"], key=lambda e: e["name"])
    return obj


@adapter("TestGenerateGrovePodCliqueSet")
def _pcs_full(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render.targets._common import finish as _finish

    dep = row["args"]["dynamoDeployment"]
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": dep["metadata"], "spec": dep["spec"]}})
    options = full_controller_options(row["args"]["controllerConfig"])
    if row["wantErr"]:
        with pytest.raises(RenderError):
            pcs(dgd, options)
        return
    got = _finish([pcs(dgd, options)])[0]
    got.pop("apiVersion", None)
    got.pop("kind", None)
    assert _sorted_pcs(got) == _sorted_pcs(row["want"])


# ---------------------------------------------------------------- tests


PARAMS = row_params(__name__, _pcs.__name__)


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)
