"""v1alpha1 <-> v1beta1 conversion: field mapping (conversion.md §4) and round trips over the upstream
corpus (CONVERSION.md: hub -> spoke -> hub and spoke -> hub -> spoke are identities)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._convert._v1alpha1 import ConversionError, is_dgd_conversion_annotation, to_v1alpha1, to_v1beta1

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus").resolve()
KINDS = ("DynamoGraphDeployment", "DynamoComponentDeployment", "DynamoGraphDeploymentRequest")


def _corpus() -> list[tuple[str, dict]]:
    out = []
    if not CORPUS.is_dir():
        return out
    for path in sorted(CORPUS.glob("*/*.yaml")):
        with open(path, encoding="utf-8") as fh:
            for i, doc in enumerate(yaml.load_all(fh, Loader=yaml.CSafeLoader)):
                if isinstance(doc, dict) and doc.get("kind") in KINDS:
                    out.append((f"{path.parent.name}/{path.name}#{i}", doc))
    return out


CORPUS_DOCS = _corpus()


def _normalise(obj: Any) -> Any:
    """Ignore the private conversion payloads (CONVERSION.md mutability fuzz does the same) and a
    container ``resources: {}`` (a non-pointer struct upstream: absent and empty are one value)."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k == "resources" and v == {}:
                continue
            # upstream's typed preservation cannot tell a Go zero value from an absent field
            # (``containers: null``, a main container ``name: ""``): compare them as equal
            if v is None or (k == "name" and v == ""):
                continue
            if k == "spec" and v == {}:  # a value struct: a null spec comes back as {} (as upstream's, D59)
                continue
            if k == "annotations" and isinstance(v, dict):
                v = {
                    a: b
                    for a, b in v.items()
                    if not a.startswith(("nvidia.com/dgd-", "nvidia.com/dcd-", "nvidia.com/dgdr-"))
                }
                if not v:
                    continue
            out[k] = _normalise(v)
        return out
    if isinstance(obj, list):
        return [_normalise(x) for x in obj]
    return obj


@pytest.mark.skipif(not CORPUS_DOCS, reason="../shared corpus not available")
@pytest.mark.parametrize("doc", [d for _, d in CORPUS_DOCS], ids=[n for n, _ in CORPUS_DOCS])
def test_corpus_round_trip(doc: dict) -> None:
    before = copy.deepcopy(doc)
    if doc["apiVersion"] == "nvidia.com/v1alpha1":
        mid = to_v1beta1(doc)
        assert mid["apiVersion"] == "nvidia.com/v1beta1"
        back = to_v1alpha1(mid)
    else:
        mid = to_v1alpha1(doc)
        assert mid["apiVersion"] == "nvidia.com/v1alpha1"
        back = to_v1beta1(mid)
    assert doc == before, "input mutated"
    assert _normalise(back) == _normalise(doc)
    spec = mid.get("spec") or {}
    if doc["kind"] == "DynamoGraphDeployment":
        assert ("services" in spec) == (mid["apiVersion"] == "nvidia.com/v1alpha1") or not spec


