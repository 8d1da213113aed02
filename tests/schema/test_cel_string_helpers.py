"""String helpers behind CEL rules, checked without the engine (cel-expr-python has no wheels for every
Python the suite runs on): cel-go ``ext/strings.go`` ``split`` (Go ``strings.SplitN``) and the rule's
``fieldPath`` as apiextensions-apiserver reads it (``ValidFieldPath`` / ``unescapeSingleQuote``)."""

from __future__ import annotations

import pytest

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _cel_engine as E
from dynamo_schema._schema._nodes import compile_schema


@pytest.mark.parametrize(
    ("n", "expected"),
    [(-1, ["a", "b", "c"]), (1, ["abc"]), (2, ["a", "bc"]), (3, ["a", "b", "c"]), (5, ["a", "b", "c"]), (0, [])],
)
def test_split_on_empty_separator_is_go_explode(n: int, expected: list[str]) -> None:
    """Go ``strings.SplitN(s, "", n)`` (``explode``): one piece per code point, at most ``n`` with the rest in
    the last; a negative ``n`` (or one past the length) splits every code point, ``0`` gives none."""
    assert E._split("abc", "", n) == expected


# A map (``additionalProperties``) under ``m`` and named properties elsewhere: ``ValidFieldPath`` resolves each
# step against the schema it has reached, so the keys below are map keys and the names are properties.
_FP_SCHEMA = {
    "type": "object",
    "properties": {
        "x": {"type": "object", "properties": {"y": {"type": "string"}}, "additionalProperties": False},
        "spec": {"type": "object", "properties": {"a.b": {"type": "string"}}},
        "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"y": {"type": "string"}}}},
        "s": {"type": "string"},
    },
}


def _fp(fp: str) -> tuple | None:
    return C._field_path(fp, compile_schema(_FP_SCHEMA))


def test_field_path_single_quoted_escapes() -> None:
    """``['...']`` names a key verbatim; ``\\'`` and ``\\\\`` are a quote and a backslash (``unescapeSingleQuote``)."""
    assert _fp("['m']['a\\'b']") == ("m", "a'b")
    assert _fp(".m['c\\\\d'].y") == ("m", "c\\d", "y")
    assert _fp(".spec['a.b']") == ("spec", "a.b")


# Expected values: kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/
# validation.go, ``unescapeSingleQuote`` (the regexp ``\\.`` and its switch: a b f n r t v ' \\, anything else
# is "invalid escape char") and ``ValidFieldPath`` (its scanner and the property / additionalProperties steps).
@pytest.mark.parametrize(
    ("inner", "want"),
    [
        ("\\a", "\a"), ("\\b", "\b"), ("\\f", "\f"), ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"),
        ("\\v", "\v"), ("\\'", "'"),
        ("l1\\nl2\\tx", "l1\nl2\tx"),
        ("\\\\n", "\\n"),  # an escaped backslash, then a plain n
        ("a\\\nb", "a\\\nb"),  # Go's "." does not match a newline: that backslash is not an escape
    ],
)
def test_field_path_key_escapes_are_kubernetes_escapes(inner: str, want: str) -> None:
    assert _fp(f".m['{inner}']") == ("m", want)


@pytest.mark.parametrize("inner", ["\\x", "\\d", "\\0", "\\u0041", '\\"', "\\é"])
def test_field_path_unknown_escape_makes_the_path_invalid(inner: str) -> None:
    """``unescapeSingleQuote``'s default case: "invalid escape char", so ``ValidFieldPath`` fails."""
    assert _fp(f".m['{inner}']") is None


@pytest.mark.parametrize(
    ("fp", "want"),
    [
        (".x.y", ("x", "y")),
        (".m.k.y", ("m", "k", "y")),  # a map key after "." too
        (".m['a.b[c]']", ("m", "a.b[c]")),  # delimiters inside quotes are text
        (".m['']", ("m", "")),
        (".s", ("s",)),
        # the scanner's quoted token ends at a quote not right after a backslash, so an escaped backslash at
        # the end of a key swallows the closing quote: the path runs out ("expected single quoted string")
        (".m['k\\\\']", None),
        (".x.z", None),  # "does not refer to a valid field"
        (".s.y", None),  # below a string: neither properties nor additionalProperties
        (".m[k]", None),  # "expected single quoted string"
        # a token closing but not opening with a quote is no quoted string either (mutant f1f6d7ff7ba8)
        (".m[k']", None),
        (".m[xy'].y", None),
        (".m['k'", None),  # "unexpected end of JSON path"
        (".m['k'.y", None),  # "expected ] but got ."
        ("x", None),  # "expected [ or . but got: x"
        (".", None),  # "unexpected end of JSON path"
    ],
)
def test_field_path_is_read_like_valid_field_path(fp: str, want: tuple | None) -> None:
    assert _fp(fp) == want


def test_invalid_field_path_reports_at_the_rule_node() -> None:
    """``compileRule`` (compilation.go) sets ``NormalizedRuleFieldPath`` only when ``ValidFieldPath`` succeeds;
    ``validateExpressions`` (validation.go) appends it when non-empty, else the error is on the rule's node."""
    rules = [{"rule": "false", "message": "good", "fieldPath": ".m['t\\tx']"},
             {"rule": "1 == 2", "message": "bad", "fieldPath": ".m['t\\qx']"}]
    schema = {"type": "object", "properties": {"spec": {**_FP_SCHEMA, "x-kubernetes-validations": rules}}}
    got = [(d.path, d.message) for d in C.validate_cel({"spec": {"m": {}}}, schema) if d.rule.startswith("cel.")]
    if any(d[1].startswith("rule not evaluated") for d in got):
        pytest.skip("no CEL engine on this Python")
    assert got == [(("spec", "m", "t\tx"), "Invalid value: good"), (("spec",), "Invalid value: bad")]
