"""The operator's own render unit-test rows (reference revision 2a6da14c), run against our render code.

The rows are reference data in ``../shared/reference/dynamo/upstream-render-tests/`` (read by
``upstream/_support.py``; skipped without ../shared). Each ported test function has an adapter that calls
our counterpart of the Go function under test and makes the assertions the Go loop makes: the adapters of
the first ports are below, the later ones in ``upstream/`` (``graph.py``, ``pcs.py``, ``controller.py``,
``gms.py``). ``upstream/state.py`` is the project's own record: the functions out of scope (with the
reason) and the rows expected to fail (strict xfail, with the operator behaviour we lack);
``test_index_matches_cases`` keeps it, the adapters and the data in step.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._render import _backends as B
from dynamo_schema._render._options import RenderOptions
from dynamo_schema._render._podrequest import PodRequest

from .upstream import controller as _controller  # noqa: F401 - registers adapters
from .upstream import gms as _gms  # noqa: F401 - registers adapters
from .upstream import graph as _graph  # noqa: F401 - registers adapters
from .upstream import pcs as _pcs  # noqa: F401 - registers adapters
from .upstream._support import (
    ADAPTERS,
    GPU,
    LOCAL_ROWS,
    PROBES,
    adapter,
    alpha_dgd,
    base_pod,
    beta_component,
    beta_dcd,
    beta_dgd,
    controller_options,
    deployer,
    env,
    full_controller_options,
    k8s,
    load_cases,
    load_index,
    pcs,
    request,
    update_container,
    with_gpus,
)
from .upstream.state import OUT_OF_SCOPE, XFAIL

pytestmark = pytest.mark.shared

INDEX = load_index()
CASES = load_cases()


# ------------------------------------------------------------------------------------------ adapters
# Each adapter mirrors the assertions of its Go loop body.


@adapter("TestIsPythonCommand")
def _is_python(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    assert B.is_python_command(row["cmd"]) is row["expected"]


@adapter("TestShellQuoteForBashC")
def _quote_bash(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    assert B.shell_quote_bash_c(row["input"]) == row["expected"]


@adapter("TestShouldUseMpBackend")
def _use_mp(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    assert B.use_vllm_mp(row["annotations"] or {}) is row["want"]


@adapter("TestSGLangBackend_PythonCommandInjection", "TestSGLangBackend_ShellCommandInjection")
def _sglang_injection(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c: dict[str, Any] = {"command": list(row["initialCommand"] or []), "args": list(row["initialArgs"] or [])}
    update_container(mp, "sglang", c, row["numberOfNodes"], row["role"], with_gpus(beta_component({}), 0),
                     row["multinodeDeployer"])
    want_cmd = row.get("expectedCommand", row["initialCommand"])
    assert (c.get("command") or None) == (want_cmd or None)
    assert (c.get("args") or None) == (row["expectedArgs"] or None)


@adapter("TestSGLangBackend_GetMultinodeFlags")
def _sglang_flags(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # getMultinodeFlags is observed through UpdateContainer on a plain python command (direct append)
    d = deployer(row["multinodeDeployer"])
    leader = d.leader_hostname("test-service")
    rank, shell = ("0", False) if row["role"] == "leader" else d.node_rank()
    flags = f"--dist-init-addr {leader}:{B.SGLANG_PORT} --nnodes {row['numberOfNodes']} --node-rank {rank}"
    assert flags == row["expectedFlags"]
    assert shell is row["expectedNeedsShell"]
    c: dict[str, Any] = {"command": ["python3"], "args": ["-m", "dynamo.sglang"]}
    update_container(mp, "sglang", c, row["numberOfNodes"], row["role"], with_gpus(beta_component({}), 0),
                     row["multinodeDeployer"])
    if shell:
        assert c["args"] == [f"exec python3 -m dynamo.sglang {row['expectedFlags']}"]
    else:
        assert c["args"] == ["-m", "dynamo.sglang", *row["expectedFlags"].split()]


@adapter("TestSGLangBackend_ProbeRemoval")
def _sglang_probes(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c: dict[str, Any] = {"args": ["python -m dynamo.sglang"], "livenessProbe": {"initialDelaySeconds": 30},
                         "readinessProbe": {"initialDelaySeconds": 10}, "startupProbe": {"initialDelaySeconds": 5}}
    update_container(mp, "sglang", c, row["numberOfNodes"], row["role"], with_gpus(beta_component({}), 0),
                     row["multinodeDeployer"])
    for p in PROBES:
        assert (p not in c) is row["expectProbesRemoved"], p


@adapter("TestSGLangBackend_UpdateContainer_UseAsCompilationCache",
         "TestTRTLLMBackend_UpdateContainer_UseAsCompilationCache")
def _no_cache_env(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    backend = "sglang" if "SGLang" in row["_test"] else "trtllm"
    c: dict[str, Any] = {"env": [], "volumeMounts": copy.deepcopy(row.get("volumeMounts") or [])}
    update_container(mp, backend, c, 1, "main", with_gpus(beta_component(row["component"]), 0), None)
    if row["expectNoEnvVarChanges"]:
        assert c["env"] == []


@adapter("TestVLLMBackend_UpdateContainer")
def _vllm_update(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c = k8s(copy.deepcopy(row["initialContainer"])) if row["initialContainer"] else {}
    if row.get("expectProbesKept"):
        pass  # the row's container carries its probes
    before = list(c.get("args") or [])
    update_container(mp, "vllm", c, row["numberOfNodes"], row["role"],
                     with_gpus(beta_component(row["component"]), row["containerGPUs"]), row["multinodeDeployer"])
    if row["expectNotModified"]:
        assert list(c.get("args") or []) == before
    elif row["expectedArgs"] is not None:
        assert c.get("args") == row["expectedArgs"]
    if row["expectProbesRemoved"]:
        for p in PROBES:
            assert p not in c, p
    if row["expectProbesKept"]:
        for p in PROBES:
            assert p in c, p
    dp, pod_ip = env(c, "VLLM_DP_MASTER_IP"), env(c, "POD_IP")
    if row["expectDPMasterIPEnv"]:
        assert dp and dp[0]["valueFrom"]["fieldRef"]["fieldPath"] == "status.podIP"
        assert pod_ip and pod_ip[0]["valueFrom"]["fieldRef"]["fieldPath"] == "status.podIP"
    else:
        assert not dp and not pod_ip


@adapter("TestVLLMBackend_ShellCommandInjection")
def _vllm_shell(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c = k8s(copy.deepcopy(row["initialContainer"]))
    want_cmd = list(c.get("command") or [])
    alpha = {"resources": {"limits": {"gpu": str(row["gpuCount"])}}} if row["gpuCount"] > 0 else {}
    update_container(mp, "vllm", c, row["numberOfNodes"], row["role"],
                     with_gpus(beta_component(alpha), row["gpuCount"]), row["multinodeDeployer"])
    assert (c.get("args") or None) == (row["expectedArgs"] or None)
    assert list(c.get("command") or []) == want_cmd


@adapter("TestUpdateVLLMMultinodeArgs")
def _vllm_multinode_args(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # updateVLLMMultinodeArgs (service test-service, two nodes, the row's GPU count and annotations) is the
    # multinode branch of UpdateContainer; only args are compared, as upstream does
    c = k8s(copy.deepcopy(row["initialContainer"]))
    before = list(c.get("args") or [])
    comp = with_gpus(beta_component({"annotations": row["annotations"]} if row["annotations"] else {}),
                     row["gpuCount"])
    update_container(mp, "vllm", c, 2, row["role"], comp, row["multinodeDeployer"])
    if row["expectNotModified"]:
        assert list(c.get("args") or []) == before
    elif row["expectedArgs"] is not None:
        assert c.get("args") == row["expectedArgs"]


@adapter("TestVLLMBackend_UpdateContainer_UseAsCompilationCache")
def _vllm_cache(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c: dict[str, Any] = {"env": [], "volumeMounts": copy.deepcopy(row.get("volumeMounts") or [])}
    update_container(mp, "vllm", c, 1, "main", with_gpus(beta_component(row["component"]), 0), None)
    if row["expectCacheEnvVar"]:
        found = env(c, row["expectCacheEnvVarName"])
        assert found and found[0]["value"] == row["expectCacheEnvVarVal"]
    else:
        assert not env(c, "VLLM_CACHE_ROOT")


@adapter("TestVLLMBackend_UpdateContainer_InterPodGMS", "TestVLLMBackend_UpdateContainer_NoInterPodGMS")
def _vllm_gms(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c: dict[str, Any] = {"command": ["python3"], "args": ["-m", "dynamo.vllm"]}
    update_container(mp, "vllm", c, 1, "main", with_gpus(beta_component(row["component"]), 0), None, service="svc")
    assert B.command_line_has_arg(c, "--load-format", "gms") is row["wantLoadFormat"]
    shadow = env(c, "DYN_VLLM_GMS_SHADOW_MODE")
    assert all(e.get("value") == "true" for e in shadow)
    assert len(shadow) == row["shadowModeCount"]
    assert (len(shadow) > 0) is row["wantShadowMode"]


@adapter("TestVLLMBackend_UpdatePodSpec")
def _vllm_pod_spec(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod = copy.deepcopy(row["initialPodSpec"])
    init0, vol0 = len(pod.get("initContainers") or []), len(pod.get("volumes") or [])
    d = deployer(row["multinodeDeployer"])
    mp.setattr(B, "deployer_for", lambda _req: d)
    B.update_pod_spec(pod, request("vllm", row["role"], row["numberOfNodes"], beta_component(row["component"])))
    if row["expectInitContainer"]:
        assert len(pod["initContainers"]) == init0 + 1 and len(pod["volumes"]) == vol0 + 1
        inj = pod["initContainers"][-1]
        assert inj["name"] == "wait-for-leader-mp"
        assert inj.get("image", "") == row["expectedInitImage"]
        cmd = (f'export LEADER_HOST="{row["expectedLeaderHost"]}" LEADER_PORT="{B.VLLM_MP_MASTER_PORT}" '
               "&& exec python3 /scripts/wait-for-leader.py")
        assert inj["command"] == ["sh", "-c", cmd]
        assert not inj.get("env")
        assert inj["volumeMounts"] == [{"name": "wait-leader-script", "mountPath": "/scripts", "readOnly": True}]
        vol = pod["volumes"][-1]
        assert vol["name"] == "wait-leader-script" and vol["configMap"]["name"] == "test-dgd-wait-leader-script"
    else:
        assert len(pod.get("initContainers") or []) == init0 and len(pod.get("volumes") or []) == vol0


@adapter("TestTRTLLMBackend_hostNamesList")
def _trtllm_hosts(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    assert deployer(row["multinodeDeployer"]).host_names(row["serviceName"], row["numberOfNodes"]) == \
        row["expectedContains"]


def _trtllm_gpus(component: dict[str, Any]) -> int:
    """``resolveTestContainerGPUs`` (``ResolveContainerGPUs`` without a cluster): the main container's
    GPU limit, else request."""
    from dynamo_schema._render._podrequest import gpu_count

    return gpu_count(component)


@adapter("TestTRTLLMBackend_UpdateContainer")
def _trtllm_update(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c: dict[str, Any] = {"args": ["python3", "--model", "test"], "livenessProbe": {}, "readinessProbe": {},
                         "startupProbe": {}}
    comp = beta_component(row["component"])
    update_container(mp, "trtllm", c, row["numberOfNodes"], row["role"], with_gpus(comp, _trtllm_gpus(comp)),
                     row["multinodeDeployer"])
    mounts = [(m["name"], m["mountPath"], bool(m.get("readOnly"))) for m in c.get("volumeMounts") or []]
    assert mounts == [(m["name"], m["mountPath"], bool(m.get("readOnly"))) for m in row["expectedVolumeMounts"] or []]
    assert list(c.get("command") or []) == list(row["expectedCommand"] or [])
    assert list(c.get("args") or []) == list(row["expectedArgs"] or [])
    got_env = [(e["name"], e.get("value", "")) for e in c.get("env") or []]
    assert got_env == [(e["name"], e.get("value", "")) for e in row["expectedEnv"] or []]
    assert ("livenessProbe" not in c) is row["expectLivenessRemoved"]
    assert ("startupProbe" not in c) is row["expectStartupRemoved"]
    if row["expectReadinessRemoved"]:
        assert "readinessProbe" not in c
    elif row["expectedReadinessProbe"] is not None:
        want, got = row["expectedReadinessProbe"], c["readinessProbe"]
        assert got["tcpSocket"]["port"] == want["tcpSocket"]["port"]
        for k in ("initialDelaySeconds", "periodSeconds", "timeoutSeconds", "failureThreshold"):
            assert got.get(k, 0) == want.get(k, 0), k
    else:
        assert "readinessProbe" in c


@adapter("TestTRTLLMBackend_UpdatePodSpec")
def _trtllm_pod_spec(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pod: dict[str, Any] = {"volumes": copy.deepcopy(row["initialVolumes"] or []), "containers": [{"name": "main", "env": []}]}
    req = request("trtllm", row["role"], row["numberOfNodes"], beta_component({}))
    B.update_pod_spec(pod, req)
    assert len(pod["volumes"]) == row["expectedVolumeCount"]
    secret = req.options.mpi_ssh_secret_name
    ssh = [v for v in pod["volumes"] if v["name"] == secret]
    if ssh:
        assert ssh[0]["secret"]["secretName"] == secret and ssh[0]["secret"]["defaultMode"] == 0o644
    assert bool(ssh) is row["shouldHaveSSHVolume"]


@adapter("TestTRTLLMBackend_setupLeaderContainer", "TestTRTLLMBackend_setupWorkerContainer")
def _trtllm_setup(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    leader = "Leader" in row["_test"]
    c: dict[str, Any] = {"args": list(row["initialArgs"] or []), "command": list(row["initialCommand"] or [])}
    if row["name"] == "Leader with overlapping environment variables (deduplication test)":
        c["env"] = [{"name": "CUDA_VISIBLE_DEVICES", "value": "0,1"}, {"name": "CUSTOM_VAR", "value": "test_value"},
                    {"name": "PATH", "value": "/custom/path"}]
    comp = beta_component(row.get("component"))
    nodes = row.get("numberOfNodes") or 2
    update_container(mp, "trtllm", c, nodes, "leader" if leader else "worker", with_gpus(comp, _trtllm_gpus(comp)),
                     row.get("multinodeDeployer"), service=row.get("serviceName") or "test-service")
    assert c["command"] == ["/bin/sh", "-c"]
    assert len(c["args"]) == 1
    got = c["args"][0]
    if leader:
        # upstream calls setupLeaderContainer directly; through UpdateContainer (our entry point) the
        # OMPI_MCA_orte_keep_fqdn_hostnames env is added first (backend_trtllm.go) and so forwarded too
        assert " -x OMPI_MCA_orte_keep_fqdn_hostnames " in got
        got = got.replace(" -x OMPI_MCA_orte_keep_fqdn_hostnames ", " ", 1)
    assert got == row["expected"]


@adapter("TestTRTLLMBackend_addSSHVolumeMount")
def _trtllm_ssh_mount(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # addSSHVolumeMount is observed through UpdateContainer (multinode worker), which calls it
    c: dict[str, Any] = {"volumeMounts": copy.deepcopy(row["initialVolumeMounts"] or []), "args": ["x"]}
    comp = with_gpus(beta_component({}), 0)
    monkey = B.Deployer("grove")
    mp.setattr(B, "deployer_for", lambda _req: monkey)
    B.update_container(c, request("trtllm", "worker", 2, comp))
    got = [(m["name"], m["mountPath"], bool(m.get("readOnly"))) for m in c["volumeMounts"]]
    assert got == [(m["name"], m["mountPath"], bool(m.get("readOnly"))) for m in row["expectedVolumeMounts"]]


# ---------------------------------------------------------------- graph_test.go


@adapter("TestExpandRolesForService")
def _expand_roles(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._gmsinterpod import expand_roles

    comp = beta_component(row["component"])
    comp.pop("type", None)
    if row["serviceReplicas"] is not None:
        comp["replicas"] = row["serviceReplicas"]
    if row["numberOfNodes"] > 1:
        comp["multinode"] = {"nodeCount": row["numberOfNodes"]}
    got = [{"Name": n, "Rank": rank, "Replicas": r, "Role": role}
           for n, role, r, rank in expand_roles(row["serviceName"], comp)]
    assert got == row["expected"]


@adapter("TestDetectBackendFrameworkFromArgs")
def _detect_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._backend_detect import detect_backend

    if row["expectError"]:
        with pytest.raises(RenderError):
            detect_backend(row["command"] or [], row["args"] or [])
        return
    assert detect_backend(row["command"] or [], row["args"] or []) == row["expected"]


@adapter("TestDetermineBackendFramework")
def _determine_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._backend_detect import determine_backend

    call = (row["componentType"], row["command"] or [], row["args"] or [], row["explicitBackendFramework"] or None)
    if row["expectError"]:
        with pytest.raises(RenderError) as exc:
            determine_backend(*call)
        assert row["errorContains"] in str(exc.value)
        return
    assert determine_backend(*call) == row["expected"]


@adapter("TestGetBackendFrameworkFromComponent")
def _component_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render._backend_detect import component_backend

    comp = beta_component(row["component"])
    explicit = ((row["deployment"] or {}).get("spec") or {}).get("backendFramework") or None
    if row["expectError"]:
        with pytest.raises(RenderError) as exc:
            component_backend(comp, explicit)
        assert row["errorContains"] in str(exc.value)
        return
    assert component_backend(comp, explicit) == row["expected"]


@adapter("TestPCSNameForDGD")
def _pcs_name(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import longest_clique_name, pcs_name, uses_pcsg

    row["components"] = row["components"] or []
    got = pcs_name(row["dgdName"], row["components"])
    if row["want"]:
        assert got == row["want"]
    if row["wantLen"] > 0:
        assert len(got) == row["wantLen"]
    assert pcs_name(row["dgdName"], row["components"]) == got
    budget = 0
    for comp in row["components"]:
        lower = str(comp.get("name", "")).lower()
        budget = max(budget, len(lower) + len(longest_clique_name(comp["name"], comp)) if uses_pcsg(comp) else len(lower))
    assert not (len(got) + budget > 45 and len(got) > 8)


@adapter("TestPropagateDGDAnnotations")
def _propagate_annotations(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import propagate_dgd_annotations
    from dynamo_schema._render._podrequest import pod_template_annotations

    comp = beta_component({"annotations": row["serviceAnnotations"]} if row["serviceAnnotations"] else {})
    propagate_dgd_annotations({"metadata": {"annotations": row["dgdAnnotations"] or {}}}, comp)
    ann = pod_template_annotations(comp)
    if row["expectedAnnotation"] is None:
        assert not ann
    else:
        for k, v in row["expectedAnnotation"].items():
            assert ann.get(k) == v, k


@adapter("Test_mergeEnvs")
def _merge_envs(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._envmerge import merge_envs

    got = sorted(merge_envs(row["args"]["common"], row["args"]["specific"]), key=lambda e: e["name"])
    assert got == row["want"]


# ---------------------------------------------------------------- hash_test.go


def dgd_hash(dgd: dict[str, Any]) -> str:
    from dynamo_schema._render import worker_hash

    return worker_hash(dgd, RenderOptions())


HASH_TESTS = [f"TestComputeBetaDGDWorkersSpecHash_{n}" for n in (
    "Deterministic", "IgnoresNonWorkers", "IgnoresGeneratedDCDObjectIdentity", "NoWorkers",
    "ChangesOnPodAffectingFields", "TracksPropagatedDGDObjectAnnotations", "IgnoresOverriddenDGDObjectAnnotations",
    "TracksGeneratedDCDSpecAndMetadata", "IgnoresNonRolloutFields", "EnvOrderMatters", "AllWorkerTypes")]


@adapter(*HASH_TESTS)
def _hash_relation(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    if "dgd" in row:
        assert len(dgd_hash(beta_dgd(row["dgd"]))) == row["len"]
        return
    left, right = dgd_hash(beta_dgd(row["left"])), dgd_hash(beta_dgd(row["right"]))
    assert (left == right) is row["equal"]
    if "len" in row:
        assert len(left) == row["len"]


def _runtime_version_dgd(image: str, override: str) -> dict[str, Any]:
    """``betaDGDWithRuntimeVersion``."""
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": {"name": "test", "namespace": "default"},
                              "spec": {"services": {"worker": {"componentType": "worker"}}}}})
    comp = dgd["spec"]["components"][0]
    if override:
        comp["runtimeVersionOverride"] = override
    comp["podTemplate"] = {"spec": {"containers": [{"name": "main", "image": image}]}}
    return dgd


@adapter("TestComputeBetaDGDWorkersSpecHash_UsesResolvedRuntimeVersion")
def _hash_runtime_version(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    left = dgd_hash(_runtime_version_dgd(row["leftImage"], row["leftOverride"]))
    right = dgd_hash(_runtime_version_dgd(row["rightImage"], row["rightOverride"]))
    assert (left == right) is row["wantEqual"]


@adapter("TestComputeBetaDGDWorkersSpecHash_TracksPreservedAlphaResourceMetadata")
def _hash_alpha_metadata(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # the row's mutate func: services.worker.<row name> = {"foo": "bar"}; rawBetaDGD (no metadata copy)
    def dgd(extra: dict[str, Any]) -> dict[str, Any]:
        return beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                                   "metadata": {"name": "test", "namespace": "default"},
                                   "spec": {"services": {"worker": {"componentType": "worker", **extra}}}}},
                        raw=True)

    assert dgd_hash(dgd({})) != dgd_hash(dgd({row["name"]: {"foo": "bar"}}))


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


# ---------------------------------------------------------------- GenerateGrovePodCliqueSet


@adapter("TestGenerateGrovePodCliqueSet_ComponentMinAvailable")
def _pcs_min_available(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    got = pcs(beta_dgd(alpha_dgd("test-dgd", "test-ns", {"worker": row["service"]}, backendFramework="vllm")))
    tmpl = got["spec"]["template"]
    if row["wantClique"]:
        assert len(tmpl["cliques"]) == 1
        assert tmpl["cliques"][0]["spec"]["minAvailable"] == row["wantMinAvailable"]
    if row["wantScalingGroup"]:
        groups = tmpl.get("podCliqueScalingGroups") or []
        assert len(groups) == 1 and groups[0]["minAvailable"] == row["wantMinAvailable"]


@adapter("TestGenerateGrovePodCliqueSet_UpdateStrategy")
def _pcs_update_strategy(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError

    ann = {"nvidia.com/grove-update-strategy": row["annotation"]} if row["hasAnnotation"] else None
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": {"componentType": "worker", "replicas": 1}}, ann))
    if row["wantErr"]:
        with pytest.raises(RenderError) as exc:
            pcs(dgd)
        assert row["wantErr"] in str(exc.value)
        return
    got = pcs(dgd)["spec"]
    if row["wantStrategy"] is None:
        assert "updateStrategy" not in got
    else:
        assert got["updateStrategy"]["type"] == row["wantStrategy"]


@adapter("TestGenerateGrovePodCliqueSet_MetadataVolcanoQueuePropagation")
def _pcs_volcano_queue(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    gate = (row["runtimeConfig"] or {}).get("Gate") or {}
    options = RenderOptions(discovery_backend="", volcano_scheduler_enabled=bool(gate.get("volcanoScheduler")),
                            kai_scheduler_enabled=bool(gate.get("kaiScheduler")))
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": {"componentType": "worker", "replicas": 1}},
                             row["metadataAnnotations"], annotations=row["specAnnotations"]))
    ann = pcs(dgd, options)["metadata"].get("annotations") or {}
    if row["expectQueue"]:
        assert ann.get("scheduling.grove.io/volcano-queue") == row["expectedQueue"]
    else:
        assert "scheduling.grove.io/volcano-queue" not in ann


def _go_topology(tc: Any) -> Any:
    return tc


@adapter("TestGenerateGrovePodCliqueSet_TopologyConstraints")
def _pcs_topology(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dep = row["deployment"]
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": dep["metadata"], "spec": dep["spec"]}})
    tmpl = pcs(dgd)["spec"]["template"]
    assert tmpl.get("topologyConstraint") == row["wantPCSTemplateTC"]
    cliques = {c["name"]: c for c in tmpl["cliques"]}
    assert set(cliques) == set(row["wantCliqueTC"])
    for name, want in row["wantCliqueTC"].items():
        assert cliques[name].get("topologyConstraint") == want, name
    groups = tmpl.get("podCliqueScalingGroups") or []
    assert len(groups) == row["wantPCSGCount"]
    if row["wantPCSGTC"] is not None:
        by_name = {g["name"]: g for g in groups}
        assert set(by_name) == set(row["wantPCSGTC"])
        for name, want in row["wantPCSGTC"].items():
            assert by_name[name].get("topologyConstraint") == want, name


def _multinode_pcs(service: str, nodes: int, backend: str) -> dict[str, Any]:
    alpha = {"componentType": "worker", "replicas": 1, "resources": {"requests": {"gpu": "1"}}}
    if nodes > 1:
        alpha["multinode"] = {"nodeCount": nodes}
    return pcs(beta_dgd(alpha_dgd("test-deployment", "default", {service: alpha}, backendFramework=backend)))


def _check_startup(tmpl: dict[str, Any], explicit: bool, deps: dict[str, Any]) -> None:
    assert (tmpl.get("cliqueStartupType") == "CliqueStartupTypeExplicit") is explicit
    cliques = {c["name"]: c for c in tmpl["cliques"]}
    for name, want in deps.items():
        assert name in cliques, name
        assert (cliques[name]["spec"].get("startsAfter") or None) == want, name


@adapter("TestGenerateGrovePodCliqueSet_StartsAfterDependencies")
def _pcs_starts_after(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    tmpl = _multinode_pcs("main", 2, row["backendFramework"])["spec"]["template"]
    if not row["expectStartupType"]:
        assert tmpl.get("cliqueStartupType", "CliqueStartupTypeAnyOrder") == "CliqueStartupTypeAnyOrder"
    _check_startup(tmpl, row["expectStartupType"], row["expectedDeps"])


@adapter("TestApplyCliqueStartupDependencies")
def _apply_startup(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # applyCliqueStartupDependencies on the cliques of tt.roles: observed on the PodCliqueSet rendered
    # for a component with those roles (service "service", numberOfNodes nodes)
    got = _multinode_pcs("service", row["numberOfNodes"], row["backendFramework"])["spec"]["template"]
    roles = [(c["name"], c["spec"]["replicas"]) for c in got["cliques"]]
    assert roles == [(r["Name"].lower(), r["Replicas"]) for r in row["roles"]]
    _check_startup(got, row["expectStartupType"], row["expectedDeps"])
    assert set(c["name"] for c in got["cliques"]) == set(row["expectedDeps"])


def _gate_options(runtime: dict[str, Any] | None) -> tuple[bool, RenderOptions]:
    gate = (runtime or {}).get("Gate") or {}
    return bool(gate.get("grove")), RenderOptions(discovery_backend="", kai_scheduler_enabled=bool(gate.get("kaiScheduler")),
                                                  volcano_scheduler_enabled=bool(gate.get("volcanoScheduler")))


def _scheduled_pods(initial_scheduler: str, runtime: dict[str, Any] | None, annotations: dict[str, str] | None = None,
                    labels: dict[str, str] | None = None) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(labels, pod spec) of every worker pod rendered with the runtime gates: on the Grove path the
    PodCliqueSet cliques; with Grove off the Deployments (no clique exists to inject into)."""
    from dynamo_schema._render import render

    grove, options = _gate_options(runtime)
    comp: dict[str, Any] = {"componentType": "worker", "replicas": 1}
    if initial_scheduler:
        comp["extraPodSpec"] = {"schedulerName": initial_scheduler}
    if labels:
        comp["labels"] = dict(labels)
    dgd = beta_dgd(alpha_dgd("test-dgd", "ns", {"worker": comp}, annotations))
    if grove:
        return [(c.get("labels") or {}, c["spec"]["podSpec"]) for c in pcs(dgd, options)["spec"]["template"]["cliques"]]
    objs = render(dgd, "kubernetes", options)
    return [((o["spec"]["template"]["metadata"].get("labels") or {}), o["spec"]["template"]["spec"])
            for o in objs if o["kind"] == "Deployment"]


