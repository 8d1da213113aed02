"""Loader: a catalogue of bad inputs (one test each, exact rule id, line and column) and positive cases.

Expected messages are the texts kubectl v1.32 / sigs.k8s.io/yaml (go-yaml v2, a libyaml port) and Go's
encoding/json print for the same input (observed with ``kubectl patch --local``; see
ecosystem-notes §1, §3.1). Expected positions are derived by hand from the input text.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._io._load import (
    LoadedDocument,
    LoadError,
    iter_paths,
    load,
    load_path,
    load_path_result,
    load_text,
)

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


def only_error(text: str | bytes, file: str = "in.yaml", **kw: object) -> Diagnostic:
    result = load(text, file, **kw)  # type: ignore[arg-type]
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert len(errors) == 1, errors
    return errors[0]


# ------------------------------------------------------------------------------------------------
# bad inputs


def test_duplicate_key_nested_deep() -> None:
    text = (
        "apiVersion: nvidia.com/v1beta1\n"      # 1
        "kind: DynamoGraphDeployment\n"         # 2
        "metadata:\n"                           # 3
        "  name: x\n"                           # 4
        "spec:\n"                               # 5
        "  components:\n"                       # 6
        "  - name: worker\n"                    # 7
        "    podTemplate:\n"                    # 8
        "      spec:\n"                         # 9
        "        containers:\n"                 # 10
        "        - name: main\n"                # 11
        "          image: a\n"                  # 12
        "          image: b\n"                  # 13
    )
    d = only_error(text)
    assert (d.rule, d.line, d.column) == ("load.duplicate-key", 13, 11)
    assert d.path == ("spec", "components", 0, "podTemplate", "spec", "containers", 0, "image")
    assert d.message == 'key "image" already set in map'  # go-yaml v2 strict (kubeconform -strict)
    with pytest.raises(LoadError) as info:
        load_text(text, "in.yaml")
    assert info.value.diagnostics == [d]


def test_duplicate_key_not_strict_is_a_warning_and_last_wins() -> None:
    result = load("a: 1\nb: 2\na: 3\n", "in.yaml", strict=False)
    assert result.documents[0].data == {"a": 3, "b": 2}  # kubectl keeps the last value
    (w,) = result.diagnostics
    assert (w.rule, w.severity, w.line, w.column) == ("load.duplicate-key", "warning", 3, 1)
    assert load_text("a: 1\nb: 2\na: 3\n", strict=False)[0].data == {"a": 3, "b": 2}


def test_duplicate_key_after_key_conversion() -> None:
    # `y` and `true` are both the boolean true for kubectl, so both become the JSON key "true"
    d = only_error("data:\n  true: a\n  y: b\n")
    assert (d.rule, d.line, d.column, d.message) == (
        "load.duplicate-key", 3, 3, "key true already set in map")


def test_alias_bomb_is_rejected_within_a_node_budget() -> None:
    lines = ["apiVersion: v1", "kind: ConfigMap", 'a0: &a0 ["lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    text = "\n".join(lines) + "\n"
    result = load(text, "bomb.yaml")  # must not raise anything, must not expand 5e11 nodes
    (d,) = result.errors
    assert d.rule == "load.alias-bomb"
    assert d.message == "document contains excessive aliasing"  # kubectl's text for the same file
    # The document has ~34 distinct nodes, so aliases may add max(10,000, 100 x 34) nodes. a1..a3 add
    # 60 + 610 + 6,110; the first `*a3` inside a4 adds 6,111 more (12,891 > 10,000). PyYAML nodes do not
    # remember where an alias was written, so the error points at the anchored node (`&a3`, line 6,
    # column 5) and carries the path of the alias use.
    assert (d.line, d.column) == (6, 5)
    assert d.path == ("a4", 0)
    assert result.documents == []
    with pytest.raises(LoadError):
        load_text(text, "bomb.yaml")


def test_alias_recursion() -> None:
    d = only_error("a: &x [1, *x]\n")
    # located at the anchored node `&x` (an alias use has no position of its own in PyYAML nodes)
    assert (d.rule, d.line, d.column, d.path) == ("load.alias-bomb", 1, 4, ("a", 1))
    assert d.message == "anchor 'x' value contains itself"  # kubectl's text


def test_python_object_tag() -> None:
    d = only_error("apiVersion: v1\nkind: X\nspec:\n  cmd: !!python/object/apply:os.system ['ls']\n")
    assert (d.rule, d.line, d.column, d.path) == ("load.unsafe-tag", 4, 8, ("spec", "cmd"))
    assert "!!python/object/apply:os.system" in d.message


def test_custom_tag() -> None:
    d = only_error("a: 1\nb:\n  - !foo bar\n")
    assert (d.rule, d.line, d.column, d.path) == ("load.unsafe-tag", 3, 5, ("b", 0))
    assert "!foo" in d.message


def test_custom_tag_does_not_hide_other_documents() -> None:
    result = load("a: 1\n---\nb: !foo x\n---\nc: 3\n", "in.yaml")
    assert [d.data for d in result.documents] == [{"a": 1}, {"c": 3}]
    (d,) = result.errors
    assert (d.rule, d.line, d.column) == ("load.unsafe-tag", 3, 4)
    with pytest.raises(LoadError) as info:
        load_text("a: 1\n---\nb: !foo x\n---\nc: 3\n")
    assert [doc.data for doc in info.value.documents] == [{"a": 1}, {"c": 3}]


def test_non_utf8_bytes_at_line_3() -> None:
    d = only_error(b"a: 1\nb: 2\nc: x\xff\n")
    assert (d.rule, d.line, d.column) == ("load.encoding", 3, 5)
    assert d.message == "invalid leading UTF-8 octet"  # libyaml / go-yaml reader wording


@pytest.mark.parametrize("raw", [b"a: \xc3", b"a: \xc3(", b"a: \xc0\x80", b"a: \xed\xa0\x80", b"a: \x80"])
def test_encoding_messages_match_libyaml_reader(raw: bytes) -> None:
    import yaml

    with pytest.raises(yaml.reader.ReaderError) as info:  # libyaml (go-yaml is its port)
        yaml.compose(raw, Loader=yaml.CSafeLoader)
    d = only_error(raw)
    assert (d.rule, d.line, d.column, d.message) == ("load.encoding", 1, 4, info.value.reason)


def test_nul_byte() -> None:
    d = only_error(b"a: 1\nbb: x\x00y\n")
    assert (d.rule, d.line, d.column) == ("load.binary", 2, 6)
    assert d.message == "control characters are not allowed"  # kubectl's text


def test_control_character_in_text() -> None:
    d = only_error("a: 1\nb: \x07\n")
    assert (d.rule, d.line, d.column) == ("load.control-character", 2, 4)


def test_unclosed_bracket() -> None:
    # kubectl v1.32 prints "yaml: line 2: did not find expected ',' or ']'" for both inputs; go-yaml
    # prints the 0-based line of the problem mark for parser errors, i.e. the third line here.
    d = only_error("a: 1\nb: [1, 2\nc: 3\n")
    assert d.rule == "load.syntax"
    # libyaml's problem, then where the unterminated structure began (issue 15 item 4)
    assert d.message == "did not find expected ',' or ']' (the flow sequence started at 2:4)"
    # `2\nc` is one multi-line plain scalar inside the flow sequence; the `:` after it is the problem
    assert (d.line, d.column) == (3, 2)
    d = only_error("a: 1\nb: [1, 2\n")
    assert (d.rule, d.message, d.line, d.column) == (
        "load.syntax", "did not find expected ',' or ']' (the flow sequence started at 2:4)", 3, 1)


def test_tab_indentation() -> None:
    d = only_error("a:\n  b: 1\n\tc: 2\n")
    assert (d.rule, d.line, d.column) == ("load.syntax", 3, 1)
    # kubectl v1.32: "yaml: line 3: found a tab character that violates indentation"
    assert d.message == "found a tab character that violates indentation"
    d = only_error("data:\n\ta: b\n")
    # kubectl v1.32: "yaml: line 2: found character that cannot start any token"
    assert (d.rule, d.line, d.column, d.message) == (
        "load.syntax", 2, 1, "found character that cannot start any token")


def test_document_that_is_a_list() -> None:
    d = only_error("- a\n- b\n")
    assert (d.rule, d.line, d.column) == ("load.not-a-mapping", 1, 1)
    assert d.message == "cannot unmarshal array into Go value of type map[string]interface {}"


def test_document_that_is_a_scalar_among_good_ones() -> None:
    result = load("a: 1\n---\njust text\n", "in.yaml")
    assert [d.data for d in result.documents] == [{"a": 1}]
    (d,) = result.errors
    assert (d.rule, d.line, d.column) == ("load.not-a-mapping", 3, 1)
    assert d.message == "cannot unmarshal string into Go value of type map[string]interface {}"


def test_json_syntax_error() -> None:
    text = '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "data": {"a": "b",}\n}\n'
    d = only_error(text, "cm.json")
    # Go encoding/json (kubectl): invalid character '}' looking for beginning of object key string
    assert d.message == "invalid character '}' looking for beginning of object key string"
    assert (d.rule, d.line, d.column) == ("load.syntax", 4, 21)


def test_json_truncated() -> None:
    d = only_error('{"a": [1, 2\n', "x.json")
    assert (d.rule, d.message) == ("load.syntax", "unexpected end of JSON input")


def test_empty_file_has_no_documents_and_no_error() -> None:
    for text in ("", "\n\n", "# only a comment\n", "---\n---\n", b""):
        result = load(text, "empty.yaml")
        assert result.documents == [] and result.diagnostics == []
    assert load_text("") == []
    assert load("", "e.json").documents == []


def test_null_and_collection_keys() -> None:
    d = only_error("~: a\n")
    assert (d.rule, d.line, d.column) == ("load.unsupported-key", 1, 1)
    assert d.message == 'unsupported map key of type: %!s(<nil>), key: <nil>, value: "a"'
    d = only_error("x: 1\n[a]: b\n")
    assert (d.rule, d.line, d.column, d.message) == (
        "load.unsupported-key", 2, 1, 'invalid map key: []interface {}{"a"}')


def test_infinite_value_rejected_like_kubectl() -> None:
    d = only_error("a:\n  b: .inf\n")
    assert (d.rule, d.line, d.column, d.message) == (
        "load.unsupported-value", 2, 6, "json: unsupported value: +Inf")


def test_nesting_deeper_than_the_limit() -> None:
    # the project's limit (MAX_DEPTH = 100, docs/decisions.md D12; go-yaml's is 10,000, libyaml
    # 0.2.6's 1,000); the root mapping is level 1, so the 100th `[` (column 3 + 100) is level 101.
    # More cases (block style, JSON, aliases, both parser paths, PyYAML 6.0.3/6.0.4): test_limits.py
    d = only_error("a: " + "[" * 10_001 + "]" * 10_001 + "\n")
    assert (d.rule, d.line, d.column, d.message) == (
        "load.too-deep", 1, 103, "exceeded max depth of 100")
    (doc,) = load_text("a: " + "[" * 99 + "]" * 99 + "\n")  # deep but allowed
    assert isinstance(doc.data["a"], list)


def test_tag_that_does_not_fit_value() -> None:
    d = only_error('a: !!int "x"\n')
    assert (d.rule, d.line, d.column, d.message) == (
        "load.tag-mismatch", 1, 4, "cannot decode !!str `x` as a !!int")


# ------------------------------------------------------------------------------------------------
# positive cases


def test_kind_list_is_expanded() -> None:
    text = (
        "apiVersion: v1\n"
        "kind: List\n"
        "items:\n"
        "- apiVersion: v1\n"        # 4
        "  kind: ConfigMap\n"
        "  metadata:\n"
        "    name: one\n"           # 7
        "- apiVersion: v1\n"        # 8
        "  kind: Secret\n"
        "  metadata: {name: two}\n"  # 10
    )
    docs = load_text(text, "list.yaml")
    assert [(d.kind, d.name) for d in docs] == [("ConfigMap", "one"), ("Secret", "two")]
    assert docs[0].positions[()] == (4, 3)
    assert docs[0].positions[("metadata", "name")] == (7, 5)
    assert docs[1].positions[("metadata", "name")] == (10, 14)
    assert docs[1].place(Diagnostic("x", ("metadata", "name"), "m")).line == 10


def test_multi_document_positions() -> None:
    text = (
        "# leading comment\n"
        "apiVersion: v1\n"              # 2
        "kind: ConfigMap\n"
        "metadata:\n"
        "  name: a\n"                   # 5
        "data:\n"
        "  k: v\n"                      # 7
        "---\n"
        "\n"
        "apiVersion: apps/v1\n"         # 10
        "kind: Deployment\n"
        "spec:\n"
        "  template:\n"
        "    spec:\n"
        "      containers:\n"           # 15
        "        - name: c\n"           # 16
        "          args: [--x, \"y\"]\n"  # 17
    )
    docs = load_text(text, "m.yaml")
    assert [d.index for d in docs] == [0, 1]
    a, b = docs
    assert a.positions[()] == (2, 1)
    assert a.positions[("metadata", "name")] == (5, 3)
    assert a.positions[("data", "k")] == (7, 3)
    assert b.positions[()] == (10, 1)
    c = ("spec", "template", "spec", "containers", 0)
    assert b.positions[c] == (16, 11)
    assert b.positions[c + ("args",)] == (17, 11)
    assert b.positions[c + ("args", 1)] == (17, 23)
    assert isinstance(b, LoadedDocument)
    assert b.value_positions[c + ("name",)] == (16, 17)
    assert b.data["spec"]["template"]["spec"]["containers"][0]["args"] == ["--x", "y"]


def test_values_decode_as_kubectl_decodes() -> None:
    # observed with kubectl v1.32 (`kubectl patch --local --type merge -p '{}' -o json`)
    text = (
        "data:\n"
        "  1: a\n  1.5: c\n  0x1F: f\n  0o10: g\n  09: h\n  1_000: i\n  2001-12-14: j\n  .inf: k\n"
        "  y: d\n"
        "v: [y, n, yes, off, 1e3, 0x1F, 0o10, 1_000, '1', 1.0, -0b11, 1.0e400, 2001-12-14, ~, '']\n"
    )
    (doc,) = load_text(text)
    assert doc.data["data"] == {"1": "a", "1.5": "c", "31": "f", "8": "g", "9": "h", "1000": "i",
                                "2001-12-14": "j", ".inf": "k", "true": "d"}
    assert list(doc.data["data"]) == ["1", "1.5", "31", "8", "9", "1000", "2001-12-14", ".inf", "true"]
    assert doc.data["v"] == [True, False, True, False, 1000, 31, 8, 1000, "1", 1, -3, "1.0e400",
                             "2001-12-14", None, ""]


def test_explicit_and_non_specific_tags_like_kubectl() -> None:
    # kubectl v1.32: {"a": "12", "b": 3, "c": null, "d": true, "e": "12"}
    (doc,) = load_text('a: ! 12\nb: !!float 3\nc: !!null ""\nd: !!bool yes\ne: !!str 12\n')
    assert doc.data == {"a": "12", "b": 3, "c": None, "d": True, "e": "12"}


def test_syntax_error_in_a_later_document_keeps_earlier_ones() -> None:
    result = load("a: 1\n---\nb: 2\n---\nc: [\n", "in.yaml")
    assert [d.data for d in result.documents] == [{"a": 1}, {"b": 2}]
    (d,) = result.errors
    assert (d.rule, d.line, d.column) == ("load.syntax", 6, 1)  # end of input, after the open `[`
    entries = result.entries()
    assert [(doc.data if doc else None, diags) for doc, diags in entries] == [
        ({"a": 1}, []), ({"b": 2}, []), (None, [d])]


def test_entries_in_source_order() -> None:
    result = load("- x\n---\na: 1\na: 2\n", "in.yaml")
    (first, second) = result.entries()
    assert first[0] is None and first[1][0].rule == "load.not-a-mapping"
    assert second[0] is not None and [d.rule for d in second[1]] == ["load.duplicate-key"]


def test_yaml_v3_decoder_keeps_yaml11_booleans_as_strings() -> None:
    (doc,) = load("a: [n, yes, true, on]\n", decoder="yaml.v3").documents
    assert doc.data == {"a": ["n", "yes", True, "on"]}


def test_merge_keys() -> None:
    (doc,) = load_text("base: &b {x: 1, z: 2}\nd:\n  <<: *b\n  z: 3\n")
    assert doc.data["d"] == {"x": 1, "z": 3}


def test_json_keeps_json_semantics_and_positions() -> None:
    text = '{\n  "a": 1.0,\n  "b": "yes",\n  "c": [true, null, 10]\n}\n'
    (doc,) = load_text(text, "x.json")
    assert doc.data == {"a": 1.0, "b": "yes", "c": [True, None, 10]}
    assert type(doc.data["a"]) is float
    assert doc.positions[("b",)] == (3, 3)
    assert doc.positions[("c", 2)] == (4, 21)


def test_json_duplicate_key() -> None:
    d = only_error('{"a": 1,\n "a": 2}\n', "x.json")
    assert (d.rule, d.line, d.column) == ("load.duplicate-key", 2, 2)


def test_bom_and_utf16() -> None:
    assert load_text(b"\xef\xbb\xbfa: 1\n")[0].data == {"a": 1}
    assert load_text("a: é\n".encode("utf-16"))[0].data == {"a": "é"}


@pytest.mark.parametrize(("data", "line", "column"), [
    (b"\xff\xfe\x00\xd8", 1, 1),  # a lone high surrogate first: the BOM is no character
    (b"\xff\xfe" + "ab".encode("utf-16-le") + b"\x00\xd8", 1, 3),
    (b"\xff\xfe" + "a: 1\nb: 2\n".encode("utf-16-le") + b"\x00\xdc" + "x".encode("utf-16-le"), 3, 1),
    (b"\xfe\xff" + "a: \U0001F600".encode("utf-16-be") + b"\xdc\x00", 1, 5),  # a pair is one character
])
def test_invalid_utf16_is_placed_on_its_line_and_column(data: bytes, line: int, column: int) -> None:
    """The bad code unit's line and character column, counted as for invalid UTF-8 (the byte order mark,
    which libyaml's reader consumes to pick the encoding, is not a character of the line)."""
    d = only_error(data)
    assert (d.rule, d.message, d.line, d.column) == ("load.encoding", "invalid UTF-16 byte sequence", line, column)


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BytesIO(b"a: 1\n---\nb: 2\n"))
    monkeypatch.setattr(sys, "stdin", fake)
    docs = load_path("-")
    assert [(d.file, d.data) for d in docs] == [("<stdin>", {"a": 1}), ("<stdin>", {"b": 2})]


