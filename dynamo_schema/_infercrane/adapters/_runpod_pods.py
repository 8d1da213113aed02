"""``runpod-pods`` adapter: the RunPod REST ``POST /pods`` request for an immutable OCI workload.

Upstream: ``internal/provision/runpod_pods.go@daa941a``/``@11890ae`` with the newer test
``runpod_pods_test.go@67a0ce4`` (a ``provider.region`` matching the mapped network volume is accepted and no
``dataCenterIds`` is sent; ``INFERCRANE_MODEL_CACHE_IO=prefetch`` with a volume; ``H200 -> NVIDIA H200``).
The network volume is read from ``provider_state["network_volume"]`` (one volume or a list); a provider
state without the mapped volume fails closed; without any provider state a mapped volume is trusted.
Library decision: ``engine: vllm`` without a workload uses the registry default ``support.VLLMWorkload()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._k8s._gofmt import go_json, go_quote
from .. import _contracts as c
from .._common import (
    PROVIDER_AUTHORIZATION,
    RenderedArtifact,
    Replica,
    adapter_error,
    expand,
    replica_artifact,
)
from ._protocol import PartRenderer
from ._runpod_serverless import DEFAULT_REST_URL, runpod_gpu_type

name = "runpod-pods"
cloud = "runpod"


def _valid_id(value: str) -> bool:
    """``validRunPodIdentifier`` (runpod_pods.go): 1 to 128 ASCII letters, digits, ``-`` or ``_``. The
    control-plane settings check the same names with config.go's stricter ``validRunPodResourceID`` (4 to 128)."""
    return 1 <= len(value) <= 128 and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value)


def volume_name(identity: str) -> str:
    return "infercrane-artifact-" + c.model_identity_digest(identity)[len("sha256:"):][:20]


def _configured_volume(r: Replica, s: Mapping[str, Any]) -> str:
    policy = str(s.get("ArtifactCachePolicy") or "").strip().lower() or "prefer"
    if policy not in ("disabled", "prefer", "required"):
        raise adapter_error(name, "RunPod artifact cache policy must be disabled, prefer, or required")
    if policy == "disabled":
        return ""
    volume = str((s.get("NetworkVolumes") or {}).get(r.identity, "")).strip()
    if not volume and policy == "required":
        raise adapter_error(name, f"RunPod artifact cache requires a network volume for immutable model {go_quote(r.identity)}")
    return volume


def _verify_volume(r: Replica, volume_id: str, state: Mapping[str, Any] | None) -> dict[str, Any]:
    """``verifyNetworkVolume`` against ``provider_state["network_volume"]`` (one volume, or the list
    ``GET /networkvolumes`` answers); a volume absent from a given provider state is not found."""
    if state is None:
        return {"id": volume_id}
    raw = state.get("network_volume")
    items = raw if isinstance(raw, list) else [raw] if isinstance(raw, Mapping) else []
    observed = next((v for v in items if isinstance(v, Mapping) and v.get("id") == volume_id), None)
    if observed is None:
        raise adapter_error(name, f"configured RunPod network volume {volume_id} was not found")
    expected = volume_name(r.identity)
    if observed.get("name") != expected or int(observed.get("size") or 0) < 1 or not observed.get("dataCenterId"):
        raise adapter_error(name, f"RunPod network volume {volume_id} must be named {go_quote(expected)}, have positive "
                                  "size, and declare a data center")
    if r.region and r.region != observed.get("dataCenterId"):
        raise adapter_error(name, f"RunPod network volume {volume_id} is in {observed.get('dataCenterId')}, not requested "
                                  f"region {r.region}", ("provider", "region"))
    return dict(observed)


