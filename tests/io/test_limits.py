"""Loader limits are the project's own (docs/decisions.md D12): the same rule id, line and column
whatever PyYAML/libyaml build is installed, on the libyaml path and on the pure-Python parser path.

libyaml 0.2.6 (PyYAML 6.0.4 wheels) refuses nesting deeper than 1,000 with its own error
("exceeded maximum nesting depth") while scanning ahead; 0.2.5 (PyYAML 6.0.3) has no limit. Both must
give ``load.too-deep`` at the first collection nested deeper than MAX_DEPTH.

JSON syntax errors: expected messages and offsets are Go 1.26 encoding/json's, recorded in
``data/go_json_errors.json`` (recorder: ``data/gojson/main.go``); Python's own json messages (which
CPython 3.13 changed) are never used for the wording or the position.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._io import _load
from dynamo_schema._io._jsonscan import syntax_error
from dynamo_schema._io._load import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_DOCUMENTS,
    MAX_MERGES,
    MAX_SCALAR,
    load,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
TOO_DEEP = f"exceeded max depth of {MAX_DEPTH}"


@pytest.fixture(params=["libyaml", "pure-python"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "libyaml":
        import yaml

        if not getattr(yaml, "__with_libyaml__", False):
            pytest.fail("PyYAML without libyaml: the libyaml path cannot be tested")
    monkeypatch.setattr(_load, "USE_LIBYAML", request.param == "libyaml")
    yield request.param


def errors(text: str | bytes, file: str = "in.yaml") -> list[tuple[str, int | None, int | None, str]]:
    return [(d.rule, d.line, d.column, d.message) for d in load(text, file).diagnostics
            if d.severity == "error"]


def flow(levels: int, close: bool = True) -> str:
    # the root mapping is level 1, so `levels` brackets reach level levels + 1
    return "a: " + "[" * levels + ("]" * levels if close else "") + "\n"


def block(levels: int) -> str:
    # `levels` nested mappings (the root is level 1)
    return "".join("  " * i + "k:\n" for i in range(levels)) + "  " * levels + "x: 1\n"


# ------------------------------------------------------------------------------------------------
# depth


def test_depth_limit_flow(parser: str) -> None:
    assert load(flow(MAX_DEPTH - 1)).documents  # level MAX_DEPTH: allowed
    at = (1, 3 + MAX_DEPTH)  # the MAX_DEPTH-th `[` is level MAX_DEPTH + 1
    for levels in (MAX_DEPTH, MAX_DEPTH + 1, 999, 1_000, 1_001, 5_000, 50_000):
        assert errors(flow(levels)) == [("load.too-deep", *at, TOO_DEEP)], levels
    # unterminated: the depth is found before the syntax error
    assert errors(flow(5_000, close=False)) == [("load.too-deep", *at, TOO_DEEP)]


def test_depth_limit_block(parser: str) -> None:
    assert load(block(MAX_DEPTH - 1)).documents
    for levels in (MAX_DEPTH, 1_200):
        # the mapping at level MAX_DEPTH + 1 starts on line MAX_DEPTH + 1, column 2 * MAX_DEPTH + 1
        assert errors(block(levels)) == [
            ("load.too-deep", MAX_DEPTH + 1, 2 * MAX_DEPTH + 1, TOO_DEEP)], levels


def test_depth_limit_block_sequences(parser: str) -> None:
    text = "a:\n" + "".join("  " * i + "-\n" for i in range(1, 1_100)) + "  " * 1_100 + "- x\n"
    # line i + 1 holds the sequence of level i + 1 (its first `-` at column 2i + 1)
    assert errors(text) == [("load.too-deep", MAX_DEPTH + 1, 2 * MAX_DEPTH + 1, TOO_DEEP)]


def test_depth_limit_json(parser: str) -> None:
    def doc(levels: int) -> str:
        return '{"a": ' + "[" * levels + "]" * levels + "}"

    assert load(doc(MAX_DEPTH - 1), "x.json").documents
    for levels in (MAX_DEPTH, 1_000, 1_001, 20_000):
        assert errors(doc(levels), "x.json") == [("load.too-deep", 1, 6 + MAX_DEPTH, TOO_DEEP)]


def test_depth_counts_alias_expansion(parser: str) -> None:
    text = "a: &a " + "[" * 60 + "]" * 60 + "\nb: " + "[" * 50 + "*a" + "]" * 50 + "\n"
    # b's 50 sequences are levels 2-51; a's 50th `[` (column 7 + 49) becomes level 101
    assert errors(text) == [("load.too-deep", 1, 56, TOO_DEEP)]
    assert load("a: &a " + "[" * 50 + "]" * 50 + "\nb: " + "[" * 48 + "*a" + "]" * 48 + "\n").documents


def _old_depth_bound(text: str) -> int:
    """The loader's earlier bound (every line's prefix listed): brackets + 2 * (longest prefix + 2)."""
    import re

    prefix = max((len(m) for m in re.findall(r"^[ \t?:-]*", text, re.M)), default=0)
    return text.count("[") + text.count("{") + 2 * (prefix + 2)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.text(" \t?:-", max_size=80), st.text("ab[{#:- \r", max_size=30)), max_size=12),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_depth_prefilter_never_looser_than_the_bound(lines: list[tuple[str, str]], eol: str) -> None:
    """The depth pre-filter (one regex search for a long line prefix) asks for the exact scan whenever
    the bound it replaced did (it may ask more often: its length is rounded down)."""
    text = eol.join(p + rest for p, rest in lines)
    if _old_depth_bound(text) > MAX_DEPTH:
        assert _load._may_be_too_deep(text, json_mode=False)


def test_libyaml_nesting_error_is_mapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever libyaml build is installed: simulate libyaml >= 0.2.6 giving up on the event stream
    (and while composing) with its own error; the located ``load.too-deep`` must not change."""
    import yaml

    real = _load._loader_class

    def failing(pure: bool = False) -> type:
        cls = real(pure)
        if pure:
            return cls  # type: ignore[no-any-return]

        class Failing(cls):  # type: ignore[misc, valid-type]
            def check_event(self, *a: object) -> bool:
                mark = yaml.error.Mark("<unicode string>", 0, 0, 0, None, None)
                raise yaml.MarkedYAMLError("while increasing flow level", mark,
                                           "exceeded maximum nesting depth", mark)

            check_node = check_event

        return Failing

    monkeypatch.setattr(_load, "_loader_class", failing)
    assert errors(flow(2_000)) == [("load.too-deep", 1, 3 + MAX_DEPTH, TOO_DEEP)]
    # the composing path maps it too (a document whose cheap bound did not ask for the event scan
    # cannot be that deep: only a broken libyaml could say so; then the pure scan decides)
    assert errors("a: 1\n")[0][0] == "load.syntax"


