"""Kustomize JSON6902 patch files (issue 20, item 2): checked op by op against their target's schema by
``validate FILE``, ``validate --patch``, a directory walk, located at the patch file's own lines; a patch no
kustomization lists is skipped with a note; ``--kustomize`` locates patch-introduced problems in the
patch file and builds with a standalone ``kustomize`` when kubectl is absent."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from dynamo_schema._cli._main import main
from tests.oracles._tools import find, require

DGD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: demo
spec:
  components:
    - name: Frontend
      type: frontend
      replicas: 1
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
"""

DGD_TARGET = "    target:\n      group: nvidia.com\n      version: v1beta1\n      kind: DynamoGraphDeployment\n"

BAD_REPLICAS = """\
- op: replace
  path: /spec/components/0/replicas
  value: two
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def line_of(f: Path, needle: str, after: int = 0) -> int:
    return next(i for i, t in enumerate(f.read_text().splitlines(), 1) if i > after and needle in t)


def tree(tmp: Path, patch: str, *, name: str = "patch.yaml", target: str = DGD_TARGET, base: str = DGD,
         key: str = "patches") -> Path:
    """base/ (the object) and overlay/ (a kustomization listing the patch with ``target``)."""
    (tmp / "base").mkdir(parents=True)
    (tmp / "overlay").mkdir()
    (tmp / "base" / "obj.yaml").write_text(base)
    (tmp / "base" / "kustomization.yaml").write_text("resources:\n  - obj.yaml\n")
    (tmp / "overlay" / name).write_text(patch)
    (tmp / "overlay" / "kustomization.yaml").write_text(
        f"resources:\n  - ../base\n{key}:\n  - path: {name}\n{target}")
    return tmp / "overlay" / name


def test_a_wrong_type_is_refused_at_its_line_in_the_patch_file(tmp_path: Path) -> None:
    patch = tree(tmp_path, BAD_REPLICAS)
    rc, out, _ = run("validate", str(patch))
    assert rc == 1, out
    assert out.splitlines() == [
        f"{patch}:3:3: DynamoGraphDeployment/: spec.components[0].replicas: Invalid value: \"string\": "
        "spec.components[0].replicas in body must be of type integer: \"string\" [schema.type]"]
    assert "load.not-a-mapping" not in out


@pytest.mark.parametrize("how", ["file", "--patch", "walk"])
def test_every_way_in_checks_the_patch(tmp_path: Path, how: str) -> None:
    patch = tree(tmp_path, BAD_REPLICAS)
    argv = {"file": [str(patch)], "--patch": ["--patch", str(patch)], "walk": [str(tmp_path)]}[how]
    rc, out, _ = run("validate", "-o", "json", *argv)
    assert rc == 1
    found = [(r["filename"], d["rule"], d["line"], d["path"])
             for r in json.loads(out)["resources"] for d in r["errors"]]
    assert (str(patch), "schema.type", 3, "spec.components[0].replicas") in found
    assert not any(rule == "load.not-a-mapping" for _, rule, _, _ in found)


def test_a_json_patch_file_and_patches_json6902(tmp_path: Path) -> None:
    text = '[\n  {"op": "replace",\n   "path": "/spec/components/0/replicas",\n   "value": "two"}\n]\n'
    patch = tree(tmp_path, text, name="patch.json", key="patchesJson6902")
    rc, out, _ = run("validate", str(patch))
    assert rc == 1
    line = line_of(patch, '"value"')
    assert out.startswith(f"{patch}:{line}:4: ") and "[schema.type]" in out, out


def test_a_valid_patch_passes(tmp_path: Path) -> None:
    patch = tree(tmp_path, "- op: replace\n  path: /spec/components/0/replicas\n  value: 3\n"
                           "- op: add\n  path: /metadata/labels/app.kubernetes.io~1name\n  value: demo\n"
                           "- op: add\n  path: /spec/components/-\n  value:\n    name: Worker\n    type: worker\n"
                           "- op: remove\n  path: /spec/components/0/replicas\n")
    rc, out, _ = run("validate", "-v", str(patch))
    assert rc == 0, out
    assert "resource is valid" in out


def test_an_unknown_field_and_a_bad_operation(tmp_path: Path) -> None:
    patch = tree(tmp_path, "- op: add\n  path: /spec/componentz\n  value: []\n"
                           "- op: delete\n  path: /spec/components\n"
                           "- op: add\n  path: /spec/components/-\n  value:\n    name: W\n    typ: worker\n")
    rc, out, _ = run("validate", "-o", "json", str(patch))
    assert rc == 1
    diags = [(d["rule"], d["line"]) for d in json.loads(out)["resources"][0]["errors"] if d["severity"] == "error"]
    assert ("patch.unknown-path", line_of(patch, "/spec/componentz")) in diags
    assert ("patch.json6902", line_of(patch, "op: delete")) in diags
    assert ("schema.unknown-field", line_of(patch, "typ: worker")) in diags


def test_a_builtin_target_without_version_is_resolved_from_the_resources(tmp_path: Path) -> None:
    patch = tree(tmp_path, "- op: replace\n  path: /spec/replicas\n  value: two\n"
                           "- op: add\n  path: /spec/template/spec/containers/-\n  value:\n    image: busybox\n",
                 target="    target:\n      kind: Deployment\n      name: web\n", base=DEPLOYMENT)
    rc, out, _ = run("validate", "-o", "json", str(patch))
    assert rc == 1, out
    (res,) = json.loads(out)["resources"]
    assert (res["kind"], res["name"], res["version"]) == ("Deployment", "web", "v1")
    got = {(d["path"], d["line"]) for d in res["errors"] if d["severity"] == "error"}
    assert got == {("spec.replicas", 3), ("spec.template.spec.containers.-", line_of(patch, "value:", 4))}, got


def test_a_patch_no_kustomization_lists_is_skipped_with_a_note(tmp_path: Path) -> None:
    f = tmp_path / "patch.yaml"
    f.write_text(BAD_REPLICAS)
    rc, out, _ = run("validate", "--summary", str(f))
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[0].startswith(f"{f}:1:1: note: a kustomize JSON6902 patch that no kustomization.yaml")
    assert lines[0].endswith("[patch.target-unknown]")
    assert lines[1].endswith("Valid: 0, Invalid: 0, Errors: 0, Skipped: 1")
    f.write_text("- op: frobnicate\n  path: /spec\n")  # the shape is still checked
    rc, out, _ = run("validate", str(f))
    assert rc == 1 and f"{f}:1:3: " in out and "[patch.json6902]" in out


def test_a_list_that_is_not_a_patch_is_still_not_a_mapping(tmp_path: Path) -> None:
    f = tmp_path / "list.yaml"
    f.write_text("- a\n- b\n")
    rc, out, _ = run("validate", str(f))
    assert rc == 1 and "[load.not-a-mapping]" in out


# ------------------------------------------------------------------------------------------------ --kustomize
KUBECTL = find("kubectl")


def _bin(tmp: Path, **tools: str) -> str:
    """A PATH folder holding only ``tools`` (name -> binary), as symlinks."""
    d = tmp / "bin"
    d.mkdir(exist_ok=True)
    for name, target in tools.items():
        (d / name).symlink_to(target)
    return str(d)


def _kubectl() -> str:
    found = KUBECTL
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("kubectl is not installed")
        pytest.skip("kubectl is not installed")
    return found


def _overlay(tmp: Path) -> tuple[Path, Path, Path]:
    """Base with two DGDs (``demo`` with an invalid label key of its own, ``other`` with replicas -2); a
    JSON6902 patch of ``demo`` and a strategic-merge patch giving ``other`` the same label key."""
    demo = DGD.replace("  name: demo\n", "  name: demo\n  labels:\n    a b: mine\n")
    two = demo + "---\n" + DGD.replace("name: demo", "name: other").replace("replicas: 1", "replicas: -2")
    j = tree(tmp, "- op: add\n  path: /metadata/annotations\n  value: {}\n"
                  "- op: replace\n  path: /spec/components/0/type\n  value: frontnd\n",
             target=DGD_TARGET + "      name: demo\n", base=two)
    smp = tmp / "overlay" / "smp.yaml"
    smp.write_text("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: other\n"
                   "  labels:\n    a b: patched\n")
    k = tmp / "overlay" / "kustomization.yaml"
    k.write_text(k.read_text() + "  - path: smp.yaml\n")
    return j, smp, tmp / "base" / "obj.yaml"


def _expected(j: Path, smp: Path, base: Path) -> set[tuple[str, int]]:
    other = line_of(base, "name: other")
    return {(str(j), line_of(j, "value: frontnd")),  # the JSON6902 value, not the base's type line
            (str(smp), line_of(smp, "labels:")),  # the strategic-merge patch's labels of `other`
            (str(base), line_of(base, "labels:")),  # the base's own labels of `demo` stay there
            (str(base), line_of(base, "replicas: -2")),  # so does the replicas of `other`
            (str(base), line_of(base, "- name: Frontend", other))}  # and its CEL rule on the component


def test_kustomize_locates_patch_introduced_errors_in_the_patch_files(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    kubectl = _kubectl()
    j, smp, base = _overlay(tmp_path)
    monkeypatch.setenv("PATH", _bin(tmp_path, kubectl=kubectl))
    rc, out, err = run("validate", "--kustomize", str(tmp_path / "overlay"))
    assert rc == 1
    got = {(line.split(":")[0], int(line.split(":")[1])) for line in out.splitlines()}
    assert got == _expected(j, smp, base), out
    assert err == f"validate: --kustomize {tmp_path / 'overlay'}: built with `kubectl kustomize` ({tmp_path}/bin/kubectl)\n"


def test_kustomize_falls_back_to_a_standalone_kustomize(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kustomize = require("kustomize")
    j, smp, base = _overlay(tmp_path)
    monkeypatch.setenv("PATH", _bin(tmp_path, kustomize=kustomize))
    assert shutil.which("kubectl") is None
    rc, out, err = run("validate", "-v", "--kustomize", str(tmp_path / "overlay"))
    assert rc == 1
    assert "built with `kustomize build`" in err and "kubectl is not on PATH" in err, err
    rc, out, _ = run("validate", "-o", "json", "--kustomize", str(tmp_path / "overlay"))
    assert rc == 1
    assert {(f, n) for f, n, _rule in _located_files(out)} == _expected(j, smp, base)


def _located_files(out: str) -> set[tuple[str, int, str]]:
    """(file, line, rule) of each error of a JSON report (``file``: where it is located, when that is not
    the resource's filename)."""
    got = set()
    for r in json.loads(out)["resources"]:
        for d in r["errors"]:
            if d["severity"] == "error":
                got.add((d.get("file") or r["filename"], d["line"], d["rule"]))
    return got


def test_kustomize_without_kubectl_or_kustomize_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree(tmp_path, BAD_REPLICAS)
    monkeypatch.setenv("PATH", _bin(tmp_path))
    rc, out, _ = run("validate", "--kustomize", str(tmp_path / "overlay"))
    assert rc == 2
    assert "neither kubectl nor kustomize is on PATH [io.kustomize-unavailable]" in out


def test_a_dynamo_target_without_version_takes_the_version_the_paths_fit(tmp_path: Path) -> None:
    """A Component's kustomization lists no resources: v1alpha1 (``services``) is chosen for a patch of
    ``services``, v1beta1 for one of ``components``; the value is then checked."""
    comp = tmp_path / "component"
    comp.mkdir()
    (comp / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - path: alpha.yaml\n"
        "    target:\n      kind: DynamoGraphDeployment\n  - path: beta.yaml\n    target:\n"
        "      kind: DynamoGraphDeployment\n")
    (comp / "alpha.yaml").write_text("- op: replace\n  path: /spec/services/Frontend/replicas\n  value: two\n")
    (comp / "beta.yaml").write_text(BAD_REPLICAS)
    rc, out, _ = run("validate", "-o", "json", str(comp))
    assert rc == 1
    got = {(Path(r["filename"]).name, r["version"], d["rule"], d["path"])
           for r in json.loads(out)["resources"] for d in r["errors"] if d["severity"] == "error"}
    assert got == {("alpha.yaml", "", "schema.type", "spec.services.Frontend.replicas"),
                   ("beta.yaml", "", "schema.type", "spec.components[0].replicas")}, got


def test_kustomize_locates_errors_of_inline_patches_in_the_kustomization(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # A patch written inline (`patch: |-` of a patches entry, a multi-line string of patchesStrategicMerge)
    # is located at its own line of the kustomization, not at a base or patch file whose value the build
    # replaced (before: the base's `replicas: 1` line for the inline patch's -3).
    kubectl = _kubectl()
    patch = tree(tmp_path, "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: demo\n"
                   "spec:\n  components:\n    - name: Frontend\n      replicas: 2\n", target="")
    k = tmp_path / "overlay" / "kustomization.yaml"
    k.write_text(k.read_text()
                 + "  - target:\n      kind: DynamoGraphDeployment\n      name: demo\n"
                   "    patch: |-\n\n      - op: replace\n        path: /spec/components/0/replicas\n"
                   "        value: -3\n"
                 + "patchesStrategicMerge:\n  - |\n    apiVersion: nvidia.com/v1beta1\n"
                   "    kind: DynamoGraphDeployment\n    metadata:\n      name: demo\n      labels:\n"
                   "        a b: inline\n")
    monkeypatch.setenv("PATH", _bin(tmp_path, kubectl=kubectl))
    rc, out, _ = run("validate", "-o", "json", "--kustomize", str(tmp_path / "overlay"))
    assert rc == 1
    got = {(Path(f).name, n, rule) for f, n, rule in _located_files(out)}
    assert got == {("kustomization.yaml", line_of(k, "value: -3"), "schema.minimum"),
                   ("kustomization.yaml", line_of(k, "labels:"), "metadata.invalid-label-key"),
                   # a CEL rule of the whole component: the patch file's item (patches first)
                   ("patch.yaml", line_of(patch, "- name: Frontend"), "cel.min-available")}, out


def test_kustomize_keeps_the_built_image_in_the_runtime_version_message(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # the images transformer gave the build a tag without a version: the base file still shows 1.5.0, so the
    # text line must say which image the build has (before: traced into different lines, the error and its
    # image note were no longer shown as one, and the image was not printed)
    kubectl = _kubectl()
    (tmp_path / "base").mkdir()
    (tmp_path / "prod").mkdir()
    (tmp_path / "base" / "obj.yaml").write_text(DGD)
    (tmp_path / "base" / "kustomization.yaml").write_text("resources:\n  - obj.yaml\n")
    (tmp_path / "prod" / "kustomization.yaml").write_text(
        "resources:\n  - ../base\nimages:\n  - name: nvcr.io/nvidia/ai-dynamo/vllm-runtime\n    newTag: latest\n")
    monkeypatch.setenv("PATH", _bin(tmp_path, kubectl=kubectl))
    rc, out, _ = run("validate", "--kustomize", str(tmp_path / "prod"))
    assert rc == 1
    assert out.splitlines() == [
        f"{tmp_path / 'base' / 'obj.yaml'}:{line_of(tmp_path / 'base' / 'obj.yaml', '- name: Frontend')}:7: "
        "DynamoGraphDeployment/demo: spec.components[0].runtimeVersionOverride: Required value: is required when "
        "the specified main container image has no parseable semantic-version tag (the main container image is "
        '"nvcr.io/nvidia/ai-dynamo/vllm-runtime:latest") [dgd.runtime-version-override-required]'], out


def test_kustomize_warns_when_a_strategic_merge_patch_replaces_a_list(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # kustomize has no merge key for a custom resource's lists (no openapi: schema given), so a patch that
    # names one component replaces spec.components whole: the build drops the others, silently
    kubectl = _kubectl()
    two = DGD + ("    - name: Worker\n      type: worker\n      replicas: 1\n      podTemplate:\n        spec:\n"
                 "          containers:\n            - name: main\n"
                 "              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0\n")
    smp = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: demo\nspec:\n" \
          "  components:\n    - name: Worker\n      replicas: 3\n"
    patch = tree(tmp_path, smp, target="", base=two)
    monkeypatch.setenv("PATH", _bin(tmp_path, kubectl=kubectl))
    rc, out, _ = run("validate", "--kustomize", str(tmp_path / "overlay"))
    assert rc == 1, out  # the Worker of the build lost its pod template too: refused
    base = tmp_path / "base" / "obj.yaml"
    assert out.splitlines() == [
        f"{base}:{line_of(base, 'containers:', line_of(base, '- name: Worker'))}:11: DynamoGraphDeployment/demo: "
        "spec.components[0].podTemplate.spec.containers: Required value: is required [dgd.main-image-required]",
        f"{patch}:{line_of(patch, 'components:')}:3: DynamoGraphDeployment/demo: spec.components: warning: this "
        "strategic-merge patch replaced the whole list spec.components (kustomize merges a custom resource's lists "
        "by key only with the kustomization's openapi schema): Frontend of the base dropped; patch items with a "
        "JSON6902 patch, or list every item [kustomize.list-replaced]"], out
    # a patch that lists every item drops none: no warning (the items are still replaced whole)
    patch.write_text(smp.replace("  components:\n", "  components:\n    - name: Frontend\n"))
    rc, out, _ = run("validate", "--kustomize", str(tmp_path / "overlay"))
    assert "kustomize.list-replaced" not in out, out


def test_a_walk_checks_the_inline_patches_of_a_kustomization(tmp_path: Path) -> None:
    # the patches a kustomization writes inline are checked as its patch files are (validate DIR, the
    # pre-commit hook), at their lines of the kustomization; no build needed
    tree(tmp_path, "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: demo\n", target="")
    k = tmp_path / "overlay" / "kustomization.yaml"
    k.write_text(k.read_text()
                 + "  - target:\n      group: nvidia.com\n      version: v1beta1\n      kind: DynamoGraphDeployment\n"
                   "    patch: |-\n      - op: replace\n        path: /spec/components/0/replicas\n        value: two\n"
                 + "patchesStrategicMerge:\n  - |\n    apiVersion: nvidia.com/v1beta1\n"
                   "    kind: DynamoGraphDeployment\n    metadata:\n      name: demo\n    spec:\n      replica: 2\n")
    rc, out, _ = run("validate", "-o", "json", str(tmp_path / "overlay"))
    assert rc == 1, out
    got = {(Path(f).name, n, rule) for f, n, rule in _located_files(out)}
    assert got == {("kustomization.yaml", line_of(k, "value: two"), "schema.type"),
                   ("kustomization.yaml", line_of(k, "replica: 2"), "schema.unknown-field")}, out
    # a waiver on the inline patch's line holds as in a patch file
    k.write_text(k.read_text().replace("value: two\n", "value: two  # dynamo-schema: ignore[schema.type]\n"))
    rc, out, _ = run("validate", "-o", "json", str(tmp_path / "overlay"))
    assert {rule for _f, _n, rule in _located_files(out)} == {"schema.unknown-field"}, out


def test_a_walk_reports_load_problems_of_an_inline_patch_at_its_lines(tmp_path: Path) -> None:
    # the inline text's own YAML problems: a duplicate key (strict: an error) and a syntax error
    tree(tmp_path, "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: demo\n", target="")
    k = tmp_path / "overlay" / "kustomization.yaml"
    k.write_text(k.read_text()
                 + "  - target:\n      kind: DynamoGraphDeployment\n    patch: |-\n      - op: replace\n"
                   "        path: /spec/components/0/replicas\n        value: 1\n        value: 2\n"
                 + "  - target:\n      kind: DynamoGraphDeployment\n    patch: |-\n      - op: [replace\n")
    rc, out, _ = run("validate", "-o", "json", str(tmp_path / "overlay"))
    assert rc == 1, out
    got = {(Path(f).name, n, rule) for f, n, rule in _located_files(out)}
    assert got == {("kustomization.yaml", line_of(k, "value: 2"), "load.duplicate-key"),
                   ("kustomization.yaml", line_of(k, "- op: [replace") + 1, "load.syntax")}, out
