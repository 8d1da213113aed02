"""DGD-managed checkpoints (the checkpoint gate on), against the operator-verified cases and upstream facts.

operator-cases ``CHECKPOINT-NOT-RENDERED``: on Grove the operator creates a DynamoCheckpoint per pass (the
first without the worker hash, the next with it), marks the worker clique as a restore candidate of the
second; the facts of ``graph_test.go`` (``TestGenerateGrovePodCliqueSet_WaitForCheckpointGatesPodCliqueScalingGroup``,
``..._GMSPodsAreNotCheckpointTargets``, ``..._IntraPodFailoverCheckpointTargets``) for a checkpoint that is
not Ready yet.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dynamo_schema._render import RenderError, RenderOptions, render
from dynamo_schema._render._checkpoint import CheckpointInfo, dgd_checkpoint_id
from dynamo_schema._render._checkpointjob import PLACEHOLDER_UID
from dynamo_schema._render._podcliqueset import render_pcs
from tests.oracles import _operator_cases as oc

pytestmark = pytest.mark.shared


def case(prefix: str) -> dict[str, Any]:
    [path] = [p for p in oc.case_files() if p.name.startswith(prefix)]
    return oc.load_case(path)


@pytest.mark.parametrize("prefix", ["0298", "0811"])
def test_checkpoint_objects_and_restore_candidate(prefix: str) -> None:
    outcome = oc.run(case(prefix))
    assert outcome.agree.get("objects") is True, outcome.detail.get("objects")


def test_checkpoint_parts_of_a_case_that_differs_elsewhere() -> None:
    """1041 differs in its typed EPP config only: its checkpoints and worker clique agree."""
    from dynamo_schema._pipeline._render_object import render_object

    data = case("1041")
    ours = oc.normalise(render_object(copy.deepcopy(data["input"]), settings=oc.admission_settings(data["settings"])))

    def view(objs: list[dict[str, Any]]) -> list[Any]:
        out: list[Any] = [o for o in objs if o["kind"] == "DynamoCheckpoint"]
        for o in objs:
            if o["kind"] == "PodCliqueSet":
                cliques = o["spec"]["template"]["cliques"]
                out += [(c["name"], c.get("annotations"), c["spec"]["replicas"]) for c in cliques]
        return out

    assert view(ours) == view(data["expected"]["objects"])


def test_checkpoint_id() -> None:
    """``DGDCheckpointID`` of 0298's decode worker, without and with the worker hash (both objects exist)."""
    args = ("default", "vllm-disagg-tracing-xpu", PLACEHOLDER_UID, "VllmDecodeWorker")
    assert dgd_checkpoint_id(*args, "") == "f35feb9bfe1e17097e03005271edf885"
    assert dgd_checkpoint_id(*args, "1cf6f2d2") == "084aec431762f6717afa0330a5f5f6bd"


def test_checkpoint_names_follow_the_dgd_uid() -> None:
    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    dgd["metadata"]["uid"] = "11111111-2222-3333-4444-555555555555"
    objs = render(dgd, "grove", RenderOptions(checkpoint_enabled=True))
    names = sorted(o["metadata"]["name"] for o in objs if o["kind"] == "DynamoCheckpoint")
    want = sorted("checkpoint-" + dgd_checkpoint_id("default", "vllm-disagg-tracing-xpu", dgd["metadata"]["uid"],
                                                    "VllmDecodeWorker", wh) for wh in ("", "1cf6f2d2"))
    assert names == want


def _alpha_dgd(service: dict[str, Any]) -> dict[str, Any]:
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "test-dgd", "namespace": "test-ns"},
             "spec": {"backendFramework": "vllm", "services": {"decode": service}}}
    return to_v1beta1(alpha)


