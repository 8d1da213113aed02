"""Provider-override targets (rule 36): the expected Grove target per scope (root, component, multinode
leader/worker) and the admission of multinode role overrides.

Expected values come from the reference revision (ai-dynamo/dynamo@2a6da14c):
``deploy/operator/internal/provideroverride/registry_test.go`` TestExpectedTarget and ``registry.go``'s
format strings, and ``deploy/operator/internal/webhook/validation/*_test.go`` (named per test).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dynamo_schema._admission._provider import (
    SCOPE_COMPONENT,
    SCOPE_LEADER,
    SCOPE_ROOT,
    SCOPE_WORKER,
    expected_target,
)
from tests.admission._admission_helpers import (
    beta_dgd,
    errors,
    run,
    with_gpu,
    worker,
)

Mutator = Callable[[dict[str, Any]], Any]


# ----------------------------------------------------------------------------- rule 36


_SINGLE: dict[str, Any] = {}
_MULTINODE: dict[str, Any] = {"multinode": {"nodeCount": 2}}
_FORCED: dict[str, Any] = {"experimental": {"grove": {"forceScalingGroup": True}}}
_INTER_POD: dict[str, Any] = {"multinode": {"nodeCount": 2}, "experimental": {"gpuMemoryService": {"mode": "InterPod"}}}


@pytest.mark.parametrize(
    ("provider", "version", "scope", "component", "want", "want_err"),
    [
        ("grove", "grove.io/v1alpha1", SCOPE_ROOT, None, "PodCliqueSet", None),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, _SINGLE, "PodCliqueTemplateSpec", None),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, _MULTINODE, "PodCliqueScalingGroupConfig", None),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, _FORCED, "PodCliqueScalingGroupConfig", None),
        ("grove", "grove.io/v1alpha1", SCOPE_LEADER, _MULTINODE, "PodCliqueTemplateSpec", None),
        ("grove", "grove.io/v1alpha1", SCOPE_WORKER, _MULTINODE, "PodCliqueTemplateSpec", None),
        ("component", "grove.io/v1alpha1", SCOPE_ROOT, None, None, "does not support provider overrides"),
        ("grove", "grove.io/v2", SCOPE_ROOT, None, None, "unsupported Grove apiVersion"),
        ("grove", "grove.io/v1alpha1", SCOPE_LEADER, _SINGLE, None, "requires a multinode component"),
        ("grove", "grove.io/v1alpha1", SCOPE_WORKER, _INTER_POD, None, "not supported for inter-pod GMS"),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, None, None, "component context is required"),
    ],
)
def test_expected_target_registry_table(
    provider: str, version: str, scope: str, component: Any, want: str | None, want_err: str | None
) -> None:
    """``provideroverride/registry_test.go`` TestExpectedTarget (plus the nil-component branch)."""
    target, err = expected_target(provider, version, scope, component)
    assert target == want
    if want_err is None:
        assert err is None
    else:
        assert err is not None and want_err in err


def test_expected_target_full_messages() -> None:
    # registry.go ExpectedTarget format strings.
    assert expected_target("component", "grove.io/v1alpha1", SCOPE_ROOT, None)[1] == (
        'workload provider "component" does not support provider overrides'
    )
    assert expected_target("grove", "grove.io/v2", SCOPE_ROOT, None)[1] == (
        'unsupported Grove apiVersion "grove.io/v2"; supported value is "grove.io/v1alpha1"'
    )


def test_expected_target_compares_the_scope_by_value() -> None:
    """registry.go ``ExpectedTarget``: ``switch scope`` on a ``Scope`` (a Go string type) compares values: a
    scope built at run time (not the module constant object) selects the same target. # mutant 247b5c55c286"""
    def fresh(s: str) -> str:
        return "".join(list(s))  # an equal but distinct str object

    assert fresh(SCOPE_ROOT) is not SCOPE_ROOT
    assert expected_target("grove", "grove.io/v1alpha1", fresh(SCOPE_ROOT), None) == ("PodCliqueSet", None)
    assert expected_target("grove", "grove.io/v1alpha1", fresh(SCOPE_COMPONENT), _SINGLE) == ("PodCliqueTemplateSpec", None)
    assert expected_target("grove", "grove.io/v1alpha1", fresh(SCOPE_LEADER), _MULTINODE) == ("PodCliqueTemplateSpec", None)


_ROLE_VALUE = {"topologyConstraint": {"topologyName": "grove-topology", "pack": {"required": "host"}}}


def _role_override(role: str, target: str | None = None, node_count: int = 2, inter_pod: bool = False) -> Mutator:
    def m(d: dict[str, Any]) -> None:
        c = worker(d)
        with_gpu(c)
        ov: dict[str, Any] = {"apiVersion": "grove.io/v1alpha1", "value": _ROLE_VALUE}
        if target is not None:
            ov["target"] = target
        c["multinode"] = {"nodeCount": node_count, role: {"providerOverride": ov}}
        if inter_pod:
            c["experimental"] = {"gpuMemoryService": {"mode": "InterPod"}}

    return m


@pytest.mark.parametrize("role", ["leader", "worker"])
def test_multinode_role_override_accepted(role: str) -> None:
    # "provider overrides accept every Grove context" (dynamographdeployment_validation_envtest_test.go).
    assert errors(run(beta_dgd(_role_override(role)))) == []


@pytest.mark.parametrize("role", ["leader", "worker"])
def test_multinode_role_override_rejected_for_inter_pod_gms(role: str) -> None:
    diags = run(beta_dgd(_role_override(role, inter_pod=True)))
    assert errors(diags) == [
        f'spec.components[1].multinode.{role}.providerOverride: Forbidden: scope "multinode.{role}" is not '
        "supported for inter-pod GMS components"
    ]
    assert {d.rule for d in diags} == {"dgd.provider-override-target"}


@pytest.mark.parametrize("role", ["leader", "worker"])
def test_multinode_role_override_wrong_target(role: str) -> None:
    diags = run(beta_dgd(_role_override(role, target="PodCliqueScalingGroupConfig")))
    assert errors(diags) == [
        f"spec.components[1].multinode.{role}.providerOverride.target: Invalid value: "
        '"PodCliqueScalingGroupConfig": must match the provider-context target "PodCliqueTemplateSpec"'
    ]


def test_multinode_role_override_single_node_component() -> None:
    # nodeCount 1 never passes the CRD schema (Minimum=2); the webhook branch alone still reports it.
    diags = run(beta_dgd(_role_override("leader", node_count=1)))
    assert errors(diags) == [
        'spec.components[1].multinode.leader.providerOverride: Forbidden: scope "multinode.leader" requires a '
        "multinode component"
    ]


def test_an_empty_target_of_a_str_subclass_is_required() -> None:  # mutant 6bedf9b9a319
    """shared_v1beta1.go validateProviderOverride (2a6da14c): ``override.Target == ""`` gives
    ``field.Required(<path>.target, "must be defaulted from the provider context")``. Go sees only the JSON
    string, so an empty string held by a ``str`` subclass (a ``StrEnum`` member, a YAML loader's scalar string)
    is the same empty target, not an ``Invalid value`` mismatch."""

    class Text(str):
        pass

    from dynamo_schema._admission import AdmissionSettings, default, validate

    s = AdmissionSettings()
    obj = default(beta_dgd(_role_override("leader", target="PodCliqueTemplateSpec")), s)
    obj["spec"]["components"][1]["multinode"]["leader"]["providerOverride"]["target"] = Text("")
    assert errors(validate(obj, s)) == [
        "spec.components[1].multinode.leader.providerOverride.target: Required value: must be defaulted from the "
        "provider context"
    ]