_PROBE = textwrap.dedent("""
    import json, sys, yaml
    from dynamo_schema._io._load import load, MAX_DEPTH
    out = {"pyyaml": yaml.__version__, "libyaml": yaml.__with_libyaml__}
    if yaml.__with_libyaml__:
        import yaml._yaml
        out["libyaml_version"] = yaml._yaml.get_version_string()
    cases = {"flow": "a: " + "[" * N + "]" * N + "\\n",
             "block": "".join("  " * i + "k:\\n" for i in range(N)) + "  " * N + "x: 1\\n",
             "ok": "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\\n",
             "alias": 'l0: &l0 ["lol"]\\n' + "".join(
                 f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\\n" for i in range(1, 12)),
             "size": "a: |\\n" + ("  " + "k" * 99 + "\\n") * 40_000,
             "docs": "a: 1\\n---\\n" * 10_000 + "b: 2\\n"}
    for name, text in cases.items():
        r = load(text, "in.yaml")
        out[name] = [[d.rule, d.line, d.column, d.message] for d in r.diagnostics] or len(r.documents)
    print(json.dumps(out))
""")


@pytest.mark.slow
@pytest.mark.parametrize("version", ["6.0.3", "6.0.4"])
@pytest.mark.parametrize("levels", [1_500])
def test_same_verdict_under_pyyaml_versions(version: str, levels: int, tmp_path_factory:
                                            pytest.TempPathFactory) -> None:
    """PyYAML 6.0.3 (libyaml 0.2.5, no depth limit) and 6.0.4 (libyaml 0.2.6, 1,000): installed with
    ``pip install --target`` (binary wheels only) and run in a subprocess."""
    target = Path(os.environ.get("DYNAMO_SCHEMA_PYYAML_CACHE", tmp_path_factory.getbasetemp())) / (
        f"pyyaml-{version}-py{sys.version_info[0]}{sys.version_info[1]}")
    if not (target / "yaml").is_dir():
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--only-binary",
                               ":all:", "--target", str(target), f"PyYAML=={version}"],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), str(ROOT)]))
    proc = subprocess.run([sys.executable, "-c", f"N = {levels}\n" + _PROBE], capture_output=True,
                          text=True, env=env, check=True)
    out = json.loads(proc.stdout)
    assert out["pyyaml"] == version and out["libyaml"] is True
    assert out["libyaml_version"] == {"6.0.3": "0.2.5", "6.0.4": "0.2.6"}[version]
    assert out["flow"] == [["load.too-deep", 1, 3 + MAX_DEPTH, TOO_DEEP]]
    assert out["block"] == [["load.too-deep", MAX_DEPTH + 1, 2 * MAX_DEPTH + 1, TOO_DEEP]]
    assert out["ok"] == 1
    assert out["alias"] == [["load.alias-bomb", 4, 5, "document contains excessive aliasing"]]
    raw = ("a: |\n" + ("  " + "k" * 99 + "\n") * 40_000).encode()
    line = raw.count(b"\n", 0, MAX_BYTES) + 1
    col = MAX_BYTES - (raw.rfind(b"\n", 0, MAX_BYTES) + 1) + 1
    assert out["size"][0][:3] == ["load.too-large", line, col]
    assert out["docs"] == [["load.too-many-documents", 20_001, 1, "more than 10000 documents in one input"]]


