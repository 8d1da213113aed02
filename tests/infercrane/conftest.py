from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
REFERENCE = SHARED / "reference" / "infercrane"


@pytest.fixture(scope="session")
def reference() -> Path:
    if not REFERENCE.is_dir():
        pytest.skip("shared InferCrane reference data is not available")
    return REFERENCE


def sh_syntax_ok(script: str) -> tuple[bool, str]:
    """``sh -n`` (POSIX syntax check without running anything)."""
    sh = shutil.which("sh")
    if sh is None:
        pytest.skip("no POSIX sh available for the syntax check")
    proc = subprocess.run([sh, "-n"], input=script, capture_output=True, text=True, timeout=30, check=False)
    return proc.returncode == 0, proc.stderr
