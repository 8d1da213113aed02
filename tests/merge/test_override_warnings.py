"""Override warnings: the legacy-name translation warning follows the metadata warnings, and an override with
neither apiVersion nor kind is read as v1alpha1 with a warning.

Sub-tests of upstream ``TestApplyRejectsInvalidInput`` (and the profiler adapter) that are not in the
transcribed case files; expected texts from dgdr-and-overrides.md §11.1, §12, §16.
"""

from __future__ import annotations

import pytest

from dynamo_schema._merge import apply_overrides
from tests.merge._support import BETA_BP, CRDS, _beta, crd_schema_for

pytestmark = pytest.mark.skipif(not CRDS.is_dir(), reason="../shared CRDs not available")


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
