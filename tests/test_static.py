"""The architecture and the types are checked on every run, not only in a lint session.

* import-linter holds the pipeline's layers (pyproject ``[tool.importlinter]``): a stage never imports
  the CLI, the CLI never hides in a stage.
* mypy holds the package type-clean (``py.typed`` promises it to users).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.needs("lint-imports")
def test_layers_hold() -> None:
    proc = subprocess.run(["lint-imports"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