# ------------------------------------------------------------------------------------------------
# JSON syntax errors: Go's words and offsets, on every Python


def _go_cases() -> list[dict[str, object]]:
    return json.loads((DATA / "go_json_errors.json").read_text(encoding="utf-8"))["cases"]  # type: ignore[no-any-return]


def test_go_scanner_port_matches_recorded_go_verdicts() -> None:
    cases = _go_cases()
    assert len(cases) > 500
    for case in cases:
        text = case["input"]
        assert isinstance(text, str)
        got = syntax_error(text)
        go = case["go"]
        if go is None:
            assert got is None, text
            continue
        assert isinstance(go, dict) and got is not None, text
        message, index = got
        offset = len(text[:index].encode()) + (1 if index < len(text) else 0)
        assert (message, offset) == (go["message"], go["offset"]), text


@pytest.mark.parametrize(("text", "offset", "message"), [
    ('"a\rb"', 3, "invalid character '\\r' in string literal"),
    ('"\r"', 2, "invalid character '\\r' in string literal"),
    ('"a\x0eb"', 3, "invalid character '\\x0e' in string literal"),
    ('"a\x07b"', 3, "invalid character '\\a' in string literal"),
])
def test_control_character_in_string_quoted_as_go(text: str, offset: int, message: str) -> None:
    """Go 1.26 ``quoteChar`` (``strconv.Quote``) of a raw control byte in a string (recorded with data/gojson)."""
    got = syntax_error(text)
    assert got is not None
    assert (got[0], got[1] + 1) == (message, offset)


