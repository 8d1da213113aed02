"""DGDR fields that shape the DGD, one switch at a time.

Expected values come from upstream (reference revision of ai-dynamo/dynamo):
``profiler/utils/dgd_generation.py`` (features), ``profiler/utils/config_modifiers/protocol.py``
(``build_dgd_config``), ``profiler/utils/profile_common.py`` (images, tolerations), the controller's
``computeDGDName`` / ``applyDGDRRuntimeVersionOverride`` and the upstream tests cited per test.
"""

from __future__ import annotations

import json

import pytest

from dynamo_schema._core._diagnostics import DynamoSchemaError
from dynamo_schema._dgdr import DgdrError, compute_dgd_name, materialize
from tests.dgdr._support import beta_override, comp, dgdr, main, main_override, names

# ------------------------------------------------------------------------------------------ name


@pytest.mark.parametrize(
    "overrides,expected",
    [
        (None, "my-dgdr-dgd"),  # compute_dgd_name_test.go: no overrides
        ({"profilingJob": {"template": {"spec": {"containers": []}}}}, "my-dgdr-dgd"),  # overrides.dgd nil
        ({"dgd": {"metadata": {"name": "explicit-name"}}}, "explicit-name"),
        ({"dgd": {"metadata": {}}}, "my-dgdr-dgd"),  # empty metadata
    ],
)
def test_final_dgd_name(overrides: object, expected: str) -> None:
    spec = {"overrides": overrides} if overrides is not None else {}
    assert compute_dgd_name(dgdr(**spec)) == expected


def test_final_name_replaces_template_name_and_differs_per_dgdr() -> None:
    a = materialize(dgdr("first")).dgd
    b = materialize(dgdr("second")).dgd
    assert a["metadata"]["name"] == "first-dgd" and b["metadata"]["name"] == "second-dgd"
    assert a["spec"] == b["spec"]


def test_override_name_selects_final_name_with_warning() -> None:
    ov = beta_override(metadata={"name": "explicit-name", "labels": {"team": "a"}})
    r = materialize(dgdr(overrides={"dgd": ov}))
    assert r.dgd["metadata"]["name"] == "explicit-name"
    assert r.dgd["metadata"]["namespace"] == "ns"
    assert r.dgd["metadata"]["labels"] == {
        "team": "a",
        "dgdr.nvidia.com/name": "my-dgdr",
        "dgdr.nvidia.com/namespace": "ns",
        "nvidia.com/managed-by": "dynamo-operator",
    }
    # dgdoverride.Apply drops identity metadata (override_test.go TestApplySanitizesMetadata)
    assert "DGD override: metadata: ignored identity/runtime fields: name" in r.warnings


# ------------------------------------------------------------------------------- image and model


def test_backend_image_derived_from_profiler_image() -> None:
    # derive_backend_image docstring: dynamo-planner:1.1.1 + vllm -> vllm-runtime:1.1.1
    r = materialize(dgdr(image="nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.1.1"))
    for c in r.dgd["spec"]["components"]:
        assert main(c)["image"] == "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.1"
    r = materialize(dgdr(backend="trtllm", image="myregistry.io/team/dynamo-planner:2.0.0@sha256:abc"))
    assert (
        main(comp(r.dgd, "TRTLLMWorker"))["image"]
        == "myregistry.io/team/tensorrtllm-runtime:2.0.0@sha256:abc"
    )
    r = materialize(dgdr(backend="sglang", image="myregistry.io/sglang-runtime:1.1.1"))
    assert main(comp(r.dgd, "decode"))["image"] == "myregistry.io/sglang-runtime:1.1.1"
    # no registry or repository path: the whole reference is name[:tag][@digest]
    r = materialize(dgdr(image="dynamo-planner:1.1.1"))
    assert {main(c)["image"] for c in r.dgd["spec"]["components"]} == {"vllm-runtime:1.1.1"}


def test_default_image_when_unset() -> None:
    spec = dgdr()
    del spec["spec"]["image"]
    r = materialize(spec, {"operatorVersion": "1.2.3"})
    assert main(comp(r.dgd, "Frontend"))["image"] == "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.3"
    assert any("nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.2.3" in n for n in r.notes)


