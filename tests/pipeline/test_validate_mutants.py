"""``_pipeline._validate``: the image hint of ``*.runtime-version-override-required`` and the update of a
DGD whose manifest moved between API versions."""

from __future__ import annotations

import copy
from typing import Any

from dynamo_schema._convert._v1alpha1 import to_v1beta1
from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._pipeline._validate import runtime_image_hints

DGD = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "m"},
       "spec": {"components": [{"name": "W", "type": "worker", "podTemplate": {"spec": {"containers": [
           {"name": "main", "image": "nvcr.io/x/vllm-runtime:latest"}]}}}]}}


def test_the_image_hint_is_only_for_the_override_field() -> None:
    """The hint (docs/decisions.md D52) is for upstream's error at the ``runtimeVersionOverride`` field the
    manifest lacks: a note at the main image, and the error moved there. A diagnostic of that rule name at
    another field (a registered kind's webhook may give any rule and path) is left alone."""
    # mutant 4f5988c4d750
    rule = "dgd.runtime-version-override-required"
    at_field = Diagnostic(rule, ("spec", "components", 0, "runtimeVersionOverride"), "Required value")
    out, at = runtime_image_hints(DGD, [at_field])
    image = ("spec", "components", 0, "podTemplate", "spec", "containers", 0, "image")
    assert [(d.rule, d.path, d.severity) for d in out[1:]] == [("dgd.runtime-version-image", image, "note")]
    assert at == {id(at_field): image}
    for path in (("spec", "components", 0, "version"), ("spec", "components", 0)):
        other = Diagnostic(rule, path, "Required value")
        assert runtime_image_hints(DGD, [other]) == ([other], {}), path


ALPHA = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "m", "namespace": "ns"},
         "spec": {"backendFramework": "vllm", "services": {"Worker": {
             "componentType": "worker", "replicas": 2,
             "extraPodSpec": {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}}}}}}


def _update(new: dict[str, Any], old: dict[str, Any]) -> list[tuple[str, str, str]]:
    import dynamo_schema

    return [(d.rule, d.field, d.message) for r in dynamo_schema.validate(new, old=old) for d in r.diagnostics]


def test_a_type_change_is_refused_in_the_version_each_manifest_was_written_in() -> None:
    """The CRDs' CEL rule (upstream's DGD admission tests: "v1alpha1 componentType change is rejected by CEL",
    ``spec.services[worker]: Invalid value: componentType is immutable after it is set``; "v1beta1 type change
    is rejected by CEL", ``spec.components[1]: Invalid value: type is immutable after it is set``) runs on the
    request's version: both manifests v1alpha1, the v1alpha1 rule at the service; a v1beta1 manifest
    applied over an object created from a v1alpha1 one, the v1beta1 rule at the component."""
    # mutant 5e771298a83a
    alpha = copy.deepcopy(ALPHA)
    alpha["spec"]["services"]["Worker"]["componentType"] = "prefill"
    assert _update(alpha, ALPHA) == [
        ("cel.type-immutable", "spec.services.Worker", "Invalid value: componentType is immutable after it is set")]
    beta = to_v1beta1(copy.deepcopy(ALPHA))
    assert _update(beta, ALPHA) == []  # the same object, now written as v1beta1
    beta["spec"]["components"][0]["type"] = "prefill"
    assert _update(beta, ALPHA) == [
        ("cel.type-immutable", "spec.components[0]", "Invalid value: type is immutable after it is set")]


def test_the_image_hint_skips_an_extra_pod_spec_that_is_not_a_mapping() -> None:
    """Non-strict, the API server drops an unknown field (here a v1beta1 component's ``extraPodSpec``, a
    v1alpha1 name, given as a list) with a warning and the webhook sees the rest: upstream's
    ``spec.components[0].runtimeVersionOverride: Required value: is required when the specified main container
    image has no parseable semantic-version tag`` (dynamographdeployment_validation_envtest_test.go) for the
    ``:latest`` image. The hint looks for a v1alpha1 ``extraPodSpec.mainContainer`` first; a list there holds
    no such key, so the hint is the podTemplate's main image (docs/decisions.md D52), not a crash."""
    # mutant 3fbdf72e1cfa (isinstance(node, list) and isinstance(k, int) ... -> or)
    import dynamo_schema

    dgd = copy.deepcopy(DGD)
    dgd["spec"]["components"][0]["extraPodSpec"] = [1]
    got = [(d.rule, d.field, d.severity) for r in dynamo_schema.validate(dgd, strict=False) for d in r.diagnostics]
    assert got == [
        ("schema.unknown-field", "spec.components[0].extraPodSpec", "warning"),
        ("dgd.runtime-version-override-required", "spec.components[0].runtimeVersionOverride", "error"),
        ("dgd.runtime-version-image", "spec.components[0].podTemplate.spec.containers[0].image", "note")]


def test_an_unknown_field_is_reported_once() -> None:
    """Non-strict, the API server drops an unknown field and warns once (``unknown field "spec.foo"``);
    the second schema pass on the webhook-patched object must not report the decoding findings again."""
    # mutant 3eac603ae436 (ignore=_DECODE_NOTES | {...} -> &; now _structural.DECODING_RULES)
    import dynamo_schema

    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment", "metadata": {"name": "m"},
           "spec": {"backendFramework": "vllm", "foo": 1, "podTemplate": {"spec": {"containers": [
               {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}]}}}}
    got = [(d.rule, d.field, d.severity) for r in dynamo_schema.validate(dcd, strict=False) for d in r.diagnostics]
    assert got == [("schema.unknown-field", "spec.foo", "warning")]


def test_alpha_path_of_a_component_index_the_object_does_not_have() -> None:
    """alpha_path's docstring: ``spec.components[i]`` becomes ``spec.services.<component name>``; an index past
    the converted object's components names no component, so the path stops at ``spec.services`` (inexact)
    instead of failing."""
    # mutant a7848b1753d3 (0 <= path[2] < len(comps) -> 0 <= path[2] is not len(comps): comps[path[2]] indexed)
    from dynamo_schema._pipeline._validate import alpha_path

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "m"},
             "spec": {"services": {"W": {"componentType": "worker"}}}}
    beta = {"spec": {"components": [{"name": "W"}]}}
    assert alpha_path(("spec", "components", 0, "replicas"), alpha, beta) == (("spec", "services", "W", "replicas"), True)
    assert alpha_path(("spec", "components", 3, "replicas"), alpha, beta) == (("spec", "services"), False)
