"""The shortcuts of the admission stage give the verdicts of the long way (issue 11, performance).

* ``validate_preserved_alpha`` builds the v1alpha1 compatibility view only when a rule can fire
  (``needs_alpha_view``); here every object is also checked the long way (``_validate_view``: the
  conversion upstream always does) and both must agree, on the upstream corpus (v1beta1 as written,
  v1alpha1 converted) and on generated objects that carry exactly what the rules look at;
* ``apply_schema_defaults`` runs a plan compiled once per kind; the path-by-path walk (``_apply_path``
  over ``SCHEMA_DEFAULTS``) must give the same object, key order included.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._admission import AdmissionSettings, default
from dynamo_schema._admission._defaults import SCHEMA_DEFAULTS, _apply_path, apply_schema_defaults
from dynamo_schema._admission.rules._alpha import _validate_view, needs_alpha_view, validate_preserved_alpha
from tests._yaml import v1beta1_documents
from tests.admission._admission_helpers import SHARED

convert = pytest.importorskip("dynamo_schema._convert._v1alpha1")

CORPUS = SHARED / "reference" / "dynamo" / "corpus"
KINDS = ("DynamoGraphDeployment", "DynamoComponentDeployment")


def _corpus_objects() -> list[dict[str, Any]]:
    """Every DGD/DCD of the corpus as v1beta1 (v1alpha1 ones converted, preserved fields annotated)."""
    files = [f for folder in ("v1beta1", "v1alpha1") for f in sorted((CORPUS / folder).glob("*.yaml"))]
    return v1beta1_documents(files, KINDS)


OBJECTS = _corpus_objects()


def _both_ways(obj: dict[str, Any], alpha_source: bool = False) -> None:
    fast = validate_preserved_alpha(obj, alpha_source=alpha_source)
    slow = _validate_view(obj, obj.get("kind"), alpha_source)
    assert fast == slow
    if not alpha_source and not needs_alpha_view(obj):
        assert slow == []


def test_corpus_is_there() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared corpus not available")
    assert len(OBJECTS) > 100
    assert any(not needs_alpha_view(o) for o in OBJECTS)  # the shortcut is taken
    assert any(needs_alpha_view(o) for o in OBJECTS)


@pytest.mark.parametrize("index", range(len(OBJECTS)))
def test_corpus_alpha_verdicts_match(index: int) -> None:
    obj = OBJECTS[index]
    stored = default(obj, AdmissionSettings())  # what admission validates
    for o in (obj, stored):
        _both_ways(o)
        _both_ways(o, alpha_source=True)


# ----------------------------------------------------------------------------- generated objects

_TEXT = st.sampled_from(["", "x", "/cache", "main"])
_MOUNT = st.one_of(
    st.fixed_dictionaries({"name": _TEXT, "mountPath": st.sampled_from(["", "/cache", "/m", None, 3])}),
    st.fixed_dictionaries({"name": _TEXT}),
    st.none(),
)
_CONTAINER = st.one_of(
    st.fixed_dictionaries({"name": st.sampled_from(["main", "main", "sidecar-frontend", "other"]),
                           "volumeMounts": st.one_of(st.lists(_MOUNT, min_size=1, max_size=2), st.none())}),
    st.none(),
)
_FAILOVER = st.fixed_dictionaries(
    {"mode": st.sampled_from(["IntraPod", "InterPod", "intraPod"]), "numShadows": st.sampled_from([0, 1, 2, None])},
    optional={"enabled": st.booleans()},
)


def _maybe(strategy: Any) -> Any:
    return st.one_of(st.none(), strategy)


@st.composite
def _component(draw: Any) -> dict[str, Any]:
    """A component with a few of the fields the compatibility rules look at (each likely present)."""
    c: dict[str, Any] = {"name": draw(st.sampled_from(["frontend", "worker", "decode", "prefill"])),
                         "type": draw(st.sampled_from(["frontend", "worker", "epp"]))}
    pool = {
        "sharedMemorySize": st.sampled_from(["0", "1Gi"]),
        "eppConfig": st.fixed_dictionaries({}, optional={
            "configMapRef": st.fixed_dictionaries({"name": _TEXT}), "config": st.just({"a": 1})}),
        "compilationCache": st.fixed_dictionaries({"pvcName": _TEXT, "mountPath": st.sampled_from(["", "/cache"])}),
        "frontendSidecar": st.sampled_from(["sidecar-frontend", "other"]),
        "experimental": st.fixed_dictionaries({}, optional={
            "failover": _maybe(_FAILOVER),
            "gpuMemoryService": st.fixed_dictionaries({"mode": st.sampled_from(["IntraPod", "InterPod"])}),
        }),
        "podTemplate": st.one_of(
            st.fixed_dictionaries({"spec": st.fixed_dictionaries({"containers": st.lists(_CONTAINER, max_size=2)})}),
            st.just({}), st.just({"spec": None}), st.just({"spec": {"containers": None}}),
        ),
        "globalDynamoNamespace": st.booleans(),
    }
    for key in draw(st.lists(st.sampled_from(sorted(pool)), max_size=3, unique=True)):
        c[key] = draw(_maybe(pool[key])) if draw(st.integers(0, 5)) == 0 else draw(pool[key])
    return c


_COMPONENT = _component()
_ANNOTATIONS = st.dictionaries(
    st.sampled_from(["nvidia.com/dgd-spec", "nvidia.com/dcd-spec", "nvidia.com/dgd-status", "other/key",
                     "nvidia.com/enable-grove"]),
    st.sampled_from(["", "{}", "not json", '{"services": {"worker": {"dynamoNamespace": "ns"}}}',
                     '{"spec": {"ingress": {"enabled": true}}}']),
    max_size=2,
)


@st.composite
def _objects(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    meta: dict[str, Any] = {"name": "g", "namespace": "default"}
    if draw(st.booleans()):
        meta["annotations"] = draw(_ANNOTATIONS)
    obj: dict[str, Any] = {"apiVersion": "nvidia.com/v1beta1", "kind": kind, "metadata": meta}
    if kind == "DynamoGraphDeployment":
        comps = draw(st.lists(_COMPONENT, max_size=3, unique_by=lambda c: c["name"]))
        spec: dict[str, Any] = {"backendFramework": "vllm", "components": comps}
        if draw(st.integers(0, 9)) == 0:
            spec["pvcs"] = [{"name": draw(_TEXT)}]
    else:
        spec = {"backendFramework": "vllm", **draw(_COMPONENT)}
    obj["spec"] = spec
    return obj


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_objects())
def test_generated_alpha_verdicts_match(obj: dict[str, Any]) -> None:
    _both_ways(obj)
    _both_ways(obj, alpha_source=True)


def test_generated_objects_reach_the_rules() -> None:
    """The generator makes objects some rule fires on while no conversion annotation is present
    (else the test above would only compare empty lists)."""
    obj = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"components": [{"name": "worker", "experimental": {"failover": {"mode": "IntraPod",
                                                                                   "numShadows": 3}},
                                    "podTemplate": {"spec": {"containers": [
                                        {"name": "main", "volumeMounts": [{"name": "x", "mountPath": ""}]}]}}}]}}
    assert needs_alpha_view(obj)
    rules = {d.rule for d in validate_preserved_alpha(obj)}
    assert rules == {"dgd.v1alpha1-failover-num-shadows", "dgd.v1alpha1-volume-mount-point"}


# ----------------------------------------------------------------------------- schema defaults


def _path_by_path(obj: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    for path, value in SCHEMA_DEFAULTS.get(out.get("kind"), ()):
        _apply_path(out, path, value)
    return out


def _planned(obj: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    apply_schema_defaults(out)
    return out


def _same(a: Any, b: Any) -> None:
    assert json.dumps(a) == json.dumps(b)  # equal, and keys in the same order


@pytest.mark.parametrize("index", range(len(OBJECTS)))
def test_corpus_schema_defaults_match(index: int) -> None:
    _same(_planned(OBJECTS[index]), _path_by_path(OBJECTS[index]))


_POD_SPEC = st.fixed_dictionaries({}, optional={
    "containers": st.lists(st.fixed_dictionaries({"name": _TEXT}, optional={
        "ports": st.lists(st.fixed_dictionaries({}, optional={"protocol": st.sampled_from([None, "UDP"]),
                                                              "containerPort": st.integers(1, 9)}), max_size=2),
        "env": st.lists(st.fixed_dictionaries({"name": _TEXT}, optional={"valueFrom": st.fixed_dictionaries(
            {}, optional={"secretKeyRef": st.fixed_dictionaries({}, optional={"name": st.one_of(st.none(), _TEXT)}),
                          "fileKeyRef": st.just({})})}), max_size=2),
        "livenessProbe": st.fixed_dictionaries({}, optional={"grpc": st.just({"port": 1})}),
    }), max_size=2),
    "volumes": st.lists(st.fixed_dictionaries({"name": _TEXT}, optional={
        "rbd": st.fixed_dictionaries({}, optional={"pool": st.one_of(st.none(), _TEXT)}),
        "projected": st.fixed_dictionaries({}, optional={"sources": st.lists(
            st.fixed_dictionaries({}, optional={"configMap": st.just({}), "secret": st.just({"name": None})}),
            max_size=2)}),
    }), max_size=2),
    "imagePullSecrets": st.one_of(st.lists(st.one_of(st.just({}), st.none()), max_size=2), st.just("x")),
})


@st.composite
def _defaults_input(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["DynamoGraphDeployment", "DynamoComponentDeployment",
                                 "DynamoGraphDeploymentRequest"]))
    comp = {"name": "c", "multinode": draw(st.one_of(st.none(), st.just({}))),
            "experimental": draw(st.one_of(st.none(), st.just({"checkpoint": {"identity": {}}}))),
            "podTemplate": {"spec": draw(_POD_SPEC)}}
    if kind == "DynamoGraphDeployment":
        spec: Any = {"components": [comp, copy.deepcopy(comp)], "restart": {"strategy": {}},
                     "env": [{"name": "A", "valueFrom": {"configMapKeyRef": {}}}]}
    elif kind == "DynamoComponentDeployment":
        spec = comp
    else:
        spec = {"workload": {}, "overrides": {"profilingJob": {"template": {"spec": draw(_POD_SPEC)}}}}
    return {"apiVersion": "nvidia.com/v1beta1", "kind": kind, "spec": draw(st.one_of(st.just(spec), st.none())),
            "status": draw(st.one_of(st.just({}), st.just({"state": None})))}


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_defaults_input())
def test_generated_schema_defaults_match(obj: dict[str, Any]) -> None:
    _same(_planned(obj), _path_by_path(obj))


def test_shared_subtrees_default_like_the_path_walk() -> None:
    """A YAML alias makes one dict appear twice; both walks fill it the same way."""
    container = {"name": "main", "ports": [{"containerPort": 1}]}
    obj = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
           "spec": {"components": [{"name": "a", "podTemplate": {"spec": {"containers": [container]}}},
                                   {"name": "b", "podTemplate": {"spec": {"containers": [container]}}}]}}
    _same(_planned(obj), _path_by_path(obj))
