"""Every DeploymentSpec rule with its exact upstream message and the path the library reports.

Expected messages are copied from upstream source (``infercrane/infercrane``):
``internal/servingcontract/topology.go@b8118009`` (serving, §2.3 of ``spec/deploymentspec.md``),
``internal/runtimecontract/workload.go@71d7a92`` (workload, §2.2), ``internal/support/matrix.go``
(support policy), ``internal/spec/spec.go@64491a4`` (loader, §2.1) and the provider adapters
``internal/provision/{aws_ec2,gcp_compute}.go@64491a4``, ``runpod_pods.go@67a0ce4``,
``runpod_serverless.go`` and ``kubernetes_dynamo.go@11890ae`` (§2.4). Adapter errors returned from
``EnsureReplica`` are wrapped ``invalid provider replica specification: <error>`` upstream
(``ErrInvalidReplicaSpec`` followed by the adapter's error).

Paths are the library's contract: the field that has to change to make the rule pass.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._infercrane import (
    AdapterError,
    ProviderSettings,
    Replica,
    compile_replica,
    compile_spec,
    preflight,
    validate_serving,
    validate_spec,
    validate_workload,
)

Path = tuple[Any, ...]
REV = "0123456789abcdef0123456789abcdef01234567"
DIGEST = "registry.example/runtime@sha256:" + "a" * 64
INVALID = "invalid provider replica specification: "

WORKLOAD: dict[str, Any] = {
    "image": DIGEST, "command": ["serve", "--model", "${MODEL}"], "protocol": "openai", "port": 8000,
    "readiness_path": "/health", "models_path": "/v1/models", "metrics_path": "/metrics",
    "cancellation": "http-disconnect", "drain": "connection", "shutdown_grace_seconds": 30,
}

BASE: dict[str, Any] = {
    "apiVersion": "infercrane.dev/v1", "kind": "Deployment", "name": "qwen",
    "model": {"id": "Qwen/Qwen3-8B", "revision": REV}, "runtime": {"engine": "vllm"},
    "compute": {"mode": "elastic"}, "resources": {"gpu": "L40S"},
    "provider": {"cloud": "aws", "region": "eu-central-1"},
    "scaling": {"min_replicas": 1, "max_replicas": 1}, "routing": {"strategy": "round-robin"},
}

DYNAMO: dict[str, Any] = dict(
    copy.deepcopy(BASE),
    provider={"cloud": "kubernetes", "adapter": "kubernetes-dynamo"},
    serving={"backend": "dynamo", "mode": "aggregated", "worker": {"replicas": 1, "tensor_parallelism": 1}},
)


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Copy of ``base`` with ``a__b=value`` set (``None`` removes the key)."""
    out = copy.deepcopy(base)
    for dotted, value in changes.items():
        node = out
        parts = dotted.split("__")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if value is None:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = value
    return out


def _only(diags: list[Diagnostic]) -> Diagnostic:
    assert len(diags) == 1, diags
    return diags[0]


def _serving(**fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"backend": "dynamo"}
    out.update(fields)
    return out


# =========================================================================== §2.3 serving topology
NIXL = ("NIXL prefill/decode disaggregation is registered for argument translation but not executable until its "
        "transport, routing, and failure contracts are qualified")
LMCACHE_HICACHE = ("LMCache and HiCache are registered but not executable until their runtime and lifecycle "
                   "contracts are qualified")
OWNERSHIP = ("Dynamo Planner and external autoscaling ownership are registered but not executable until their "
             "mutation and drain contracts are qualified")
PROFILE = ("serving.profile must be baseline or custom; workload-tuned profiles require measured qualification "
           "before they become executable")
AGG = "aggregated serving requires worker replicas and forbids prefill/decode pools"
DISAGG = "disaggregated serving requires prefill and decode replicas and forbids a worker pool"
BOUNDS = "serving autoscaling bounds must satisfy 1 <= min <= max <= 10000"

