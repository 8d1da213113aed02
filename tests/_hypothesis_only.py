"""A pytest plugin (``-p tests._hypothesis_only``): keep only the property-based (Hypothesis) tests of the
collected modules whose examples depend on the seed (not ``derandomize=True``); tests/test_property_seeds.py
runs them under random seeds."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep = [i for i in items if _seeded(getattr(i, "obj", None))]
    drop = [i for i in items if i not in keep]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _seeded(fn: object) -> bool:
    if not getattr(fn, "is_hypothesis_test", False):
        return False
    settings = getattr(fn, "_hypothesis_internal_use_settings", None)
    return not getattr(settings, "derandomize", False)
