"""``skypilot`` adapter (RunPod elastic vLLM default): SkyPilot task YAML for ``sky launch``.

Upstream: ``internal/provision/skypilot.go@64491a4`` (``EnsureReplica``, ``runCommand``,
``workloadCommand``, ``clusterName``, ``infrastructure``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import _contracts as c
from .._common import (
    INVALID_REPLICA,
    RenderedArtifact,
    Replica,
    adapter_error,
    expand,
    render_template,
    replica_artifact,
)

name = "skypilot"
cloud = "runpod"

DEFAULT_VLLM_IMAGE = "vllm/vllm-openai@sha256:953d3a06d5e64ab582985cd7401289d3abf2a2c14ef2158e9a84313daeec77d7"
DEFAULT_RUNPOD_VLLM_IMAGE = (
    "ghcr.io/infercrane/vllm-runpod@sha256:c9d8303ad7c36e3b25a160c892626be8b0dde8f5954b11095c33d2bca31a9711"
)


def run_command(replica: Replica, port: int | None = None) -> str:
    """The task ``run`` line (``runCommand`` / ``workloadCommand``)."""
    port = port or replica.port or 8000
    if replica.has_workload:
        argv = [
            a if a == "${WORKER_API_KEY}" else expand(a, replica.model, replica.model_revision, port)
            for a in list(replica.workload["command"]) + list(replica.runtime_args)
        ]
        return render_template("skypilot-run.sh.j2", workload=True, argv=argv)
    return render_template(
        "skypilot-run.sh.j2",
        workload=False,
        model=replica.model,
        port=port,
        revision=replica.model_revision,
        argv=list(replica.runtime_args),
    )


def _image(replica: Replica) -> str:
    if replica.has_workload:
        return str(replica.workload["image"])
    version = replica.runtime_version
    if replica.cloud.lower() == "runpod":
        return f"ghcr.io/infercrane/vllm-runpod:v{version}" if version else DEFAULT_RUNPOD_VLLM_IMAGE
    return f"vllm/vllm-openai:v{version}" if version else DEFAULT_VLLM_IMAGE


def task(replica: Replica) -> dict[str, Any]:
    gpu_count = replica.gpu_count or 1
    port = replica.workload["port"] if replica.has_workload else (replica.port or 8000)
    accelerators = f"{replica.gpu}:{gpu_count}" if gpu_count > 1 else replica.gpu
    infra = f"{replica.cloud}/{replica.region}" if replica.region else replica.cloud
    return {
        "resources": {"accelerators": accelerators, "image_id": "docker:" + _image(replica), "infra": infra, "ports": [port]},
        "run": run_command(replica, port),
        "secrets": {"INFERCRANE_WORKER_API_KEY": None},
    }


def check(settings: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    return None


def render(replica: Replica, settings: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    if not (replica.external_key and replica.model and replica.cloud and replica.gpu):
        raise adapter_error(name, "external key, model, cloud, and GPU are required", wrap=None)
    gpu_count = replica.gpu_count or 1
    if gpu_count < 1 or gpu_count > 1024:
        raise adapter_error(name, "GPU count must be between 1 and 1024", ("resources", "gpu_count"), wrap=None)
    if replica.has_workload:
        problem = c.workload_validate(replica.workload)
        if problem:
            raise adapter_error(name, problem[0], ("runtime", "workload") + problem[1], wrap=INVALID_REPLICA)
    import yaml

    body = task(replica)
    text = yaml.safe_dump(body, sort_keys=True, default_flow_style=False, indent=4, width=1 << 20)
    cluster = c.cluster_name(replica.external_key)
    launch = ["sky", "launch", "-c", cluster, "-y", "--async", "--secret", "INFERCRANE_WORKER_API_KEY", "task.yaml"]
    return [
        RenderedArtifact("task.yaml", "text", text, "application/yaml", "SkyPilot task YAML passed to sky launch"),
        RenderedArtifact("task", "object", body, description="SkyPilot task (parsed form)"),
        RenderedArtifact(
            "launch", "object", {"argv": launch, "env": ["INFERCRANE_WORKER_API_KEY"]},
            description="sky launch invocation; the worker key is passed by environment only",
        ),
        replica_artifact(cluster, replica.external_key, request_id=replica.request_id),
    ]


PARTS = {"run-command": lambda replica, settings: run_command(replica)}