def _dgd(api: str, spec: dict) -> dict:
    return {"apiVersion": f"nvidia.com/{api}", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"}, "spec": spec}


def _alpha(services: dict, **spec: Any) -> dict:
    return _dgd("v1alpha1", {**spec, "services": services})


def _beta(components: list, **spec: Any) -> dict:
    return _dgd("v1beta1", {**spec, "components": components})


def test_services_map_becomes_sorted_component_list() -> None:
    beta = to_v1beta1(
        _alpha(
            {"Worker": {"componentType": "worker"}, "Frontend": {"componentType": "frontend"}},
            envs=[{"name": "A", "value": "1"}],
        )
    )
    assert [c["name"] for c in beta["spec"]["components"]] == ["Frontend", "Worker"]
    assert beta["spec"]["components"][0]["type"] == "frontend"
    assert beta["spec"]["env"] == [{"name": "A", "value": "1"}]
    assert "envs" not in beta["spec"]


def test_worker_subcomponent_promoted_and_back() -> None:
    beta = to_v1beta1(_alpha({"p": {"componentType": "worker", "subComponentType": "prefill"}}))
    assert beta["spec"]["components"][0]["type"] == "prefill"
    alpha = to_v1alpha1(_beta([{"name": "d", "type": "decode"}]))
    assert alpha["spec"]["services"]["d"]["componentType"] == "worker"
    assert alpha["spec"]["services"]["d"]["subComponentType"] == "decode"


def test_pod_fields_go_to_main_container() -> None:
    svc = {
        "componentType": "worker",
        "resources": {"limits": {"gpu": "2", "cpu": "4"}, "requests": {"gpu": "1", "gpuType": "amd.com/gpu"}},
        "envs": [{"name": "A", "value": "a"}, {"name": "B", "value": "b"}],
        "envFromSecret": "hf-token",
        "volumeMounts": [
            {"name": "cache", "mountPoint": "/cache", "useAsCompilationCache": True},
            {"name": "models", "mountPoint": "/models"},
        ],
        "extraPodMetadata": {"labels": {"l": "v"}},
        "extraPodSpec": {
            "tolerations": [{"key": "k", "operator": "Exists"}],
            "mainContainer": {"image": "img", "args": ["--x"], "env": [{"name": "B", "value": "B2"}]},
        },
        "sharedMemory": {"disabled": True},
        "scalingAdapter": {"enabled": True},
        "frontendSidecar": {"image": "fe", "args": ["-m", "dynamo.frontend"]},
    }
    comp = to_v1beta1(_alpha({"w": svc}))["spec"]["components"][0]
    main = comp["podTemplate"]["spec"]["containers"][0]
    assert main["name"] == "main"
    assert main["image"] == "img" and main["args"] == ["--x"]
    assert main["env"] == [{"name": "A", "value": "a"}, {"name": "B", "value": "B2"}]  # additive, main wins
    assert main["envFrom"] == [{"secretRef": {"name": "hf-token"}}]
    assert main["resources"]["limits"] == {"cpu": "4", "nvidia.com/gpu": "2"}
    assert main["resources"]["requests"] == {"amd.com/gpu": "1"}
    assert main["volumeMounts"] == [
        {"name": "cache", "mountPath": "/cache"},
        {"name": "models", "mountPath": "/models"},
    ]
    assert comp["compilationCache"] == {"pvcName": "cache", "mountPath": "/cache"}
    assert comp["podTemplate"]["metadata"] == {"labels": {"l": "v"}}
    assert comp["podTemplate"]["spec"]["tolerations"] == [{"key": "k", "operator": "Exists"}]
    assert comp["sharedMemorySize"] == "0"
    assert comp["scalingAdapter"] == {}
    assert comp["frontendSidecar"] == "sidecar-frontend"
    names = [c["name"] for c in comp["podTemplate"]["spec"]["containers"]]
    assert names == ["main", "sidecar-frontend"]
    # and back: every field survives
    back = to_v1alpha1(to_v1beta1(_alpha({"w": svc})))["spec"]["services"]["w"]
    # upstream ConvertToSharedMemorySpec: sharedMemorySize "0" -> {disabled: true, size: "0"}; upstream
    # restorePreservedVolumeMountOrigins lists the saved mounts that are not caches first, then the cache mount
    # (upstream's own ConvertTo + ConvertFrom at 2a6da14c give this order for this very service, D59)
    assert back == {**svc, "sharedMemory": {"disabled": True, "size": "0"},
                    "volumeMounts": [{"name": "models", "mountPoint": "/models"},
                                     {"name": "cache", "mountPoint": "/cache", "useAsCompilationCache": True}]}


@pytest.mark.parametrize(
    "svc",
    [
        {"componentType": "worker", "sharedMemory": {}},
        {"componentType": "worker", "scalingAdapter": {"enabled": False}},
        {"componentType": "worker", "gpuMemoryService": {"enabled": False, "mode": "intraPod"}},
        {"componentType": "frontend", "ingress": {"enabled": True, "host": "h"}},
        {"componentType": "worker", "autoscaling": {"enabled": True, "minReplicas": 1}},
        {"componentType": "worker", "dynamoNamespace": "old"},
        {"componentType": "worker", "labels": {"a": "b"}, "annotations": {"c": "d"}},
        {"componentType": "worker", "serviceName": "other-name"},
        {"componentType": "worker", "subComponentType": "custom"},
    ],
    ids=[
        "sharedMemory-empty",
        "scalingAdapter-disabled",
        "gms-disabled",
        "ingress",
        "autoscaling",
        "dynamoNamespace",
        "service-labels",
        "serviceName-mismatch",
        "other-subComponentType",
    ],
)
def test_lossy_alpha_fields_survive_round_trip(svc: dict) -> None:
    doc = _alpha({"w": svc}, pvcs=[{"name": "model-cache", "create": False}])
    beta = to_v1beta1(doc)
    assert "nvidia.com/dgd-spec" in beta["metadata"]["annotations"]
    json.loads(beta["metadata"]["annotations"]["nvidia.com/dgd-spec"])
    assert to_v1alpha1(beta) == doc


def test_beta_only_fields_survive_round_trip() -> None:
    doc = _beta(
        [
            {
                "name": "Worker",
                "type": "worker",
                "frontendSidecar": "sidecar",
                "podTemplate": {
                    "spec": {
                        "containers": [
                            {"name": "sidecar", "image": "s"},
                            {"name": "main", "image": "m", "args": ["--a"]},
                        ]
                    }
                },
            },
            {"name": "Frontend", "type": "frontend"},
        ]
    )
    alpha = to_v1alpha1(doc)
    assert set(alpha["spec"]["services"]) == {"Worker", "Frontend"}
    assert "frontendSidecar" not in alpha["spec"]["services"]["Worker"]
    assert to_v1beta1(alpha) == doc  # component order, container order, frontendSidecar name


def test_experimental_presence_and_modes() -> None:
    alpha = _alpha(
        {
            "w": {
                "componentType": "worker",
                "gpuMemoryService": {"enabled": True, "mode": "interPod"},
                "failover": {"enabled": True, "mode": "intraPod", "numShadows": 1},
            }
        }
    )
    comp = to_v1beta1(alpha)["spec"]["components"][0]
    assert comp["experimental"] == {
        "gpuMemoryService": {"mode": "InterPod"},
        "failover": {"mode": "IntraPod", "numShadows": 1},
    }
    assert to_v1alpha1(to_v1beta1(alpha)) == alpha


def test_topology_profile_renamed() -> None:
    alpha = _alpha({}, topologyConstraint={"topologyProfile": "t", "packDomain": "rack"})
    beta = to_v1beta1(alpha)
    assert beta["spec"]["topologyConstraint"] == {"clusterTopologyName": "t", "packDomain": "rack"}
    assert to_v1alpha1(beta)["spec"]["topologyConstraint"] == {"topologyProfile": "t", "packDomain": "rack"}


def test_duplicate_component_name_rejected() -> None:
    with pytest.raises(ConversionError, match='duplicate component name "w" in spec.components'):
        to_v1alpha1(_beta([{"name": "w"}, {"name": "w"}]))


def test_private_annotations_scrubbed_and_prefix() -> None:
    doc = _alpha({"w": {"componentType": "worker"}})
    doc["metadata"]["annotations"] = {"nvidia.com/dgd-spec": "not json", "keep": "me"}
    beta = to_v1beta1(doc)
    assert beta["metadata"]["annotations"] == {"keep": "me"}
    assert is_dgd_conversion_annotation("nvidia.com/dgd-anything")
    assert not is_dgd_conversion_annotation("nvidia.com/dcd-spec")


def test_dcd_name_defaults_from_metadata() -> None:
    dcd = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "x"},
        "spec": {"backendFramework": "vllm", "componentType": "worker", "replicas": 2},
    }
    beta = to_v1beta1(dcd)
    assert beta["spec"] == {"backendFramework": "vllm", "name": "x", "type": "worker", "replicas": 2}


