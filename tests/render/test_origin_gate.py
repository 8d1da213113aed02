"""The operator-origin feature gate (``compatibility.Gate.Enabled``, the reference revision's
``features/compatibility/operator_origin.go``): Masterminds/semver v3.4.0 ``NewVersion`` then
``Compare(MinOriginVersion) >= 0``. It decides whether multinode vLLM gets the multiprocessing backend.

Rows: upstream's own ``TestGateEnabled`` (threshold 1.0.0), then Masterminds/semver v3.4.0's parse (loose
pattern anchored at the end of the text, ``v`` but not ``V``, no wildcards, uint64 segments, prerelease
identifiers checked, a prerelease below its release); each of the latter was checked against the real
library (``semver.NewVersion`` + ``Compare``), and a 3,000-string differential against it agreed."""

from __future__ import annotations

import pytest

from dynamo_schema._render._backends import use_vllm_mp
from dynamo_schema._render._runtime import VLLM_MULTIPROCESSING_ORIGIN, at_least

ORIGIN = "nvidia.com/dynamo-operator-origin-version"

UPSTREAM = [  # operator_origin_test.go TestGateEnabled
    ("0.9.0", False), ("1.0.0", True), ("2.0.0", True), ("0.9.0-dev", False), ("not-a-version", False),
    ("0.0.0-unknown", False),
]
SEMVER = [
    ("1", True), ("1.2", True), ("v1.0.0", True), ("01.2.3", True),  # coerced: short forms, leading zeros
    ("1.0.0+build.5", True), ("1.0.0+01", True),                          # metadata ignored
    ("1.0.0-rc1", False), ("1.0.0-0", False), ("2.0.0-alpha", True),     # a prerelease is below its release
    ("V1.0.0", False), ("1.4.x", False), ("1.*", False),                  # no capital V, no wildcards
    (" 1.2.3", False), ("1.2.3\n", False), ("1.2.3 ", False),            # nothing around it
    ("1.0.0-01", False), ("1.0.0-a..b", False), ("1.0.0-", False), ("1.0.0+", False),
    ("18446744073709551616.0.0", False), ("18446744073709551615.0.0", True),  # uint64 segments
    ("\u0663.0.0", False), ("1.0.0.0", False), ("", False),
]


@pytest.mark.parametrize(("version", "want"), UPSTREAM + SEMVER)
def test_origin_gate(version: str, want: bool) -> None:
    assert at_least(version, VLLM_MULTIPROCESSING_ORIGIN) is want
    # and the backend choice that reads it, with no vllm-distributed-executor-backend override
    assert use_vllm_mp({ORIGIN: version}) is want


def test_no_origin_annotation_disables_the_gate() -> None:
    assert use_vllm_mp({}) is False
    assert at_least(None, (1, 0, 0)) is False
