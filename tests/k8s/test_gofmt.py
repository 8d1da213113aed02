"""dynamo_schema._k8s._gofmt against Go's documented outputs (strconv, fmt, encoding/json, apimachinery
field.Error.ErrorBody)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._k8s import _gofmt as G


@pytest.mark.parametrize(
    ("s", "want"),
    [
        # strconv.Quote: short escapes for \a \b \f \n \r \t \v \\ \"
        ("a\x07b", '"a\\ab"'),
        ("\b\f\n\r\t\v", '"\\b\\f\\n\\r\\t\\v"'),
        ('say "hi" \\', '"say \\"hi\\" \\\\"'),
        # the strconv.Quote package example: printable runes (☺, &, ') are kept
        ("\"Fran & Freddie's Diner\t☺\"", "\"\\\"Fran & Freddie's Diner\\t☺\\\"\""),
        # other control characters: \xhh below U+0080, \uhhhh / \Uhhhhhhhh above, lower-case hex
        ("\x00\x1b\x7f", '"\\x00\\x1b\\x7f"'),
        ("\x85", '"\\u0085"'),
        ("a\u00a0b", '"a\\u00a0b"'),  # NO-BREAK SPACE is not IsPrint (only U+0020 is)
        ("\u2028", '"\\u2028"'),
        ("\U000e0001", '"\\U000e0001"'),
        ("héllo 世界 😀", '"héllo 世界 😀"'),
        ("", '""'),
    ],
)
def test_go_quote_is_strconv_quote(s: str, want: str) -> None:
    assert G.go_quote(s) == want


@pytest.mark.parametrize(
    ("f", "want"),
    [
        # fmt %v of a float64 = strconv.FormatFloat(f, 'g', -1, 64): %e once the exponent is < -4 or >= 6
        (1.0, "1"),
        (0.5, "0.5"),
        (100000.0, "100000"),
        (123456.0, "123456"),
        (1234567.0, "1.234567e+06"),
        (123456789.0, "1.23456789e+08"),  # fmt.Println(123456789.0)
        (1e6, "1e+06"),
        (1e21, "1e+21"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (-2.5, "-2.5"),
        (-0.0, "-0"),
        (float("inf"), "+Inf"),
        (float("-inf"), "-Inf"),
        (float("nan"), "NaN"),
    ],
)
def test_go_float_is_percent_v(f: float, want: str) -> None:
    assert G.go_float(f) == want


def test_go_json_is_encoding_json_marshal() -> None:
    # HTML-safe escapes, U+2028/2029, \b \f short (Go >= 1.22), other controls \u00XX
    assert G.go_json("<a&b>\u2028\b\f\x01") == '"\\u003ca\\u0026b\\u003e\\u2028\\b\\f\\u0001"'
    # floats: 'f' format, 'e' below 1e-6 and from 1e21, with e-07 → e-7
    assert [G.go_json(x) for x in (123456789.0, 1e20, 1e21, 1e-7, 0.000001, 1.5, 2.0)] == [
        "123456789",
        "100000000000000000000",
        "1e+21",
        "1e-7",
        "0.000001",
        "1.5",
        "2",
    ]
    assert G.go_json(None) == "null"
    assert G.go_json({"b": [1, True, None], "a": "x"}) == '{"b":[1,true,null],"a":"x"}'
    assert G.go_json({"b": 1, "a": 2}, sort_keys=True) == '{"a":2,"b":1}'
    with pytest.raises(ValueError):
        G.go_json(float("nan"))


def test_go_v_and_sharp_v() -> None:
    # fmt prints maps with sorted keys
    assert G.go_v({"b": 1, "a": [1.0, "x", None]}) == "map[a:[1 x <nil>] b:1]"
    assert G.go_v(1e6) == "1e+06"
    assert G.go_sharp_v({"name": "VllmWorker"}) == 'map[string]interface {}{"name":"VllmWorker"}'
    assert G.go_sharp_v(["a", None, 1.0]) == '[]interface {}{"a", interface {}(nil), 1}'
    assert G.go_sharp_v(None) == "<nil>"
    assert G.go_sharp_v({"k": "v"}, "map[interface {}]interface {}") == 'map[interface {}]interface {}{"k":"v"}'
    assert G.go_type(3) == "int64" and G.go_type({}) == "map[string]interface {}" and G.go_type(None) == "<nil>"
    assert G.go_list(["a", "b"]) == "[a b]"


def test_field_value_apimachinery_v034() -> None:
    # ErrorBody: int64/float64/bool with %v, string %q, everything else json.Marshal (nil → null)
    assert [G.field_value(v) for v in (None, True, 3, 2.0, 1.5, 1e6, 'a"b', "a\x07b", ["x"], {"a": 1})] == [
        "null",
        "true",
        "3",
        "2",
        "1.5",
        "1e+06",
        '"a\\"b"',
        '"a\\ab"',
        '["x"]',
        '{"a":1}',
    ]


def test_field_value_apimachinery_v033() -> None:
    # before kubernetes#132314: nil → "null" (a string), composites %#v
    assert G.field_value_v033(None) == '"null"'
    assert G.field_value_v033({"containerPort": 8000, "protocol": "TCP"}) == (
        'map[string]interface {}{"containerPort":8000, "protocol":"TCP"}'
    )
    assert G.field_value_v033("x") == '"x"'


def test_field_error_body() -> None:
    # apimachinery field/errors_test.go TestNotSupported
    detail = 'supported values: "a", "b", "c"'
    assert G.field_error("Unsupported value", "v", detail) == 'Unsupported value: "v": supported values: "a", "b", "c"'
    assert G.field_error("Invalid value", None, "d") == "Invalid value: null: d"
    assert G.field_error("Required value", G.OMIT, "") == "Required value"
    assert G.field_error("Forbidden", G.OMIT, "not allowed") == "Forbidden: not allowed"
    assert G.field_error("Duplicate value", "x") == 'Duplicate value: "x"'
    assert G.field_error("Invalid value", 3, "d", render=G.field_value_v033) == "Invalid value: 3: d"


def test_quantity_not_trimmed_but_json_decode_trims() -> None:
    from dynamo_schema._k8s._quantity import parse_quantity, parse_quantity_json

    # resource.ParseQuantity does not trim; Quantity.UnmarshalJSON does strings.TrimSpace first
    assert parse_quantity(" 1Gi ") is None
    assert parse_quantity("1Gi\n") is None
    assert parse_quantity_json(" 1Gi ") == 2**30
    assert parse_quantity("1Gi") == 2**30 and parse_quantity("500m") * 2 == 1


def test_go_float_32_bits() -> None:
    # strconv package example: FormatFloat(3.1415926535, 'E', -1, 32) == "3.1415927E+00" (same digits for 'g')
    assert G.go_float(3.1415926535, 32) == "3.1415927"
    assert G.go_float(123456789.0, 32) == "1.2345679e+08"  # float32(123456789) is 123456792
    assert G.go_float(0.1, 32) == "0.1"


def test_go_scalar_is_the_shared_scalar_case() -> None:
    # bool/int with %v, floats with %v (strconv 'g'), strings with %q; composites and nil are the caller's
    assert [G.go_scalar(v) for v in (True, False, 7, 1e6, 0.5, 'a"b')] == ["true", "false", "7", "1e+06", "0.5", '"a\\"b"']
    assert [G.go_scalar(v) for v in (None, [1], {"a": 1})] == [None, None, None]
    # the encoding/json flavour: json floats and HTML-safe string escapes
    assert G.go_scalar(1e-7, G._json_string, G._json_float) == "1e-7"
    assert G.go_scalar("<", G._json_string, G._json_float) == '"\\u003c"'


def test_quantity_exa_and_exbi_suffixes() -> None:
    """``E`` is the SI exa suffix and ``Ei`` exbi, not an exponent without digits: the values below are
    the decimal values k8s.io/apimachinery v0.30.1 gives for them (``ParseQuantity``, then ``AsDec``; run with
    Go 1.26.8)."""
    from dynamo_schema._k8s._quantity import parse_quantity

    go = {"1E": 10**18, "0E": 0, "1Ei": 2**60, "1.5E": 15 * 10**17, "5Ei": 5 * 2**60, "2e3": 2000,
          "1E3": 1000, "1E-2": Decimal("0.01")}
    assert {s: parse_quantity(s) for s in go} == go
    assert parse_quantity("1e") is None  # Go: an error


@pytest.mark.parametrize(("value", "kind"), [(True, "bool"), (1.5, "number"), (1, "number"), ("x", "string"),
                                             ([1], "array"), ({"a": 1}, "object")])
def test_json_kind_is_encoding_json_unmarshal_type_error(value: Any, kind: str) -> None:
    """Go 1.26 ``encoding/json``: ``json.Unmarshal`` of ``true``/``1.5`` into a string and of ``"x"``/``[1]``/
    ``{"a":1}`` into an int print ``json: cannot unmarshal <kind> into Go value of type ...`` with these kinds
    (``null`` decodes into anything without an error)."""
    assert G.json_kind(value) == kind


def test_go_json_exponent_keeps_every_mantissa_digit() -> None:  # mutant c092142b1322
    """encoding/json ``floatEncoder``: ``strconv.AppendFloat(f, 'e', -1, 64)`` below 1e-6 / from 1e21 (the
    shortest digits, all of them after the point), then ``e-07`` → ``e-7``."""
    assert G.go_json(1.234e-7) == "1.234e-7"
    assert G.go_json(-2.5e-10) == "-2.5e-10"
    assert G.go_json(1.5e21) == "1.5e+21"


def test_go_json_replaces_every_surrogate() -> None:  # mutant cfa2da0c6d53
    """encoding/json coerces strings to valid UTF-8, an invalid code point becoming ``\\ufffd``; the
    surrogates U+D800..U+DFFF are not valid in UTF-8 (unicode/utf8), U+E000 is."""
    assert G.go_json("\ud800") == G.go_json("\udbff") == G.go_json("\udfff") == '"\\ufffd"'
    assert G.go_json("\ue000") == '"\ue000"'


def test_fmt_keys_of_mixed_types_keep_their_order() -> None:  # mutant edca004aa105
    """``_sorted_keys`` (ours by design, its docstring): Go orders keys of different dynamic types by type
    identity, which is not observable here, so such keys keep their order (bool and int keys alike, although
    Python could sort them); keys of one type, or ints with floats (JSON numbers), are sorted."""
    assert G.go_v({2: "a", False: "b"}) == "map[2:a false:b]"
    assert G.go_v({False: "b", 2: "a"}) == "map[false:b 2:a]"
    assert G.go_v({2.5: "x", 1: "y"}) == "map[1:y 2.5:x]"
    assert G.go_sharp_v({"b": 1, "a": 2}) == 'map[string]interface {}{"a":2, "b":1}'


@settings(max_examples=300, derandomize=True)
@given(st.one_of(st.text(), st.text(alphabet=st.characters(max_codepoint=0x7f)),
                 st.sampled_from(["", "a", "a b", "~", "\x7f", '"', "\\", "<", ">", "&", "a\tb", "\u2028"])))
def test_json_string_plain_ascii_shortcut_is_the_escaper(s: str) -> None:
    assert G._json_string(s) == G._json_escaped(s)


# strconv.Quote of Go 1.26 (unicode.Version 15.0.0, the operator's toolchain), run outside the project (D59): a
# character Unicode 14/15 added is printed, one Unicode 15.1 added is escaped, whatever the running Python's
# Unicode version (3.11 ships 14.0.0, 3.13 ships 15.1.0)
@pytest.mark.parametrize(("text", "go"), [
    ("\U00031350", '"\U00031350"'),  # CJK Ext H (15.0)
    ("\u0cf3", '"\u0cf3"'),  # Kannada (15.0)
    ("\u0870", '"\u0870"'),  # Arabic Extended-B (14.0)
    ("\U0002ebf0", '"\\U0002ebf0"'),  # CJK Ext I (15.1): unassigned in 15.0
    ("\ue000", '"\\ue000"'),  # private use
    ("\u00a0", '"\\u00a0"'),  # a space other than U+0020
    ("a\u0085", '"a\\u0085"'),
])
def test_go_quote_uses_unicode_15(text: str, go: str) -> None:
    assert G.go_quote(text) == go
