"""Topology-constraint admission rules: component pack domains checked against the ClusterTopologyBinding
on create (rule 24) and spec/component topology constraints immutable on update (rule 53).

Expected messages and paths come from the upstream tables at the reference revision
(ai-dynamo/dynamo@2a6da14c, ``deploy/operator/internal/webhook/validation/*_test.go``); where a table
has no case, they are built from the Go format strings named in each test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dgd,
    errors,
    run,
    run_update,
    worker,
)

Mutator = Callable[[dict[str, Any]], Any]
TOPO = AdmissionSettings(cluster_topologies={"grove-topology": ("zone", "rack")})
TOPOLOGY_IMMUTABLE = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change topology constraints"
)


# ----------------------------------------------------------------------------- rule 24


def _topology(spec_domain: str | None, component_domain: str) -> Mutator:
    def m(d: dict[str, Any]) -> None:
        tc: dict[str, Any] = {"clusterTopologyName": "grove-topology"}
        if spec_domain is not None:
            tc["packDomain"] = spec_domain
        d["spec"]["topologyConstraint"] = tc
        worker(d)["topologyConstraint"] = {"packDomain": component_domain}

    return m


def test_component_topology_domain_in_binding_accepted() -> None:
    assert errors(run(beta_dgd(_topology("zone", "rack")), TOPO)) == []


@pytest.mark.parametrize("spec_domain", ["zone", None])
def test_component_topology_domain_missing_from_binding(spec_domain: str | None) -> None:
    # shared_v1beta1.go validateTopologyConstraint: "does not exist in ClusterTopology %q; available domains: %v"
    # (the component message names ClusterTopology, the spec-level one ClusterTopologyBinding).
    diags = run(beta_dgd(_topology(spec_domain, "host")), TOPO)
    assert errors(diags) == [
        'spec.components[1].topologyConstraint.packDomain: Invalid value: "host": does not exist in '
        'ClusterTopology "grove-topology"; available domains: [rack zone]'
    ]
    assert {d.rule for d in diags} == {"dgd.topology-domain"}


def test_unknown_spec_domain_skips_the_narrower_check() -> None:
    # validateTopologyConstraint compares indexes only when the spec domain exists in the binding.
    assert errors(run(beta_dgd(_topology("host", "zone")), TOPO)) == [
        'spec.topologyConstraint.packDomain: Invalid value: "host": does not exist in ClusterTopologyBinding '
        '"grove-topology"; available domains: [rack zone]'
    ]


def test_component_topology_domain_not_read_after_creation() -> None:
    # The binding is read only while generation <= 1.
    obj = beta_dgd(_topology("zone", "host"))
    obj["metadata"]["generation"] = 2
    assert errors(run(obj, TOPO)) == []


@pytest.mark.parametrize(("generation", "read"), [(1, True), (2, False)])
def test_kv_transfer_domain_read_through_generation_one(generation: int, read: bool) -> None:
    # mutant f9fdab420b2c. dynamographdeployment.go (2a6da14c) validateKvTransferPolicy returns before
    # reading the ClusterTopologyBinding only when `len(allErrs) != 0 || generation > 1`: generation 1 (the
    # create) still reads it
    obj = beta_dgd(lambda d: d["spec"].__setitem__(
        "experimental", {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "host"}}))
    obj["metadata"]["generation"] = generation
    want = ['spec.experimental.kvTransferPolicy.domain: Invalid value: "host": does not exist in '
            'ClusterTopologyBinding "grove-topology"; available domains: [rack zone]']
    assert errors(run(obj, TOPO)) == (want if read else [])


# ----------------------------------------------------------------------------- rule 53


def _spec_topology(d: dict[str, Any]) -> None:
    d["spec"]["topologyConstraint"] = {"clusterTopologyName": "grove-topology", "packDomain": "rack"}


def _component_topology(d: dict[str, Any]) -> None:
    d["spec"]["topologyConstraint"] = {"clusterTopologyName": "grove-topology", "packDomain": "zone"}
    worker(d)["topologyConstraint"] = {"packDomain": "rack"}


def test_unchanged_topology_constraints_are_allowed() -> None:
    assert errors(run_update(beta_dgd(_component_topology), lambda d: None)) == []


def test_spec_topology_constraint_removal_is_immutable() -> None:
    diags = run_update(beta_dgd(_spec_topology), lambda d: d["spec"].pop("topologyConstraint"))
    assert errors(diags) == [f"spec.topologyConstraint: Invalid value: null: {TOPOLOGY_IMMUTABLE}"]
    assert {d.rule for d in diags} == {"dgd.topology-immutable"}


def test_spec_topology_constraint_addition_is_immutable() -> None:
    assert errors(run_update(beta_dgd(), _spec_topology)) == [
        'spec.topologyConstraint: Invalid value: {"clusterTopologyName":"grove-topology","packDomain":"rack"}: '
        + TOPOLOGY_IMMUTABLE
    ]


def test_component_topology_constraint_removal_is_immutable() -> None:
    diags = run_update(beta_dgd(_component_topology), lambda d: worker(d).pop("topologyConstraint"))
    assert errors(diags) == [f"spec.components[1].topologyConstraint: Invalid value: null: {TOPOLOGY_IMMUTABLE}"]


def test_component_topology_constraint_addition_is_immutable() -> None:
    def base(d: dict[str, Any]) -> None:
        d["spec"]["topologyConstraint"] = {"clusterTopologyName": "grove-topology", "packDomain": "zone"}

    diags = run_update(beta_dgd(base), lambda d: worker(d).__setitem__("topologyConstraint", {"packDomain": "rack"}))
    assert errors(diags) == [
        'spec.components[1].topologyConstraint: Invalid value: {"packDomain":"rack"}: ' + TOPOLOGY_IMMUTABLE
    ]
