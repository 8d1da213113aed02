"""The operator's graph render unit-test rows (reference revision 2a6da14c), run against our render code:
``internal/dynamo/graph_test.go`` on roles, backend detection, names, annotation/label/env propagation, the
component context and the generated DCDs; the adapters are here and in ``upstream/graph.py`` (DCD
generation, pod specs, kvTransferPolicy).

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
from dynamo_schema._render._podrequest import PodRequest

from ._upstream_rows import row_params
from .upstream import graph as _graph
from .upstream._support import (
    ADAPTERS,
    adapter,
    beta_component,
    beta_dcd,
    beta_dgd,
)

pytestmark = pytest.mark.shared


# ---------------------------------------------------------------- graph_test.go


@adapter("TestExpandRolesForService")
def _expand_roles(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._gmsinterpod import expand_roles

    comp = beta_component(row["component"])
    comp.pop("type", None)
    if row["serviceReplicas"] is not None:
        comp["replicas"] = row["serviceReplicas"]
    if row["numberOfNodes"] > 1:
        comp["multinode"] = {"nodeCount": row["numberOfNodes"]}
    got = [{"Name": n, "Rank": rank, "Replicas": r, "Role": role}
           for n, role, r, rank in expand_roles(row["serviceName"], comp)]
    assert got == row["expected"]


@adapter("TestDetectBackendFrameworkFromArgs")
def _detect_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._backend_detect import detect_backend

    if row["expectError"]:
        with pytest.raises(RenderError):
            detect_backend(row["command"] or [], row["args"] or [])
        return
    assert detect_backend(row["command"] or [], row["args"] or []) == row["expected"]


@adapter("TestDetermineBackendFramework")
def _determine_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._backend_detect import determine_backend

    call = (row["componentType"], row["command"] or [], row["args"] or [], row["explicitBackendFramework"] or None)
    if row["expectError"]:
        with pytest.raises(RenderError) as exc:
            determine_backend(*call)
        assert row["errorContains"] in str(exc.value)
        return
    assert determine_backend(*call) == row["expected"]


@adapter("TestGetBackendFrameworkFromComponent")
def _component_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._backend_detect import component_backend

    comp = beta_component(row["component"])
    explicit = ((row["deployment"] or {}).get("spec") or {}).get("backendFramework") or None
    if row["expectError"]:
        with pytest.raises(RenderError) as exc:
            component_backend(comp, explicit)
        assert row["errorContains"] in str(exc.value)
        return
    assert component_backend(comp, explicit) == row["expected"]


@adapter("TestPCSNameForDGD")
def _pcs_name(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import longest_clique_name, pcs_name, uses_pcsg

    row["components"] = row["components"] or []
    got = pcs_name(row["dgdName"], row["components"])
    if row["want"]:
        assert got == row["want"]
    if row["wantLen"] > 0:
        assert len(got) == row["wantLen"]
    assert pcs_name(row["dgdName"], row["components"]) == got
    budget = 0
    for comp in row["components"]:
        lower = str(comp.get("name", "")).lower()
        budget = max(budget, len(lower) + len(longest_clique_name(comp["name"], comp)) if uses_pcsg(comp) else len(lower))
    assert not (len(got) + budget > 45 and len(got) > 8)


@adapter("TestPropagateDGDAnnotations")
def _propagate_annotations(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import propagate_dgd_annotations
    from dynamo_schema._render._podrequest import pod_template_annotations

    comp = beta_component({"annotations": row["serviceAnnotations"]} if row["serviceAnnotations"] else {})
    propagate_dgd_annotations({"metadata": {"annotations": row["dgdAnnotations"] or {}}}, comp)
    ann = pod_template_annotations(comp)
    if row["expectedAnnotation"] is None:
        assert not ann
    else:
        for k, v in row["expectedAnnotation"].items():
            assert ann.get(k) == v, k


@adapter("Test_mergeEnvs")
def _merge_envs(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._envmerge import merge_envs

    got = sorted(merge_envs(row["args"]["common"], row["args"]["specific"]), key=lambda e: e["name"])
    assert got == row["want"]


# ---------------------------------------------------------------- component context, DGD spec metadata, standard env (graph_test.go)


@adapter("TestGenerateComponentContext")
def _component_context(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import build_context

    comp = beta_component(row["component"])
    req = PodRequest(component=comp, component_type=str(comp.get("type") or ""), backend="noop",
                     dgd_name=row["parentGraphDeploymentName"], namespace=row["namespace"], role="main",
                     nodes=row["numberOfNodes"], deployer="grove", service_name="x",
                     options=RenderOptions(discovery_backend=row["discoveryBackend"]))
    ctx = build_context(req)
    assert ctx.dynamo_namespace == row["expectedDynamoNamespace"]
    assert ctx.component_type == row["expectedComponentType"]
    assert ctx.dgd_name == row["expectedParentDGDName"]
    assert ctx.namespace == row["expectedParentDGDNamespace"]
    assert req.nodes == row["numberOfNodes"]
    assert ctx.discovery_backend == row["discoveryBackend"]


@adapter("TestPropagateDGDSpecMetadata")
def _propagate_spec_metadata(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # propagateDGDSpecMetadata is the low-priority spec.annotations/labels step of applyDGDTemplateDefaults
    from dynamo_schema._render._graph import apply_dgd_template_defaults
    from dynamo_schema._render._podrequest import pod_template_annotations, pod_template_labels

    alpha: dict[str, Any] = {}
    if row["serviceAnnotations"]:
        alpha["annotations"] = row["serviceAnnotations"]
    if row["serviceLabels"]:
        alpha["labels"] = row["serviceLabels"]
    comp = beta_component(alpha)
    spec: dict[str, Any] = {}
    if row["dgdAnnotations"]:
        spec["annotations"] = row["dgdAnnotations"]
    if row["dgdLabels"]:
        spec["labels"] = row["dgdLabels"]
    apply_dgd_template_defaults(comp, {"metadata": {}, "spec": spec})
    ann, labels = pod_template_annotations(comp), pod_template_labels(comp)
    assert (ann or None) == row["expectedAnnotations"]
    assert (labels or None) == row["expectedLabels"]


@adapter("TestAddStandardEnvVars_NATS")
def _standard_env_nats(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import standard_env

    values = {e["name"]: e["value"] for e in standard_env(RenderOptions(nats_address=row["natsAddress"]))}
    if row["wantNATS"]:
        assert values.get("NATS_SERVER") == row["natsAddress"]
    else:
        assert "NATS_SERVER" not in values


# ---------------------------------------------------------------- hand-ported single tests


@adapter("TestIsWorkerComponent")
def _is_worker(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import is_worker_type

    assert all(is_worker_type(t) for t in row["workers"])
    assert not any(is_worker_type(t) for t in row["nonWorkers"])


@adapter("TestGetDCDResourceName")
def _dcd_name(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import dcd_name

    for component, suffix, want in row["checks"]:
        assert dcd_name(row["dgd"], component, row["services"][component], suffix) == want


def _normalize_dcd(dcd: dict[str, Any]) -> dict[str, Any]:
    """``normalizeGeneratedDCD`` (conversion annotations and the three identity pod-template labels
    dropped, empty maps as absent) plus what cmp.Diff sees as equal here: no TypeMeta, no status."""
    out = copy.deepcopy(dcd)
    out.pop("apiVersion", None)
    out.pop("kind", None)
    out.pop("status", None)
    meta = out.setdefault("metadata", {})
    ann = {k: v for k, v in (meta.get("annotations") or {}).items() if k not in ("nvidia.com/dcd-spec", "nvidia.com/dcd-status")}
    meta.pop("annotations", None)
    if ann:
        meta["annotations"] = ann
    pt = (out.get("spec") or {}).get("podTemplate")
    if isinstance(pt, dict):
        pmeta = pt.get("metadata") or {}
        labels = {k: v for k, v in (pmeta.get("labels") or {}).items() if k not in (
            "nvidia.com/dynamo-component", "nvidia.com/dynamo-namespace", "nvidia.com/dynamo-graph-deployment-name")}
        for key, val in (("labels", labels), ("annotations", pmeta.get("annotations") or {})):
            pmeta.pop(key, None)
            if val:
                pmeta[key] = val
        if pmeta:
            pt["metadata"] = pmeta
        else:
            pt.pop("metadata", None)
    return out


@adapter("TestGenerateDynamoComponentsDeployments")
def _generate_dcds(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import generate_dcds

    parent = row["args"]["parentDynamoGraphDeployment"]
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": parent["metadata"], "spec": parent["spec"]}})
    if row["wantErr"]:
        from dynamo_schema._render import RenderError

        with pytest.raises(RenderError):
            generate_dcds(dgd, "", str(parent["metadata"].get("namespace") or "default"))
        return
    got = generate_dcds(dgd, "", str(parent["metadata"].get("namespace") or "default"))
    got_by_service = {d["spec"]["name"]: _normalize_dcd(d) for d in got}
    want = {}
    for service, alpha in (row["want"] or {}).items():
        alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                 "metadata": alpha["metadata"], "spec": alpha["spec"]}
        want[service] = _normalize_dcd(beta_dcd(alpha))
    assert got_by_service == want


@adapter("TestGenerateDynamoComponentsDeployments_UsesDynDeploymentWorkers")
def _dcds_dyn_workers(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import generate_dcds

    comp: dict[str, Any] = {"name": "service1", "type": "frontend"}
    if row["componentReplicas"] is not None:
        comp["replicas"] = row["componentReplicas"]
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
           "metadata": {"name": "test-dgd", "namespace": "default"},
           "spec": {"env": [{"name": "DYN_DEPLOYMENT_CONFIG", "value": '{"service1":{"ServiceArgs":{"workers":2}}}'}],
                    "components": [comp]}}
    dcds = {d["spec"]["name"]: d for d in generate_dcds(dgd, "", "default")}
    assert dcds["service1"]["spec"]["replicas"] == row["wantReplicas"]


@adapter("TestExpandRolesForComponent_SingleNodeForceScalingGroup")
def _expand_roles_forced(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._gmsinterpod import expand_roles

    got = [{"Name": n, "Rank": rank, "Replicas": r, "Role": role}
           for n, role, r, rank in expand_roles(row["service"], row["component"])]
    assert got == row["want"]


@adapter("Test_GetDynamoComponentDeploymentsGlobalNamespace")
def _dcds_global_namespace(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import generate_dcds

    dcds = generate_dcds(beta_dgd({"alpha": row["dgd"]}), "", "default")
    assert len(dcds) == row["count"]
    for d in dcds:
        assert d["metadata"]["labels"]["nvidia.com/dynamo-namespace"] == row["want"][d["spec"]["type"]]


def _dcds_by_component(dgd: dict[str, Any], worker_hash: str) -> dict[str, dict[str, Any]]:
    from dynamo_schema._render._graph import generate_dcds

    return {d["spec"]["name"]: d for d in generate_dcds(dgd, worker_hash, str(dgd["metadata"].get("namespace")))}


@adapter("TestGenerateDynamoComponentsDeployments_InferBackendFrameworkForGeneratedDCDs")
def _dcds_infer_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dcds = _dcds_by_component(beta_dgd({"alpha": row["alpha"]}), row["workerHash"])
    for component, backend in row["backendFramework"].items():
        assert dcds[component]["spec"].get("backendFramework") == backend, component


@adapter("TestGenerateSingleDCD_NoRollingUpdate")
def _dcd_no_rolling_update(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dcd = _dcds_by_component(beta_dgd({"alpha": row["alpha"]}), row["workerHash"])[row["component"]]
    assert dcd["metadata"]["name"] == row["name"]
    assert not (dcd["metadata"].get("labels") or {}).get("nvidia.com/dynamo-worker-hash")
    assert dcd["spec"]["replicas"] == row["replicas"]


@adapter("TestGenerateDynamoComponentsDeploymentsDoesNotMutateParentDGD")
def _dcds_do_not_mutate(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._podrequest import pod_template_labels

    dgd = copy.deepcopy(row["beta"])
    dcd = _dcds_by_component(dgd, row["workerHash"])[row["component"]]
    assert dgd == row["beta"]
    assert pod_template_labels(dcd["spec"]).get("nvidia.com/dynamo-worker-hash") == row["workerHash"]


# ---------------------------------------------------------------- tests


PARAMS = row_params(__name__, _graph.__name__)


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)
