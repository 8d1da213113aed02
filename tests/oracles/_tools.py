"""Locate the independent oracle binaries (installed by ``.ci/install-oracles.sh``).

Looked up on ``PATH``, then in the install script's cache folder
(``${DYNAMO_SCHEMA_TOOLS:-~/.cache/dynamo-schema/tools}/bin``). Under ``CI`` a missing binary fails the
test (an oracle that does not run must not pass as a skip); elsewhere the test is skipped.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()


def tools_bin() -> Path:
    base = os.environ.get("DYNAMO_SCHEMA_TOOLS") or str(Path.home() / ".cache" / "dynamo-schema" / "tools")
    return Path(base) / "bin"


def find(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    cand = tools_bin() / name
    return str(cand) if cand.is_file() and os.access(cand, os.X_OK) else None


def require(name: str) -> str:
    found = find(name)
    if found is None:
        msg = (f"{name} not found on PATH nor in {tools_bin()}: run `bash .ci/install-oracles.sh` "
               "(needs Go and the Go module proxy)")
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return found
