"""Grove scaling groups: a single-node component with ``experimental.grove.forceScalingGroup`` renders as a
one-clique PodCliqueScalingGroup carrying the replicas and minAvailable.

Expected values come from upstream code and tests at the reference revision (ai-dynamo/dynamo
2a6da14c, ``deploy/operator/`` prefix omitted); each test names its source.
"""

from __future__ import annotations

from ._grove_fixtures import _dgd, _grove


def test_single_node_force_scaling_group() -> None:
    # graph_test.go TestGenerateGrovePodCliqueSet_SingleNodeForceScalingGroup.
    comp = {"name": "worker", "type": "worker", "replicas": 4, "minAvailable": 2,
            "experimental": {"grove": {"forceScalingGroup": True}},
            "podTemplate": {"spec": {"containers": [{"name": "main", "image": "img",
                                                     "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}
    dgd = _dgd([comp])
    dgd["metadata"]["namespace"] = "test-ns"
    template = _grove(dgd)["spec"]["template"]
    assert [c["name"] for c in template["cliques"]] == ["worker"]
    clique = template["cliques"][0]
    assert clique["spec"]["replicas"] == 1
    assert clique["spec"]["minAvailable"] == 1
    groups = template["podCliqueScalingGroups"]
    assert len(groups) == 1
    assert groups[0]["name"] == "worker"
    assert groups[0]["cliqueNames"] == ["worker"]
    assert groups[0]["replicas"] == 4
    assert groups[0]["minAvailable"] == 2
