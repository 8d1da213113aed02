"""Every nvidia.com/v1beta1 DGD/DCD/DGDR of the upstream corpus passes admission with the default
settings (after defaulting), except files that really violate an upstream rule (xfail)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from dynamo_schema._admission import AdmissionSettings, default, validate
from tests.admission._admission_helpers import SHARED

CORPUS = SHARED / "reference" / "dynamo" / "corpus" / "v1beta1"
FILES = sorted(CORPUS.glob("*.yaml")) if CORPUS.is_dir() else []
# Placeholders the docs ask users to replace: `${IMAGE}`-style variables and `:my-tag` image tags.
PLACEHOLDER_IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0"

XFAIL = {
    "examples__backends__trtllm__deploy__snapshot-restore.yaml": "enables experimental.checkpoint, which the operator rejects unless the checkpoint gate is on "
    "(checkpoint functionality is disabled in the operator configuration)",
    "examples__power-aware-budget__dgd.yaml": "main containers have no image; upstream admission requires it "
    "(podTemplate.spec.containers[0].image: Required value: is required)",
}


def _documents(path: Path) -> list[dict]:
    text = re.sub(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}", PLACEHOLDER_IMAGE, path.read_text())
    text = text.replace(":my-tag", ":1.5.0")
    return [
        d
        for d in yaml.load_all(text, Loader=yaml.CSafeLoader)
        if isinstance(d, dict)
        and d.get("apiVersion") == "nvidia.com/v1beta1"
        and d.get("kind")
        in ("DynamoGraphDeployment", "DynamoComponentDeployment", "DynamoGraphDeploymentRequest")
    ]


def test_corpus_present() -> None:
    if not FILES:
        pytest.skip("../shared corpus not available")
    assert len(FILES) > 100


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p,
            id=p.name,
            marks=[pytest.mark.xfail(strict=True, reason=XFAIL[p.name])] if p.name in XFAIL else [],
        )
        for p in FILES
    ],
)
def test_corpus_document_admitted(path: Path) -> None:
    settings = AdmissionSettings()
    docs = _documents(path)
    problems = []
    for doc in docs:
        defaulted = default(doc, settings)
        assert default(defaulted, settings) == defaulted
        problems += [
            f"{d.field}: {d.message}" for d in validate(defaulted, settings) if d.severity == "error"
        ]
    assert problems == []


def test_snapshot_restore_is_admitted_with_checkpoint_gate() -> None:
    path = CORPUS / "examples__backends__trtllm__deploy__snapshot-restore.yaml"
    if not path.is_file():
        pytest.skip("../shared corpus not available")
    settings = AdmissionSettings(checkpoint_enabled=True)
    for doc in _documents(path):
        assert [d for d in validate(default(doc, settings), settings) if d.severity == "error"] == []
