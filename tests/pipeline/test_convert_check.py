"""``convert``'s warnings about a converted object the v1beta1 schema refuses as input (``_pipeline/_convert_check``).

kubectl applies with ``fieldValidation=Strict`` by default (kubectl >= 1.27, ``--validate=strict``): the API
server refuses an unknown field, so a converted object carrying one is as unusable as one with a value outside
an enum, and ``convert`` warns about both.
"""

from __future__ import annotations

import copy
from typing import Any

from dynamo_schema._convert._v1alpha1 import to_v1beta1
from dynamo_schema._pipeline._convert_check import legacy_value_warnings

ALPHA: dict[str, Any] = {
    "apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
    "spec": {"backendFramework": "vllm", "services": {"Frontend": {"componentType": "frontend", "replicas": 1}}},
}


def test_clean_conversion_has_no_warning() -> None:
    """A v1alpha1 object whose conversion is valid v1beta1 input gets no warning."""
    assert legacy_value_warnings(copy.deepcopy(ALPHA), to_v1beta1(copy.deepcopy(ALPHA))) == []


def test_unknown_field_in_the_converted_object_is_warned_about() -> None:
    """The API server's strict field validation (kubectl's default) refuses an unknown field: a warning."""
    beta = to_v1beta1(copy.deepcopy(ALPHA))
    beta["spec"]["components"][0]["replicaz"] = 2
    (d,) = legacy_value_warnings(copy.deepcopy(ALPHA), beta)
    assert (d.rule, d.severity) == ("convert.legacy-value", "warning")
    assert 'unknown field "spec.components[0].replicaz"' in d.message
    assert d.message.endswith("not valid as nvidia.com/v1beta1 input: schema.unknown-field)")


def test_legacy_component_type_is_warned_about_at_the_v1alpha1_field() -> None:
    """``componentType: main`` (any string in v1alpha1, an enum in v1beta1) is copied verbatim: a warning."""
    alpha = copy.deepcopy(ALPHA)
    alpha["spec"]["services"]["Frontend"]["componentType"] = "main"
    (d,) = legacy_value_warnings(alpha, to_v1beta1(copy.deepcopy(alpha)))
    assert d.path == ("spec", "services", "Frontend", "componentType")
    assert d.message.startswith('Unsupported value: "main"')
