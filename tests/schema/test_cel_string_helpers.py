"""String helpers behind CEL rules, checked without the engine (cel-expr-python has no wheels for every
Python the suite runs on): cel-go ``ext/strings.go`` ``split`` (Go ``strings.SplitN``) and the rule's
``fieldPath`` as apiextensions-apiserver reads it (``ValidFieldPath`` / ``unescapeSingleQuote``)."""

from __future__ import annotations

import pytest

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _cel_engine as E


@pytest.mark.parametrize(
    ("n", "expected"),
    [(-1, ["a", "b", "c"]), (1, ["abc"]), (2, ["a", "bc"]), (3, ["a", "b", "c"]), (5, ["a", "b", "c"]), (0, [])],
)
def test_split_on_empty_separator_is_go_explode(n: int, expected: list[str]) -> None:
    """Go ``strings.SplitN(s, "", n)`` (``explode``): one piece per code point, at most ``n`` with the rest in
    the last; a negative ``n`` (or one past the length) splits every code point, ``0`` gives none."""
    assert E._split("abc", "", n) == expected


def test_field_path_single_quoted_escapes() -> None:
    """``['...']`` names a key verbatim; ``\\'`` and ``\\\\`` are a quote and a backslash (``unescapeSingleQuote``)."""
    assert C._field_path("['a\\'b']") == ("a'b",)
    assert C._field_path(".x['c\\\\d'].y") == ("x", "c\\d", "y")
    assert C._field_path(".spec['a.b']") == ("spec", "a.b")