def test_model_sets_worker_flags_not_frontend() -> None:
    # update_model: workers get <model-path flag> + --served-model-name; the Frontend is patched only
    # for filesystem paths (test_materialize_remote_model_preserves_explicit_frontend_cli)
    r = materialize(dgdr(model="meta-llama/Llama-3.1-8B"))
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"] == [
        "--model",
        "meta-llama/Llama-3.1-8B",
        "--served-model-name",
        "meta-llama/Llama-3.1-8B",
    ]
    assert main(comp(r.dgd, "Frontend"))["args"] == ["-m", "dynamo.frontend"]
    r = materialize(dgdr(backend="sglang", model="m/x"))
    args = main(comp(r.dgd, "decode"))["args"]
    assert args == [
        "--page-size",
        "16",
        "--tp",
        "1",
        "--trust-remote-code",
        "--skip-tokenizer-init",
        "--model-path",
        "m/x",
        "--served-model-name",
        "m/x",
    ]


def test_model_cache_mounts_pvc_everywhere_and_patches_frontend() -> None:
    cache = {
        "pvcName": "model-cache",
        "pvcMountPath": "/home/dynamo/.cache/huggingface",
        "pvcModelPath": "hub/models--Qwen--Qwen3-0.6B/snapshots/abc",
    }
    r = materialize(dgdr(modelCache=cache))
    path = "/home/dynamo/.cache/huggingface/hub/models--Qwen--Qwen3-0.6B/snapshots/abc"
    for c in r.dgd["spec"]["components"]:
        assert c["podTemplate"]["spec"]["volumes"] == [
            {"name": "model-cache", "persistentVolumeClaim": {"claimName": "model-cache"}}
        ]
        assert main(c)["volumeMounts"] == [
            {"name": "model-cache", "mountPath": "/home/dynamo/.cache/huggingface"}
        ]
    assert main(comp(r.dgd, "Frontend"))["args"] == [
        "-m",
        "dynamo.frontend",
        "--model-name",
        "Qwen/Qwen3-0.6B",
        "--model-path",
        path,
    ]
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"] == [
        "--model",
        path,
        "--served-model-name",
        "Qwen/Qwen3-0.6B",
    ]


def test_model_cache_without_model_path_sets_hf_home() -> None:
    r = materialize(dgdr(modelCache={"pvcName": "cache"}))
    worker = main(comp(r.dgd, "VllmDecodeWorker"))
    assert worker["env"] == [{"name": "HF_HOME", "value": "/opt/model-cache"}]
    assert worker["volumeMounts"] == [{"name": "cache", "mountPath": "/opt/model-cache"}]
    assert worker["args"] == ["--model", "Qwen/Qwen3-0.6B", "--served-model-name", "Qwen/Qwen3-0.6B"]


# ------------------------------------------------------------------------------ topology input


def test_default_topology_is_rapid_agg_and_noted() -> None:
    r = materialize(dgdr())
    assert names(r.dgd) == ["Frontend", "VllmDecodeWorker"]
    w = comp(r.dgd, "VllmDecodeWorker")
    assert w["replicas"] == 1
    # setup_worker_component_resources also writes the GPU count into existing requests
    assert main(w)["resources"] == {
        "limits": {"nvidia.com/gpu": "1"},
        "requests": {"ephemeral-storage": "2Gi", "nvidia.com/gpu": "1"},
    }
    assert any("rapid-strategy default" in n for n in r.notes)


def test_thorough_note_says_measurement_needed() -> None:
    r = materialize(dgdr(searchStrategy="thorough"))
    assert any("thorough profiling would measure" in n for n in r.notes)


def test_disagg_topology_with_tp_and_multinode() -> None:
    topo = {"mode": "disagg", "prefill": {"tp": 2, "replicas": 2}, "decode": {"tp": 4}}
    r = materialize(dgdr(hardware={"gpuSku": "h100_sxm", "numGpusPerNode": 2}), topo)
    assert names(r.dgd) == ["Frontend", "VllmDecodeWorker", "VllmPrefillWorker"]
    prefill = comp(r.dgd, "VllmPrefillWorker")
    assert prefill["replicas"] == 2
    # _finalize_disagg_cli_args re-appends --disaggregation-mode (set_unique_argument_value), the TP flag
    # follows, and update_model re-appends the model flags
    assert main(prefill)["args"] == [
        "--kv-transfer-config",
        '{"kv_connector":"NixlConnector","kv_role":"kv_both"}',
        "--disaggregation-mode",
        "prefill",
        "--tensor-parallel-size",
        "2",
        "--model",
        "Qwen/Qwen3-0.6B",
        "--served-model-name",
        "Qwen/Qwen3-0.6B",
    ]
    assert main(prefill)["resources"]["limits"] == {"nvidia.com/gpu": "2"}
    assert "multinode" not in prefill
    decode = comp(r.dgd, "VllmDecodeWorker")
    # set_multinode_config: nodeCount = ceil(4 / 2); GPU limit capped per node
    assert decode["multinode"] == {"nodeCount": 2}
    assert main(decode)["resources"]["limits"] == {"nvidia.com/gpu": "2"}
    assert not any("rapid-strategy default: one GPU" in n for n in r.notes)


