"""The profiler's argument helpers (upstream ``profiler/utils/config.py``: ``remove_valued_arguments``,
``set_argument_value``) as the TP setters use them (``config_modifiers``: vLLM drops ``--tp``, SGLang drops
``--tp-size`` and ``--tensor-parallel-size``)."""

from __future__ import annotations

import pytest

from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._topology import _per_instance_gpus, _set_tp


@pytest.mark.parametrize(("args", "want"), [
    (["--a", "--key", "v", "--b"], ["--a", "--b"]),  # the flag and its value, in the middle
    (["--key", "v"], []),
    (["--a", "--key"], ["--a", "--key"]),  # no value after it: left alone
    (["--a", "v"], ["--a", "v"]),  # absent
    (["--key", "1", "--key", "2"], ["--key", "2"]),  # only the first occurrence
])
def test_remove_valued_argument_drops_flag_and_value(args: list[str], want: list[str]) -> None:
    """``remove_valued_arguments``: ``del args[idx:idx+2]`` when the flag has a value after it."""
    assert A.remove_valued_argument(list(args), "--key") == want


def test_sglang_tp_replaces_the_other_tp_spellings() -> None:
    """SGLang ``set_config_tp_size``: ``--tp N`` set, ``--tp-size`` and ``--tensor-parallel-size`` removed."""
    args = ["--model-path", "m", "--tp-size", "2", "--tensor-parallel-size", "2", "--port", "8000"]
    out = _set_tp("sglang", args, 4)
    assert "--tp-size" not in out and "--tensor-parallel-size" not in out
    assert out[out.index("--tp") + 1] == "4"
    assert [a for a in out if a not in ("--tp", "4")] == ["--model-path", "m", "--port", "8000"]


@pytest.mark.parametrize(("args", "want"), [
    (["--tensor-parallel-size=4", "--pipeline-parallel-size=2"], 8),
    (["--tp=2", "--pp", "3"], 6),
    (["--model", "m"], None),  # no parallelism flag: the caller falls back to the topology's GPU count
    (["--tp", "$(TP)"], None),  # a non-integer TP/PP value is not a parallelism flag
    (["--tp", "x", "--dp", "2"], 1),  # a DP flag counts whatever its value: TP and PP stay 1
])
def test_per_instance_gpus_reads_both_flag_spellings(args: list[str], want: int | None) -> None:
    """``_get_per_instance_gpus``: TP x PP from ``--name value`` and ``--name=value`` (``split("=", 1)[1]``)."""
    assert _per_instance_gpus(args) == want


def test_parse_override_engine_args_reads_the_json_after_the_flag() -> None:
    """Upstream ``parse_override_engine_args``: ``json.loads(args[idx + 1])``, flag and value removed."""
    blob = '{"kv_cache_config": {"tokens_per_block": 32}, "disable_overlap_scheduler": true}'
    args = ["--model-path", "m", "--override-engine-args", blob, "--port", "8000"]
    parsed, rest = A.parse_override_engine_args(list(args))
    assert parsed == {"kv_cache_config": {"tokens_per_block": 32}, "disable_overlap_scheduler": True}
    assert rest == ["--model-path", "m", "--port", "8000"]
    assert A.find_override_engine_args(args) == (2, parsed)


@pytest.mark.parametrize(("args", "want"), [
    (["--override-engine-args", '{"a": 1}'], ({"a": 1}, [])),  # the JSON is the last argument
    (["--model", "m", "--override-engine-args", '{"a": 1}'], ({"a": 1}, ["--model", "m"])),
    (["--model", "m", "--override-engine-args"], ({}, ["--model", "m", "--override-engine-args"])),  # no value
])
def test_override_engine_args_value_may_be_the_last_argument(args: list[str], want: tuple) -> None:
    """The profiler reads ``args[idx + 1]`` as the JSON whenever an argument follows the flag (also the last one)."""
    assert A.parse_override_engine_args(list(args)) == want


def test_trtllm_tp_merged_into_a_trailing_override_engine_args() -> None:
    """TRT-LLM ``set_config_tp_size``: an explicit ``--override-engine-args`` JSON gets ``tensor_parallel_size``."""
    out = _set_tp("trtllm", ["--model", "m", "--override-engine-args", '{"max_batch_size": 8}'], 4)
    assert out == ["--model", "m", "--override-engine-args", '{"max_batch_size": 8, "tensor_parallel_size": 4}']


@pytest.mark.parametrize(("args", "want"), [
    (["--m", "a", "--x", "--m=b", "--m"], ["--x", "--m", "v"]),  # both spellings dropped, a trailing flag too
    (["--m=a", "--mm=b"], ["--mm=b", "--m", "v"]),  # only ``name=`` prefixes
    (["--x", "|", "tee"], ["--x", "--m", "v", "|", "tee"]),  # appended before a pipe (append_argument)
])
def test_set_unique_argument_value_drops_every_spelling(args: list[str], want: list[str]) -> None:
    """Upstream ``set_unique_argument_value``: every ``name value`` and ``name=value`` removed, then one
    ``name value`` appended."""  # mutant 58b713981617
    assert A.set_unique_argument_value(list(args), "--m", "v") == want


@pytest.mark.parametrize(("container", "want"), [
    ({"command": ["sh", "-c"], "args": ["python3 -m x"]}, True),
    ({"command": ["/bin/sh", "-c"], "args": ["python3 -m x"]}, True),
    ({"command": ["sh", "-a"], "args": ["python3 -m x"]}, False),
    ({"command": ["sh", "-x"], "args": ["python3 -m x"]}, False),
    ({"command": ["sh", "-c"], "args": ["a", "b"]}, False),
    ({"command": ["bash", "-c"], "args": ["python3 -m x"]}, False),
])
def test_shell_form_is_sh_dash_c_with_one_string(container: dict, want: bool) -> None:
    """Upstream ``_update_container_args_preserving_shell_form``: ``cmd[0] in ("/bin/sh", "sh")``,
    ``cmd[1] == "-c"`` and a single-string args list."""  # mutants 4cf0d99dd308, f561d6ccce39, 25f4a5f5bc4a
    assert A.is_shell_form(container) is want
