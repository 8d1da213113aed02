"""Differential check against the real kubeconform binary (optional: `nox -s kubeconform`).

kubeconform is a Go binary that no registry here ships. When it is on PATH (or named by
``DYNAMO_SCHEMA_KUBECONFORM``), it validates our bundled examples against the schemas we generate, in the
CRDs-catalog layout, and must agree with our own validator about every resource's validity.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINARY = os.environ.get("DYNAMO_SCHEMA_KUBECONFORM") or shutil.which("kubeconform")


@pytest.mark.skipif(not BINARY or not Path(BINARY).exists(), reason="kubeconform binary not available")
def test_kubeconform_agrees_with_us_on_examples(tmp_path: Path) -> None:
    from dynamo_schema._api import validate

    schemas = ROOT / "schemas"
    files = sorted((ROOT / "examples").glob("*.yaml"))
    proc = subprocess.run(
        [str(BINARY), "-strict", "-summary", "-output", "json", "-kubernetes-version", "1.32.0",
         "-schema-location", str(schemas) + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json",
         *map(str, files)],
        capture_output=True, text=True,
    )
    report = json.loads(proc.stdout)
    for res in report["resources"]:
        ours = [d for d in validate(res["filename"]) if d.severity == "error" and d.rule.startswith("schema.")]
        theirs_invalid = res["status"] in ("statusInvalid", "statusError")
        assert bool(ours) == theirs_invalid, (res, ours)
