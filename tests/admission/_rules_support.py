"""Builders and constants shared by the per-rule admission tests (test_dgd_rules.py,
test_dcd_rules.py, test_dgdr_rules.py, test_provider_override_rules.py, test_shared_rules.py,
test_update_rules.py), and ``register``, which turns a table of (rule id, accepted case, rejected
case, expected errors) rows into one ``test_<rule>_accepted`` and ``test_<rule>_rejected`` per row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._core._diagnostics import Diagnostic
from tests.admission._admission_helpers import beta_dgd, errors, run, run_update, with_gpu, worker

Check = Callable[[], list[Diagnostic]]
Case = tuple[str, Check, Check, list[str]]

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


def _slug(rule: str) -> str:
    return rule.replace(".", "_").replace("-", "_")


def _make(
    rule: str,
    ok: Callable[[], list[Diagnostic]],
    bad: Callable[[], list[Diagnostic]],
    want: list[str],
    namespace: dict[str, Any],
) -> None:
    def accepted() -> None:
        assert errors(ok()) == []

    def rejected() -> None:
        diags = bad()
        assert errors(diags) == want
        assert rule in {d.rule for d in diags if d.severity == "error"}

    accepted.__name__ = f"test_{_slug(rule)}_accepted"
    rejected.__name__ = f"test_{_slug(rule)}_rejected"
    namespace[accepted.__name__] = accepted
    namespace[rejected.__name__] = rejected


def register(cases: list[Case], namespace: dict[str, Any]) -> None:
    """Add the accepted/rejected tests of ``cases`` to a test module's ``namespace`` (its ``globals()``)."""
    for case in cases:
        _make(*case, namespace)
