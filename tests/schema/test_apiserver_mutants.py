"""The API server's ObjectMeta checks beside the structural schema (``_schema/_apiserver.meta_errors``)."""

from __future__ import annotations

import pytest
import yaml

import dynamo_schema
from tests.oracles._operator_cases import CASES_DIR

CASE = CASES_DIR / "1093-dcd-grove-dcd-bad-name-denied.yaml"


@pytest.mark.skipif(not CASE.exists(), reason="operator-verified cases not available")
def test_metadata_name_is_checked_alongside_a_spec_schema_error() -> None:
    """Operator-verified case 1093 (API server at upstream 2a6da14c): a bad ``metadata.name`` is refused by the
    ObjectMeta checks even though the structural schema also refuses ``spec.name``; only a schema error under
    ``metadata`` (or an unknown field) skips them."""
    # mutant 53231f39cc2a
    case = yaml.safe_load(CASE.read_text())
    [result] = dynamo_schema.validate(case["input"], settings=dynamo_schema.AdmissionSettings(grove_enabled=True))
    got = {".".join(str(p) for p in d.path) for d in result.diagnostics if d.severity == "error"}
    want = {c["field"] for c in case["expected"]["causes"]}
    assert want == {"metadata.name", "spec.name"}
    assert want <= got
