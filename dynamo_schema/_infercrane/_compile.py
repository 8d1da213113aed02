"""Adapter resolution and compilation of a DeploymentSpec into provider requests and manifests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core._diagnostics import Diagnostic
from .._k8s._gofmt import go_quote
from . import _contracts as c
from ._common import AdapterError, RenderedArtifact, Replica
from ._loader import NormalizedSpec, load_spec
from ._settings import ADAPTER_FIELDS, ProviderSettings
from .adapters import DEFERRED, MODULES, load

#: adapter -> (cloud, compute modes)
ADAPTER_CLOUDS = {
    "skypilot": ("runpod", ("elastic",)),
    "runpod-pods": ("runpod", ("elastic",)),
    "runpod-serverless": ("runpod", ("serverless",)),
    "aws-ec2": ("aws", ("elastic",)),
    "gcp-compute": ("gcp", ("elastic",)),
    "kubernetes": ("kubernetes", ("elastic",)),
    "kubernetes-dynamo": ("kubernetes", ("elastic",)),
}


def _error(message: str, path: tuple[Any, ...] = ("provider", "adapter")) -> AdapterError:
    return AdapterError(message, [Diagnostic("infercrane.adapter.resolve", path, message)])


def resolve_adapter(spec: NormalizedSpec, adapter: str | None = None) -> str:
    """Explicit ``provider.adapter`` (or ``adapter``), else the unambiguous default for the cloud."""
    declared = spec.adapter
    if adapter and declared and adapter != declared:
        raise _error(f"adapter {go_quote(adapter)} conflicts with provider.adapter {go_quote(declared)}")
    chosen = adapter or declared
    cloud, mode, engine = spec.cloud, spec.data["compute"]["mode"], spec.engine
    if chosen:
        if chosen in DEFERRED:
            raise _error(f"provider adapter {go_quote(chosen)} is registered but not executable "
                         "(deferred: no qualified implementation)")
        if chosen not in MODULES:
            raise _error(f"provider adapter {go_quote(chosen)} is not registered; known adapters: "
                         + ", ".join(sorted(MODULES)))
        a_cloud, a_modes = ADAPTER_CLOUDS[chosen]
        if a_cloud != cloud:
            raise _error(f"provider adapter {go_quote(chosen)} serves cloud {go_quote(a_cloud)}, not {go_quote(cloud)}")
        if mode not in a_modes:
            raise _error(f"provider adapter {go_quote(chosen)} does not serve compute mode {mode}", ("compute", "mode"))
        return chosen
    if cloud == "runpod":
        if mode == "serverless":
            return "runpod-serverless"
        if engine == "vllm":
            return "skypilot"
        raise _error(f"runtime {go_quote(engine)} on cloud \"runpod\" is ambiguous without provider.adapter; "
                     "set provider.adapter runpod-pods for custom OCI workloads")
    if cloud == "kubernetes" and not c.topology_empty(spec.data["serving"]):
        return "kubernetes-dynamo"
    return {"aws": "aws-ec2", "gcp": "gcp-compute", "kubernetes": "kubernetes"}[cloud]


def _adapter_settings(settings: ProviderSettings, adapter: str) -> dict[str, Any]:
    return settings.adapter_settings(adapter)


def compile_replica(
    replica: Replica, settings: ProviderSettings, adapter: str, provider_state: Mapping[str, Any] | None = None
) -> list[RenderedArtifact]:
    """Compile one replica (adapter-level input, no loader) for ``adapter``."""
    if adapter not in MODULES:
        raise _error(f"provider adapter {go_quote(adapter)} is not registered")
    module = load(adapter)
    return list(module.render(replica, _adapter_settings(settings, adapter), provider_state))


def render_part(part: str, replica: Replica, settings: ProviderSettings, adapter: str) -> str:
    """One rendered piece only, where upstream builds it on its own: ``run-command`` (skypilot),
    ``startup-script`` (gcp-compute), ``user-data`` (aws-ec2).

    Any other adapter or part name raises :class:`AdapterError` (rule ``infercrane.adapter.part``): the
    other adapters' outputs (Kubernetes manifests, the DGD, RunPod request bodies) have no such piece.
    """
    if adapter not in MODULES:
        raise _error(f"provider adapter {go_quote(adapter)} is not registered")
    parts = load(adapter).PARTS
    renderer = parts.get(part)
    if renderer is None:
        known = ", ".join(sorted(parts)) if parts else "none (compile the replica for its artifacts)"
        message = f"provider adapter {go_quote(adapter)} renders no part {go_quote(part)} on its own; its parts: {known}"
        raise AdapterError(message, [Diagnostic("infercrane.adapter.part", (), message)])
    return str(renderer(replica, _adapter_settings(settings, adapter)))


def preflight(adapter: str, settings: ProviderSettings, provider_state: Mapping[str, Any] | None = None) -> None:
    """The adapter's configuration check before any provider call (raises :class:`AdapterError`)."""
    if adapter not in MODULES:
        raise _error(f"provider adapter {go_quote(adapter)} is not registered")
    load(adapter).check(_adapter_settings(settings, adapter), provider_state)


def compile_spec(
    data: dict[str, Any],
    settings: ProviderSettings,
    adapter: str | None = None,
    *,
    external_key: str | None = None,
    request_id: str = "",
    port: int = 0,
    provider_state: Mapping[str, Any] | None = None,
) -> list[RenderedArtifact]:
    """Load ``data`` (raises ``SpecError``), resolve the adapter and compile.

    ``external_key`` is the revision-scoped durable replica key (default ``<name>-r0``).
    """
    spec = load_spec(data)
    chosen = resolve_adapter(spec, adapter)
    replica = Replica.from_spec(spec.data, {"external_key": external_key or f"{spec.name}-r0",
                                            "request_id": request_id, "port": port})
    if chosen == "kubernetes-dynamo" and replica.runtime == "sglang" and replica.workload == c.sglang_workload():
        # The loader substitutes the built-in SGLang profile; the Dynamo graph uses its own qualified
        # runtime image, so the substituted (not user-given) profile is dropped here.
        replica.workload = c.empty_workload()
    return compile_replica(replica, settings, chosen, provider_state)


__all__ = ["ADAPTER_FIELDS", "compile_replica", "compile_spec", "preflight", "render_part", "resolve_adapter"]
