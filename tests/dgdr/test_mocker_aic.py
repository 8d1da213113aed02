"""Mocker + rapid: the AI-Configurator arguments upstream appends to the mocker workers.

Expected lists follow upstream at the reference revision (ai-dynamo/dynamo 2a6da14c):
``components/src/dynamo/profiler/utils/dgd_generation.py`` ``generate_mocker_config`` (``--model-path`` /
``--model-name`` set in the template's args, then ``_inject_mocker_aic_args``: ``--aic-perf-model``
appended, then ``--aic-backend``, ``--aic-backend-version`` from ``_MOCKER_AIC_BACKEND_VERSIONS``
(``replay_optimize/constants.py``: vllm 0.14.0, sglang 0.5.6.post2; trtllm 1.3.0rc10), ``--aic-system``
(``hardware.gpuSku.lower()``, ``profile_sla._extract_profiler_params``), ``--aic-tp-size``,
``--aic-moe-tp-size``, ``--aic-moe-ep-size``, ``--aic-attention-dp-size``
(``picked_to_aic_model_config_kwargs``: tp, moe_tp, moe_ep, dp), ``--engine-type`` only for vllm/sglang);
``build_aic_interpolation_spec`` / ``needs_mocker_aic_perf_model`` (which requests get them) and
``profile_sla.py`` (only for a disaggregated pick). The template args are those of
``profiler/templates/dgd/mocker/disagg.yaml``. Single-flag values are also the ones asserted by
``profiler/tests/unit/test_dgd_generation_aic.py`` ``TestInjectMockerAicArgs``.
"""

from __future__ import annotations

import pytest

from dynamo_schema._dgdr import materialize
from tests.dgdr._support import comp, dgdr, main

MODEL = "Qwen/Qwen3-0.6B"
HARDWARE = {"gpuSku": "h200_sxm", "numGpusPerNode": 8}
# the pick of upstream's TestInjectMockerAicArgs (prefill) and a dense one (decode)
TOPOLOGY = {"prefill": {"tp": 1, "dp": 8, "moe_tp": 1, "moe_ep": 8}, "decode": {"tp": 2}}


def _template(role: str) -> list[str]:
    return ["--model-path", MODEL, "--model-name", MODEL, "--speedup-ratio", "1.0", "--disaggregation-mode", role]


def _aic(backend: str, version: str, tp: str, moe_tp: str, moe_ep: str, dp: str) -> list[str]:
    return ["--aic-perf-model", "--aic-backend", backend, "--aic-backend-version", version,
            "--aic-system", "h200_sxm", "--aic-tp-size", tp, "--aic-moe-tp-size", moe_tp,
            "--aic-moe-ep-size", moe_ep, "--aic-attention-dp-size", dp]


EXPECTED = {
    "vllm": {
        "prefill": _template("prefill") + _aic("vllm", "0.14.0", "1", "1", "8", "8") + ["--engine-type", "vllm"],
        "decode": _template("decode") + _aic("vllm", "0.14.0", "2", "1", "1", "1") + ["--engine-type", "vllm"],
    },
    "sglang": {
        "prefill": _template("prefill") + _aic("sglang", "0.5.6.post2", "1", "1", "8", "8")
        + ["--engine-type", "sglang"],
        "decode": _template("decode") + _aic("sglang", "0.5.6.post2", "2", "1", "1", "1")
        + ["--engine-type", "sglang"],
    },
    "trtllm": {
        "prefill": _template("prefill") + _aic("trtllm", "1.3.0rc10", "1", "1", "8", "8"),
        "decode": _template("decode") + _aic("trtllm", "1.3.0rc10", "2", "1", "1", "1"),
    },
}


def _args(dgd: dict, role: str) -> list[str]:
    return main(comp(dgd, role))["args"]


@pytest.mark.parametrize("backend", ["vllm", "sglang", "trtllm"])
def test_mocker_rapid_disagg_exact_arguments(backend: str) -> None:
    r = materialize(
        dgdr(backend=backend, searchStrategy="rapid", hardware=HARDWARE, features={"mocker": {"enabled": True}}),
        dict(TOPOLOGY, mode="disagg"),
    )
    assert _args(r.dgd, "prefill") == EXPECTED[backend]["prefill"]
    assert _args(r.dgd, "decode") == EXPECTED[backend]["decode"]
    assert "mocker aic args" in r.steps


@pytest.mark.parametrize("backend", ["vllm", "sglang", "trtllm"])
def test_mocker_rapid_with_rapid_planner(backend: str) -> None:
    # needs_mocker_aic_perf_model: with a planner, its pre_deployment_sweeping_mode decides
    planner = {"optimization_target": "sla", "enable_throughput_scaling": True, "enable_load_scaling": False,
               "pre_deployment_sweeping_mode": "rapid"}
    r = materialize(
        dgdr(backend=backend, searchStrategy="thorough", hardware=HARDWARE,
             features={"mocker": {"enabled": True}, "planner": planner}),
        TOPOLOGY,
    )
    assert _args(r.dgd, "prefill") == EXPECTED[backend]["prefill"]
    assert _args(r.dgd, "decode") == EXPECTED[backend]["decode"]


