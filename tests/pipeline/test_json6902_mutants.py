"""``_pipeline._json6902``: a JSON6902 patch on a built-in kind has its values checked against the bundled
Kubernetes schema (the value placed in a skeleton object at the pointer). Mutants the suite left alive
(issue 24)."""

from __future__ import annotations

from dynamo_schema._pipeline._json6902 import check
from dynamo_schema._pipeline._kustomize import PatchTarget

DEPLOYMENT = PatchTarget(api_version="apps/v1", kind="Deployment", name="")


def _errors(ops: list) -> list[tuple[str, tuple]]:
    return [(d.rule, tuple(d.path)) for d in check(ops, DEPLOYMENT) if d.severity == "error"]


def test_a_builtin_value_is_checked_at_its_pointer() -> None:
    """k8s.io/api apps/v1: ``DeploymentSpec.replicas`` is an int32, ``Container.image`` a string."""
    # mutants 9ba33bec76d8 (the skeleton loop never runs), d847cb995096 (ptr[n + 1] -> ptr[n + 2])
    assert _errors([{"op": "replace", "path": "/spec/replicas", "value": "two"}]) == [("k8s-schema.type", (0, "value"))]
    assert _errors([{"op": "replace", "path": "/spec/replicas", "value": 2}]) == []
    assert _errors([{"op": "add", "path": "/spec/template/spec/containers/0/image", "value": 5}]) == [
        ("k8s-schema.type", (0, "value"))]
    # RFC 6902 §4.1: a final "-" appends one array item
    assert _errors([{"op": "add", "path": "/spec/template/spec/containers/-",
                     "value": {"name": "x", "image": 7}}]) == [("k8s-schema.type", (0, "value", "image"))]


def test_a_versionless_dynamo_target_takes_the_version_with_fewer_errors() -> None:
    """docs/decisions.md D51: a target without a version is checked against each served version of a Dynamo
    kind and the best fit is used: fewest paths that version does not have, then fewest errors. Here each
    version lacks one path (``spec.components`` is v1beta1's, ``spec.services`` v1alpha1's); v1beta1 also
    refuses ``replicas: two`` (an integer), so v1alpha1 fits better and its one problem is reported."""
    # mutant 4b9ef04fd333 (d.severity == "error" -> !=)
    ops = [{"op": "replace", "path": "/spec/components/0/replicas", "value": "two"},
           {"op": "replace", "path": "/spec/services/W/replicas", "value": 2}]
    got = check(ops, PatchTarget(api_version="", kind="DynamoGraphDeployment", name=""))
    assert [(d.rule, tuple(d.path), d.severity) for d in got] == [("patch.unknown-path", (0, "path"), "error")]
