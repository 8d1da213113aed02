"""Grove's PodCliqueSet update webhook (``validateUpdate``): immutable fields compared with apimachinery's
``Semantic.DeepEqual``, for which a nil and an empty slice or map are the same value."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._grove._update import update_refusals


def pcs(**tmpl: Any) -> dict[str, Any]:
    cliques = [{"name": "a", "spec": {"roleName": "a", "replicas": 1, "minAvailable": 1,
                                      "podSpec": {"containers": [{"name": "main", "image": "x"}]}}}]
    t: dict[str, Any] = {"cliqueStartupType": "CliqueStartupTypeAnyOrder", "cliques": cliques,
                         "podCliqueScalingGroups": [{"name": "g", "cliqueNames": ["a"], "replicas": 1}]}
    t.update(tmpl)
    return {"apiVersion": "grove.io/v1alpha1", "kind": "PodCliqueSet", "metadata": {"name": "p"},
            "spec": {"replicas": 1, "template": t}}


def msgs(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d.field, d.message) for d in update_refusals(old, new)]


@pytest.mark.parametrize("field", ["resourceClaimTemplates", "resourceSharing"])
def test_absent_and_empty_immutable_fields_are_equal(field: str) -> None:
    """``Semantic.DeepEqual``: an absent (nil) slice and an empty one are equal, so no "field is immutable"."""
    assert msgs(pcs(), pcs(**{field: []})) == []
    assert msgs(pcs(**{field: []}), pcs()) == []
    assert msgs(pcs(**{field: None}), pcs(**{field: []})) == []


def test_absent_and_empty_scaling_group_resource_sharing_are_equal() -> None:
    """The same rule for a scaling group's immutable ``resourceSharing`` (nil vs ``[]``)."""
    new = pcs()
    new["spec"]["template"]["podCliqueScalingGroups"][0]["resourceSharing"] = []
    assert msgs(pcs(), new) == []


def test_a_non_empty_immutable_field_added_is_refused() -> None:
    """An absent field becoming non-empty is a change: ``Invalid value: ...: field is immutable``."""
    assert msgs(pcs(), pcs(resourceClaimTemplates=[{"name": "x"}])) == [
        ("spec.template.resourceClaimTemplates", 'Invalid value: [{"name":"x"}]: field is immutable')]


def test_scaling_group_and_clique_topology_constraints_are_immutable() -> None:
    """``validateTopologyConstraintImmutability``: per clique and scaling group (by name), Forbidden at
    ``...[i].topologyConstraint`` with ``constraintChangeMsg``'s wording."""
    old = pcs()
    old["spec"]["template"]["podCliqueScalingGroups"][0]["topologyConstraint"] = {
        "topologyName": "t", "pack": {"required": "rack"}}
    old["spec"]["template"]["cliques"][0]["topologyConstraint"] = {"topologyName": "t", "pack": {"required": "host"}}
    new = pcs()
    new["spec"]["template"]["podCliqueScalingGroups"][0]["topologyConstraint"] = {
        "topologyName": "t", "pack": {"required": "zone"}}
    assert msgs(old, new) == [
        ("spec.template.cliques[0].topologyConstraint",
         "Forbidden: PodClique 'a' topology constraint cannot be removed after creation"),
        ("spec.template.podCliqueScalingGroups[0].topologyConstraint",
         "Forbidden: PodCliqueScalingGroup 'g' topology constraint cannot be changed from required=\"rack\" "
         'preferred="" to required="zone" preferred=""'),
    ]


def test_changed_starts_after_is_refused_with_the_new_list() -> None:
    """podcliqueset.go ``validateUpdate``: ``ValidateImmutableField(newClique.Spec.StartsAfter, ...)``, the new
    []string printed as JSON by ``field.Error``, at ``fldPath.Child("spec")`` (no clique index); an absent
    and an empty list are equal (Semantic.DeepEqual)."""
    # mutant 6695f4d87831
    old, new = pcs(), pcs()
    old["spec"]["template"]["cliques"][0]["spec"]["startsAfter"] = ["x"]
    new["spec"]["template"]["cliques"][0]["spec"]["startsAfter"] = ["y", "z"]
    assert msgs(old, new) == [
        ("spec.template.cliques.spec.startsAfter", 'Invalid value: ["y","z"]: field is immutable')]
    old["spec"]["template"]["cliques"][0]["spec"]["startsAfter"] = []
    new["spec"]["template"]["cliques"][0]["spec"].pop("startsAfter")
    assert msgs(old, new) == []


def _clique_tc(old_tc: dict[str, Any], new_tc: dict[str, Any]) -> list[tuple[str, str]]:
    old, new = pcs(), pcs()
    old["spec"]["template"]["cliques"][0]["topologyConstraint"] = old_tc
    new["spec"]["template"]["cliques"][0]["topologyConstraint"] = new_tc
    return msgs(old, new)


def test_clique_topology_name_change_is_refused_whichever_way_it_sorts() -> None:
    """topologyconstraints.go ``constraintChanged``: ``old.TopologyName != new.TopologyName`` is a change, and
    ``constraintChangeMsg`` names both."""  # mutant 6ca07ef189c0
    for a, b in (("t2", "t1"), ("t1", "t2")):
        assert _clique_tc({"topologyName": a, "pack": {"required": "rack"}},
                          {"topologyName": b, "pack": {"required": "rack"}}) == [
            ("spec.template.cliques[0].topologyConstraint",
             f"Forbidden: PodClique 'a' topology constraint topologyName cannot be changed from '{a}' to '{b}'")]


def test_deprecated_pack_domain_moved_to_pack_required_is_allowed() -> None:
    """topologyconstraints.go ``isAllowedDeprecatedPackDomainMigration``: packDomain moved to pack.required
    with the same topologyName, required domain and preferred domain is no change; a different required
    domain is refused with the migration message."""  # mutants 301b686f10fd, 0d7bbc4acb99
    old = {"topologyName": "t", "packDomain": "rack"}
    assert _clique_tc(old, {"topologyName": "t", "pack": {"required": "rack"}}) == []
    old_pref = {"topologyName": "t", "packDomain": "rack", "pack": {"preferred": "host"}}
    assert _clique_tc(old_pref, {"topologyName": "t", "pack": {"required": "rack", "preferred": "host"}}) == []
    assert _clique_tc(old, {"topologyName": "t", "pack": {"required": "host"}}) == [
        ("spec.template.cliques[0].topologyConstraint",
         "Forbidden: PodClique 'a' deprecated packDomain migration can only move packDomain to pack.required without "
         'changing the required or preferred topology domain (old required="rack" preferred="", new required="host" '
         'preferred="")')]
