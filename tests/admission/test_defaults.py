"""Defaulting: CRD schema defaults and the DGD/DCD/DGDR mutating webhooks (cases from
``deploy/operator/internal/webhook/defaulting/*_test.go``)."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest
import yaml

from dynamo_schema._admission import AdmissionSettings, default
from dynamo_schema._admission._defaults import SCHEMA_DEFAULTS
from tests.admission._admission_helpers import SHARED, beta_dcd, beta_dgd, beta_dgdr, worker

ORIGIN = "nvidia.com/dynamo-operator-origin-version"
PROVIDER = "nvidia.com/workload-provider"


def _dgd(components: list[dict[str, Any]], annotations: dict[str, str] | None = None) -> dict[str, Any]:
    obj = beta_dgd()
    obj["spec"]["components"] = components
    if annotations is not None:
        obj["metadata"]["annotations"] = annotations
    return obj


def _ann(obj: dict[str, Any]) -> dict[str, Any]:
    return obj.get("metadata", {}).get("annotations", {})


def test_create_stamps_operator_version_and_provider() -> None:
    out = default(_dgd([{"name": "worker"}]), AdmissionSettings(operator_version="1.5.0"))
    assert _ann(out) == {PROVIDER: "grove", ORIGIN: "1.5.0"}


def test_create_does_not_overwrite_origin_version() -> None:
    out = default(_dgd([{"name": "w"}], {ORIGIN: "1.0.0"}), AdmissionSettings())
    assert _ann(out)[ORIGIN] == "1.0.0"


@pytest.mark.parametrize("op", ["UPDATE", "DELETE"])
def test_non_create_does_not_stamp(op: str) -> None:
    out = default(_dgd([{"name": "w"}]), AdmissionSettings(), operation=op)
    assert ORIGIN not in _ann(out) and PROVIDER not in _ann(out)


def test_replicas_default_to_one_on_every_operation_and_explicit_kept() -> None:
    comps = [{"name": "a"}, {"name": "b", "replicas": 3}, {"name": "c", "replicas": 0}]
    for op in ("CREATE", "UPDATE"):
        out = default(_dgd(copy.deepcopy(comps)), AdmissionSettings(), operation=op)
        assert [c["replicas"] for c in out["spec"]["components"]] == [1, 3, 0]


@pytest.mark.parametrize(
    ("op", "grove", "annotations", "comp", "want_min", "want_provider"),
    [
        ("CREATE", True, None, {"name": "Worker"}, 1, "grove"),
        (
            "CREATE",
            True,
            {PROVIDER: "grove", "nvidia.com/enable-grove": "false"},
            {"name": "Worker", "replicas": 3},
            None,
            "component",
        ),
        ("UPDATE", True, None, {"name": "Worker", "replicas": 3}, None, None),
        ("CREATE", True, None, {"name": "Idle", "replicas": 0}, 1, "grove"),
        ("CREATE", True, None, {"name": "Worker", "replicas": 3, "minAvailable": 2}, 2, "grove"),
        ("CREATE", True, None, {"name": "Worker", "replicas": 1, "minAvailable": 0}, 0, "grove"),
        (
            "UPDATE",
            True,
            {PROVIDER: "grove"},
            {"name": "Worker", "replicas": 0, "minAvailable": 1},
            1,
            "grove",
        ),
        (
            "UPDATE",
            True,
            {PROVIDER: "grove"},
            {"name": "Worker", "replicas": 1, "minAvailable": 0},
            0,
            "grove",
        ),
        ("CREATE", False, None, {"name": "Worker"}, None, "component"),
        ("CREATE", True, {"nvidia.com/enable-grove": "FALSE"}, {"name": "Worker"}, None, "component"),
        ("UPDATE", False, {PROVIDER: "grove"}, {"name": "Worker"}, 1, "grove"),
        ("UPDATE", True, {PROVIDER: "component"}, {"name": "Worker"}, None, "component"),
    ],
)
def test_min_available_and_provider(
    op: str,
    grove: bool,
    annotations: dict[str, str] | None,
    comp: dict[str, Any],
    want_min: int | None,
    want_provider: str | None,
) -> None:
    out = default(_dgd([comp], annotations), AdmissionSettings(grove_enabled=grove), operation=op)
    assert out["spec"]["components"][0].get("minAvailable") == want_min
    assert _ann(out).get(PROVIDER) == want_provider


def test_provider_override_targets_defaulted_when_unambiguous() -> None:
    value = {"topologyConstraint": {"packDomain": "rack"}}
    obj = _dgd(
        [
            {"name": "single", "providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": value}},
            {
                "name": "multi",
                "multinode": {
                    "nodeCount": 2,
                    "leader": {"providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": value}},
                    "worker": {"providerOverride": {"apiVersion": "grove.io/v1beta9", "value": value}},
                },
                "providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": value},
            },
        ]
    )
    obj["spec"]["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "value": {}}
    out = default(obj, AdmissionSettings())
    assert out["spec"]["providerOverride"]["target"] == "PodCliqueSet"
    single, multi = out["spec"]["components"]
    assert single["providerOverride"]["target"] == "PodCliqueTemplateSpec"
    assert multi["providerOverride"]["target"] == "PodCliqueScalingGroupConfig"
    assert multi["multinode"]["leader"]["providerOverride"]["target"] == "PodCliqueTemplateSpec"
    assert "target" not in multi["multinode"]["worker"]["providerOverride"]  # unsupported apiVersion
    # Not defaulted on the component provider.
    out2 = default(obj, AdmissionSettings(grove_enabled=False))
    assert "target" not in out2["spec"]["providerOverride"]


def test_dcd_spec_name_from_metadata_on_create_only() -> None:
    assert default(beta_dcd(), AdmissionSettings())["spec"]["name"] == "test-dcd"
    assert "name" not in default(beta_dcd(), AdmissionSettings(), operation="UPDATE")["spec"]
    explicit = beta_dcd(lambda d: d["spec"].__setitem__("name", "keep"))
    assert default(explicit, AdmissionSettings())["spec"]["name"] == "keep"


@pytest.mark.parametrize(
    ("settings", "want"),
    [
        (AdmissionSettings(operator_version="1.5.0"), "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.5.0"),
        (AdmissionSettings(operator_version="v1.2"), "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.2.0"),
        # Masterminds semver String(): major.minor.patch, then -prerelease and +metadata as given (mutant ec638842e1e6)
        (AdmissionSettings(operator_version="v1.6.0-rc.1+build.7"), "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.6.0-rc.1+build.7"),
        (AdmissionSettings(operator_version="not-a-version"), None),
        (AdmissionSettings(dgdr_default_image="my/planner:rc1"), "my/planner:rc1"),
    ],
)
def test_dgdr_image_default(settings: AdmissionSettings, want: str | None) -> None:
    out = default(beta_dgdr(), settings)
    assert out["spec"].get("image") == want
    assert "image" not in default(beta_dgdr(), settings, operation="UPDATE")["spec"]


def test_dgdr_schema_defaults() -> None:
    out = default(beta_dgdr(lambda d: d["spec"].__setitem__("workload", {})), AdmissionSettings())
    spec = out["spec"]
    assert (spec["backend"], spec["searchStrategy"], spec["autoApply"]) == ("auto", "rapid", True)
    assert spec["workload"] == {"isl": 4000, "osl": 1000}
    assert "modelCache" not in spec  # parent absent: no default


def test_component_schema_defaults() -> None:
    def m(d: dict[str, Any]) -> None:
        w = worker(d)
        w["multinode"] = {}
        w["experimental"] = {"gpuMemoryService": {}, "failover": {}, "checkpoint": {"identity": {}}}
        w["podTemplate"]["spec"]["containers"][0]["ports"] = [{"containerPort": 80}]
        d["spec"]["restart"] = {"strategy": {}}
        d["status"] = {}

    out = default(beta_dgd(m), AdmissionSettings())
    w = worker(out)
    assert w["multinode"] == {"nodeCount": 2}
    assert w["experimental"]["gpuMemoryService"] == {"mode": "IntraPod", "deviceClassName": "gpu.nvidia.com"}
    assert w["experimental"]["failover"] == {"mode": "IntraPod", "numShadows": 1}
    # plus the zero values the webhook's Go round trip writes for fields without omitempty
    # (api/v1beta1/common.go: ComponentCheckpointConfig.Enabled `json:"enabled"`, DynamoCheckpointIdentity
    # Model / BackendFramework; ZERO-VALUE-PATCH of the operator cases)
    assert w["experimental"]["checkpoint"] == {
        "identity": {"pipelineParallelSize": 1, "tensorParallelSize": 1, "model": "", "backendFramework": ""},
        "deletionPolicy": "Delete",
        "startupPolicy": "Immediate",
        "targetContainerName": "main",
        "enabled": False,
    }
    assert w["podTemplate"]["spec"]["containers"][0]["ports"] == [{"containerPort": 80, "protocol": "TCP"}]
    assert out["spec"]["restart"]["strategy"]["type"] == "Sequential"
    assert out["status"]["state"] == "initializing"


def test_default_does_not_mutate_input_and_is_idempotent() -> None:
    obj = beta_dgd(lambda d: worker(d).pop("replicas"))
    snapshot = copy.deepcopy(obj)
    once = default(obj, AdmissionSettings())
    assert obj == snapshot
    assert default(once, AdmissionSettings()) == once
    assert default(once, AdmissionSettings(), operation="UPDATE") == once


def test_other_objects_are_copied_unchanged() -> None:
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}
    out = default(cm, AdmissionSettings())
    assert out == cm and out is not cm


def _crd_defaults(path: Any) -> list[tuple[tuple[str, ...], Any]]:
    crd = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
    schema = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta1")["schema"]["openAPIV3Schema"]
    out: list[tuple[tuple[str, ...], Any]] = []

    def walk(node: Any, p: tuple[str, ...]) -> None:
        if not isinstance(node, dict):
            return
        if "default" in node:
            out.append((p, node["default"]))
        for k, child in (node.get("properties") or {}).items():
            walk(child, p + (k,))
        if "items" in node:
            walk(node["items"], p + ("*",))

    walk(schema, ())
    return out


@pytest.mark.parametrize(
    ("kind", "crd"),
    [
        ("DynamoGraphDeployment", "nvidia.com_dynamographdeployments.yaml"),
        ("DynamoComponentDeployment", "nvidia.com_dynamocomponentdeployments.yaml"),
        ("DynamoGraphDeploymentRequest", "nvidia.com_dynamographdeploymentrequests.yaml"),
    ],
)
def test_schema_default_table_matches_crds(kind: str, crd: str) -> None:
    path = SHARED / "reference" / "dynamo" / "crds" / crd
    if not path.is_file():
        pytest.skip("../shared reference CRDs not available")
    assert sorted(map(repr, SCHEMA_DEFAULTS[kind])) == sorted(map(repr, _crd_defaults(path)))


@functools.cache
def _snapshot_inputs() -> list[Any]:
    """v1beta1 DGD/DCD/DGDR shapes: the corpus, the operator-verified cases, edge shapes of what the
    webhook defaulter writes into (absent or null metadata, annotations and spec, provider overrides at the
    root, on components and on multinode roles)."""
    from tests.oracles import _operator_cases as cases

    out: list[Any] = []
    for path in sorted((SHARED / "reference" / "dynamo" / "corpus" / "v1beta1").glob("*.yaml")):
        out += [d for d in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
                if isinstance(d, dict) and str(d.get("apiVersion")) == "nvidia.com/v1beta1"]
    for path in cases.case_files():
        doc = cases.load_case(path)["input"]
        if isinstance(doc, dict) and doc.get("apiVersion") == "nvidia.com/v1beta1":
            out.append(doc)
    override = {"apiVersion": "grove.io/v1alpha1", "value": {"spec": {}}}
    comp = {"name": "w", "type": "worker", "providerOverride": dict(override),
            "multinode": {"nodeCount": 2, "leader": {"providerOverride": dict(override)},
                          "worker": {"providerOverride": dict(override)}}}
    out += [
        {**beta_dgd(), "metadata": None},
        {**beta_dgd(), "metadata": {"name": "g", "annotations": None}},
        {**beta_dgd(), "spec": None},
        {**beta_dgd(), "spec": {"providerOverride": dict(override), "components": [comp, "not-a-mapping", {}]}},
        {**beta_dcd(), "spec": {}},
        {**beta_dgdr(), "spec": {"model": "m"}},
    ]
    return out


@pytest.mark.parametrize("op", ["CREATE", "UPDATE"])
@pytest.mark.parametrize("grove", [True, False])
def test_defaulter_snapshot_is_a_faithful_before(op: str, grove: bool) -> None:
    """``default_schema_defaulted`` tells whether the webhook defaulter changed the object (then the Go round
    trip runs) by comparing it with :func:`defaulter_snapshot`: the defaulter's writes never reach the
    snapshot, so it still equals a deep copy taken before, and the verdict is the deep copy's."""
    from dynamo_schema._admission import _defaults as d
    from dynamo_schema._admission import crd_defaults

    settings = AdmissionSettings(grove_enabled=grove)
    changed = 0
    inputs = _snapshot_inputs()
    assert len(inputs) > 100
    for doc in inputs:
        obj = crd_defaults(copy.deepcopy(doc))
        deep = copy.deepcopy(obj)
        snap = d.defaulter_snapshot(obj)
        kind = obj.get("kind")
        if kind == "DynamoGraphDeployment":
            d._default_dgd(obj, settings, op)
        elif kind == "DynamoComponentDeployment":
            d._default_dcd(obj, op)
        else:
            d._default_dgdr(obj, settings, op)
        assert snap == deep
        assert (obj != snap) == (obj != deep)
        changed += obj != deep
    assert changed > 50 if op == "CREATE" else changed > 0
