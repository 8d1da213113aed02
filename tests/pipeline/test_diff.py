"""``diff OLD NEW`` (dynamo_schema._pipeline._diff; Grove's update webhook: dynamo_schema._grove._update).

Expected values come from upstream behaviour, not from this code's output:
* Grove update rules and messages: ai-dynamo/grove@fcc3b3bb
  ``operator/internal/webhook/admission/pcs/validation/podcliqueset.go`` (``validatePodCliqueUpdate``: immutable
  clique fields are reported at ``spec.template.cliques.spec.<field>`` — no list index — with
  ``ValidateImmutableField``'s detail ``field is immutable``; ``validatePodCliqueScalingGroupConfigsUpdate``;
  ``topologyconstraints.go`` ``constraintChangeMsg``), ``operator/internal/utils/kubernetes/annotations.go``
  (MNNVL annotation messages); shared/spec/grove.md §3.10 (what is mutable: replicas, podSpec other than
  schedulerName) and the pod-template hash inputs (``ComputePCLQPodTemplateHash``: clique labels,
  annotations, podSpec, priorityClassName).
* ``type is immutable after it is set``: the CRD transition rule (shared/spec/dgd-dcd-model.md §4 rule 4),
  upstream admission test "v1beta1 type change is rejected by CEL" at ``spec.components[1]``.
* Worker hash: shared/spec/rendering.md §2/§3.2 — one hash over all worker/prefill/decode components, DCD
  name ``<dgd>-<lower comp>-<hash>``; replicas are not part of it; the frontend is not a worker.
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._cli.commands.diff import run_diff
from dynamo_schema._grove._update import update_refusals as grove_update_refusals
from dynamo_schema._pipeline import _diff, _diff_impact
from dynamo_schema._pipeline._apply import apply_over
from dynamo_schema._pipeline._diff import diff_documents
from dynamo_schema._pipeline._diff_impact import IMPACT_NO_RESTART, IMPACT_NONE, IMPACT_REPLACED, IMPACT_ROLLING
from tests import _yaml as k8s_yaml

IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.0"


def dgd() -> dict[str, Any]:
    def worker(name: str, typ: str, mode: str) -> dict[str, Any]:
        return {"name": name, "type": typ, "replicas": 1, "podTemplate": {"spec": {"containers": [{
            "name": "main", "image": IMAGE, "command": ["python3", "-m", "dynamo.vllm"],
            "args": ["--model", "Qwen/Qwen3-0.6B", "--disaggregation-mode", mode],
            "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}

    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "llama-disagg"},
        "spec": {"backendFramework": "vllm", "components": [
            {"name": "Frontend", "type": "frontend", "replicas": 1,
             "podTemplate": {"spec": {"containers": [{"name": "main", "image": IMAGE}]}}},
            worker("VllmDecodeWorker", "decode", "decode"),
            worker("VllmPrefillWorker", "prefill", "prefill"),
        ]},
    }


def impacts(report: _diff.DiffReport) -> dict[str, str]:
    return {c.name: c.impact for c in report.components}


def write(tmp_path: Path, name: str, obj: Any) -> str:
    p = tmp_path / name
    p.write_text(k8s_yaml.dump_all(obj if isinstance(obj, list) else [obj]))
    return str(p)


def run(old: str, new: str, target: str | None = None, namespace: str = "default", **kw: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = run_diff(old, new, target, namespace, out, err, **kw)
    return rc, out.getvalue(), err.getvalue()


# ----------------------------------------------------------------------------------------- identical
@pytest.mark.parametrize("target", ["grove", "kubernetes", "dcd"])
def test_identical_objects_no_changes(target: str) -> None:
    r = diff_documents(dgd(), dgd(), target=target)
    assert r.problems == [] and r.admission_errors == [] and r.refusals == []
    assert r.objects == []
    assert r.status == "unchanged"
    assert set(impacts(r).values()) == {IMPACT_NONE}
    assert set(impacts(r)) == {"Frontend", "VllmDecodeWorker", "VllmPrefillWorker"}


def test_identical_files_exit_0(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", dgd())
    b = write(tmp_path, "b.yaml", dgd())
    rc, out, err = run(a, b)
    assert rc == 0, err
    assert "no changes in the rendered objects" in out
    assert "\n--- old/" not in out


def test_server_defaults_are_not_an_update() -> None:
    # the stored object carries webhook defaults (minAvailable 1 on Grove, the workload-provider annotation);
    # re-applying the same manifest must not trip "minAvailable is immutable after creation"
    r = diff_documents(dgd(), dgd(), target="grove")
    assert not any("immutable" in d.message for d in r.admission)


# ----------------------------------------------------------------------------------------- replicas
def test_replica_change_no_restart_grove() -> None:
    new = dgd()
    new["spec"]["components"][1]["replicas"] = 2
    r = diff_documents(dgd(), new, target="grove")
    assert not r.refused
    assert impacts(r) == {"Frontend": IMPACT_NONE, "VllmDecodeWorker": IMPACT_NO_RESTART,
                          "VllmPrefillWorker": IMPACT_NONE}
    assert not any(c.restarts for c in r.components)
    [pcs] = [o for o in r.objects if o.kind == "PodCliqueSet"]
    assert pcs.fields == ["spec.template.cliques[1].spec.replicas"]
    assert "clique replicas 1 → 2" in " ".join(r.components[1].reasons)


def test_replica_change_no_restart_kubernetes() -> None:
    new = dgd()
    new["spec"]["components"][1]["replicas"] = 3
    r = diff_documents(dgd(), new, target="kubernetes")
    assert impacts(r)["VllmDecodeWorker"] == IMPACT_NO_RESTART
    # replicas are not part of the worker hash: same DCD / Deployment names, only spec.replicas changes
    assert {o.change for o in r.objects} == {"changed"}
    assert {(o.kind, tuple(o.fields)) for o in r.objects} == {
        ("DynamoComponentDeployment", ("spec.replicas",)), ("Deployment", ("spec.replicas",))}


# ----------------------------------------------------------------------------------------- env
@pytest.mark.parametrize("target", ["grove", "kubernetes"])
def test_frontend_env_change_restarts_frontend_only(target: str) -> None:
    new = dgd()
    new["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["env"] = [{"name": "FOO", "value": "bar"}]
    r = diff_documents(dgd(), new, target=target)
    assert not r.refused
    assert impacts(r) == {"Frontend": IMPACT_ROLLING, "VllmDecodeWorker": IMPACT_NONE, "VllmPrefillWorker": IMPACT_NONE}
    assert [c.name for c in r.components if c.restarts] == ["Frontend"]
    assert any("pod template changed" in x for x in r.components[0].reasons)


def test_worker_change_rolls_every_worker_grove() -> None:
    new = dgd()
    new["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["env"] = [{"name": "FOO", "value": "bar"}]
    r = diff_documents(dgd(), new, target="grove")
    assert not r.refused
    # one worker hash for all workers: the prefill worker's pod template (hash label, env) changes too
    assert impacts(r) == {"Frontend": IMPACT_NONE, "VllmDecodeWorker": IMPACT_ROLLING, "VllmPrefillWorker": IMPACT_ROLLING}
    assert any(x.startswith("worker hash ") for x in r.components[2].reasons)


def test_worker_change_replaces_worker_dcds_kubernetes() -> None:
    new = dgd()
    new["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["env"] = [{"name": "FOO", "value": "bar"}]
    r = diff_documents(dgd(), new, target="kubernetes")
    assert impacts(r) == {"Frontend": IMPACT_NONE, "VllmDecodeWorker": IMPACT_REPLACED, "VllmPrefillWorker": IMPACT_REPLACED}
    name = re.compile(r"^llama-disagg-vllm(decode|prefill)worker-([0-9a-f]{8})$")
    removed = {(o.kind, o.name) for o in r.objects if o.change == "removed"}
    added = {(o.kind, o.name) for o in r.objects if o.change == "added"}
    assert {k for k, _ in removed} == {k for k, _ in added} == {"DynamoComponentDeployment", "Deployment", "Service"}
    old_hashes = {name.match(n).group(2) for _, n in removed}  # type: ignore[union-attr]
    new_hashes = {name.match(n).group(2) for _, n in added}  # type: ignore[union-attr]
    assert len(old_hashes) == len(new_hashes) == 1 and old_hashes != new_hashes
    assert not any(o.name == "llama-disagg-frontend" for o in r.objects)


# ----------------------------------------------------------------------------------------- refusals
def test_type_change_refused(tmp_path: Path) -> None:
    new = dgd()
    new["spec"]["components"][1]["type"] = "worker"
    r = diff_documents(dgd(), new, target="grove")
    errs = r.admission_errors
    assert errs and r.refused
    assert any(d.path == ("spec", "components", 1) and "type is immutable after it is set" in d.message for d in errs)
    rc, out, _ = run(write(tmp_path, "a.yaml", dgd()), write(tmp_path, "b.yaml", new))
    assert rc == 2  # refused: an error, as kubectl diff's failed dry run
    assert "spec.components[1]: " in out and "type is immutable after it is set" in out


def test_min_available_change_refused() -> None:
    old = dgd()
    old["spec"]["components"][1]["replicas"] = 2
    new = copy.deepcopy(old)
    new["spec"]["components"][1]["minAvailable"] = 2
    r = diff_documents(old, new, target="grove")
    assert any("minAvailable is immutable after creation" in d.message for d in r.admission_errors)


def test_grove_scheduler_name_refused(tmp_path: Path) -> None:
    new = dgd()
    new["spec"]["components"][1]["podTemplate"]["spec"]["schedulerName"] = "kai-scheduler"
    r = diff_documents(dgd(), new, target="grove")
    assert r.admission_errors == []
    # grove podcliqueset.go validatePodCliqueUpdate: ValidateImmutableField(newClique.Spec.PodSpec.SchedulerName, ...,
    # fldPath.Child("spec").Child("podSpec", "schedulerName")) with fldPath = spec.template.cliques (no index)
    assert [(d.field, d.message) for d in r.refusals] == [
        ("spec.template.cliques.spec.podSpec.schedulerName", 'Invalid value: "kai-scheduler": field is immutable')]
    assert r.status == "refused"
    rc, out, _ = run(write(tmp_path, "a.yaml", dgd()), write(tmp_path, "b.yaml", new))
    assert rc == 2  # refused: an error, as kubectl diff's failed dry run
    assert 'admission webhook "pcs.validating.webhooks.grove.io" denied the request' in out
    assert 'spec.template.cliques.spec.podSpec.schedulerName: Invalid value: "kai-scheduler": field is immutable' in out
    # the same change on the non-Grove path is an ordinary rolling restart
    r2 = diff_documents(dgd(), new, target="kubernetes")
    assert r2.refusals == [] and not r2.refused


# ----------------------------------------------------------------------------------------- Grove rules
def pcs(**tmpl: Any) -> dict[str, Any]:
    cliques = [
        {"name": "a", "spec": {"roleName": "a", "replicas": 2, "minAvailable": 1,
                                "podSpec": {"containers": [{"name": "main", "image": "x"}]}}},
        {"name": "b", "spec": {"roleName": "b", "replicas": 1,
                                "podSpec": {"containers": [{"name": "main", "image": "x"}]}}},
    ]
    t: dict[str, Any] = {"cliqueStartupType": "CliqueStartupTypeAnyOrder", "cliques": cliques,
                         "podCliqueScalingGroups": [{"name": "g", "cliqueNames": ["b"], "replicas": 1}]}
    t.update(tmpl)
    return {"apiVersion": "grove.io/v1alpha1", "kind": "PodCliqueSet", "metadata": {"name": "p"},
            "spec": {"replicas": 1, "template": t}}


def msgs(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d.field, d.message) for d in grove_update_refusals(old, new)]


def test_grove_mutable_changes_allowed() -> None:
    new = pcs()
    new["spec"]["replicas"] = 3
    new["spec"]["template"]["cliques"][0]["spec"]["replicas"] = 4
    new["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["containers"][0]["image"] = "y"
    new["spec"]["template"]["cliques"][0]["labels"] = {"x": "y"}
    new["spec"]["template"]["podCliqueScalingGroups"][0]["replicas"] = 5
    new["spec"]["template"]["terminationDelay"] = "1h"
    assert msgs(pcs(), new) == []


def test_grove_clique_immutable_fields() -> None:
    new = pcs()
    new["spec"]["template"]["cliques"][0]["spec"]["minAvailable"] = 2
    new["spec"]["template"]["cliques"][1]["spec"]["roleName"] = "bb"
    assert msgs(pcs(), new) == [
        ("spec.template.cliques.spec.minAvailable", "Invalid value: 2: field is immutable"),
        ("spec.template.cliques.spec.roleName", 'Invalid value: "bb": field is immutable'),
    ]


def test_grove_min_available_defaults_to_replicas() -> None:
    # clique b has no minAvailable: the defaulting webhook stored minAvailable = replicas (1)
    new = pcs()
    new["spec"]["template"]["cliques"][1]["spec"]["minAvailable"] = 1
    assert msgs(pcs(), new) == []


def test_grove_clique_composition() -> None:
    new = pcs()
    new["spec"]["template"]["cliques"].append({"name": "c", "spec": {"roleName": "c", "replicas": 1,
                                                                      "podSpec": {"containers": []}}})
    assert msgs(pcs(), new) == [
        ("spec.template.cliques", "Forbidden: not allowed to change clique composition"),
        ("spec.template.cliques.name", "Forbidden: not allowed to change clique composition, new clique name 'c' is not allowed"),
    ]


def test_grove_clique_order_in_order() -> None:
    old = pcs(cliqueStartupType="CliqueStartupTypeInOrder")
    new = copy.deepcopy(old)
    new["spec"]["template"]["cliques"].reverse()
    assert msgs(old, new) == [
        ("spec.template.cliques", 'Invalid value: "b": clique order cannot be changed when StartupType is InOrder or '
                                  "Explicit. Expected 'b' at position 0, got 'b'"),
        ("spec.template.cliques", 'Invalid value: "a": clique order cannot be changed when StartupType is InOrder or '
                                  "Explicit. Expected 'a' at position 1, got 'a'"),
    ]
    # AnyOrder: reordering is allowed
    assert msgs(pcs(), pcs(cliques=list(reversed(pcs()["spec"]["template"]["cliques"])))) == []


def test_grove_startup_type_and_scaling_groups() -> None:
    new = pcs(cliqueStartupType="CliqueStartupTypeExplicit")
    new["spec"]["template"]["podCliqueScalingGroups"][0]["minAvailable"] = 2
    new["spec"]["template"]["podCliqueScalingGroups"][0]["cliqueNames"] = ["a", "b"]
    assert msgs(pcs(), new) == [
        ("spec.template.cliqueStartupType", 'Invalid value: "CliqueStartupTypeExplicit": field is immutable'),
        ("spec.template.podCliqueScalingGroups.cliqueNames", 'Invalid value: ["a","b"]: field is immutable'),
        ("spec.template.podCliqueScalingGroups.minAvailable", "Invalid value: 2: field is immutable"),
    ]
    new = pcs(podCliqueScalingGroups=[])
    assert msgs(pcs(), new) == [
        ("spec.template.podCliqueScalingGroups", "Forbidden: not allowed to add or remove PodCliqueScalingGroupConfigs")]


def test_grove_topology_constraints() -> None:
    new = pcs()
    new["spec"]["template"]["cliques"][0]["topologyConstraint"] = {"topologyName": "t", "pack": {"required": "rack"}}
    assert msgs(pcs(), new) == [
        ("spec.template.cliques[0].topologyConstraint",
         "Forbidden: PodClique 'a' topology constraint cannot be added after creation")]
    old = pcs(topologyConstraint={"topologyName": "t", "pack": {"required": "rack"}})
    new = pcs(topologyConstraint={"topologyName": "t", "pack": {"required": "zone"}})
    assert msgs(old, new) == [
        ("spec.template.topologyConstraint",
         'Forbidden: PodCliqueSet topology constraint cannot be changed from required="rack" preferred="" to '
         'required="zone" preferred=""')]
    new = pcs(topologyConstraint={"topologyName": "u", "pack": {"required": "rack"}})
    assert msgs(old, new) == [
        ("spec.template.topologyConstraint.topologyName", 'Forbidden: topologyName cannot be changed from "t" to "u"')]


def test_grove_mnnvl_annotation() -> None:
    new = pcs()
    new["metadata"]["annotations"] = {"grove.io/mnnvl-group": "g1"}
    [(path, msg)] = msgs(pcs(), new)
    assert msg == "Forbidden: annotation grove.io/mnnvl-group cannot be added after creation"
    old = copy.deepcopy(new)
    new["metadata"]["annotations"]["grove.io/mnnvl-group"] = "g2"
    [(path, msg)] = msgs(old, new)
    assert msg == ('Invalid value: "g2": annotation grove.io/mnnvl-group is immutable and cannot be changed '
                   'from "g1" to "g2"')


# ----------------------------------------------------------------------------------------- misc
def test_apply_over_three_way_merge() -> None:
    live: dict[str, Any] = {"metadata": {"name": "x", "annotations": {"server": "1", "user": "a"}},
            "spec": {"list": [1, 2], "defaulted": 5, "removed": 1}}
    last = {"metadata": {"name": "x", "annotations": {"user": "a"}}, "spec": {"list": [1, 2], "removed": 1}}
    new = {"metadata": {"name": "x", "annotations": {"user": "b"}}, "spec": {"list": [3]}}
    assert apply_over(live, last, new) == {
        "metadata": {"name": "x", "annotations": {"user": "b", "server": "1"}},
        "spec": {"list": [3], "defaulted": 5}}


def test_other_kinds_compared_as_is(tmp_path: Path) -> None:
    cm: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    cm2 = copy.deepcopy(cm)
    cm2["data"]["a"] = "2"
    rc, out, _ = run(write(tmp_path, "a.yaml", [dgd(), cm]), write(tmp_path, "b.yaml", [dgd(), cm2]))
    assert rc == 1  # differences (kubectl diff)
    assert "--- old/ConfigMap/c\n+++ new/ConfigMap/c\n" in out
    assert "-  a: '1'\n+  a: '2'\n" in out


def test_stable_output_and_json(tmp_path: Path) -> None:
    new = dgd()
    new["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["env"] = [{"name": "FOO", "value": "bar"}]
    a, b = write(tmp_path, "a.yaml", dgd()), write(tmp_path, "b.yaml", new)
    first = run(a, b)
    assert first == run(a, b)
    rc, out, _ = run(a, b, output="json")
    assert rc == 1  # differences (kubectl diff)
    data = json.loads(out)
    [res] = data["resources"]
    assert res["status"] == "changed" and res["target"] == "grove"
    assert {c["name"]: c["restart"] for c in res["components"]} == {
        "Frontend": True, "VllmDecodeWorker": False, "VllmPrefillWorker": False}
    assert data["summary"]["restarts"] == ["Frontend"]
    assert all(o["diff"].startswith("--- old/") for o in res["objects"])


def test_io_errors(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", dgd())
    rc, _, err = run(a, str(tmp_path / "missing.yaml"))
    assert rc == 2 and "missing.yaml" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1\n")
    rc, _, _ = run(a, str(bad))
    assert rc == 2  # invalid input: an error (1 means differences)


def test_invalid_old_object_reported() -> None:
    old = dgd()
    old["spec"]["components"][0]["replicas"] = -1
    r = diff_documents(old, dgd(), target="grove")
    assert r.problems and r.refused


def test_added_and_removed_documents(tmp_path: Path) -> None:
    other = dgd()
    other["metadata"]["name"] = "second"
    rc, out, _ = run(write(tmp_path, "a.yaml", [dgd()]), write(tmp_path, "b.yaml", [dgd(), other]))
    assert rc == 1  # differences (kubectl diff)
    assert "only in NEW" in out and "added PodCliqueSet/second" in out


def test_restart_id_restarts_every_component() -> None:
    new = dgd()
    new["spec"]["restart"] = {"id": "r1"}
    r = diff_documents(dgd(), new, target="grove")
    assert r.admission_errors == []  # "spec.restart must be unset on create" does not apply to an update
    assert set(impacts(r).values()) == {IMPACT_ROLLING}
    # Sequential by default, alphabetical order (dgd-dcd-model.md §5.6)
    assert "step 1 of 3" in " ".join(next(c for c in r.components if c.name == "Frontend").reasons)
    assert r.status == "changed"


def test_multinode_node_count_refused_by_grove() -> None:
    # the reference admission allows a nodeCount change (only the single-node <-> multinode switch is refused);
    # the worker clique's minAvailable follows nodeCount - 1, and Grove refuses that in place
    old = dgd()
    old["spec"]["components"][1]["multinode"] = {"nodeCount": 2}
    new = copy.deepcopy(old)
    new["spec"]["components"][1]["multinode"]["nodeCount"] = 4
    r = diff_documents(old, new, target="grove")
    assert r.admission_errors == []
    assert ("spec.template.cliques.spec.minAvailable", "Invalid value: 3: field is immutable") in [
        (d.field, d.message) for d in r.refusals]
    # shared_v1beta1.go validateDynamoComponentDeploymentSharedSpecUpdate: IsMultinode() switch
    single = dgd()
    r = diff_documents(single, old, target="grove")
    assert [(d.field, d.message.split(": ")[-1]) for d in r.admission_errors] == [
        ("spec.components[1].multinode", "cannot change node topology between single-node and multi-node after creation")]


def test_component_added_refused() -> None:
    # dynamo deploy/operator/internal/webhook/validation/dynamographdeployment.go: "components added: %v"
    new = dgd()
    new["spec"]["components"].append({"name": "Planner", "type": "planner", "podTemplate": {"spec": {
        "containers": [{"name": "main", "image": IMAGE}]}}})
    r = diff_documents(dgd(), new, target="grove")
    assert [(d.field, d.message) for d in r.admission_errors] == [
        ("spec.components", "Forbidden: component topology is immutable and cannot be modified after creation: "
                            "components added: [Planner]")]
    assert impacts(r)["Planner"] == _diff_impact.IMPACT_ADDED


def test_running_deployment_keeps_its_pathway() -> None:
    # the workload-provider annotation is chosen on CREATE and immutable (admission.md §2 step 2, rule 47):
    # flipping nvidia.com/enable-grove later does not move a running deployment off Grove
    new = dgd()
    new["metadata"]["annotations"] = {"nvidia.com/enable-grove": "false"}
    r = diff_documents(dgd(), new)
    assert r.target == "grove"
    assert not any(c.restarts for c in r.components)


def test_v1alpha1_corpus_identical(shared: Path) -> None:
    f = shared / "reference/dynamo/corpus/v1alpha1/recipes__deepseek-r1__sglang__disagg-8gpu__deploy.yaml"
    if not f.is_file():
        pytest.skip("corpus file not available")
    rc, out, err = run(str(f), str(f))
    assert rc == 0, out + err
    assert out.startswith("== DynamoGraphDeployment/") and ": unchanged\n" in out.splitlines()[0] + "\n"


def test_v1alpha1_to_v1beta1_same_object(shared: Path, tmp_path: Path) -> None:
    f = shared / "reference/dynamo/corpus/v1alpha1/recipes__deepseek-r1__sglang__disagg-8gpu__deploy.yaml"
    if not f.is_file():
        pytest.skip("corpus file not available")
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._io._load import load_path

    docs = [d.data for d in load_path(str(f))]
    beta = [to_v1beta1(d) if d.get("apiVersion") == "nvidia.com/v1alpha1" else d for d in docs]
    rc, out, err = run(str(f), write(tmp_path, "beta.yaml", beta))
    # converting the manifest to v1beta1 describes the same deployment: nothing restarts
    assert rc == 0, out + err
    assert "rolling restart" not in out and "pods replaced" not in out


def test_multinode_replicas_scale_the_scaling_group() -> None:
    old = dgd()
    old["spec"]["components"][1]["multinode"] = {"nodeCount": 2}
    new = copy.deepcopy(old)
    new["spec"]["components"][1]["replicas"] = 3
    r = diff_documents(old, new, target="grove")
    assert not r.refused
    assert impacts(r)["VllmDecodeWorker"] == IMPACT_NO_RESTART
    [pcs_change] = [o for o in r.objects if o.kind == "PodCliqueSet"]
    assert pcs_change.fields == ["spec.template.podCliqueScalingGroups[0].replicas"]


@settings(max_examples=12, deadline=None)
@given(component=st.integers(min_value=0, max_value=2), replicas=st.integers(min_value=0, max_value=50),
       target=st.sampled_from(["grove", "kubernetes"]))
def test_any_replica_change_never_restarts(component: int, replicas: int, target: str) -> None:
    new = dgd()
    new["spec"]["components"][component]["replicas"] = replicas
    r = diff_documents(dgd(), new, target=target)
    assert not r.refused, [d.message for d in r.admission_errors + r.refusals] + r.problems
    assert not any(c.restarts for c in r.components)
    expected = IMPACT_NONE if replicas == 1 else IMPACT_NO_RESTART
    assert impacts(r)[r.components[component].name] == expected


def test_usage_errors(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", dgd())
    assert run(a, a, "nonsense")[0] == 2
    assert run(a, a, output="yaml")[0] == 2
    assert run("-", "-")[0] == 2


def test_directories(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    new = dgd()
    new["spec"]["components"][1]["replicas"] = 2
    write(tmp_path / "old", "dgd.yaml", dgd())
    write(tmp_path / "new", "dgd.yaml", new)
    rc, out, err = run(str(tmp_path / "old"), str(tmp_path / "new"), show_diff=False)
    assert rc == 1, err  # differences (kubectl diff)
    assert "VllmDecodeWorker: no restart" in out
    assert "\n--- old/" not in out


def test_render_failure_is_reported_not_diffed() -> None:
    new = dgd()
    new["spec"]["backendFramework"] = "sglang"  # the worker commands run dynamo.vllm
    r = diff_documents(dgd(), new, target="grove")
    assert r.problems and r.objects == [] and r.refused
    # dynamo webhook/validation/dynamographdeployment.go: backendFramework is immutable (Invalid) plus a warning
    assert [(d.field, d.message) for d in r.admission_errors] == [
        ("spec.backendFramework", 'Invalid value: "sglang": is immutable and cannot be changed after creation')]
    assert [d.message for d in r.admission if d.severity == "warning"] == [
        "Changing spec.backendFramework may cause unexpected behavior"]


def test_grove_on_delete_strategy() -> None:
    # grove.md §3.10: pod-template changes trigger a rolling recreate, or wait for manual deletion under OnDelete
    # (PCS spec.updateStrategy.type from the DGD annotation nvidia.com/grove-update-strategy, grove.md §8)
    old = dgd()
    old["metadata"]["annotations"] = {"nvidia.com/grove-update-strategy": "OnDelete"}
    new = copy.deepcopy(old)
    new["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["env"] = [{"name": "A", "value": "b"}]
    r = diff_documents(old, new, target="grove")
    assert impacts(r)["Frontend"] == _diff_impact.IMPACT_ON_DELETE
    assert not r.components[0].restarts


def test_renamed_object_is_delete_and_create(tmp_path: Path) -> None:
    renamed = dgd()
    renamed["metadata"]["name"] = "llama-disagg-2"
    rc, out, _ = run(write(tmp_path, "a.yaml", dgd()), write(tmp_path, "b.yaml", renamed), show_diff=False)
    assert rc == 1  # differences (kubectl diff)
    assert "== DynamoGraphDeployment/llama-disagg-2 (target grove): added" in out
    assert "== DynamoGraphDeployment/llama-disagg (target grove): removed" in out
    r = diff_documents(None, renamed)
    assert set(impacts(r).values()) == {_diff_impact.IMPACT_ADDED}


def test_unified_diff_lines_are_newline_terminated_even_at_a_unicode_line_separator() -> None:
    """Unified diff format (GNU diff/difflib): every line ends with a newline; a U+2028 in a value (a line
    break to Python's splitlines, not to YAML) must not leave a diff line unterminated."""
    key = ("v1", "ConfigMap", "ns", "cm")
    old = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "ns"},
           "data": {"a": "x"}}
    new = copy.deepcopy(old)
    new["data"]["a"] = "x\u2028y"
    text = _diff.unified(old, new, key)
    assert text.endswith("\n")
    lines = text.split("\n")[:-1]
    assert lines[:2] == ["--- old/ConfigMap/ns/cm", "+++ new/ConfigMap/ns/cm"]
    assert all(ln[:1] in ("@", " ", "+", "-") for ln in lines[2:])
    assert "-  a: x" in lines and any(ln.startswith("+  a: ") and "\u2028" in ln for ln in lines)