def test_auto_backend_resolves_to_naive_default() -> None:
    r = materialize(dgdr(backend="auto"))
    assert r.backend == "vllm"
    assert any("backend auto resolved to vllm" in n for n in r.notes)
    r = materialize(dgdr(backend="auto"), {"backend": "sglang"})
    assert names(r.dgd) == ["Frontend", "decode"]


# ------------------------------------------------------------------------------------ features


def test_trtllm_enables_chunked_prefill() -> None:
    r = materialize(dgdr(backend="trtllm"))
    args = main(comp(r.dgd, "TRTLLMWorker"))["args"]
    assert args[-2:] == ["--trtllm.enable_chunked_prefill", "true"]
    assert args.count("--trtllm.enable_chunked_prefill") == 1


def test_kv_router_sets_frontend_env() -> None:
    r = materialize(dgdr(features={"kvRouter": {"enabled": True}}))
    assert main(comp(r.dgd, "Frontend"))["env"] == [{"name": "DYN_ROUTER_MODE", "value": "kv"}]
    assert "env" not in main(comp(r.dgd, "VllmDecodeWorker"))
    r = materialize(dgdr(features={"kvRouter": {"enabled": False}}))
    assert "env" not in main(comp(r.dgd, "Frontend"))


def test_kv_router_yields_to_override() -> None:
    # spec: features.kvRouter sets DYN_ROUTER_MODE=kv on the Frontend; overrides.dgd takes precedence
    ov = main_override("Frontend", {"env": [{"name": "DYN_ROUTER_MODE", "value": "round-robin"}]})
    r = materialize(dgdr(features={"kvRouter": {"enabled": True}}, overrides={"dgd": ov}))
    assert main(comp(r.dgd, "Frontend"))["env"] == [{"name": "DYN_ROUTER_MODE", "value": "round-robin"}]


def test_mocker_replaces_workers() -> None:
    image = "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0"
    r = materialize(dgdr(features={"mocker": {"enabled": True}}))
    assert names(r.dgd) == ["Frontend", "decode", "prefill"]
    assert [c["type"] for c in r.dgd["spec"]["components"]] == ["frontend", "decode", "prefill"]
    for c in r.dgd["spec"]["components"]:
        assert main(c)["image"] == image  # generate_mocker_config uses the DGDR image as-is
    decode = main(comp(r.dgd, "decode"))
    assert decode["command"] == ["python3", "-m", "dynamo.mocker"]
    assert decode["args"] == [
        "--model-path",
        "Qwen/Qwen3-0.6B",
        "--model-name",
        "Qwen/Qwen3-0.6B",
        "--speedup-ratio",
        "1.0",
        "--disaggregation-mode",
        "decode",
    ]
    assert "DYN_BENCHMARK_MODE" not in json.dumps(r.dgd)
    assert r.resources == []


def test_mocker_with_planner_sweep_none_is_refused() -> None:
    spec = dgdr(
        features={
            "mocker": {"enabled": True},
            "planner": {"pre_deployment_sweeping_mode": "none", "enable_load_scaling": True},
        }
    )
    with pytest.raises(DgdrError) as exc:
        materialize(spec)
    assert str(exc.value) == (
        "pre_deployment_sweeping_mode cannot be 'none' when mocker is enabled. "
        "Mocker backend requires pre-deployment sweeping to generate simulated performance profiles."
    )
    assert isinstance(exc.value, DynamoSchemaError)
    assert exc.value.diagnostics[0].path == ("spec", "features", "mocker")


