"""The hover text's first line says whether the field is required, as the CRD says (``required`` lists of
the upstream CRD in ../shared, not our generated schema)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dynamo_schema._lsp import _schemainfo

CRD = Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "dynamo" / "crds" / \
    "nvidia.com_dynamographdeployments.yaml"


def _component_required() -> list[str]:
    crd = yaml.safe_load(CRD.read_text(encoding="utf-8"))
    root = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta1")["schema"]["openAPIV3Schema"]
    return list(root["properties"]["spec"]["properties"]["components"]["items"]["required"])


@pytest.mark.parametrize("key", ["name", "replicas", "type", "podTemplate"])
def test_hover_head_says_required_as_the_crd_does(key: str) -> None:
    root = _schemainfo.schema_for("nvidia.com/v1beta1", "DynamoGraphDeployment")
    assert root is not None
    field = _schemainfo.walk(root, ("spec", "components", 0, key))
    assert field is not None
    head = _schemainfo.hover_markdown(field, "DynamoGraphDeployment", "nvidia.com/v1beta1").splitlines()[0]
    assert head.startswith(f"**{key}** `")
    assert head.endswith(" · required") == (key in _component_required()), head


def test_boolean_field_completes_true_and_false() -> None:
    """docs/cli.md (Completion): a boolean field's values are offered as ``true``/``false``; ``hostNetwork``
    is ``type: boolean`` in the core PodSpec (Kubernetes API)."""  # mutant 7321b6f34ec8
    root = _schemainfo.schema_for("nvidia.com/v1beta1", "DynamoGraphDeployment")
    assert root is not None
    path = ("spec", "components", 0, "podTemplate", "spec", "hostNetwork")
    assert [c.label for c in _schemainfo.value_candidates(root, path)] == ["true", "false"]
