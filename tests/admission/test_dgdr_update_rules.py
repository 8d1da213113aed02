"""Accepted/rejected cases for admission branches that no other test reached (audit follow-up).

Expected messages and paths come from the upstream tables at the reference revision
(ai-dynamo/dynamo@2a6da14c, ``deploy/operator/internal/webhook/validation/*_test.go`` and
``deploy/operator/internal/provideroverride/registry_test.go``); where a table has no case, they
are built from the Go format strings named in each test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._admission._provider import (
    SCOPE_COMPONENT,
    SCOPE_LEADER,
    SCOPE_ROOT,
    SCOPE_WORKER,
    expected_target,
)
from tests.admission._admission_helpers import (
    beta_dcd,
    beta_dgd,
    beta_dgdr,
    errors,
    frontend,
    run,
    run_update,
    with_gpu,
    worker,
)

Mutator = Callable[[dict[str, Any]], Any]
TOPO = AdmissionSettings(cluster_topologies={"grove-topology": ("zone", "rack")})
CHECKPOINT_ON = AdmissionSettings(checkpoint_enabled=True)
TOPOLOGY_IMMUTABLE = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change topology constraints"
)
KV_IMMUTABLE = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change the KV transfer policy"
)
OVERRIDE_REQUIRED = (
    "spec.runtimeVersionOverride: Required value: is required when spec.image has no parseable semantic-version tag"
)
# k8s.io/apimachinery/pkg/util/validation: MaxLenError(253) and RegexError(dns1123SubdomainErrorMsg, ...).
MAX_LEN_253 = "must be no more than 253 characters"
DNS1123_SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    r"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)


# ----------------------------------------------------------------------------- rule 24


def _topology(spec_domain: str | None, component_domain: str) -> Mutator:
    def m(d: dict[str, Any]) -> None:
        tc: dict[str, Any] = {"clusterTopologyName": "grove-topology"}
        if spec_domain is not None:
            tc["packDomain"] = spec_domain
        d["spec"]["topologyConstraint"] = tc
        worker(d)["topologyConstraint"] = {"packDomain": component_domain}

    return m


def test_component_topology_domain_in_binding_accepted() -> None:
    assert errors(run(beta_dgd(_topology("zone", "rack")), TOPO)) == []


@pytest.mark.parametrize("spec_domain", ["zone", None])
def test_component_topology_domain_missing_from_binding(spec_domain: str | None) -> None:
    # shared_v1beta1.go validateTopologyConstraint: "does not exist in ClusterTopology %q; available domains: %v"
    # (the component message names ClusterTopology, the spec-level one ClusterTopologyBinding).
    diags = run(beta_dgd(_topology(spec_domain, "host")), TOPO)
    assert errors(diags) == [
        'spec.components[1].topologyConstraint.packDomain: Invalid value: "host": does not exist in '
        'ClusterTopology "grove-topology"; available domains: [rack zone]'
    ]
    assert {d.rule for d in diags} == {"dgd.topology-domain"}


def test_unknown_spec_domain_skips_the_narrower_check() -> None:
    # validateTopologyConstraint compares indexes only when the spec domain exists in the binding.
    assert errors(run(beta_dgd(_topology("host", "zone")), TOPO)) == [
        'spec.topologyConstraint.packDomain: Invalid value: "host": does not exist in ClusterTopologyBinding '
        '"grove-topology"; available domains: [rack zone]'
    ]


def test_component_topology_domain_not_read_after_creation() -> None:
    # The binding is read only while generation <= 1.
    obj = beta_dgd(_topology("zone", "host"))
    obj["metadata"]["generation"] = 2
    assert errors(run(obj, TOPO)) == []


# ----------------------------------------------------------------------------- rule 45


def _checkpoint_gms(mode: str, enabled: bool = True) -> Mutator:
    def m(spec: dict[str, Any]) -> None:
        with_gpu(spec)
        spec["experimental"] = {
            "gpuMemoryService": {"mode": mode},
            "checkpoint": {"enabled": enabled, "job": {"gmsClientContainers": ["gms-saver"]}},
        }

    return m


def test_checkpoint_gms_clients_accept_intra_pod_gms() -> None:
    assert errors(run(beta_dcd(lambda d: _checkpoint_gms("IntraPod")(d["spec"])), CHECKPOINT_ON)) == []


def test_checkpoint_gms_clients_reject_inter_pod_gms() -> None:
    # dynamocomponentdeployment_validation_envtest_test.go "checkpoint GMS clients reject inter-pod GMS".
    diags = run(beta_dcd(lambda d: _checkpoint_gms("InterPod")(d["spec"])), CHECKPOINT_ON)
    assert errors(diags) == [
        "spec.experimental.checkpoint.job.gmsClientContainers: Forbidden: is only supported with "
        "gpuMemoryService.mode=IntraPod",
        "spec.experimental.checkpoint: Forbidden: Snapshot with gpuMemoryService.mode=InterPod is unsupported",
    ]
    assert [d.rule for d in diags] == ["dcd.checkpoint-gms-client-containers", "dcd.checkpoint-compatibility"]


def test_checkpoint_gms_clients_reject_inter_pod_gms_without_enabled_checkpoint() -> None:
    # validateComponentCheckpointJobConfig does not look at enabled; the compatibility check does.
    diags = run(beta_dcd(lambda d: _checkpoint_gms("InterPod", enabled=False)(d["spec"])), CHECKPOINT_ON)
    assert errors(diags) == [
        "spec.experimental.checkpoint.job.gmsClientContainers: Forbidden: is only supported with "
        "gpuMemoryService.mode=IntraPod"
    ]


def test_checkpoint_gms_clients_reject_inter_pod_gms_in_dgd() -> None:
    diags = run(beta_dgd(lambda d: _checkpoint_gms("InterPod")(worker(d))), CHECKPOINT_ON)
    assert errors(diags) == [
        "spec.components[1].experimental.checkpoint.job.gmsClientContainers: Forbidden: is only supported with "
        "gpuMemoryService.mode=IntraPod",
        "spec.components[1].experimental.checkpoint: Forbidden: Snapshot with gpuMemoryService.mode=InterPod "
        "is unsupported",
    ]


def test_checkpoint_component_type_not_checked_at_reference_revision() -> None:
    """admission.md rule 45 bullets 2-3 exist only in newer upstream: at 2a6da14c
    ``validateComponentCheckpointConfig`` checks the gate and the job, not the component type."""
    base = beta_dgd(lambda d: frontend(d).setdefault("experimental", {}).__setitem__("checkpoint", {"enabled": True}))
    assert errors(run(base, CHECKPOINT_ON)) == []
    dcd = beta_dcd(lambda d: d["spec"].pop("type"))
    dcd["spec"]["experimental"] = {"checkpoint": {"enabled": True}}
    assert errors(run(dcd, CHECKPOINT_ON)) == []


# ----------------------------------------------------------------------------- rule 22


def test_elastic_ep_replicas_not_limited_at_reference_revision() -> None:
    """admission.md rule 22 (gate ``ElasticEPRayPoC``) exists only in newer upstream: the reference
    revision has no such gate (``internal/features/gates.go``) and no replica rule."""

    def m(d: dict[str, Any]) -> None:
        main = worker(d)["podTemplate"]["spec"]["containers"][0]
        main["command"] = ["python3", "-m", "dynamo.vllm"]
        main["args"] = ["--enable-elastic-ep", "--data-parallel-backend", "ray"]
        worker(d)["replicas"] = 3

    assert errors(run(beta_dgd(m))) == []


# ----------------------------------------------------------------------------- rule 53


def _spec_topology(d: dict[str, Any]) -> None:
    d["spec"]["topologyConstraint"] = {"clusterTopologyName": "grove-topology", "packDomain": "rack"}


def _component_topology(d: dict[str, Any]) -> None:
    d["spec"]["topologyConstraint"] = {"clusterTopologyName": "grove-topology", "packDomain": "zone"}
    worker(d)["topologyConstraint"] = {"packDomain": "rack"}


def _kv_policy(d: dict[str, Any]) -> None:
    d["spec"]["experimental"] = {"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}}


def test_unchanged_topology_constraints_are_allowed() -> None:
    assert errors(run_update(beta_dgd(_component_topology), lambda d: None)) == []


def test_spec_topology_constraint_removal_is_immutable() -> None:
    diags = run_update(beta_dgd(_spec_topology), lambda d: d["spec"].pop("topologyConstraint"))
    assert errors(diags) == [f"spec.topologyConstraint: Invalid value: null: {TOPOLOGY_IMMUTABLE}"]
    assert {d.rule for d in diags} == {"dgd.topology-immutable"}


def test_spec_topology_constraint_addition_is_immutable() -> None:
    assert errors(run_update(beta_dgd(), _spec_topology)) == [
        'spec.topologyConstraint: Invalid value: {"clusterTopologyName":"grove-topology","packDomain":"rack"}: '
        + TOPOLOGY_IMMUTABLE
    ]


def test_component_topology_constraint_removal_is_immutable() -> None:
    diags = run_update(beta_dgd(_component_topology), lambda d: worker(d).pop("topologyConstraint"))
    assert errors(diags) == [f"spec.components[1].topologyConstraint: Invalid value: null: {TOPOLOGY_IMMUTABLE}"]


def test_component_topology_constraint_addition_is_immutable() -> None:
    def base(d: dict[str, Any]) -> None:
        d["spec"]["topologyConstraint"] = {"clusterTopologyName": "grove-topology", "packDomain": "zone"}

    diags = run_update(beta_dgd(base), lambda d: worker(d).__setitem__("topologyConstraint", {"packDomain": "rack"}))
    assert errors(diags) == [
        'spec.components[1].topologyConstraint: Invalid value: {"packDomain":"rack"}: ' + TOPOLOGY_IMMUTABLE
    ]


def test_unchanged_kv_transfer_policy_is_allowed() -> None:
    # "unchanged kv transfer policy is allowed": the explicit default enforcement equals the old one.
    diags = run_update(
        beta_dgd(_kv_policy),
        lambda d: d["spec"]["experimental"]["kvTransferPolicy"].__setitem__("enforcement", "required"),
    )
    assert errors(diags) == []


@pytest.mark.parametrize(
    "remove",
    [
        lambda d: d["spec"].pop("experimental"),
        lambda d: d["spec"]["experimental"].pop("kvTransferPolicy"),
    ],
    ids=["experimental", "kvTransferPolicy"],
)
def test_kv_transfer_policy_removal_is_immutable(remove: Mutator) -> None:
    diags = run_update(beta_dgd(_kv_policy), remove)
    assert errors(diags) == [f"spec.experimental.kvTransferPolicy: Invalid value: null: {KV_IMMUTABLE}"]
    assert {d.rule for d in diags} == {"dgd.kv-transfer-immutable"}


def test_kv_transfer_policy_addition_is_immutable() -> None:
    assert errors(run_update(beta_dgd(), _kv_policy)) == [
        'spec.experimental.kvTransferPolicy: Invalid value: {"labelKey":"topology.kubernetes.io/zone",'
        f'"domain":"zone","enforcement":"required"}}: {KV_IMMUTABLE}'
    ]


# ----------------------------------------------------------------------------- rule 36


_SINGLE: dict[str, Any] = {}
_MULTINODE: dict[str, Any] = {"multinode": {"nodeCount": 2}}
_FORCED: dict[str, Any] = {"experimental": {"grove": {"forceScalingGroup": True}}}
_INTER_POD: dict[str, Any] = {"multinode": {"nodeCount": 2}, "experimental": {"gpuMemoryService": {"mode": "InterPod"}}}


@pytest.mark.parametrize(
    ("provider", "version", "scope", "component", "want", "want_err"),
    [
        ("grove", "grove.io/v1alpha1", SCOPE_ROOT, None, "PodCliqueSet", None),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, _SINGLE, "PodCliqueTemplateSpec", None),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, _MULTINODE, "PodCliqueScalingGroupConfig", None),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, _FORCED, "PodCliqueScalingGroupConfig", None),
        ("grove", "grove.io/v1alpha1", SCOPE_LEADER, _MULTINODE, "PodCliqueTemplateSpec", None),
        ("grove", "grove.io/v1alpha1", SCOPE_WORKER, _MULTINODE, "PodCliqueTemplateSpec", None),
        ("component", "grove.io/v1alpha1", SCOPE_ROOT, None, None, "does not support provider overrides"),
        ("grove", "grove.io/v2", SCOPE_ROOT, None, None, "unsupported Grove apiVersion"),
        ("grove", "grove.io/v1alpha1", SCOPE_LEADER, _SINGLE, None, "requires a multinode component"),
        ("grove", "grove.io/v1alpha1", SCOPE_WORKER, _INTER_POD, None, "not supported for inter-pod GMS"),
        ("grove", "grove.io/v1alpha1", SCOPE_COMPONENT, None, None, "component context is required"),
    ],
)
def test_expected_target_registry_table(
    provider: str, version: str, scope: str, component: Any, want: str | None, want_err: str | None
) -> None:
    """``provideroverride/registry_test.go`` TestExpectedTarget (plus the nil-component branch)."""
    target, err = expected_target(provider, version, scope, component)
    assert target == want
    if want_err is None:
        assert err is None
    else:
        assert err is not None and want_err in err


def test_expected_target_full_messages() -> None:
    # registry.go ExpectedTarget format strings.
    assert expected_target("component", "grove.io/v1alpha1", SCOPE_ROOT, None)[1] == (
        'workload provider "component" does not support provider overrides'
    )
    assert expected_target("grove", "grove.io/v2", SCOPE_ROOT, None)[1] == (
        'unsupported Grove apiVersion "grove.io/v2"; supported value is "grove.io/v1alpha1"'
    )


_ROLE_VALUE = {"topologyConstraint": {"topologyName": "grove-topology", "pack": {"required": "host"}}}


def _role_override(role: str, target: str | None = None, node_count: int = 2, inter_pod: bool = False) -> Mutator:
    def m(d: dict[str, Any]) -> None:
        c = worker(d)
        with_gpu(c)
        ov: dict[str, Any] = {"apiVersion": "grove.io/v1alpha1", "value": _ROLE_VALUE}
        if target is not None:
            ov["target"] = target
        c["multinode"] = {"nodeCount": node_count, role: {"providerOverride": ov}}
        if inter_pod:
            c["experimental"] = {"gpuMemoryService": {"mode": "InterPod"}}

    return m


@pytest.mark.parametrize("role", ["leader", "worker"])
def test_multinode_role_override_accepted(role: str) -> None:
    # "provider overrides accept every Grove context" (dynamographdeployment_validation_envtest_test.go).
    assert errors(run(beta_dgd(_role_override(role)))) == []


@pytest.mark.parametrize("role", ["leader", "worker"])
def test_multinode_role_override_rejected_for_inter_pod_gms(role: str) -> None:
    diags = run(beta_dgd(_role_override(role, inter_pod=True)))
    assert errors(diags) == [
        f'spec.components[1].multinode.{role}.providerOverride: Forbidden: scope "multinode.{role}" is not '
        "supported for inter-pod GMS components"
    ]
    assert {d.rule for d in diags} == {"dgd.provider-override-target"}


@pytest.mark.parametrize("role", ["leader", "worker"])
def test_multinode_role_override_wrong_target(role: str) -> None:
    diags = run(beta_dgd(_role_override(role, target="PodCliqueScalingGroupConfig")))
    assert errors(diags) == [
        f"spec.components[1].multinode.{role}.providerOverride.target: Invalid value: "
        '"PodCliqueScalingGroupConfig": must match the provider-context target "PodCliqueTemplateSpec"'
    ]


def test_multinode_role_override_single_node_component() -> None:
    # nodeCount 1 never passes the CRD schema (Minimum=2); the webhook branch alone still reports it.
    diags = run(beta_dgd(_role_override("leader", node_count=1)))
    assert errors(diags) == [
        'spec.components[1].multinode.leader.providerOverride: Forbidden: scope "multinode.leader" requires a '
        "multinode component"
    ]


# ----------------------------------------------------------------------------- rule 26


def _kv_name(name: str) -> Mutator:
    return lambda d: d["spec"].__setitem__(
        "experimental", {"kvTransferPolicy": {"clusterTopologyName": name, "domain": "zone"}}
    )


def test_kv_transfer_topology_name_253_characters_accepted() -> None:
    name = "a" * 253
    settings = AdmissionSettings(cluster_topologies={name: ("zone", "rack")})
    assert errors(run(beta_dgd(_kv_name(name)), settings)) == []


def test_kv_transfer_topology_name_254_characters_rejected() -> None:
    name = "a" * 254
    # No binding exists: the lookup must not run once the name is invalid.
    diags = run(beta_dgd(_kv_name(name)), AdmissionSettings(cluster_topologies={}))
    assert errors(diags) == [
        f'spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: "{name}": {MAX_LEN_253}'
    ]
    assert {d.rule for d in diags} == {"dgd.kv-transfer-topology-name"}


def test_kv_transfer_topology_name_too_long_and_malformed_joined() -> None:
    name = "A" + "a" * 253
    diags = run(beta_dgd(_kv_name(name)), AdmissionSettings(cluster_topologies={}))
    assert errors(diags) == [
        f'spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: "{name}": '
        f"{MAX_LEN_253}; {DNS1123_SUBDOMAIN}"
    ]


# ----------------------------------------------------------------------------- DGDR runtime override on update


def _dgdr(**spec: Any) -> dict[str, Any]:
    """``betaDGDRForAdmission`` with ``spec`` changes (``None`` removes a field)."""

    def m(d: dict[str, Any]) -> None:
        d["spec"].update(
            {
                "backend": "vllm",
                "image": "profiler:latest",
                "runtimeVersionOverride": "1.1.0",
                "searchStrategy": "rapid",
            }
        )
        _apply(d, spec)

    return beta_dgdr(m)


def _apply(d: dict[str, Any], spec: dict[str, Any]) -> None:
    for key, value in spec.items():
        if value is None:
            d["spec"].pop(key, None)
        else:
            d["spec"][key] = value


def _spec(**spec: Any) -> Mutator:
    return lambda d: _apply(d, spec)


def _label(d: dict[str, Any]) -> None:
    d["metadata"]["labels"] = {"updated": "true"}


@pytest.mark.parametrize(
    ("old", "change", "phase", "want"),
    [
        pytest.param(
            {"runtimeVersionOverride": None},
            _label,
            "Deployed",
            [],
            id="unchanged legacy custom image without override is ratcheted on update",
        ),
        pytest.param(
            {"runtimeVersionOverride": None},
            _spec(runtimeVersionOverride="1.1.0"),
            "Deployed",
            [
                'spec: Forbidden: updates are forbidden while the resource is in phase "Deployed"; delete and '
                "recreate the resource to change its spec"
            ],
            id="adding runtime version override is rejected after deployment",
        ),
        pytest.param(
            {"image": "test-profiler:1.1.0", "runtimeVersionOverride": None},
            _spec(image="profiler:latest"),
            None,
            [OVERRIDE_REQUIRED],
            id="newly introduced custom image without override is rejected on update",
        ),
        pytest.param(
            {"runtimeVersionOverride": None},
            _spec(image="test-profiler:other-custom"),
            None,
            [OVERRIDE_REQUIRED],
            id="changing a legacy custom image without override is rejected on update",
        ),
        pytest.param(
            {"autoApply": False, "runtimeVersionOverride": None},
            _spec(autoApply=True, runtimeVersionOverride="1.1.0"),
            "Ready",
            [],
            id="auto apply activation can add a missing runtime version override",
        ),
        pytest.param(
            {"autoApply": False, "runtimeVersionOverride": None},
            _spec(autoApply=True),
            "Ready",
            [OVERRIDE_REQUIRED],
            id="auto apply activation requires a missing runtime version override",
        ),
        pytest.param(
            {"autoApply": False, "runtimeVersionOverride": None},
            _spec(runtimeVersionOverride="1.1.0"),
            "Ready",
            [],
            id="runtime version override can be added while ready with auto apply disabled",
        ),
        pytest.param(
            {"autoApply": False},
            _spec(runtimeVersionOverride="1.2.0"),
            "Profiling",
            [],
            id="runtime version override can change while profiling with auto apply disabled",
        ),
        pytest.param(
            {"runtimeVersionOverride": "1.1.0"},
            _spec(runtimeVersionOverride=None),
            None,
            [OVERRIDE_REQUIRED],
            id="removing the override from a custom image",  # Go format string; no upstream row
        ),
    ],
)
def test_dgdr_runtime_version_override_on_update(
    old: dict[str, Any], change: Mutator, phase: str | None, want: list[str]
) -> None:
    status = {"phase": phase} if phase else None
    diags = run_update(_dgdr(**old), change, old_status=status)
    assert errors(diags) == want
    if OVERRIDE_REQUIRED in want:
        assert "dgdr.runtime-version-override-required" in {d.rule for d in diags}
