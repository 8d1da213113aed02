"""Pydantic v2 model of the InferCrane DeploymentSpec v1 (``infercrane.dev/v1``, ``kind: Deployment``).

The model mirrors ``schemas/deployment-v1.schema.json@670f90e`` (every object closed:
``extra="forbid"``) with the loader-compatible leniencies the library follows
(``docs/deployment-spec.md`` and ``internal/spec/spec.go@64491a4``):

* ``apiVersion`` / ``kind`` may be omitted (pre-v1 headerless files load as v1);
* section objects other than ``name``/``model``/``resources``/``provider`` may be omitted;
* ``resources.gpu_count: 0`` is accepted and means 1 (Go zero value = unset);
* the workload keeps the Go limits (image <= 512, exact probe paths) in ``_loader``; the model keeps
  the schema's structural constraints so generated JSON Schema stays close to upstream.

JSON names are the field aliases; Python names are snake_case.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

_NAME_PATTERN = r"^[a-z][a-z0-9-]{0,62}$"


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Model(_Closed):
    id: str = Field(min_length=1, max_length=256, description="Hugging Face repository id.")
    revision: str = Field(
        default="",
        max_length=256,
        description="Model revision; mutable refs are resolved to an immutable commit before provisioning.",
    )


class Workload(_Closed):
    """Portable OCI workload contract (``runtimecontract.Workload``)."""

    image: str = Field(min_length=1, max_length=1024, description="OCI reference pinned by @sha256 digest.")
    command: list[str] | None = Field(default=None, max_length=128, description="Executable argv.")
    protocol: Literal["openai"]
    port: int = Field(ge=1, le=65535)
    readiness_path: str = Field(pattern=r"^/")
    models_path: str = Field(pattern=r"^/")
    metrics_path: str = Field(pattern=r"^/")
    cancellation: Literal["http-disconnect"]
    drain: Literal["connection"]
    shutdown_grace_seconds: int = Field(ge=1, le=3600)


class Runtime(_Closed):
    engine: Literal["vllm", "sglang", "custom-oci"] = "vllm"
    version: str = Field(default="", max_length=128)
    args: list[str] | None = Field(default=None, max_length=128)
    workload: Workload | None = None


class Compute(_Closed):
    mode: Literal["elastic", "serverless"] = "elastic"


class Resources(_Closed):
    gpu: str = Field(min_length=1, max_length=128, description="Accelerator name, matched exactly.")
    gpu_count: int = Field(
        default=1,
        ge=0,
        le=1024,
        description="Accelerators per runtime replica (0 is read as 1, Go zero-value compatibility).",
    )


class Provider(_Closed):
    cloud: Literal["runpod", "aws", "gcp", "kubernetes"]
    adapter: str = Field(default="", max_length=128, description="Exact provider-product profile.")
    region: str = Field(default="", max_length=128)


class Scaling(_Closed):
    min_replicas: int = Field(default=0, ge=0, le=10000)
    max_replicas: int = Field(default=0, ge=0, le=10000)


class Routing(_Closed):
    strategy: Literal["round-robin", "consistent-hash", "power-of-two", "cache-aware"] = "round-robin"


class Pool(_Closed):
    replicas: int = Field(default=0, ge=0, le=10000)
    tensor_parallelism: int = Field(default=0, ge=0, le=1024)


class Autoscaling(_Closed):
    owner: Literal["disabled", "dynamo-planner", "external"] | None = None
    min: int = Field(default=0, ge=0, le=10000)
    max: int = Field(default=0, ge=0, le=10000)


class Cache(_Closed):
    backend: Literal["none", "kvbm", "lmcache", "hicache"] | None = None
    host_gib: int = Field(default=0, ge=0, le=1_000_000)
    disk_gib: int = Field(default=0, ge=0, le=10_000_000)
    memory_gib: int = Field(default=0, ge=0, le=1_000_000)
    storage_claim: str = Field(default="", max_length=253)
    configuration_ref: str = Field(default="", max_length=253)
    metrics: bool = False


class Serving(_Closed):
    """Advanced backend topology (``servingcontract.Topology``)."""

    schema_version: Literal["infercrane.serving/v1"] | None = None
    backend: Literal["dynamo"] | None = None
    profile: Literal["baseline", "custom"] | None = None
    mode: Literal["aggregated", "disaggregated"] | None = None
    routing: Literal["direct", "kv-aware"] | None = None
    worker: Pool | None = None
    prefill: Pool | None = None
    decode: Pool | None = None
    autoscaling: Autoscaling | None = None
    cache: Cache | None = None


class DeploymentSpec(_Closed):
    """InferCrane DeploymentSpec v1: provider-neutral desired state for one inference deployment."""

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        title="InferCrane DeploymentSpec v1",
        json_schema_extra={"$id": "https://infercrane.dev/schemas/deployment-v1.schema.json"},
    )

    api_version: Literal["infercrane.dev/v1"] = Field(default="infercrane.dev/v1", alias="apiVersion")
    kind: Literal["Deployment"] = "Deployment"
    name: str = Field(pattern=_NAME_PATTERN)
    endpoint: str | None = Field(
        default=None,
        pattern=_NAME_PATTERN,
        description="Stable application-facing endpoint name. Defaults to name when omitted.",
    )
    model: Model
    runtime: Runtime = Field(default_factory=Runtime)
    compute: Compute = Field(default_factory=Compute)
    resources: Resources
    provider: Provider
    scaling: Scaling = Field(default_factory=Scaling)
    routing: Routing = Field(default_factory=Routing)
    serving: Serving | None = None


__all__ = [
    "Autoscaling",
    "Cache",
    "Compute",
    "DeploymentSpec",
    "Model",
    "Pool",
    "Provider",
    "Resources",
    "Routing",
    "Runtime",
    "Scaling",
    "Serving",
    "Workload",
]
