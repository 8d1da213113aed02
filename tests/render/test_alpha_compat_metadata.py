"""v1alpha1 compatibility metadata: a converted v1alpha1 DGD's DCDs keep dynamoNamespace, subComponentType,
annotations and labels, and the preserved labels/annotations reach the Deployment pod template and the
Grove cliques.

Expected values come from upstream tests (ai-dynamo/dynamo, ``deploy/operator/`` prefix omitted):
reference revision 2a6da14c ``internal/dynamo/graph_test.go`` (named per test below).
"""

from __future__ import annotations

from dynamo_schema._render import RenderOptions, render
from dynamo_schema._render._graph import generate_dcds

from ._dgd_fixtures import _cliques

# ---------------------------------------------------------------- v1alpha1 compatibility metadata


def test_generated_dcd_keeps_alpha_compatibility_fields() -> None:
    # graph_test.go: GenerateDynamoComponentsDeployments of a converted v1alpha1 DGD keeps
    # dynamoNamespace, subComponentType, annotations and labels (GetDCD* helpers)
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._render._alphacompat import dcd_preserved_annotations, dcd_preserved_labels
    from dynamo_schema._render._workloads import dcd_dynamo_namespace, dcd_sub_component_type

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "test-dgd", "namespace": "default"},
             "spec": {"services": {"frontend": {
                 "serviceName": "frontend", "dynamoNamespace": "custom-ns", "componentType": "frontend",
                 "subComponentType": "legacy-sub", "annotations": {"legacy-annotation": "kept"},
                 "labels": {"legacy-label": "kept"},
                 "ingress": {"enabled": True, "host": "legacy.example", "ingressControllerClassName": "nginx"}}}}}
    dcd = generate_dcds(to_v1beta1(alpha), "", "default")[0]
    assert dcd_dynamo_namespace(dcd, "default") == "custom-ns"
    assert dcd_sub_component_type(dcd) == "legacy-sub"
    assert dcd_preserved_annotations(dcd) == {"legacy-annotation": "kept"}
    assert dcd_preserved_labels(dcd) == {"legacy-label": "kept"}


def test_preserved_alpha_metadata_reaches_workloads() -> None:
    # GetDCDKubeLabels / GetDCDKubeAnnotations (Deployment pod template) and generateLabels /
    # generateAnnotations (Grove cliques) merge the preserved alpha labels/annotations.
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "test-dgd", "namespace": "default"},
             "spec": {"backendFramework": "vllm", "services": {"worker": {
                 "componentType": "worker", "labels": {"legacy-label": "kept"},
                 "annotations": {"legacy-annotation": "kept"}}}}}
    beta = to_v1beta1(alpha)
    deployment = next(o for o in render(beta, "kubernetes", RenderOptions(namespace="default"))
                      if o["kind"] == "Deployment")
    meta = deployment["spec"]["template"]["metadata"]
    assert meta["labels"]["legacy-label"] == "kept"
    assert meta["annotations"]["legacy-annotation"] == "kept"
    clique = _cliques(render(beta, "grove", RenderOptions(namespace="default")))["worker"]
    assert clique["labels"]["legacy-label"] == "kept"
    assert clique["annotations"]["legacy-annotation"] == "kept"