#: (id, spec changes on DYNAMO, expected message without the loader's "serving: " prefix, path)
SERVING_CASES: list[tuple[str, dict[str, Any], str, Path]] = [
    ("schema-version", {"serving": _serving(schema_version="infercrane.serving/v2")},
     'serving.schema_version must be "infercrane.serving/v1"', ("serving", "schema_version")),
    ("backend-missing", {"serving": {"mode": "aggregated"}},
     'serving.backend "" is unsupported', ("serving", "backend")),
    ("backend-other", {"serving": _serving(backend="llm-d")},
     'serving.backend "llm-d" is unsupported', ("serving", "backend")),
    ("placement-adapter", {"provider": {"cloud": "kubernetes", "adapter": "kubernetes"}, "serving": _serving()},
     "Dynamo serving requires cloud kubernetes and provider_adapter kubernetes-dynamo", ("provider", "adapter")),
    ("placement-no-adapter", {"provider": {"cloud": "kubernetes"}, "serving": _serving()},
     "Dynamo serving requires cloud kubernetes and provider_adapter kubernetes-dynamo", ("provider", "adapter")),
    ("placement-cloud", {"provider": {"cloud": "aws", "region": "eu-central-1", "adapter": "kubernetes-dynamo"},
                         "serving": _serving()},
     "Dynamo serving requires cloud kubernetes and provider_adapter kubernetes-dynamo", ("provider", "cloud")),
    ("runtime-custom-oci", {"runtime": {"engine": "custom-oci", "workload": WORKLOAD}, "serving": _serving()},
     "Dynamo serving currently requires runtime vllm or sglang", ("runtime", "engine")),
    ("outer-max", {"scaling": {"min_replicas": 1, "max_replicas": 3}, "serving": _serving()},
     "Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1", ("scaling", "max_replicas")),
    ("profile", {"serving": _serving(profile="latency-tuned")}, PROFILE, ("serving", "profile")),
    ("mode", {"serving": _serving(mode="hybrid")},
     "serving.mode must be aggregated or disaggregated", ("serving", "mode")),
    ("routing", {"serving": _serving(routing="round-robin")},
     "serving.routing must be direct or kv-aware", ("serving", "routing")),
    ("worker-replicas-bound", {"serving": _serving(worker={"replicas": 10001})},
     "serving.worker replicas and tensor_parallelism exceed supported bounds", ("serving", "worker")),
    ("worker-tp-negative", {"serving": _serving(worker={"replicas": 1, "tensor_parallelism": -1})},
     "serving.worker replicas and tensor_parallelism exceed supported bounds", ("serving", "worker")),
    ("prefill-tp-bound", {"serving": _serving(prefill={"replicas": 1, "tensor_parallelism": 1025})},
     "serving.prefill replicas and tensor_parallelism exceed supported bounds", ("serving", "prefill")),
    ("decode-replicas-negative", {"serving": _serving(decode={"replicas": -1})},
     "serving.decode replicas and tensor_parallelism exceed supported bounds", ("serving", "decode")),
    ("aggregated-with-prefill", {"serving": _serving(prefill={"replicas": 1})}, AGG, ("serving", "prefill")),
    ("aggregated-with-decode", {"serving": _serving(decode={"replicas": 2})}, AGG, ("serving", "decode")),
    ("disaggregated-with-worker", {"serving": _serving(mode="disaggregated", worker={"replicas": 1},
                                                       prefill={"replicas": 1}, decode={"replicas": 1})},
     DISAGG, ("serving", "worker")),
    ("disaggregated-no-prefill", {"serving": _serving(mode="disaggregated", decode={"replicas": 1})},
     DISAGG, ("serving", "prefill", "replicas")),
    ("disaggregated-no-decode", {"serving": _serving(mode="disaggregated", prefill={"replicas": 1})},
     DISAGG, ("serving", "decode", "replicas")),
    ("owner-enum", {"serving": _serving(autoscaling={"owner": "hpa"})},
     "serving.autoscaling.owner must be disabled, dynamo-planner, or external", ("serving", "autoscaling", "owner")),
    ("disabled-with-min", {"serving": _serving(autoscaling={"owner": "disabled", "min": 1})},
     "disabled serving autoscaling cannot declare min or max", ("serving", "autoscaling")),
    ("default-owner-with-max", {"serving": _serving(autoscaling={"max": 4})},
     "disabled serving autoscaling cannot declare min or max", ("serving", "autoscaling")),
    ("planner-min-zero", {"serving": _serving(autoscaling={"owner": "dynamo-planner", "max": 2})},
     BOUNDS, ("serving", "autoscaling")),
    ("external-max-below-min", {"serving": _serving(autoscaling={"owner": "external", "min": 3, "max": 2})},
     BOUNDS, ("serving", "autoscaling")),
    ("external-max-too-big", {"serving": _serving(autoscaling={"owner": "external", "min": 1, "max": 10001})},
     BOUNDS, ("serving", "autoscaling")),
    ("planner-owner", {"serving": _serving(autoscaling={"owner": "dynamo-planner", "min": 1, "max": 2})},
     OWNERSHIP, ("serving", "autoscaling", "owner")),
    ("external-owner", {"serving": _serving(autoscaling={"owner": "external", "min": 1, "max": 1})},
     OWNERSHIP, ("serving", "autoscaling", "owner")),
    ("cache-enum", {"serving": _serving(cache={"backend": "redis"})},
     "serving.cache.backend must be none, kvbm, lmcache, or hicache", ("serving", "cache", "backend")),
    ("cache-host-negative", {"serving": _serving(cache={"backend": "kvbm", "host_gib": -1})},
     "serving cache sizes exceed supported bounds", ("serving", "cache")),
    ("cache-disk-too-big", {"serving": _serving(cache={"backend": "kvbm", "host_gib": 1, "disk_gib": 10_000_001})},
     "serving cache sizes exceed supported bounds", ("serving", "cache")),
    ("cache-memory-too-big", {"serving": _serving(cache={"backend": "kvbm", "memory_gib": 1_000_001})},
     "serving cache sizes exceed supported bounds", ("serving", "cache")),
    ("none-with-host", {"serving": _serving(cache={"host_gib": 4})},
     "serving cache settings require a cache backend", ("serving", "cache", "backend")),
    ("none-with-metrics", {"serving": _serving(cache={"backend": "none", "metrics": True})},
     "serving cache settings require a cache backend", ("serving", "cache", "backend")),
    ("none-with-configuration-ref", {"serving": _serving(cache={"configuration_ref": "cm/lmcache"})},
     "serving cache settings require a cache backend", ("serving", "cache", "backend")),
    ("kvbm-sglang", {"runtime": {"engine": "sglang"}, "serving": _serving(cache={"backend": "kvbm", "host_gib": 8})},
     "KVBM is currently qualified only with vllm", ("serving", "cache", "backend")),
    ("lmcache-sglang", {"runtime": {"engine": "sglang"}, "serving": _serving(cache={"backend": "lmcache"})},
     "LMCache is currently qualified only with vllm", ("serving", "cache", "backend")),
    ("hicache-vllm", {"serving": _serving(cache={"backend": "hicache"})},
     "HiCache requires sglang", ("serving", "cache", "backend")),
    ("kvbm-no-size", {"serving": _serving(cache={"backend": "kvbm", "memory_gib": 64})},
     "KVBM requires an explicit host or disk cache size", ("serving", "cache")),
    ("kvbm-memory-equal-host", {"serving": _serving(cache={"backend": "kvbm", "host_gib": 32, "memory_gib": 32})},
     "KVBM memory_gib must exceed host_gib so the runtime is not starved by the cache",
     ("serving", "cache", "memory_gib")),
    ("kvbm-memory-unset", {"serving": _serving(cache={"backend": "kvbm", "host_gib": 32})},
     "KVBM memory_gib must exceed host_gib so the runtime is not starved by the cache",
     ("serving", "cache", "memory_gib")),
    ("disk-without-host", {"serving": _serving(cache={"backend": "kvbm", "disk_gib": 64, "memory_gib": 8,
                                                      "storage_claim": "kv"})},
     "disk cache requires a host cache tier", ("serving", "cache", "host_gib")),
    ("disk-smaller-than-host", {"serving": _serving(cache={"backend": "kvbm", "host_gib": 64, "disk_gib": 32,
                                                           "memory_gib": 128, "storage_claim": "kv"})},
     "disk cache must not be smaller than host cache", ("serving", "cache", "disk_gib")),
    ("disk-without-claim", {"serving": _serving(cache={"backend": "kvbm", "host_gib": 32, "disk_gib": 64,
                                                       "memory_gib": 64})},
     "disk cache requires an explicit storage_claim", ("serving", "cache", "storage_claim")),
    ("lmcache-disk-without-host", {"serving": _serving(cache={"backend": "lmcache", "disk_gib": 10})},
     "disk cache requires a host cache tier", ("serving", "cache", "host_gib")),
    ("nixl-disaggregated", {"serving": _serving(mode="disaggregated", prefill={"replicas": 1},
                                                decode={"replicas": 2})},
     NIXL, ("serving", "mode")),
    ("lmcache-not-executable", {"serving": _serving(cache={"backend": "lmcache", "configuration_ref": "cm"})},
     LMCACHE_HICACHE, ("serving", "cache", "backend")),
    ("hicache-not-executable", {"runtime": {"engine": "sglang"},
                                "serving": _serving(cache={"backend": "hicache", "host_gib": 8})},
     LMCACHE_HICACHE, ("serving", "cache", "backend")),
    # Order (topology.go): earlier checks win over later ones.
    ("order-backend-before-placement", {"provider": {"cloud": "aws", "region": "eu-central-1"},
                                        "serving": {"mode": "aggregated"}},
     'serving.backend "" is unsupported', ("serving", "backend")),
    ("order-outer-before-profile", {"scaling": {"min_replicas": 1, "max_replicas": 2},
                                    "serving": _serving(profile="x", mode="y")},
     "Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1", ("scaling", "max_replicas")),
    ("order-pool-bounds-before-shape", {"serving": _serving(prefill={"replicas": 10001})},
     "serving.prefill replicas and tensor_parallelism exceed supported bounds", ("serving", "prefill")),
    ("order-owner-before-cache", {"serving": _serving(autoscaling={"owner": "external", "min": 1, "max": 1},
                                                      cache={"backend": "redis"})},
     OWNERSHIP, ("serving", "autoscaling", "owner")),
    ("order-cache-before-nixl", {"serving": _serving(mode="disaggregated", prefill={"replicas": 1},
                                                     decode={"replicas": 1}, cache={"backend": "hicache"})},
     "HiCache requires sglang", ("serving", "cache", "backend")),
    ("order-nixl-before-lmcache", {"serving": _serving(mode="disaggregated", prefill={"replicas": 1},
                                                       decode={"replicas": 1}, cache={"backend": "lmcache"})},
     NIXL, ("serving", "mode")),
]


