"""``validate --kustomize`` locating a problem of the built object in the file it came from
(``_pipeline._kustomize_build``): a JSON6902 operation that set the value wins when its ``target:``
selects the object (kind, group, version, name as kustomize's selector does)."""

from __future__ import annotations

from pathlib import Path

from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._pipeline._kustomize_build import _sources, _trace

BASE = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: demo
spec:
  components:
    - name: Frontend
      type: frontend
"""

PATCH = """\
- op: replace
  path: /spec/components/0/type
  value: frontnd
"""


def _tree(tmp: Path, target: str) -> Path:
    (tmp / "base").mkdir()
    (tmp / "overlay").mkdir()
    (tmp / "base" / "obj.yaml").write_text(BASE)
    (tmp / "base" / "kustomization.yaml").write_text("resources:\n  - obj.yaml\n")
    (tmp / "overlay" / "patch.yaml").write_text(PATCH)
    (tmp / "overlay" / "kustomization.yaml").write_text(
        "resources:\n  - ../base\npatches:\n  - path: patch.yaml\n    target:\n" + target)
    return tmp / "overlay"


BUILT = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "demo"},
         "spec": {"components": [{"name": "Frontend", "type": "frontnd"}]}}
DIAG = Diagnostic("schema.enum", ("spec", "components", 0, "type"), "Unsupported value")


def test_a_json6902_value_is_located_in_the_patch_when_its_target_selects_the_object(tmp_path: Path) -> None:
    """A patch whose target (kind, group, version, name) selects the built object: located at its ``value:``."""
    overlay = _tree(tmp_path, "      group: nvidia.com\n      version: v1beta1\n      kind: DynamoGraphDeployment\n"
                              "      name: demo\n")
    sources, ops = _sources(str(overlay))
    got = _trace(DIAG, BUILT, sources, ops)
    assert (got.file, got.line) == (str(overlay / "patch.yaml"), 3)


def test_a_json6902_patch_for_another_target_is_not_blamed(tmp_path: Path) -> None:
    """A patch whose target selects another object (here another name) did not set the value: the base's line."""
    overlay = _tree(tmp_path, "      kind: DynamoGraphDeployment\n      name: other\n")
    sources, ops = _sources(str(overlay))
    got = _trace(DIAG, BUILT, sources, ops)
    assert (got.file, got.line) == (str(tmp_path / "base" / "obj.yaml"), 8)


# --- the sources a build is traced to, and the walk of the built object (mutation testing, issue 24) ------------
def _base_only(tmp: Path, base: str) -> Path:
    (tmp / "base").mkdir()
    (tmp / "base" / "obj.yaml").write_text(base)
    (tmp / "base" / "kustomization.yaml").write_text("resources:\n  - obj.yaml\n")
    return tmp / "base"


def test_a_json6902_test_or_remove_operation_sets_no_value(tmp_path: Path) -> None:
    """RFC 6902 (§4.2 ``remove``, §4.6 ``test``): neither writes a value, so neither owns a problem of the built
    object; only ``add``/``replace`` do (docs/decisions.md D51, tracing rule 1). The problem stays with the base."""
    # mutant 0118df0a4106
    overlay = _tree(tmp_path, "      kind: DynamoGraphDeployment\n")
    (overlay / "patch.yaml").write_text("- op: test\n  path: /spec/components/0/type\n  value: frontnd\n"
                                        "- op: remove\n  path: /spec/components/0/replicas\n")
    sources, ops = _sources(str(overlay))
    assert ops == []
    got = _trace(DIAG, BUILT, sources, ops)
    assert (got.file, got.line) == (str(tmp_path / "base" / "obj.yaml"), 8)


def test_a_field_the_build_lacks_is_traced_to_its_deepest_written_parent(tmp_path: Path) -> None:
    """A problem at a field the built object does not have (a missing key, an index past the list's end, an index
    into a scalar) is located at the deepest part of the field a source has (module docstring rule 2,
    docs/decisions.md D51): the walk of the built object stops there instead of failing."""
    # mutants a66708de4e40 (a missing key), 453b97470d3d (an index past the end, into a string)
    base = _base_only(tmp_path, BASE)
    sources, _ = _sources(str(base))
    obj = str(base / "obj.yaml")
    for path, line in ((("spec", "components", 0, "replicas"), 7),  # the component (its first line)
                       (("spec", "components", 3, "type"), 6),  # spec.components
                       (("spec", "components", 0, "type", 0), 8)):  # a string is no list
        got = _trace(Diagnostic("schema.x", path, "m"), BUILT, sources, [])
        assert (got.file, got.line) == (obj, line), path


