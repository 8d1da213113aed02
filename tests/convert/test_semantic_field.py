"""``semantic_field`` (one main-container field of a v1alpha1 service) is what the whole merge
(``_semantic_main``: the dedicated fields, then ``extraPodSpec.mainContainer`` over them) says about it.

The origin restore of the v1beta1 -> v1alpha1 conversion compares one field at a time; here both ways
must give the same value on the services of the upstream corpus (v1alpha1 as written, v1beta1 converted)
and on generated services, malformed ones included (where the whole merge fails on another field, the
one field may still be read; where the one field fails, so does the whole merge). And the conversions
made with each way are the same, failures included, on the inputs and generated variations of
``test_alpha_view``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._convert import _spoke_restore
from dynamo_schema._convert._v1alpha1 import to_v1alpha1
from tests.convert.test_alpha_view import INPUTS, _variations
from tests.convert.test_alpha_view import _outcome as _alpha_outcome

FIELDS = ("env", "envFrom", "volumeMounts", "resources", "livenessProbe", "readinessProbe")
CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "dynamo" / "corpus").resolve()


def _outcome(fn: Any, *args: Any) -> tuple[Any, ...]:
    try:
        return ("ok", fn(*args))
    except Exception as exc:  # the same failure, or none
        return ("error", type(exc).__name__, str(exc))


def _whole(svc: Any, field: str) -> Any:
    return _spoke_restore._semantic_main(svc).get(field)


def _same(svc: Any) -> None:
    before = copy.deepcopy(svc)
    for field in FIELDS:
        whole = _outcome(_whole, svc, field)
        one = _outcome(_spoke_restore.semantic_field, svc, field)
        if whole[0] == "ok":
            assert one == whole, field
        if one[0] == "error":
            assert whole[0] == "error", field
    assert svc == before


def _services() -> list[Any]:
    out: list[Any] = []
    for folder in ("v1alpha1", "v1beta1"):
        for f in sorted((CORPUS / folder).glob("*.yaml")):
            try:
                docs = list(yaml.load_all(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
            except yaml.YAMLError:
                continue
            for d in docs:
                if not (isinstance(d, dict) and d.get("kind") == "DynamoGraphDeployment"):
                    continue
                if d.get("apiVersion") == "nvidia.com/v1beta1":
                    try:
                        d = to_v1alpha1(d)
                    except Exception:
                        continue
                services = (d.get("spec") or {}).get("services")
                if isinstance(services, dict):
                    out += list(services.values())
    return out


SERVICES = _services()


def test_the_services_are_there() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared corpus not available")
    assert len(SERVICES) > 300
    main = [s for s in SERVICES if isinstance(s, dict) and ((s.get("extraPodSpec") or {}).get("mainContainer"))]
    assert len(main) > 100  # the merge with a main container is exercised


@pytest.mark.parametrize("index", range(len(SERVICES)))
def test_corpus_services(index: int) -> None:
    _same(SERVICES[index])


_ODD = st.sampled_from([None, 0, False, "", "x", [], {}, [1], [{}], {"a": 1}])
_ENV = st.lists(st.one_of(st.fixed_dictionaries({"name": st.sampled_from(["A", "B"])},
                                                optional={"value": st.sampled_from(["1", "2"])}), _ODD), max_size=3)
_MOUNTS = st.lists(st.one_of(st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["m", "cache"]), "mountPoint": st.sampled_from(["/m", ""]),
    "mountPath": st.sampled_from(["/m", "/x"]), "useAsCompilationCache": st.booleans()}), _ODD), max_size=3)
_RES = st.one_of(st.fixed_dictionaries({}, optional={
    "requests": st.fixed_dictionaries({}, optional={"cpu": st.just("1"), "gpu": st.just("1")}),
    "limits": st.fixed_dictionaries({}, optional={"memory": st.just("1Gi"), "gpu": st.just("2")}),
    "claims": st.just([{"name": "c"}])}), _ODD)
_PROBE = st.one_of(st.fixed_dictionaries({}, optional={"httpGet": st.just({"path": "/h", "port": 8000}),
                                                         "periodSeconds": st.sampled_from([0, 5])}), _ODD)
_NATIVE_RES = st.one_of(st.just({"limits": {"nvidia.com/gpu": "1"}}), st.just({"requests": {"cpu": "2"}}), _ODD)
_MAIN = st.one_of(st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["main", ""]), "image": st.just("i"), "env": _ENV,
    "envFrom": st.one_of(st.just([{"secretRef": {"name": "s"}}]), _ODD),
    "volumeMounts": st.lists(st.fixed_dictionaries({"name": st.just("m"), "mountPath": st.just("/y")}), max_size=2),
    "resources": _NATIVE_RES, "livenessProbe": _PROBE, "readinessProbe": _PROBE}), _ODD)
_SERVICE = st.fixed_dictionaries({}, optional={
    "envs": st.one_of(_ENV, _ODD), "envFromSecret": st.one_of(st.just("sec"), _ODD),
    "volumeMounts": st.one_of(_MOUNTS, _ODD), "resources": _RES,
    "livenessProbe": _PROBE, "readinessProbe": _PROBE,
    "extraPodSpec": st.one_of(st.fixed_dictionaries({}, optional={"mainContainer": _MAIN}), _ODD)})


@settings(max_examples=500, deadline=None)
@given(_SERVICE)
def test_generated_services(svc: dict[str, Any]) -> None:
    _same(svc)


def _conversions(obj: dict[str, Any]) -> list[tuple[Any, ...]]:
    from dynamo_schema._convert._v1alpha1 import alpha_spec_view

    return [_alpha_outcome(fn, obj) for fn in (to_v1alpha1, alpha_spec_view)]


def _converted_both_ways(obj: dict[str, Any]) -> None:
    one = _conversions(obj)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_spoke_restore, "semantic_field", _whole)
        whole = _conversions(obj)
    assert one == whole


@pytest.mark.parametrize("index", range(len(INPUTS)))
def test_corpus_conversions(index: int) -> None:
    _converted_both_ways(INPUTS[index])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variations())
def test_generated_conversions(obj: dict[str, Any]) -> None:
    _converted_both_ways(obj)
