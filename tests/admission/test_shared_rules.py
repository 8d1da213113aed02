"""Rules on the shared component spec (``dynamo_schema/_admission/rules/_shared.py``), checked on a DGD
component (``spec.components[i]``) and on a DCD (``spec``): minAvailable, shared memory, EPP, frontend
sidecar, GMS, failover, scaling groups, checkpoint, main image and runtimeVersionOverride; also the
shared helpers (GPU count, field-error rendering), the dispatch of non-v1beta1 objects, and the check
that rule ids are unique across all the per-rule tables (DGD, provider override, shared, update, DGDR).

Cases are modelled on the upstream tables in
``deploy/operator/internal/webhook/validation/*_test.go``. Expected messages are copied from those
tables where they exist, else built from the Go format strings.
"""

from __future__ import annotations

from dynamo_schema._admission import AdmissionSettings
from tests.admission._admission_helpers import (
    beta_dcd,
    beta_dgd,
    component_dgd,
    frontend,
    main_container,
    run,
    with_gpu,
)
from tests.admission._rules_support import (
    GROVE_ONLY,
    Case,
    _both,
    _checkpoint,
    _create,
    _epp,
    _failover,
    _gms,
    _set,
    _w,
    register,
)
from tests.admission.test_dgd_rules import CASES as DGD_CASES
from tests.admission.test_dgdr_rules import CASES as DGDR_CASES
from tests.admission.test_provider_override_rules import CASES as PROVIDER_OVERRIDE_CASES
from tests.admission.test_update_rules import CASES as UPDATE_CASES

# (rule id, accepted case, rejected case, exact expected error list for the rejected case)
SHARED_CASES: list[Case] = [
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
]

register(SHARED_CASES, globals())

# Every per-rule table, for the uniqueness check.
CASES = [*DGD_CASES, *PROVIDER_OVERRIDE_CASES, *SHARED_CASES, *UPDATE_CASES, *DGDR_CASES]


def test_case_rule_ids_are_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))


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


def test_gpu_resource_names_are_the_operators() -> None:
    """``dra.isGPUResourceName`` (lower-cased): ``nvidia.com/gpu``, ``gpu``, a ``/gpu`` suffix, a ``/mig-`` shape or a
    ``gpu.`` prefix; any other extended resource is not a GPU, however it sorts."""
    from dynamo_schema._admission.rules._shared import gpu_count

    for name in ("nvidia.com/gpu", "NVIDIA.com/GPU", "gpu", "amd.com/gpu", "nvidia.com/mig-3g.20gb", "gpu.example/x"):
        assert gpu_count({"limits": {name: "2"}}) == (2, None), name
    for name in ("smarter-devices/fuse", "vendor.io/tpu", "openai.com/npu", "nvidia.com/hostdev", "zz/gpux", "memory"):
        assert gpu_count({"limits": {name: "2"}}) == (0, None), name
        assert gpu_count({"limits": {name: "2"}, "requests": {"nvidia.com/gpu": "3"}}) == (3, None), name


def test_frontend_component_type_in_helpers() -> None:
    assert frontend(beta_dgd())["type"] == "frontend"
    assert main_container()["name"] == "main"


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
