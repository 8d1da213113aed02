"""Provider-override admission (``dynamo_schema/_admission/_provider.py``): where an override may
appear (DGD root/components, never a standalone DCD), its apiVersion, target and value, and the
materialized-provider requirement. The expected target per scope is in test_provider_override_targets.py.

Cases are modelled on the upstream tables in
``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages are copied from those
tables where they exist, else built from the Go format strings.
"""

from __future__ import annotations

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dcd,
    beta_dgd,
    component_dgd,
    errors,
    run,
)
from tests.admission._rules_support import (
    Case,
    _create,
    _override,
    _root_override,
    _set,
    _w,
    register,
)

# (rule id, accepted case, rejected case, exact expected error list for the rejected case)
CASES: list[Case] = [
    # ---------------------------------------------------------------- provider overrides
    (
        "dgd.provider-override-context",
        _create(
            beta_dgd, _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}})
        ),
        _create(
            component_dgd,
            _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}}),
        ),
        ['spec.providerOverride: Forbidden: requires workload provider "grove", but "component" is selected'],
    ),
    (
        "dgd.provider-override-api-version",
        _create(beta_dgd, _w(lambda c: c.__setitem__("providerOverride", _override()))),
        _create(beta_dgd, _w(lambda c: c.__setitem__("providerOverride", _override(api="grove.io/v1beta1")))),
        [
            'spec.components[1].providerOverride.apiVersion: Unsupported value: "grove.io/v1beta1": supported values: "grove.io/v1alpha1"'
        ],
    ),
    (
        "dgd.provider-override-target",
        _create(
            beta_dgd,
            _root_override({"spec": {"template": {"topologyConstraint": {}}}}, target="PodCliqueSet"),
        ),
        _create(
            beta_dgd,
            _root_override(
                {"spec": {"template": {"topologyConstraint": {}}}}, target="PodCliqueTemplateSpec"
            ),
        ),
        [
            'spec.providerOverride.target: Invalid value: "PodCliqueTemplateSpec": must match the provider-context target "PodCliqueSet"'
        ],
    ),
    (
        "dgd.provider-override-value",
        _create(
            beta_dgd, _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}})
        ),
        _create(
            beta_dgd,
            _root_override(
                {"spec": {"replicas": 2, "template": {"topologyConstraint": {"packDomain": "rack"}}}}
            ),
        ),
        [
            "spec.providerOverride.value.spec.replicas: Forbidden: is Dynamo-owned or not enabled for provider override"
        ],
    ),
    (
        "dcd.provider-override-context",
        _create(beta_dcd),
        _create(beta_dcd, _set(["spec", "providerOverride"], _override())),
        [
            "spec.providerOverride: Forbidden: provider overrides are supported only for components embedded in a DynamoGraphDeployment"
        ],
    ),
]

register(CASES, globals())


def test_provider_override_value_known_grove_shape() -> None:
    value = {"spec": {"template": {"topologyConstraint": {"pack": "rack"}}}}
    diags = run(beta_dgd(_root_override(value)))
    assert errors(diags) == [
        (
            "spec.providerOverride.value: Invalid value: null: does not match the registered PodCliqueSet schema: json: "
            "cannot unmarshal string into Go struct field TopologyConstraint.spec.template.topologyConstraint.pack of "
            "type v1alpha1.TopologyPackConstraint"
        )
    ]


def test_provider_override_value_must_be_object() -> None:
    diags = run(beta_dgd(_w(lambda c: c.__setitem__("providerOverride", _override(value=["x"])))))
    assert errors(diags) == [
        (
            "spec.components[1].providerOverride.value: Invalid value: null: must be a JSON object: json: cannot "
            "unmarshal array into Go value of type map[string]json.RawMessage"
        )
    ]


def test_provider_override_requires_materialized_provider() -> None:
    from dynamo_schema._admission import default, validate

    s = AdmissionSettings()
    obj = default(
        beta_dgd(_root_override({"spec": {"template": {"topologyConstraint": {}}}})), s, operation="UPDATE"
    )
    assert errors(validate(obj, s)) == [
        (
            'spec.providerOverride: Forbidden: requires controller-owned annotation "nvidia.com/workload-provider" to be '
            "materialized; wait for controller adoption and retry"
        )
    ]
