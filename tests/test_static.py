"""The architecture and the types are checked on every run, not only in a lint session.

* import-linter holds the pipeline's layers (pyproject ``[tool.importlinter]``): a stage never imports
  the CLI, the CLI never hides in a stage.
* mypy holds the package type-clean under ``--strict`` (pyproject ``[tool.mypy] strict = true``;
  ``py.typed`` promises it to users).
* no hand-written module is over 800 lines; tests write YAML through the Kubernetes-safe emitter.
* the tree carries no upstream code, no recipe to build or run it, and no data extracted from it (the
  operator's render test rows are reference data in ../shared; docs/upstream-render-tests.md).
"""

from __future__ import annotations

import re
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


# Issue 26: the folders that held a harness compiled into upstream (and its build steps) and the rows
# extracted with it. Go sources of our own may exist (tests/io/data/gojson records Go's standard library);
# none may import the operator's packages.
UPSTREAM_ONLY = ("tools/upstream_dump", "tests/render/upstream_cases")


def test_no_upstream_code_or_extracted_data_in_the_tree() -> None:
    present = [p for p in UPSTREAM_ONLY if (ROOT / p).exists()]
    go = sorted(p.relative_to(ROOT).as_posix() for top in ("dynamo_schema", "tests", "tools", "docs", "benchmarks")
                for p in (ROOT / top).rglob("*") if p.name.endswith((".go", ".go.txt"))
                and "github.com/ai-dynamo/" in p.read_text(encoding="utf-8", errors="replace"))
    assert not present and not go, (present, go)


def test_tests_write_yaml_through_the_kubernetes_safe_emitter() -> None:
    # issue 20: yaml.safe_dump writes a generated label value `n` unquoted, which our loader (like
    # sigs.k8s.io/yaml) reads back as a boolean; tests/_yaml.py is the emitter tests use. A line marked
    # ``# negative control`` calls it on purpose, to show what it gets wrong (tests/test_public_types.py).
    unsafe = re.compile(r"(?<![\w.])yaml\.(safe_)?dump(_all)?\(")
    offenders = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*.py")
                       if p.name not in ("_yaml.py", "test_static.py", "test_emit_fast.py")
                       and any(unsafe.search(line) and "# negative control" not in line
                               for line in p.read_text(encoding="utf-8").splitlines()))
    assert not offenders, offenders
