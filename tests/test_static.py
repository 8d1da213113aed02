"""The architecture and the types are checked on every run, not only in a lint session.

* import-linter holds the pipeline's layers (pyproject ``[tool.importlinter]``): a stage never imports
  the CLI, the CLI never hides in a stage.
* mypy holds the package type-clean under ``--strict`` (pyproject ``[tool.mypy] strict = true``;
  ``py.typed`` promises it to users).
* no hand-written module is over 800 lines.
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
    """``mypy`` with the project's settings: strict for every hand-written module."""
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


GENERATED = ("_generated", "_grove.py")  # models/_generated*.py and models/_grove.py come from tools/


def test_no_hand_written_module_is_over_800_lines() -> None:
    """Issue 9: a big file holds several modules; split it along its seams."""
    big = {}
    for path in sorted((ROOT / "dynamo_schema").rglob("*.py")):
        if path.parent.name == "models" and path.name.startswith(GENERATED):
            continue
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > 800:
            big[path.relative_to(ROOT).as_posix()] = lines
    assert not big, big
