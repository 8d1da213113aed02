"""Every upstream v1beta1 DGD / DCD / DGDR manifest validates cleanly (strict).

Speed is measured in ``benchmarks/run.py walk``, never asserted here."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _structural as S

from ._crds import CORPUS, FILES, crd_schema


def _docs() -> list[tuple[str, int, dict[str, Any]]]:
    if not CORPUS.is_dir():
        return []
    out = []
    for f in sorted(CORPUS.glob("*.yaml")):
        for i, doc in enumerate(yaml.load_all(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)):
            if (
                isinstance(doc, dict)
                and doc.get("apiVersion") == "nvidia.com/v1beta1"
                and doc.get("kind") in FILES
            ):
                out.append((f.name, i, doc))
    return out


DOCS = _docs()


def test_corpus_is_there() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared corpus is not available")
    kinds = {d["kind"] for _, _, d in DOCS}
    # upstream has no standalone DCD manifests (spec/dgd-dcd-model.md)
    assert {"DynamoGraphDeployment", "DynamoGraphDeploymentRequest"} <= kinds, kinds
    assert len(DOCS) == 128


@pytest.mark.parametrize("name,index,doc", DOCS, ids=[f"{n}#{i}" for n, i, _ in DOCS])
def test_corpus_document_is_valid_against_crd(name: str, index: int, doc: dict[str, Any]) -> None:
    schema = crd_schema(doc["kind"])
    diags = S.validate(doc, schema, strict=True)
    assert [(d.rule, d.field, d.message) for d in diags if d.severity == "error"] == []
    assert C.validate_cel(doc, schema, structural=diags) == []


def _generated(kind: str) -> dict[str, Any]:
    from dynamo_schema._schema import _schemas

    return _schemas.load("nvidia.com", kind, "v1beta1")


@pytest.mark.parametrize("name,index,doc", DOCS, ids=[f"{n}#{i}" for n, i, _ in DOCS])
def test_corpus_document_is_valid_against_generated_schema(
    name: str, index: int, doc: dict[str, Any]
) -> None:
    """Same documents against the ``$ref``/``$defs`` JSON Schema generated from the models."""
    schema = _generated(doc["kind"])
    diags = S.validate(doc, schema, strict=True)
    assert [(d.rule, d.field, d.message) for d in diags if d.severity == "error"] == []
    assert C.validate_cel(doc, schema, structural=diags) == []


def test_compiled_schema_is_cached() -> None:
    schema = crd_schema("DynamoGraphDeployment")
    assert S.compile_schema(schema) is S.compile_schema(schema)