def test_planner_adds_component_configmap_and_scaling_adapters() -> None:
    planner = {
        "optimization_target": "sla",
        "enable_throughput_scaling": True,
        "enable_load_scaling": False,
        "pre_deployment_sweeping_mode": "rapid",
        "mode": "disagg",
        "backend": "vllm",
    }
    r = materialize(dgdr(sla={"ttft": 500, "itl": 50}, features={"planner": planner}))
    assert r.mode == "disagg"
    assert names(r.dgd) == ["Frontend", "VllmDecodeWorker", "VllmPrefillWorker", "Planner"]
    assert comp(r.dgd, "VllmDecodeWorker")["scalingAdapter"] == {}
    assert comp(r.dgd, "VllmPrefillWorker")["scalingAdapter"] == {}
    assert "scalingAdapter" not in comp(r.dgd, "Frontend")
    # enable_vllm_benchmark_mode: role-correct DYN_BENCHMARK_MODE on vLLM workers
    assert main(comp(r.dgd, "VllmPrefillWorker"))["env"] == [
        {"name": "DYN_BENCHMARK_MODE", "value": "prefill"}
    ]
    assert main(comp(r.dgd, "VllmDecodeWorker"))["env"] == [{"name": "DYN_BENCHMARK_MODE", "value": "decode"}]
    pl = comp(r.dgd, "Planner")
    assert pl["type"] == "planner" and pl["replicas"] == 1
    pm = main(pl)
    assert pm["image"] == "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0"
    assert pm["command"] == ["python3", "-m", "dynamo.planner"]
    assert pm["args"] == ["--config", "/workspace/planner_config/planner_config.json"]
    assert pm["workingDir"] == "/workspace/components/src/dynamo/planner"
    (cm,) = r.resources
    assert cm["kind"] == "ConfigMap" and cm["metadata"]["name"].startswith("planner-config-")
    assert len(cm["metadata"]["name"]) == len("planner-config-") + 4
    assert pm["volumeMounts"] == [
        {"name": cm["metadata"]["name"], "mountPath": "/workspace/planner_config", "readOnly": True}
    ]
    assert pl["podTemplate"]["spec"]["volumes"] == [
        {"name": cm["metadata"]["name"], "configMap": {"name": cm["metadata"]["name"]}}
    ]
    cfg = json.loads(cm["data"]["planner_config.json"])
    # test_explicit_sla_targets_propagate: explicit SLA -> ttft_ms/itl_ms
    assert cfg["ttft_ms"] == 500.0 and cfg["itl_ms"] == 50.0
    assert cfg["profile_results_dir"] == "/workspace/profiling_results"


def test_planner_overrides_take_precedence_over_sla() -> None:
    r = materialize(dgdr(sla={"ttft": 500, "itl": 50}, features={"planner": {"ttft_ms": 123.0}}))
    cfg = json.loads(r.resources[0]["data"]["planner_config.json"])
    assert cfg["ttft_ms"] == 123.0 and cfg["itl_ms"] == 50.0
    # omitted SLA keeps the planner defaults (test_omitted_sla_preserves_planner_defaults)
    r = materialize(dgdr(features={"planner": {}}))
    cfg = json.loads(r.resources[0]["data"]["planner_config.json"])
    assert "ttft_ms" not in cfg and "itl_ms" not in cfg


def test_planner_advisory_skips_scaling_adapters() -> None:
    r = materialize(dgdr(features={"planner": {"advisory": True}}))
    assert "Planner" in names(r.dgd)
    assert all("scalingAdapter" not in c for c in r.dgd["spec"]["components"])


def test_planner_agg_mode_retypes_named_worker() -> None:
    # test_enable_planner_worker_scaling_adapters_handles_agg_worker: a lone untyped worker becomes decode
    r = materialize(dgdr(backend="trtllm", features={"planner": {"mode": "agg"}}), {"mode": "agg"})
    w = comp(r.dgd, "TRTLLMWorker")
    assert w["type"] == "decode" and w["scalingAdapter"] == {}


def test_planner_without_scaling_mode_is_refused() -> None:
    planner = {"optimization_target": "sla", "enable_throughput_scaling": False, "enable_load_scaling": False}
    with pytest.raises(
        DgdrError,
        match=r"^At least one scaling mode must be enabled "
        r"\(enable_throughput_scaling or enable_load_scaling\)$",
    ):
        materialize(dgdr(features={"planner": planner}))