def test_directory_walk_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a.yaml").write_text("a: 1\n")
    (tmp_path / "b" / "c.yml").write_text("c: 1\n")
    (tmp_path / "b" / "a.json").write_text('{"ba": 1}\n')
    (tmp_path / "Z.yaml").write_text("z: 1\n")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / ".hidden.yaml").write_text("h: 1\n")
    expected = [str(tmp_path / n) for n in ("Z.yaml", "a.yaml", "b/a.json", "b/c.yml")]
    assert iter_paths([str(tmp_path)]) == expected
    assert [d.data for d in load_path(str(tmp_path))] == [{"z": 1}, {"a": 1}, {"ba": 1}, {"c": 1}]
    assert iter_paths(["-", str(tmp_path / "notes.txt")]) == ["-", str(tmp_path / "notes.txt")]
    with pytest.raises(FileNotFoundError):
        iter_paths([str(tmp_path / "missing.yaml")])
    assert load_path_result(str(tmp_path)).diagnostics == []


def test_corpus_loads_like_pyyaml_where_semantics_agree() -> None:
    """Every upstream manifest loads without diagnostics; data equals PyYAML's for these files
    except where YAML-1.1 words differ (none in the v1beta1 corpus)."""
    corpus = SHARED / "reference" / "dynamo" / "corpus"
    if not corpus.is_dir():
        pytest.skip("../shared not available")
    import yaml

    files = sorted(corpus.rglob("*.yaml"))
    assert files
    for f in files:
        raw = f.read_bytes()
        result = load(raw, str(f))
        assert result.diagnostics == [], f
        ref = [d for d in yaml.load_all(raw, Loader=yaml.CSafeLoader) if d is not None]
        assert [d.data for d in result.documents] == [
            d for d in ref if not (isinstance(d, dict) and d.get("kind") == "List")], f


