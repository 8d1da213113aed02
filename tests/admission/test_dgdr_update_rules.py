"""DGDR update admission: the runtime-version override on update (required for an image without a
semantic-version tag unless the unchanged legacy image is ratcheted; phase-frozen specs; autoApply), and
an object being deleted, which is not validated.

Cases follow the upstream rows at the reference revision (ai-dynamo/dynamo@2a6da14c,
``deploy/operator/internal/webhook/validation/*_test.go``; the test ids are the row names); the row without
an upstream case is built from the Go format string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.admission._admission_helpers import (
    beta_dgdr,
    errors,
    run_update,
)
from tests.admission._rules_support import _both, _set

Mutator = Callable[[dict[str, Any]], Any]
OVERRIDE_REQUIRED = (
    "spec.runtimeVersionOverride: Required value: is required when spec.image has no parseable semantic-version tag"
)


# ----------------------------------------------------------------------------- DGDR runtime override on update


def _dgdr(**spec: Any) -> dict[str, Any]:
    """``betaDGDRForAdmission`` with ``spec`` changes (``None`` removes a field)."""

    def m(d: dict[str, Any]) -> None:
        d["spec"].update(
            {
                "backend": "vllm",
                "image": "profiler:latest",
                "runtimeVersionOverride": "1.1.0",
                "searchStrategy": "rapid",
            }
        )
        _apply(d, spec)

    return beta_dgdr(m)


def _apply(d: dict[str, Any], spec: dict[str, Any]) -> None:
    for key, value in spec.items():
        if value is None:
            d["spec"].pop(key, None)
        else:
            d["spec"][key] = value


def _spec(**spec: Any) -> Mutator:
    return lambda d: _apply(d, spec)


def _label(d: dict[str, Any]) -> None:
    d["metadata"]["labels"] = {"updated": "true"}


@pytest.mark.parametrize(
    ("old", "change", "phase", "want"),
    [
        pytest.param(
            {"runtimeVersionOverride": None},
            _label,
            "Deployed",
            [],
            id="unchanged legacy custom image without override is ratcheted on update",
        ),
        pytest.param(
            {"runtimeVersionOverride": None},
            _spec(runtimeVersionOverride="1.1.0"),
            "Deployed",
            [
                'spec: Forbidden: updates are forbidden while the resource is in phase "Deployed"; delete and '
                "recreate the resource to change its spec"
            ],
            id="adding runtime version override is rejected after deployment",
        ),
        pytest.param(
            {"image": "test-profiler:1.1.0", "runtimeVersionOverride": None},
            _spec(image="profiler:latest"),
            None,
            [OVERRIDE_REQUIRED],
            id="newly introduced custom image without override is rejected on update",
        ),
        pytest.param(
            {"runtimeVersionOverride": None},
            _spec(image="test-profiler:other-custom"),
            None,
            [OVERRIDE_REQUIRED],
            id="changing a legacy custom image without override is rejected on update",
        ),
        pytest.param(
            {"autoApply": False, "runtimeVersionOverride": None},
            _spec(autoApply=True, runtimeVersionOverride="1.1.0"),
            "Ready",
            [],
            id="auto apply activation can add a missing runtime version override",
        ),
        pytest.param(
            {"autoApply": False, "runtimeVersionOverride": None},
            _spec(autoApply=True),
            "Ready",
            [OVERRIDE_REQUIRED],
            id="auto apply activation requires a missing runtime version override",
        ),
        pytest.param(
            {"autoApply": False, "runtimeVersionOverride": None},
            _spec(runtimeVersionOverride="1.1.0"),
            "Ready",
            [],
            id="runtime version override can be added while ready with auto apply disabled",
        ),
        pytest.param(
            {"autoApply": False},
            _spec(runtimeVersionOverride="1.2.0"),
            "Profiling",
            [],
            id="runtime version override can change while profiling with auto apply disabled",
        ),
        pytest.param(
            {"runtimeVersionOverride": "1.1.0"},
            _spec(runtimeVersionOverride=None),
            None,
            [OVERRIDE_REQUIRED],
            id="removing the override from a custom image",  # Go format string; no upstream row
        ),
    ],
)
def test_dgdr_runtime_version_override_on_update(
    old: dict[str, Any], change: Mutator, phase: str | None, want: list[str]
) -> None:
    status = {"phase": phase} if phase else None
    diags = run_update(_dgdr(**old), change, old_status=status)
    assert errors(diags) == want
    if OVERRIDE_REQUIRED in want:
        assert "dgdr.runtime-version-override-required" in {d.rule for d in diags}


# ----------------------------------------------------------------------------- DGDR updates that pass


def test_dgdr_deferred_runtime_version_update_allowed() -> None:
    base = beta_dgdr(
        _both(
            _set(["spec", "autoApply"], False),
            _set(["spec", "image"], "r/p:latest"),
            _set(["spec", "runtimeVersionOverride"], "1.4.0"),
        )
    )
    diags = run_update(base, _set(["spec", "runtimeVersionOverride"], "1.5.0"), old_status={"phase": "Ready"})
    assert errors(diags) == []


def test_dgdr_deleting_object_is_not_validated_on_update() -> None:
    diags = run_update(
        beta_dgdr(),
        lambda d: (
            d["metadata"].__setitem__("deletionTimestamp", "2026-01-01T00:00:00Z"),
            d["spec"].__setitem__("model", "x"),
        ),
        old_status={"phase": "Profiling"},
    )
    assert diags == []
