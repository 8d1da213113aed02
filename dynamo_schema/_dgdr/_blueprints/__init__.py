"""The profiler's DGD blueprints, one per (backend, mode), as our own data.

Facts (component names and types, images, commands, args, env sources, GPU resources, working
directories) follow the upstream profiler templates ``components/src/dynamo/profiler/templates/dgd``
at the reference revision. They are built from small pieces here instead of being stored as files.
"""

from __future__ import annotations

import copy
from typing import Any

from ..._core._consts import V1BETA1 as API_VERSION

KIND = "DynamoGraphDeployment"

SUPPORTED: frozenset[tuple[str, str]] = frozenset(
    {
        ("mocker", "disagg"),
        ("sglang", "agg"),
        ("sglang", "disagg"),
        ("trtllm", "agg"),
        ("trtllm", "disagg"),
        ("vllm", "agg"),
        ("vllm", "disagg"),
    }
)

# Placeholder images carried by the blueprints (the profiler always replaces them).
_IMAGES = {
    "vllm": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:my-tag",
    "sglang": "my-registry/sglang-runtime:my-tag",
    "trtllm": "my-registry/tensorrtllm-runtime:my-tag",
    "mocker": "nvcr.io/nvidia/ai-dynamo/dynamo-planner:my-tag",
}

_HF_SECRET = "hf-token-secret"
_BLUEPRINT_MODEL = {
    "vllm": "Qwen/Qwen3-0.6B",
    "sglang": "Qwen/Qwen3-0.6B",
    "trtllm": "Qwen/Qwen3-0.6B",
    "mocker": "nvidia/Llama-3.1-8B-Instruct-FP8",
}
_WORKDIR = {
    "vllm": "/workspace/examples/backends/vllm",
    "sglang": "/workspace/examples/backends/sglang",
    "trtllm": "/workspace/",
    "mocker": "/workspace",
}
_MODULE = {
    "vllm": "dynamo.vllm",
    "sglang": "dynamo.sglang",
    "trtllm": "dynamo.trtllm",
    "mocker": "dynamo.mocker",
}

# (backend, mode) -> ordered (component name, component type) of the workers.
WORKERS: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("vllm", "agg"): (("VllmDecodeWorker", "worker"),),
    ("vllm", "disagg"): (("VllmDecodeWorker", "decode"), ("VllmPrefillWorker", "prefill")),
    ("sglang", "agg"): (("decode", "worker"),),
    ("sglang", "disagg"): (("decode", "decode"), ("prefill", "prefill")),
    ("trtllm", "agg"): (("TRTLLMWorker", "worker"),),
    ("trtllm", "disagg"): (("decode", "decode"), ("prefill", "prefill")),
    ("mocker", "disagg"): (("decode", "decode"), ("prefill", "prefill")),
}

_VLLM_KV_TRANSFER = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'


def _worker_args(backend: str, mode: str, role: str) -> list[str]:
    model = _BLUEPRINT_MODEL[backend]
    if backend == "vllm":
        args = ["--model", model]
        if mode == "disagg":
            args += ["--disaggregation-mode", role]
            if role == "prefill":
                args += ["--kv-transfer-config", _VLLM_KV_TRANSFER]
        return args
    if backend == "sglang":
        args = [
            "--model-path",
            model,
            "--served-model-name",
            model,
            "--page-size",
            "16",
            "--tp",
            "1",
            "--trust-remote-code",
            "--skip-tokenizer-init",
        ]
        if mode == "disagg":
            args += [
                "--disaggregation-mode",
                role,
                "--disaggregation-transfer-backend",
                "nixl",
                "--disaggregation-bootstrap-port",
                "12345",
                "--host",
                "0.0.0.0",
            ]
        return args
    if backend == "trtllm":
        engine = "agg" if mode == "agg" else role
        args = [
            "--model-path",
            model,
            "--served-model-name",
            model,
            "--extra-engine-args",
            f"./examples/backends/trtllm/engine_configs/qwen3/{engine}.yaml",
        ]
        if mode == "disagg":
            args += ["--disaggregation-mode", role]
        return args
    # mocker
    return [
        "--model-path",
        model,
        "--model-name",
        model,
        "--speedup-ratio",
        "1.0",
        "--disaggregation-mode",
        role,
    ]


def _frontend(backend: str) -> dict[str, Any]:
    container: dict[str, Any] = {
        "name": "main",
        "image": _IMAGES[backend],
        "command": ["python3"],
        "args": ["-m", "dynamo.frontend"],
    }
    if backend != "mocker":
        container["envFrom"] = [{"secretRef": {"name": _HF_SECRET}}]
    return {
        "name": "Frontend",
        "type": "frontend",
        "replicas": 1,
        "podTemplate": {"spec": {"containers": [container]}},
    }


def _worker(backend: str, mode: str, name: str, ctype: str) -> dict[str, Any]:
    role = ctype if ctype in ("prefill", "decode") else "decode"
    command = ["python3", "-m", _MODULE[backend]]
    container: dict[str, Any] = {
        "name": "main",
        "image": _IMAGES[backend],
        "command": command,
        "args": _worker_args(backend, mode, role),
        "envFrom": [{"secretRef": {"name": _HF_SECRET}}],
        "workingDir": _WORKDIR[backend],
    }
    if backend != "mocker":
        resources: dict[str, Any] = {"limits": {"nvidia.com/gpu": "1"}}
        # Only some blueprints ask for scratch space ("increase this value for larger models").
        if backend == "vllm" or (mode == "agg" and backend in ("sglang", "trtllm")):
            resources["requests"] = {"ephemeral-storage": "2Gi"}
        container["resources"] = resources
    return {"name": name, "type": ctype, "replicas": 1, "podTemplate": {"spec": {"containers": [container]}}}


def _build(backend: str, mode: str) -> dict[str, Any]:
    components = [_frontend(backend)]
    components += [_worker(backend, mode, n, t) for n, t in WORKERS[(backend, mode)]]
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": {"name": f"{backend}-{mode}"},
        "spec": {"components": components},
    }


def load_blueprint(backend: str, mode: str) -> dict[str, Any]:
    """A fresh copy of the blueprint for ``backend``/``mode`` (upstream ``load_dgd_template``)."""
    if (backend, mode) not in SUPPORTED:
        raise ValueError(f"Unsupported profiler DGD template: {backend}/{mode}")
    return copy.deepcopy(_build(backend, mode))
