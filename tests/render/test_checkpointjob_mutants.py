"""Checkpoint job details pinned against upstream ``dgd_checkpoints_reconciler.go`` / ``checkpoint/resource.go``
(reference revision 2a6da14c); written to kill surviving mutants (issue 24)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dynamo_schema._pipeline._render_object import render_object
from dynamo_schema._render._checkpointjob import _merge_job_overrides, _merge_named
from tests.oracles import _operator_cases as oc
from tests.render.test_checkpoint import case

pytestmark = pytest.mark.shared


def _render_0298(edit) -> list[dict[str, Any]]:
    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    edit(dgd)
    return render_object(dgd, settings=oc.admission_settings(data["settings"]))


def test_merge_named_indexes_an_appended_override() -> None:
    """upstream ``mergeNamedSlice``: an appended override is indexed too, so a later override of the same
    name replaces it (not the entry before it). # mutant 7c8d51300b03"""
    base = [{"name": "a", "v": 0}]
    out = _merge_named(base, [{"name": "b", "v": 1}, {"name": "b", "v": 2}])
    assert out == [{"name": "a", "v": 0}, {"name": "b", "v": 2}]


def test_job_container_override_env_merges_with_the_base_env() -> None:
    """upstream ``buildCheckpointJobPodTemplate``: ``MergeEnvs(baseEnv, user.Env)`` with ``baseEnv`` the
    container's env before the override: the base variables stay. # mutant ea8cad0dab04"""
    template: dict[str, Any] = {"metadata": {"labels": {}, "annotations": {}}, "spec": {"containers": [
        {"name": "main", "image": "x", "env": [{"name": "A", "value": "1"}]}]}}
    _merge_job_overrides(template, {"spec": {"containers": [{"name": "main", "env": [{"name": "B", "value": "2"}]}]}})
    env = {e["name"]: e["value"] for e in template["spec"]["containers"][0]["env"]}
    assert env == {"A": "1", "B": "2"}


def test_checkpoint_deletion_policy_retain_is_kept() -> None:
    """upstream ``createCheckpointCR``: the deletion-policy annotation is the configured policy, ``Delete``
    only when it is empty. # mutant f228ff7c1c49"""
    def edit(dgd: dict[str, Any]) -> None:
        dgd["spec"]["components"][1]["experimental"]["checkpoint"]["deletionPolicy"] = "Retain"

    ckpts = [o for o in _render_0298(edit) if o["kind"] == "DynamoCheckpoint"]
    assert ckpts
    assert {o["metadata"]["annotations"]["nvidia.com/dynamo-checkpoint-deletion-policy"] for o in ckpts} == {"Retain"}


def test_checkpoint_backend_error_is_prefixed() -> None:
    """upstream: ``failed to create checkpoint for component X: failed to determine backend framework for
    component X: …`` (dgd_checkpoints_reconciler.go). # mutant c64d2407fab2"""
    from dynamo_schema._render import RenderError

    def edit(dgd: dict[str, Any]) -> None:
        dgd["spec"]["backendFramework"] = "sglang"  # the worker's command is vllm's: a mismatch

    with pytest.raises(RenderError) as err:
        _render_0298(edit)
    assert str(err.value).startswith("failed to create checkpoint for component VllmDecodeWorker: failed to "
                                     "determine backend framework for component VllmDecodeWorker: backend framework "
                                     "mismatch")


@pytest.mark.parametrize("mode", [None, "IntraPod"])
def test_checkpoint_job_gms_claim_keeps_the_other_claims(mode: str | None) -> None:
    """upstream ``prepareCheckpointGMSPodTemplate``: mode "" and IntraPod are built (only InterPod is
    refused); ``ensureCheckpointGMSPodClaim`` adds the shared-GPU claim and leaves the pod's other claims.
    # mutants e3fec5fb1f24 23109595dabb"""
    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    worker = dgd["spec"]["components"][1]
    worker["experimental"]["gpuMemoryService"] = {"mode": mode} if mode else {}
    worker["podTemplate"]["spec"]["containers"][0]["resources"].setdefault("limits", {})["nvidia.com/gpu"] = "1"
    objs = render_object(dgd, settings=oc.admission_settings({**data["settings"], "dra": True}))
    ckpts = [o for o in objs if o["kind"] == "DynamoCheckpoint"]
    assert ckpts
    for o in ckpts:
        claims = o["spec"]["job"]["podTemplateSpec"]["spec"]["resourceClaims"]
        cid = o["metadata"]["name"]
        assert claims == [{"name": "gpu", "resourceClaimTemplateName": "gpu-template"},
                          {"name": "intrapod-shared-gpu", "resourceClaimTemplateName": f"{cid}-worker-gpu"}]


