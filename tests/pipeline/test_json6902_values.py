"""``_pipeline._json6902.check``: a kustomize JSON6902 patch document's values checked against the schema of
their target's ``path`` (RFC 6901 pointers; RFC 6902 ``add`` with a final ``-`` appends to an array, so its
value is one array item), and the note when the target is unknown."""

from __future__ import annotations

from dynamo_schema._pipeline._json6902 import TARGET_UNKNOWN, check
from dynamo_schema._pipeline._kustomize import PatchTarget

DGD = PatchTarget(api_version="nvidia.com/v1beta1", kind="DynamoGraphDeployment", name="")


def _rules(ops: list, target: PatchTarget | None = DGD) -> list[tuple[str, str]]:
    return [(d.rule, d.severity) for d in check(ops, target)]


def test_append_with_dash_checks_the_value_as_one_array_item() -> None:
    """RFC 6902 §4.1: ``/spec/components/-`` appends; the value is a component, checked as an items entry."""
    good = [{"op": "add", "path": "/spec/components/-", "value": {"name": "Worker", "type": "worker"}}]
    assert [r for r in _rules(good) if r[1] == "error"] == []
    bad = [{"op": "add", "path": "/spec/components/-", "value": {"name": "Worker", "type": "worker", "replicas": "two"}}]
    diags = [d for d in check(bad, DGD) if d.severity == "error"]
    assert diags and all(d.rule != "patch.unknown-path" for d in diags)
    assert any(d.path[:2] == (0, "value") for d in diags)


def test_a_target_without_kind_is_noted_not_checked() -> None:
    """A kustomization target that names no kind: the values are not checked, one note says so, and the
    shape problems found before are kept."""
    ops = [{"op": "add", "path": "/spec/x", "value": 1}, {"op": "bogus", "path": "/a"}]
    got = check(ops, PatchTarget(api_version="", kind="", name=""))
    assert [d.rule for d in got if d.rule == TARGET_UNKNOWN] == [TARGET_UNKNOWN]
    assert got[-1].rule == TARGET_UNKNOWN and got[-1].severity == "note"
    assert any(d.rule == "patch.json6902" and d.path[0] == 1 for d in got)