@pytest.mark.parametrize("changes,message,path", [c[1:] for c in SERVING_CASES], ids=[c[0] for c in SERVING_CASES])
def test_serving_rule_through_loader(changes: dict[str, Any], message: str, path: Path) -> None:
    d = _only(validate_spec(_with(DYNAMO, **changes)))
    assert (d.rule, d.path, d.message) == ("infercrane.serving", path, "serving: " + message)


def test_serving_cases_cover_every_topology_message() -> None:
    # §2.3 of spec/deploymentspec.md, in topology.go order. The two "must be positive" /
    # "requires worker replicas" branches that Normalize makes unreachable are exercised below.
    listed = {c[2] for c in SERVING_CASES}
    expected = {
        'serving.schema_version must be "infercrane.serving/v1"',
        "Dynamo serving requires cloud kubernetes and provider_adapter kubernetes-dynamo",
        "Dynamo serving currently requires runtime vllm or sglang",
        "Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1",
        PROFILE, "serving.mode must be aggregated or disaggregated", "serving.routing must be direct or kv-aware",
        AGG, DISAGG, "serving.autoscaling.owner must be disabled, dynamo-planner, or external",
        "disabled serving autoscaling cannot declare min or max", BOUNDS, OWNERSHIP,
        "serving.cache.backend must be none, kvbm, lmcache, or hicache", "serving cache sizes exceed supported bounds",
        "serving cache settings require a cache backend", "KVBM is currently qualified only with vllm",
        "LMCache is currently qualified only with vllm", "HiCache requires sglang",
        "KVBM requires an explicit host or disk cache size",
        "KVBM memory_gib must exceed host_gib so the runtime is not starved by the cache",
        "disk cache requires a host cache tier", "disk cache must not be smaller than host cache",
        "disk cache requires an explicit storage_claim", NIXL, LMCACHE_HICACHE,
    }
    assert expected <= listed


@pytest.mark.parametrize(
    "serving,engine,cloud,adapter,bounds,message,path",
    [
        ({}, "vllm", "kubernetes", "kubernetes-dynamo", (1, 1),
         "provider_adapter kubernetes-dynamo requires an explicit Dynamo serving topology", ("serving",)),
        (_serving(), "vllm", "kubernetes", "kubernetes-dynamo", (0, 1),
         "Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1", ("scaling", "min_replicas")),
        (_serving(), "", "kubernetes", "kubernetes-dynamo", (1, 1),
         "Dynamo serving currently requires runtime vllm or sglang", ("runtime", "engine")),
    ],
    ids=["empty-with-dynamo-adapter", "outer-min", "runtime-empty"],
)
def test_serving_rule_alone(serving: dict[str, Any], engine: str, cloud: str, adapter: str, bounds: tuple[int, int],
                            message: str, path: Path) -> None:
    d = _only(validate_serving(serving, engine, cloud, adapter, *bounds))
    assert (d.rule, d.path, d.message) == ("infercrane.serving", path, message)


def test_empty_topology_without_dynamo_adapter_is_the_standard_path() -> None:
    assert validate_serving({}, "vllm", "aws", "", 1, 3) == []
    assert validate_spec(BASE) == []


@pytest.mark.parametrize(
    "serving",
    [_serving(worker={"replicas": 2, "tensor_parallelism": 0}),
     _serving(mode="disaggregated", prefill={"replicas": 1}, decode={"replicas": 1, "tensor_parallelism": 0})],
    ids=["worker-tp-zero", "decode-tp-zero"],
)
def test_zero_tensor_parallelism_is_normalized_not_rejected(serving: dict[str, Any]) -> None:
    # Normalize sets tp=1 for any pool with replicas > 0 before Validate runs, so the
    # "serving.<pool>.tensor_parallelism must be positive" branch is never the first problem.
    messages = [d.message for d in validate_serving(serving, "vllm", "kubernetes", "kubernetes-dynamo", 1, 1)]
    assert not any("must be positive" in m for m in messages)


def test_valid_aggregated_topologies_load() -> None:
    assert validate_spec(DYNAMO) == []
    kvbm = _with(DYNAMO, serving=_serving(routing="kv-aware", cache={
        "backend": "kvbm", "host_gib": 32, "memory_gib": 64, "disk_gib": 64, "storage_claim": "kv", "metrics": True}))
    assert validate_spec(kvbm) == []
    assert validate_spec(_with(DYNAMO, runtime={"engine": "sglang"}, serving=_serving(profile="baseline"))) == []


# =========================================================================== §2.2 workload contract
PINNED = "workload.image: must be an OCI reference pinned by @sha256:<64 lowercase hex characters>"

