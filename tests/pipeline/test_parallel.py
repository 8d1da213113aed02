"""``validate -j N`` work split (``_pipeline._parallel``): files per message."""

from __future__ import annotations

import pytest

from dynamo_schema._pipeline._parallel import chunk_size


@pytest.mark.parametrize(("items", "jobs", "want"), [
    (160, 2, 10),  # 160 files / (2 workers * 8 chunks)
    (96, 3, 4),
    (512, 2, 32),  # capped at 32 files a message
    (10_000, 4, 32),
    (15, 2, 1),  # fewer files than chunks: one file a message, never zero
    (1, 8, 1),
])
def test_chunk_size_is_eight_chunks_per_worker_capped_at_32(items: int, jobs: int, want: int) -> None:
    """Chunks: about eight per worker process (load balance), at most 32 files, at least one."""
    assert chunk_size(items, jobs) == want
