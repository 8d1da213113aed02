"""Runtime, serving and support contracts that InferCrane's loader and adapters share.

Facts and messages come from ``infercrane/infercrane``:
``internal/runtimecontract/workload.go@71d7a92``, ``internal/servingcontract/topology.go@b8118009``,
``internal/support/matrix.go`` (revision with ``VLLMWorkload()``, ``DefaultRuntimeVersion = "0.22.1"``).
Each check returns ``(message, path)`` where ``path`` is relative to the checked object, or ``None``.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Optional

from .._k8s._gofmt import go_json, go_quote

Problem = Optional[tuple[str, tuple[Any, ...]]]

# --------------------------------------------------------------------------------------------- support
DEFAULT_RUNTIME = "vllm"
DEFAULT_RUNTIME_VERSION = "0.22.1"
SGLANG_RUNTIME_VERSION = "0.5.12"

#: ``support.V1()``: cloud -> mode -> qualified runtimes.
SUPPORT_V1: dict[str, dict[str, tuple[str, ...]]] = {
    "runpod": {"elastic": ("vllm", "custom-oci"), "serverless": ("vllm",)},
    "aws": {"elastic": ("vllm", "sglang", "custom-oci")},
    "gcp": {"elastic": ("vllm", "sglang", "custom-oci")},
    "kubernetes": {"elastic": ("vllm", "sglang", "custom-oci")},
}


def support_validate(runtime: str, cloud: str, mode: str) -> Problem:
    """``support.V1().Validate(runtime, cloud, mode)``; path names the offending spec field."""
    runtime = runtime or DEFAULT_RUNTIME
    runtimes = sorted({r for modes in SUPPORT_V1.values() for rs in modes.values() for r in rs})
    if runtime not in runtimes:
        return (
            f"runtime {go_quote(runtime)} is not qualified; supported runtimes: {', '.join(runtimes)}",
            ("runtime", "engine"),
        )
    if cloud not in SUPPORT_V1:
        return (
            f"provider cloud {go_quote(cloud)} is not qualified; supported clouds: {', '.join(sorted(SUPPORT_V1))}",
            ("provider", "cloud"),
        )
    if mode not in SUPPORT_V1[cloud]:
        return (f"compute mode {go_quote(mode)} is not qualified for cloud {go_quote(cloud)}", ("compute", "mode"))
    if runtime not in SUPPORT_V1[cloud][mode]:
        return (
            f"runtime {go_quote(runtime)} is not qualified for cloud {go_quote(cloud)} in {mode} mode",
            ("runtime", "engine"),
        )
    return None


# -------------------------------------------------------------------------------------------- workload
WORKLOAD_FIELDS = (
    "image",
    "command",
    "protocol",
    "port",
    "readiness_path",
    "models_path",
    "metrics_path",
    "cancellation",
    "drain",
    "shutdown_grace_seconds",
)

_DIGEST_RE = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9._/-]*(?::[a-zA-Z0-9._-]+)?@sha256:[a-f0-9]{64}\Z")


def empty_workload() -> dict[str, Any]:
    return {
        "image": "",
        "command": [],
        "protocol": "",
        "port": 0,
        "readiness_path": "",
        "models_path": "",
        "metrics_path": "",
        "cancellation": "",
        "drain": "",
        "shutdown_grace_seconds": 0,
    }


def workload_from(data: Any) -> dict[str, Any]:
    """A full workload dict (Go zero values for absent fields)."""
    out = empty_workload()
    if isinstance(data, dict):
        for key in WORKLOAD_FIELDS:
            value = data.get(key)
            if value is not None:
                out[key] = list(value) if key == "command" else value
    return out


def workload_empty(w: dict[str, Any]) -> bool:
    """``Workload.Empty()``: no image, no argv and no protocol."""
    return not w.get("image") and not w.get("command") and not w.get("protocol")


#: Characters Go's ``strings.TrimSpace`` removes (``unicode.IsSpace``); Python's ``str.strip()`` would
#: also remove U+001C..U+001F.
_GO_SPACE = " \t\n\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def go_trim_space(value: str) -> str:
    """Go ``strings.TrimSpace``."""
    return value.strip(_GO_SPACE)


def go_len(value: str) -> int:
    """Go ``len(string)``: the UTF-8 byte count, not the number of characters."""
    return len(value.encode("utf-8", "surrogatepass"))


def validate_image(image: str) -> bool:
    """``runtimecontract.ValidateImage``: OCI reference pinned by ``@sha256:<64 lowercase hex>``."""
    return go_len(image) <= 512 and bool(_DIGEST_RE.fullmatch(go_trim_space(image)))


IMAGE_NOT_PINNED = "must be an OCI reference pinned by @sha256:<64 lowercase hex characters>"


def _valid_probe_path(value: str) -> bool:
    return (
        go_len(value) <= 256
        and value.startswith("/")
        and not value.startswith("//")
        and not any(c in value for c in "?#\r\n")
    )


def workload_validate(w: dict[str, Any]) -> Problem:
    """``Workload.Validate()`` (newest): first problem, path relative to the workload."""
    image = w.get("image") or ""
    if go_len(image) > 512:
        return ("workload.image must not exceed 512 characters", ("image",))
    if not validate_image(image):
        return ("workload.image: " + IMAGE_NOT_PINNED, ("image",))
    command = w.get("command") or []
    if len(command) == 0 or len(command) > 128 or not go_trim_space(str(command[0])):
        return ("workload.command must contain executable argv", ("command",))
    for index, arg in enumerate(command):
        if go_len(arg) > 4096:
            return ("workload.command arguments must not exceed 4096 characters", ("command", index))
        if "\x00" in arg:
            return ("workload.command cannot contain NUL bytes", ("command", index))
        if "${WORKER_API_KEY}" in arg:
            return (
                "workload.command cannot place worker credentials in process arguments; "
                "read INFERCRANE_WORKER_API_KEY from the environment",
                ("command", index),
            )
    protocol = w.get("protocol") or ""
    if protocol != "openai":
        return (f"workload.protocol {go_quote(protocol)} is unsupported; supported protocol: openai", ("protocol",))
    port = w.get("port") or 0
    if port < 1 or port > 65535:
        return ("workload.port must be between 1 and 65535", ("port",))
    # Upstream iterates a Go map (random order); we check in declaration order.
    for name in ("readiness_path", "models_path", "metrics_path"):
        if not _valid_probe_path(w.get(name) or ""):
            return (f"workload.{name} must be an absolute path without query or fragment", (name,))
    expected = {"readiness_path": "/health", "models_path": "/v1/models", "metrics_path": "/metrics"}
    for name, value in expected.items():
        if w.get(name) != value:
            return ("workload paths must be /health, /v1/models, and /metrics", (name,))
    if w.get("cancellation") != "http-disconnect":
        return ("workload.cancellation must be http-disconnect", ("cancellation",))
    if w.get("drain") != "connection":
        return ("workload.drain must be connection", ("drain",))
    grace = w.get("shutdown_grace_seconds") or 0
    if grace < 1 or grace > 3600:
        return ("workload.shutdown_grace_seconds must be between 1 and 3600", ("shutdown_grace_seconds",))
    return None


def _profile(image: str, command: list[str]) -> dict[str, Any]:
    return {
        "image": image,
        "command": command,
        "protocol": "openai",
        "port": 8000,
        "readiness_path": "/health",
        "models_path": "/v1/models",
        "metrics_path": "/metrics",
        "cancellation": "http-disconnect",
        "drain": "connection",
        "shutdown_grace_seconds": 30,
    }


def sglang_workload() -> dict[str, Any]:
    """``support.SGLangWorkload()`` (built-in SGLang profile, ``SGLangRuntimeVersion = "0.5.12"``)."""
    return _profile(
        "lmsysorg/sglang:v0.5.12@sha256:42194170546745092e74cd5f81ad32a7c6e944c7111fe7bf13588152277ff356",
        ["python3", "-m", "sglang.launch_server", "--model-path", "${MODEL}", "--revision", "${MODEL_REVISION}",
         "--host", "0.0.0.0", "--port", "${PORT}"],
    )


def vllm_workload() -> dict[str, Any]:
    """``support.VLLMWorkload()`` (registry default; the loader does not auto-fill it)."""
    return _profile(
        "vllm/vllm-openai@sha256:953d3a06d5e64ab582985cd7401289d3abf2a2c14ef2158e9a84313daeec77d7",
        ["vllm", "serve", "${MODEL}", "--revision", "${MODEL_REVISION}", "--host", "0.0.0.0", "--port", "${PORT}"],
    )


def normalize_workload(runtime: str, w: dict[str, Any]) -> dict[str, Any]:
    """``support.NormalizeWorkload``: an empty SGLang workload becomes the built-in profile."""
    if workload_empty(w) and runtime == "sglang":
        return sglang_workload()
    return w


# --------------------------------------------------------------------------------------------- serving
SERVING_SCHEMA_V1 = "infercrane.serving/v1"
_POOLS = ("worker", "prefill", "decode")


def empty_pool() -> dict[str, int]:
    return {"replicas": 0, "tensor_parallelism": 0}


def topology_from(data: Any) -> dict[str, Any]:
    """A full topology dict with Go zero values (``servingcontract.Topology``)."""
    data = data if isinstance(data, dict) else {}
    out: dict[str, Any] = {k: data.get(k) or "" for k in ("schema_version", "backend", "profile", "mode", "routing")}
    for pool in _POOLS:
        src = data.get(pool) if isinstance(data.get(pool), dict) else {}
        out[pool] = {"replicas": src.get("replicas") or 0, "tensor_parallelism": src.get("tensor_parallelism") or 0}
    auto = data.get("autoscaling") if isinstance(data.get("autoscaling"), dict) else {}
    out["autoscaling"] = {"owner": auto.get("owner") or "", "min": auto.get("min") or 0, "max": auto.get("max") or 0}
    cache = data.get("cache") if isinstance(data.get("cache"), dict) else {}
    out["cache"] = {
        "backend": cache.get("backend") or "",
        "host_gib": cache.get("host_gib") or 0,
        "disk_gib": cache.get("disk_gib") or 0,
        "memory_gib": cache.get("memory_gib") or 0,
        "storage_claim": cache.get("storage_claim") or "",
        "configuration_ref": cache.get("configuration_ref") or "",
        "metrics": bool(cache.get("metrics") or False),
    }
    return out


def topology_empty(t: dict[str, Any]) -> bool:
    t = topology_from(t)
    return (
        not any(t[k] for k in ("schema_version", "backend", "profile", "mode", "routing"))
        and all(t[p] == empty_pool() for p in _POOLS)
        and t["autoscaling"] == {"owner": "", "min": 0, "max": 0}
        and not any(t["cache"].values())
    )


def topology_normalize(t: dict[str, Any]) -> dict[str, Any]:
    """``Topology.Normalize()``: structural defaults only."""
    t = topology_from(t)
    if topology_empty(t):
        return t
    t["schema_version"] = t["schema_version"] or SERVING_SCHEMA_V1
    t["profile"] = t["profile"] or "custom"
    t["mode"] = t["mode"] or "aggregated"
    t["routing"] = t["routing"] or "direct"
    t["autoscaling"]["owner"] = t["autoscaling"]["owner"] or "disabled"
    t["cache"]["backend"] = t["cache"]["backend"] or "none"
    if t["mode"] == "aggregated" and t["worker"]["replicas"] == 0:
        t["worker"]["replicas"] = 1
    for pool in _POOLS:
        if t[pool]["replicas"] > 0 and t[pool]["tensor_parallelism"] == 0:
            t[pool]["tensor_parallelism"] = 1
    return t


def topology_digest(t: dict[str, Any]) -> str:
    """``Topology.Digest()``: ``sha256:`` + hex(sha256(Go JSON of the normalized topology)).

    Go marshals the struct in field order and drops zero values (``omitempty`` / ``omitzero``).
    """
    if topology_empty(t):
        return ""
    n = topology_normalize(t)
    body: dict[str, Any] = {}
    for key in ("schema_version", "backend", "profile", "mode", "routing"):
        if n[key]:
            body[key] = n[key]
    for pool in _POOLS:
        inner = {k: v for k, v in n[pool].items() if v}
        if inner:
            body[pool] = inner
    auto = {k: v for k, v in n["autoscaling"].items() if v}
    if auto:
        body["autoscaling"] = auto
    cache = {k: v for k, v in n["cache"].items() if v}
    if cache:
        body["cache"] = cache
    encoded = go_json(body).encode()
    return "sha256:" + hashlib.sha256(encoded).hexdigest()


def topology_validate(
    t: dict[str, Any], runtime: str, cloud: str, adapter: str, outer_min: int, outer_max: int
) -> Problem:
    """``Topology.Validate`` (b8118009). Paths are relative to the spec root."""
    if topology_empty(t):
        if adapter == "kubernetes-dynamo":
            return ("provider_adapter kubernetes-dynamo requires an explicit Dynamo serving topology", ("serving",))
        return None
    t = topology_normalize(t)
    if t["schema_version"] != SERVING_SCHEMA_V1:
        return (f"serving.schema_version must be {go_quote(SERVING_SCHEMA_V1)}", ("serving", "schema_version"))
    if t["backend"] != "dynamo":
        return (f"serving.backend {go_quote(t['backend'])} is unsupported", ("serving", "backend"))
    if cloud != "kubernetes" or adapter != "kubernetes-dynamo":
        where: tuple[Any, ...] = ("provider", "cloud") if cloud != "kubernetes" else ("provider", "adapter")
        return ("Dynamo serving requires cloud kubernetes and provider_adapter kubernetes-dynamo", where)
    if runtime not in ("vllm", "sglang"):
        return ("Dynamo serving currently requires runtime vllm or sglang", ("runtime", "engine"))
    if outer_min != 1 or outer_max != 1:
        where = ("scaling", "max_replicas") if outer_max != 1 else ("scaling", "min_replicas")
        return ("Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1", where)
    if t["profile"] not in ("custom", "baseline"):
        return (
            "serving.profile must be baseline or custom; workload-tuned profiles require measured "
            "qualification before they become executable",
            ("serving", "profile"),
        )
    if t["mode"] not in ("aggregated", "disaggregated"):
        return ("serving.mode must be aggregated or disaggregated", ("serving", "mode"))
    if t["routing"] not in ("direct", "kv-aware"):
        return ("serving.routing must be direct or kv-aware", ("serving", "routing"))
    for name in _POOLS:
        pool = t[name]
        if not (0 <= pool["replicas"] <= 10000) or not (0 <= pool["tensor_parallelism"] <= 1024):
            return (f"serving.{name} replicas and tensor_parallelism exceed supported bounds", ("serving", name))
        if pool["replicas"] > 0 and pool["tensor_parallelism"] < 1:
            return (f"serving.{name}.tensor_parallelism must be positive", ("serving", name, "tensor_parallelism"))
    if t["mode"] == "aggregated":
        if t["worker"]["replicas"] < 1 or t["prefill"]["replicas"] != 0 or t["decode"]["replicas"] != 0:
            where = ("serving", "prefill") if t["prefill"]["replicas"] else ("serving", "decode")
            if t["worker"]["replicas"] < 1:
                where = ("serving", "worker", "replicas")
            return ("aggregated serving requires worker replicas and forbids prefill/decode pools", where)
    elif t["worker"]["replicas"] != 0 or t["prefill"]["replicas"] < 1 or t["decode"]["replicas"] < 1:
        if t["worker"]["replicas"] != 0:
            where = ("serving", "worker")
        elif t["prefill"]["replicas"] < 1:
            where = ("serving", "prefill", "replicas")
        else:
            where = ("serving", "decode", "replicas")
        return ("disaggregated serving requires prefill and decode replicas and forbids a worker pool", where)
    auto = t["autoscaling"]
    if auto["owner"] not in ("disabled", "dynamo-planner", "external"):
        return (
            "serving.autoscaling.owner must be disabled, dynamo-planner, or external",
            ("serving", "autoscaling", "owner"),
        )
    if auto["owner"] == "disabled":
        if auto["min"] != 0 or auto["max"] != 0:
            return ("disabled serving autoscaling cannot declare min or max", ("serving", "autoscaling"))
    elif auto["min"] < 1 or auto["max"] < auto["min"] or auto["max"] > 10000:
        return ("serving autoscaling bounds must satisfy 1 <= min <= max <= 10000", ("serving", "autoscaling"))
    if auto["owner"] != "disabled":
        return (
            "Dynamo Planner and external autoscaling ownership are registered but not executable until their "
            "mutation and drain contracts are qualified",
            ("serving", "autoscaling", "owner"),
        )
    problem = _cache_validate(t["cache"], runtime)
    if problem:
        return problem
    if t["mode"] == "disaggregated":
        return (
            "NIXL prefill/decode disaggregation is registered for argument translation but not executable until "
            "its transport, routing, and failure contracts are qualified",
            ("serving", "mode"),
        )
    if t["cache"]["backend"] in ("lmcache", "hicache"):
        return (
            "LMCache and HiCache are registered but not executable until their runtime and lifecycle contracts "
            "are qualified",
            ("serving", "cache", "backend"),
        )
    return None


def _cache_validate(c: dict[str, Any], runtime: str) -> Problem:
    p = ("serving", "cache")
    if c["backend"] not in ("none", "kvbm", "lmcache", "hicache"):
        return ("serving.cache.backend must be none, kvbm, lmcache, or hicache", p + ("backend",))
    if not (0 <= c["host_gib"] <= 1_000_000 and 0 <= c["disk_gib"] <= 10_000_000 and 0 <= c["memory_gib"] <= 1_000_000):
        return ("serving cache sizes exceed supported bounds", p)
    if c["backend"] == "none" and (
        c["host_gib"] or c["disk_gib"] or c["memory_gib"] or c["storage_claim"] or c["configuration_ref"] or c["metrics"]
    ):
        return ("serving cache settings require a cache backend", p + ("backend",))
    if c["backend"] == "kvbm" and runtime != "vllm":
        return ("KVBM is currently qualified only with vllm", p + ("backend",))
    if c["backend"] == "lmcache" and runtime != "vllm":
        return ("LMCache is currently qualified only with vllm", p + ("backend",))
    if c["backend"] == "hicache" and runtime != "sglang":
        return ("HiCache requires sglang", p + ("backend",))
    if c["backend"] == "kvbm" and c["host_gib"] == 0 and c["disk_gib"] == 0:
        return ("KVBM requires an explicit host or disk cache size", p)
    if c["backend"] == "kvbm" and c["memory_gib"] <= c["host_gib"]:
        return ("KVBM memory_gib must exceed host_gib so the runtime is not starved by the cache", p + ("memory_gib",))
    if c["disk_gib"] > 0 and c["host_gib"] == 0:
        return ("disk cache requires a host cache tier", p + ("host_gib",))
    if c["disk_gib"] > 0 and c["disk_gib"] < c["host_gib"]:
        return ("disk cache must not be smaller than host cache", p + ("disk_gib",))
    if c["disk_gib"] > 0 and not c["storage_claim"]:
        return ("disk cache requires an explicit storage_claim", p + ("storage_claim",))
    return None


# --------------------------------------------------------------------------------------------- identity
def model_identity(model: str, revision: str) -> str:
    """``modelIdentity``: ``<model>@<revision>`` (just the model when the revision is empty)."""
    return f"{model}@{revision}" if revision else model


def model_identity_digest(identity: str) -> str:
    return "sha256:" + hashlib.sha256(identity.encode()).hexdigest()


def valid_immutable_model_identity(value: str) -> bool:
    sep = value.rfind("@")
    if sep <= 0 or value.strip() != value:
        return False
    revision = value[sep + 1 :]
    return len(revision) == 40 and all(c in "0123456789abcdef" for c in revision)


def cluster_name(key: str) -> str:
    """``clusterName`` (skypilot.go@64491a4): SkyPilot cluster and RunPod Pod name."""
    slug = re.sub(r"[^a-z0-9-]+", "-", key.lower()).strip("-")
    result = "infercrane-" + slug
    if len(result) > 63:
        digest = hashlib.sha256(key.encode()).hexdigest()[:12]
        result = result[: 63 - 1 - 12].rstrip("-") + "-" + digest
    return result.rstrip("-")


def runtime_args_digest(args: list[str]) -> str:
    """Planning's ``runtime_args_digest``: ``sha256:`` + hex(sha256(json(args)))."""
    body = json.dumps(list(args or []) if args else None, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(body.encode()).hexdigest()
