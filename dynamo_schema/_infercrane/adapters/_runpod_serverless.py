"""``runpod-serverless`` adapter: the RunPod REST ``POST /endpoints`` request body.

Upstream: ``internal/provision/runpod_serverless.go`` (``EnsureEndpoint``, ``validateTemplate``,
``Check``, ``ServerlessEndpointName``, ``runPodGPUType``) with the newest test's
``minCudaVersion: "13.0"``. The template is read from ``provider_state["template"]``; a provider state
without the configured template fails closed as RunPod's 404 would; without any provider state the template
is trusted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._k8s._gofmt import go_json, go_quote
from .. import _contracts as c
from .._common import RenderedArtifact, Replica, adapter_error, replica_artifact
from ._protocol import PartRenderer

name = "runpod-serverless"
cloud = "runpod"
MIN_CUDA_VERSION = "13.0"
DEFAULT_REST_URL = "https://rest.runpod.io/v1"

_GPU_TYPES = {
    "L40S": "NVIDIA L40S", "NVIDIA L40S": "NVIDIA L40S",
    "H100": "NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3": "NVIDIA H100 80GB HBM3",
    "A100-80GB": "NVIDIA A100-SXM4-80GB", "A100 80GB": "NVIDIA A100-SXM4-80GB",
    "NVIDIA A100-SXM4-80GB": "NVIDIA A100-SXM4-80GB",
    # runpod_pods_test.go@67a0ce4 expects H200 -> "NVIDIA H200" (newer mapping than runpod_serverless.go@c2c2bb7)
    "H200": "NVIDIA H200", "NVIDIA H200": "NVIDIA H200",
}


def runpod_gpu_type(gpu: str) -> str:
    return _GPU_TYPES.get(gpu.strip().upper(), gpu)


def endpoint_name(key: str) -> str:
    return c.cluster_name(key) + "-serverless"


TEMPLATE_NOT_FOUND = "RunPod API returned HTTP 404: "


def _template_env(state: Mapping[str, Any] | None, template_id: str, prefix: str = "") -> dict[str, str] | None:
    """The env of ``provider_state["template"]`` (``GET /templates/ID``); None without provider state.
    A provider state without that template answers 404 (``providerHTTPError`` with an empty body)."""
    if state is None:
        return None
    raw = state.get("template")
    items = raw if isinstance(raw, list) else [raw] if isinstance(raw, Mapping) else []
    items = [t for t in items if isinstance(t, Mapping)]
    template = next((t for t in items if t.get("id") == template_id), items[0] if len(items) == 1 else None)
    if template is None:
        raise adapter_error(name, prefix + TEMPLATE_NOT_FOUND, wrap=None)
    if template.get("id") != template_id or not template.get("isServerless"):
        raise adapter_error(name, "configured RunPod template is not a Serverless template", wrap=None)
    return {str(k): str(v) for k, v in (template.get("env") or {}).items()}


def check(s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    template_id = s.get("TemplateID") or ""
    if not template_id:
        raise adapter_error(name, "INFERCRANE_RUNPOD_SERVERLESS_TEMPLATE_ID is required", wrap=None)
    env = _template_env(state, template_id)
    if env is None:
        return
    if not env.get("MODEL_NAME"):
        raise adapter_error(name, "RunPod template must set MODEL_NAME", wrap=None)
    if env.get("MODEL_REVISION", "") in ("", "main", "master"):
        raise adapter_error(name, "RunPod template must pin MODEL_REVISION to an immutable revision", wrap=None)
    if env.get("RAW_OPENAI_OUTPUT") != "1":
        raise adapter_error(name, "RunPod template must set RAW_OPENAI_OUTPUT=1", wrap=None)
    if env.get("ENABLE_AUTO_TOOL_CHOICE", "").lower() != "true" or not env.get("TOOL_CALL_PARSER"):
        raise adapter_error(name, "RunPod template must enable automatic tool choice and set TOOL_CALL_PARSER", wrap=None)


def _validate_template(env: dict[str, str], model: str, revision: str) -> None:
    if env.get("MODEL_NAME", "") != model:
        raise adapter_error(name, f"RunPod template MODEL_NAME is {go_quote(env.get('MODEL_NAME', ''))}, expected "
                                  f"{go_quote(model)}", ("model", "id"), wrap=None)
    if env.get("MODEL_REVISION", "") != revision:
        raise adapter_error(name, f"RunPod template MODEL_REVISION is {go_quote(env.get('MODEL_REVISION', ''))}, "
                                  f"expected immutable revision {go_quote(revision)}", ("model", "revision"), wrap=None)
    if env.get("RAW_OPENAI_OUTPUT") != "1":
        raise adapter_error(name, "RunPod template must set RAW_OPENAI_OUTPUT=1 for OpenAI-compatible streaming", wrap=None)
    if env.get("ENABLE_AUTO_TOOL_CHOICE", "").lower() != "true" or not env.get("TOOL_CALL_PARSER"):
        raise adapter_error(name, "RunPod template must set ENABLE_AUTO_TOOL_CHOICE=true and TOOL_CALL_PARSER for "
                                  "OpenAI-compatible tool calls", wrap=None)


def render(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    if not (r.external_key and r.model and r.model_revision and r.gpu and r.workers_max >= 1):
        raise adapter_error(name, "external key, model, immutable model revision, GPU, and positive workers max are required",
                            wrap=None)
    template_id = r.template_id or str(s.get("TemplateID") or "")
    if not template_id:
        raise adapter_error(name, "RunPod Serverless vLLM template ID is required", wrap=None)
    env = _template_env(state, template_id, "validate RunPod Serverless template: ")
    if env is not None:
        _validate_template(env, r.model, r.model_revision)
    body: dict[str, Any] = {
        "name": endpoint_name(r.external_key), "templateId": template_id, "computeType": "GPU",
        "gpuTypeIds": [runpod_gpu_type(r.gpu)], "gpuCount": 1, "minCudaVersion": MIN_CUDA_VERSION,
        "workersMin": 0, "workersMax": r.workers_max, "idleTimeout": 5, "scalerType": "QUEUE_DELAY", "scalerValue": 4,
        "flashboot": True,
    }
    if r.region:
        body["dataCenterIds"] = [r.region]
    base = str(s.get("BaseURL") or DEFAULT_REST_URL).rstrip("/")
    return [
        RenderedArtifact("create-endpoint", "object", {"method": "POST", "path": "/endpoints", "url": base + "/endpoints",
                                                       "body": body}, description="RunPod REST request"),
        RenderedArtifact("create-endpoint-body.json", "text", go_json(body, sort_keys=True), "application/json",
                         "request body (compact JSON)"),
        replica_artifact(endpoint_name(r.external_key), r.external_key,
                         endpoint="https://api.runpod.ai/v2/<endpoint-id>/openai"),
    ]


#: No piece of the output renders on its own: upstream builds the ``POST /endpoints`` body at once (the command lives in the RunPod
#: template) and tests only that.
#: ``render_part`` refuses every part name for this adapter (rule ``infercrane.adapter.part``).
PARTS: dict[str, PartRenderer] = {}
