"""Topology constraints on create with topology-aware scheduling on (topologyconstraints_test.go,
podcliqueset_test.go "create ... topologyName" cases). Messages from topologyconstraints.go and
podcliqueset.go at ai-dynamo/grove fcc3b3bb."""

from __future__ import annotations

from typing import Any

from dynamo_schema._grove._create import GroveSettings, validate_pcs

DOMAINS = ["region", "zone", "rack", "host", "numa"]
TAS = GroveSettings(tas_enabled=True, cluster_topologies={"test-topology": DOMAINS})
T = "spec.template"


def tc(required: str = "", preferred: str = "", name: str = "test-topology") -> dict[str, Any]:
    pack = {k: v for k, v in (("required", required), ("preferred", preferred)) if v}
    out: dict[str, Any] = {"pack": pack}
    if name:
        out["topologyName"] = name
    return out


def pcs(pcs_tc: dict[str, Any] | None = None, cliques: dict[str, dict[str, Any] | None] | None = None,
        groups: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    cliques = cliques if cliques is not None else {"worker": None}
    cs = []
    for name, ctc in cliques.items():
        c: dict[str, Any] = {"name": name, "spec": {"roleName": f"{name}-role", "replicas": 1,
                                                     "podSpec": {"containers": [{"name": "c", "image": "x"}]}}}
        if ctc is not None:
            c["topologyConstraint"] = ctc
        cs.append(c)
    t: dict[str, Any] = {"cliques": cs}
    if pcs_tc is not None:
        t["topologyConstraint"] = pcs_tc
    if groups:
        t["podCliqueScalingGroups"] = groups
    return {"apiVersion": "grove.io/v1alpha1", "kind": "PodCliqueSet",
            "metadata": {"name": "test-pcs", "namespace": "default"}, "spec": {"replicas": 1, "template": t}}


def errs(p: dict[str, Any], settings: GroveSettings = TAS) -> list[tuple[str, str, str]]:
    return [(d.rule, d.field, d.message) for d in validate_pcs(p, settings) if d.severity == "error"]


def narrower(pkind: str, pd: str, ckind: str, cname: str, cd: str) -> str:
    return f"{pkind} topology constraint domain '{pd}' is narrower than {ckind} '{cname}' topology constraint domain '{cd}'"


def test_hierarchy_accepts_broader_parent_and_same_level() -> None:
    assert errs(pcs(tc("zone"), {"worker": tc("host")})) == []
    assert errs(pcs(tc("zone"), {"worker": tc("zone")})) == []


def test_hierarchy_pcs_narrower_than_clique() -> None:
    assert errs(pcs(tc("host"), {"worker": tc("zone")})) == [
        ("grove.topology-hierarchy", f"{T}.topologyConstraint",
         'Invalid value: "host": ' + narrower("PodCliqueSet", "host", "PodClique", "worker", "zone"))]


def test_hierarchy_pcsg_narrower_than_clique() -> None:
    got = errs(pcs(None, {"worker": tc("zone")}, [{"name": "sg1", "cliqueNames": ["worker"], "topologyConstraint": tc("host")}]))
    assert got == [("grove.topology-hierarchy", f"{T}.podCliqueScalingGroups[0].topologyConstraint",
                    'Invalid value: "host": ' + narrower("PodCliqueScalingGroup 'sg1'", "host", "PodClique", "worker", "zone"))]


def test_hierarchy_multiple_levels() -> None:
    """"Should disallow topology constraints at multiple levels": 3 errors on the PCS, 2 on the PCSG."""
    got = errs(pcs(tc("numa"), {"worker1": tc("zone"), "worker2": tc("rack")},
                   [{"name": "sg1", "cliqueNames": ["worker1", "worker2"], "topologyConstraint": tc("host")}]))
    assert [p for _, p, _ in got] == [f"{T}.topologyConstraint"] * 3 + [f"{T}.podCliqueScalingGroups[0].topologyConstraint"] * 2


def test_preferred_hierarchy() -> None:
    got = errs(pcs(tc("zone", "host"), {"worker": tc("host", "rack")}))
    assert got == [("grove.topology-hierarchy", f"{T}.topologyConstraint.pack.preferred",
                    'Invalid value: "host": ' + narrower("PodCliqueSet", "host", "PodClique", "worker", "rack"))]


def test_unknown_domain_returns_early() -> None:
    """"Should return early when child domain is invalid even if hierarchy would be violated"."""
    p = pcs(tc("rack"), {"worker": tc("gpu-tray")})
    assert errs(p) == [("grove.topology-domain", f"{T}.cliques[0].topologyConstraint.pack.required",
                        'Invalid value: "gpu-tray": topology domain \'gpu-tray\' does not exist in cluster topology '
                        "[region zone rack host numa]")]


def test_binding_not_found() -> None:
    assert errs(pcs(tc("rack", name="other"))) == [
        ("grove.topology-binding", f"{T}.topologyConstraint.topologyName",
         'Invalid value: "other": ClusterTopologyBinding "other" not found')]


def test_topology_name_required_and_inherited() -> None:
    # "create allows child-only explicit topology constraint"
    assert errs(pcs(None, {"worker": tc("rack")})) == []
    # inherited from the PCS
    assert errs(pcs(tc("zone"), {"worker": tc("rack", name="")})) == []
    # nothing to inherit
    assert errs(pcs(None, {"worker": tc("rack", name="")})) == [
        ("grove.topology-name", f"{T}.cliques[0].topologyConstraint.topologyName",
         "Required value: topologyName is required when topologyConstraint is set and cannot be inherited")]


def test_child_topology_name_differs() -> None:
    """"create rejects child topologyName that differs from PCS"."""
    msg = "all topologyConstraint.topologyName values within a PodCliqueSet must match in the current implementation"
    assert errs(pcs(tc("zone"), {"worker": tc("rack", name="other")})) == [
        ("grove.topology-name", f"{T}.cliques[0].topologyConstraint.topologyName", f'Invalid value: "other": {msg}')]
    # two siblings naming different topologies: no inheritance conflict, but a PCS-wide one
    got = errs(pcs(None, {"a": tc("rack", name="t1"), "b": tc("rack", name="t2")}))
    assert got == [
        ("grove.topology-name", f"{T}.cliques[0].topologyConstraint.topologyName", f'Invalid value: "t1": {msg}'),
        ("grove.topology-name", f"{T}.cliques[1].topologyConstraint.topologyName", f'Invalid value: "t2": {msg}')]


def test_preferred_coarser_warning() -> None:
    ds = validate_pcs(pcs(tc("host", "zone")), TAS)
    assert [(d.rule, d.severity, d.message) for d in ds] == [
        ("grove.topology-preferred-redundant", "warning",
         "spec.template.topologyConstraint.pack.preferred is coarser than spec.template.topologyConstraint.pack.required "
         "and is redundant")]


def test_unknown_cluster_state_skips_lookups() -> None:
    assert errs(pcs(tc("anything", name="whatever")), GroveSettings(tas_enabled=True)) == []


def test_backend_rejects_topology() -> None:
    p = pcs(None, {"worker": tc("rack")})
    p["spec"]["template"]["cliques"][0]["spec"]["podSpec"]["schedulerName"] = "lpx-scheduler"
    got = errs(p, GroveSettings(tas_enabled=True, cluster_topologies={"test-topology": DOMAINS},
                                enabled_schedulers=("default-scheduler", "lpx-scheduler")))
    assert [(r, f) for r, f, _ in got] == [("grove.backend", "spec")]
    assert got[0][2].endswith(": lpx-scheduler does not support Grove topology constraints; placement topology must "
                              "be expressed through the LPX workload contract")