def test_dcd_kind_read_from_json_is_converted_as_a_dcd() -> None:
    """A DCD whose kind is a decoded (not interned) string still takes the DCD conversion (kind compared by value)."""
    dcd = json.loads(json.dumps({
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "x"},
        "spec": {"backendFramework": "vllm", "componentType": "worker", "replicas": 2},
    }))
    assert dcd["kind"] is not KINDS[1]  # the point: an equal string, not the interned literal
    beta = to_v1beta1(dcd)
    assert beta["spec"] == {"backendFramework": "vllm", "name": "x", "type": "worker", "replicas": 2}


# ---------------------------------------------------------------------------------------------------
# DGDR spec conversion (fixtures and expectations of upstream
# deploy/operator/api/v1alpha1/dynamographdeploymentrequest_conversion_test.go)


def _dgdr(api: str, name: str, spec: dict) -> dict:
    return {
        "apiVersion": f"nvidia.com/{api}",
        "kind": "DynamoGraphDeploymentRequest",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    }


def _alpha_dgdr() -> dict:
    return _dgdr(
        "v1alpha1",
        "test-dgdr",
        {
            "model": "meta-llama/Llama-3.1-8B",
            "backend": "vllm",
            "runtimeVersionOverride": "1.2.3",
            "autoApply": True,
            "useMocker": True,
            "profilingConfig": {
                "profilerImage": "nvcr.io/nvidia/dynamo:latest",
                "outputPVC": "output-pvc",
                "config": {
                    "sla": {
                        "ttft": 500.0,
                        "itl": 20.0,
                        "isl": 2048.0,
                        "osl": 512.0,
                        "optimizationType": "latency",
                    },
                    "deployment": {
                        "modelCache": {
                            "pvcName": "model-pvc",
                            "modelPathInPvc": "llama-3",
                            "pvcMountPath": "/data/model",
                        }
                    },
                    "planner": {"enable_load_scaling": False},
                    "extra_key": "preserved",
                },
                "configMapRef": {"name": "base-config", "key": "disagg.yaml"},
            },
            "enableGpuDiscovery": True,
            "deploymentOverrides": {"name": "my-dgd", "namespace": "prod", "labels": {"team": "ml"}},
        },
    )


