"""The operator's backend render unit-test rows (reference revision 2a6da14c), run against our render code:
``internal/dynamo/backend_{vllm,sglang,trtllm}_test.go`` (command detection, shell quoting, multinode flags,
UpdateContainer / UpdatePodSpec, compilation cache, wait-leader ConfigMap) and ``component_planner_test.go``.

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

from dynamo_schema._render import _backends as B

from ._upstream_rows import row_params
from .upstream._support import (
    ADAPTERS,
    PROBES,
    adapter,
    beta_component,
    deployer,
    env,
    k8s,
    request,
    update_container,
    with_gpus,
)

pytestmark = pytest.mark.shared


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


# ---------------------------------------------------------------- hand-ported single tests


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


# ---------------------------------------------------------------- tests


PARAMS = row_params(__name__)


@pytest.mark.parametrize("test,row,data", PARAMS)
def test_upstream_row(test: str, row: str, data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ADAPTERS[test](dict(data, _test=test), monkeypatch)
