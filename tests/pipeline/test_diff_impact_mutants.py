"""``_pipeline._diff_impact``: mutants the suite left alive (issue 24)."""

from __future__ import annotations

from typing import Any

from dynamo_schema._pipeline._diff import diff_documents
from dynamo_schema._pipeline._diff_impact import IMPACT_NONE, IMPACT_ROLLING, changed_paths, component_impacts
from tests.pipeline.test_diff import dgd, impacts

COMP = "nvidia.com/dynamo-component"
HASH = "nvidia.com/dynamo-worker-hash"


def test_a_named_list_with_other_names_is_one_changed_field() -> None:
    """``changed_paths``' contract (its docstring): lists of named maps are paired by ``name``; when the
    names are not the same set the list itself is what changed, whatever the names' order."""
    # mutant e896247a587d (sorted(onames) != sorted(nnames) -> >)
    assert changed_paths({"l": [{"name": "a"}]}, {"l": [{"name": "b"}]}) == [("l",)]
    assert changed_paths({"l": [{"name": "b"}]}, {"l": [{"name": "a"}]}) == [("l",)]


def test_an_unnamed_list_of_the_same_length_reports_the_changed_items() -> None:
    # mutant 58e79e712999 (a != b -> a is b)
    assert changed_paths({"args": ["a", "b", "c"]}, {"args": ["a", "x", "c"]}) == [("args", 1)]
    assert changed_paths([1, 2], [1, 3]) == [(1,)]


def test_a_dcd_spec_change_restarts_its_component() -> None:
    """The ``dcd`` target renders DynamoComponentDeployments: a frontend's image change updates its DCD's
    spec, which the operator's DCD controller turns into a new pod template of its Deployment (upstream
    dynamocomponentdeployment_controller: the Deployment is generated from the DCD spec): a rolling restart."""
    # mutant c2501ff8bb31 (kind == "LeaderWorkerSet" -> kind <= "LeaderWorkerSet")
    new = dgd()
    new["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["image"] = "example.com/frontend:2"
    got = impacts(diff_documents(dgd(), new, target="dcd"))
    assert got["Frontend"] == IMPACT_ROLLING
    assert got["VllmDecodeWorker"] == got["VllmPrefillWorker"] == IMPACT_NONE


def _shaped_like_pcs(kind: str, image: str) -> dict[str, Any]:
    return {"apiVersion": "example.com/v1", "kind": kind, "metadata": {"name": "w"},
            "spec": {"template": {"cliques": [{"name": "c", "labels": {COMP: "Worker"},
                                                "spec": {"podSpec": {"containers": [{"name": "m", "image": image}]}}}]}}}


def test_only_a_pod_clique_set_is_read_as_cliques() -> None:
    """Grove's PodCliqueSet (``spec.template.cliques``) is read for its cliques; an object of another kind
    with the same shape is no workload of a component (no component impact)."""
    # mutant 6f1f8ee9a2fb (kind == "PodCliqueSet" -> kind >= "PodCliqueSet")
    for kind in ("Widget", "PodCliqueSetX"):
        assert component_impacts([_shaped_like_pcs(kind, "a")], [_shaped_like_pcs(kind, "b")], "default") == []


def _deployment(name: str, worker_hash: str) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "labels": {COMP: "Worker", HASH: worker_hash}},
            "spec": {"replicas": 1, "template": {"metadata": {"labels": {COMP: "Worker"}},
                                                 "spec": {"containers": [{"name": "m", "image": "i"}]}}}}


def test_a_replaced_workload_with_the_same_worker_hash_names_no_hash_change() -> None:
    """The "worker hash A → B" reason is given only when the hash changes."""
    # mutant eef357bbdaae (ohash != nhash and (...) -> or)
    got = component_impacts([_deployment("w-old", "abc")], [_deployment("w-new", "abc")], "default")
    assert len(got) == 1 and got[0].reasons
    assert not any("worker hash" in r for r in got[0].reasons)
    changed = component_impacts([_deployment("w-old", "abc")], [_deployment("w-new", "def")], "default")
    assert changed[0].reasons[0] == "worker hash abc → def"


def test_a_components_dcd_is_not_read_beside_its_deployment() -> None:
    """The ``kubernetes`` target renders each component's DynamoComponentDeployment and the Deployment the
    operator's DCD controller makes from it (upstream dynamocomponentdeployment_controller); the pods are
    the Deployment's, so its change is the reason given, not the intermediate DCD's as well."""
    # mutant e87bac203e72 (the loop dropping DCDs beside other workloads -> no iteration)
    new = dgd()
    new["spec"]["components"][1]["replicas"] = 3
    got = {c.name: c.reasons for c in diff_documents(dgd(), new, target="kubernetes").components}
    assert [r.split(":")[0].split("/")[0] for r in got["VllmDecodeWorker"]] == ["Deployment"]
    assert got["VllmDecodeWorker"][0].endswith(": replicas 1 → 3")