# ------------------------------------------------------------------------------------------------
# robustness: arbitrary input never raises anything but LoadError from load_text

_yamlish = st.text(alphabet=st.sampled_from(list("ab:-[]{},&*!|>'\"#%@? \t\n0123456789.~<=y")), max_size=60)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_yamlish, st.text(max_size=40), st.binary(max_size=40)))
def test_arbitrary_input_never_crashes(text: str | bytes) -> None:
    result = load(text, "fuzz.yaml")
    for d in result.diagnostics:
        assert d.rule.startswith("load.") and d.line is not None and d.line >= 1 and d.column is not None
    try:
        docs = load_text(text, "fuzz.yaml")
    except LoadError as exc:
        assert exc.diagnostics
    else:
        assert all(isinstance(doc.data, dict) for doc in docs)


def test_syntax_error_names_where_the_structure_began() -> None:
    # issue 15 item 4: where the problem was found (libyaml's problem mark) and where the unterminated
    # structure began (its context mark), when they differ
    d = only_error('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "x\ndata: {}\n')
    assert (d.rule, d.line, d.column, d.message) == (
        "load.syntax", 6, 1, "found unexpected end of stream (the quoted scalar started at 4:9)")
    d = only_error("- a\n- [b, {c: d\n")
    assert (d.line, d.column, d.message) == (
        3, 1, "did not find expected ',' or '}' (the flow mapping started at 2:7)")
    # the same place: nothing added
    d = only_error("a: b: c\n")
    assert "started at" not in d.message
    # a context that names a structure, but at the problem's own place: nothing added either (mutant 67bab0bba475)
    d = only_error("!x!y\n")  # libyaml: "while parsing a node" and "found undefined tag handle", both at 1:1
    assert (d.rule, d.line, d.column, d.message) == ("load.syntax", 1, 1, "found undefined tag handle")
    d = only_error("a: [\n")  # "while parsing a flow node", context and problem both at 2:1
    assert (d.line, d.column, d.message) == (2, 1, "did not find expected node content")


