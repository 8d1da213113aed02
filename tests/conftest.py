from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()
IN_CI = bool(os.environ.get("CI"))

# Derandomized (reproducible) only in CI; a developer's run explores new examples each time.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if IN_CI else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared (reference data) is not available")
    return SHARED


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*programs): the test runs these programs; skipped when absent, a failure under CI=1"
    )
    config.addinivalue_line(
        "markers", "shared: the test reads ../shared (upstream reference data); skipped when it is absent"
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    """In CI the reference data must be there: a missing ../shared would turn most checks into skips."""
    if IN_CI and not SHARED.is_dir():
        raise pytest.UsageError(f"CI run without the reference data at {SHARED}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # a test that runs an external program is an integration test
        if item.get_closest_marker("needs") is not None:
            item.add_marker(pytest.mark.integration)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("shared") is not None and not SHARED.is_dir():
        pytest.skip("../shared (reference data) is not available")  # under CI=1 the session stops earlier
    for marker in item.iter_markers("needs"):
        missing = [p for p in marker.args if shutil.which(p) is None]
        if missing:
            if IN_CI:
                pytest.fail(f"{', '.join(missing)} required under CI=1 but not on PATH", pytrace=False)
            pytest.skip(f"{', '.join(missing)} not installed")