def test_a_built_list_item_no_source_has_is_not_matched_to_another_item(tmp_path: Path) -> None:
    """List items are matched by ``name`` (``_source_path``, the design of D51): a built component no source writes (here
    ``Prefill``) is not blamed on another component of the base; the deepest written part is the list."""
    # mutant cc6028eec18f
    base = _base_only(tmp_path, BASE + "    - name: Decode\n      type: worker\n")
    sources, _ = _sources(str(base))
    built = {**BUILT, "spec": {"components": [{"name": "Frontend", "type": "frontend"},
                                              {"name": "Decode", "type": "worker"},
                                              {"name": "Prefill", "type": "prefil"}]}}
    got = _trace(Diagnostic("schema.enum", ("spec", "components", 2, "type"), "m"), built, sources, [])
    assert (got.file, got.line) == (str(base / "obj.yaml"), 6)


def test_a_top_level_field_only_its_parent_key_has_is_located_at_that_key(tmp_path: Path) -> None:
    """The deepest part of the field a source has may be the first key of the path (``spec``)."""
    # mutant 75edaf586a93
    base = _base_only(tmp_path, BASE)
    sources, _ = _sources(str(base))
    got = _trace(Diagnostic("schema.x", ("spec", "backendFramework"), "m"), BUILT, sources, [])
    assert (got.file, got.line) == (str(base / "obj.yaml"), 5)


def test_kustomizations_are_followed_16_levels_below_the_folder(tmp_path: Path) -> None:
    """The sources are read recursively down to 16 levels below DIR (our bound, module docstring): a file of a
    kustomization 16 levels down is a source, one 17 levels down is not."""
    # mutant 8b759cb27017
    d = tmp_path / "l0"
    for _ in range(18):
        d.mkdir()
        (d / "obj.yaml").write_text(BASE)
        (d / "kustomization.yaml").write_text("resources:\n  - obj.yaml\n  - next\n")
        d = d / "next"
    files = {doc.file for _, doc in _sources(str(tmp_path / "l0"))[0]}
    assert str(tmp_path.joinpath("l0", *["next"] * 16, "obj.yaml")) in files
    assert len(files) == 17


def _renamed_tree(tmp: Path, overlay_text: str, base_extra: str = "") -> Path:
    (tmp / "base").mkdir()
    (tmp / "overlay").mkdir()
    (tmp / "base" / "obj.yaml").write_text(BASE)
    (tmp / "base" / "kustomization.yaml").write_text(base_extra + "resources:\n  - obj.yaml\n")
    (tmp / "overlay" / "kustomization.yaml").write_text(overlay_text)
    return tmp / "overlay"


NAME_DIAG = Diagnostic("reconcile.invalid-label-value", ("metadata", "name"), "must be no more than 63 characters")


def test_a_name_a_name_prefix_made_is_located_at_the_prefix(tmp_path: Path) -> None:
    """The built name is not the base's: the kustomization whose ``namePrefix`` made it is shown (its key)."""
    from dynamo_schema._pipeline._kustomize_build import _renames

    overlay = _renamed_tree(tmp_path, "resources:\n  - ../base\nnamePrefix: team-a-\n")
    built = {**BUILT, "metadata": {"name": "team-a-demo"}}
    sources, ops = _sources(str(overlay))
    renames = _renames(str(overlay))
    assert renames == [(str(overlay / "kustomization.yaml"), "namePrefix")]
    got = _trace(NAME_DIAG, built, sources, ops, renames)
    assert (got.file, got.line, got.column) == (str(overlay / "kustomization.yaml"), 3, 1)
    # another field of the object stays where the base wrote it; a name the build kept, too
    other = _trace(DIAG, built, sources, ops, renames)
    assert (other.file, other.line) == (str(tmp_path / "base" / "obj.yaml"), 8)
    kept = _trace(NAME_DIAG, BUILT, sources, ops, renames)
    assert (kept.file, kept.line) == (str(tmp_path / "base" / "obj.yaml"), 4)


def test_the_outermost_renaming_kustomization_is_shown(tmp_path: Path) -> None:
    """Suffixes and prefixes of every level: the outermost kustomization that renames is shown."""
    from dynamo_schema._pipeline._kustomize_build import _renames

    overlay = _renamed_tree(tmp_path, "resources:\n  - ../base\nnameSuffix: -prod\n", base_extra="namePrefix: b-\n")
    renames = _renames(str(overlay))
    assert renames == [(str(overlay / "kustomization.yaml"), "nameSuffix"),
                       (str(tmp_path / "base" / "kustomization.yaml"), "namePrefix")]
    sources, ops = _sources(str(overlay))
    got = _trace(NAME_DIAG, {**BUILT, "metadata": {"name": "b-demo-prod"}}, sources, ops, renames)
    assert (got.file, got.line) == (str(overlay / "kustomization.yaml"), 3)