@pytest.mark.parametrize(("data", "message"), [
    (b"a: \xf4\x90\x80\x80\n", "invalid Unicode character"),  # 4 bytes, above U+10FFFF (mutant a79147a45d03)
    (b"a: \xf0\x80\x80\x80\n", "invalid length of a UTF-8 sequence"),  # overlong 4-byte form
    (b"a: \xe0\x80\x80\n", "invalid length of a UTF-8 sequence"),  # overlong 3-byte form
    (b"a: \xed\xa0\x80\n", "invalid Unicode character"),  # an encoded surrogate
])
def test_invalid_utf8_worded_as_libyaml(data: bytes, message: str) -> None:
    """libyaml's reader (yaml_parser_update_buffer) texts; the same words PyYAML's libyaml binding raises
    (``yaml.load(data, CSafeLoader)`` -> ``ReaderError(..., 'invalid Unicode character')``)."""
    d = only_error(data)
    assert (d.rule, d.message, d.line, d.column) == ("load.encoding", message, 1, 4)


def test_an_integer_key_beyond_uint64_is_a_float_key() -> None:
    """Above uint64, go-yaml v2 resolves a plain numeral as a float64 (ParseInt and ParseUint fail), and
    sigs.k8s.io/yaml writes the key with 32-bit %g: recorded with sigs.k8s.io/yaml v1.4.0 YAMLToJSON,
    ``{"a":{"1.8446744e+19":1}}`` (mutant 6eaa7468419d)."""
    (doc,) = load_text("a:\n  18446744073709551617: 1\n")
    assert doc.data == {"a": {"1.8446744e+19": 1}}


