"""A loaded document (``_core/_document.py``, ``_core/_record.py``) and the index the loader gives each
document of a stream (``_io/_load.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._core._document import Document
from dynamo_schema._io import _builder
from dynamo_schema._io._load import load

TEXT = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
data:
  k: v
"""


def test_repr_is_the_dataclass_repr() -> None:
    """A record's repr is what ``dataclasses`` writes for the same fields: ``Name(field=value!r, ...)``."""
    twin = dataclasses.make_dataclass("Document", ["data", "file", "index", "positions", "start"])
    args = ({"kind": "X"}, "f.yaml", 2, {(): (3, 1)}, (3, 1))
    assert repr(Document(*args)) == repr(twin(*args))


def test_locate_falls_back_to_the_nearest_located_ancestor() -> None:
    """A finding about a node that has no position of its own (e.g. a missing child) is placed at its
    parent, else at the parent's parent, ..., else at the document's start."""
    (doc,) = load(TEXT, "m.yaml").documents
    assert doc.locate(("data", "k")) == (6, 3)
    assert doc.locate(("data", "k", "missing")) == (6, 3)
    assert doc.locate(("data", "missing", "deeper")) == (5, 1)
    assert doc.locate(("metadata", "name", "x", "y")) == (4, 3)
    assert doc.locate(("nowhere", "a", "b")) == (1, 1)
    assert doc.place(Diagnostic("x", ("metadata", "name", "x"), "m")).line == 4


def test_a_document_too_deep_to_build_still_takes_its_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The document index is the document's position in the stream (0-based): one that cannot be built
    (here: Python's recursion limit while building it) is reported and the next one is still index 1."""
    real = _builder._Builder.build
    calls = {"roots": 0}

    def build(self: Any, node: Any, path: Any) -> Any:
        if path == ():
            calls["roots"] += 1
            if calls["roots"] == 1:
                raise RecursionError
        return real(self, node, path)

    monkeypatch.setattr(_builder._Builder, "build", build)
    result = load(TEXT + "---\n" + TEXT + "---\n" + TEXT, "m.yaml")
    assert [d.rule for d in result.errors] == ["load.too-deep"]
    assert (result.errors[0].line, result.errors[0].column) == (1, 1)
    assert [d.index for d in result.documents] == [1, 2]


def test_equal_records_built_separately_compare_equal() -> None:
    """Dataclass value equality, field by field, not identity (docs/decisions.md D32: the written-out
    records behave as the dataclasses they replaced). Mutant d4aa9344eb2b."""
    a = Diagnostic("schema.type", ("spec", 0), "bad", file="f.yaml", line=2, column=3)
    b = Diagnostic("schema.type", ("spec", 0), "bad", file="f.yaml", line=2, column=3)
    assert a == b and not (a != b)
    assert load(TEXT).documents[0] == load(TEXT).documents[0]


def test_a_non_mapping_document_takes_its_index() -> None:
    """The document index is the document's position in the stream (0-based, see the test above): a
    document that is not a mapping is reported and still counts. Mutant 5a95a1672269."""
    result = load("- a\n---\n" + TEXT, "m.yaml")
    assert [d.rule for d in result.errors] == ["load.not-a-mapping"]
    assert [d.index for d in result.documents] == [1]


def test_list_item_problems_go_to_the_item_and_the_rest_stay_with_the_list() -> None:
    """A ``kind: List`` is one resource per item (docs/cli.md): a problem inside an item is that item's
    (once), a problem elsewhere in the List is the List's own. Mutant f28f99d123e6."""
    text = "kind: List\nmetadata:\n  x:\n    ? [b]\n    : 2\nitems:\n- kind: X\n  ? [a]\n  : 1\n"
    result = load(text, "l.yaml")
    assert [(d.rule, d.path, d.line) for d in result.errors] == [("load.unsupported-key", ("metadata", "x"), 4)]
    assert [[(d.rule, d.path, d.line) for d in ds] for ds in result.document_diagnostics] == [
        [("load.unsupported-key", (), 8)]]
