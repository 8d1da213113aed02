"""``schema --with-core-descriptions`` (``_schemagen.add_core_descriptions``) inside maps: the values of a
``map[string]T`` (OpenAPI ``additionalProperties``) take the descriptions Kubernetes' OpenAPI schema gives T.

Expected values: the descriptions are read from the Kubernetes definitions kubernetes-validate installs
(the same source as ``explain``), never from our output."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._pipeline import _schemagen
from dynamo_schema._schema import _explain

DEFS = _explain._k8s_defs()
pytestmark = pytest.mark.skipif(not DEFS, reason="kubernetes-validate's schemas are not installed")


def _text(defn: str, field: str | None = None) -> str:
    """The Kubernetes description of a definition (or of one of its fields), whitespace folded."""
    node = DEFS[defn] if field is None else DEFS[defn]["properties"][field]
    return " ".join(node["description"].split())


def _map_of(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


def test_map_values_of_a_kubernetes_type_take_its_field_descriptions() -> None:
    """A map whose Kubernetes type is ``map[string]Container`` describes each value's fields as Container's."""
    schema = _map_of({"image": {"type": "string"}})
    k8s = {"type": "object", "additionalProperties": {"$ref": "#/$defs/io.k8s.api.core.v1.Container"}}
    added = _schemagen._CoreDescriptions(schema).walk(schema, k8s)
    assert added == 1
    assert schema["additionalProperties"]["properties"]["image"]["description"] == \
        _text("io.k8s.api.core.v1.Container", "image")


def test_a_dynamo_map_of_components_gets_the_core_types_inside_its_values() -> None:
    """A Dynamo map (no Kubernetes type: v1alpha1 ``services``) is walked too: a ``podTemplate`` in a value is a PodTemplateSpec."""
    schema = {"type": "object", "properties": {"services": _map_of({"podTemplate": {"type": "object"}})}}
    assert _schemagen.add_core_descriptions(schema) >= 1
    value = schema["properties"]["services"]["additionalProperties"]
    assert value["properties"]["podTemplate"]["description"] == _text("io.k8s.api.core.v1.PodTemplateSpec")