def test_json_syntax_errors_through_the_loader(parser: str) -> None:
    checked = 0
    for case in _go_cases():
        text, go = case["input"], case["go"]
        assert isinstance(text, str)
        if go is None or not text.strip() or text.startswith("\ufeff"):
            continue
        assert isinstance(go, dict)
        raw = text.encode()
        offset = int(go["offset"])  # type: ignore[call-overload]
        message = str(go["message"])
        at_eof = message == "unexpected end of JSON input" or (
            message.startswith("invalid character ' '") and offset == len(raw) and not raw.endswith(b" "))
        index = len(text) if at_eof else len(raw[:offset - 1].decode("utf-8", "ignore"))
        before = text[:index]
        line, col = before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1
        assert errors(text, "x.json") == [("load.syntax", line, col, go["message"])], text
        checked += 1
    assert checked > 400


def test_json_numbers_as_go_decodes_them(parser: str) -> None:
    (doc,) = load('{"a": 9223372036854775807, "b": 9223372036854775808, "c": 1e2, "d": '
                  + "9" * 300 + "}", "x.json").documents
    assert doc.data["a"] == 2**63 - 1 and type(doc.data["a"]) is int
    assert doc.data["b"] == 2.0**63 and type(doc.data["b"]) is float
    assert doc.data["c"] == 100.0 and type(doc.data["d"]) is float
    # outside float64: kubectl v1.32 refuses it with this message
    assert errors('{"a": 1,\n "b": 1e400}', "x.json") == [
        ("load.unsupported-value", 2, 7, "json: cannot unmarshal number 1e400 into Go value of type float64")]
    assert errors('{"a": ' + "9" * 400 + "}", "x.json")[0][:3] == ("load.unsupported-value", 1, 7)


def test_yaml_integral_floats_reach_the_server_as_integers(parser: str) -> None:
    """sigs.k8s.io/yaml: go-yaml reads ``2.0`` as float64, encoding/json writes it ``2``, the API server decodes
    an int64; so with ``-3.0`` and ``1e3``. From 1e21 encoding/json writes an exponent: it stays a float."""
    (doc,) = load("a: 2.0\nb: -3.0\nc: 1e3\nd: 0.0\ne: 2.5\nf: 1e21\n").documents
    got = {k: (v, type(v)) for k, v in doc.data.items()}
    assert got == {"a": (2, int), "b": (-3, int), "c": (1000, int), "d": (0, int), "e": (2.5, float),
                   "f": (1e21, float)}


def test_json_lone_surrogate_is_refused(parser: str) -> None:
    assert load('{"a": "\\ud83d\\ude00"}', "x.json").documents[0].data == {"a": "\U0001f600"}
    assert errors('{"a": "ok",\n "b": "x\\ud800"}', "x.json") == [
        ("load.encoding", 2, 7, "string contains the lone surrogate \\ud800, which is not valid Unicode")]


def test_yaml_huge_integers_resolve_as_go_yaml_does(parser: str) -> None:
    (doc,) = load("a: " + "9" * 5_000 + "\nb: 0x" + "f" * 17 + "\nc: 18446744073709551615\n"
                  + "d: 0" + "0" * 30 + "17\n").documents
    assert doc.data["a"] == "9" * 5_000  # ParseFloat range error: a string
    assert doc.data["b"] == "0x" + "f" * 17
    assert doc.data["c"] == 2.0**64 - 1  # uint64, then float64 through JSON
    assert doc.data["d"] == 15  # octal, leading zeros do not count


# ------------------------------------------------------------------------------------------------
# size, scalars, documents, merge keys


