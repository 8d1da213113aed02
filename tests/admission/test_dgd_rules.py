"""DynamoGraphDeployment create-time rules (``dynamo_schema/_admission/rules/_dgd.py``): metadata
annotations, spec (components, Grove name length, GMS, power limit, restart order, topology and
kvTransferPolicy), one accepted and one rejected case per rule id, plus the Grove-pathway messages.

Cases are modelled on the upstream tables in
``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages are copied from those
tables where they exist, else built from the Go format strings.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._core._diagnostics import Diagnostic
from tests.admission._admission_helpers import (
    beta_dgd,
    component_dgd,
    errors,
    run,
    worker,
)
from tests.admission._rules_support import (
    BOUNDARY,
    COMPONENT_SELECTED,
    LONG_DGD,
    NO_GROVE,
    TOO_LONG,
    TOPO,
    Case,
    _ann,
    _both,
    _create,
    _dgd_update,
    _elastic,
    _failover,
    _gms,
    _power,
    _restart,
    _root_override,
    _set,
    _w,
    register,
)

# (rule id, accepted case, rejected case, exact expected error list for the rejected case)
CASES: list[Case] = [
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
]

register(CASES, globals())


def _validate_defaulted(obj: dict[str, Any]) -> list[Diagnostic]:
    """Validate an object whose controller-owned annotation was already persisted (UPDATE)."""
    from dynamo_schema._admission import default, validate

    s = AdmissionSettings()
    out = default(obj, s, operation="UPDATE")
    out["spec"]["priorityClassName"] = "high-priority"
    return validate(out, s)



def test_grove_name_length_skipped_outside_grove() -> None:
    obj = beta_dgd(_both(_set(["metadata", "name"], LONG_DGD), _w(lambda c: c.__setitem__("name", TOO_LONG))))
    assert errors(run(obj, NO_GROVE)) == []


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


@pytest.mark.parametrize(("watts", "want"), [
    ("9223372036854775807", None), ("+300", None),  # strconv.Atoi: int64 (amd64), a sign allowed
    ("9223372036854775808", "must be a decimal integer"), ("-9223372036854775809", "must be a decimal integer"),
    ("-9223372036854775808", "must be greater than zero"), ("3e2", "must be a decimal integer"),
    (" 300", "must be a decimal integer"), ("300\n", "must be a decimal integer"),
])
def test_power_limit_is_an_atoi_integer(watts: str, want: str | None) -> None:
    """validateDGDPowerLimitValue: strconv.Atoi (out of int64 range: an error) before the sign check."""
    quoted = json.dumps(watts)  # Go's %q for these ASCII values
    prefix = f'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: {quoted}: '
    assert errors(run(beta_dgd(_w(_power(watts))))) == ([] if want is None else [prefix + want])


# semver.NewVersion of Masterminds/semver v3.4.0 (the version upstream's go.mod pins at 2a6da14c) on each value,
# run with that library: True where it returns a version, False where it returns an error
@pytest.mark.parametrize(("value", "accepted"), [
    ("1.5.0", True), ("v1.2", True), ("01.2.3", True), ("1.0.0-0a", True), ("1.2.3-rc.1+b.7", True),
    ("18446744073709551615.0.0", True),
    ("1.5.0\n", False),  # Go's $ is the end of the text (a YAML | block ends in a newline)
    ("1.0.0-01", False),  # "version segment starts with 0"
    ("99999999999999999999.0.0", False),  # strconv.ParseUint: value out of range
    ("1.2.3-", False), (" 1.2.3", False), ("1.2.3.4", False), ("1.2.3+", False), ("1.2.3-a..b", False),
])
def test_origin_version_annotation_is_a_masterminds_semver(value: str, accepted: bool) -> None:
    key = "nvidia.com/dynamo-operator-origin-version"
    got = errors(run(beta_dgd(_ann(key, value))))
    want = f"metadata.annotations[{key}]: Invalid value: {json.dumps(value)}: must be valid semver"
    assert got == ([] if accepted else [want])


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