def test_checkpoint_job_gms_claim_replaced_in_place() -> None:
    """upstream ``ensureCheckpointGMSPodClaim``: a pod claim already named ``intrapod-shared-gpu`` is
    replaced where it stands (its template name changed), not moved after the others."""
    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    worker = dgd["spec"]["components"][1]
    worker["experimental"]["gpuMemoryService"] = {}
    spec = worker["podTemplate"]["spec"]
    spec["resourceClaims"] = [{"name": "intrapod-shared-gpu", "resourceClaimTemplateName": "mine"}, *spec["resourceClaims"]]
    spec["containers"][0]["resources"].setdefault("limits", {})["nvidia.com/gpu"] = "1"
    objs = render_object(dgd, settings=oc.admission_settings({**data["settings"], "dra": True}))
    ckpts = [o for o in objs if o["kind"] == "DynamoCheckpoint"]
    assert ckpts
    for o in ckpts:
        claims = o["spec"]["job"]["podTemplateSpec"]["spec"]["resourceClaims"]
        assert claims == [{"name": "intrapod-shared-gpu", "resourceClaimTemplateName": f"{o['metadata']['name']}-worker-gpu"},
                          {"name": "gpu", "resourceClaimTemplateName": "gpu-template"}]


@pytest.mark.parametrize(("gms", "device_class"), [({}, "gpu.nvidia.com"),
                                                   ({"deviceClassName": "custom.example.com"}, "custom.example.com")])
def test_checkpoint_job_gms_claim_template_device_class(gms: dict[str, Any], device_class: str) -> None:
    """upstream dgd_checkpoints_reconciler.go: ``checkpointGMSDeviceClassName`` is the GMS spec's
    ``DeviceClassName``, ``dra.DefaultDeviceClassName`` (``gpu.nvidia.com``, dra.go) when it is empty (the CRD
    defaults it to that too); the checkpoint's ``checkpoint-<id>-worker-gpu`` ResourceClaimTemplate requests
    that class: a configured class is kept. # mutant 8d064dc46259"""
    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    worker = dgd["spec"]["components"][1]
    worker["experimental"]["gpuMemoryService"] = gms
    worker["podTemplate"]["spec"]["containers"][0]["resources"].setdefault("limits", {})["nvidia.com/gpu"] = "1"
    objs = render_object(dgd, settings=oc.admission_settings({**data["settings"], "dra": True}),
                         options={"dra_device_classes": ("gpu.nvidia.com", "custom.example.com")})
    rcts = [o for o in objs if o["kind"] == "ResourceClaimTemplate" and o["metadata"]["name"].startswith("checkpoint-")]
    assert rcts
    for o in rcts:
        assert [r["exactly"]["deviceClassName"] for r in o["spec"]["spec"]["devices"]["requests"]] == [device_class]


def test_component_pathway_refusal_needs_a_checkpoint() -> None:
    """``refuse_component_pathway`` refuses only child DCDs that restore from a DGD-managed checkpoint: with
    checkpointing enabled, a DGD whose components configure no checkpoint has nothing restoring and is not
    refused (dgd_checkpoints_reconciler.go skips components without ``experimental.checkpoint``); the same
    DGD with one is. # mutant 17f3a5495ddf"""
    from dynamo_schema._render import RenderError, RenderOptions
    from dynamo_schema._render._checkpointjob import refuse_component_pathway

    data = case("0298")
    dgd = copy.deepcopy(data["input"])
    enabled = RenderOptions(checkpoint_enabled=True)
    with pytest.raises(RenderError) as err:
        refuse_component_pathway(dgd, enabled)
    assert [d.rule for d in err.value.diagnostics] == ["render.unsupported"]
    for comp in dgd["spec"]["components"]:
        (comp.get("experimental") or {}).pop("checkpoint", None)
    refuse_component_pathway(dgd, enabled)  # no checkpoint: not refused