def _beta_dgdr() -> dict:
    return _dgdr(
        "v1beta1",
        "hub-dgdr",
        {
            "model": "Qwen/Qwen3-32B",
            "backend": "vllm",
            "autoApply": False,
            "image": "nvcr.io/nvidia/dynamo:custom",
            "runtimeVersionOverride": "1.2.3",
            "sla": {"ttft": 300.0, "itl": 15.0},
            "workload": {"isl": 1024, "osl": 256},
            "modelCache": {"pvcName": "qwen-pvc", "pvcModelPath": "qwen3-32b", "pvcMountPath": "/models"},
            "features": {"mocker": {"enabled": True}, "planner": {"enable_load_scaling": False}},
        },
    )


def test_dgdr_convert_to_spec_fields() -> None:
    src = _alpha_dgdr()
    dst = to_v1beta1(src)
    spec = dst["spec"]
    assert spec["model"] == "meta-llama/Llama-3.1-8B" and spec["backend"] == "vllm"
    assert spec["autoApply"] is True and spec["runtimeVersionOverride"] == "1.2.3"
    assert spec["image"] == "nvcr.io/nvidia/dynamo:latest"
    assert spec["features"]["mocker"] == {"enabled": True}
    assert spec["sla"] == {"ttft": 500.0, "itl": 20.0, "optimizationType": "latency"}
    assert spec["workload"] == {"isl": 2048, "osl": 512}
    assert spec["modelCache"] == {
        "pvcName": "model-pvc",
        "pvcModelPath": "llama-3",
        "pvcMountPath": "/data/model",
    }
    assert spec["features"]["planner"] == {"enable_load_scaling": False}
    assert dst["metadata"]["annotations"]["nvidia.com/dgdr-spec"]


