"""The implementations behind the Kubernetes CEL list library's ``indexOf`` / ``lastIndexOf`` (``_cel_engine``),
checked without the engine (cel-expr-python has no wheels for every Python the suite runs on).

Kubernetes ``staging/src/k8s.io/apiserver/pkg/cel/library/lists.go``: ``indexOf`` / ``lastIndexOf`` return the
first / last index of an element equal to the argument, ``-1`` when the list holds none.
"""

from __future__ import annotations

from dynamo_schema._schema import _cel_engine as E


def test_index_of_first_match_or_minus_one() -> None:
    """``[1, 2, 1].indexOf(1) == 0``; an absent element gives -1 (lists.go ``indexOf``)."""
    assert E._list_index_of([1, 2, 1], 1) == 0
    assert E._list_index_of([1, 2, 1], 3) == -1
    assert E._list_index_of([], 1) == -1


def test_last_index_of_last_match_or_minus_one() -> None:
    """``[1, 2, 1].lastIndexOf(1) == 2``; an absent element gives -1 (lists.go ``lastIndexOf``)."""
    assert E._list_last_index_of([1, 2, 1], 1) == 2
    assert E._list_last_index_of([1, 2, 1], 2) == 1
    assert E._list_last_index_of(["a"], "b") == -1
    assert E._list_last_index_of([], 1) == -1
