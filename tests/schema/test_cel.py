"""CEL (``x-kubernetes-validations``) rules of the v1beta1 CRDs, evaluated by hand-written translations.

Messages are the CRDs' ``message`` texts (also listed in spec/dgd-dcd-model.md), wrapped the way
apiextensions-apiserver's CEL validator reports a failed rule in Kubernetes 1.36: ``Invalid value: <message>``
(no value; older releases printed the schema type, ``Invalid value: "object": <message>``). Evidence:
the operator cases, e.g. ``0099-dgd-grove-kvtransfer-preferred-no-weig-denied`` and
``0195-dgd-k8s-dup-name-exact-denied`` (a rule on the components array).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import yaml

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _structural as S

from ._crds import CRDS, FILES, crd_schema, dcd, dgd

DGD = "DynamoGraphDeployment"
DCD = "DynamoComponentDeployment"


def _all_crd_rules(version: str = "v1beta1") -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for kind, fname in FILES.items():
        path = CRDS / fname
        if not path.is_file():
            pytest.skip("../shared reference CRDs are not available")
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        for v in doc["spec"]["versions"]:
            if v["name"] != version:
                continue

            stack: list[Any] = [v["schema"]["openAPIV3Schema"]]
            while stack:
                n = stack.pop()
                if isinstance(n, dict):
                    out.extend((kind, r["rule"], r) for r in n.get("x-kubernetes-validations") or [])
                    stack.extend(n.values())
                elif isinstance(n, list):
                    stack.extend(n)
    return out


def test_every_crd_rule_has_a_translation() -> None:
    rules = _all_crd_rules()
    assert len({r for _, r, _ in rules}) >= 12
    missing = sorted({r for _, r, _ in rules if C.rule_id(r) is None})
    assert missing == [], f"CEL rules without a Python translation: {missing}"


def test_crd_messages_match_the_expected_texts() -> None:
    # each rule's message as written in the CRD is the one the cases below expect
    by_rule = {r: spec.get("message") for _, r, spec in _all_crd_rules()}
    for case in CASES:
        rid = case[1]
        texts = [r for r in by_rule if C.rule_id(r) == rid]
        assert texts, rid
        assert {by_rule[t] for t in texts} == {case[3]}, rid


def _c(doc: dict[str, Any], i: int) -> dict[str, Any]:
    return doc["spec"]["components"][i]  # type: ignore[no-any-return]


def _pod(doc: dict[str, Any], i: int = 1) -> dict[str, Any]:
    return _c(doc, i)["podTemplate"]  # type: ignore[no-any-return]


def _gms(doc: dict[str, Any], value: dict[str, Any]) -> None:
    _c(doc, 1)["experimental"] = {"gpuMemoryService": value}


def _kv(doc: dict[str, Any], value: dict[str, Any]) -> None:
    doc["spec"]["experimental"] = {"kvTransferPolicy": {"domain": "zone", **value}}


Mut = Callable[[dict[str, Any]], None]

# (kind, rule id, path, message, reject mutation, accept mutation)
CASES: list[tuple[str, str, tuple[Any, ...], str, Mut, Mut]] = [
    (
        DGD,
        "cel.restart-unset-on-create",
        ("spec",),
        "spec.restart must be unset on create; set spec.restart.id after creation to request a restart",
        lambda d: d["spec"].__setitem__("restart", {"id": "r1"}),
        lambda d: None,
    ),
    (
        DGD,
        "cel.single-epp",
        ("spec", "components"),
        "at most one component may have type epp",
        lambda d: (_c(d, 0).__setitem__("type", "epp"), _c(d, 1).__setitem__("type", "epp")),
        lambda d: _c(d, 0).__setitem__("type", "epp"),
    ),
    (
        DGD,
        "cel.unique-component-names",
        ("spec", "components"),
        "component names must be unique case-insensitively",
        lambda d: _c(d, 1).__setitem__("name", "FRONTEND"),
        lambda d: _c(d, 1).__setitem__("name", "Frontend2"),
    ),
    (
        DGD,
        "cel.epp-config-type",
        ("spec", "components", 1),
        "eppConfig may only be set when type is epp",
        lambda d: _c(d, 1).__setitem__("eppConfig", {"configMapRef": {"name": "cm", "key": "k"}}),
        lambda d: _c(d, 1).update({"type": "epp", "eppConfig": {"configMapRef": {"name": "cm", "key": "k"}}}),
    ),
    (
        DGD,
        "cel.min-available",
        ("spec", "components", 1),
        "minAvailable must be less than or equal to replicas unless replicas is 0",
        lambda d: _c(d, 1).update({"replicas": 2, "minAvailable": 3}),
        lambda d: _c(d, 1).update({"replicas": 0, "minAvailable": 3}),
    ),
    (
        DGD,
        "cel.epp-config-source",
        ("spec", "components", 1, "eppConfig"),
        "exactly one of configMapRef or config must be specified",
        lambda d: _c(d, 1).update({"type": "epp", "eppConfig": {}}),
        lambda d: _c(d, 1).update(
            {"type": "epp", "eppConfig": {"config": {"schedulingProfiles": [], "plugins": []}}}
        ),
    ),
    (
        DGD,
        "cel.checkpoint-job",
        ("spec", "components", 1, "experimental", "checkpoint"),
        "checkpoint.job cannot be set when checkpointRef is specified",
        lambda d: _c(d, 1).__setitem__(
            "experimental", {"checkpoint": {"enabled": True, "checkpointRef": "snap", "job": {}}}
        ),
        lambda d: _c(d, 1).__setitem__(
            "experimental", {"checkpoint": {"enabled": True, "checkpointRef": "", "job": {}}}
        ),
    ),
    (
        DGD,
        "cel.gms-extra-client-containers",
        ("spec", "components", 1, "experimental", "gpuMemoryService"),
        "extraClientContainers is only supported with mode=IntraPod",
        lambda d: _gms(d, {"mode": "InterPod", "extraClientContainers": ["sidecar"]}),
        lambda d: _gms(d, {"extraClientContainers": ["sidecar"]}),  # mode defaults to IntraPod
    ),
    (
        DGD,
        "cel.gms-extra-client-pods-mode",
        ("spec", "components", 1, "experimental", "gpuMemoryService"),
        "extraClientPods is only supported with mode=InterPod",
        lambda d: _gms(d, {"extraClientPods": [{"name": "p", "podTemplate": {}}]}),
        lambda d: _gms(d, {"extraClientPods": []}),
    ),
    (
        DGD,
        "cel.gms-extra-client-pods",
        ("spec", "components", 1, "experimental", "gpuMemoryService"),
        "extraClientPods is reserved for inter-pod GMS and is not implemented yet",
        lambda d: _gms(d, {"mode": "InterPod", "extraClientPods": [{"name": "p", "podTemplate": {}}]}),
        lambda d: _gms(d, {"mode": "InterPod"}),
    ),
    (
        DGD,
        "cel.vllm-backend-annotation",
        ("spec", "components", 1, "podTemplate", "metadata", "annotations"),
        "podTemplate backend annotation must be mp or ray, case-insensitively",
        lambda d: _pod(d).__setitem__(
            "metadata", {"annotations": {"nvidia.com/vllm-distributed-executor-backend": "mpi"}}
        ),
        lambda d: _pod(d).__setitem__(
            "metadata", {"annotations": {"nvidia.com/vllm-distributed-executor-backend": "RAY"}}
        ),
    ),
    (
        DGD,
        "cel.sidecar-image",
        ("spec", "components", 1, "podTemplate", "spec", "containers", 1),
        "sidecar containers must specify a non-empty image",
        lambda d: _pod(d)["spec"]["containers"].append({"name": "proxy", "image": ""}),
        lambda d: _pod(d)["spec"]["containers"].append({"name": "proxy", "image": "envoy:1"}),
    ),
    (
        DGD,
        "cel.init-container-image",
        ("spec", "components", 1, "podTemplate", "spec", "initContainers", 0),
        "init containers must specify a non-empty image",
        lambda d: _pod(d)["spec"].__setitem__(
            "initContainers", [{"name": "runtime", "restartPolicy": "Always"}]
        ),
        lambda d: _pod(d)["spec"].__setitem__(
            "initContainers", [{"name": "runtime", "restartPolicy": "Always", "image": "rt:1"}]
        ),
    ),
    (
        DGD,
        "cel.kv-transfer-target",
        ("spec", "experimental", "kvTransferPolicy"),
        "exactly one of labelKey or clusterTopologyName is required",
        lambda d: _kv(d, {"labelKey": "topology.kubernetes.io/zone", "clusterTopologyName": "ct"}),
        lambda d: _kv(d, {"clusterTopologyName": "ct"}),
    ),
    (
        DGD,
        "cel.preferred-weight-required",
        ("spec", "experimental", "kvTransferPolicy"),
        "preferredWeight is required when enforcement is preferred",
        lambda d: _kv(d, {"labelKey": "zone", "enforcement": "preferred"}),
        lambda d: _kv(d, {"labelKey": "zone", "enforcement": "preferred", "preferredWeight": 0.5}),
    ),
    (
        DGD,
        "cel.preferred-weight-forbidden",
        ("spec", "experimental", "kvTransferPolicy"),
        "preferredWeight may only be set when enforcement is preferred",
        lambda d: _kv(d, {"labelKey": "zone", "preferredWeight": 0.5}),  # enforcement defaults to required
        lambda d: _kv(d, {"labelKey": "zone", "enforcement": "required"}),
    ),
    (
        DGD,
        "cel.label-key-prefix",
        ("spec", "experimental", "kvTransferPolicy", "labelKey"),
        "labelKey prefix must be 253 characters or less",
        lambda d: _kv(d, {"labelKey": ("a" * 61 + ".") * 4 + "b" * 10 + "/zone"}),
        lambda d: _kv(d, {"labelKey": "topology.kubernetes.io/zone"}),
    ),
]

# rules of the DCD CRD at the spec level (same texts, path ``spec``)
DCD_CASES: list[tuple[str, tuple[Any, ...], str, Mut, Mut]] = [
    (
        "cel.epp-config-type",
        ("spec",),
        "eppConfig may only be set when type is epp",
        lambda d: d["spec"].__setitem__("eppConfig", {"config": {"schedulingProfiles": [], "plugins": []}}),
        lambda d: d["spec"].update(
            {"type": "epp", "eppConfig": {"config": {"schedulingProfiles": [], "plugins": []}}}
        ),
    ),
    (
        "cel.min-available",
        ("spec",),
        "minAvailable must be less than or equal to replicas unless replicas is 0",
        lambda d: d["spec"].update({"replicas": 1, "minAvailable": 2}),
        lambda d: d["spec"].update({"replicas": 2, "minAvailable": 2}),
    ),
    (
        "cel.min-available",
        ("spec",),
        "minAvailable must be less than or equal to replicas unless replicas is 0",
        lambda d: (
            d["spec"].pop("replicas"),
            d["spec"].update({"minAvailable": 2}),
        ),  # replicas absent: bound 1
        lambda d: (d["spec"].pop("replicas"), d["spec"].update({"minAvailable": 1})),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_rule_rejects(case: tuple[str, str, tuple[Any, ...], str, Mut, Mut]) -> None:
    kind, rid, path, message, reject, _ = case
    doc = dgd()
    reject(doc)
    schema = crd_schema(kind)
    assert [e for e in S.validate(doc, schema) if e.severity == "error"] == []  # structurally fine
    got = [(d.rule, d.path, d.message) for d in C.validate_cel(doc, schema)]
    expected = [(rid, path, f"Invalid value: {message}")]
    if rid == "cel.gms-extra-client-pods-mode":
        # any non-empty extraClientPods also fails the "reserved" rule that follows it in the CRD
        expected.append(
            (
                "cel.gms-extra-client-pods",
                path,
                'Invalid value: extraClientPods is reserved for inter-pod GMS and is not implemented yet',
            )
        )
    assert got == expected


@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_rule_accepts(case: tuple[str, str, tuple[Any, ...], str, Mut, Mut]) -> None:
    kind, _, _, _, _, accept = case
    doc = dgd()
    accept(doc)
    schema = crd_schema(kind)
    assert [e for e in S.validate(doc, schema) if e.severity == "error"] == []
    assert C.validate_cel(doc, schema) == []


@pytest.mark.parametrize("case", DCD_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(DCD_CASES)])
def test_dcd_rules(case: tuple[str, tuple[Any, ...], str, Mut, Mut]) -> None:
    rid, path, message, reject, accept = case
    schema = crd_schema(DCD)
    doc = dcd()
    reject(doc)
    assert [(d.rule, d.path, d.message) for d in C.validate_cel(doc, schema)] == [
        (rid, path, f'Invalid value: {message}')
    ]
    doc = dcd()
    accept(doc)
    assert C.validate_cel(doc, schema) == []


def test_restart_allowed_on_update() -> None:
    schema = crd_schema(DGD)
    old = dgd()
    new = dgd()
    new["spec"]["restart"] = {"id": "r1"}
    assert C.validate_cel(new, schema, old=old) == []


def test_min_available_immutable_is_a_transition_rule() -> None:
    schema = crd_schema(DGD)
    old = dgd()
    _c(old, 1)["minAvailable"] = 1
    new = dgd()
    _c(new, 1)["minAvailable"] = 2
    # create: transition rules are not evaluated
    assert C.validate_cel(new, schema) == []
    got = [(d.rule, d.path, d.message) for d in C.validate_cel(new, schema, old=old)]
    assert got == [
        (
            "cel.min-available-immutable",
            ("spec", "components", 1),
            'Invalid value: minAvailable is immutable after creation',
        )
    ]
    # list-type map items correlate by name, not by index
    moved = dgd()
    moved["spec"]["components"].reverse()
    _c(moved, 0)["minAvailable"] = 1
    assert C.validate_cel(moved, schema, old=old) == []
    # DCD: spec-level
    dschema = crd_schema(DCD)
    o, n = dcd(), dcd()
    o["spec"]["minAvailable"] = 1
    n["spec"]["replicas"] = 3
    assert [d.rule for d in C.validate_cel(n, dschema, old=o)] == ["cel.min-available-immutable"]


def test_runtime_error_no_such_key() -> None:
    schema = crd_schema(DGD)
    doc = dgd()
    del _pod(doc)["spec"]["containers"][0]["name"]
    _pod(doc)["spec"]["containers"][0]["image"] = ""
    got = [(d.rule, d.message) for d in C.validate_cel(doc, schema, check_blocking=False)]
    assert got == [
        (
            "cel.sidecar-image",
            'Invalid value: no such key: name evaluating rule: sidecar containers must specify a non-empty image',
        )
    ]
    # ... but the API server never gets there: a missing required field blocks CEL evaluation
    structural = S.validate(doc, schema)
    assert [d.rule for d in structural] == ["schema.required"]
    assert C.validate_cel(doc, schema) == C.validate_cel(doc, schema, structural=structural)
    assert [(d.rule, d.path, d.message) for d in C.validate_cel(doc, schema, structural=structural)] == [
        (
            "cel.not-checked",
            (),
            (
                'Invalid value: null: some validation rules were not checked because the object was invalid; '
                "correct the existing errors to complete validation"
            ),
        )
    ]


def test_reason_field_path_and_default_message() -> None:
    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "eppConfig": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                    "type": {"type": "string"},
                },
                "x-kubernetes-validations": [
                    {
                        "rule": "!has(self.eppConfig) || (has(self.type) && self.type == 'epp')",
                        "reason": "FieldValueForbidden",
                        "fieldPath": ".eppConfig",
                    },
                ],
            }
        },
    }
    doc = {"spec": {"eppConfig": {}}}
    assert [(d.rule, d.path, d.message) for d in C.validate_cel(doc, schema)] == [
        (
            "cel.epp-config-type",
            ("spec", "eppConfig"),
            "Forbidden: failed rule: !has(self.eppConfig) || (has(self.type) && self.type == 'epp')",
        )
    ]


def test_rule_without_fast_path_is_evaluated_by_the_engine() -> None:
    from dynamo_schema._schema import _cel_engine

    schema = {"type": "object", "x-kubernetes-validations": [{"rule": "self.size() > 100", "message": "m"}]}
    got = [(d.rule, d.severity, d.message) for d in C.validate_cel({"a": 1}, schema)]
    if _cel_engine.available():
        assert got == [("cel.rule", "error", 'Invalid value: m')]
    else:  # Python 3.10: no engine wheels
        assert [(r, s) for r, s, _ in got] == [("cel.untranslated", "warning")]


def test_every_v1alpha1_crd_rule_has_a_translation_too() -> None:
    missing = sorted({r for _, r, _ in _all_crd_rules("v1alpha1") if C.rule_id(r) is None})
    assert missing == []


def _alpha_dgd(service: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "a"},
        "spec": {"services": {"Worker": {"componentType": "worker", **service}}, **spec},
    }


def test_v1alpha1_pvc_and_shared_memory_rules() -> None:
    schema = crd_schema(DGD, "v1alpha1")
    ok = _alpha_dgd(
        {"sharedMemory": {"size": "8Gi"}},
        pvcs=[
            {
                "name": "cache",
                "create": True,
                "size": "10Gi",
                "storageClass": "fast",
                "volumeAccessMode": "ReadWriteMany",
            }
        ],
    )
    assert [d for d in S.validate(ok, schema) if d.severity == "error"] == []
    assert C.validate_cel(ok, schema) == []
    bad = _alpha_dgd({"sharedMemory": {"size": "0"}}, pvcs=[{"name": "cache", "create": True}])
    assert sorted((d.rule, d.path, d.message) for d in C.validate_cel(bad, schema)) == [
        (
            "cel.pvc-create-fields",
            ("spec", "pvcs", 0),
            'Invalid value: When create is true, size, storageClass, and volumeAccessMode are required',
        ),
        (
            "cel.shared-memory-size",
            ("spec", "services", "Worker", "sharedMemory"),
            'Invalid value: size is required when disabled is false',
        ),
    ]
    disabled = _alpha_dgd({"sharedMemory": {"disabled": True}})
    assert C.validate_cel(disabled, schema) == []


def test_type_immutable_translation() -> None:
    # documented upstream rule (spec/dgd-dcd-model.md §3, CEL 4); not in every CRD revision
    rule = "!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)"
    schema = {
        "type": "object",
        "properties": {"type": {"type": "string"}},
        "x-kubernetes-validations": [{"rule": rule, "message": "type is immutable after it is set"}],
    }
    assert C.validate_cel({"type": "decode"}, schema) == []  # create: transition rule skipped
    assert C.validate_cel({"type": "worker"}, schema, old={"type": "worker"}) == []
    assert C.validate_cel({"type": "worker"}, schema, old={}) == []
    got = [(d.rule, d.path, d.message) for d in C.validate_cel({}, schema, old={"type": "worker"})]
    assert got == [("cel.type-immutable", (), 'Invalid value: type is immutable after it is set')]


def test_newer_type_rule_is_on_dgd_components_and_the_dcd_spec_only() -> None:
    """The transition rule newer CRDs carry (``type is immutable after it is set``) sits on DGD components and the
    DCD spec: an update of any other kind gets nothing from it, even one that has a ``components`` list (a DGDR,
    a DynamoModel, a DynamoCheckpoint: its schema refuses the field on its own)."""
    comps_old = {"components": [{"name": "w", "type": "worker"}]}
    comps_new = {"components": [{"name": "w", "type": "decode"}]}
    beta = "nvidia.com/v1beta1"
    for kind in ("DynamoGraphDeploymentRequest", "DynamoModel", "DynamoCheckpoint", "DynamoWorkerMetadata"):
        new = {"apiVersion": beta, "kind": kind, "spec": comps_new}
        assert C.newer_transition_rules(new, {**new, "spec": comps_old}, []) == [], kind
    new = {"apiVersion": beta, "kind": "DynamoGraphDeployment", "spec": comps_new}
    assert [(d.rule, d.path) for d in C.newer_transition_rules(new, {**new, "spec": comps_old}, [])] == [
        ("cel.type-immutable", ("spec", "components", 0))]
    # the DCD spec: only a type that was set and changed (set for the first time, or unchanged: nothing)
    # mutant e4e450422141
    dcd = {"apiVersion": beta, "kind": "DynamoComponentDeployment", "spec": {"type": "worker"}}
    assert C.newer_transition_rules(dcd, dcd, []) == []
    assert C.newer_transition_rules(dcd, {**dcd, "spec": {}}, []) == []
    assert [(d.rule, d.path) for d in C.newer_transition_rules({**dcd, "spec": {"type": "decode"}}, dcd, [])] == [
        ("cel.type-immutable", ("spec",))]