def test_dgdr_alpha_round_trip() -> None:
    original = _alpha_dgdr()
    back = to_v1alpha1(to_v1beta1(original))
    assert back["spec"] == original["spec"]  # incl. extra_key, configMapRef, outputPVC, deploymentOverrides
    assert "annotations" not in back["metadata"]


def test_dgdr_hub_round_trip_and_defaults() -> None:
    original = _beta_dgdr()
    alpha = to_v1alpha1(original)
    assert alpha["spec"]["useMocker"] is True
    assert alpha["spec"]["autoApply"] is False
    assert alpha["spec"]["profilingConfig"]["profilerImage"] == "nvcr.io/nvidia/dynamo:custom"
    assert alpha["spec"]["profilingConfig"]["config"]["sla"] == {
        "ttft": 300.0,
        "itl": 15.0,
        "isl": 1024,
        "osl": 256,
    }
    assert to_v1beta1(alpha)["spec"] == original["spec"]
    # an absent v1beta1 autoApply converts to the v1beta1 default (true)
    no_auto = copy.deepcopy(original)
    del no_auto["spec"]["autoApply"]
    assert to_v1alpha1(no_auto)["spec"]["autoApply"] is True


def test_dgdr_retired_annotations_scrubbed() -> None:
    doc = _alpha_dgdr()
    doc["metadata"]["annotations"] = {
        "nvidia.com/dgdr-output-pvc": "stale",
        "nvidia.com/dgdr-profiling-config": "stale",
        "example.com/keep": "value",
    }
    anns = to_v1beta1(doc)["metadata"]["annotations"]
    assert anns["example.com/keep"] == "value"
    assert "nvidia.com/dgdr-output-pvc" not in anns and "nvidia.com/dgdr-profiling-config" not in anns


def test_dgdr_profiling_job_projection() -> None:
    doc = _alpha_dgdr()
    doc["spec"]["profilingConfig"].update(
        {
            "resources": {"limits": {"cpu": "2"}},
            "tolerations": [{"key": "gpu", "operator": "Exists"}],
            "nodeSelector": {"pool": "gpu"},
        }
    )
    job = to_v1beta1(doc)["spec"]["overrides"]["profilingJob"]
    assert job["template"]["spec"] == {
        "containers": [{"name": "profiler", "resources": {"limits": {"cpu": "2"}}}],
        "tolerations": [{"key": "gpu", "operator": "Exists"}],
        "nodeSelector": {"pool": "gpu"},
    }
    assert to_v1alpha1(to_v1beta1(doc))["spec"] == doc["spec"]


def test_dgdr_profiler_beside_other_containers_kept_in_hub_only_payload() -> None:
    """Upstream ``dgdrHubOnlyProfilingJob``: the stripped name-only profiler is dropped only when it is the sole container."""
    containers = [{"name": "sidecar", "image": "busybox"}, {"name": "profiler", "resources": {"limits": {"cpu": "2"}}}]
    hub = _dgdr("v1beta1", "hub-dgdr", {"model": "m", "overrides": {"profilingJob": {"template": {"spec": {
        "containers": containers}}}}})
    alpha = to_v1alpha1(hub)
    assert alpha["spec"]["profilingConfig"] == {"resources": {"limits": {"cpu": "2"}}}
    saved = json.loads(alpha["metadata"]["annotations"]["nvidia.com/dgdr-spec"])
    # upstream's typed save (marshalPreservedSpec of a v1beta1 DGDR spec): a container's value-struct
    # resources is written as {} (the bytes of upstream's ConvertFrom at 2a6da14c)
    assert saved["spec"]["overrides"]["profilingJob"]["template"]["spec"]["containers"] == [
        {"name": "sidecar", "image": "busybox", "resources": {}},
        {"name": "profiler", "resources": {}},
    ]
    assert to_v1beta1(alpha)["spec"] == {**hub["spec"], "autoApply": True}


