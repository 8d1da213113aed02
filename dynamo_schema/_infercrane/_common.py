"""Shared adapter plumbing: the compile input (``ReplicaSpec``), rendered artifacts, errors, quoting,
Go-compatible JSON and the jinja2 environment for shell templates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from .._core._diagnostics import Diagnostic, DynamoSchemaError, Path
from .._k8s._gofmt import go_quote
from . import _contracts as c

INVALID_REPLICA = "invalid provider replica specification"
PROVIDER_AUTHORIZATION = "provider authorization denied"


class AdapterError(DynamoSchemaError):
    """An adapter refuses to compile (upstream ``EnsureReplica`` / ``Check`` error before any provider call)."""


def adapter_error(adapter: str, message: str, path: Path = (), *, wrap: str | None = INVALID_REPLICA) -> AdapterError:
    text = f"{wrap}: {message}" if wrap else message
    return AdapterError(text, [Diagnostic(f"infercrane.adapter.{adapter}", path, text)])


@dataclass(frozen=True)
class RenderedArtifact:
    """One compiled output: a JSON-like object (``kind="object"``) or a named text (``kind="text"``)."""

    name: str
    kind: Literal["object", "text"]
    content: dict[str, Any] | str
    media_type: str = "application/json"
    description: str = ""


@dataclass
class Replica:
    """Upstream ``provision.ReplicaSpec``: what an adapter compiles (spec fields plus replica inputs)."""

    external_key: str = ""
    name: str = ""
    model: str = ""
    model_revision: str = ""
    cloud: str = ""
    gpu: str = ""
    region: str = ""
    runtime: str = ""
    runtime_version: str = ""
    gpu_count: int = 0
    request_id: str = ""
    runtime_args: list[str] = field(default_factory=list)
    port: int = 0
    workload: dict[str, Any] = field(default_factory=c.empty_workload)
    serving: dict[str, Any] = field(default_factory=lambda: c.topology_from(None))
    workers_max: int = 0
    template_id: str = ""

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], replica: Mapping[str, Any] | None = None) -> Replica:
        """Map DeploymentSpec fields (normalized or adapter-level partial) to a replica, no defaulting."""
        spec = spec or {}
        replica = replica or {}

        def sect(name: str) -> Mapping[str, Any]:
            value = spec.get(name)
            return value if isinstance(value, Mapping) else {}

        model, runtime, resources = sect("model"), sect("runtime"), sect("resources")
        provider, scaling = sect("provider"), sect("scaling")
        return cls(
            external_key=str(replica.get("external_key") or ""),
            model=str(model.get("id") or ""),
            model_revision=str(model.get("revision") or ""),
            cloud=str(provider.get("cloud") or ""),
            gpu=str(resources.get("gpu") or ""),
            region=str(provider.get("region") or ""),
            runtime=str(runtime.get("engine") or ""),
            runtime_version=str(runtime.get("version") or ""),
            gpu_count=int(resources.get("gpu_count") or 0),
            request_id=str(replica.get("request_id") or ""),
            runtime_args=[str(a) for a in (runtime.get("args") or [])],
            port=int(replica.get("port") or 0),
            workload=c.workload_from(runtime.get("workload")),
            serving=c.topology_from(spec.get("serving")),
            workers_max=int(scaling.get("max_replicas") or 0),
            template_id=str(replica.get("template_id") or ""),
        )

    @property
    def has_workload(self) -> bool:
        return not c.workload_empty(self.workload)

    @property
    def identity(self) -> str:
        return c.model_identity(self.model, self.model_revision)

    def go_json(self) -> dict[str, Any]:
        """``json.Marshal(ReplicaSpec)`` field order and zero-value handling (used in intent hashes)."""
        w = self.workload
        workload = {k: w[k] for k in c.WORKLOAD_FIELDS if w.get(k)}
        return {
            "ExternalKey": self.external_key,
            "Name": self.name,
            "Model": self.model,
            "ModelRevision": self.model_revision,
            "Cloud": self.cloud,
            "GPU": self.gpu,
            "Region": self.region,
            "Runtime": self.runtime,
            "RuntimeVersion": self.runtime_version,
            "GPUCount": self.gpu_count,
            "RequestID": "",
            "RuntimeArgs": list(self.runtime_args) if self.runtime_args else None,
            "Port": self.port,
            "Workload": workload,
            "Serving": _topology_go_json(self.serving),
        }


def _topology_go_json(t: Mapping[str, Any]) -> dict[str, Any]:
    t = c.topology_from(t)
    out: dict[str, Any] = {k: t[k] for k in ("schema_version", "backend", "profile", "mode", "routing") if t[k]}
    for key in ("worker", "prefill", "decode", "autoscaling", "cache"):
        inner = {k: v for k, v in t[key].items() if v}
        if inner:
            out[key] = inner
    return out


# ------------------------------------------------------------------------------------ artifact cache
def artifact_cache_policy(s: Mapping[str, Any]) -> str:
    """The adapter's ``ArtifactCachePolicy``: ``disabled`` and ``required`` as given, otherwise ``prefer``."""
    p = s.get("ArtifactCachePolicy") or ""
    return p if p in ("disabled", "required") else "prefer"


def artifact_runtime_supported(r: Replica) -> bool:
    """Artifact caches are qualified for vLLM and SGLang only (no engine and no workload means vLLM)."""
    runtime = r.runtime or ("vllm" if not r.has_workload else "")
    return runtime in ("vllm", "sglang")


def mapped_artifact(
    adapter: str, r: Replica, s: Mapping[str, Any], policy: str, mapping_key: str, required_message: str,
    *, wrap: str | None = INVALID_REPLICA,
) -> Any:
    """The cache target mapped to the replica's immutable model identity in ``s[mapping_key]``, or
    ``""`` when caching is off for it; a ``required`` policy without a mapping fails with
    ``required_message`` followed by the quoted identity."""
    if policy == "disabled" or not artifact_runtime_supported(r):
        return ""
    target = (s.get(mapping_key) or {}).get(r.identity, "")
    if not target and policy == "required":
        raise adapter_error(adapter, f"{required_message} {go_quote(r.identity)}", wrap=wrap)
    return target if target else ""


def replica_artifact(resource_id: str, external_key: str, *, request_id: str = "", endpoint: str = "",
                     extra: dict[str, Any] | None = None) -> RenderedArtifact:
    body: dict[str, Any] = {"external_key": external_key, "resource_id": resource_id}
    if request_id:
        body["request_id"] = request_id
    if endpoint:
        body["endpoint_when_ready"] = endpoint
    body.update(extra or {})
    return RenderedArtifact("replica", "object", body, description="provider identity of the replica")


# ------------------------------------------------------------------------------------------- quoting
def shell_quote(value: Any) -> str:
    """Upstream ``shellQuote``: always single-quote; ``'`` becomes ``'"'"'``."""
    return "'" + str(value).replace("'", "'\"'\"'") + "'"


def expand(arg: str, model: str, revision: str, port: int) -> str:
    return arg.replace("${MODEL}", model).replace("${MODEL_REVISION}", revision).replace("${PORT}", str(port))


@lru_cache(maxsize=1)
def _env() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("dynamo_schema._infercrane", "_templates"),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["sq"] = shell_quote
    env.filters["argv"] = lambda items, secret_ref=None: " ".join(
        secret_ref if (secret_ref is not None and item == "${WORKER_API_KEY}") else shell_quote(item) for item in items
    )
    return env


def render_template(name: str, **values: Any) -> str:
    return str(_env().get_template(name).render(**values))
