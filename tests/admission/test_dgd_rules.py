"""One accepted and one rejected case per webhook rule (named by rule id), modelled on the
upstream tables in ``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages
are copied from those tables where they exist, else built from the Go format strings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._core._diagnostics import Diagnostic
from tests.admission._admission_helpers import (
    beta_dcd,
    beta_dgd,
    beta_dgdr,
    component_dgd,
    errors,
    frontend,
    main_container,
    run,
    run_update,
    warnings,
    with_gpu,
    worker,
)

IMMUTABLE = "field is immutable"
NO_GROVE = AdmissionSettings(grove_enabled=False)
TOPO = AdmissionSettings(cluster_topologies={"grove-topology": ("zone", "rack")})
LONG_DGD = "test-graph-" + "x" * 50
BOUNDARY = "w" + "x" * 36
TOO_LONG = BOUNDARY + "x"
GROVE_ONLY = "is currently supported only for Grove-backed DynamoGraphDeployment components"
COMPONENT_SELECTED = 'requires the Grove pathway, but workload provider "component" is selected'


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def m(d: dict[str, Any]) -> None:
        cur = d
        for k in path[:-1]:
            cur = cur.setdefault(k, {}) if isinstance(k, str) else cur[k]
        cur[path[-1]] = value

    return m


def _ann(key: str, value: str) -> Callable[[dict[str, Any]], None]:
    def m(d: dict[str, Any]) -> None:
        d["metadata"].setdefault("annotations", {})[key] = value

    return m


def _w(fn: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], None]:
    """Mutate the worker component."""
    return lambda d: fn(worker(d))


def _both(*fns: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], None]:
    def m(d: dict[str, Any]) -> None:
        for f in fns:
            f(d)

    return m


def _gms(mode: str = "IntraPod", **extra: Any) -> Callable[[dict[str, Any]], None]:
    def m(c: dict[str, Any]) -> None:
        with_gpu(c)
        c.setdefault("experimental", {})["gpuMemoryService"] = {"mode": mode, **extra}

    return m


def _failover(mode: str, shadows: int | None = None) -> Callable[[dict[str, Any]], None]:
    def m(c: dict[str, Any]) -> None:
        f: dict[str, Any] = {"mode": mode}
        if shadows is not None:
            f["numShadows"] = shadows
        c.setdefault("experimental", {})["failover"] = f

    return m


def _epp(c: dict[str, Any]) -> None:
    c["type"] = "epp"
    c["replicas"] = 1
    c["eppConfig"] = {"configMapRef": {"name": "epp-config"}}


def _override(api: str = "grove.io/v1alpha1", target: str | None = None, value: Any = None) -> dict[str, Any]:
    ov: dict[str, Any] = {
        "apiVersion": api,
        "value": value if value is not None else {"topologyConstraint": {"packDomain": "rack"}},
    }
    if target is not None:
        ov["target"] = target
    return ov


def _root_override(value: Any, target: str | None = None) -> Callable[[dict[str, Any]], None]:
    return _set(["spec", "providerOverride"], _override(target=target, value=value))


def _elastic(command: list[str] | None) -> Callable[[dict[str, Any]], None]:
    def m(c: dict[str, Any]) -> None:
        main = c["podTemplate"]["spec"]["containers"][0]
        main["args"] = ["--enable-elastic-ep", "--data-parallel-backend=ray"]
        if command is not None:
            main["command"] = command

    return m


def _restart(type_: str, *order: str) -> Callable[[dict[str, Any]], None]:
    return _set(["spec", "restart"], {"id": "roll", "strategy": {"type": type_, "order": list(order)}})


def _power(watts: str, gpus: str = "1", nodes: int | None = None) -> Callable[[dict[str, Any]], None]:
    def m(c: dict[str, Any]) -> None:
        c["podTemplate"].setdefault("metadata", {})["annotations"] = {
            "dynamo.nvidia.com/gpu-power-limit": watts
        }
        with_gpu(c, gpus)
        if nodes is not None:
            c["multinode"] = {"nodeCount": nodes}

    return m


def _checkpoint(**ck: Any) -> Callable[[dict[str, Any]], None]:
    return lambda c: c.setdefault("experimental", {}).__setitem__("checkpoint", ck)


def _dgd_update(
    base: Callable[[dict[str, Any]], Any] | None,
    change: Callable[[dict[str, Any]], Any],
    settings: AdmissionSettings | None = None,
    status: dict[str, Any] | None = None,
    builder: Callable[..., dict[str, Any]] = beta_dgd,
) -> Callable[[], list[Diagnostic]]:
    return lambda: run_update(builder(base), change, settings, status)


def _create(
    builder: Callable[..., dict[str, Any]],
    mutate: Callable[[dict[str, Any]], Any] | None = None,
    settings: AdmissionSettings | None = None,
) -> Callable[[], list[Diagnostic]]:
    return lambda: run(builder(mutate), settings)


# (rule id, accepted case, rejected case, exact expected error list for the rejected case)
CASES: list[tuple[str, Callable[[], list[Diagnostic]], Callable[[], list[Diagnostic]], list[str]]] = [
    # ---------------------------------------------------------------- DGD metadata
    (
        "dgd.origin-version-semver",
        _create(beta_dgd, _ann("nvidia.com/dynamo-operator-origin-version", "1.2.0")),
        _create(beta_dgd, _ann("nvidia.com/dynamo-operator-origin-version", "not-a-version")),
        [
            'metadata.annotations[nvidia.com/dynamo-operator-origin-version]: Invalid value: "not-a-version": must be valid semver'
        ],
    ),
    (
        "dgd.vllm-executor-backend",
        _create(beta_dgd, _ann("nvidia.com/vllm-distributed-executor-backend", "RAY")),
        _create(beta_dgd, _ann("nvidia.com/vllm-distributed-executor-backend", "invalid")),
        [
            'metadata.annotations[nvidia.com/vllm-distributed-executor-backend]: Invalid value: "invalid": must be "mp" or "ray"'
        ],
    ),
    (
        "dgd.grove-update-strategy",
        _create(beta_dgd, _ann("nvidia.com/grove-update-strategy", "OnDelete")),
        _create(beta_dgd, _ann("nvidia.com/grove-update-strategy", "ondelete")),
        [
            'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "ondelete": supported values: "RollingRecreate", "OnDelete"'
        ],
    ),
    (
        "dgd.discovery-mode",
        _create(beta_dgd, _ann("nvidia.com/dynamo-kube-discovery-mode", "pod")),
        _create(beta_dgd, _ann("nvidia.com/dynamo-kube-discovery-mode", "endpoint")),
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Unsupported value: "endpoint": supported values: "pod", "container"'
        ],
    ),
    (
        "dgd.workload-provider-value",
        # The defaulter overwrites the provider on CREATE, so the value check is exercised on UPDATE.
        _dgd_update(None, _ann("nvidia.com/workload-provider", "grove")),
        lambda: _validate_defaulted(beta_dgd(_ann("nvidia.com/workload-provider", "unknown"))),
        [
            'metadata.annotations[nvidia.com/workload-provider]: Unsupported value: "unknown": supported values: "component", "grove"',
            'spec.priorityClassName: Forbidden: requires the Grove pathway, but annotation "nvidia.com/workload-provider" has unsupported value "unknown"',
        ],
    ),
    (
        "dgd.intrapod-failover-discovery-mode",
        _create(
            beta_dgd,
            _both(
                _ann("nvidia.com/dynamo-kube-discovery-mode", "container"),
                _w(_gms()),
                _w(_failover("IntraPod")),
            ),
        ),
        _create(beta_dgd, _both(_w(_gms()), _w(_failover("IntraPod")))),
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Invalid value: "": must be "container" when intra-pod failover is configured'
        ],
    ),
    # ---------------------------------------------------------------- DGD spec
    (
        "dgd.priority-class-grove",
        _create(beta_dgd, _set(["spec", "priorityClassName"], "high-priority")),
        _create(component_dgd, _set(["spec", "priorityClassName"], "high-priority")),
        [f"spec.priorityClassName: Forbidden: {COMPONENT_SELECTED}"],
    ),
    (
        "dgd.components-required",
        _create(beta_dgd),
        _create(beta_dgd, _set(["spec", "components"], [])),
        ["spec.components: Required value: must have at least one component"],
    ),
    (
        "dgd.grove-name-length",
        _create(
            beta_dgd,
            _both(_set(["metadata", "name"], LONG_DGD), _w(lambda c: c.__setitem__("name", BOUNDARY))),
        ),
        _create(
            beta_dgd,
            _both(_set(["metadata", "name"], LONG_DGD), _w(lambda c: c.__setitem__("name", TOO_LONG))),
        ),
        [
            (
                f'spec.components[1].name: Invalid value: "{TOO_LONG}": combined resource name length 46 exceeds the 45-character '
                f'pod-name limit (PCS name + component name); shorten DynamoGraphDeployment name "{LONG_DGD}" or component name "{TOO_LONG}"'
            )
        ],
    ),
    (
        "dgd.inter-pod-gms-grove",
        _create(beta_dgd, _w(_gms("InterPod"))),
        _create(component_dgd, _w(_gms("InterPod"))),
        [f"spec.components[1].experimental.gpuMemoryService.mode: Forbidden: {COMPONENT_SELECTED}"],
    ),
    (
        "dgd.inter-pod-gms-vllm",
        _create(beta_dgd, _w(_gms("InterPod"))),
        _create(beta_dgd, _both(_set(["spec", "backendFramework"], "sglang"), _w(_gms("InterPod")))),
        [
            'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": the inter-pod GMS layout is currently supported only for vLLM (detected backend: sglang)'
        ],
    ),
    (
        "dgd.power-limit-value",
        _create(beta_dgd, _w(_power("300"))),
        _create(beta_dgd, _w(_power("300W"))),
        [
            'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: "300W": must be a decimal integer'
        ],
    ),
    (
        "dgd.power-limit-dra",
        _create(beta_dgd, _w(_power("300"))),
        _create(
            beta_dgd,
            _w(
                _both(
                    _power("300"),
                    lambda c: c["podTemplate"]["spec"]["containers"][0]["resources"].__setitem__(
                        "claims", [{"name": "gpu"}]
                    ),
                )
            ),
        ),
        [
            'spec.components[1].podTemplate.spec.containers[0].resources.claims: Forbidden: cannot be combined with annotation "dynamo.nvidia.com/gpu-power-limit": power-aware planning does not support DRA-backed device allocation'
        ],
    ),
    (
        "dgd.elastic-ep-command",
        _create(beta_dgd, _w(_elastic(["python3", "-m", "dynamo.vllm"]))),
        _create(beta_dgd, _w(_elastic(None))),
        [
            (
                "spec.components[1].podTemplate.spec.containers[0].command: Required value: elastic expert parallelism "
                "(--enable-elastic-ep with --data-parallel-backend ray) requires an explicit container command; the operator "
                "starts the single-pod Ray head by wrapping that command and cannot start it from the image ENTRYPOINT"
            )
        ],
    ),
    (
        "dgd.restart-order-parallel",
        _dgd_update(None, _restart("Sequential", "frontend", "worker")),
        _dgd_update(None, _restart("Parallel", "frontend", "worker")),
        ["spec.restart.strategy.order: Forbidden: cannot be specified when strategy is parallel"],
    ),
    (
        "dgd.restart-order-unique",
        _dgd_update(None, _restart("Sequential", "worker", "frontend")),
        _dgd_update(None, _restart("Sequential", "frontend", "worker", "worker")),
        ['spec.restart.strategy.order: Invalid value: ["frontend","worker","worker"]: must be unique'],
    ),
    (
        "dgd.restart-order-count",
        _dgd_update(None, _restart("Sequential", "frontend", "worker")),
        _dgd_update(None, _restart("Sequential", "worker")),
        [
            'spec.restart.strategy.order: Invalid value: ["worker"]: must have the same number of unique components as the deployment'
        ],
    ),
    (
        "dgd.restart-order-unknown",
        _dgd_update(None, _restart("Sequential", "frontend", "worker")),
        _dgd_update(None, _restart("Sequential", "frontend", "ghost")),
        [
            'spec.restart.strategy.order[1]: Unsupported value: "ghost": supported values: "frontend", "worker"'
        ],
    ),
    (
        "dgd.topology-spec-required",
        _create(
            beta_dgd,
            _both(
                _set(["spec", "topologyConstraint"], {"packDomain": "zone"}),
                _w(lambda c: c.__setitem__("topologyConstraint", {"packDomain": "rack"})),
            ),
        ),
        _create(beta_dgd, _w(lambda c: c.__setitem__("topologyConstraint", {"packDomain": "rack"}))),
        [
            "spec.topologyConstraint: Required value: is required when any component topology constraint is set"
        ],
    ),
    (
        "dgd.topology-pack-domain-required",
        _create(
            beta_dgd,
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "grove-topology", "packDomain": "zone"},
            ),
            TOPO,
        ),
        _create(
            beta_dgd, _set(["spec", "topologyConstraint"], {"clusterTopologyName": "grove-topology"}), TOPO
        ),
        [
            "spec.topologyConstraint.packDomain: Required value: is required when no component topologyConstraint is set"
        ],
    ),
    (
        "dgd.topology-binding",
        _create(
            beta_dgd,
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "grove-topology", "packDomain": "rack"},
            ),
            TOPO,
        ),
        _create(
            beta_dgd,
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "missing-topology", "packDomain": "rack"},
            ),
            TOPO,
        ),
        [
            'spec.topologyConstraint.clusterTopologyName: Invalid value: "missing-topology": references a ClusterTopologyBinding resource that was not found'
        ],
    ),
    (
        "dgd.topology-domain",
        _create(
            beta_dgd,
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "grove-topology", "packDomain": "zone"},
            ),
            TOPO,
        ),
        _create(
            beta_dgd,
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "grove-topology", "packDomain": "host"},
            ),
            TOPO,
        ),
        [
            'spec.topologyConstraint.packDomain: Invalid value: "host": does not exist in ClusterTopologyBinding "grove-topology"; available domains: [rack zone]'
        ],
    ),
    (
        "dgd.topology-narrower",
        _create(
            beta_dgd,
            _both(
                _set(
                    ["spec", "topologyConstraint"],
                    {"clusterTopologyName": "grove-topology", "packDomain": "zone"},
                ),
                _w(lambda c: c.__setitem__("topologyConstraint", {"packDomain": "rack"})),
            ),
            TOPO,
        ),
        _create(
            beta_dgd,
            _both(
                _set(
                    ["spec", "topologyConstraint"],
                    {"clusterTopologyName": "grove-topology", "packDomain": "rack"},
                ),
                _w(lambda c: c.__setitem__("topologyConstraint", {"packDomain": "zone"})),
            ),
            TOPO,
        ),
        [
            'spec.components[1].topologyConstraint.packDomain: Invalid value: "zone": must be equal to or narrower than the deployment-level domain "rack"'
        ],
    ),
    (
        "dgd.topology-provider-conflict",
        _create(
            beta_dgd, _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}})
        ),
        _create(
            beta_dgd,
            _both(
                _set(["spec", "topologyConstraint"], {"packDomain": "rack"}),
                _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}}),
            ),
        ),
        [
            "spec.providerOverride.value: Forbidden: cannot be combined with spec.topologyConstraint or components[].topologyConstraint; use either the typed topology API or provider-native Grove topology overrides"
        ],
    ),
    (
        "dgd.kv-transfer-topology-name",
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "zone"}},
            ),
        ),
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "Bad_Name", "domain": "zone"}},
            ),
        ),
        [
            "spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ],
    ),
    (
        "dgd.kv-transfer-grove",
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "zone"}},
            ),
        ),
        _create(
            component_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "zone"}},
            ),
        ),
        [f"spec.experimental.kvTransferPolicy.clusterTopologyName: Forbidden: {COMPONENT_SELECTED}"],
    ),
    (
        "dgd.kv-transfer-binding",
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "zone"}},
            ),
            TOPO,
        ),
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "missing-topology", "domain": "zone"}},
            ),
            TOPO,
        ),
        [
            'spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: "missing-topology": references a ClusterTopologyBinding resource that was not found'
        ],
    ),
    (
        "dgd.kv-transfer-domain",
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "rack"}},
            ),
            TOPO,
        ),
        _create(
            beta_dgd,
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "host"}},
            ),
            TOPO,
        ),
        [
            'spec.experimental.kvTransferPolicy.domain: Invalid value: "host": does not exist in ClusterTopologyBinding "grove-topology"; available domains: [rack zone]'
        ],
    ),
    # ---------------------------------------------------------------- provider overrides
    (
        "dgd.provider-override-context",
        _create(
            beta_dgd, _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}})
        ),
        _create(
            component_dgd,
            _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}}),
        ),
        ['spec.providerOverride: Forbidden: requires workload provider "grove", but "component" is selected'],
    ),
    (
        "dgd.provider-override-api-version",
        _create(beta_dgd, _w(lambda c: c.__setitem__("providerOverride", _override()))),
        _create(beta_dgd, _w(lambda c: c.__setitem__("providerOverride", _override(api="grove.io/v1beta1")))),
        [
            'spec.components[1].providerOverride.apiVersion: Unsupported value: "grove.io/v1beta1": supported values: "grove.io/v1alpha1"'
        ],
    ),
    (
        "dgd.provider-override-target",
        _create(
            beta_dgd,
            _root_override({"spec": {"template": {"topologyConstraint": {}}}}, target="PodCliqueSet"),
        ),
        _create(
            beta_dgd,
            _root_override(
                {"spec": {"template": {"topologyConstraint": {}}}}, target="PodCliqueTemplateSpec"
            ),
        ),
        [
            'spec.providerOverride.target: Invalid value: "PodCliqueTemplateSpec": must match the provider-context target "PodCliqueSet"'
        ],
    ),
    (
        "dgd.provider-override-value",
        _create(
            beta_dgd, _root_override({"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}})
        ),
        _create(
            beta_dgd,
            _root_override(
                {"spec": {"replicas": 2, "template": {"topologyConstraint": {"packDomain": "rack"}}}}
            ),
        ),
        [
            "spec.providerOverride.value.spec.replicas: Forbidden: is Dynamo-owned or not enabled for provider override"
        ],
    ),
    (
        "dcd.provider-override-context",
        _create(beta_dcd),
        _create(beta_dcd, _set(["spec", "providerOverride"], _override())),
        [
            "spec.providerOverride: Forbidden: provider overrides are supported only for components embedded in a DynamoGraphDeployment"
        ],
    ),
    # ---------------------------------------------------------------- shared component spec
    (
        "dgd.min-available-grove",
        _create(beta_dgd, _w(lambda c: c.__setitem__("minAvailable", 1))),
        _create(component_dgd, _w(lambda c: c.__setitem__("minAvailable", 1))),
        [f"spec.components[1].minAvailable: Forbidden: {GROVE_ONLY}"],
    ),
    (
        "dcd.min-available-grove",
        _create(beta_dcd),
        _create(beta_dcd, _set(["spec", "minAvailable"], 1)),
        [f"spec.minAvailable: Forbidden: {GROVE_ONLY}"],
    ),
    (
        "dcd.shared-memory-size",
        _create(beta_dcd, _set(["spec", "sharedMemorySize"], "1Gi")),
        _create(beta_dcd, _set(["spec", "sharedMemorySize"], "-1Gi")),
        ['spec.sharedMemorySize: Invalid value: "-1Gi": must be non-negative'],
    ),
    (
        "dgd.epp-inference-pool",
        _create(beta_dgd, _w(_epp)),
        _create(beta_dgd, _w(_epp), AdmissionSettings(inference_pool_available=False)),
        [
            (
                "spec.components[1].type: Forbidden: cannot deploy EPP component: InferencePool API group (inference.networking.k8s.io) "
                "is not available in the cluster; install the Gateway API Inference Extension before deploying EPP components"
            )
        ],
    ),
    (
        "dcd.epp-multinode",
        _create(beta_dcd, lambda d: _epp(d["spec"])),
        _create(beta_dcd, lambda d: (_epp(d["spec"]), d["spec"].__setitem__("multinode", {"nodeCount": 2}))),
        ["spec.multinode: Forbidden: EPP component cannot be multinode"],
    ),
    (
        "dcd.epp-replicas",
        _create(beta_dcd, lambda d: _epp(d["spec"])),
        _create(beta_dcd, lambda d: (_epp(d["spec"]), d["spec"].__setitem__("replicas", 2))),
        ["spec.replicas: Invalid value: 2: EPP component must have exactly 1 replica"],
    ),
    (
        "dcd.epp-config-required",
        _create(beta_dcd, lambda d: _epp(d["spec"])),
        _create(beta_dcd, lambda d: (_epp(d["spec"]), d["spec"].pop("eppConfig"))),
        ["spec.eppConfig: Required value: is required for EPP components"],
    ),
    (
        "dcd.epp-config-map-name",
        _create(beta_dcd, lambda d: _epp(d["spec"])),
        _create(
            beta_dcd,
            lambda d: (_epp(d["spec"]), d["spec"]["eppConfig"]["configMapRef"].__setitem__("name", "")),
        ),
        ["spec.eppConfig.configMapRef.name: Required value: is required"],
    ),
    (
        "dgd.frontend-sidecar",
        _create(
            beta_dgd,
            _w(
                lambda c: (
                    c["podTemplate"]["spec"]["containers"].append({"name": "fe", "image": "x:1.0.0"}),
                    c.__setitem__("frontendSidecar", "fe"),
                )
            ),
        ),
        _create(beta_dgd, _w(lambda c: c.__setitem__("frontendSidecar", "missing"))),
        [
            'spec.components[1].frontendSidecar: Invalid value: "missing": must match a podTemplate.spec.containers name'
        ],
    ),
    (
        "dcd.gms-component-type",
        _create(beta_dcd, lambda d: _gms()(d["spec"])),
        _create(beta_dcd, lambda d: (_gms()(d["spec"]), d["spec"].__setitem__("type", "frontend"))),
        [
            "spec.experimental.gpuMemoryService: Forbidden: GPU memory service is only supported for worker, prefill, or decode components"
        ],
    ),
    (
        "dcd.gms-gpu",
        _create(beta_dcd, lambda d: _gms()(d["spec"])),
        _create(
            beta_dcd,
            lambda d: (_gms()(d["spec"]), d["spec"]["podTemplate"]["spec"]["containers"][0].pop("resources")),
        ),
        [
            "spec.experimental.gpuMemoryService: Forbidden: GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1"
        ],
    ),
    (
        "dgd.gms-client-duplicate",
        _create(
            beta_dgd,
            _w(
                lambda c: (
                    c["podTemplate"]["spec"]["containers"].append({"name": "loader", "image": "x:1.0.0"}),
                    _gms(extraClientContainers=["loader"])(c),
                )
            ),
        ),
        _create(
            beta_dgd,
            _w(
                lambda c: (
                    c["podTemplate"]["spec"]["containers"].append({"name": "loader", "image": "x:1.0.0"}),
                    _gms(extraClientContainers=["loader", "loader"])(c),
                )
            ),
        ),
        [
            'spec.components[1].experimental.gpuMemoryService.extraClientContainers[1]: Duplicate value: "loader"'
        ],
    ),
    (
        "dcd.gms-client-container",
        _create(beta_dcd),
        _create(beta_dcd, lambda d: _gms(extraClientContainers=["missing-client"])(d["spec"])),
        [
            'spec.experimental.gpuMemoryService.extraClientContainers[0]: Invalid value: "missing-client": does not name a container in podTemplate.spec.containers'
        ],
    ),
    (
        "dcd.failover-gms-required",
        _create(beta_dcd, lambda d: (_gms("InterPod")(d["spec"]), _failover("InterPod")(d["spec"]))),
        _create(beta_dcd, lambda d: (with_gpu(d["spec"]), _failover("InterPod")(d["spec"]))),
        [
            'spec.experimental.failover: Forbidden: gpuMemoryService is required when failover mode is "InterPod"'
        ],
    ),
    (
        "dcd.failover-mode-match",
        _create(beta_dcd, lambda d: (_gms("IntraPod")(d["spec"]), _failover("IntraPod")(d["spec"]))),
        _create(beta_dcd, lambda d: (_gms("IntraPod")(d["spec"]), _failover("InterPod")(d["spec"]))),
        [
            'spec.experimental.failover.mode: Invalid value: "InterPod": must match gpuMemoryService.mode "IntraPod"'
        ],
    ),
    (
        "dgd.failover-gpu",
        _create(beta_dgd, _w(_both(_gms("InterPod"), _failover("InterPod")))),
        _create(
            beta_dgd,
            _w(
                _both(
                    _gms("InterPod"),
                    _failover("InterPod"),
                    lambda c: c["podTemplate"]["spec"]["containers"][0].pop("resources"),
                )
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService: Forbidden: GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1",
            "spec.components[1].experimental.failover: Forbidden: GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
        ],
    ),
    (
        "dcd.failover-component-type",
        _create(beta_dcd, lambda d: (_gms("InterPod")(d["spec"]), _failover("InterPod")(d["spec"]))),
        _create(
            beta_dcd,
            lambda d: (
                with_gpu(d["spec"]),
                _failover("InterPod")(d["spec"]),
                d["spec"].__setitem__("type", "planner"),
            ),
        ),
        [
            'spec.experimental.failover: Forbidden: gpuMemoryService is required when failover mode is "InterPod"',
            'spec.experimental.failover: Forbidden: GMS failover is not supported for component type "planner"',
        ],
    ),
    (
        "dgd.force-scaling-group-grove",
        _create(
            beta_dgd, _w(lambda c: c.__setitem__("experimental", {"grove": {"forceScalingGroup": True}}))
        ),
        _create(
            component_dgd, _w(lambda c: c.__setitem__("experimental", {"grove": {"forceScalingGroup": True}}))
        ),
        [f"spec.components[1].experimental.grove.forceScalingGroup: Forbidden: {GROVE_ONLY}"],
    ),
    (
        "dcd.checkpoint-disabled",
        _create(
            beta_dcd,
            lambda d: _checkpoint(enabled=True)(d["spec"]),
            AdmissionSettings(checkpoint_enabled=True),
        ),
        _create(beta_dcd, lambda d: _checkpoint(enabled=True)(d["spec"])),
        [
            "spec.experimental.checkpoint: Forbidden: checkpoint functionality is disabled in the operator configuration"
        ],
    ),
    (
        "dcd.checkpoint-gms-client-containers",
        _create(
            beta_dcd,
            lambda d: (_gms()(d["spec"]), _checkpoint(job={"gmsClientContainers": ["main"]})(d["spec"])),
        ),
        _create(beta_dcd, lambda d: _checkpoint(job={"gmsClientContainers": ["main"]})(d["spec"])),
        [
            "spec.experimental.checkpoint.job.gmsClientContainers: Forbidden: requires gpuMemoryService to be set"
        ],
    ),
    (
        "dcd.checkpoint-compatibility",
        _create(
            beta_dcd,
            lambda d: (_gms("IntraPod")(d["spec"]), _checkpoint(enabled=True)(d["spec"])),
            AdmissionSettings(checkpoint_enabled=True),
        ),
        _create(
            beta_dcd,
            lambda d: (_gms("InterPod")(d["spec"]), _checkpoint(enabled=True)(d["spec"])),
            AdmissionSettings(checkpoint_enabled=True),
        ),
        [
            "spec.experimental.checkpoint: Forbidden: Snapshot with gpuMemoryService.mode=InterPod is unsupported"
        ],
    ),
    (
        "dgd.main-image-required",
        _create(beta_dgd),
        _create(beta_dgd, _w(lambda c: c.pop("podTemplate"))),
        ["spec.components[1].podTemplate.spec.containers: Required value: is required"],
    ),
    (
        "dcd.main-image-required",
        _create(beta_dcd),
        _create(
            beta_dcd, lambda d: d["spec"]["podTemplate"]["spec"]["containers"][0].__setitem__("image", "")
        ),
        ["spec.podTemplate.spec.containers[0].image: Required value: is required"],
    ),
    (
        "dgd.runtime-version-override-required",
        _create(
            beta_dgd,
            _w(
                lambda c: (
                    c.pop("runtimeVersionOverride"),
                    c["podTemplate"]["spec"]["containers"][0].__setitem__(
                        "image", "registry.example/runtime:v1.5.0-rc.1"
                    ),
                )
            ),
        ),
        _create(
            beta_dgd,
            _w(
                lambda c: (
                    c.pop("runtimeVersionOverride"),
                    c["podTemplate"]["spec"]["containers"][0].__setitem__(
                        "image", "registry.example/runtime:latest"
                    ),
                )
            ),
        ),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the specified main container image has no parseable semantic-version tag"
        ],
    ),
    # ---------------------------------------------------------------- updates
    (
        "dgd.workload-provider-materialize",
        lambda: _legacy_materialize("system:serviceaccount:dynamo:op"),
        lambda: _legacy_materialize("alice"),
        [
            "metadata.annotations[nvidia.com/workload-provider]: Forbidden: may only be materialized by the Dynamo operator"
        ],
    ),
    (
        "dgd.workload-provider-immutable",
        _dgd_update(None, _ann("nvidia.com/workload-provider", "grove")),
        _dgd_update(None, _ann("nvidia.com/workload-provider", "grove"), builder=component_dgd),
        ['metadata.annotations[nvidia.com/workload-provider]: Invalid value: "grove": field is immutable'],
    ),
    (
        "dgd.provider-override-immutable",
        _dgd_update(_root_override({"spec": {"template": {"topologyConstraint": {}}}}), lambda d: None),
        lambda: _seeded_override_update(),
        ['spec.providerOverride.target: Invalid value: "PodCliqueSet": field is immutable'],
    ),
    (
        "dgd.components-immutable",
        _dgd_update(None, _w(lambda c: c.__setitem__("replicas", 3))),
        _dgd_update(None, lambda d: d["spec"]["components"].append(dict(worker(d), name="extra"))),
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components added: [extra]"
        ],
    ),
    (
        "dgd.replicas-scaling-adapter",
        _dgd_update(
            _w(lambda c: c.__setitem__("scalingAdapter", {})),
            _w(lambda c: c.__setitem__("replicas", 3)),
            AdmissionSettings(request_username="system:serviceaccount:dynamo:planner-serviceaccount"),
        ),
        _dgd_update(
            _w(lambda c: c.__setitem__("scalingAdapter", {})), _w(lambda c: c.__setitem__("replicas", 3))
        ),
        [
            "spec.components[1].replicas: Forbidden: cannot be modified directly when scaling adapter is enabled; scale or update the related DynamoGraphDeploymentScalingAdapter instead"
        ],
    ),
    (
        "dgd.multinode-topology-immutable",
        _dgd_update(None, _w(lambda c: c.__setitem__("replicas", 1))),
        _dgd_update(None, _w(lambda c: c.__setitem__("multinode", {"nodeCount": 2}))),
        [
            'spec.components[1].multinode: Invalid value: {"nodeCount":2}: cannot change node topology between single-node and multi-node after creation'
        ],
    ),
    (
        "dgd.topology-immutable",
        _dgd_update(
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "grove-topology", "packDomain": "rack"},
            ),
            lambda d: None,
        ),
        _dgd_update(
            _set(
                ["spec", "topologyConstraint"],
                {"clusterTopologyName": "grove-topology", "packDomain": "rack"},
            ),
            lambda d: d["spec"]["topologyConstraint"].__setitem__("packDomain", "zone"),
        ),
        [
            'spec.topologyConstraint: Invalid value: {"clusterTopologyName":"grove-topology","packDomain":"zone"}: is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change topology constraints'
        ],
    ),
    (
        "dgd.kv-transfer-immutable",
        _dgd_update(
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}},
            ),
            lambda d: None,
        ),
        _dgd_update(
            _set(
                ["spec", "experimental"],
                {"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}},
            ),
            lambda d: d["spec"]["experimental"]["kvTransferPolicy"].__setitem__("domain", "rack"),
        ),
        [
            'spec.experimental.kvTransferPolicy: Invalid value: {"labelKey":"topology.kubernetes.io/zone","domain":"rack","enforcement":"required"}: is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change the KV transfer policy'
        ],
    ),
    (
        "dgd.inter-pod-gms-toggle",
        _dgd_update(_w(_gms("InterPod")), lambda d: None),
        _dgd_update(
            _w(_gms("IntraPod")),
            lambda d: worker(d)["experimental"]["gpuMemoryService"].__setitem__("mode", "InterPod"),
        ),
        [
            'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": the inter-pod GMS layout cannot be toggled after creation; delete and recreate the DynamoGraphDeployment'
        ],
    ),
    (
        "dgd.inter-pod-failover-toggle",
        _dgd_update(_w(_both(_gms("InterPod"), _failover("InterPod"))), lambda d: None),
        _dgd_update(_w(_gms("InterPod")), _w(_failover("InterPod"))),
        [
            'spec.components[1].experimental.failover: Invalid value: {"mode":"InterPod","numShadows":1}: inter-pod GMS failover cannot be toggled after creation; delete and recreate the DynamoGraphDeployment'
        ],
    ),
    (
        "dcd.num-shadows-immutable",
        lambda: run_update(
            beta_dcd(lambda d: (_gms("InterPod")(d["spec"]), _failover("InterPod", 1)(d["spec"]))),
            lambda d: None,
        ),
        lambda: run_update(
            beta_dcd(lambda d: (_gms("InterPod")(d["spec"]), _failover("InterPod", 1)(d["spec"]))),
            lambda d: d["spec"]["experimental"]["failover"].__setitem__("numShadows", 2),
        ),
        [
            "spec.experimental.failover.numShadows: Invalid value: 2: is immutable for inter-pod GMS failover; delete and recreate the DynamoComponentDeployment to change it"
        ],
    ),
    (
        "dgd.force-scaling-group-toggle",
        _dgd_update(
            _w(lambda c: c.__setitem__("experimental", {"grove": {"forceScalingGroup": True}})),
            lambda d: None,
        ),
        _dgd_update(
            None, _w(lambda c: c.__setitem__("experimental", {"grove": {"forceScalingGroup": True}}))
        ),
        [
            "spec.components[1].experimental.grove.forceScalingGroup: Invalid value: true: cannot be toggled after creation; delete and recreate the DynamoGraphDeployment to change it"
        ],
    ),
    (
        "dgd.backend-framework-immutable",
        _dgd_update(None, lambda d: None),
        _dgd_update(None, _set(["spec", "backendFramework"], "sglang")),
        ['spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation'],
    ),
    (
        "dcd.backend-framework-immutable",
        lambda: run_update(beta_dcd(), lambda d: None),
        lambda: run_update(
            beta_dcd(lambda d: d["spec"].__setitem__("backendFramework", "sglang")),
            _set(["spec", "backendFramework"], "vllm"),
        ),
        ['spec.backendFramework: Invalid value: "vllm": is immutable and cannot be changed after creation'],
    ),
    (
        "dgd.power-limit-immutable",
        _dgd_update(_w(_power("300", "2")), lambda d: None),
        _dgd_update(
            _w(_power("300", "2")),
            _w(
                lambda c: c["podTemplate"]["metadata"]["annotations"].__setitem__(
                    "dynamo.nvidia.com/gpu-power-limit", "350"
                )
            ),
        ),
        [
            'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: "350": field is immutable'
        ],
    ),
    (
        "dgd.gpu-count-immutable",
        _dgd_update(_w(_power("300", "2")), lambda d: None),
        _dgd_update(_w(_power("300", "2")), _w(lambda c: with_gpu(c, "4"))),
        [
            'spec.components[1].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "4": field is immutable'
        ],
    ),
    (
        "dgd.node-count-immutable",
        _dgd_update(_w(_power("300", "2", 2)), lambda d: None),
        _dgd_update(_w(_power("300", "2", 2)), _w(lambda c: c["multinode"].__setitem__("nodeCount", 3))),
        ["spec.components[1].multinode.nodeCount: Invalid value: 3: field is immutable"],
    ),
    (
        "dgd.restart-id-rolling-update",
        _dgd_update(
            _set(["spec", "restart"], {"id": "old"}),
            lambda d: None,
            status={"rollingUpdate": {"phase": "InProgress"}},
        ),
        _dgd_update(
            _set(["spec", "restart"], {"id": "old"}),
            lambda d: d["spec"]["restart"].__setitem__("id", "new"),
            status={"rollingUpdate": {"phase": "InProgress"}},
        ),
        ['spec.restart.id: Invalid value: "new": cannot be changed while a rolling update is InProgress'],
    ),
    (
        "dgd.min-available-immutable",
        _dgd_update(_w(lambda c: c.__setitem__("minAvailable", 1)), lambda d: None),
        _dgd_update(
            _w(lambda c: c.__setitem__("minAvailable", 1)), _w(lambda c: c.__setitem__("minAvailable", 2))
        ),
        ["spec.components[1]: Invalid value: minAvailable is immutable after creation"],
    ),
    (
        "dgd.restart-unset-on-create",
        _create(beta_dgd),
        _create(beta_dgd, _set(["spec", "restart"], {"id": "x"})),
        [
            "spec: Invalid value: spec.restart must be unset on create; set spec.restart.id after creation to request a restart"
        ],
    ),
    # ---------------------------------------------------------------- DGDR
    (
        "dgdr.hardware-required",
        _create(
            beta_dgdr,
            _set(["spec", "hardware"], {"gpuSku": "h100_sxm"}),
            AdmissionSettings(gpu_discovery_enabled=False),
        ),
        _create(beta_dgdr, None, AdmissionSettings(gpu_discovery_enabled=False)),
        [
            "spec.hardware: Required value: GPU hardware configuration is required when GPU discovery is disabled"
        ],
    ),
    (
        "dgdr.search-strategy-backend",
        _create(
            beta_dgdr, _both(_set(["spec", "searchStrategy"], "thorough"), _set(["spec", "backend"], "vllm"))
        ),
        _create(beta_dgdr, _set(["spec", "searchStrategy"], "thorough")),
        [
            'spec.searchStrategy: Invalid value: "thorough": is incompatible with spec.backend "auto"; set spec.backend to a specific backend (sglang, trtllm, or vllm)'
        ],
    ),
    (
        "dgdr.runtime-version-override-required",
        _create(beta_dgdr, _set(["spec", "image"], "registry.example/planner:1.4.0")),
        _create(beta_dgdr, _set(["spec", "image"], "registry.example/planner:latest")),
        [
            "spec.runtimeVersionOverride: Required value: is required when spec.image has no parseable semantic-version tag"
        ],
    ),
    (
        "dgdr.phase-immutable",
        lambda: run_update(beta_dgdr(), lambda d: None, old_status={"phase": "Profiling"}),
        lambda: run_update(beta_dgdr(), _set(["spec", "model"], "other"), old_status={"phase": "Profiling"}),
        [
            'spec: Forbidden: updates are forbidden while the resource is in phase "Profiling"; delete and recreate the resource to change its spec'
        ],
    ),
]


def _validate_defaulted(obj: dict[str, Any]) -> list[Diagnostic]:
    """Validate an object whose controller-owned annotation was already persisted (UPDATE)."""
    from dynamo_schema._admission import default, validate

    s = AdmissionSettings()
    out = default(obj, s, operation="UPDATE")
    out["spec"]["priorityClassName"] = "high-priority"
    return validate(out, s)


def _seeded_override_update() -> list[Diagnostic]:
    """An old object seeded without the defaulted target; the new one carries it."""
    from dynamo_schema._admission import default, validate

    s = AdmissionSettings()
    old = default(beta_dgd(_root_override({"spec": {"template": {"topologyConstraint": {}}}})), s)
    old["spec"]["providerOverride"].pop("target")
    new = default(old, s, operation="UPDATE")
    assert new["spec"]["providerOverride"]["target"] == "PodCliqueSet"
    return validate(new, s, old=old)


def _legacy_materialize(username: str) -> list[Diagnostic]:
    """An unannotated legacy DGD gets its provider materialized on UPDATE."""
    from dynamo_schema._admission import default, validate

    s = AdmissionSettings(operator_principal="system:serviceaccount:dynamo:op", request_username=username)
    old = default(beta_dgd(), s, operation="UPDATE")
    new = default(beta_dgd(_ann("nvidia.com/workload-provider", "grove")), s, operation="UPDATE")
    return validate(new, s, old=old)


def _slug(rule: str) -> str:
    return rule.replace(".", "_").replace("-", "_")


def _make(
    rule: str, ok: Callable[[], list[Diagnostic]], bad: Callable[[], list[Diagnostic]], want: list[str]
) -> None:
    def accepted() -> None:
        assert errors(ok()) == []

    def rejected() -> None:
        diags = bad()
        assert errors(diags) == want
        assert rule in {d.rule for d in diags if d.severity == "error"}

    accepted.__name__ = f"test_{_slug(rule)}_accepted"
    rejected.__name__ = f"test_{_slug(rule)}_rejected"
    globals()[accepted.__name__] = accepted
    globals()[rejected.__name__] = rejected


for _case in CASES:
    _make(*_case)


def test_case_rule_ids_are_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))


def test_backend_framework_changed_warning() -> None:
    diags = run_update(beta_dgd(), _set(["spec", "backendFramework"], "sglang"))
    assert warnings(diags) == ["Changing spec.backendFramework may cause unexpected behavior"]


def test_grove_name_length_skipped_outside_grove() -> None:
    obj = beta_dgd(_both(_set(["metadata", "name"], LONG_DGD), _w(lambda c: c.__setitem__("name", TOO_LONG))))
    assert errors(run(obj, NO_GROVE)) == []


def test_components_added_and_removed() -> None:
    def change(d: dict[str, Any]) -> None:
        d["spec"]["components"] = [dict(worker(d), name="extra"), worker(d)]

    assert errors(run_update(beta_dgd(), change)) == [
        (
            "spec.components: Forbidden: component topology is immutable and cannot be modified after creation: "
            "components added: [extra], components removed: [frontend]"
        )
    ]


def test_inter_pod_gms_removed_on_update() -> None:
    diags = run_update(beta_dgd(_w(_gms("InterPod"))), _w(lambda c: c.pop("experimental")))
    assert errors(diags) == [
        (
            "spec.components[1].experimental.gpuMemoryService.mode: Invalid value: null: the inter-pod GMS layout cannot be "
            "toggled after creation; delete and recreate the DynamoGraphDeployment"
        )
    ]


def test_power_limit_removed_on_update() -> None:
    diags = run_update(beta_dgd(_w(_power("300", "2"))), _w(lambda c: c["podTemplate"].pop("metadata")))
    assert errors(diags) == [
        "spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: null: field is immutable"
    ]


def test_power_limit_with_gms_forbidden() -> None:
    diags = run(beta_dgd(_w(_both(_gms(), _power("300")))))
    assert errors(diags) == [
        'spec.components[1].experimental.gpuMemoryService: Forbidden: cannot be combined with annotation "dynamo.nvidia.com/gpu-power-limit": power-aware planning does not support DRA-backed device allocation'
    ]


@pytest.mark.parametrize("watts", ["0", "-300"])
def test_power_limit_not_positive(watts: str) -> None:
    assert errors(run(beta_dgd(_w(_power(watts))))) == [
        f'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: "{watts}": must be greater than zero'
    ]


def test_dcd_runtime_version_override_may_be_omitted() -> None:
    obj = beta_dcd(
        lambda d: d["spec"]["podTemplate"]["spec"]["containers"][0].__setitem__("image", "x/runtime:latest")
    )
    assert errors(run(obj)) == []


def test_epp_checks_on_dcd_skip_inference_pool() -> None:
    obj = beta_dcd(lambda d: _epp(d["spec"]))
    assert errors(run(obj, AdmissionSettings(inference_pool_available=False))) == []


def test_dgd_update_with_new_state_errors_skips_update_rules() -> None:
    diags = run_update(beta_dgd(), lambda d: (d["spec"].__setitem__("components", []),))
    assert errors(diags) == ["spec.components: Required value: must have at least one component"]


def test_deleting_object_is_not_validated_on_update() -> None:
    diags = run_update(
        beta_dgd(),
        lambda d: (
            d["metadata"].__setitem__("deletionTimestamp", "2026-01-01T00:00:00Z"),
            d["spec"].__setitem__("backendFramework", "sglang"),
        ),
    )
    assert errors(diags) == []


def test_dgdr_deferred_runtime_version_update_allowed() -> None:
    base = beta_dgdr(
        _both(
            _set(["spec", "autoApply"], False),
            _set(["spec", "image"], "r/p:latest"),
            _set(["spec", "runtimeVersionOverride"], "1.4.0"),
        )
    )
    diags = run_update(base, _set(["spec", "runtimeVersionOverride"], "1.5.0"), old_status={"phase": "Ready"})
    assert errors(diags) == []


def test_non_beta_objects_are_ignored() -> None:
    obj = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "spec": {}}
    assert run(obj) == []


def test_main_container_with_multiple_gpu_resources_uses_first_sorted_name() -> None:
    from dynamo_schema._admission.rules._shared import gpu_count

    assert gpu_count({"limits": {"nvidia.com/mig-1g.10gb": "2", "nvidia.com/gpu": "1"}}) == (1, None)
    assert (
        gpu_count({"limits": {"nvidia.com/gpu": "1500m"}})[1]
        == 'GPU resource "nvidia.com/gpu" quantity "1500m" must be a whole number'
    )


def test_frontend_component_type_in_helpers() -> None:
    assert frontend(beta_dgd())["type"] == "frontend"
    assert main_container()["name"] == "main"


def test_struct_values_render_in_go_field_order() -> None:
    base = _set(
        ["spec", "topologyConstraint"], {"packDomain": "rack", "clusterTopologyName": "grove-topology"}
    )
    diags = run_update(
        beta_dgd(base), lambda d: d["spec"]["topologyConstraint"].__setitem__("packDomain", "zone")
    )
    assert errors(diags) == [
        (
            'spec.topologyConstraint: Invalid value: {"clusterTopologyName":"grove-topology","packDomain":"zone"}: is '
            "immutable and cannot be added, removed, or changed after creation; delete and recreate the "
            "DynamoGraphDeployment to change topology constraints"
        )
    ]


def test_dgdr_deleting_object_is_not_validated_on_update() -> None:
    diags = run_update(
        beta_dgdr(),
        lambda d: (
            d["metadata"].__setitem__("deletionTimestamp", "2026-01-01T00:00:00Z"),
            d["spec"].__setitem__("model", "x"),
        ),
        old_status={"phase": "Profiling"},
    )
    assert diags == []


def test_field_error_value_rendering() -> None:
    from dynamo_schema._admission._common import invalid, not_supported
    from dynamo_schema._k8s._gofmt import field_value

    assert [field_value(v) for v in (None, True, 3, 2.0, 1.5, 'a"b', ["x"], {"a": 1})] == [
        "null",
        "true",
        "3",
        "2",
        "1.5",
        '"a\\"b"',
        '["x"]',
        '{"a":1}',
    ]
    assert invalid("r", ("a",), 3, "d").message == "Invalid value: 3: d"
    assert (
        not_supported("r", ("a",), "x", ["mp", "ray"]).message
        == 'Unsupported value: "x": supported values: "mp", "ray"'
    )


def test_provider_override_value_known_grove_shape() -> None:
    value = {"spec": {"template": {"topologyConstraint": {"pack": "rack"}}}}
    diags = run(beta_dgd(_root_override(value)))
    assert errors(diags) == [
        (
            "spec.providerOverride.value: Invalid value: null: does not match the registered PodCliqueSet schema: json: "
            "cannot unmarshal string into Go struct field TopologyConstraint.spec.template.topologyConstraint.pack of "
            "type v1alpha1.TopologyPackConstraint"
        )
    ]


def test_provider_override_value_must_be_object() -> None:
    diags = run(beta_dgd(_w(lambda c: c.__setitem__("providerOverride", _override(value=["x"])))))
    assert errors(diags) == [
        (
            "spec.components[1].providerOverride.value: Invalid value: null: must be a JSON object: json: cannot "
            "unmarshal array into Go value of type map[string]json.RawMessage"
        )
    ]


def test_provider_override_requires_materialized_provider() -> None:
    from dynamo_schema._admission import default, validate

    s = AdmissionSettings()
    obj = default(
        beta_dgd(_root_override({"spec": {"template": {"topologyConstraint": {}}}})), s, operation="UPDATE"
    )
    assert errors(validate(obj, s)) == [
        (
            'spec.providerOverride: Forbidden: requires controller-owned annotation "nvidia.com/workload-provider" to be '
            "materialized; wait for controller adoption and retry"
        )
    ]


@pytest.mark.parametrize(
    ("annotations", "settings", "want"),
    [
        ({}, NO_GROVE, "requires the Grove pathway, but Grove is disabled in the operator configuration"),
        (
            {"nvidia.com/enable-grove": "False"},
            AdmissionSettings(),
            'requires the Grove pathway; remove or unset annotation "nvidia.com/enable-grove" (currently "False")',
        ),
        ({"nvidia.com/workload-provider": "component"}, AdmissionSettings(), COMPONENT_SELECTED),
    ],
)
def test_grove_pathway_requirement_messages(
    annotations: dict[str, str], settings: AdmissionSettings, want: str
) -> None:
    from dynamo_schema._admission import default, validate

    obj = beta_dgd(_set(["spec", "priorityClassName"], "high-priority"))
    obj["metadata"]["annotations"] = annotations
    out = default(obj, settings, operation="UPDATE")  # a legacy object without a materialized provider
    assert errors(validate(out, settings)) == [f"spec.priorityClassName: Forbidden: {want}"]


def test_grove_name_length_pcsg_detail() -> None:
    name = "m" + "x" * 20

    def m(d: dict[str, Any]) -> None:
        d["metadata"]["name"] = "g" * 30
        w = worker(d)
        w["name"] = name
        w["multinode"] = {"nodeCount": 2}

    # PCS budget = 45 - (21 + 25) -> clamped to 8: "gggg...-xxxx" (8) + 21 + len("mxxx...-ldr") 25 = 54.
    diags = errors(run(beta_dgd(m)))
    assert len(diags) == 1
    assert diags[0].startswith(
        f'spec.components[1].name: Invalid value: "{name}": combined resource name length 54 '
    )
    assert f'(PCS name + PCSG name + longest PodClique name "{name}-ldr")' in diags[0]
