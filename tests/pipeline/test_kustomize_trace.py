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
