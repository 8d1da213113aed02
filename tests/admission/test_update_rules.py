"""DynamoGraphDeployment and DynamoComponentDeployment update rules
(``dynamo_schema/_admission/rules/_update.py``): immutable fields, toggles and the workload-provider
materialization on UPDATE, the backendFramework warning, and when update rules are skipped (new-state
errors, an object being deleted).

Cases are modelled on the upstream tables in
``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages are copied from those
tables where they exist, else built from the Go format strings.
"""

from __future__ import annotations

from typing import Any

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._core._diagnostics import Diagnostic
from tests.admission._admission_helpers import (
    beta_dcd,
    beta_dgd,
    component_dgd,
    errors,
    run_update,
    warnings,
    with_gpu,
    worker,
)
from tests.admission._rules_support import (
    Case,
    _ann,
    _both,
    _create,
    _dgd_update,
    _failover,
    _gms,
    _power,
    _root_override,
    _set,
    _w,
    register,
)

# (rule id, accepted case, rejected case, exact expected error list for the rejected case)
CASES: list[Case] = [
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
]

register(CASES, globals())


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



def test_backend_framework_changed_warning() -> None:
    diags = run_update(beta_dgd(), _set(["spec", "backendFramework"], "sglang"))
    assert warnings(diags) == ["Changing spec.backendFramework may cause unexpected behavior"]


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


def test_workload_provider_cannot_be_replaced_or_removed() -> None:  # mutant 4905e3e0dab2
    # Upstream's "workload provider cannot change" row changes component to grove; the Go rule
    # (validateObjectMetaUpdate) compares with !=, so grove to component and a removed annotation
    # (invalid value nil) are refused alike.
    def replace(d: dict[str, Any]) -> None:
        d["metadata"]["annotations"]["nvidia.com/workload-provider"] = "component"
        for c in d["spec"]["components"]:  # defaulted on the Grove CREATE; Grove-only (a new-state error)
            del c["minAvailable"]  # (its removal is refused too, by minAvailable's own immutability rule)

    def remove(d: dict[str, Any]) -> None:
        del d["metadata"]["annotations"]["nvidia.com/workload-provider"]

    path = "metadata.annotations[nvidia.com/workload-provider]"
    replaced = [e for e in errors(run_update(beta_dgd(), replace)) if e.startswith(path)]
    assert replaced == [f'{path}: Invalid value: "component": field is immutable']
    assert errors(run_update(beta_dgd(), remove)) == [f"{path}: Invalid value: null: field is immutable"]


def test_power_limit_removed_on_update() -> None:
    diags = run_update(beta_dgd(_w(_power("300", "2"))), _w(lambda c: c["podTemplate"].pop("metadata")))
    assert errors(diags) == [
        "spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: null: field is immutable"
    ]


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


def test_dcd_min_available_immutable_only_once_set() -> None:  # mutant 3372cb802193
    """CEL rule of the standalone DCD CRD (api/v1beta1/dynamocomponentdeployment_types.go, XValidation
    ``!has(oldSelf.minAvailable) || (has(self.minAvailable) && self.minAvailable == oldSelf.minAvailable)``;
    envtest case "v1beta1 minAvailable change is rejected by CEL" in
    internal/webhook/validation/dynamocomponentdeployment_validation_envtest_test.go): setting minAvailable
    on an update when the old object had none is not an immutability error; changing a set one is. (A
    standalone DCD's webhook also forbids minAvailable outside Grove-backed DGD components, envtest
    wantWebhookErrs of the same file, reported in both cases.)"""
    immutable = "spec: Invalid value: minAvailable is immutable after creation"
    grove_only = ("spec.minAvailable: Forbidden: is currently supported only for Grove-backed "
                  "DynamoGraphDeployment components")
    base = beta_dcd(lambda d: d["spec"].__setitem__("replicas", 3))
    assert errors(run_update(base, _set(["spec", "minAvailable"], 2))) == [grove_only]
    with_min = beta_dcd(lambda d: d["spec"].update(replicas=3, minAvailable=1))
    assert immutable in errors(run_update(with_min, _set(["spec", "minAvailable"], 2)))
    assert immutable not in errors(run_update(with_min, _set(["spec", "minAvailable"], 1)))
