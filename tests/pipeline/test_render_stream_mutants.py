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
