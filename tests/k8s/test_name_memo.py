"""The name and label rules remember the strings they accepted (``_k8s._names.memo_valid``): the answer
is the rule's own on every call, first or later, accepted or refused, and a caller's list is its own."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._k8s import _names
from dynamo_schema._k8s._objectmeta import qualified_name_errors

RULES = [_names.dns1123_label_errors, _names.dns1123_subdomain_errors, _names.dns1035_label_errors,
         _names.label_value_errors, qualified_name_errors]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.__name__)
@settings(max_examples=200, derandomize=True)
@given(st.lists(st.one_of(st.sampled_from(["a", "a-b", "A", "a.b", "a/b", "x" * 64, "", "-a", "nvidia.com/x",
                                           "1abc", "a_b", "a..b"]),
                          st.from_regex(r"[-a-zA-Z0-9_./]{0,70}", fullmatch=True)), max_size=12))
def test_memo_answers_as_the_rule(rule, values: list[str]) -> None:  # type: ignore[no-untyped-def]
    for v in values + values:
        assert rule(v) == rule.__wrapped__(v)


def test_an_accepted_string_gives_a_fresh_list() -> None:
    first = _names.label_value_errors("memo-fresh")
    assert first == []
    first.append("changed by a caller")
    assert _names.label_value_errors("memo-fresh") == []


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_names, "_VALID_LIMIT", 3)
    check = _names.memo_valid(_names.label_value_errors.__wrapped__)  # type: ignore[attr-defined]
    for i in range(10):
        assert check(f"v{i}") == []
    cell = next(c.cell_contents for c in check.__closure__ if isinstance(c.cell_contents, set))  # type: ignore[union-attr]
    assert 1 <= len(cell) <= 3
    assert check("-bad") == _names.label_value_errors.__wrapped__("-bad") != []  # type: ignore[attr-defined]
