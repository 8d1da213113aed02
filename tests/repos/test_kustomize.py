"""Kustomize repositories (issue 14, item 2): patch files checked as patches (explicitly and when a
kustomization lists them), ``--kustomize DIR`` built with ``kubectl kustomize`` and validated with
errors traced back to the patch or base file."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from dynamo_schema._cli._main import main
from dynamo_schema._pipeline._kustomize import PatchTarget, check_patch

pytestmark = pytest.mark.shared  # reads ../shared (upstream reference data)

ROOT = Path(__file__).resolve().parents[2]
ALPHA = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus" / "v1alpha1").resolve()
PATCHES = sorted(ALPHA.glob("*kustomize__components__*patch*.yaml"))
BASE = ALPHA / "recipes__qwen3-32b__vllm__cloud-providers__kustomize__base__deploy.yaml"
PULL_SECRET = ALPHA / "recipes__qwen3-32b__vllm__cloud-providers__kustomize__components__gke-image-pull-secret__patch-dgd.yaml"
KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(KUBECTL is None and not os.environ.get("CI"),
                                   reason="kubectl (with kustomize) is not installed")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def _line(f: Path, needle: str) -> int:
    return next(i for i, t in enumerate(f.read_text().splitlines(), 1) if needle in t)


def test_the_corpus_has_kustomize_patches() -> None:
    assert len(PATCHES) >= 12


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_every_corpus_patch_passes_as_a_patch(patch: Path) -> None:
    rc, out, _ = run("validate", "--patch", str(patch))
    assert (rc, out) == (0, "")


def test_most_corpus_patches_are_refused_as_whole_objects() -> None:
    # no images, no component types…: the reason patches need their own check
    refused = [p for p in PATCHES if run("validate", str(p))[0] == 1]
    assert len(refused) >= len(PATCHES) - 2


def test_a_typo_is_refused_at_its_line(tmp_path: Path) -> None:
    f = tmp_path / "patch.yaml"
    f.write_text(PULL_SECRET.read_text().replace("imagePullSecrets: &imagePullSecrets", "imagePullSecret: &ips")
                 .replace("*imagePullSecrets", "*ips"))
    rc, out, _ = run("validate", "--patch", str(f))
    assert rc == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{f}:{_line(f, 'imagePullSecret: &ips')}:")
    assert 'did you mean "imagePullSecrets"?' in first and "[schema.unknown-field]" in first


def test_a_wrong_type_is_refused_at_its_line(tmp_path: Path) -> None:
    f = tmp_path / "patch.yaml"
    f.write_text(PULL_SECRET.read_text().replace("    Frontend:\n", "    Frontend:\n      replicas: two\n"))
    rc, out, _ = run("validate", "--patch", str(f))
    assert rc == 1
    assert out.startswith(f"{f}:{_line(f, 'replicas: two')}:7: ")
    assert "must be of type integer" in out and "[schema.type]" in out


def test_cel_rules_run_only_when_their_fields_are_in_the_patch() -> None:
    comp = {"name": "Frontend", "type": "frontend"}
    patch = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "x"},
             "spec": {"components": [dict(comp, minAvailable=2)]}}
    # minAvailable without replicas: the base's replicas decide, not checked
    assert check_patch(patch) == []
    patch["spec"]["components"][0]["replicas"] = 1
    assert [(d.rule, d.field) for d in check_patch(patch)] == [("cel.min-available", "spec.components[0]")]


def test_json6902_values_are_checked_against_their_path() -> None:
    target = PatchTarget("nvidia.com/v1beta1", "DynamoGraphDeployment")
    ok = [{"op": "replace", "path": "/spec/components/0/replicas", "value": 3}]
    assert check_patch(ok, target) == []
    bad = [{"op": "replace", "path": "/spec/components/0/replicas", "value": "3"},
           {"op": "add", "path": "/spec/componentz", "value": []}]
    assert [d.rule for d in check_patch(bad, target)] == ["schema.type", "patch.unknown-path"]


def _tree(tmp_path: Path, patch_text: str | None = None) -> Path:
    base, comp, overlay = tmp_path / "base", tmp_path / "components" / "pull", tmp_path / "overlay"
    for d in (base, comp, overlay):
        d.mkdir(parents=True)
    (base / "deploy.yaml").write_text(BASE.read_text())
    (base / "kustomization.yaml").write_text("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                                             "resources:\n  - deploy.yaml\n")
    (comp / "patch-dgd.yaml").write_text(patch_text or PULL_SECRET.read_text())
    (comp / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - target:\n"
        "      group: nvidia.com\n      version: v1alpha1\n      kind: DynamoGraphDeployment\n"
        "    path: patch-dgd.yaml\n")
    (overlay / "kustomization.yaml").write_text("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                                                "resources:\n  - ../base\ncomponents:\n  - ../components/pull\n")
    return tmp_path


def test_patches_listed_by_a_kustomization_are_checked_as_patches(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    rc, out, _ = run("validate", "--summary", str(tree))
    assert rc == 0, out
    broken = _tree(tmp_path / "b", PULL_SECRET.read_text().replace("    Frontend:\n", "    Frontend:\n      replicas: -3\n"))
    rc, out, _ = run("validate", str(broken))
    patch = broken / "components" / "pull" / "patch-dgd.yaml"
    assert rc == 1 and out.startswith(f"{patch}:{_line(patch, 'replicas: -3')}:7: ")


def test_a_kustomization_added_later_is_found_by_a_long_lived_process(tmp_path: Path) -> None:
    """The folder scan of ``patch_target`` is remembered (a bulk run asks once per file), but a folder whose
    entries change is scanned again: the language server sees a kustomization created after it started."""
    from dynamo_schema._pipeline._kustomize import patch_target

    tree = _tree(tmp_path)
    comp = tree / "components" / "pull"
    kfile = comp / "kustomization.yaml"
    kept = kfile.read_text()
    kfile.unlink()
    settled = os.stat(comp).st_mtime - 60
    os.utime(comp, (settled, settled))  # changed long ago: its scan is remembered
    patch = str(comp / "patch-dgd.yaml")
    assert patch_target(patch) is None
    kfile.write_text(kept)  # a new entry: the folder's modification time moves
    found = patch_target(patch)
    assert found is not None and found.kind == "DynamoGraphDeployment"
    kfile.unlink()
    os.utime(comp, (settled + 30, settled + 30))
    assert patch_target(patch) is None


@needs_kubectl
def test_kustomize_build_is_validated_and_errors_traced_to_the_patch(tmp_path: Path) -> None:
    assert KUBECTL is not None, "kubectl is required under CI"
    tree = _tree(tmp_path)
    rc, out, _ = run("validate", "--summary", "--kustomize", str(tree / "overlay"))
    assert rc == 0, out
    assert "Valid: 1" in out
    broken = _tree(tmp_path / "b", PULL_SECRET.read_text().replace("    Frontend:\n", "    Frontend:\n      replicas: -3\n"))
    rc, out, _ = run("validate", "--kustomize", str(broken / "overlay"))
    patch = broken / "components" / "pull" / "patch-dgd.yaml"
    assert rc == 1
    assert out.startswith(f"{patch}:{_line(patch, 'replicas: -3')}:7: "), out


@needs_kubectl
def test_kustomize_build_failure_is_an_error_resource(tmp_path: Path) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources:\n  - missing.yaml\n")
    rc, out, _ = run("validate", "-o", "json", "--kustomize", str(tmp_path))
    assert rc == 1
    assert '"kustomize.build-failed"' in out


@needs_kubectl
def test_a_name_prefix_that_makes_the_name_too_long_is_located_at_the_prefix(tmp_path: Path) -> None:
    # the base is valid alone; the overlay's namePrefix makes the DGD name too long for the labels the
    # operator derives from it: that error is shown at the namePrefix line, the others at their components
    base, overlay = tmp_path / "base", tmp_path / "overlay"
    base.mkdir()
    overlay.mkdir()
    shutil.copy(ROOT / "examples" / "vllm-disagg.yaml", base / "dgd.yaml")
    (base / "kustomization.yaml").write_text("resources:\n  - dgd.yaml\n")
    rc, _, _ = run("validate", str(base / "dgd.yaml"))
    assert rc == 0
    kfile = overlay / "kustomization.yaml"
    kfile.write_text("resources:\n  - ../base\nnamePrefix: a-very-long-team-name-prefix-for-the-production-environment-\n")
    rc, out, _ = run("validate", "--kustomize", str(overlay))
    lines = out.splitlines()
    built = "a-very-long-team-name-prefix-for-the-production-environment-llama-disagg"
    named = [ln for ln in lines if f"DynamoGraphDeployment/{built}: metadata.name: " in ln]
    assert rc == 1 and named and all(ln.startswith(f"{kfile}:3:1: ") for ln in named)
    assert any(ln.startswith(f"{base / 'dgd.yaml'}:") and "spec.components[" in ln for ln in lines)
