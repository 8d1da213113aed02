"""Every DGDR in the reference corpus materializes into a DGD our models and checks accept."""

from __future__ import annotations

import pytest
import yaml

from dynamo_schema._dgdr import materialize
from dynamo_schema.models import DynamoGraphDeployment
from tests.dgdr._support import CORPUS


def _dgdrs() -> list[tuple[str, int, dict]]:
    if not CORPUS.is_dir():
        return []
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for i, doc in enumerate(yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader)):
            if isinstance(doc, dict) and doc.get("kind") == "DynamoGraphDeploymentRequest":
                out.append((path.name, i, doc))
    return out


DGDRS = _dgdrs()


def test_corpus_has_dgdrs() -> None:
    if not CORPUS.is_dir():
        pytest.skip("reference corpus not available")
    assert len(DGDRS) >= 7


@pytest.mark.parametrize("name,index,doc", DGDRS, ids=[f"{n}#{i}" for n, i, _ in DGDRS])
def test_corpus_dgdr_materializes(name: str, index: int, doc: dict) -> None:
    result = materialize(doc)
    dgd = result.dgd
    DynamoGraphDeployment.model_validate(dgd)
    assert dgd["metadata"]["name"] == doc["metadata"]["name"] + "-dgd"
    assert dgd["metadata"]["labels"]["dgdr.nvidia.com/name"] == doc["metadata"]["name"]
    assert dgd["metadata"]["labels"]["nvidia.com/managed-by"] == "dynamo-operator"
    assert result.notes  # the rapid-strategy defaults are always reported
    try:
        from dynamo_schema._pipeline import _validate
    except ImportError:  # pragma: no cover
        return
    diags, _ = _validate.check_nvidia(dgd, _validate.ValidateOptions())
    errors = [(d.rule, d.field, d.message) for d in diags if d.severity == "error"]
    assert errors == []


def test_corpus_inputs_are_not_mutated() -> None:
    import copy

    for _, _, doc in DGDRS:
        before = copy.deepcopy(doc)
        materialize(doc)
        assert doc == before
