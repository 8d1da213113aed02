from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from ._cel_shadow import Shadow

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()
IN_CI = bool(os.environ.get("CI"))
# The CEL shadow check (tests/_cel_shadow.py, D40): on under CI, or locally with DYNAMO_SCHEMA_CEL_SHADOW=1;
# DYNAMO_SCHEMA_CEL_SHADOW=0 turns it off (to measure its cost).
_SHADOW_ENV = os.environ.get("DYNAMO_SCHEMA_CEL_SHADOW", "")
SHADOW_CEL = _SHADOW_ENV == "1" or (IN_CI and _SHADOW_ENV != "0")

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
    if SHADOW_CEL:
        _install_cel_shadow(session.config)


# --- the CEL shadow check ------------------------------------------------------------------------

_SHADOW_KEY = pytest.StashKey["Shadow"]()


def _install_cel_shadow(config: pytest.Config) -> None:
    from dynamo_schema._schema import _cel, _cel_engine

    if not _cel_engine.available():
        if sys.version_info >= (3, 11) and IN_CI:
            raise pytest.UsageError("CEL shadow check: cel-expr-python is a dependency on Python >= 3.11 "
                                    "but cannot be imported")
        return  # Python 3.10: no engine, the fast path runs alone (D17)
    from ._cel_shadow import Shadow

    shadow = Shadow()
    _cel.fast_path_hook = shadow.hook
    config.stash[_SHADOW_KEY] = shadow


def _shadow(config: pytest.Config) -> Shadow | None:
    return config.stash.get(_SHADOW_KEY, None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A disagreement of the fast path with the engine fails the test that made it."""
    shadow = _shadow(item.config)
    if shadow is None:
        return (yield)
    seen = len(shadow.disagreements)
    shadow.test = item.nodeid
    try:
        result = yield
    except BaseException as exc:  # the test failed on its own: say so too, with the test's error as cause
        _raise_if_new(shadow, seen, exc)
        raise
    _raise_if_new(shadow, seen, None)
    return result


def _raise_if_new(shadow: Shadow, seen: int, cause: BaseException | None) -> None:
    new = shadow.disagreements[seen:]
    if new:
        raise AssertionError(f"CEL fast path disagrees with the engine ({len(new)}):\n" + "\n".join(new[:5])) from cause


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """... and the session (also where the test's own outcome would hide it: an xfail, a caught error)."""
    shadow = _shadow(session.config)
    if shadow is not None and shadow.disagreements and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int,
                            config: pytest.Config) -> None:
    shadow = _shadow(config)
    if shadow is None:
        return
    terminalreporter.write_line(f"CEL shadow check: {shadow.checked} fast-path evaluations checked against the "
                                f"engine ({shadow.seconds:.1f} s), {len(shadow.disagreements)} disagreements")
    for d in shadow.disagreements[:20]:
        terminalreporter.write_line(d)


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
