"""``_pipeline._kustomize``: patch targets, patch checks and patch results. Mutants the suite left alive
(issue 24)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dynamo_schema._io._load import load
from dynamo_schema._pipeline._kustomize import PatchTarget, check_patch, patch_results, patch_target

DGD_A = "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata: {name: a}\nspec: {}\n"
DGD_B = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: b}\nspec: {}\n"
CM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"


def _tree(tmp_path: Path, resources: str, target: str) -> Path:
    (tmp_path / "res.yaml").write_text(resources)
    (tmp_path / "kustomization.yaml").write_text(
        f"resources: [res.yaml]\npatches:\n  - path: patch.yaml\n    target: {target}\n")
    patch = tmp_path / "patch.yaml"
    patch.write_text("spec: {}\n")
    return patch


def test_a_patch_entry_with_a_target_gives_that_target(tmp_path: Path) -> None:
    """kustomize ``patches: [{path, target: {group, version, kind, name}}]``: the target selects the
    resources patched (kustomize api/types Selector)."""
    # mutant 30ef90de63b1 (isinstance(entry, dict) -> not isinstance(entry, dict))
    patch = _tree(tmp_path, DGD_B, "{group: nvidia.com, version: v1beta1, kind: DynamoGraphDeployment, name: b}")
    assert patch_target(str(patch)) == PatchTarget("nvidia.com/v1beta1", "DynamoGraphDeployment", "b")


def test_a_target_without_version_takes_the_api_of_a_resource_of_its_kind(tmp_path: Path) -> None:
    """A target naming no version matches resources of its kind whatever their version: the version is the
    one of the resource of that kind (a ConfigMap listed first is not of that kind)."""
    # mutant 13a9490c36fb (kind != ... or not isinstance(api, str) -> and)
    patch = _tree(tmp_path, CM + "---\n" + DGD_B, "{kind: DynamoGraphDeployment}")
    assert patch_target(str(patch)) == PatchTarget("nvidia.com/v1beta1", "DynamoGraphDeployment", "")


def test_a_target_name_selects_the_resource_of_that_name(tmp_path: Path) -> None:
    """kustomize Selector.name: only the resource called so is the target (its apiVersion is used)."""
    # mutants bc3acb7d7878 (== name -> != name), 99df589895c9 (== name -> < name)
    patch = _tree(tmp_path, DGD_A + "---\n" + DGD_B, "{kind: DynamoGraphDeployment, name: b}")
    assert patch_target(str(patch)) == PatchTarget("nvidia.com/v1beta1", "DynamoGraphDeployment", "b")
    other = tmp_path / "other"
    other.mkdir()
    patch = _tree(other, DGD_B + "---\n" + DGD_A, "{kind: DynamoGraphDeployment, name: a}")
    assert patch_target(str(patch)) == PatchTarget("nvidia.com/v1alpha1", "DynamoGraphDeployment", "a")


def _dgd_patch(components: list[Any]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "x"},
            "spec": {"components": components}}


def test_a_cel_rule_counts_when_the_patch_sets_its_fields_at_its_node() -> None:
    """The DGD CRD's CEL rules (upstream dynamographdeployment_types.go x-kubernetes-validations): a
    component's ``minAvailable`` above its ``replicas``; a non-main container needs an image. A patch that
    sets the fields a rule reads, at the rule's node, is judged by the rule (docs/cli.md validate --patch:
    "the CEL rules whose fields are all in the patch")."""
    # mutants bb631b819c93 (_at never walks its path), dcc2987dd00d (fields <= node -> fields < node)
    got = [(d.rule, tuple(d.path)) for d in check_patch(_dgd_patch([{"name": "W", "minAvailable": 3, "replicas": 1}]))]
    assert got == [("cel.min-available", ("spec", "components", 0))]
    # the container has exactly the two fields the rule reads (name, image)
    side = [{"name": "W", "podTemplate": {"spec": {"containers": [{"name": "side", "image": ""}]}}}]
    got = [(d.rule, tuple(d.path)) for d in check_patch(_dgd_patch(side))]
    assert got == [("cel.sidecar-image", ("spec", "components", 0, "podTemplate", "spec", "containers", 0))]
    # a rule reading a field the patch does not set is not judged
    assert check_patch(_dgd_patch([{"name": "W", "minAvailable": 3}])) == []


def test_patch_results_per_document() -> None:
    """``validate``'s result of a patch file: one per document; a document that does not load is an
    ``error`` result, the others ``valid``/``invalid`` by their diagnostics (docs/cli.md validate --patch: checked for what it carries)."""
    # mutants 8d15b08d33b2 (doc is None -> is not None), 0a945d8ac628 (load diags + diags -> &)
    target = PatchTarget("nvidia.com/v1beta1", "DynamoGraphDeployment", "x")
    good = load("spec:\n  components: [{name: W, replicas: 2}]\n", "p.yaml", sequences=True)
    res = patch_results(good, "p.yaml", target)
    assert [(r.kind, r.name, r.status, r.diagnostics) for r in res] == [("DynamoGraphDeployment", "x", "valid", [])]
    bad = load("spec:\n  components: [{name: W, replicas: -2}]\n", "p.yaml", sequences=True)
    assert [r.status for r in patch_results(bad, "p.yaml", target)] == ["invalid"]
    broken = load("spec: [\n", "p.yaml", sequences=True)
    res = patch_results(broken, "p.yaml", target)
    assert [r.status for r in res] == ["error"] and res[0].filename == "p.yaml"
