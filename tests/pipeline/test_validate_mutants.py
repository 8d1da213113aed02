"""``_pipeline._validate``: the image hint of ``*.runtime-version-override-required`` and the update of a
DGD whose manifest moved between API versions."""

from __future__ import annotations

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
