"""Render details pinned against the upstream operator (reference revision 2a6da14c); written to kill
surviving mutants (issue 24)."""

from __future__ import annotations

from dynamo_schema._render import _checkpoint as ck
from dynamo_schema._render._alphacompat import dgd_alpha_component


def test_dgd_alpha_component_of_a_v1alpha1_dgd() -> None:
    """upstream ``getDGDAlphaComponent``: a v1alpha1 DGD's own ``spec.services[name]``, nil when absent.
    # mutant 0c691fe43a24"""
    dgd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
           "spec": {"services": {"Worker": {"replicas": 2}}}}
    assert dgd_alpha_component(dgd, "Worker") == {"replicas": 2}
    assert dgd_alpha_component(dgd, "Other") is None


def test_restore_candidate_drops_user_snapshot_labels() -> None:
    """upstream checkpoint/podspec.go ``ApplyRestoreCandidateMetadata``: the checkpoint-id, restore-target
    and checkpoint-source labels are deleted before the candidate annotations are set. # mutant ccd26ad91a93"""
    labels = {ck.LABEL_CHECKPOINT_ID: "x", ck.LABEL_RESTORE_TARGET: "true", ck.LABEL_CHECKPOINT_SOURCE: "true",
              "keep": "1"}
    annotations: dict[str, str] = {}
    info = ck.CheckpointInfo(name="checkpoint-abc", checkpoint_id="abc", startup_policy="", targets=(), ready=True)
    ck.apply_clique_metadata(labels, annotations, info, True)
    assert labels == {"keep": "1"}
    assert annotations[ck.ANN_CHECKPOINT_NAME] == "checkpoint-abc"