def test_dgdr_hub_without_blob_leaves_writes_no_profiling_config() -> None:
    """Upstream ConvertFrom merges SLA/workload into the blob only when ttft/itl/isl/osl is set: an SLA or workload
    holding only v1beta1-only fields (e2eLatency, concurrency) writes no ``profilingConfig.config`` (no empty sla)."""
    hub = _dgdr("v1beta1", "hub-dgdr", {"model": "Qwen/Qwen3-32B", "sla": {"e2eLatency": 1000.0},
                                        "workload": {"concurrency": 4}})
    alpha = to_v1alpha1(hub)
    assert "config" not in alpha["spec"]["profilingConfig"]
    assert to_v1beta1(alpha)["spec"] == {**hub["spec"], "autoApply": True}  # kept in the hub-only annotation


def test_frontend_sidecar_found_by_exact_name_among_extra_containers() -> None:
    """Upstream ConvertFrom finds the frontend sidecar by its exact container name: other extra containers
    (any name, before or after it) stay in extraPodSpec.containers and the sidecar's image/args come back."""
    svc = {
        "componentType": "worker",
        "extraPodSpec": {"containers": [{"name": "zz-logger", "image": "logger:1"}, {"name": "aa-proxy", "image": "p:1"}]},
        "frontendSidecar": {"image": "fe:1", "args": ["-m", "dynamo.frontend"]},
    }
    beta = to_v1beta1(_alpha({"w": svc}))
    comp = beta["spec"]["components"][0]
    assert comp["frontendSidecar"] == "sidecar-frontend"
    back = to_v1alpha1(beta)["spec"]["services"]["w"]
    assert back["frontendSidecar"] == {"image": "fe:1", "args": ["-m", "dynamo.frontend"]}
    assert back["extraPodSpec"]["containers"] == svc["extraPodSpec"]["containers"]


def test_dgdr_blob_sla_keeps_unprojected_keys_on_round_trip() -> None:
    """Upstream projectSLAAndWorkloadToProfilingConfigBlob writes the typed SLA leaves into the saved
    ``sla`` map, keeping its unprojectable keys (alpha -> hub -> alpha does not drop user JSON)."""
    doc = _alpha_dgdr()
    doc["spec"]["profilingConfig"]["config"]["sla"]["custom"] = "kept"
    beta = to_v1beta1(doc)
    assert beta["spec"]["sla"] == {"ttft": 500.0, "itl": 20.0, "optimizationType": "latency"}
    back = to_v1alpha1(beta)
    assert back["spec"]["profilingConfig"]["config"]["sla"] == {
        "ttft": 500.0, "itl": 20.0, "isl": 2048, "osl": 512, "optimizationType": "latency", "custom": "kept"}


@pytest.mark.parametrize("spec", ["null", "absent"])
def test_dcd_without_spec_converts_like_an_empty_one(spec: str) -> None:
    """Upstream's ConvertTo decodes the v1alpha1 spec into a value struct: a null or absent spec converts as {}
    does, its name defaulted from metadata.name (upstream's converter at 2a6da14c gives ``spec: {name: g}`` and
    this very dcd-spec save for both, D59)."""
    doc: dict[str, Any] = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                           "metadata": {"name": "g", "namespace": "ns"}}
    if spec == "null":
        doc["spec"] = None
    beta = to_v1beta1(doc)
    assert beta["spec"] == {"name": "g"}
    assert beta["metadata"]["annotations"] == {
        "nvidia.com/dcd-spec": '{"version":1,"spec":{},"rawJSON":[{"path":"serviceName","nil":true}]}'}
    assert to_v1alpha1(beta)["spec"] == {}