@pytest.mark.parametrize(("text", "message"), [
    ("a:\n  18446744073709551615: 1\n", "unsupported map key of type: uint64, key: 0xffffffffffffffff, value: 1"),
    ("a:\n  9223372036854775808: x\n", 'unsupported map key of type: uint64, key: 0x8000000000000000, value: "x"'),
    ("a:\n  0x8000000000000000: [1]\n",
     "unsupported map key of type: uint64, key: 0x8000000000000000, value: []interface {}{1}"),
])
def test_a_uint64_key_is_unsupported(text: str, message: str) -> None:
    """go-yaml v2 resolves a key above int64 as uint64, which sigs.k8s.io/yaml's JSON conversion has no case
    for: texts recorded with sigs.k8s.io/yaml v1.4.0 YAMLToJSON (int64's largest value is still a key)."""
    d = only_error(text)
    assert (d.rule, d.message, d.line, d.column) == ("load.unsupported-key", message, 2, 3)
    (doc,) = load_text("a:\n  9223372036854775807: 1\n")
    assert doc.data == {"a": {"9223372036854775807": 1}}


def test_load_error_names_the_first_error_and_counts_the_rest() -> None:  # mutant e7d3c1e19caf
    """``load_text`` raises LoadError located at the first error; "(and N more)" counts the other errors."""
    from dynamo_schema._io._load import LoadError, load_text

    text = "a: 1\na: 2\nb: 1\nb: 2\nc: 1\nc: 2\n"  # three duplicate keys: errors under strict loading
    try:
        load_text(text, "f.yaml")
    except LoadError as exc:
        assert str(exc) == 'f.yaml:2:1: key "a" already set in map (and 2 more)'
    else:
        raise AssertionError("no LoadError")


