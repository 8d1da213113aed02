"""Our blueprint data carries the facts of upstream's profiler templates
(``components/src/dynamo/profiler/templates/dgd/<backend>/<mode>.yaml`` at the reference revision)."""

from __future__ import annotations

import pytest
import yaml

from dynamo_schema._dgdr import SUPPORTED_BLUEPRINTS, load_blueprint
from tests.dgdr._support import CORPUS, main

CORPUS_TEMPLATES = {
    ("sglang", "disagg"): "components__src__dynamo__profiler__templates__dgd__sglang__disagg.yaml",
    ("trtllm", "agg"): "components__src__dynamo__profiler__templates__dgd__trtllm__agg.yaml",
    ("vllm", "agg"): "components__src__dynamo__profiler__templates__dgd__vllm__agg.yaml",
    ("vllm", "disagg"): "components__src__dynamo__profiler__templates__dgd__vllm__disagg.yaml",
}


@pytest.mark.parametrize("key", sorted(CORPUS_TEMPLATES))
def test_blueprint_equals_upstream_template(key: tuple[str, str]) -> None:
    path = CORPUS / CORPUS_TEMPLATES[key]
    if not path.is_file():
        pytest.skip("reference corpus not available")
    upstream = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
    assert load_blueprint(*key) == upstream


# Facts of the three templates that are not in the corpus, transcribed from upstream (reference revision).
EXPECTED = {
    ("vllm", "agg"): [("Frontend", "frontend"), ("VllmDecodeWorker", "worker")],
    ("vllm", "disagg"): [
        ("Frontend", "frontend"),
        ("VllmDecodeWorker", "decode"),
        ("VllmPrefillWorker", "prefill"),
    ],
    ("sglang", "agg"): [("Frontend", "frontend"), ("decode", "worker")],
    ("sglang", "disagg"): [("Frontend", "frontend"), ("decode", "decode"), ("prefill", "prefill")],
    ("trtllm", "agg"): [("Frontend", "frontend"), ("TRTLLMWorker", "worker")],
    ("trtllm", "disagg"): [("Frontend", "frontend"), ("decode", "decode"), ("prefill", "prefill")],
    ("mocker", "disagg"): [("Frontend", "frontend"), ("decode", "decode"), ("prefill", "prefill")],
}


def test_supported_pairs() -> None:
    assert set(SUPPORTED_BLUEPRINTS) == set(EXPECTED)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_blueprint_components(key: tuple[str, str]) -> None:
    bp = load_blueprint(*key)
    assert bp["apiVersion"] == "nvidia.com/v1beta1"
    assert bp["kind"] == "DynamoGraphDeployment"
    assert bp["metadata"]["name"] == f"{key[0]}-{key[1]}"
    assert [(c["name"], c["type"]) for c in bp["spec"]["components"]] == EXPECTED[key]
    assert all(c["replicas"] == 1 for c in bp["spec"]["components"])
    fe = main(bp["spec"]["components"][0])
    assert fe["command"] == ["python3"] and fe["args"] == ["-m", "dynamo.frontend"]


def test_mocker_blueprint_facts() -> None:
    bp = load_blueprint("mocker", "disagg")
    for c in bp["spec"]["components"]:
        assert main(c)["image"] == "nvcr.io/nvidia/ai-dynamo/dynamo-planner:my-tag"
    prefill = main(bp["spec"]["components"][2])
    assert prefill["command"] == ["python3", "-m", "dynamo.mocker"]
    assert prefill["args"] == [
        "--model-path",
        "nvidia/Llama-3.1-8B-Instruct-FP8",
        "--model-name",
        "nvidia/Llama-3.1-8B-Instruct-FP8",
        "--speedup-ratio",
        "1.0",
        "--disaggregation-mode",
        "prefill",
    ]
    assert prefill["workingDir"] == "/workspace"
    assert "resources" not in prefill
    assert "envFrom" not in main(bp["spec"]["components"][0])


def test_sglang_agg_and_trtllm_disagg_facts() -> None:
    worker = main(load_blueprint("sglang", "agg")["spec"]["components"][1])
    assert worker["args"] == [
        "--model-path",
        "Qwen/Qwen3-0.6B",
        "--served-model-name",
        "Qwen/Qwen3-0.6B",
        "--page-size",
        "16",
        "--tp",
        "1",
        "--trust-remote-code",
        "--skip-tokenizer-init",
    ]
    assert worker["resources"] == {
        "limits": {"nvidia.com/gpu": "1"},
        "requests": {"ephemeral-storage": "2Gi"},
    }
    decode = main(load_blueprint("trtllm", "disagg")["spec"]["components"][1])
    assert decode["args"] == [
        "--model-path",
        "Qwen/Qwen3-0.6B",
        "--served-model-name",
        "Qwen/Qwen3-0.6B",
        "--extra-engine-args",
        "./examples/backends/trtllm/engine_configs/qwen3/decode.yaml",
        "--disaggregation-mode",
        "decode",
    ]
    assert decode["resources"] == {"limits": {"nvidia.com/gpu": "1"}}
    assert decode["workingDir"] == "/workspace/"


@pytest.mark.parametrize("key", [("mocker", "agg"), ("auto", "agg"), ("vllm", "multinode")])
def test_unsupported_blueprint(key: tuple[str, str]) -> None:
    with pytest.raises(ValueError, match=f"^Unsupported profiler DGD template: {key[0]}/{key[1]}$"):
        load_blueprint(*key)


def test_blueprint_copies_are_independent() -> None:
    a = load_blueprint("vllm", "agg")
    a["spec"]["components"].clear()
    assert len(load_blueprint("vllm", "agg")["spec"]["components"]) == 2
