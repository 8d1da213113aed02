"""``render`` over many documents (``_pipeline._render_stream``; docs/decisions.md, "``render`` over many
documents"): after the first document, the warm-up, the rest render under validate's bulk collector settings
(``_parallel.bulk_gc``); one or two documents render with the collector as it is."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from dynamo_schema._pipeline import _render_stream
from dynamo_schema._pipeline._parallel import GC_THRESHOLD


def _calls(monkeypatch: pytest.MonkeyPatch, n: int) -> list[tuple[int, bool]]:
    """(documents, under the bulk threshold) of each batch ``render_stream`` renders ``n`` documents in."""
    seen: list[tuple[int, bool]] = []

    def record(docs: list[Any], result: Any, opts: Any) -> None:
        seen.append((len(docs), gc.get_threshold()[0] == GC_THRESHOLD))

    monkeypatch.setattr(_render_stream, "_render_docs", record)
    _render_stream.render_stream([object()] * n, target=None, namespace="default", operator_version=None,
                                 settings=None)
    return seen


def test_many_documents_render_after_a_warm_up_under_the_bulk_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    # mutant 0a9fc50ca456
    assert gc.get_threshold()[0] != GC_THRESHOLD
    assert _calls(monkeypatch, 3) == [(1, False), (2, True)]
    assert _calls(monkeypatch, 2) == [(2, False)]
    assert _calls(monkeypatch, 1) == [(1, False)]


# the DynamoModel of upstream examples/backends/vllm/deploy/lora/agg_lora_hf.yaml
MODEL = """apiVersion: nvidia.com/v1alpha1
kind: DynamoModel
metadata:
  name: codelion-recovery-lora-hf
spec:
  baseModelName: Qwen/Qwen3-0.6B
  modelName: codelion/Qwen3-0.6B-accuracy-recovery-lora
  modelType: lora
  source:
    uri: hf://codelion/Qwen3-0.6B-accuracy-recovery-lora
"""


def test_only_dynamo_keeps_a_dynamo_model() -> None:
    """docs/cli.md: ``render --only-dynamo`` drops the other objects, the other Dynamo kinds (a DynamoModel) are
    kept, applied as they are; a kind of that name in another API group is not Dynamo's."""
    # mutants c869474326ef (group == "nvidia.com" -> group > "nvidia.com") and 0f8377e6f610 (== -> is: the
    # group is sliced from the loaded apiVersion at run time, never the interned literal)
    from dynamo_schema._io._load import load_text

    docs = load_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n" + MODEL, "x.yaml")
    got = _render_stream.render_stream(docs, target=None, namespace="default", operator_version=None,
                                       settings=None, only_dynamo=True)
    assert [(o["kind"], o["metadata"]["name"]) for o in got.objects] == [("DynamoModel", "codelion-recovery-lora-hf")]
    assert not got.errors
    for api in ("example.com/v1", "nvidia.com.example/v1"):
        assert not _render_stream.is_dynamo_object({"apiVersion": api, "kind": "DynamoModel"}), api