def test_input_size_limit(parser: str) -> None:
    line = "k" * 99 + "\n"
    text = "a: |\n" + "  " + line * (MAX_BYTES // 100 + 1)
    raw = text.encode()
    assert len(raw) > MAX_BYTES
    offset_line = raw.count(b"\n", 0, MAX_BYTES) + 1
    col = MAX_BYTES - (raw.rfind(b"\n", 0, MAX_BYTES) + 1) + 1
    expected = [("load.too-large", offset_line, col,
                 f"input of {len(raw)} bytes is larger than the limit of {MAX_BYTES} bytes")]
    assert errors(raw) == expected
    assert errors(text) == expected


def test_scalar_length_limit(parser: str) -> None:
    assert load("a: " + "x" * MAX_SCALAR + "\n").documents
    assert errors("a: 1\nb: " + "x" * (MAX_SCALAR + 1) + "\n") == [
        ("load.too-long", 2, 4, f"scalar of {MAX_SCALAR + 1} characters is longer than the limit of "
         f"{MAX_SCALAR}")]
    assert errors('{"a": 1,\n"' + "x" * (MAX_SCALAR + 1) + '": 1}', "x.json")[0][:3] == (
        "load.too-long", 2, 1)


def test_document_count_limit(parser: str) -> None:
    assert len(load("a: 1\n---\n" * MAX_DOCUMENTS).documents) == MAX_DOCUMENTS
    text = "a: 1\n---\n" * MAX_DOCUMENTS + "b: 2\n"
    assert errors(text) == [("load.too-many-documents", 2 * MAX_DOCUMENTS + 1, 1,
                             f"more than {MAX_DOCUMENTS} documents in one input")]


def test_merge_keys_limit_and_linear_cost(parser: str) -> None:
    base = "base: &b {x: 1, w: 2}\n"
    ok = base + "".join(f"m{i}:\n  <<: *b\n  z: {i}\n" for i in range(MAX_MERGES))
    (doc,) = load(ok).documents
    assert doc.data[f"m{MAX_MERGES - 1}"] == {"x": 1, "w": 2, "z": MAX_MERGES - 1}
    assert doc.positions[("m7", "x")] == (1, 11)  # a merged key keeps its source position
    bad = ok + "last:\n  <<: *b\n"
    assert errors(bad) == [("load.too-many-merges", 2 + 3 * MAX_MERGES + 1, 3,
                            f"more than {MAX_MERGES} merge keys in one document")]


def test_alias_limits_same_on_both_paths(parser: str) -> None:
    # billion laughs: l3 expands to 9 * 9 * 9 * 9 nodes; the factor rule stops it at the l4 alias
    lol = 'l0: &l0 ["lol"]\n' + "".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 12))
    assert errors(lol) == [("load.alias-bomb", 4, 5, "document contains excessive aliasing")]
    # a merge-key alias bomb: stopped as quickly, at the alias that crosses the budget
    text = (Path(__file__).resolve().parents[1] / "fuzz" / "corpus" / "merge-key-alias-bomb.bad.yaml").read_text()
    assert errors(text) == [("load.alias-bomb", 24, 5, "document contains excessive aliasing")]


@pytest.mark.parametrize(("text", "offset", "message"), [
    ("{}x", 3, "invalid character 'x' after top-level value"),  # mutant de755f481ec1
    ("[{}x]", 4, "invalid character 'x' after array element"),  # mutant de755f481ec1
    ("[1!]", 3, "invalid character '!' after array element"),  # mutant ef2b5a97a05f
    ('[1 "a"]', 4, "invalid character '\"' after array element"),  # mutant ef2b5a97a05f
    ("[1)]", 3, "invalid character ')' after array element"),  # mutant ef2b5a97a05f
])
def test_end_of_value_errors_worded_as_go(text: str, offset: int, message: str) -> None:
    """An empty object is consumed whole, and only ',' or ']' continue an array: Go 1.26
    encoding/json ``Unmarshal`` SyntaxError message and Offset, recorded by running Go on these inputs."""
    got = syntax_error(text)
    assert got is not None
    assert (got[0], got[1] + 1) == (message, offset)
