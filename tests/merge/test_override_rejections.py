"""Sub-tests of upstream ``TestApplyRejectsInvalidInput`` (and the profiler adapter) that are not in
the transcribed case files; expected texts from dgdr-and-overrides.md §11.1, §12, §16."""

from __future__ import annotations

import pytest

from dynamo_schema._merge import MergeError, apply_overrides
from tests.merge._support import CRDS, crd_schema_for

pytestmark = pytest.mark.skipif(not CRDS.is_dir(), reason="../shared CRDs not available")

BETA_BP = {
    "apiVersion": "nvidia.com/v1beta1",
    "kind": "DynamoGraphDeployment",
    "metadata": {"name": "generated", "namespace": "default", "labels": {"existing": "x"}},
    "spec": {
        "backendFramework": "vllm",
        "components": [{"name": "Frontend", "type": "frontend"}, {"name": "worker", "type": "worker"}],
    },
}


def _beta(spec: dict | None = None, **top: object) -> dict:
    out: dict = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", **top}
    if spec is not None:
        out["spec"] = spec
    return out


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


def test_translation_warning_comes_after_metadata_warnings() -> None:
    override = _beta(
        {"components": [{"name": "VllmWorker", "replicas": 5}]},
        metadata={"name": "x", "annotations": {"nvidia.com/dgd-spec": "x", "ok": "y"}},
    )
    result = apply_overrides(BETA_BP, override, schema_for=crd_schema_for)
    assert result.warnings == [
        "metadata: ignored identity/runtime fields: name",
        "metadata.annotations: ignored reserved operator keys: nvidia.com/dgd-spec",
        (
            'spec.components[name=VllmWorker]: deprecated override target "VllmWorker" translated to "worker"; '
            'use "worker" directly. Legacy-name translation will be removed in a future release'
        ),
    ]
    worker = next(c for c in result.dgd["spec"]["components"] if c["name"] == "worker")
    assert worker["replicas"] == 5
    assert result.dgd["metadata"]["annotations"] == {"ok": "y"}
    dgd, warnings = result  # architecture contract: (dgd, warnings)
    assert dgd is result.dgd and warnings == result.warnings


def test_unversioned_override_is_legacy_alpha() -> None:
    """Profiler adapter ``_versioned_override``: neither apiVersion nor kind -> v1alpha1, with a warning."""
    result = apply_overrides(BETA_BP, {"spec": {"services": {"worker": {"replicas": 4}}}}, schema_for=crd_schema_for)
    assert result.warnings[0].startswith(
        "DGD override is missing apiVersion and kind; treating it as nvidia.com/v1alpha1 DynamoGraphDeployment."
    )
    assert result.dgd["apiVersion"] == "nvidia.com/v1beta1"
    assert next(c for c in result.dgd["spec"]["components"] if c["name"] == "worker")["replicas"] == 4


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
