"""vLLM ``--max-model-len`` with a human-readable size, clamped to the model's context window (upstream
profiler ``_parse_human_readable_int``: lowercase k/m/g/t are powers of 10, uppercase K/M/G/T powers of 2,
a decimal number allowed before a lowercase suffix; then ``min(value, context_length)``)."""

from __future__ import annotations

import pytest

from dynamo_schema._dgdr import materialize
from tests.dgdr._support import comp, dgdr, main, main_override


def _run(value: str, context: int) -> tuple[list[str], list[str]]:
    ov = main_override("VllmDecodeWorker", {"$patch": {"args": "append"}, "args": ["--max-model-len", value]})
    r = materialize(dgdr(overrides={"dgd": ov}), {"modelContextLength": context})
    return main(comp(r.dgd, "VllmDecodeWorker"))["args"], r.warnings


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("64k", 64_000), ("25.6k", 25_600), ("1m", 1_000_000), ("64K", 65_536), ("1M", 1_048_576),
        ("1G", 2**30), ("1T", 2**40),  # config_modifiers/vllm.py: "G": 2**30, "T": 2**40
        ("40000", 40_000),
    ],
)
def test_human_readable_max_model_len_is_clamped(value: str, parsed: int) -> None:
    """A size above the context window is parsed as vLLM parses it and clamped to the window, with upstream's warning."""
    args, warnings = _run(value, 24_000)
    assert args[-2:] == ["--max-model-len", "24000"]
    assert f"Clamping vLLM --max-model-len from {parsed} to model context window 24000" in warnings


@pytest.mark.parametrize(("value", "parsed"), [("8k", 8_000), ("2.5k", 2_500), ("8K", 8_192)])
def test_human_readable_max_model_len_within_the_window_is_kept(value: str, parsed: int) -> None:
    """A size within the window is written back as its integer value (``set_unique_argument_value``), no warning."""
    args, warnings = _run(value, 32_768)
    assert args[-2:] == ["--max-model-len", str(parsed)]
    assert not any("Clamping" in w for w in warnings)