@adapter("TestInjectKaiSchedulerIfEnabled")
def _kai_inject(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # validatedQueueName: the queue the DGD's nvidia.com/kai-scheduler-queue annotation names (its
    # existence check against the cluster, ensureQueueExists, is out of scope)
    initial = row["initialClique"]["spec"]["podSpec"].get("schedulerName", "")
    existing = row["initialClique"].get("labels") or {}
    pods = _scheduled_pods(initial, row["runtimeConfig"], {"nvidia.com/kai-scheduler-queue": row["validatedQueueName"]},
                           existing)
    assert pods
    for labels, pod in pods:
        if row["shouldInject"]:
            assert pod.get("schedulerName") == row["expectedScheduler"]
            assert labels.get("kai.scheduler/queue") == row["expectedQueueLabel"]
            for k, v in existing.items():
                assert labels.get(k) == v, k
        else:
            assert pod.get("schedulerName", "") == initial
            assert not labels.get("kai.scheduler/queue")


@adapter("TestInjectVolcanoSchedulerIfEnabled")
def _volcano_inject(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    pods = _scheduled_pods(row["initialScheduler"], row["runtimeConfig"])
    assert pods
    for _, pod in pods:
        assert pod.get("schedulerName", "") == row["expectedScheduler"]


# ---------------------------------------------------------------- DCD renderer (internal/controller)


@adapter("Test_generateDeployment_Strategy")
def _deployment_strategy(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import render

    spec: dict[str, Any] = {"backendFramework": "vllm", "serviceName": "test-service", "dynamoNamespace": "default",
                            "componentType": "decode", "replicas": 1,
                            "extraPodSpec": {"mainContainer": {"image": "test-image:latest"}}}
    if row["args"]["annotations"]:
        spec["annotations"] = row["args"]["annotations"]
    dcd = beta_dcd({"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                    "metadata": {"name": "test-deployment-strategy", "namespace": "default"}, "spec": spec})
    objs = render(dcd, "kubernetes", controller_options({}))
    deployments = [o for o in objs if o["kind"] == "Deployment"]
    assert len(deployments) == 1
    assert deployments[0]["spec"]["strategy"] == row["wantStrategy"]


@adapter("TestGenerateComponentContext")
def _component_context(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import build_context

    comp = beta_component(row["component"])
    req = PodRequest(component=comp, component_type=str(comp.get("type") or ""), backend="noop",
                     dgd_name=row["parentGraphDeploymentName"], namespace=row["namespace"], role="main",
                     nodes=row["numberOfNodes"], deployer="grove", service_name="x",
                     options=RenderOptions(discovery_backend=row["discoveryBackend"]))
    ctx = build_context(req)
    assert ctx.dynamo_namespace == row["expectedDynamoNamespace"]
    assert ctx.component_type == row["expectedComponentType"]
    assert ctx.dgd_name == row["expectedParentDGDName"]
    assert ctx.namespace == row["expectedParentDGDNamespace"]
    assert req.nodes == row["numberOfNodes"]
    assert ctx.discovery_backend == row["discoveryBackend"]


@adapter("TestPropagateDGDSpecMetadata")
def _propagate_spec_metadata(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # propagateDGDSpecMetadata is the low-priority spec.annotations/labels step of applyDGDTemplateDefaults
    from dynamo_schema._render._graph import apply_dgd_template_defaults
    from dynamo_schema._render._podrequest import pod_template_annotations, pod_template_labels

    alpha: dict[str, Any] = {}
    if row["serviceAnnotations"]:
        alpha["annotations"] = row["serviceAnnotations"]
    if row["serviceLabels"]:
        alpha["labels"] = row["serviceLabels"]
    comp = beta_component(alpha)
    spec: dict[str, Any] = {}
    if row["dgdAnnotations"]:
        spec["annotations"] = row["dgdAnnotations"]
    if row["dgdLabels"]:
        spec["labels"] = row["dgdLabels"]
    apply_dgd_template_defaults(comp, {"metadata": {}, "spec": spec})
    ann, labels = pod_template_annotations(comp), pod_template_labels(comp)
    assert (ann or None) == row["expectedAnnotations"]
    assert (labels or None) == row["expectedLabels"]


@adapter("TestAddStandardEnvVars_NATS")
def _standard_env_nats(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import standard_env

    values = {e["name"]: e["value"] for e in standard_env(RenderOptions(nats_address=row["natsAddress"]))}
    if row["wantNATS"]:
        assert values.get("NATS_SERVER") == row["natsAddress"]
    else:
        assert "NATS_SERVER" not in values


# ---------------------------------------------------------------- hand-ported single tests


@adapter("TestIsWorkerComponent")
def _is_worker(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import is_worker_type

    assert all(is_worker_type(t) for t in row["workers"])
    assert not any(is_worker_type(t) for t in row["nonWorkers"])


@adapter("TestGetDCDResourceName")
def _dcd_name(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import dcd_name

    for component, suffix, want in row["checks"]:
        assert dcd_name(row["dgd"], component, row["services"][component], suffix) == want


@adapter("TestGetWaitLeaderConfigMapName")
def _wait_leader_name(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._names import wait_leader_configmap_name

    assert wait_leader_configmap_name(row["dgd"]) == row["want"]


@adapter("TestGenerateWaitLeaderConfigMap")
def _wait_leader_cm(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._extras import wait_leader_configmap

    cm = wait_leader_configmap(row["dgd"], row["namespace"])
    assert cm["metadata"]["name"] == row["name"] and cm["metadata"]["namespace"] == row["namespace"]
    key, value = row["label"]
    assert cm["metadata"]["labels"][key] == value
    script = cm["data"][row["key"]]
    for want in row["contains"]:
        assert want in script, want


@adapter("TestShellQuotePOSIX_ArgvRoundTrip")
def _posix_roundtrip(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # the shell splits the quoted words into a program's argv; the program reports its argv as JSON
    import subprocess
    import sys

    quoted = " ".join(B.shell_quote_posix(t) for t in row["tokens"])
    report = "import json, sys; print(json.dumps(sys.argv[1:]))"
    line = f"exec {B.shell_quote_posix(sys.executable)} -c {B.shell_quote_posix(report)} {quoted}"
    out = subprocess.run(["/bin/sh", "-c", line], capture_output=True, check=True, text=True).stdout
    assert json.loads(out) == row["tokens"]


@adapter("TestShellQuoteForBashC_InLeaderCommand")
def _bash_c_leader(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    c: dict[str, Any] = {"command": list(row["command"]), "args": list(row["args"])}
    comp = beta_component(row["component"])
    update_container(mp, "trtllm", c, row["nodes"], "leader", with_gpus(comp, _trtllm_gpus(comp)), None,
                     service=row["service"])
    assert len(c["args"]) == 1
    for want in row["contains"]:
        assert want in c["args"][0], want


@adapter("TestPlannerDefaults_GetBaseContainer")
def _planner_base_container(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._pod import Ctx, base_container

    cc = row["componentContext"]
    ctx = Ctx(dynamo_namespace=cc["DynamoNamespace"], component_type=cc["ComponentType"],
              dgd_name=cc["ParentGraphDeploymentName"], namespace=cc["ParentGraphDeploymentNamespace"],
              discovery_backend=cc["Discovery"]["Backend"], discovery_mode=cc["Discovery"]["Mode"] or "pod",
              worker_hash=cc["WorkerHashSuffix"])
    got = base_container(ctx)
    got.setdefault("resources", {})  # Go always encodes Container.resources
    assert got == row["want"]


def _normalize_dcd(dcd: dict[str, Any]) -> dict[str, Any]:
    """``normalizeGeneratedDCD`` (conversion annotations and the three identity pod-template labels
    dropped, empty maps as absent) plus what cmp.Diff sees as equal here: no TypeMeta, no status."""
    out = copy.deepcopy(dcd)
    out.pop("apiVersion", None)
    out.pop("kind", None)
    out.pop("status", None)
    meta = out.setdefault("metadata", {})
    ann = {k: v for k, v in (meta.get("annotations") or {}).items() if k not in ("nvidia.com/dcd-spec", "nvidia.com/dcd-status")}
    meta.pop("annotations", None)
    if ann:
        meta["annotations"] = ann
    pt = (out.get("spec") or {}).get("podTemplate")
    if isinstance(pt, dict):
        pmeta = pt.get("metadata") or {}
        labels = {k: v for k, v in (pmeta.get("labels") or {}).items() if k not in (
            "nvidia.com/dynamo-component", "nvidia.com/dynamo-namespace", "nvidia.com/dynamo-graph-deployment-name")}
        for key, val in (("labels", labels), ("annotations", pmeta.get("annotations") or {})):
            pmeta.pop(key, None)
            if val:
                pmeta[key] = val
        if pmeta:
            pt["metadata"] = pmeta
        else:
            pt.pop("metadata", None)
    return out


@adapter("TestGenerateDynamoComponentsDeployments")
def _generate_dcds(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import generate_dcds

    parent = row["args"]["parentDynamoGraphDeployment"]
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": parent["metadata"], "spec": parent["spec"]}})
    if row["wantErr"]:
        from dynamo_schema._render import RenderError

        with pytest.raises(RenderError):
            generate_dcds(dgd, "", str(parent["metadata"].get("namespace") or "default"))
        return
    got = generate_dcds(dgd, "", str(parent["metadata"].get("namespace") or "default"))
    got_by_service = {d["spec"]["name"]: _normalize_dcd(d) for d in got}
    want = {}
    for service, alpha in (row["want"] or {}).items():
        alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                 "metadata": alpha["metadata"], "spec": alpha["spec"]}
        want[service] = _normalize_dcd(beta_dcd(alpha))
    assert got_by_service == want


@adapter("TestGenerateDynamoComponentsDeployments_UsesDynDeploymentWorkers")
def _dcds_dyn_workers(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import generate_dcds

    comp: dict[str, Any] = {"name": "service1", "type": "frontend"}
    if row["componentReplicas"] is not None:
        comp["replicas"] = row["componentReplicas"]
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
           "metadata": {"name": "test-dgd", "namespace": "default"},
           "spec": {"env": [{"name": "DYN_DEPLOYMENT_CONFIG", "value": '{"service1":{"ServiceArgs":{"workers":2}}}'}],
                    "components": [comp]}}
    dcds = {d["spec"]["name"]: d for d in generate_dcds(dgd, "", "default")}
    assert dcds["service1"]["spec"]["replicas"] == row["wantReplicas"]


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


def _sorted_pcs(obj: dict[str, Any]) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    obj.pop("status", None)
    tmpl = obj["spec"]["template"]
    tmpl["cliques"] = sorted(tmpl.get("cliques") or [], key=lambda c: c["name"])
    for clique in tmpl["cliques"]:
        for c in clique["spec"]["podSpec"].get("containers") or []:
            if c.get("env"):
                c["env"] = sorted(c["env"], key=lambda e: e["name"])
    return obj


@adapter("TestGenerateGrovePodCliqueSet")
def _pcs_full(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render import RenderError
    from dynamo_schema._render.targets._common import finish as _finish

    dep = row["args"]["dynamoDeployment"]
    dgd = beta_dgd({"alpha": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
                              "metadata": dep["metadata"], "spec": dep["spec"]}})
    options = full_controller_options(row["args"]["controllerConfig"])
    if row["wantErr"]:
        with pytest.raises(RenderError):
            pcs(dgd, options)
        return
    got = _finish([pcs(dgd, options)])[0]
    got.pop("apiVersion", None)
    got.pop("kind", None)
    assert _sorted_pcs(got) == _sorted_pcs(row["want"])


@adapter("TestExpandRolesForComponent_SingleNodeForceScalingGroup")
def _expand_roles_forced(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._gmsinterpod import expand_roles

    got = [{"Name": n, "Rank": rank, "Replicas": r, "Role": role}
           for n, role, r, rank in expand_roles(row["service"], row["component"])]
    assert got == row["want"]


@adapter("Test_GetDynamoComponentDeploymentsGlobalNamespace")
def _dcds_global_namespace(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._graph import generate_dcds

    dcds = generate_dcds(beta_dgd({"alpha": row["dgd"]}), "", "default")
    assert len(dcds) == row["count"]
    for d in dcds:
        assert d["metadata"]["labels"]["nvidia.com/dynamo-namespace"] == row["want"][d["spec"]["type"]]


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


def _dcds_by_component(dgd: dict[str, Any], worker_hash: str) -> dict[str, dict[str, Any]]:
    from dynamo_schema._render._graph import generate_dcds

    return {d["spec"]["name"]: d for d in generate_dcds(dgd, worker_hash, str(dgd["metadata"].get("namespace")))}


@adapter("TestGenerateDynamoComponentsDeployments_InferBackendFrameworkForGeneratedDCDs")
def _dcds_infer_backend(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dcds = _dcds_by_component(beta_dgd({"alpha": row["alpha"]}), row["workerHash"])
    for component, backend in row["backendFramework"].items():
        assert dcds[component]["spec"].get("backendFramework") == backend, component


@adapter("TestGenerateSingleDCD_NoRollingUpdate")
def _dcd_no_rolling_update(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    dcd = _dcds_by_component(beta_dgd({"alpha": row["alpha"]}), row["workerHash"])[row["component"]]
    assert dcd["metadata"]["name"] == row["name"]
    assert not (dcd["metadata"].get("labels") or {}).get("nvidia.com/dynamo-worker-hash")
    assert dcd["spec"]["replicas"] == row["replicas"]


@adapter("TestGenerateDynamoComponentsDeploymentsDoesNotMutateParentDGD")
def _dcds_do_not_mutate(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    from dynamo_schema._render._podrequest import pod_template_labels

    dgd = copy.deepcopy(row["beta"])
    dcd = _dcds_by_component(dgd, row["workerHash"])[row["component"]]
    assert dgd == row["beta"]
    assert pod_template_labels(dcd["spec"]).get("nvidia.com/dynamo-worker-hash") == row["workerHash"]


@adapter("TestDynamoComponentDeploymentReconciler_generateIngress",
         "TestDynamoComponentDeploymentReconciler_generateVirtualService")
def _dcd_ingress(row: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    # generateIngress / generateVirtualService: (object, toDelete); toDelete means nothing is rendered
    from dynamo_schema._render._extras import dcd_ingress

    kind = "Ingress" if row["_test"].endswith("generateIngress") else "VirtualService"
    dcd = dict(row["args"]["opt"]["dynamoComponentDeployment"], apiVersion="nvidia.com/v1beta1",
               kind="DynamoComponentDeployment")
    got = [o for o in dcd_ingress(dcd, dcd["metadata"]["namespace"], RenderOptions()) if o["kind"] == kind]
    if row["want1"]:
        assert got == []
        return
    assert len(got) == 1
    assert got[0]["metadata"] == {k: row["want"]["metadata"][k] for k in ("name", "namespace")}
    assert got[0]["spec"] == row["want"]["spec"]


# ------------------------------------------------------------------------------------------ tests


def expected_rows(entry: dict[str, Any]) -> set[str]:
    """The rows of an index entry: the table rows or subtests the data holds, else the subtests upstream
    names, else the function itself (row ``""``)."""
    return set(entry["rows"]) or set(entry.get("upstream_rows") or [""])


def row_count(entry: dict[str, Any]) -> int:
    """Upstream's unit: a table row or subtest; a function without either is one row, however many
    comparisons its transcription splits it into (``"unit": "function"``)."""
    if entry.get("unit") == "function":
        return 1
    return len(entry["rows"]) or max(1, len(entry.get("upstream_rows") or []))


def _params() -> list[Any]:
    rows = [(t, r, d) for t, r, d in CASES if t in ADAPTERS]
    rows += [(t, r, d) for t, local in LOCAL_ROWS.items() for r, d in local]
    out = []
    for t, r, d in rows:
        key = f"{t}/{r}"
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[key])] if key in XFAIL else []
        out.append(pytest.param(t, r, d, id=key, marks=marks))
    return out


PARAMS = _params()


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)


def test_index_matches_cases() -> None:
    """Every function of the files in scope has exactly one of an adapter or an out-of-scope reason; a
    ported function runs exactly the rows the index names (the data's rows, or its hand-ported subtests);
    the data and the index agree; every expected failure names a row that runs."""
    assert INDEX, "INDEX.json missing from the reference data"
    data_rows: dict[str, set[str]] = {}
    for t, r, _ in CASES:
        data_rows.setdefault(t, set()).add(r)
    listed: set[str] = set()
    for path, funcs in INDEX.items():
        assert path.endswith("_test.go"), path
        for name, entry in funcs.items():
            assert name not in listed, f"{name} listed twice"
            listed.add(name)
            assert data_rows.get(name, set()) == set(entry["rows"]), f"{name}: index rows differ from the data"
            ported, skipped = name in ADAPTERS, name in OUT_OF_SCOPE
            assert ported != skipped, f"{name}: needs an adapter or an out-of-scope reason, not both or neither"
            if skipped:
                assert OUT_OF_SCOPE[name], name
                continue
            local = {r for r, _ in LOCAL_ROWS.get(name, [])}
            assert not (local and data_rows.get(name)), f"{name}: rows both in the data and hand-ported"
            assert (data_rows.get(name, set()) | local) == expected_rows(entry), f"{name}: rows run differ from the index"
    assert set(ADAPTERS) <= listed, sorted(set(ADAPTERS) - listed)
    assert set(OUT_OF_SCOPE) <= listed, sorted(set(OUT_OF_SCOPE) - listed)
    assert set(data_rows) <= listed, sorted(set(data_rows) - listed)
    run = {p.id for p in PARAMS}
    assert set(XFAIL) <= run, sorted(set(XFAIL) - run)
    assert all(XFAIL.values())


def summary() -> dict[str, int]:
    """Counts for the report: functions, rows, out-of-scope, in-scope, ported and strict-xfail rows."""
    out = {"functions": 0, "rows": 0, "in_scope_rows": 0, "ported_rows": 0, "failing_rows": 0,
           "pending_rows": 0, "out_of_scope_rows": 0}
    for funcs in INDEX.values():
        for name, entry in funcs.items():
            n = row_count(entry)
            out["functions"] += 1
            out["rows"] += n
            if name in OUT_OF_SCOPE:
                out["out_of_scope_rows"] += n
                continue
            out["in_scope_rows"] += n
            if name in ADAPTERS:
                out["ported_rows"] += n
                failing = [why for key, why in XFAIL.items() if key.startswith(name + "/")]
                out["failing_rows"] += min(n, len(failing))
                out["pending_rows"] += min(n, sum(why.startswith("pending:") for why in failing))
    return out


def counts_row(s: dict[str, int]) -> str:
    """The counts line of docs/upstream-render-tests.md."""
    passing = s["ported_rows"] - s["failing_rows"]
    return (f"| {s['functions']} | {s['rows']} | {s['out_of_scope_rows']} | {s['in_scope_rows']} | {s['ported_rows']} | "
            f"{passing} ({100 * passing / s['in_scope_rows']:.1f} %) | {s['failing_rows']} | "
            f"{s['in_scope_rows'] - s['ported_rows']} |")


def test_coverage_goal_and_documented_counts() -> None:
    """Every in-scope upstream row is ported, at least 80 % of them pass; docs/upstream-render-tests.md
    states the current counts."""
    s = summary()
    assert s["ported_rows"] == s["in_scope_rows"], s
    assert (s["ported_rows"] - s["failing_rows"]) / s["in_scope_rows"] >= 0.8, s
    doc = (Path(__file__).parents[2] / "docs" / "upstream-render-tests.md").read_text(encoding="utf-8")
    assert counts_row(s) in doc, counts_row(s)