#: (id, workload changes, message, path relative to the workload)
WORKLOAD_CASES: list[tuple[str, dict[str, Any], str, Path]] = [
    ("image-513", {"image": "r.example/" + "a" * 439 + "@sha256:" + "b" * 64},
     "workload.image must not exceed 512 characters", ("image",)),
    # Go's len() counts UTF-8 bytes: 257 two-byte characters are 514 bytes.
    ("image-513-bytes", {"image": "é" * 257}, "workload.image must not exceed 512 characters", ("image",)),
    ("image-mutable-tag", {"image": "registry.example/runtime:latest"}, PINNED, ("image",)),
    ("image-uppercase-digest", {"image": "registry.example/runtime@sha256:" + "A" * 64}, PINNED, ("image",)),
    ("image-short-digest", {"image": "registry.example/runtime@sha256:" + "a" * 63}, PINNED, ("image",)),
    ("image-trailing-newline-inside", {"image": DIGEST + "\nx"}, PINNED, ("image",)),
    ("image-file-separator", {"image": DIGEST + "\x1c"}, PINNED, ("image",)),
    ("command-empty", {"command": []}, "workload.command must contain executable argv", ("command",)),
    ("command-missing", {"command": None}, "workload.command must contain executable argv", ("command",)),
    ("command-blank-argv0", {"command": ["  ", "serve"]}, "workload.command must contain executable argv", ("command",)),
    ("command-129", {"command": ["serve"] * 129}, "workload.command must contain executable argv", ("command",)),
    ("arg-4097", {"command": ["serve", "x" * 4097]},
     "workload.command arguments must not exceed 4096 characters", ("command", 1)),
    ("arg-4098-bytes", {"command": ["serve", "--x", "é" * 2049]},
     "workload.command arguments must not exceed 4096 characters", ("command", 2)),
    ("arg-nul", {"command": ["serve", "a\x00b"]}, "workload.command cannot contain NUL bytes", ("command", 1)),
    ("argv0-nul", {"command": ["ser\x00ve"]}, "workload.command cannot contain NUL bytes", ("command", 0)),
    ("arg-credentials", {"command": ["serve", "--api-key", "${WORKER_API_KEY}"]},
     "workload.command cannot place worker credentials in process arguments; read INFERCRANE_WORKER_API_KEY from "
     "the environment", ("command", 2)),
    ("arg-credentials-embedded", {"command": ["serve", "--api-key=${WORKER_API_KEY}"]},
     "workload.command cannot place worker credentials in process arguments; read INFERCRANE_WORKER_API_KEY from "
     "the environment", ("command", 1)),
    ("protocol-grpc", {"protocol": "grpc"},
     'workload.protocol "grpc" is unsupported; supported protocol: openai', ("protocol",)),
    ("protocol-empty", {"protocol": None},
     'workload.protocol "" is unsupported; supported protocol: openai', ("protocol",)),
    ("port-zero", {"port": 0}, "workload.port must be between 1 and 65535", ("port",)),
    ("port-65536", {"port": 65536}, "workload.port must be between 1 and 65535", ("port",)),
    ("readiness-relative", {"readiness_path": "health"},
     "workload.readiness_path must be an absolute path without query or fragment", ("readiness_path",)),
    ("models-double-slash", {"models_path": "//v1/models"},
     "workload.models_path must be an absolute path without query or fragment", ("models_path",)),
    ("metrics-query", {"metrics_path": "/metrics?x=1"},
     "workload.metrics_path must be an absolute path without query or fragment", ("metrics_path",)),
    ("metrics-fragment", {"metrics_path": "/metrics#a"},
     "workload.metrics_path must be an absolute path without query or fragment", ("metrics_path",)),
    ("readiness-257", {"readiness_path": "/" + "a" * 256},
     "workload.readiness_path must be an absolute path without query or fragment", ("readiness_path",)),
    ("readiness-readyz", {"readiness_path": "/readyz"},
     "workload paths must be /health, /v1/models, and /metrics", ("readiness_path",)),
    ("models-other", {"models_path": "/models"},
     "workload paths must be /health, /v1/models, and /metrics", ("models_path",)),
    ("metrics-other", {"metrics_path": "/stats"},
     "workload paths must be /health, /v1/models, and /metrics", ("metrics_path",)),
    ("cancellation", {"cancellation": "none"}, "workload.cancellation must be http-disconnect", ("cancellation",)),
    ("drain", {"drain": "request"}, "workload.drain must be connection", ("drain",)),
    ("grace-zero", {"shutdown_grace_seconds": 0},
     "workload.shutdown_grace_seconds must be between 1 and 3600", ("shutdown_grace_seconds",)),
    ("grace-3601", {"shutdown_grace_seconds": 3601},
     "workload.shutdown_grace_seconds must be between 1 and 3600", ("shutdown_grace_seconds",)),
    # Order (workload.go): image, command, protocol, port, paths, cancellation, drain, grace.
    ("order-length-before-pin", {"image": "x" * 513}, "workload.image must not exceed 512 characters", ("image",)),
    ("order-image-before-command", {"image": "r:latest", "command": []}, PINNED, ("image",)),
    ("order-first-bad-arg-wins", {"command": ["serve", "${WORKER_API_KEY}", "a\x00"]},
     "workload.command cannot place worker credentials in process arguments; read INFERCRANE_WORKER_API_KEY from "
     "the environment", ("command", 1)),
    ("order-length-before-nul", {"command": ["serve", "\x00" + "x" * 4096]},
     "workload.command arguments must not exceed 4096 characters", ("command", 1)),
    ("order-protocol-before-port", {"protocol": "grpc", "port": 0},
     'workload.protocol "grpc" is unsupported; supported protocol: openai', ("protocol",)),
    ("order-drain-before-grace", {"drain": "x", "shutdown_grace_seconds": 0},
     "workload.drain must be connection", ("drain",)),
]


def _workload(changes: dict[str, Any]) -> dict[str, Any]:
    out = dict(WORKLOAD)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("changes,message,path", [c[1:] for c in WORKLOAD_CASES], ids=[c[0] for c in WORKLOAD_CASES])
def test_workload_rule_alone(changes: dict[str, Any], message: str, path: Path) -> None:
    d = _only(validate_workload(_workload(changes)))
    assert (d.rule, d.path, d.message) == ("infercrane.workload", ("runtime", "workload") + path, message)


@pytest.mark.parametrize("changes,message,path", [c[1:] for c in WORKLOAD_CASES], ids=[c[0] for c in WORKLOAD_CASES])
def test_workload_rule_through_loader(changes: dict[str, Any], message: str, path: Path) -> None:
    data = _with(BASE, runtime={"engine": "custom-oci", "workload": _workload(changes)})
    d = _only(validate_spec(data))
    assert (d.rule, d.path, d.message) == (
        "infercrane.workload", ("runtime", "workload") + path, "runtime.workload: " + message)


@pytest.mark.parametrize(
    "changes",
    [{}, {"image": "registry.example/runtime:v1.2@sha256:" + "c" * 64}, {"command": ["serve"] * 128},
     {"command": ["serve", "x" * 4096]}, {"command": ["serve", "é" * 2048]}, {"port": 65535},
     {"shutdown_grace_seconds": 3600}, {"image": "  " + DIGEST + "\n"}],
    ids=["valid", "tag-and-digest", "argv-128", "arg-4096", "arg-4096-bytes", "port-max", "grace-max",
         "image-surrounding-space"],
)
def test_workload_boundaries_accepted(changes: dict[str, Any]) -> None:
    assert validate_workload(_workload(changes)) == []


