"""Every upstream v1beta1 manifest through the whole ``validate`` pipeline.

* Schema and CEL (issue: foundation): every DGD, DCD and DGDR document of the corpus passes strict
  validation with zero errors, as written.
* Admission (defaulting + webhook rules): upstream examples carry placeholders (``${IMAGE}``, the tag
  ``my-tag``) that the real operator would refuse (no parseable runtime version); users fill them in
  before applying. With the placeholders filled in, every document is admitted, except two that the
  upstream webhook really refuses (strict xfail, reason given).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._io._load import load_text
from dynamo_schema._pipeline._validate import NVIDIA_KINDS, ValidateOptions, validate_document

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus" / "v1beta1").resolve()

KNOWN_REFUSALS = {
    "examples__backends__trtllm__deploy__snapshot-restore.yaml":
        "needs the operator's checkpoint feature gate (checkpoint_enabled=True admits it)",
    "examples__power-aware-budget__dgd.yaml": "main containers have no image: upstream admission requires one",
}


def _files() -> list[Path]:
    return sorted(CORPUS.iterdir()) if CORPUS.is_dir() else []


def _docs(text: str, name: str) -> list:
    return [d for d in load_text(text, name)
            if isinstance(d.data, dict) and d.data.get("apiVersion") == "nvidia.com/v1beta1"
            and d.data.get("kind") in NVIDIA_KINDS]


def fill_placeholders(text: str) -> str:
    text = re.sub(r"\$\{[A-Z_]+\}", "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0", text)
    return text.replace(":my-tag", ":1.5.0")


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_schema_and_cel_accept_corpus_as_written(path: Path) -> None:
    for doc in _docs(path.read_text(), str(path)):
        out = validate_document(doc, ValidateOptions(strict=True))
        bad = [d for d in out.diagnostics if d.severity == "error" and d.rule.split(".")[0] in ("schema", "cel", "load")]
        assert not bad, [f"{d.line}:{d.column} {d.field}: {d.message} [{d.rule}]" for d in bad]


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_REFUSALS[p.name]))
     if p.name in KNOWN_REFUSALS else p for p in _files()],
    ids=lambda p: p.name,
)
def test_corpus_admitted_once_placeholders_are_filled(path: Path) -> None:
    docs = _docs(fill_placeholders(path.read_text()), str(path))
    for doc in docs:
        # a cluster with DRA: the GPU Memory Service examples are meant for one (without it the operator's
        # reconcile refuses them, test_gms_example_needs_dra)
        out = validate_document(doc, ValidateOptions(strict=True, settings=AdmissionSettings(dra_enabled=True)))
        bad = [d for d in out.diagnostics if d.severity == "error"]
        assert not bad, [f"{d.line}:{d.column} {d.field}: {d.message} [{d.rule}]" for d in bad]


def test_placeholder_image_is_refused_like_upstream() -> None:
    """The unfilled placeholder is refused with the upstream webhook message."""
    path = CORPUS / "examples__backends__vllm__deploy__disagg.yaml"
    if not path.is_file():
        pytest.skip("corpus not available")
    doc = _docs(path.read_text(), str(path))[0]
    msgs = {d.message for d in validate_document(doc).diagnostics}
    assert ("Required value: is required when the specified main container image has no parseable "
            "semantic-version tag") in msgs


def test_gms_example_needs_dra() -> None:
    """Without DRA (the default) the operator admits a GPU Memory Service DGD, then its reconcile fails
    (operator-cases DRA-GATE, e.g. 0234-dgd-k8s-remove-frontend-ok): ``validate`` reports it as a
    ``reconcile.dra-unavailable`` error with the operator's message, at the component that asks for it."""
    from dynamo_schema._render._dra import DRA_UNAVAILABLE

    path = CORPUS / "examples__backends__vllm__deploy__agg_gms.yaml"
    assert path.is_file(), path
    doc = _docs(fill_placeholders(path.read_text()), str(path))[0]
    found = [d for d in validate_document(doc).diagnostics if d.severity != "note"]
    assert [(d.rule, d.severity, d.message) for d in found] == [("reconcile.dra-unavailable", "error", DRA_UNAVAILABLE)]
    assert found[0].field.endswith("experimental.gpuMemoryService")
