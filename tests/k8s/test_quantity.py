"""``quantity_is_zero``: the one copy of ``resource.Quantity.IsZero`` (convert's shared-memory rules and the
renderer's shared-memory volume used two; the convert copy read the number as a float, so a tiny valid
quantity such as ``1e-400`` underflowed to zero)."""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._k8s._quantity import quantity_is_zero

# Expected values printed by k8s.io/apimachinery v0.32.0 (pkg/api/resource): ``Quantity.IsZero`` of each
# string parsed with ``ParseQuantity``, and of the zero ``Quantity`` (a field that is absent or null).
GO_IS_ZERO = [
    ("0", True), ("0Gi", True), ("0.0", True), ("-0", True), ("+0", True), ("0e5", True), ("0E", True),
    ("0Ei", True), (".0", True), ("0.", True), ("0m", True),
    ("1n", False), ("1e-400", False), ("0." + "0" * 39 + "1", False), ("1e-30", False), ("1Gi", False),
    ("0.5", False), ("1E", False),
]


@pytest.mark.parametrize(("text", "want"), GO_IS_ZERO)
def test_is_zero_as_apimachinery(text: str, want: bool) -> None:
    assert quantity_is_zero(text) is want


def test_absent_is_go_zero_value() -> None:
    assert quantity_is_zero(None) is True


@pytest.mark.parametrize(("value", "want"), [(0, True), (0.0, True), (1, False), (" 0 ", True), (" 1Gi", False)])
def test_json_numbers_and_trimmed_strings(value: Any, want: bool) -> None:
    """``Quantity.UnmarshalJSON`` takes a JSON number as its text and ``strings.TrimSpace``-s a string."""
    assert quantity_is_zero(value) is want


@pytest.mark.parametrize("value", ["", "abc", "0 Gi", "0xyz", False, [], {}])
def test_not_a_quantity_is_not_zero(value: Any) -> None:
    """The decoder refuses these (``ParseQuantity``: quantities must match the regular expression)."""
    assert quantity_is_zero(value) is False


@pytest.mark.parametrize(("text", "power"), [("1Ki", 10), ("1Mi", 20), ("1Gi", 30), ("1Ti", 40), ("3Ti", 40),
                                             ("1Pi", 50), ("1Ei", 60)])
def test_binary_suffixes(text: str, power: int) -> None:  # mutant 1484c1295469
    """apimachinery resource suffix.go: the binary suffixes Ki..Ei are 2^10..2^60."""
    from decimal import Decimal

    from dynamo_schema._k8s._quantity import parse_quantity

    assert parse_quantity(text) == int(text[0]) * Decimal(2) ** power


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_json_numbers_are_no_quantity(value: float) -> None:  # mutant 12833424ed3e
    """A JSON number is finite (RFC 8259 has no NaN or infinity, encoding/json refuses them) and ParseQuantity
    accepts no "NaN"/"Inf" text: a non-finite float is no quantity."""
    from dynamo_schema._k8s._quantity import parse_quantity

    assert parse_quantity(value) is None
    assert not quantity_is_zero(value)
