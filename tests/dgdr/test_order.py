"""The fixed transform order of upstream ``materialize_dgd``: override -> model runtime constraints ->
tolerations -> trust-remote-code (``dgd_materialization.py``; upstream test
``test_materialize_dgd_applies_transforms_once_in_fixed_order`` expects events
``["override", "runtime", "tolerations"]``), after the profiler features and before the controller's
naming."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._dgdr import materialize
from tests.dgdr._support import beta_override, comp, dgdr, main, main_override

TOL_JOB = {"key": "job", "operator": "Exists"}
TOL_OVERRIDE = {"key": "override", "operator": "Exists"}


def _worker_override(container: dict, **component: object) -> dict:
    return main_override("VllmDecodeWorker", container, **component)


def test_step_order() -> None:
    ov = beta_override({"name": "Frontend", "replicas": 2})
    spec = dgdr(
        runtimeVersionOverride="1.3.0",
        features={"kvRouter": {"enabled": True}},
        overrides={
            "dgd": ov,
            "trustRemoteCode": True,
            "profilingJob": {"template": {"spec": {"containers": [], "tolerations": [TOL_JOB]}}},
        },
    )
    r = materialize(spec)
    assert r.steps == [
        "blueprint vllm/agg",
        "kv router",
        "runtime version override",
        "override",
        "runtime constraints",
        "tolerations",
        "trust-remote-code",
    ]


def test_runtime_constraints_run_after_override() -> None:
    ov = _worker_override({"$patch": {"args": "append"}, "args": ["--max-model-len", "100000"]})
    r = materialize(dgdr(overrides={"dgd": ov}), {"modelContextLength": 32768})
    args = main(comp(r.dgd, "VllmDecodeWorker"))["args"]
    assert args[-2:] == ["--max-model-len", "32768"]
    assert "100000" not in args
    assert any(
        "Clamping vLLM --max-model-len from 100000 to model context window 32768" in w for w in r.warnings
    )


def test_tolerations_run_after_override() -> None:
    ov = _worker_override({}, pod={"tolerations": [TOL_OVERRIDE]})
    job = {"template": {"spec": {"containers": [], "tolerations": [TOL_JOB]}}}
    r = materialize(dgdr(overrides={"dgd": ov, "profilingJob": job}))
    # tolerations are an atomic list: had the override run last it would have dropped TOL_JOB
    assert comp(r.dgd, "VllmDecodeWorker")["podTemplate"]["spec"]["tolerations"] == [TOL_OVERRIDE, TOL_JOB]
    assert comp(r.dgd, "Frontend")["podTemplate"]["spec"]["tolerations"] == [TOL_JOB]


def test_trust_remote_code_runs_after_override() -> None:
    # container args are atomic: the override replaces them, then the policy appends the flag
    ov = _worker_override({"args": ["--model", "Qwen/Qwen3-0.6B", "--enforce-eager"]})
    r = materialize(dgdr(overrides={"dgd": ov, "trustRemoteCode": True}))
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"] == [
        "--model",
        "Qwen/Qwen3-0.6B",
        "--enforce-eager",
        "--trust-remote-code",
    ]


def test_features_run_before_override() -> None:
    ov = _worker_override({"env": [{"name": "DYN_BENCHMARK_MODE", "value": "custom"}]}, replicas=3)
    r = materialize(
        dgdr(features={"planner": {"mode": "agg"}, "kvRouter": {"enabled": True}}, overrides={"dgd": ov}),
        {"mode": "agg"},
    )
    w = comp(r.dgd, "VllmDecodeWorker")
    assert main(w)["env"] == [{"name": "DYN_BENCHMARK_MODE", "value": "custom"}]
    assert w["replicas"] == 3
    assert w["scalingAdapter"] == {}


def test_legacy_component_name_in_override_is_translated() -> None:
    # dgdoverride: VllmDecodeWorker is the blueprint's own name here, so no translation warning
    ov = _worker_override({}, replicas=7)
    r = materialize(dgdr(overrides={"dgd": ov}))
    assert comp(r.dgd, "VllmDecodeWorker")["replicas"] == 7
    assert not [w for w in r.warnings if "deprecated" in w]


@settings(max_examples=40, deadline=None)
@given(
    name=st.from_regex(r"[a-z][a-z0-9-]{0,20}[a-z0-9]", fullmatch=True),
    backend=st.sampled_from(["vllm", "sglang", "trtllm", "auto"]),
    mode=st.sampled_from(["agg", "disagg"]),
    kv=st.booleans(),
    mocker=st.booleans(),
)
def test_name_rule_and_no_mutation(name: str, backend: str, mode: str, kv: bool, mocker: bool) -> None:
    spec = dgdr(
        name=name, backend=backend, features={"kvRouter": {"enabled": kv}, "mocker": {"enabled": mocker}}
    )
    before = copy.deepcopy(spec)
    r = materialize(spec, {"mode": mode})
    assert spec == before
    assert r.dgd["metadata"]["name"] == f"{name}-dgd"
    assert r.dgd["apiVersion"] == "nvidia.com/v1beta1" and r.dgd["kind"] == "DynamoGraphDeployment"
    frontend = main(comp(r.dgd, "Frontend"))
    assert ({"name": "DYN_ROUTER_MODE", "value": "kv"} in (frontend.get("env") or [])) == kv
    if mocker:
        assert [c["name"] for c in r.dgd["spec"]["components"]] == ["Frontend", "decode", "prefill"]
