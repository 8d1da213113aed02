"""The golden matcher's own tests (semantics from shared/reference/dynamo/golden/MATCHERS.md)."""

from __future__ import annotations

import pytest

from .matcher import MatcherError, glob_to_regex, load_yaml12_documents, match_manifests, match_node


def y(text: str):
    return load_yaml12_documents(text)[0]


def ok(expected, actual) -> bool:
    return match_node(expected, actual) == []


def test_yaml12_decoding() -> None:
    doc = y("a: n\nb: yes\nc: on\nd: 'n'\ne: \"8000\"\nf: 8000\n")
    assert doc == {"a": "n", "b": "yes", "c": "on", "d": "n", "e": "8000", "f": 8000}


def test_mappings_strict_by_default() -> None:
    assert ok({"a": 1}, {"a": 1})
    assert not ok({"a": 1}, {"a": 1, "b": 2})
    assert not ok({"a": 1, "b": 2}, {"a": 1})
    assert ok({"$strict": False, "a": 1}, {"a": 1, "b": 2})
    # nested mappings are strict again
    assert not ok({"$strict": False, "m": {"a": 1}}, {"m": {"a": 1, "x": 0}})
    assert ok({"$strict": True, "a": 1}, {"a": 1})


def test_strict_must_be_boolean() -> None:
    with pytest.raises(MatcherError, match=r"directive \$strict must be a boolean"):
        match_node({"$strict": "no", "a": 1}, {"a": 1})


def test_literal_dollar_key() -> None:
    assert ok({"$$strict": 1}, {"$strict": 1})


def test_scalars_compare_decoded_values() -> None:
    assert not ok("8000", 8000)
    assert not ok(1, True)
    assert not ok(1, 1.0)
    assert ok("n", "n")
    assert not ok({"a": 1}, {"a": [1]})


def test_sequences_ordered_exact() -> None:
    assert ok([1, 2], [1, 2])
    assert not ok([1, 2], [2, 1])
    assert not ok([1], [1, 2])
    assert ok([{"$strict": False, "a": 1}], [{"a": 1, "b": 2}])


def test_ignore_and_exists() -> None:
    for d in ("$ignore", "$exists"):
        assert ok({"f": d}, {"f": "anything"})
        assert not ok({"f": d}, {})
        assert not ok({"f": d}, {"f": {"x": 1}})
        assert ok({"f": {d: True}}, {"f": {"x": 1}})
        assert not ok({"f": {d: True}}, {"f": 3})
        assert not ok({"f": {d: True}}, {})
    with pytest.raises(MatcherError, match="must be true"):
        match_node({"f": {"$ignore": False}}, {"f": {}})


def test_notexists() -> None:
    assert ok({"a": 1, "status": "$notexists"}, {"a": 1})
    assert not ok({"a": 1, "status": "$notexists"}, {"a": 1, "status": None})
    assert ok({"a": 1, "status": {"$notexists": True}}, {"a": 1})
    assert not ok({"a": 1, "status": {"$notexists": True}}, {"a": 1, "status": {}})


def test_pattern() -> None:
    assert ok("$pattern:1\\.4\\..*", "1.4.0")
    assert not ok("$pattern:1\\.4\\..*", "11.4.0")  # whole-value match
    assert not ok("$pattern:[0-9a-f]{8}", "abcd12345")
    assert not ok("$pattern:8.*", 8000)  # pattern requires a string


def test_glob() -> None:
    assert ok("$glob:component-manifests-decode-*", "component-manifests-decode-81c30ad2")
    assert not ok("$glob:clusterenv-*", "clusterenv-a/b")  # * does not cross /
    assert ok("$glob:a?c", "abc")
    assert ok("$glob:[^x]b", "ab") and not ok("$glob:[^x]b", "xb")
    assert ok("$glob:a\\*", "a*") and not ok("$glob:a\\*", "ab")
    assert glob_to_regex("a[b-d]") == "a[b-d]"
    assert not ok("$glob:*", 5)


def test_var_substitution_and_unknown_var() -> None:
    exp = [{"apiVersion": "v1", "kind": "X", "metadata": {"name": "a"}, "v": "$var:worker-hash"}]
    act = [{"apiVersion": "v1", "kind": "X", "metadata": {"name": "a"}, "v": "abcd1234"}]
    assert match_manifests(exp, act, {"worker-hash": "abcd1234"}) == []
    assert match_manifests(exp, act, {"worker-hash": "ffff0000"}) != []
    with pytest.raises(MatcherError, match="unknown variable"):
        match_manifests(exp, act, {})


def test_document_level_rules() -> None:
    exp = [{"apiVersion": "v1", "kind": "X", "metadata": {"$strict": False, "name": "$glob:a*"}}]
    one = [{"apiVersion": "v1", "kind": "X", "metadata": {"name": "a1"}}]
    two = one + [{"apiVersion": "v1", "kind": "X", "metadata": {"name": "a2"}}]
    other_kind = one + [{"apiVersion": "v1", "kind": "Y", "metadata": {"name": "zzz"}}]
    assert match_manifests(exp, one) == []
    assert any("matches 2 objects" in f for f in match_manifests(exp, two))
    assert match_manifests(exp, other_kind) == []  # kinds absent from the file are not checked
    extra = one + [{"apiVersion": "v1", "kind": "X", "metadata": {"name": "b"}}]
    assert any("unexpected object is present" in f for f in match_manifests(exp, extra))
    assert any("has not appeared" in f for f in match_manifests(exp, []))