def test_default_pick_and_default_mode() -> None:
    # mocker without topology: the blueprint is disaggregated, the pick PickedParallelConfig() (all 1)
    r = materialize(dgdr(hardware=HARDWARE, features={"mocker": {"enabled": True}}))
    assert _args(r.dgd, "decode") == _template("decode") + _aic("vllm", "0.14.0", "1", "1", "1", "1") + [
        "--engine-type", "vllm"]
    assert any("taken to be disaggregated" in n for n in r.notes)


@pytest.mark.parametrize(
    "spec,topology",
    [
        # mocker-only thorough: NPZ profile data instead (test_mocker_only_thorough_returns_none)
        ({"searchStrategy": "thorough", "features": {"mocker": {"enabled": True}}}, {}),
        # planner thorough sweeping wins over the search strategy
        ({"features": {"mocker": {"enabled": True}, "planner": {"pre_deployment_sweeping_mode": "thorough"}}}, {}),
        # an aggregated pick: profile_sla builds the spec only for a disaggregated one
        ({"features": {"mocker": {"enabled": True}}}, {"mode": "agg"}),
        # no mocker: the workers are the backend's own
        ({}, {"mode": "disagg"}),
    ],
)
def test_no_aic_arguments(spec: dict, topology: dict) -> None:
    r = materialize(dgdr(hardware=HARDWARE, **spec), topology)
    for c in r.dgd["spec"]["components"]:
        for container in c["podTemplate"]["spec"].get("containers", []):
            assert not any(str(a).startswith("--aic") for a in container.get("args") or [])


def test_missing_gpu_sku_is_a_note_not_a_guess() -> None:
    r = materialize(dgdr(features={"mocker": {"enabled": True}}))
    assert _args(r.dgd, "prefill") == _template("prefill")
    assert any("gpuSku is unset" in n for n in r.notes)


def test_override_sees_the_aic_arguments() -> None:
    # materialize_dgd's override runs after assemble_final_config: an appended arg lands after --aic-*
    ov = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
          "spec": {"components": [{"name": "decode", "podTemplate": {"spec": {"containers": [
              {"name": "main", "args": _template("decode") + _aic("vllm", "0.14.0", "1", "1", "1", "1")
               + ["--engine-type", "vllm", "--extra"]}]}}}]}}
    r = materialize(dgdr(hardware=HARDWARE, features={"mocker": {"enabled": True}}, overrides={"dgd": ov}))
    assert _args(r.dgd, "decode")[-1] == "--extra"


PROFILE_NOTE = "profile data: thorough pre-deployment sweeping"


@pytest.mark.parametrize(
    "features,expected",
    [
        # upstream ``needs_profile_data``: without the mocker, only a throughput-scaling planner whose
        # pre-deployment sweep is thorough measures interpolation data
        ({"planner": {"optimization_target": "sla", "enable_throughput_scaling": True,
                      "enable_load_scaling": False, "pre_deployment_sweeping_mode": "thorough"}}, True),
        ({"planner": {"optimization_target": "sla", "enable_throughput_scaling": True,
                      "enable_load_scaling": False, "pre_deployment_sweeping_mode": "rapid"}}, False),
        ({"planner": {"optimization_target": "sla", "enable_throughput_scaling": False,
                      "enable_load_scaling": True, "pre_deployment_sweeping_mode": "thorough"}}, False),
        # with the mocker: profile data exactly when the AIC perf model is not used (not rapid)
        ({"mocker": {"enabled": True}, "planner": {"pre_deployment_sweeping_mode": "thorough"}}, True),
        ({"mocker": {"enabled": True}, "planner": {"pre_deployment_sweeping_mode": "rapid"}}, False),
    ],
)
def test_profile_data_note_follows_needs_profile_data(features: dict, expected: bool) -> None:
    r = materialize(dgdr(hardware=HARDWARE, features=features), dict(TOPOLOGY, mode="disagg"))
    assert any(n.startswith(PROFILE_NOTE) for n in r.notes) is expected, r.notes


def test_profile_data_note_for_a_sweep_mode_built_at_run_time() -> None:
    """Upstream compares the sweep mode by value (``== "thorough"``): a string built at run time, as one read
    from a manifest is (not the interned literal), still asks for profile data."""
    mode = "".join(["thor", "ough"])
    features = {"planner": {"optimization_target": "sla", "enable_throughput_scaling": True,
                            "enable_load_scaling": False, "pre_deployment_sweeping_mode": mode}}
    r = materialize(dgdr(hardware=HARDWARE, features=features), dict(TOPOLOGY, mode="disagg"))
    assert any(n.startswith(PROFILE_NOTE) for n in r.notes), r.notes