def test_wait_for_checkpoint_gates_the_scaling_group() -> None:
    """Not Ready and ``WaitForCheckpoint``: the scaling group and its cliques at zero replicas, minAvailable kept."""
    from dynamo_schema._render._admit import admit

    dgd = admit(_alpha_dgd({"componentType": "decode", "replicas": 3, "resources": {"limits": {"gpu": "1"}},
                            "multinode": {"nodeCount": 2}}), RenderOptions(), grove=True)
    info = CheckpointInfo("decode-checkpoint", "id", "WaitForCheckpoint")
    pcs = render_pcs(dgd, "", RenderOptions(checkpoint_enabled=True), "test-ns", {"decode": info})
    [group] = pcs["spec"]["template"]["podCliqueScalingGroups"]
    assert (group["replicas"], group["minAvailable"]) == (0, 1)
    cliques = pcs["spec"]["template"]["cliques"]
    assert [(c["spec"]["replicas"], c["spec"]["minAvailable"]) for c in cliques] == [(0, 1), (0, 1)]


def test_gms_cliques_are_not_checkpoint_targets() -> None:
    from dynamo_schema._render._admit import admit

    dgd = admit(_alpha_dgd({"componentType": "decode", "replicas": 1, "resources": {"limits": {"gpu": "1"}},
                            "gpuMemoryService": {"enabled": True, "mode": "interPod"}}), RenderOptions(), grove=True)
    info = CheckpointInfo("decode-checkpoint", "id")
    pcs = render_pcs(dgd, "", RenderOptions(checkpoint_enabled=True, dra_enabled=True), "test-ns", {"decode": info})
    cliques = {c["name"]: c for c in pcs["spec"]["template"]["cliques"]}
    assert sorted(cliques) == ["decode", "decode-gms-0"]
    assert "nvidia.com/snapshot-target-containers" not in (cliques["decode-gms-0"].get("annotations") or {})
    engine = cliques["decode"]["annotations"]
    assert engine["nvidia.com/snapshot-target-containers"] == "main"
    assert engine["nvidia.com/dynamo-checkpoint-restore-candidate"] == "true"
    assert "nvidia.com/snapshot-checkpoint-id" not in cliques["decode"]["labels"]


def test_intra_pod_failover_restores_both_engines() -> None:
    """A failover component's checkpoint targets both engines (``IntraPodFailoverEngineContainerNames``)."""
    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    worker = dgd["spec"]["components"][1]
    worker["experimental"]["failover"] = {"mode": "IntraPod"}
    worker["experimental"]["gpuMemoryService"] = {}
    worker["podTemplate"]["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "1"}}
    worker["podTemplate"]["spec"].pop("resourceClaims")
    from dynamo_schema._render._checkpointjob import check_compatibility

    with pytest.raises(RenderError, match="Snapshot with active/passive failover is temporarily unsupported"):
        check_compatibility(dgd)  # the DGD controller refuses it before anything else
    info = CheckpointInfo("c", "id", targets=("engine-0", "engine-1"))
    annotations: dict[str, str] = {}
    from dynamo_schema._render._checkpoint import apply_clique_metadata

    apply_clique_metadata({}, annotations, info, True)
    assert annotations["nvidia.com/snapshot-target-containers"] == "engine-0,engine-1"


def test_stale_restore_metadata_removed_without_a_checkpoint() -> None:
    """``ApplyRestorePodMetadataWithStorageConfig`` on a clique without a (Ready) checkpoint: restore labels
    and annotations a user wrote are dropped."""
    from dynamo_schema._render._checkpoint import apply_clique_metadata

    labels = {"nvidia.com/snapshot-checkpoint-id": "x", "nvidia.com/snapshot-is-restore-target": "true", "a": "b"}
    annotations = {"nvidia.com/snapshot-restore-status.main": "done", "nvidia.com/dynamo-checkpoint-name": "n",
                   "keep": "v"}
    apply_clique_metadata(labels, annotations, None, False)
    assert (labels, annotations) == ({"a": "b"}, {"keep": "v"})


def test_component_pathway_checkpoints_are_refused() -> None:
    data = case("0298")
    with pytest.raises(RenderError) as exc:
        render(copy.deepcopy(data["input"]), "kubernetes", RenderOptions(checkpoint_enabled=True))
    assert [d.rule for d in exc.value.diagnostics] == ["render.unsupported"]
