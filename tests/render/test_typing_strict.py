"""``mypy --strict`` holds for the render targets, the InferCrane adapters and the Kubernetes/Go facts
(issue 9: typed seams; the adapter Protocol is checked by mypy against every adapter module).

Errors mypy reports in modules these import (other packages, not yet strict) are not this test's business.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dynamo_schema/_render", "dynamo_schema/_infercrane", "dynamo_schema/_k8s")


@pytest.mark.slow
def test_mypy_strict_for_render_infercrane_k8s() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", *PACKAGES], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    ours = [line for line in proc.stdout.splitlines() if line.startswith(tuple(p + "/" for p in PACKAGES))]
    assert "error" not in proc.stderr.lower(), proc.stderr
    assert "Found" in proc.stdout or "Success" in proc.stdout, proc.stdout  # mypy ran and checked something
    assert not ours, "\n".join(ours)