# =========================================================================== loader (§2.1, §8 library rules)
LOADER_CASES: list[tuple[str, dict[str, Any], str, Path, str]] = [
    ("max-below-min", {"scaling": {"min_replicas": 3, "max_replicas": 2}},
     "infercrane.scaling.order", ("scaling", "max_replicas"), "scaling.max_replicas must be >= scaling.min_replicas"),
    ("max-unset-below-min", {"scaling": {"min_replicas": 2}},
     "infercrane.scaling.order", ("scaling", "max_replicas"), "scaling.max_replicas must be >= scaling.min_replicas"),
    ("cloud-not-qualified", {"provider": {"cloud": "azure", "region": "westeurope"}},
     "infercrane.support-matrix", ("provider", "cloud"),
     'support policy: provider cloud "azure" is not qualified; supported clouds: aws, gcp, kubernetes, runpod'),
    ("runtime-not-qualified", {"runtime": {"engine": "tensorrt-llm"}},
     "infercrane.support-matrix", ("runtime", "engine"),
     'support policy: runtime "tensorrt-llm" is not qualified; supported runtimes: custom-oci, sglang, vllm'),
    ("runtime-not-qualified-for-cloud", {"runtime": {"engine": "sglang"}, "provider": {"cloud": "runpod"}},
     "infercrane.support-matrix", ("runtime", "engine"),
     'support policy: runtime "sglang" is not qualified for cloud "runpod" in elastic mode'),
    ("custom-oci-runpod-serverless", {"runtime": {"engine": "custom-oci", "workload": WORKLOAD},
                                      "compute": {"mode": "serverless"}, "provider": {"cloud": "runpod"},
                                      "scaling": {"min_replicas": 0, "max_replicas": 1}},
     "infercrane.support-matrix", ("runtime", "engine"),
     'support policy: runtime "custom-oci" is not qualified for cloud "runpod" in serverless mode'),
    ("mode-not-qualified-for-cloud", {"compute": {"mode": "serverless"}, "provider": {"cloud": "kubernetes"},
                                      "scaling": {"min_replicas": 0, "max_replicas": 1}},
     "infercrane.support-matrix", ("compute", "mode"),
     'support policy: compute mode "serverless" is not qualified for cloud "kubernetes"'),
    ("serverless-min", {"compute": {"mode": "serverless"}, "provider": {"cloud": "runpod"},
                        "scaling": {"min_replicas": 1, "max_replicas": 2}},
     "infercrane.serverless.min-replicas", ("scaling", "min_replicas"), "serverless compute requires scaling.min_replicas 0"),
    ("name-pattern-uppercase", {"name": "Qwen"},
     "infercrane.name.pattern", ("name",),
     "name must start with a lowercase letter and contain only lowercase letters, digits, and hyphens"),
    ("name-pattern-digit-first", {"name": "1qwen"},
     "infercrane.name.pattern", ("name",),
     "name must start with a lowercase letter and contain only lowercase letters, digits, and hyphens"),
    ("name-pattern-64", {"name": "q" * 64},
     "infercrane.name.pattern", ("name",),
     "name must start with a lowercase letter and contain only lowercase letters, digits, and hyphens"),
    ("endpoint-pattern", {"endpoint": "Support_Production"},
     "infercrane.endpoint.pattern", ("endpoint",),
     "endpoint must start with a lowercase letter and contain only lowercase letters, digits, and hyphens"),
    ("routing-enum", {"routing": {"strategy": "random"}},
     "infercrane.routing.strategy", ("routing", "strategy"),
     "routing.strategy must be round-robin, consistent-hash, power-of-two, or cache-aware"),
    # Order (spec.go): support matrix (13) before the AWS region (14); workload (16) before replica order (17).
    ("order-support-before-region", {"runtime": {"engine": "tensorrt-llm"}, "provider": {"cloud": "aws"}},
     "infercrane.support-matrix", ("runtime", "engine"),
     'support policy: runtime "tensorrt-llm" is not qualified; supported runtimes: custom-oci, sglang, vllm'),
    ("order-workload-before-replicas", {"runtime": {"engine": "custom-oci", "workload": _workload({"port": 0})},
                                        "scaling": {"min_replicas": 3, "max_replicas": 2}},
     "infercrane.workload", ("runtime", "workload", "port"),
     "runtime.workload: workload.port must be between 1 and 65535"),
    # the header: the field that is wrong (apiVersion first) carries the error (mutant 9027c52f87df)
    ("header-kind", {"kind": "Service"}, "infercrane.header", ("kind",),
     "DeploymentSpec must use apiVersion infercrane.dev/v1 and kind Deployment"),
    ("header-api-version", {"apiVersion": "infercrane.dev/v2"}, "infercrane.header", ("apiVersion",),
     "DeploymentSpec must use apiVersion infercrane.dev/v1 and kind Deployment"),
    ("order-replicas-before-serving", {"provider": {"cloud": "kubernetes", "adapter": "kubernetes-dynamo"},
                                       "scaling": {"min_replicas": 3, "max_replicas": 2}},
     "infercrane.scaling.order", ("scaling", "max_replicas"), "scaling.max_replicas must be >= scaling.min_replicas"),
]


@pytest.mark.parametrize("changes,rule,path,message", [c[1:] for c in LOADER_CASES], ids=[c[0] for c in LOADER_CASES])
def test_loader_rule(changes: dict[str, Any], rule: str, path: Path, message: str) -> None:
    d = _only(validate_spec(_with(BASE, **changes)))
    assert (d.rule, d.path, d.message) == (rule, path, message)


@pytest.mark.parametrize(
    "changes",
    [{"name": "q" * 63}, {"name": "a"}, {"endpoint": "support-production"},
     {"routing": {"strategy": "cache-aware"}}, {"routing": {"strategy": "power-of-two"}},
     {"routing": {"strategy": "consistent-hash"}}, {"scaling": {"min_replicas": 2, "max_replicas": 2}}],
    ids=["name-63", "name-1", "endpoint", "cache-aware", "power-of-two", "consistent-hash", "equal-bounds"],
)
def test_loader_boundaries_accepted(changes: dict[str, Any]) -> None:
    assert validate_spec(_with(BASE, **changes)) == []


# =========================================================================== §2.4 adapter-time rules
AWS = {"RoleARN": "arn:aws:iam::1:role/r", "Region": "eu-central-1", "SubnetID": "subnet-a",
       "SecurityGroupIDs": ["sg-1"], "AMIID": "ami-1", "InstanceType": "g6e.xlarge", "GPU": "L40S",
       "InstanceProfileARN": "arn:aws:iam::1:instance-profile/p", "WorkerSecretARN": "arn:aws:secretsmanager:s",
       "ImageDigest": "vllm/vllm-openai@sha256:" + "a" * 64}
GCP = {"Project": "project", "Zone": "europe-west4-a", "Subnet": "s", "MachineType": "g2-standard-4",
       "GPUType": "nvidia-l4", "ServiceAccount": "sa@p.iam.gserviceaccount.com",
       "VMImage": "projects/cos-cloud/global/images/cos", "ContainerImage": "vllm/vllm-openai@sha256:" + "a" * 64,
       "WorkerSecret": "infercrane-worker", "BootDiskGiB": 200}
PODS = {"APIKey": "provider-secret", "WorkerAPIKey": "worker-secret"}
SERVERLESS = {"APIKey": "secret", "TemplateID": "template"}
DYNAMO_SETTINGS = {
    "Context": "kind-infercrane", "Namespace": "infercrane-system", "ServiceAccount": "infercrane-runtime",
    "VLLMImageDigest": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0@sha256:" + "a" * 64, "VLLMRuntimeVersion": "1.4.0",
    "SGLangImageDigest": "nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0@sha256:" + "b" * 64,
    "SGLangRuntimeVersion": "1.4.0", "ModelSecretName": "huggingface-models", "GPUResource": "nvidia.com/gpu",
    "GPUProductLabel": "nvidia.com/gpu.product",
}
K8S = {"Context": "kind-infercrane", "Namespace": "infercrane-system", "ServiceAccount": "infercrane-runtime",
       "WorkerSecretName": "infercrane-worker", "WorkerSecretKey": "api-key", "GPUResource": "nvidia.com/gpu",
       "GPUProductLabel": "nvidia.com/gpu.product", "WorkloadAPI": "deployment"}
TEMPLATE_ENV = {"MODEL_NAME": "Qwen/Qwen3-8B", "MODEL_REVISION": REV, "RAW_OPENAI_OUTPUT": "1",
                "ENABLE_AUTO_TOOL_CHOICE": "true", "TOOL_CALL_PARSER": "hermes"}


def _replica(cloud: str, *, key: str = "qwen-r0", **spec: Any) -> Replica:
    data: dict[str, Any] = {"model": {"id": "Qwen/Qwen3-8B", "revision": REV}, "resources": {"gpu": "L40S"},
                            "provider": {"cloud": cloud}, "scaling": {"max_replicas": 2}}
    data.update(spec)
    return Replica.from_spec(data, {"external_key": key})


