"""Override rejections: invalid overrides (missing apiVersion, null label, missing merge key, colliding
translated targets, an empty appended arg) raise MergeError with the upstream message.

Sub-tests of upstream ``TestApplyRejectsInvalidInput`` (and the profiler adapter) that are not in the
transcribed case files; expected texts from dgdr-and-overrides.md §11.1, §12, §16.
"""

from __future__ import annotations

import pytest

from dynamo_schema._merge import MergeError, apply_overrides
from tests.merge._support import BETA_BP, CRDS, _beta, crd_schema_for

pytestmark = pytest.mark.skipif(not CRDS.is_dir(), reason="../shared CRDs not available")


@pytest.mark.parametrize(
    "override,message",
    [
        ({"kind": "DynamoGraphDeployment"}, 'got apiVersion "" kind "DynamoGraphDeployment"'),
        (
            _beta(metadata={"labels": {"existing": None}}),
            "override metadata.labels.existing must not be null",
        ),
        (_beta({"components": [{"replicas": 2}]}), "spec.components[0].name must be a non-empty string"),
        (
            _beta({"components": [{"name": "VllmWorker", "replicas": 2}, {"name": "worker", "replicas": 3}]}),
            'override targets "VllmWorker" and "worker" both resolve to generated component "worker"',
        ),
    ],
    ids=["missing-override-version", "null-label", "missing-merge-key", "translated-collides"],
)
def test_rejections(override: dict, message: str) -> None:
    with pytest.raises(MergeError) as info:
        apply_overrides(BETA_BP, override, schema_for=crd_schema_for)
    assert message in str(info.value)


def test_args_append_rejects_an_empty_argument() -> None:
    """dgdoverride (override.go) `$patch: {args: append}`: every appended arg must be non-empty, named as args[i]."""
    blueprint = {**BETA_BP, "spec": {"backendFramework": "vllm", "components": [
        {"name": "Frontend", "type": "frontend"},
        {"name": "worker", "type": "worker",
         "podTemplate": {"spec": {"containers": [{"name": "main", "image": "img", "args": ["--base"]}]}}}]}}
    override = _beta({"components": [{"name": "worker", "podTemplate": {"spec": {"containers": [
        {"name": "main", "$patch": {"args": "append"}, "args": ["--extra", ""]}]}}}]})
    with pytest.raises(MergeError) as info:
        apply_overrides(blueprint, override, schema_for=crd_schema_for)
    assert ("beta override spec.components[0].podTemplate.spec.containers[0].args[1] must be non-empty when "
            "$patch args is append") in str(info.value)
