"""``mypy --strict`` holds for Grove's admission, the schema checks and the diff (issue 9: strict typing,
package by package, until the whole package is strict). Imports into other modules are not checked here
(``--follow-imports=silent``): tests/test_static.py checks the package with the project's settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRICT = [
    "dynamo_schema/_grove",
    "dynamo_schema/_schema",
    "dynamo_schema/_pipeline/_diff.py",
    "dynamo_schema/_pipeline/_diff_impact.py",
    "dynamo_schema/_core/_access.py",
]


@pytest.mark.slow
def test_strict_modules_are_strict() -> None:
    assert all((ROOT / p).exists() for p in STRICT)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", *STRICT],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