def _template(**env: Any) -> dict[str, Any]:
    merged = dict(TEMPLATE_ENV)
    for key, value in env.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return {"template": {"id": "template", "isServerless": True, "env": merged}}


#: (id, adapter, replica, settings, provider_state, exact message, path)
ADAPTER_CASES: list[tuple[str, str, Replica, dict[str, Any], dict[str, Any] | None, str, Path]] = [
    ("aws-region-mismatch", "aws-ec2", _replica("aws", provider={"cloud": "aws", "region": "us-east-1"}), AWS, None,
     INVALID + "AWS replica requires external key, model, cloud aws, and configured region", ("provider", "region")),
    ("aws-gpu-mismatch", "aws-ec2",
     _replica("aws", provider={"cloud": "aws", "region": "eu-central-1"}, resources={"gpu": "H100"}), AWS, None,
     INVALID + "configured AWS instance type g6e.xlarge is qualified for GPU L40S, not H100", ("resources", "gpu")),
    ("aws-gpu-count-mismatch", "aws-ec2",
     _replica("aws", provider={"cloud": "aws", "region": "eu-central-1"}, resources={"gpu": "L40S", "gpu_count": 4}),
     AWS, None, INVALID + "configured AWS instance type g6e.xlarge is qualified for 1 GPUs, not 4",
     ("resources", "gpu_count")),
    ("aws-gpu-count-mismatch-configured-4", "aws-ec2",
     _replica("aws", provider={"cloud": "aws", "region": "eu-central-1"}),
     dict(AWS, InstanceType="g6e.12xlarge", GPUCount=4), None,
     INVALID + "configured AWS instance type g6e.12xlarge is qualified for 4 GPUs, not 1", ("resources", "gpu_count")),
    ("aws-configured-count-out-of-range", "aws-ec2",
     _replica("aws", provider={"cloud": "aws", "region": "eu-central-1"}), dict(AWS, GPUCount=1025), None,
     INVALID + "configured AWS GPU count must be between 1 and 1024", ()),
    ("aws-portable-workload", "aws-ec2",
     _replica("aws", provider={"cloud": "aws", "region": "eu-central-1"},
              runtime={"engine": "custom-oci", "workload": _workload({"drain": "none"})}), AWS, None,
     INVALID + "portable workload: workload.drain must be connection", ("runtime", "workload", "drain")),
    # kubernetes.go validate: the portable workload's problem, prefixed, at runtime.workload.<field>
    ("kubernetes-portable-workload", "kubernetes",
     _replica("kubernetes", runtime={"engine": "custom-oci", "workload": _workload({"drain": "none"})}), K8S, None,
     INVALID + "portable workload: workload.drain must be connection", ("runtime", "workload", "drain")),
    ("gcp-gpu-mismatch", "gcp-compute",
     _replica("gcp", provider={"cloud": "gcp", "region": "europe-west4"}), GCP, None,
     INVALID + "configured machine is qualified for GPU nvidia-l4, not L40S", ("resources", "gpu")),
    ("gcp-gpu-count-out-of-range", "gcp-compute",
     _replica("gcp", provider={"cloud": "gcp", "region": "europe-west4"},
              resources={"gpu": "nvidia-l4", "gpu_count": 1025}), GCP, None,
     INVALID + "GCP GPU count must be between 1 and 1024", ("resources", "gpu_count")),
    ("gcp-region-zone-mismatch", "gcp-compute",
     _replica("gcp", provider={"cloud": "gcp", "region": "us-central1"}, resources={"gpu": "nvidia-l4"}), GCP, None,
     INVALID + "GCP replica requires external key, model, cloud gcp, and configured region/zone", ("provider", "region")),
    ("gcp-workload", "gcp-compute",
     _replica("gcp", provider={"cloud": "gcp", "region": "europe-west4"}, resources={"gpu": "nvidia-l4"},
              runtime={"engine": "custom-oci", "workload": _workload({"protocol": "grpc"})}), GCP, None,
     INVALID + 'workload.protocol "grpc" is unsupported; supported protocol: openai', ("runtime", "workload", "protocol")),
    ("pods-gpu-count-9", "runpod-pods",
     _replica("runpod", resources={"gpu": "H200", "gpu_count": 9}, runtime={"engine": "custom-oci", "workload": WORKLOAD}),
     PODS, None, INVALID + "RunPod Pod GPU count must be between 1 and 8", ("resources", "gpu_count")),
    ("pods-gpu-count-negative", "runpod-pods",
     _replica("runpod", resources={"gpu": "H200", "gpu_count": -1}, runtime={"engine": "custom-oci", "workload": WORKLOAD}),
     PODS, None, INVALID + "RunPod Pod GPU count must be between 1 and 8", ("resources", "gpu_count")),
    ("pods-no-workload", "runpod-pods", _replica("runpod", runtime={"engine": "custom-oci"}), PODS, None,
     INVALID + "native RunPod Pods require an immutable custom OCI workload", ("runtime", "workload")),
    ("pods-order-count-before-workload", "runpod-pods",
     _replica("runpod", resources={"gpu": "H200", "gpu_count": 16}, runtime={"engine": "custom-oci"}), PODS, None,
     INVALID + "RunPod Pod GPU count must be between 1 and 8", ("resources", "gpu_count")),
    ("pods-workload", "runpod-pods",
     _replica("runpod", runtime={"engine": "custom-oci", "workload": _workload({"shutdown_grace_seconds": 0})}),
     PODS, None, INVALID + "workload.shutdown_grace_seconds must be between 1 and 3600",
     ("runtime", "workload", "shutdown_grace_seconds")),
    ("serverless-required", "runpod-serverless", _replica("runpod", model={"id": "Qwen/Qwen3-8B"}), SERVERLESS, None,
     "external key, model, immutable model revision, GPU, and positive workers max are required", ()),
    ("serverless-template-model", "runpod-serverless", _replica("runpod"), SERVERLESS,
     _template(MODEL_NAME="Other/Model"),
     'RunPod template MODEL_NAME is "Other/Model", expected "Qwen/Qwen3-8B"', ("model", "id")),
    # any other model, whichever way it sorts (mutant 95bc933b0df4: != -> <)
    ("serverless-template-model-after", "runpod-serverless", _replica("runpod"), SERVERLESS,
     _template(MODEL_NAME="Zeta/Model"),
     'RunPod template MODEL_NAME is "Zeta/Model", expected "Qwen/Qwen3-8B"', ("model", "id")),
    ("serverless-template-revision-main", "runpod-serverless", _replica("runpod"), SERVERLESS,
     _template(MODEL_REVISION="main"),
     f'RunPod template MODEL_REVISION is "main", expected immutable revision "{REV}"', ("model", "revision")),
    ("serverless-template-raw-output", "runpod-serverless", _replica("runpod"), SERVERLESS,
     _template(RAW_OPENAI_OUTPUT="0"),
     "RunPod template must set RAW_OPENAI_OUTPUT=1 for OpenAI-compatible streaming", ()),
    ("serverless-template-tool-choice", "runpod-serverless", _replica("runpod"), SERVERLESS,
     _template(ENABLE_AUTO_TOOL_CHOICE="false"),
     "RunPod template must set ENABLE_AUTO_TOOL_CHOICE=true and TOOL_CALL_PARSER for OpenAI-compatible tool calls", ()),
    ("serverless-template-tool-parser", "runpod-serverless", _replica("runpod"), SERVERLESS,
     _template(TOOL_CALL_PARSER=None),
     "RunPod template must set ENABLE_AUTO_TOOL_CHOICE=true and TOOL_CALL_PARSER for OpenAI-compatible tool calls", ()),
    ("serverless-template-not-serverless", "runpod-serverless", _replica("runpod"), SERVERLESS,
     {"template": {"id": "template", "isServerless": False, "env": TEMPLATE_ENV}},
     "configured RunPod template is not a Serverless template", ()),
    ("dynamo-workload-override", "kubernetes-dynamo",
     _replica("kubernetes", runtime={"engine": "vllm", "workload": WORKLOAD},
              serving=_serving(worker={"replicas": 1})), DYNAMO_SETTINGS, None,
     INVALID + "Dynamo graph uses its qualified runtime image and does not accept a portable workload override",
     ("runtime", "workload")),
    ("dynamo-unbounded-key", "kubernetes-dynamo",
     _replica("kubernetes", key="k" * 254, runtime={"engine": "vllm"}, serving=_serving()), DYNAMO_SETTINGS, None,
     INVALID + "Dynamo graph requires bounded external key, model, cloud kubernetes, and GPU", ()),
    # kubernetes_dynamo.go validates the topology (with outer bounds 1..1) before its own Planner check, so
    # Planner intent fails with the topology's ownership message; LMCache/HiCache fail with theirs.
    ("dynamo-planner", "kubernetes-dynamo",
     _replica("kubernetes", runtime={"engine": "vllm"},
              serving=_serving(autoscaling={"owner": "dynamo-planner", "min": 1, "max": 4})), DYNAMO_SETTINGS, None,
     INVALID + OWNERSHIP, ("serving", "autoscaling", "owner")),
    ("dynamo-lmcache", "kubernetes-dynamo",
     _replica("kubernetes", runtime={"engine": "vllm"}, serving=_serving(cache={"backend": "lmcache"})),
     DYNAMO_SETTINGS, None, INVALID + LMCACHE_HICACHE, ("serving", "cache", "backend")),
    ("dynamo-hicache", "kubernetes-dynamo",
     _replica("kubernetes", runtime={"engine": "sglang"}, serving=_serving(cache={"backend": "hicache"})),
     DYNAMO_SETTINGS, None, INVALID + LMCACHE_HICACHE, ("serving", "cache", "backend")),
    ("dynamo-disaggregated", "kubernetes-dynamo",
     _replica("kubernetes", runtime={"engine": "vllm"},
              serving=_serving(mode="disaggregated", prefill={"replicas": 1}, decode={"replicas": 1})),
     DYNAMO_SETTINGS, None, INVALID + NIXL, ("serving", "mode")),
    ("dynamo-empty-topology", "kubernetes-dynamo", _replica("kubernetes", runtime={"engine": "vllm"}),
     DYNAMO_SETTINGS, None,
     INVALID + "provider_adapter kubernetes-dynamo requires an explicit Dynamo serving topology", ("serving",)),
]