def check(s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    return None


def render(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    if not str(s.get("APIKey") or "").strip() or not str(s.get("WorkerAPIKey") or "").strip():
        raise adapter_error(name, "RunPod and worker API keys are required", wrap=PROVIDER_AUTHORIZATION)
    if not r.external_key or not r.model or r.cloud.lower() != "runpod" or not r.gpu:
        raise adapter_error(name, "external key, model, runpod cloud, and GPU are required")
    gpu_count = r.gpu_count or 1
    if gpu_count < 1 or gpu_count > 8:
        raise adapter_error(name, "RunPod Pod GPU count must be between 1 and 8", ("resources", "gpu_count"))
    if not r.has_workload and r.runtime in ("", "vllm"):
        r.workload = c.vllm_workload()
    if not r.has_workload:
        raise adapter_error(name, "native RunPod Pods require an immutable custom OCI workload", ("runtime", "workload"))
    problem = c.workload_validate(r.workload)
    if problem:
        raise adapter_error(name, problem[0], ("runtime", "workload") + problem[1])
    port = int(r.workload["port"])
    command = [expand(a, r.model, r.model_revision, port) for a in list(r.workload["command"]) + list(r.runtime_args)]
    volume_id = _configured_volume(r, s)
    volume: dict[str, Any] = _verify_volume(r, volume_id, state) if volume_id else {}
    disk = int(s.get("ContainerDiskGiB") or 0) or 100
    if disk < 50 or disk > 2048:
        raise adapter_error(name, "RunPod container disk must be between 50 and 2048 GiB")
    worker_key = str(s.get("WorkerAPIKey"))
    env = {"INFERCRANE_WORKER_API_KEY": worker_key, "VLLM_API_KEY": worker_key}
    secret = str(s.get("HFTokenSecret") or "")
    if secret:
        if not _valid_id(secret):
            raise adapter_error(name, "RunPod Hugging Face secret name is invalid")
        env["HF_TOKEN"] = "{{ RUNPOD_SECRET_" + secret + " }}"
    pod_name = c.cluster_name(r.external_key)
    body: dict[str, Any] = {
        "name": pod_name, "imageName": r.workload["image"], "gpuTypeIds": [runpod_gpu_type(r.gpu)],
        "gpuTypePriority": "custom", "gpuCount": gpu_count, "cloudType": "SECURE", "computeType": "GPU",
        "interruptible": False, "containerDiskInGb": disk, "dockerEntrypoint": command[:1], "dockerStartCmd": command[1:],
        "ports": [f"{port}/http"], "env": env,
    }
    data_center = r.region.strip()
    if volume:
        body["networkVolumeId"] = volume["id"]
        body["volumeMountPath"] = "/workspace"
        data_center = ""
        env.update({"HF_HOME": "/workspace/huggingface", "HUGGINGFACE_HUB_CACHE": "/workspace/huggingface/hub",
                    "INFERCRANE_MODEL_DIR": "/workspace/infercrane/model", "INFERCRANE_MODEL_CACHE_IO": "prefetch",
                    "HF_XET_HIGH_PERFORMANCE": "1"})
    if data_center:
        body["dataCenterIds"] = [data_center]
        body["dataCenterPriority"] = "custom"
    base = str(s.get("BaseURL") or DEFAULT_REST_URL).rstrip("/")
    return [
        RenderedArtifact("list-pods", "object", {"method": "GET", "path": "/pods",
                                                 "query": {"includeMachine": "true", "includeNetworkVolume": "true"}},
                         description="adoption lookup by deterministic name before create"),
        RenderedArtifact("create-pod", "object", {"method": "POST", "path": "/pods", "url": base + "/pods", "body": body},
                         description="RunPod REST request"),
        RenderedArtifact("create-pod-body.json", "text", go_json(body, sort_keys=True), "application/json",
                         "request body (compact JSON)"),
        replica_artifact(pod_name, r.external_key, endpoint=f"https://<pod-id>-{port}.proxy.runpod.net"),
    ]


#: No piece of the output renders on its own: upstream builds the ``POST /pods`` body at once (``dockerEntrypoint`` / ``dockerStartCmd``,
#: no script) and tests only that.
#: ``render_part`` refuses every part name for this adapter (rule ``infercrane.adapter.part``).
PARTS: dict[str, PartRenderer] = {}
