"""Grove topology constraints: the DGD's and components' topologyConstraint on the PodCliqueSet template,
its cliques and scaling groups (grove.md §8.7).

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from typing import Any

import pytest

from ._grove_fixtures import _dgd, _grove

# ---------------------------------------------------------------- topology (grove.md §8.7)
# graph_test.go TestGenerateGrovePodCliqueSet_TopologyConstraints (v1alpha1 topologyProfile is the
# v1beta1 clusterTopologyName). Grove's Go field Pack.RequiredDomain is serialised as
# ``pack.required`` (grove operator/api v0.1.0-alpha.12-rc1, the version in the reference go.mod).

def _worker(tc: str | None, nodes: int = 1) -> dict[str, Any]:
    comp: dict[str, Any] = {"name": "Worker", "type": "worker", "replicas": 2}
    if nodes > 1:
        comp["multinode"] = {"nodeCount": nodes}
    if tc:
        comp["topologyConstraint"] = {"packDomain": tc}
    return comp


TOPOLOGY_CASES = [
    # name, spec topologyConstraint, component, want PCS TC, want clique TCs, want PCSG TCs
    ("no topology constraints", None, _worker(None), None, {"worker": None}, {}),
    ("single-node with spec and component constraints",
     {"clusterTopologyName": "test-topology", "packDomain": "zone"}, _worker("rack"),
     {"topologyName": "test-topology", "pack": {"required": "zone"}}, {"worker": {"pack": {"required": "rack"}}}, {}),
    ("service-only constraint: topology name explicit on clique",
     {"clusterTopologyName": "test-topology"}, _worker("rack"),
     None, {"worker": {"topologyName": "test-topology", "pack": {"required": "rack"}}}, {}),
    ("multinode: constraint on PCS template and PCSG, not clique",
     {"clusterTopologyName": "test-topology", "packDomain": "zone"}, _worker("block", nodes=4),
     {"topologyName": "test-topology", "pack": {"required": "zone"}}, {"worker-ldr": None, "worker-wkr": None},
     {"worker": {"pack": {"required": "block"}}}),
    ("service-only multinode: topology name explicit on scaling group",
     {"clusterTopologyName": "test-topology"}, _worker("block", nodes=4),
     None, {"worker-ldr": None, "worker-wkr": None},
     {"worker": {"topologyName": "test-topology", "pack": {"required": "block"}}}),
]


@pytest.mark.parametrize(("spec_tc", "component", "want_pcs", "want_cliques", "want_groups"),
                         [c[1:] for c in TOPOLOGY_CASES], ids=[c[0] for c in TOPOLOGY_CASES])
def test_grove_topology_constraints(spec_tc: Any, component: dict[str, Any], want_pcs: Any,
                                    want_cliques: dict[str, Any], want_groups: dict[str, Any]) -> None:
    spec = {"topologyConstraint": spec_tc} if spec_tc else {}
    pcs = _grove(_dgd([component], **spec))
    template = pcs["spec"]["template"]
    assert template.get("topologyConstraint") == want_pcs
    assert {c["name"]: c.get("topologyConstraint") for c in template["cliques"]} == want_cliques
    assert {g["name"]: g.get("topologyConstraint") for g in template.get("podCliqueScalingGroups") or []} == want_groups


def test_component_without_pack_domain_has_no_constraint() -> None:
    # toGroveTopologyConstraint: nil when the component constraint is nil or has an empty packDomain.
    comp = {"name": "worker", "type": "worker", "topologyConstraint": {"packDomain": ""}}
    pcs = _grove(_dgd([comp], topologyConstraint={"clusterTopologyName": "t"}))
    assert "topologyConstraint" not in pcs["spec"]["template"]["cliques"][0]
    assert "topologyConstraint" not in pcs["spec"]["template"]
