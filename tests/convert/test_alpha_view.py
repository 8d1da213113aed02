"""The v1alpha1 compatibility view (``alpha_spec_view``) is the full conversion's spec and status.

Admission's preserved-alpha rules and the render's alpha metadata read only the spec of a v1beta1
object's v1alpha1 view, so the view is converted without the hub save (``nvidia.com/dgd-spec`` /
``nvidia.com/dcd-spec``). Here both ways must give the same spec and status, or the same failure, on
the upstream corpus (v1beta1 as written, v1alpha1 converted; both also as admission stores them), the
upstream golden inputs and generated variations of them, malformed ones included.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._admission import AdmissionSettings, default
from dynamo_schema._convert import _v1alpha1 as convert
from tests._yaml import v1beta1_documents

SHARED = (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()
DYNAMO = SHARED / "reference" / "dynamo"
KINDS = ("DynamoGraphDeployment", "DynamoComponentDeployment")


def _alpha_dcds(dgd: dict[str, Any]) -> list[dict[str, Any]]:
    """Each service of a v1alpha1 DGD as a v1alpha1 DCD (what the operator's alpha carrier is): converted
    to v1beta1, it carries a ``nvidia.com/dcd-spec`` spoke payload."""
    services = (dgd.get("spec") or {}).get("services")
    if not isinstance(services, dict):
        return []
    meta = dgd.get("metadata") or {}
    return [{"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
             "metadata": {"name": f"{meta.get('name')}-{name}".lower(), "namespace": meta.get("namespace") or "default"},
             "spec": copy.deepcopy(svc)} for name, svc in services.items() if isinstance(svc, dict)]


def _inputs() -> list[dict[str, Any]]:
    files = [p for folder in ("corpus/v1beta1", "corpus/v1alpha1") for p in sorted((DYNAMO / folder).glob("*.yaml"))]
    files += sorted((DYNAMO / "golden").glob("*/*/input.yaml"))
    out: list[dict[str, Any]] = []
    for d in v1beta1_documents(files, KINDS, lambda a: _alpha_dcds(a) if a.get("kind") == KINDS[0] else []):
        out.append(d)
        try:
            out.append(default(copy.deepcopy(d), AdmissionSettings()))
        except Exception:
            pass
    return out


INPUTS = _inputs()


def _outcome(convert_fn: Any, obj: dict[str, Any]) -> tuple[Any, ...]:
    try:
        out = convert_fn(copy.deepcopy(obj))
    except Exception as exc:  # the same failure, or none
        return ("error", type(exc).__name__, str(exc))
    return ("ok", "spec" in out, out.get("spec"), "status" in out, out.get("status"))


def _same_view(obj: dict[str, Any]) -> None:
    before = copy.deepcopy(obj)
    assert _outcome(convert.alpha_spec_view, obj) == _outcome(convert.to_v1alpha1, obj)
    assert _outcome(convert.alpha_by_content, obj) == _outcome(convert.to_v1alpha1, obj)
    assert obj == before


def test_the_inputs_are_there() -> None:
    if not DYNAMO.is_dir():
        pytest.skip("../shared reference not available")
    assert len(INPUTS) > 300
    anns = [((o.get("metadata") or {}).get("annotations") or {}) for o in INPUTS]
    assert sum("nvidia.com/dgd-spec" in a for a in anns) > 50  # spoke payloads restored into the view
    assert sum("nvidia.com/dcd-spec" in a for a in anns) > 50
    # and conversions whose hub save is not empty (what the view leaves out)
    assert sum("nvidia.com/dgd-spec" in ((convert.to_v1alpha1(o).get("metadata") or {}).get("annotations") or {})
               for o in INPUTS if o.get("kind") == "DynamoGraphDeployment") > 50


@pytest.mark.parametrize("index", range(len(INPUTS)))
def test_the_view_is_the_conversion(index: int) -> None:
    _same_view(INPUTS[index])


_ODD = st.one_of(st.none(), st.just(1), st.just("x"), st.just([]), st.just({}), st.just([1]), st.just([{}]),
                 st.just({"name": 1}))
_CONTAINER = st.fixed_dictionaries({"name": st.sampled_from(["main", "sidecar-frontend", "side", ""])}, optional={
    "image": st.sampled_from(["img:1", ""]),
    "args": st.lists(st.sampled_from(["--a", "b"]), max_size=2),
    "env": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["A", "B"]), "value": st.just("1")}), max_size=2),
    "volumeMounts": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["cache", "m"]),
                                                    "mountPath": st.sampled_from(["/cache", "", "/m"])}), max_size=2),
    "resources": st.one_of(st.just({}), st.just({"limits": {"nvidia.com/gpu": "1"}})),
    "ports": st.just([{"containerPort": 8000}]),
})
_FIELD = st.sampled_from(["podTemplate", "frontendSidecar", "experimental", "eppConfig", "compilationCache",
                          "sharedMemorySize", "resources", "env", "type", "replicas", "name"])
_VALUES: dict[str, Any] = {
    "podTemplate": st.one_of(
        st.fixed_dictionaries({"spec": st.fixed_dictionaries({"containers": st.lists(_CONTAINER, max_size=3)})},
                              optional={"metadata": st.sampled_from([{}, {"labels": {"a": "b"}},
                                                                     {"annotations": {"a": "b"}, "name": "n"}])}),
        _ODD),
    "frontendSidecar": st.one_of(st.sampled_from(["sidecar-frontend", "side", ""]), _ODD),
    "experimental": st.one_of(st.fixed_dictionaries({}, optional={
        "failover": st.just({"mode": "intraPod", "numShadows": 1}),
        "gpuMemoryService": st.just({"mode": "IntraPod"}),
        "grove": st.just({"x": 1}),
        "checkpoint": st.just({"enabled": True}),
    }), _ODD),
    "eppConfig": st.one_of(st.just({"configMapRef": {"name": "c"}}), _ODD),
    "compilationCache": st.one_of(st.just({"pvcName": "p", "mountPath": "/cache"}), _ODD),
    "sharedMemorySize": st.one_of(st.sampled_from(["0", "1Gi"]), _ODD),
    "resources": st.one_of(st.just({"limits": {"gpu": "1"}}), _ODD),
    "env": st.one_of(st.just([{"name": "A", "value": "1"}]), _ODD),
    "type": st.one_of(st.sampled_from(["worker", "prefill", "decode", "frontend"]), _ODD),
    "replicas": st.one_of(st.just(2), _ODD),
    "name": st.one_of(st.sampled_from(["a", "worker", "z"]), _ODD),
}


@st.composite
def _variations(draw: Any) -> dict[str, Any]:
    obj = copy.deepcopy(draw(st.sampled_from(INPUTS)))
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return obj
    comps = spec.get("components") if obj["kind"] == "DynamoGraphDeployment" else [spec]
    if not isinstance(comps, list) or not comps:
        return obj
    for _ in range(draw(st.integers(1, 3))):
        comp = comps[draw(st.integers(0, len(comps) - 1))]
        if not isinstance(comp, dict):
            continue
        field = draw(_FIELD)
        if draw(st.integers(0, 6)) == 0:
            comp.pop(field, None)
        else:
            comp[field] = draw(_VALUES[field])
    if obj["kind"] == "DynamoGraphDeployment" and draw(st.integers(0, 5)) == 0:
        comps.reverse()  # an unsorted hub order: every component saved
    return obj


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variations())
def test_the_view_of_generated_objects_is_the_conversion(obj: dict[str, Any]) -> None:
    _same_view(obj)