def test_an_explicitly_tagged_key_is_decoded_like_a_tagged_value() -> None:  # mutant 73afd3be4078
    """Only a ``!!str`` key (or a plain one) is taken as written; any other tag on a key is decoded as on a
    value. go-yaml v2.4.0 resolve.go fails ``!!timestamp notadate`` with "cannot decode !!str `notadate` as
    a !!timestamp" (the deferred failf); a tag outside the core schema is refused as on a value
    (test_custom_tag)."""
    d = only_error("a:\n  !!timestamp notadate: 1\n")
    assert (d.rule, d.line, d.column, d.path, d.message) == (
        "load.tag-mismatch", 2, 3, ("a",), "cannot decode !!str `notadate` as a !!timestamp")
    d = only_error("a:\n  !!zzz k: 1\n")
    assert (d.rule, d.line, d.column, d.path) == ("load.unsafe-tag", 2, 3, ("a",))
    assert "!!zzz" in d.message
    (doc,) = load_text("a:\n  !!timestamp 2001-12-14: 1\n  !!str 0x10: 2\n")
    assert doc.data == {"a": {"2001-12-14": 1, "0x10": 2}}


@pytest.mark.parametrize(("token", "value"), [
    # kubectl v1.32 (`kubectl patch --local`, sigs.k8s.io/yaml) decodes these plain scalars so; the
    # oracle test re-checks the same tokens against the installed kubectl
    (".0_0", 0), (".5_5", 0.55), (".1_2_3", 0.123), (".5e1_0", 5000000000), (".5e+1_0", 5000000000),
    (".0e0_1", 0), (".5E-1", 0.05),
    (".5e_1", ".5e_1"), ("._5", "._5"), (".5_", ".5_"), (".5__5", ".5__5"), (".5_e1", ".5_e1"),
    (".5e1_", ".5e1_"), (".e5", ".e5"), (".0x1", ".0x1"), (".5p1", ".5p1"),
])
def test_plain_scalar_starting_with_a_dot_is_a_go_float_literal(token: str, value: object) -> None:
    got = load_text(f"v: {token}\n")[0].data["v"]
    assert got == value and type(got) is type(value)


def _go_parse_digits(s: str) -> int | None:
    """What go-yaml v2 makes of a plain scalar of ASCII digits: ``strconv.ParseInt(s, 0, 64)``, then
    ``ParseUint(s, 0, 64)`` (base 0: a leading ``0`` is octal); None when neither accepts it."""
    if len(s) > 1 and s[0] == "0":
        if any(c in "89" for c in s):
            return None
        v = int(s[1:], 8)
    else:
        v = int(s)
    return v if v < 1 << 64 else None


@settings(max_examples=2000, deadline=None)
@given(st.text("0123456789", min_size=1, max_size=26) | st.sampled_from(
    ["0", "00", "9" * 19, "1" + "0" * 19, "18446744073709551615", "18446744073709551616", "0" * 25, "07" * 11]))
def test_plain_digits_resolve_as_go_yaml(s: str) -> None:
    """The loader's plain-decimal shortcut and its general path agree with Go's integer parsing on digit strings
    (leading zeros: octal; past uint64: a string)."""
    from dynamo_schema._io._scalars import _go_int, _resolve_plain

    want = _go_parse_digits(s)
    assert _go_int(s) == want
    if want is not None:
        assert _resolve_plain(s) == want and type(_resolve_plain(s)) is int