def test_runtime_version_override_on_every_component_override_wins() -> None:
    ov = beta_override({"name": "VllmDecodeWorker", "runtimeVersionOverride": "1.2.0"})
    r = materialize(dgdr(runtimeVersionOverride="1.3.0", overrides={"dgd": ov}))
    assert comp(r.dgd, "Frontend")["runtimeVersionOverride"] == "1.3.0"
    assert comp(r.dgd, "VllmDecodeWorker")["runtimeVersionOverride"] == "1.2.0"


def test_tolerations_from_profiling_job() -> None:
    tol = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    job = {"template": {"spec": {"containers": [], "tolerations": [tol]}}}
    r = materialize(dgdr(overrides={"profilingJob": job}))
    for c in r.dgd["spec"]["components"]:
        assert c["podTemplate"]["spec"]["tolerations"] == [tol]


# --------------------------------------------------------------------------- trust remote code


def test_trust_remote_code_added_to_vllm_workers_only() -> None:
    r = materialize(dgdr(overrides={"trustRemoteCode": True}))
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"][-1] == "--trust-remote-code"
    assert "--trust-remote-code" not in main(comp(r.dgd, "Frontend"))["args"]


def test_trust_remote_code_not_duplicated_for_sglang_and_skipped_for_trtllm_and_mocker() -> None:
    r = materialize(dgdr(backend="sglang", overrides={"trustRemoteCode": True}))
    assert main(comp(r.dgd, "decode"))["args"].count("--trust-remote-code") == 1
    r = materialize(dgdr(backend="trtllm", overrides={"trustRemoteCode": True}))
    assert "--trust-remote-code" not in main(comp(r.dgd, "TRTLLMWorker"))["args"]
    r = materialize(dgdr(features={"mocker": {"enabled": True}}, overrides={"trustRemoteCode": True}))
    assert "--trust-remote-code" not in json.dumps(r.dgd)


def test_trust_remote_code_goes_inside_a_shell_form_command_once() -> None:
    """A ``sh -c`` worker gets the flag appended inside its single args string, not as a second element
    (which would become ``$0``), and not twice (upstream ``_inject_trust_remote_code_flag`` and its test
    ``test_materialize_dgd_shell_form_worker``)."""
    ov = main_override(
        "VllmDecodeWorker", {"command": ["sh", "-c"], "args": ["python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B"]}
    )
    r = materialize(dgdr(overrides={"dgd": ov, "trustRemoteCode": True}))
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"] == [
        "python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --trust-remote-code"
    ]
    ov = main_override(
        "VllmDecodeWorker",
        {"command": ["sh", "-c"], "args": ["python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --trust-remote-code"]},
    )
    r = materialize(dgdr(overrides={"dgd": ov, "trustRemoteCode": True}))
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"] == [
        "python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --trust-remote-code"
    ]


def test_auto_map_on_remote_ref_is_refused() -> None:
    with pytest.raises(DgdrError) as exc:
        materialize(dgdr(), {"modelHasAutoMap": True})
    assert str(exc.value) == (
        "Refusing to auto-inject --trust-remote-code for mutable remote model ref 'Qwen/Qwen3-0.6B'. "
        "Set --trust-remote-code explicitly via overrides if this ref is intended."
    )


def test_auto_map_with_explicit_override_flag_is_accepted() -> None:
    ov = main_override("VllmDecodeWorker", {"$patch": {"args": "append"}, "args": ["--trust-remote-code"]})
    r = materialize(dgdr(overrides={"dgd": ov}), {"modelHasAutoMap": True})
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"].count("--trust-remote-code") == 1
    r = materialize(dgdr(), {"modelHasAutoMap": True, "modelIsLocal": True})
    assert main(comp(r.dgd, "VllmDecodeWorker"))["args"][-1] == "--trust-remote-code"


# -------------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "spec,message",
    [
        (
            {"searchStrategy": "thorough", "backend": "auto"},
            (
                "THOROUGH search strategy does not support 'auto' backend. "
                "Please specify a concrete backend (trtllm, vllm, sglang)."
            ),
        ),
        (
            {"workload": {"concurrency": 4.0, "requestRate": 2.0}},
            "Only one of 'concurrency' or 'requestRate' can be provided, not both.",
        ),
        ({"sla": {"ttft": -1.0, "itl": 10.0}}, "SLA 'ttft' must be positive (got -1.0)."),
        (
            {"sla": {"e2eLatency": 100.0, "ttft": 50.0}},
            "SLA must specify either (ttft and itl) or e2eLatency, not both.",
        ),
        ({"sla": {"ttft": 50.0, "itl": None}}, "ttft and itl must both be provided together."),
    ],
)
def test_profiler_refusals(spec: dict, message: str) -> None:
    with pytest.raises(DgdrError) as exc:
        materialize(dgdr(**spec))
    assert str(exc.value) == message