@pytest.mark.parametrize(
    "adapter,replica,settings,state,message,path", [c[1:] for c in ADAPTER_CASES], ids=[c[0] for c in ADAPTER_CASES]
)
def test_adapter_rule(adapter: str, replica: Replica, settings: dict[str, Any], state: dict[str, Any] | None,
                      message: str, path: Path) -> None:
    with pytest.raises(AdapterError) as info:
        compile_replica(copy.deepcopy(replica), ProviderSettings.for_adapter(adapter, settings), adapter, state)
    d = _only(info.value.diagnostics)
    assert (d.rule, d.path, d.message) == (f"infercrane.adapter.{adapter}", path, message)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "state,message",
    [(_template(MODEL_NAME=""), "RunPod template must set MODEL_NAME"),
     (_template(MODEL_REVISION="master"), "RunPod template must pin MODEL_REVISION to an immutable revision"),
     (_template(MODEL_REVISION=None), "RunPod template must pin MODEL_REVISION to an immutable revision"),
     (_template(RAW_OPENAI_OUTPUT=None), "RunPod template must set RAW_OPENAI_OUTPUT=1"),
     (_template(ENABLE_AUTO_TOOL_CHOICE="no"),
      "RunPod template must enable automatic tool choice and set TOOL_CALL_PARSER"),
     ({"template": {"id": "other", "isServerless": True, "env": TEMPLATE_ENV}},
      "configured RunPod template is not a Serverless template")],
    ids=["model-name", "revision-master", "revision-missing", "raw-output", "tool-choice", "wrong-template"],
)
def test_serverless_preflight_template_env(state: dict[str, Any], message: str) -> None:
    with pytest.raises(AdapterError) as info:
        preflight("runpod-serverless", ProviderSettings.for_adapter("runpod-serverless", SERVERLESS), state)
    d = _only(info.value.diagnostics)
    assert (d.path, d.message) == ((), message)


def test_serverless_preflight_accepts_complete_template() -> None:
    preflight("runpod-serverless", ProviderSettings.for_adapter("runpod-serverless", SERVERLESS), _template())


@pytest.mark.parametrize("count", [1, 8])
def test_pods_gpu_count_bounds_accepted(count: int) -> None:
    replica = _replica("runpod", resources={"gpu": "H200", "gpu_count": count},
                       runtime={"engine": "custom-oci", "workload": WORKLOAD})
    artifacts = compile_replica(replica, ProviderSettings.for_adapter("runpod-pods", PODS), "runpod-pods")
    request = next(a.content for a in artifacts if a.name == "create-pod")
    assert isinstance(request, dict)
    assert (request["method"], request["path"], request["body"]["gpuCount"]) == ("POST", "/pods", count)


# =========================================================================== §3.9 emitted DGD passes admission
def _dgd_specs() -> list[tuple[str, dict[str, Any]]]:
    base = {"name": "llama", "model": {"id": "meta-llama/Llama-3.1-8B-Instruct", "revision": "immutable"},
            "resources": {"gpu": "NVIDIA-L40S"}, "provider": {"cloud": "kubernetes", "adapter": "kubernetes-dynamo"}}
    return [
        ("vllm-direct", dict(base, runtime={"engine": "vllm"},
                             serving=_serving(profile="baseline", worker={"replicas": 1, "tensor_parallelism": 1}))),
        ("vllm-kv-aware-kvbm", dict(base, runtime={"engine": "vllm", "args": ["--max-model-len", "8192"]},
                                    serving=_serving(routing="kv-aware", cache={
                                        "backend": "kvbm", "host_gib": 32, "memory_gib": 64, "disk_gib": 64,
                                        "storage_claim": "llama-kv-cache", "metrics": True}))),
        ("sglang-tp2-two-workers", dict(base, runtime={"engine": "sglang"},
                                        serving=_serving(routing="kv-aware",
                                                         worker={"replicas": 2, "tensor_parallelism": 2}))),
    ]


DGD_SPECS = _dgd_specs()


