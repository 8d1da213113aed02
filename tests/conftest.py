from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared (reference data) is not available")
    return SHARED


def pytest_sessionstart(session: pytest.Session) -> None:
    """In CI the reference data must be there: a missing ../shared would turn most checks into skips."""
    if os.environ.get("CI") and not SHARED.is_dir():
        raise pytest.UsageError(f"CI run without the reference data at {SHARED}")
