"""``_k8s._goyaml.marshal``: the text ``sigs.k8s.io/yaml.Marshal`` (go-yaml v2) writes.

Expected texts: the operator's EPP ConfigMaps in the operator-verified cases (byte for byte, the first
test), and go-yaml v2's encoder rules (``encode.go`` ``stringv``, ``resolve.go``, ``sorter.go``
``keyList.Less``, libyaml ``emitterc.go``) for the scalar styles the cases do not reach.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import yaml

from dynamo_schema._k8s._goyaml import marshal
from dynamo_schema._render._eppconfig import config_map_text

CASES = (Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "dynamo" / "operator-cases"
         / "cases").resolve()


@pytest.mark.shared
@pytest.mark.parametrize("name", ["0021-dgd-k8s-resources-limits-cpu-ok.yaml", "0528-dgd-k8s-epp-config-inline-ok.yaml"])
def test_epp_config_map_text_is_the_operators(name: str) -> None:
    case = yaml.safe_load((CASES / name).read_text(encoding="utf-8"))
    epp = next(c for c in case["expected"]["defaulted"]["spec"]["components"] if c.get("type") == "epp")
    want = next(o for o in case["expected"]["objects"] if o["kind"] == "ConfigMap"
                and "epp-config-dynamo.yaml" in o.get("data", {}))["data"]["epp-config-dynamo.yaml"]
    assert config_map_text(epp["eppConfig"]["config"]) == want


@pytest.mark.parametrize(("value", "text"), [
    ("", '""'),            # resolves to null
    ("true", '"true"'), ("n", '"n"'), ("Off", '"Off"'), ("~", '"~"'),  # bool / null words
    ("1", '"1"'), ("0x1F", '"0x1F"'), ("1_000", '"1_000"'), ("09", '"09"'),  # ints, yamlStyleFloat
    ("1e3", '"1e3"'), (".5", '".5"'), (".inf", '".inf"'), ("190:20:30", '"190:20:30"'),  # floats, base 60
    ("2001-12-14", '"2001-12-14"'), ("2001-13-14", "2001-13-14"),  # a timestamp; not a date
    # go-yaml v2 allowedTimestampFormats: T/t needs the zone, a space takes none
    ("2001-12-14T21:59:43Z", '"2001-12-14T21:59:43Z"'), ("2001-12-14t21:59:43.1+05:00", '"2001-12-14t21:59:43.1+05:00"'),
    ("2001-12-14 21:59:43", '"2001-12-14 21:59:43"'), ("2001-12-14T21:59:43", "2001-12-14T21:59:43"),
    ("2001-12-14 21:59:43Z", "2001-12-14 21:59:43Z"), ("2001-12-14T24:00:00Z", "2001-12-14T24:00:00Z"),
    ("nil", "nil"), ("none", "none"), ("<<", '"<<"'),  # not in go-yaml's map: plain; the merge key
    ("a: b", "'a: b'"), (" x", "' x'"), ("x ", "'x '"), ("- x", "'- x'"), ("#x", "'#x'"),  # plain cannot hold
    ("a #b", "'a #b'"), ("a#b", "a#b"), ("it's", "it's"), ("'q", "'''q'"),
    ("tab\there", '"tab\\there"'), ("bell\a", '"bell\\a"'),  # not printable: double-quoted
    ("a\nb", "|-\n  a\n  b"), ("a\nb\n", "|\n  a\n  b"), ("a\n\n", "|+\n  a\n"),  # literal blocks
])
def test_scalar_styles(value: str, text: str) -> None:
    assert marshal({"k": value}) == f"k: {text}\n"


def test_layout_and_key_order() -> None:
    value = {"b10": 1, "b9": 2, "a": [], "B": {}, "_x": None, "c": [{"p": 1.5, "q": [True, 2]}, [1, 2]],
             "d": {"e": 1e21, "f": 2.0, "g": 1e-7}}
    assert marshal(value) == (
        "_x: null\n"  # a non-letter sorts before a letter, letters by code point
        "B: {}\n"
        "a: []\n"
        "b9: 2\n"      # digit runs compare as numbers
        "b10: 1\n"
        "c:\n"
        "- p: 1.5\n"
        "  q:\n"
        "  - true\n"
        "  - 2\n"
        "- - 1\n"
        "  - 2\n"
        "d:\n"
        "  e: 1e+21\n"
        "  f: 2\n"
        "  g: 1e-07\n"
    )


def test_long_strings_fold_at_80_columns() -> None:
    text = marshal({"k": "word " * 20 + "end"})
    first, second = text.split("\n")[:2]
    assert first.startswith("k: word") and len(first) <= 84 and second.startswith("  word")
    assert yaml.safe_load(text) == {"k": "word " * 20 + "end"}


@pytest.mark.parametrize(("value", "text"), [
    ("a: " + "word " * 20 + "end",
     "'a: word word word word word word word word word word word word word word word\n  word word word word word end'"),
    # a space followed by another never breaks, nor does the second of a run
    ("x: " + "w  " * 40 + "e", "'x: " + "w  " * 40 + "e'"),
])
def test_long_single_quoted_strings_fold_at_80_columns(value: str, text: str) -> None:
    """libyaml ``yaml_emitter_write_single_quoted`` (go-yaml v2.4.0 output): past column 80 a lone inner space
    becomes a line break and indentation; a space before another space is kept."""
    assert marshal({"k": value}) == f"k: {text}\n"
    assert yaml.safe_load(marshal({"k": value})) == {"k": value}


@pytest.mark.parametrize(("value", "text"), [
    ("2024-02-29", '"2024-02-29"'), ("2000-02-29", '"2000-02-29"'),  # leap years: a timestamp, quoted
    ("2023-02-29", "2023-02-29"), ("1900-02-29", "1900-02-29"), ("2025-02-29", "2025-02-29"),  # not leap: plain
])
def test_february_29_is_a_timestamp_only_in_leap_years(value: str, text: str) -> None:
    """go-yaml v2 ``parseTimestamp`` is ``time.Parse``, which accepts Feb 29 only in Gregorian leap years."""
    assert marshal({"k": value}) == f"k: {text}\n"


def test_digit_runs_sort_as_numbers_whatever_the_input_order() -> None:
    """go-yaml v2 ``keyList.Less``: digit runs compare by value (x2 < x9 < x10 < x11), independent of map order."""
    want = ["x2", "x9", "x10", "x11", "y1"]
    for keys in itertools.permutations(want):
        text = marshal(dict.fromkeys(keys, 1))
        assert [line.split(":")[0] for line in text.splitlines()] == want, keys


@pytest.mark.parametrize(("value", "text"), [
    # time.Parse: 30-day months have no day 31 (not a timestamp: plain), day 30 is one (quoted)
    ("2001-11-31", "2001-11-31"), ("2001-04-31", "2001-04-31"), ("2001-06-31", "2001-06-31"),
    ("2001-09-31", "2001-09-31"), ("2001-11-30", '"2001-11-30"'), ("2001-07-31", '"2001-07-31"'),  # mutant a2cfa94a23da
])
def test_day_31_is_a_timestamp_only_in_31_day_months(value: str, text: str) -> None:
    assert marshal({"k": value}) == f"k: {text}\n"


@pytest.mark.parametrize(("value", "text"), [
    # go-yaml v2 yamlprivateh.go is_printable (the encoder sets unicode output): U+00A0..U+D7FF and
    # U+E000..U+FFFD except U+FEFF are written as they are; anything else is escaped in double quotes
    ("é", "é"), ("\u00a0x", "\u00a0x"), ("\ud7ffx", "\ud7ffx"),  # mutant d0d516dd7db1
    ("\uff21", "\uff21"), ("\ufffd", "\ufffd"),  # mutants 6aebb179f97a f14afbdf06f7
    ("\ufeff", '"\\uFEFF"'), ("\ufffe", '"\\uFFFE"'),
    # emitterc.go write_double_quoted: \xXX up to U+00FF, \uXXXX up to U+FFFF, upper-case hex
    ("\uffff", '"\\uFFFF"'),  # mutant 38dde9d2bfd6
])
def test_printable_characters(value: str, text: str) -> None:
    assert marshal({"k": value}) == f"k: {text}\n"


def test_a_literal_block_is_followed_directly_by_the_next_key() -> None:  # mutant 51ccd0694bb1
    """emitterc.go yaml_emitter_write_indent breaks the line only when the column is not 0 at the indent: the
    literal block already ended its line, so no empty line comes before the next key or item."""
    assert marshal({"a": "x\ny\n", "b": 1}) == "a: |\n  x\n  y\nb: 1\n"
    assert marshal(["x\n", 1]) == "- |\n  x\n- 1\n"


@pytest.mark.parametrize(("keys", "want"), [
    (["x100", "x99"], ["x99", "x100"]),  # digit runs compare by value in base 10  # mutant b5a3fd9eca14
    # a leading zero: the values decide first (5 < 7), a tie goes to the shorter run (x7 < x07)
    (["x7", "x05"], ["x05", "x7"]),  # mutant 389edd708f0a
    (["x07", "x7"], ["x7", "x07"]),  # mutant e0c936877ac6
    # zeros before the differing place do not count as a run's non-zero prefix: 05 < 7 (x005 < x07)
    (["x07", "x005"], ["x005", "x07"]),  # mutant 308504af1eba
])
def test_key_order_digit_runs(keys: list[str], want: list[str]) -> None:
    """go-yaml v2 sorter.go ``keyList.Less`` (an, bn: run values; ai, bi: run ends), whatever the input order."""
    for order in (keys, keys[::-1]):
        text = marshal(dict.fromkeys(order, 1))
        assert [line.split(":")[0] for line in text.splitlines()] == want, order


@pytest.mark.parametrize(("value", "text"), [
    # go-yaml v2 yamlprivateh.go is_printable tests UTF-8 bytes: C2 85 (NEL) is below C2 A0 and no four-byte
    # lead byte (F0..F4) is accepted, so both are "special" (analyze_scalar): double quotes, escaped
    # (write_double_quoted: \N for NEL, \UXXXXXXXX above U+FFFF)
    ("😀", '"\\U0001F600"'), ("x 😀 y", '"x \\U0001F600 y"'), ("\U0010ffff", '"\\U0010FFFF"'),
])
def test_nel_and_characters_above_the_bmp_are_escaped(value: str, text: str) -> None:
    assert marshal({"k": value}) == f"k: {text}\n"
    assert yaml.safe_load(marshal({"k": value})) == {"k": value}


@pytest.mark.parametrize(("value", "text"), [
    # real sigs.k8s.io/yaml v1.4.0 Marshal (run with Go): its JSON keeps U+0085 raw, and go-yaml reads that
    # NEL as a line break inside the double-quoted JSON string, folding it before anything is written
    ("a\x85b", "a b"), ("a \x85 b", "a b"), ("a\x85\x85b", "|-\n  a\n  b"), ("a\t\x85b", '"a\\t b"'),
    ("\x85a", "' a'"), ("a\x85", "'a '"), ("a\x85 \x85b", "|-\n  a\n  b"), ("x\x85y\x85z", "x y z"),
])
def test_a_nel_is_folded_by_the_json_round_trip(value: str, text: str) -> None:
    assert marshal({"k": value}) == f"k: {text}\n"


def test_a_timestamp_with_a_one_digit_day_is_found() -> None:  # mutant a9adc156be99
    """go-yaml v2 ``allowedTimestampFormats`` ("2006-1-2T15:04:05.999999999Z07:00", "2006-1-2 15:04:05.999999999",
    …): month and day may have one digit, and the date/time separator is read after them (a ``T`` needs a
    zone, a space none). Such a string resolves to a timestamp, so the encoder must quote it."""
    from dynamo_schema._k8s._goyaml import _is_timestamp

    assert _is_timestamp("2001-1-2T10:00:00Z") and _is_timestamp("2001-1-2 10:00:00")
    assert _is_timestamp("2001-12-2T10:00:00+01:00") and _is_timestamp("2001-1-12t10:00:00Z")
    assert not _is_timestamp("2001-1-2T10:00:00") and not _is_timestamp("2001-1-2 10:00:00Z")
