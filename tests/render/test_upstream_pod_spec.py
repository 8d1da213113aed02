"""The operator's pod-spec render unit-test rows (reference revision 2a6da14c), run against our render code:
``internal/dynamo/graph_test.go`` GenerateBasePodSpec / GeneratePodSpecForComponent (security context,
discovery, frontend and its sidecar, planner service account, volume mounts, compilation cache, resource
claims, PVC volumes, base container env); the GPU Memory Service rows (``internal/gms/gms_test.go`` and the
intra-pod GMS tests of graph_test.go) have their adapters in ``upstream/gms.py``.

The rows are reference data in ``../shared/reference/dynamo/upstream-render-tests/`` (read by
``upstream/_support.py``; skipped without ../shared). An adapter calls our counterpart of the Go function
under test and makes the assertions the Go loop makes; ``upstream/state.py`` lists the rows expected to
fail (strict xfail), ``test_upstream_index.py`` keeps the index, the adapters and the data in step.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dynamo_schema._render._options import RenderOptions
from dynamo_schema._render._podrequest import PodRequest

from ._upstream_rows import row_params
from .upstream import gms as _gms
from .upstream._support import (
    ADAPTERS,
    GPU,
    adapter,
    base_pod,
    beta_component,
    controller_options,
    env,
    with_gpus,
)

pytestmark = pytest.mark.shared


# ---------------------------------------------------------------- GenerateBasePodSpec


@adapter("TestGenerateBasePodSpec_SecurityContext")
def _pod_security_context(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = base_pod(row["component"], "noop", controller_options({}))
    assert pod.get("securityContext") == row["expectedSecurityContext"]


@adapter("TestGenerateBasePodSpec_DiscoverBackend")
def _pod_discovery(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = base_pod(row["component"], "sglang", controller_options(row["controllerConfig"]))
    found = env(pod["containers"][0], "DYN_DISCOVERY_BACKEND")
    if row["wantEnvVar"]:
        assert {"name": "DYN_DISCOVERY_BACKEND", "value": row["wantEnvVar"]} in found
    else:
        assert not found


@adapter("TestGenerateBasePodSpec_Frontend")
def _pod_frontend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    if row["wantErr"]:
        with pytest.raises(RenderError):
            base_pod(row["component"], row["backendFramework"])
        return
    main = base_pod(row["component"], row["backendFramework"])["containers"][0]
    assert main.get("command") == row["wantCommand"]
    assert main.get("args") == row["wantArgs"]
    values = {e["name"]: e.get("value", "") for e in main.get("env") or []}
    for k, v in row["wantEnvVars"].items():
        assert values.get(k, "") == v, k


@adapter("TestGenerateBasePodSpec_PlannerServiceAccount")
def _pod_planner_sa(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = base_pod(row["component"], "noop", controller_options({}))
    assert pod.get("serviceAccountName", "") == row["expectedServiceAcc"]


@adapter("TestGenerateBasePodSpec_VolumeMounts")
def _pod_volume_mounts(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    if row["expectError"]:
        with pytest.raises(RenderError):
            base_pod(row["component"], "vllm")
        return
    pod = base_pod(row["component"], "vllm")
    for pvc in row["expectedPVCs"] or []:
        assert any(v["name"] == pvc and (v.get("persistentVolumeClaim") or {}).get("claimName") == pvc
                   for v in pod.get("volumes") or []), pvc
    mounts = pod["containers"][0].get("volumeMounts") or []
    for want in row["expectedMounts"] or []:
        assert any(m["name"] == want["name"] and m["mountPath"] == want["mountPath"] for m in mounts), want
    if row["expectedInit"] is not None:
        assert pod["initContainers"][0]["volumeMounts"] == row["expectedInit"]


@adapter("TestApplyCompilationCacheVolume")
def _cache_volume(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._pod import _compilation_cache_volume

    pod: dict[str, Any] = {"volumes": copy.deepcopy(row["volumes"] or [])}
    comp = {"compilationCache": {"pvcName": "compilation-cache"}}
    if row["expectedError"]:
        with pytest.raises(RenderError) as exc:
            _compilation_cache_volume(pod, comp, ())
        assert str(exc.value) == row["expectedError"]
        assert pod["volumes"] == (row["volumes"] or [])
        return
    _compilation_cache_volume(pod, comp, ())
    assert pod["volumes"] == row["expectedVolumes"]


@adapter("TestApplyCompilationCacheExistingMount")
def _cache_mount(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._pod import _compilation_cache

    container: dict[str, Any] = {"volumeMounts": copy.deepcopy(row["mounts"] or [])}
    comp = {"compilationCache": {"pvcName": "compilation-cache", "mountPath": "/home/dynamo/.cache/vllm"}}
    if row["expectedError"]:
        with pytest.raises(RenderError) as exc:
            _compilation_cache(container, comp, "vllm", ())
        assert str(exc.value) == row["expectedError"]
        assert container["volumeMounts"] == (row["mounts"] or [])
        return
    _compilation_cache(container, comp, "vllm", ())
    assert container["volumeMounts"] == row["expectedMounts"]


@adapter("TestGenerateBasePodSpec_UseAsCompilationCache_BackendSupport")
def _pod_cache_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    if row["expectError"]:
        with pytest.raises(RenderError):
            base_pod(row["component"], row["backendFramework"], controller_options({}))
        return
    pod = base_pod(row["component"], row["backendFramework"], controller_options({}))
    want = row["expectedMount"]
    if want is not None:
        assert any(v["name"] == want["name"] and (v.get("persistentVolumeClaim") or {}).get("claimName") == want["name"]
                   for v in pod.get("volumes") or [])
        assert any(m["name"] == want["name"] and m["mountPath"] == want["mountPath"]
                   for m in pod["containers"][0].get("volumeMounts") or [])


def pod_for_component(alpha: dict[str, Any], backend: str, role: str, nodes: int) -> dict[str, Any]:
    """``GeneratePodSpecForComponent`` as those tests call it: DGD test-deployment in default, the Grove
    deployer, service ``worker``, an empty configuration, the GPU count of the component's resources."""
    from dynamo_schema._render._pod import generate_pod_spec

    comp = beta_component(alpha)
    req = PodRequest(component=comp, component_type=str(comp.get("type") or ""), backend=backend,
                     dgd_name="test-deployment", namespace="default", role=role, nodes=nodes, deployer="grove",
                     service_name="worker", options=controller_options({}))
    return generate_pod_spec(req)