def _emitted_dgd(data: dict[str, Any]) -> dict[str, Any]:
    artifacts = compile_spec(data, ProviderSettings.for_adapter("kubernetes-dynamo", DYNAMO_SETTINGS),
                             external_key="deployment-revision-r0")
    dgd = next(a.content for a in artifacts if a.name.startswith("DynamoGraphDeployment/"))
    assert isinstance(dgd, dict)
    return dgd


@pytest.mark.parametrize("data", [d for _, d in DGD_SPECS], ids=[n for n, _ in DGD_SPECS])
def test_emitted_dgd_passes_admission(data: dict[str, Any]) -> None:
    from dynamo_schema._pipeline import _validate

    dgd = _emitted_dgd(data)
    diags, stored = _validate.check_nvidia(copy.deepcopy(dgd), _validate.ValidateOptions())
    errors = [d for d in diags if d.severity == "error"]
    assert errors == []
    assert stored is not None
    # runtimeVersionOverride is required because the images are digests (deploymentspec.md §3.9).
    assert [c["runtimeVersionOverride"] for c in stored["spec"]["components"]] == ["1.4.0", "1.4.0"]


@pytest.mark.parametrize("data", [d for _, d in DGD_SPECS], ids=[n for n, _ in DGD_SPECS])
def test_emitted_dgd_renders_for_grove_and_kubernetes(data: dict[str, Any]) -> None:
    from dynamo_schema._pipeline import _render_object

    dgd = _emitted_dgd(data)
    name = dgd["metadata"]["name"]
    grove = _render_object.render_object(copy.deepcopy(dgd), target="grove")
    pcs = [o for o in grove if o["kind"] == "PodCliqueSet"]
    assert len(pcs) == 1 and pcs[0]["metadata"]["name"] == name
    kube = _render_object.render_object(copy.deepcopy(dgd), target="kubernetes")
    dcds = [o for o in kube if o["kind"] == "DynamoComponentDeployment"]
    assert len(dcds) == 2  # one per component: Frontend and Worker
    assert sorted(d["spec"].get("componentType", d["spec"].get("type")) for d in dcds) == ["frontend", "worker"]
    deployments = [o for o in kube if o["kind"] == "Deployment"]
    assert len(deployments) == 2
    worker = next(d for d in deployments if d["metadata"]["name"] != f"{name}-frontend")
    container = worker["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == dgd["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["image"]
    assert "meta-llama/Llama-3.1-8B-Instruct" in container.get("args", []) + container.get("command", [])
    worker_component = dgd["spec"]["components"][1]
    assert worker["spec"]["replicas"] == worker_component["replicas"]
    gpus = worker_component["podTemplate"]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"]
    assert container["resources"]["limits"]["nvidia.com/gpu"] == gpus


# =========================================================================== reference cases, exact text
#: Reference cases that only check "an error occurs" (``expect_error``) or a substring: the exact upstream
#: message (from the source files named in the module docstring) and our path.
CASE_EXACT: dict[str, tuple[str, Path]] = {
    "workload-02-mutable-tag": (PINNED, ("runtime", "workload", "image")),
    "workload-03-no-command": ("workload.command must contain executable argv", ("runtime", "workload", "command")),
    "workload-04-relative-readiness": ("workload.readiness_path must be an absolute path without query or fragment",
                                       ("runtime", "workload", "readiness_path")),
    "workload-05-readyz-path": ("workload paths must be /health, /v1/models, and /metrics",
                                ("runtime", "workload", "readiness_path")),
    "workload-06-zero-grace": ("workload.shutdown_grace_seconds must be between 1 and 3600",
                               ("runtime", "workload", "shutdown_grace_seconds")),
    "serving-02-empty-topology-with-dynamo-adapter": (
        "provider_adapter kubernetes-dynamo requires an explicit Dynamo serving topology", ("serving",)),
    "serving-03-disaggregated-missing-decode": (DISAGG, ("serving", "decode", "replicas")),
    "serving-04-kvbm-without-size": ("KVBM requires an explicit host or disk cache size", ("serving", "cache")),
    "serving-05-hicache-with-vllm": ("HiCache requires sglang", ("serving", "cache", "backend")),
    "serving-06-outer-max-two": ("Dynamo serving owns one graph; InferCrane outer replica bounds must both equal 1",
                                 ("scaling", "max_replicas")),
    "spec-06-dynamo-disaggregated-fails-closed": ("serving: " + NIXL, ("serving", "mode")),
    # disaggregated + lmcache: the NIXL check comes before the LMCache/HiCache one in topology.go.
    "spec-07-dynamo-lmcache-not-executable": ("serving: " + NIXL, ("serving", "mode")),
    "spec-08-serverless-nonzero-minimum": ("serverless compute requires scaling.min_replicas 0",
                                           ("scaling", "min_replicas")),
    "spec-09-unknown-runtime": (
        'support policy: runtime "unknown-runtime" is not qualified; supported runtimes: custom-oci, sglang, vllm',
        ("runtime", "engine")),
    "dynamo-03-disaggregated-sglang-fails-closed": (INVALID + NIXL, ("serving", "mode")),
    "dynamo-04-mutable-vllm-image": (INVALID + "Dynamo vllm runtime image must be pinned by sha256 digest", ()),
    "dynamo-05-sglang-runtime-not-configured": (
        INVALID + "Dynamo sglang runtime image and version are not configured", ()),
    "dynamo-06-lmcache-not-executable": (INVALID + LMCACHE_HICACHE, ("serving", "cache", "backend")),
    "runpod-02-serverless-template-mismatch": (
        'RunPod template MODEL_NAME is "Other/Model", expected "Qwen/Qwen3-8B"', ("model", "id")),
    "runpod-03-serverless-check-template-parser-settings": (
        "RunPod template must enable automatic tool choice and set TOOL_CALL_PARSER", ()),
}


def _case_diagnostics(case: dict[str, Any]) -> list[Diagnostic]:
    import yaml

    data: Any = yaml.safe_load(case["spec"]) if case.get("spec") else None
    stage = case["stage"]
    if stage == "load":
        return validate_spec(data)
    if stage == "validate":
        if "serving" in data:
            return validate_serving(data["serving"], data["runtime"]["engine"], data["provider"]["cloud"],
                                    data["provider"].get("adapter", ""), data["scaling"]["min_replicas"],
                                    data["scaling"]["max_replicas"])
        return validate_workload(data["runtime"]["workload"])
    settings = ProviderSettings.for_adapter(case["adapter"], case.get("provider_config") or {})
    try:
        if stage == "preflight":
            preflight(case["adapter"], settings, case.get("provider_state"))
        else:
            replica = Replica.from_spec(data, case.get("replica") or {})
            compile_replica(replica, settings, case["adapter"], case.get("provider_state"))
    except AdapterError as exc:
        return list(exc.diagnostics)
    return []


@pytest.mark.parametrize("name", sorted(CASE_EXACT))
def test_reference_case_exact_message(name: str, reference: Any) -> None:
    import yaml

    case = yaml.safe_load((reference / "cases" / f"{name}.yaml").read_text())
    assert case.get("expect_error") or case.get("error_contains")
    message, path = CASE_EXACT[name]
    if case.get("error_contains"):
        assert case["error_contains"] in message  # our expected text agrees with the upstream assertion
    d = _only(_case_diagnostics(case))
    assert (d.path, d.message) == (path, message)
