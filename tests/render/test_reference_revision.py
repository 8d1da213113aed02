"""Rendering as the reference revision (2a6da14c) does it, where newer upstream code differs.

* No runtime-version gate acts on rendering: ``internal/dynamo/component_worker.go``
  ``GetBaseContainer`` writes liveness ``failureThreshold: 1`` and ``DYN_HEALTH_CHECK_ENABLED=false``
  for every runtime, ``component_frontend.go`` no startup probe (``internal/features/runtime/gates.go``
  declares ``CanaryHealthChecks``, which no rendering code reads); the resolved runtime version enters
  only the worker hash (``hash.go`` ``resolvedRuntimeVersionForHash``, from ``GetMainContainer``).
* No Dynamo sidecar mode: an init container named ``runtime`` is an ordinary init container.
* One EPP launch contract (``component_epp.go``), the ConfigMap from the typed config
  (``epp/config.go``), which the child DCD carries too.

The operator-verified cases (``../shared/reference/dynamo/operator-cases``) pin the same values for
whole documents (tests/oracles/test_operator_cases.py); the rows here name the behaviour.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._render import RenderError, RenderOptions, render
from dynamo_schema._render._eppconfig import typed_config

GOLDENS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "dynamo" / "operator-cases"
           / "project-goldens").resolve()


def _dgd(components: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "ref", "namespace": "ns"},
            "spec": {"backendFramework": "vllm", "components": components}}


def _component(name: str, ctype: str, image: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": ctype, **extra,
            "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}}}


def _cliques(objs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    pcs = next(o for o in objs if o["kind"] == "PodCliqueSet")
    return {c["name"]: c["spec"]["podSpec"] for c in pcs["spec"]["template"]["cliques"]}


def _main(pod: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in pod["containers"] if c["name"] == "main")


@pytest.mark.parametrize(("image", "override"), [
    ("vllm-runtime:1.4.0", None), ("vllm-runtime:1.5.0", None), ("vllm-runtime:1.6.0", None),
    ("custom-vllm:dev", "1.5.0"), ("custom-vllm:dev", "1.7.2"),
])
def test_no_runtime_version_gate(image: str, override: str | None) -> None:
    extra = {"runtimeVersionOverride": override} if override else {}
    dgd = _dgd([_component("frontend", "frontend", image.replace("vllm-runtime", "dynamo-frontend"), **extra),
                _component("worker", "worker", image, **extra)])
    pods = _cliques(render(dgd, "grove", RenderOptions(namespace="ns")))
    worker = _main(pods["worker"])
    assert worker["livenessProbe"]["failureThreshold"] == 1
    assert {e["name"]: e.get("value") for e in worker["env"]}["DYN_HEALTH_CHECK_ENABLED"] == "false"
    frontend = _main(pods["frontend"])
    assert "startupProbe" not in frontend
    assert not any(e["name"].startswith("DYN_NAMESPACE_PREFIX_") for e in frontend["env"])


def test_runtime_init_container_is_an_ordinary_init_container() -> None:
    worker = _component("worker", "worker", "vllm/vllm-openai:v0.11.0")
    runtime = {"name": "runtime", "image": "nvcr.io/nvidia/ai-dynamo/dynamo-runtime:1.5.0", "restartPolicy": "Always"}
    worker["podTemplate"]["spec"]["initContainers"] = [runtime]
    pod = _cliques(render(_dgd([worker]), "grove", RenderOptions(namespace="ns")))["worker"]
    assert pod["initContainers"] == [{**runtime, "resources": {}}]
    main = _main(pod)
    assert main["startupProbe"]["failureThreshold"] == 720
    assert {e["name"] for e in main["env"]} >= {"DYN_NAMESPACE", "DYN_SYSTEM_PORT", "NIXL_TELEMETRY_ENABLE"}


@pytest.mark.shared
def test_sidecar_mode_golden_worker_hash_follows_main_image() -> None:
    # the operator's objects for golden/sidecar-mode-grove: the hashed runtime version is read from
    # the main container (vllm/vllm-openai:v0.11.0: none), not from the `runtime` init container
    case = yaml.safe_load((GOLDENS / "sidecar-mode-grove.yaml").read_text(encoding="utf-8"))
    pcs = next(o for o in case["expected"]["objects"] if o["kind"] == "PodCliqueSet")
    want = {c["name"]: c["labels"].get("nvidia.com/dynamo-worker-hash") for c in pcs["spec"]["template"]["cliques"]}
    ours = render(case["input"], "grove", RenderOptions(namespace="ns1", operator_version="1.5.0"))
    got = {c["name"]: c["labels"].get("nvidia.com/dynamo-worker-hash")
           for c in next(o for o in ours if o["kind"] == "PodCliqueSet")["spec"]["template"]["cliques"]}
    assert got == want and "f731bc2a" in want.values()


def test_epp_without_config_fails_like_generate_config_map() -> None:
    dgd = _dgd([_component("epp", "epp", "dynamo-frontend:1.5.0"), _component("worker", "worker", "vllm-runtime:1.5.0")])
    with pytest.raises(RenderError) as exc:
        render(dgd, "kubernetes", RenderOptions(namespace="ns"))
    assert exc.value.diagnostics[0].message == (
        "EPP configuration is required: either eppConfig.configMapRef or eppConfig.config must be specified")


CONFIG = {"plugins": [{"type": "single-profile-handler"}, {"name": "kv", "type": "kv", "extra": 1}],
          "schedulingProfiles": [{"name": "default", "plugins": [{"pluginRef": "kv", "weight": 2}, {"pluginRef": "pick"}]}],
          "unknownTopLevel": {"dropped": True}}


@pytest.mark.parametrize("stored", [CONFIG, {**CONFIG, "plugins": [{"name": "", "type": "single-profile-handler"},
                                                                     {"name": "kv", "type": "kv"}]}])
def test_typed_epp_config(stored: dict[str, Any]) -> None:
    # the stored config with or without admission's plugins[].name: "" renders the same
    want = {"plugins": [{"name": "", "type": "single-profile-handler", "parameters": None},
                        {"name": "kv", "type": "kv", "parameters": None}],
            "schedulingProfiles": [{"name": "default", "plugins": [{"pluginRef": "kv", "weight": 2},
                                                                   {"pluginRef": "pick", "weight": None}]}]}
    assert typed_config(stored) == want
    assert typed_config(stored, type_meta=True) == {
        "kind": "EndpointPickerConfig", "apiVersion": "inference.networking.x-k8s.io/v1alpha1", **want}


def test_typed_epp_config_go_decoding() -> None:
    # encoding/json: case-insensitive keys (the last one wins), omitempty feature gates, the
    # saturation detector's metav1.Duration always written in Go's form
    cfg = {"Plugins": [{"TYPE": "a"}], "schedulingprofiles": [], "featureGates": [],
           "saturationDetector": {"queueDepthThreshold": 0, "metricsStalenessThreshold": "1m30s"}}
    assert typed_config(cfg) == {"plugins": [{"name": "", "type": "a", "parameters": None}], "schedulingProfiles": [],
                                 "saturationDetector": {"metricsStalenessThreshold": "1m30s"}}
    assert typed_config({"saturationDetector": {}})["saturationDetector"] == {"metricsStalenessThreshold": "0s"}
    assert typed_config({})["plugins"] is None


def test_child_dcd_carries_the_stamped_config() -> None:
    epp = _component("epp", "epp", "dynamo-frontend:1.4.0", eppConfig={"config": CONFIG})
    dcds = [o for o in render(_dgd([epp, _component("worker", "worker", "vllm-runtime:1.4.0")]), "dcd",
                              RenderOptions(namespace="ns")) if o["spec"]["type"] == "epp"]
    cfg = dcds[0]["spec"]["eppConfig"]["config"]
    assert cfg["apiVersion"] == "inference.networking.x-k8s.io/v1alpha1" and cfg["kind"] == "EndpointPickerConfig"
    assert "unknownTopLevel" not in cfg and cfg["plugins"][1] == {"name": "kv", "parameters": None, "type": "kv"}
    # with a configMapRef no ConfigMap is generated, so no TypeMeta is set
    ref = _component("epp", "epp", "dynamo-frontend:1.4.0",
                     eppConfig={"configMapRef": {"name": "mine"}, "config": CONFIG})
    dcd = next(o for o in render(_dgd([ref, _component("worker", "worker", "vllm-runtime:1.4.0")]), "dcd",
                                 RenderOptions(namespace="ns")) if o["spec"]["type"] == "epp")
    assert "kind" not in dcd["spec"]["eppConfig"]["config"]
