"""``_convert`` stays clean under ``mypy --strict`` (issue 9): its modules are typed with the JSON
aliases of ``_convert/_json.py``, no bare generics, no ``Any`` returned where a type is declared.

Only the lines about ``_convert`` count: mypy follows the imports into packages that are not strict yet.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_convert_is_mypy_strict_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "dynamo_schema/_convert"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "error:" in proc.stdout or proc.returncode == 0, proc.stdout + proc.stderr  # mypy ran
    ours = [line for line in proc.stdout.splitlines() if line.startswith("dynamo_schema/_convert/")]
    assert not ours, "\n".join(ours)