@adapter("TestGeneratePodSpecForComponent_VLLM", "TestGeneratePodSpecForComponent_SGLang")
def _pod_for_component(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    if row["expectError"]:
        with pytest.raises(RenderError):
            pod_for_component(row["component"], row["backendFramework"], row["role"], row["numberOfNodes"])
        return
    main = pod_for_component(row["component"], row["backendFramework"], row["role"], row["numberOfNodes"])["containers"][0]
    line = " ".join([str(x) for x in (main.get("command") or []) + (main.get("args") or [])])
    for want in row["expectContains"] or []:
        assert want in line, want
    for not_want in row["expectNotContains"] or []:
        assert not_want not in line, not_want


@adapter("TestGeneratePodSpecForComponent_UnsupportedBackend")
def _pod_unsupported_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    call = ({"componentType": "worker"}, row["backendFramework"], "main", 1)
    if row["expectError"]:
        with pytest.raises(RenderError) as exc:
            pod_for_component(*call)
        assert row["errorContains"] in str(exc.value)
    else:
        pod_for_component(*call)


# ---------------------------------------------------------------- hand-ported single tests


@adapter("TestGenerateBasePodSpec_FrontendSidecar")
def _pod_frontend_sidecar(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._pod import generate_pod_spec

    backend = row["backendFramework"] or "vllm"
    nodes = row["numberOfNodes"] or 1
    role = "leader" if nodes > 1 else "main"
    comp = with_gpus(beta_component(row["component"]), 0) if nodes > 1 else beta_component(row["component"])
    req = PodRequest(component=comp, component_type=str(comp.get("type") or ""), backend=backend,
                     dgd_name=row["parentDGDName"], namespace=row["namespace"], role=role, nodes=nodes,
                     deployer="grove", service_name="test-service",
                     options=RenderOptions(discovery_backend="", mpi_ssh_secret_name="mpi-ssh-secret"))
    if row["wantErr"]:
        with pytest.raises(RenderError):
            generate_pod_spec(req)
        return
    pod = generate_pod_spec(req)
    assert len(pod["containers"]) == row["wantSidecarCount"]
    if row["wantSidecarCount"] <= 1:
        return
    sidecar = pod["containers"][-1]
    assert sidecar["name"] == row["wantSidecarName"]
    assert sidecar.get("image", "") == row["wantSidecarImage"]
    if row["wantSidecarArgs"] is not None:
        assert sidecar.get("args") == row["wantSidecarArgs"]
    assert sidecar.get("command") == ["python3"]
    if row["wantSidecarEnvVars"] is not None:
        values = {e["name"]: e.get("value", "") for e in sidecar.get("env") or []}
        for k, v in row["wantSidecarEnvVars"].items():
            assert values.get(k, "") == v, k
    if row["wantSidecarEnvFrom"] > 0:
        assert len(sidecar["envFrom"]) == row["wantSidecarEnvFrom"]
        assert sidecar["envFrom"][0]["secretRef"]["name"] == "hf-token-secret"
    if row["wantSidecarProbes"]:
        assert sidecar["livenessProbe"]["httpGet"]["path"] == "/live"
        assert sidecar["readinessProbe"]["httpGet"]["path"] == "/health"
    if row["wantSidecarPorts"]:
        assert sidecar["ports"] and sidecar["ports"][0]["containerPort"] == 8000
    for name in ("POD_NAME", "POD_NAMESPACE", "POD_UID"):
        assert any(e["name"] == name and (e.get("valueFrom") or {}).get("fieldRef") for e in sidecar.get("env") or []), name
    if row["wantSidecarMounts"] is not None:
        key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731 - ElementsMatch
        assert sorted(map(key, sidecar.get("volumeMounts") or [])) == sorted(map(key, row["wantSidecarMounts"]))
    for absent in row["wantSidecarMountsAbsent"] or []:
        assert all(m["name"] != absent for m in sidecar.get("volumeMounts") or []), absent
    for want in row["wantWorkerMounts"] or []:
        assert any(m["name"] == want["name"] and m["mountPath"] == want["mountPath"]
                   for m in pod["containers"][0].get("volumeMounts") or []), want
    if row["wantUniqueVolumes"] is not None:
        counts: dict[str, int] = {}
        for v in pod.get("volumes") or []:
            counts[v["name"]] = counts.get(v["name"], 0) + 1
        assert counts == row["wantUniqueVolumes"]


@adapter("TestGenerateBasePodSpec_ResourceClaims")
def _pod_resource_claims(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    if row["expectError"]:
        with pytest.raises(RenderError):
            base_pod(row["component"], "trtllm", controller_options({}))
        return
    pod = base_pod(row["component"], "trtllm", controller_options({}))
    main = pod["containers"][0]
    assert (main.get("resources") or {}).get("claims") == row["expectedResourceClaims"]
    assert pod.get("resourceClaims") == row["expectedPodClaims"]
    if row["expectedVolumes"] is not None:
        assert pod.get("volumes") == row["expectedVolumes"]
    if row["expectedResourceClaims"]:
        res = (row["component"] or {}).get("resources") or {}
        for key, section, name in (("cpu", "requests", "cpu"), ("memory", "requests", "memory"),
                                   ("gpu", "limits", GPU)):
            if (res.get(section) or {}).get(key):
                value = (main["resources"].get(section) or {}).get(name)
                assert value not in (None, "0", 0), (section, name)


@adapter("TestAppendMissingPVCVolumesForMountsAddsMissingPVCs",
         "TestAppendMissingPVCVolumesForMountsKeepsRepeatedVolumeMountsUnique")
def _append_pvc_volumes(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import _append_missing_pvc_volumes

    got = _append_missing_pvc_volumes(copy.deepcopy(row["volumes"]), copy.deepcopy(row["mounts"]))
    assert [v["name"] for v in got] == row["names"]
    for volume, claim in row["claims"].items():
        assert next(v for v in got if v["name"] == volume)["persistentVolumeClaim"]["claimName"] == claim


@adapter("TestFrontendDefaults_NamespacePrefixEnvVar", "TestWorkerDefaults_WorkerHashSuffixEnvVar",
         "TestBaseComponentDefaults_ContainerNameOnlyInContainerDiscoveryMode")
def _base_container_env(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import Ctx, base_container

    for item in row["contexts"]:
        cc = item["ctx"]
        disc = cc.get("Discovery") or {}
        ctx = Ctx(dynamo_namespace=cc["DynamoNamespace"], component_type=cc["ComponentType"], dgd_name="",
                  namespace="", discovery_backend=disc.get("Backend", ""), discovery_mode=disc.get("Mode") or "pod",
                  worker_hash=cc.get("WorkerHashSuffix", ""))
        values = {e["name"]: e.get("value", "") for e in base_container(ctx).get("env") or []}
        for k, v in item["present"].items():
            assert values.get(k) == v, k
        for k in item["absent"]:
            assert k not in values, k


# ---------------------------------------------------------------- tests


PARAMS = row_params(__name__, _gms.__name__)


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)