def test_e2e_latency_alone_is_accepted() -> None:
    materialize(dgdr(sla={"e2eLatency": 100.0}))


def test_name_length_limit() -> None:
    # test_raises_lists_all_violations: a 27-char DGDR name gives a 31-char DGD name
    with pytest.raises(DgdrError) as exc:
        materialize(dgdr(name="a" * 27))
    assert str(exc.value) == (
        f"DGD name '{'a' * 27}-dgd' (length 31) combined with component name(s) exceeds the "
        f"45-character pod-naming limit. Shorten the DGDR name '{'a' * 27}'. "
        "Violations: 'VllmDecodeWorker' (16): combined length 47"
    )
    long_override = "x" * 43
    with pytest.raises(DgdrError, match=f"Shorten the DGD name '{long_override}'"):
        materialize(dgdr(overrides={"dgd": beta_override(metadata={"name": long_override})}))
    materialize(dgdr(name="a" * 25))  # 29 + 16 = 45: at the limit


def test_merge_error_is_wrapped() -> None:
    ov = beta_override({"name": "Missing", "replicas": 2})
    with pytest.raises(DgdrError) as exc:
        materialize(dgdr(overrides={"dgd": ov}))
    assert str(exc.value) == (
        "failed to apply DGD override: spec.components[name=Missing]: override target "
        '"Missing" is not present in the generated blueprint'
    )


def test_wrong_kind_is_refused() -> None:
    bad = dgdr()
    bad["kind"] = "DynamoGraphDeployment"
    with pytest.raises(DgdrError):
        materialize(bad)


def test_planner_configmap_is_put_in_the_dgdr_namespace_with_the_tracking_labels() -> None:
    """Controller ``createAdditionalResources``: each profiler ConfigMap gets the DGDR's namespace and the
    ``dgdr.nvidia.com/name``, ``dgdr.nvidia.com/namespace`` and ``nvidia.com/managed-by`` labels."""
    planner = {"optimization_target": "sla", "enable_throughput_scaling": True, "enable_load_scaling": False,
               "pre_deployment_sweeping_mode": "rapid", "mode": "disagg", "backend": "vllm"}
    r = materialize(dgdr(name="req-a", namespace="team-x", sla={"ttft": 500, "itl": 50},
                         features={"planner": planner}))
    (cm,) = r.resources
    assert cm["metadata"]["namespace"] == "team-x"
    assert cm["metadata"]["labels"] == {
        "dgdr.nvidia.com/name": "req-a",
        "dgdr.nvidia.com/namespace": "team-x",
        "nvidia.com/managed-by": "dynamo-operator",
    }


@pytest.mark.parametrize("model", ["/models/llama", "./llama"])
def test_a_local_model_path_patches_the_frontend_cli(model: str) -> None:
    """Upstream ``update_model``: the Frontend gets ``--model-name``/``--model-path`` only when the model path
    starts with ``/`` or ``.`` (a filesystem path), without a model cache too."""  # mutant 5159177840c9
    r = materialize(dgdr(model=model))
    assert main(comp(r.dgd, "Frontend"))["args"] == ["-m", "dynamo.frontend", "--model-name", model, "--model-path", model]


@pytest.mark.parametrize(("hardware", "noted"), [
    ({"gpuSku": "H100_SXM", "numGpusPerNode": 8}, False),
    ({"numGpusPerNode": 8}, True),
    ({"gpuSku": "H100_SXM"}, True),
    ({}, True),
])
def test_missing_gpu_sku_or_gpus_per_node_is_noted(hardware: dict, noted: bool) -> None:
    """Upstream ``valid_dgdr_spec`` (profiler/utils/dgdr_validate.py) requires ``hardware.gpuSku`` and a positive
    ``numGpusPerNode``, which the operator fills from GPU discovery; our note says so when either is unset."""
    # mutant d74d555e9458
    r = materialize(dgdr(hardware=hardware))
    assert any("gpuSku/numGpusPerNode not fully set" in n for n in r.notes) is noted
