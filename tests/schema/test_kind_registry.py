"""The kind registry (``_core/_kinds.py``, issue 21): a kind added in a test — a fake CRD of the ``nvidia.com``
bundle with one CEL rule and one validating-webhook rule — validates, defaults, explains and appears in
``schema --out``, with no other file changed. Then it is removed and every table is as before."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import dynamo_schema
from dynamo_schema._core import _kinds
from dynamo_schema._core._diagnostics import Diagnostic

KIND = "DynamoWidget"
API = "nvidia.com/v1alpha1"


def _widget_schema() -> dict[str, Any]:
    """A CRD schema in the bundled schemas' form: the ObjectMeta and null handling of a bundled kind, a spec
    of our own (a bounded integer with a default, an enum, a CEL rule)."""
    from dynamo_schema._schema import _schemas

    base = copy.deepcopy(_schemas.load("nvidia.com", "DynamoWorkerMetadata", "v1alpha1"))
    defs = base["$defs"]
    del defs["DynamoWorkerMetadataSpec"]
    defs["DynamoWidgetSpec"] = {
        "additionalProperties": False,
        "description": "What the widget is.",
        "properties": {
            "size": {"type": "integer", "minimum": 1, "default": 1, "description": "How many parts."},
            "color": {"type": "string", "enum": ["red", "blue"], "description": "Its colour."},
        },
        "type": "object",
        "x-kubernetes-validations": [{"rule": "!has(self.size) || self.size <= 10",
                                      "message": "size must be at most 10"}],
    }
    base["properties"]["kind"]["const"] = KIND
    base["properties"]["spec"]["anyOf"][0]["$ref"] = "#/$defs/DynamoWidgetSpec"
    base.pop("$id", None)
    return base


def _color_required(obj: dict[str, Any], old: dict[str, Any] | None) -> list[Diagnostic]:
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    if not spec.get("color"):
        return [Diagnostic("widget.color-required", ("spec", "color"), "Required value: a widget needs a color")]
    return []


@pytest.fixture
def widget() -> Iterator[_kinds.KindSpec]:
    before = (dict(_kinds.DYNAMO_KINDS), dict(_kinds.EXTRA_KINDS), dict(_kinds.SHORT_NAMES))
    spec = _kinds.register(_kinds.KindSpec(KIND, ("v1alpha1",), "dwg", webhook=_color_required,
                                           schemas={"v1alpha1": _widget_schema()}))
    try:
        yield spec
    finally:
        _kinds.unregister(KIND)
        assert (dict(_kinds.DYNAMO_KINDS), dict(_kinds.EXTRA_KINDS), dict(_kinds.SHORT_NAMES)) == before


def _obj(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": API, "kind": KIND, "metadata": {"name": "w"}, "spec": spec}


def _rules(obj: dict[str, Any]) -> list[tuple[str, str]]:
    [result] = dynamo_schema.validate(obj)
    return [(d.rule, d.message) for d in result.errors]


def test_a_registered_kind_validates(widget: _kinds.KindSpec) -> None:
    [ok] = dynamo_schema.validate(_obj(size=3, color="red"))
    assert (ok.status, ok.kind, ok.errors) == ("valid", KIND, [])
    rules = _rules(_obj(size=0, color="red"))  # the schema
    assert [r for r, _ in rules] == ["schema.minimum"]
    assert _rules(_obj(size=11, color="red"))[0][1].endswith("size must be at most 10")  # its CEL rule
    assert _rules(_obj(size=3, color="green"))[0][0] == "schema.enum"
    assert _rules(_obj(size=3)) == [("widget.color-required", "Required value: a widget needs a color")]  # webhook
    assert _rules({**_obj(color="red"), "spec": {"color": "red", "extra": 1}})[0][0] == "schema.unknown-field"


def test_a_registered_kind_defaults(widget: _kinds.KindSpec) -> None:
    stored = dynamo_schema.default(_obj(color="blue"))
    assert stored["spec"] == {"color": "blue", "size": 1}


def test_a_registered_kind_explains(widget: _kinds.KindSpec) -> None:
    for name in ("dynamowidget.spec", "dwg.spec"):
        text = dynamo_schema.explain(name)
        assert "What the widget is." in text and "size" in text and "How many parts" in text and "color" in text


def test_a_registered_kind_is_in_schema_out(widget: _kinds.KindSpec, tmp_path: Path) -> None:
    from dynamo_schema._cli._main import main

    assert main(["schema", "--out", str(tmp_path)]) == 0
    written = json.loads((tmp_path / "nvidia.com" / "dynamowidget_v1alpha1.json").read_text())
    assert written["$id"] == "urn:dynamo-schema:schemas/nvidia.com/dynamowidget_v1alpha1.json"
    assert written["$defs"]["DynamoWidgetSpec"]["properties"]["size"]["minimum"] == 1
    assert (tmp_path / "nvidia.com" / "dynamomodel_v1alpha1.json").is_file()  # beside the generated ones


def test_unregistered_it_is_an_unknown_dynamo_kind() -> None:
    assert KIND not in _kinds.DYNAMO_KINDS
    [r] = dynamo_schema.validate(_obj(size=3, color="red"))
    assert r.status == "invalid" and r.errors[0].rule.startswith("schema.")


def test_built_in_kinds_cannot_be_replaced_or_removed() -> None:
    with pytest.raises(ValueError, match="built-in"):
        _kinds.register(_kinds.KindSpec("DynamoModel", ("v1alpha1",)))
    with pytest.raises(ValueError, match="built-in"):
        _kinds.unregister("DynamoModel")
    with pytest.raises(ValueError, match="operator's admission chain"):
        _kinds.register(_kinds.KindSpec("DynamoGadget", ("v1",), admission="operator"))
    with pytest.raises(ValueError, match="short name 'dm'"):
        _kinds.register(_kinds.KindSpec("DynamoGadget", ("v1",), "dm"))
    assert "DynamoGadget" not in _kinds.SPECS


def test_dynamo_model_lora_source_rules() -> None:  # mutant 2ef97dff0505
    """internal/webhook/validation/dynamomodel.go (2a6da14c), validateSource: a LoRA model needs
    spec.source (Required ``is required when spec.modelType is "lora"``); a source with an s3:// uri is
    admitted."""
    from dynamo_schema._schema._extra_kinds import dynamo_model_rules

    spec = {"modelName": "a", "baseModelName": "b", "modelType": "lora"}
    model = {"apiVersion": API, "kind": "DynamoModel", "metadata": {"name": "m"}, "spec": spec}
    assert [(d.rule, d.message) for d in dynamo_model_rules(model)] == [
        ("dynamomodel.source-required", 'Required value: is required when spec.modelType is "lora"')]
    ok = {**model, "spec": {**spec, "source": {"uri": "s3://bucket/x"}}}
    assert dynamo_model_rules(ok) == []
