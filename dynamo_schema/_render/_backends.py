"""Backend-specific container and pod changes (vLLM, SGLang, TRT-LLM) and multinode deployers.

Behaviour from ``rendering.md`` §7–§8 and upstream ``backend_vllm.go``, ``backend_sglang.go``,
``backend_trtllm.go``, ``lws.go``, ``grove.go``, ``utils.go``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .._core._consts import ANN_ORIGIN_VERSION, ANN_VLLM_BACKEND
from .._core._lazyre import lazy
from .._k8s._container import has_arg
from ._errors import RenderError
from ._names import is_inter_pod_gms, wait_leader_configmap_name
from ._podrequest import PodRequest, gpu_count, pod_template_annotations
from ._runtime import VLLM_MULTIPROCESSING_ORIGIN, at_least

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

VLLM_RAY_PORT = "6379"
VLLM_DP_RPC_PORT = "13445"
VLLM_MP_MASTER_PORT = "29500"
SGLANG_PORT = "29500"
MPI_SSH_PORT = 2222

_PYTHON_CMD = lazy(r"^(.*/)?(python\d*(\.\d+)*)\Z", re.ASCII)
_SHELL_SPECIAL = set(" \t\n'\"\\{}[]$`!")
_POSIX_SAFE = lazy(r"^[A-Za-z0-9_@%+=:,./-]+\Z")
_K8S_VAR = lazy(r"\$\((\w+)\)")


# ---------------------------------------------------------------- deployers


class Deployer:
    def __init__(self, kind: str, inter_pod_gms: bool = False, rank: int = 0) -> None:
        self.kind = kind
        self.inter_pod_gms = inter_pod_gms
        self.rank = rank

    def leader_hostname(self, service: str) -> str:
        if self.kind == "lws":
            return "$(LWS_LEADER_ADDRESS)"
        idx = "$(GROVE_PCLQ_POD_INDEX)" if self.inter_pod_gms else "0"
        return f"$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-{service.lower()}-ldr-{idx}.$(GROVE_HEADLESS_SERVICE)"

    def node_rank(self) -> tuple[str, bool]:
        if self.kind == "lws":
            return "$(LWS_WORKER_INDEX)", False
        if self.inter_pod_gms:
            return str(self.rank), False
        return "$((GROVE_PCLQ_POD_INDEX + 1))", True

    def needs_dns_wait(self) -> bool:
        return self.kind == "lws"

    def host_names(self, service: str, nodes: int) -> list[str]:
        hosts = [self.leader_hostname(service)]
        if self.kind == "lws":
            for i in range(1, nodes):
                hosts.append(f'$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-{i}\\./\')')
        elif self.inter_pod_gms:
            for rank in range(1, nodes):
                hosts.append(f"$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-{service.lower()}-wkr-{rank}-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)")
        else:
            for i in range(nodes - 1):
                hosts.append(f"$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-{service.lower()}-wkr-{i}.$(GROVE_HEADLESS_SERVICE)")
        return hosts


def deployer_for(req: PodRequest) -> Deployer:
    if req.gms_rank is not None:  # generatePodSpecForRole's rank-aware deployer (multinode inter-pod GMS)
        return Deployer(req.deployer, True, req.gms_rank)
    return Deployer(req.deployer)


# ---------------------------------------------------------------- shell helpers


def shell_quote_bash_c(s: str) -> str:
    if any(ch in _SHELL_SPECIAL for ch in s):
        e = s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`").replace("'", "'\"'\"'")
        return '"' + e + '"'
    return s


def shell_quote_posix(s: str) -> str:
    if _POSIX_SAFE.match(s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def is_python_command(cmd: str) -> bool:
    return cmd in ("python", "python3") or bool(_PYTHON_CMD.match(cmd))


def command_line_has_arg(container: Mapping[str, Any], flag: str, value: str) -> bool:
    line = list(container.get("command") or []) + list(container.get("args") or [])
    if has_arg(line, flag, value):
        return True
    expanded = [tok for a in line for tok in str(a).split()]
    return has_arg(expanded, flag, value)


def inject_flags(container: dict[str, Any], flags: str, needs_shell: bool, framework: str) -> None:
    """``injectFlagsIntoContainerCommand``."""
    command = [str(c) for c in container.get("command") or []]
    args = [str(a) for a in container.get("args") or []]
    if command and is_python_command(command[0]):
        if needs_shell:
            full = " ".join(shell_quote_bash_c(t) for t in command)
            if args:
                shell = f"exec {full} {' '.join(shell_quote_bash_c(a) for a in args)} {flags}"
            else:
                shell = f"exec {full} {flags}"
            container["command"] = ["sh", "-c"]
            container["args"] = [shell]
        else:
            container["args"] = args + flags.split()
        return
    pattern = re.compile(r"(python[0-9.]*\s+[^|&;]*" + re.escape(framework) + r"[^|&;]*?)(\s|$|[|&;])")
    for i, arg in enumerate(args):
        modified = pattern.sub(lambda m: m.group(1) + " " + flags + m.group(2), arg)
        if modified != arg:
            args[i] = modified
            container["args"] = args
            break


def _expanded_args(container: Mapping[str, Any]) -> list[str]:
    return [tok for a in container.get("args") or [] for tok in str(a).split()]


def _flag_value(expanded: list[str], flag: str) -> int:
    for i, a in enumerate(expanded):
        if a == flag and i + 1 < len(expanded):
            try:
                return int(expanded[i + 1])
            except ValueError:
                continue
    return 1


def _world_size(expanded: list[str]) -> int:
    return _flag_value(expanded, "--tensor-parallel-size") * _flag_value(expanded, "--pipeline-parallel-size")


def _annotations(req: PodRequest) -> dict[str, str]:
    return pod_template_annotations(req.component)


def use_vllm_mp(annotations: Mapping[str, str]) -> bool:
    override = annotations.get(ANN_VLLM_BACKEND)
    if override is not None:
        if override.lower() == "mp":
            return True
        if override.lower() == "ray":
            return False
    return at_least(annotations.get(ANN_ORIGIN_VERSION), VLLM_MULTIPROCESSING_ORIGIN)


def _field_env(name: str, path: str) -> dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": path}}}


def _drop_probes(container: dict[str, Any]) -> None:
    for p in ("livenessProbe", "readinessProbe", "startupProbe"):
        container.pop(p, None)


# ---------------------------------------------------------------- vLLM


def _vllm_update_container(container: dict[str, Any], req: PodRequest) -> None:

    comp = req.component
    if is_inter_pod_gms(comp):
        if not has_arg([str(a) for a in container.get("args") or []], "--load-format", "gms"):
            inject_flags(container, "--load-format gms", False, "vllm")
        failover = ((comp.get("experimental") or {}).get("failover") or {})
        if failover.get("mode") == "InterPod":
            container.setdefault("env", []).append({"name": "DYN_VLLM_GMS_SHADOW_MODE", "value": "true"})
    annotations = _annotations(req)
    deployer = deployer_for(req)
    if req.nodes > 1:
        gpus = gpu_count(comp)
        expanded = _expanded_args(container)
        needs_tp = gpus != 0 and _world_size(expanded) > gpus
        if needs_tp and use_vllm_mp(annotations):
            flags = f"--distributed-executor-backend mp --nnodes {req.nodes} --master-addr {deployer.leader_hostname(req.service_name)} --master-port {VLLM_MP_MASTER_PORT}"
            shell = False
            if req.role == "leader":
                flags += " --node-rank 0"
            elif req.role == "worker":
                rank, shell = deployer.node_rank()
                flags += f" --node-rank {rank} --headless"
            inject_flags(container, flags, shell, "vllm")
        elif needs_tp:
            if req.role == "leader":
                cmd = " ".join(shell_quote_bash_c(str(t)) for t in container.get("command") or [])
                args = " ".join(shell_quote_bash_c(str(a)) for a in container.get("args") or [])
                container["args"] = [f"ray start --head --port={VLLM_RAY_PORT} && {cmd} {args} --distributed-executor-backend ray"]
            elif req.role == "worker":
                container["args"] = [f"ray start --address={deployer.leader_hostname(req.service_name)}:{VLLM_RAY_PORT} --block"]
            container["command"] = ["/bin/sh", "-c"]
        elif "--enable-elastic-ep" in expanded:
            _elastic_ep(container, req.role, req.service_name, deployer)
        elif gpus != 0 and _world_size(expanded) * _flag_value(expanded, "--data-parallel-size") > gpus:
            _data_parallel(container, req, deployer, gpus)
        if use_vllm_mp(annotations):
            container.setdefault("env", []).append(_field_env("VLLM_NIXL_SIDE_CHANNEL_HOST", "status.podIP"))
        if req.role == "worker":
            _drop_probes(container)
    elif req.role == "main" and _is_elastic_ep_ray(container) and _elastic_ep(container, req.role, req.service_name, deployer):
        container.setdefault("env", []).extend([_field_env("POD_IP", "status.podIP"), _field_env("VLLM_DP_MASTER_IP", "status.podIP")])
    cc = comp.get("compilationCache")
    cache_dir = (cc or {}).get("mountPath") if isinstance(cc, Mapping) else None
    if cc is not None and not cache_dir:
        cache_dir = "/root/.cache/vllm"
    if cache_dir:
        container.setdefault("env", []).append({"name": "VLLM_CACHE_ROOT", "value": cache_dir})


def _is_elastic_ep_ray(container: Mapping[str, Any]) -> bool:
    line = [tok for a in list(container.get("command") or []) + list(container.get("args") or []) for tok in str(a).split()]
    return "--enable-elastic-ep" in line and (has_arg(line, "--data-parallel-backend", "ray") or has_arg(line, "-dpb", "ray"))


def _elastic_ep(container: dict[str, Any], role: str, service: str, deployer: Deployer) -> bool:
    if role in ("leader", "main"):
        if not container.get("command"):
            return False
        cmd = " ".join(shell_quote_posix(str(t)) for t in container.get("command") or [])
        args = " ".join(shell_quote_posix(str(a)) for a in container.get("args") or [])
        vllm = (cmd + " " + args).strip()
        if role == "main":
            vllm = "exec " + vllm
        node_ip = ' --node-ip-address="$POD_IP"' if role == "main" else ""
        head = (
            f"ray start --head --port={VLLM_RAY_PORT}{node_ip} --block & "
            f"i=0; until python3 -c \"import socket; s=socket.create_connection(('127.0.0.1',{VLLM_RAY_PORT}),timeout=1); s.close()\" 2>/dev/null; "
            f"do i=$((i+1)); [ \"$i\" -ge 150 ] && {{ echo \"ERROR: Ray head did not start within 300s\" >&2; exit 1; }}; sleep 2; done && {vllm}"
        )
        container["args"] = [head]
    elif role == "worker":
        leader = deployer.leader_hostname(service)
        gate = (
            f"i=0; until python3 -c \"import urllib.request; urllib.request.urlopen('http://{leader}:9090/live', timeout=5)\" "
            f"2>/dev/null; do i=$((i+1)); [ \"$i\" -ge 720 ] && {{ echo \"ERROR: leader /live did not become ready within 3h\" >&2; exit 1; }}; "
            f"echo 'waiting for leader dynamo.vllm /live to return 200...'; sleep 15; done"
        )
        container["args"] = [f"{gate} && ray start --address={leader}:{VLLM_RAY_PORT} --block"]
    container["command"] = ["/bin/sh", "-c"]
    return True


def _data_parallel(container: dict[str, Any], req: PodRequest, deployer: Deployer, gpus: int) -> None:
    expanded = _expanded_args(container)
    leader = deployer.leader_hostname(req.service_name)
    local = gpus // _world_size(expanded)
    total = _flag_value(expanded, "--data-parallel-size")
    if total == 1:
        total = local * req.nodes
    has_dp = "--data-parallel-size" in expanded
    flags = ["--data-parallel-hybrid-lb"]
    shell = False
    if not has_dp:
        flags += ["--data-parallel-size", str(total)]
    if req.role == "leader":
        start = "0"
    elif req.role == "worker":
        rank, _ = deployer.node_rank()
        start = f"$(( {local} * {rank} ))"
        shell = True
    else:
        return
    flags += ["--data-parallel-size-local", str(local), "--data-parallel-start-rank", start,
              "--data-parallel-address", leader, "--data-parallel-rpc-port", VLLM_DP_RPC_PORT]
    inject_flags(container, " ".join(flags), shell, "vllm")


def _vllm_update_pod_spec(pod: dict[str, Any], req: PodRequest) -> None:
    if not req.dgd_name or req.nodes <= 1 or req.role != "worker" or not pod.get("containers"):
        return
    main = pod["containers"][0]
    if not command_line_has_arg(main, "--distributed-executor-backend", "mp"):
        return
    leader = deployer_for(req).leader_hostname(req.service_name)
    pod.setdefault("volumes", []).append({"name": "wait-leader-script", "configMap": {"name": wait_leader_configmap_name(req.dgd_name)}})
    shell_host = _K8S_VAR.sub(r"${\1}", leader)
    init = {
        "name": "wait-for-leader-mp",
        "image": main.get("image"),
        "command": ["sh", "-c", f'export LEADER_HOST="{shell_host}" LEADER_PORT="{VLLM_MP_MASTER_PORT}" && exec python3 /scripts/wait-for-leader.py'],
        "volumeMounts": [{"name": "wait-leader-script", "mountPath": "/scripts", "readOnly": True}],
    }
    if init["image"] is None:
        del init["image"]
    pod.setdefault("initContainers", []).append(init)


# ---------------------------------------------------------------- SGLang


def _sglang_update_container(container: dict[str, Any], req: PodRequest) -> None:
    # backend_sglang.go UpdateContainer: single-node containers are left as they are (the reference
    # revision declares no per-rank NIXL exporter ports; the GPU count is not read)
    if req.nodes <= 1:
        return
    if req.role == "worker":
        _drop_probes(container)
    deployer = deployer_for(req)
    leader = deployer.leader_hostname(req.service_name)
    if req.role == "leader":
        rank, shell = "0", False
    else:
        rank, shell = deployer.node_rank()
    flags = f"--dist-init-addr {leader}:{SGLANG_PORT} --nnodes {req.nodes} --node-rank {rank}"
    inject_flags(container, flags, shell, "sglang")


# ---------------------------------------------------------------- TRT-LLM

_TRTLLM_COMMON_ENV = (
    "CPATH", "CUDA_VISIBLE_DEVICES", "MODEL_PATH", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_ENDPOINT",
    "TOKENIZERS_PARALLELISM", "NCCL_DEBUG", "NCCL_IB_DISABLE", "NCCL_P2P_DISABLE", "TENSORRT_LLM_CACHE_DIR",
    "HF_HOME", "TRANSFORMERS_CACHE", "HF_DATASETS_CACHE", "PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "HOME",
    "USER", "TRITON_PTXAS_PATH", "TRTLLM_USE_UCX_KVCACHE",
)

_SSH_COMMON = [
    "ls -la /ssh-pk/",
    "cp /ssh-pk/private.key $HOME/.ssh/id_rsa",
    "cp /ssh-pk/private.key.pub $HOME/.ssh/id_rsa.pub",
    "cp /ssh-pk/private.key.pub $HOME/.ssh/authorized_keys",
    "chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys",
    "chmod 644 $HOME/.ssh/id_rsa.pub",
    f"printf 'Host *\\nIdentityFile '$HOME'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort {MPI_SSH_PORT}\\n' > $HOME/.ssh/config",
]


def _trtllm_update_container(container: dict[str, Any], req: PodRequest) -> None:

    if req.nodes <= 1:
        return
    secret = req.options.mpi_ssh_secret_name
    if req.role == "worker":
        container.pop("livenessProbe", None)
        container.pop("startupProbe", None)
        container["readinessProbe"] = {
            "tcpSocket": {"port": MPI_SSH_PORT},
            "initialDelaySeconds": 20, "periodSeconds": 20, "timeoutSeconds": 5, "failureThreshold": 10,
        }
    container.setdefault("volumeMounts", []).append({"name": secret, "mountPath": "/ssh-pk", "readOnly": True})
    container.setdefault("env", []).append({"name": "OMPI_MCA_orte_keep_fqdn_hostnames", "value": "1"})
    deployer = deployer_for(req)
    if req.role == "leader":
        hosts = deployer.host_names(req.service_name, req.nodes)
        command = [str(c) for c in container.get("command") or []]
        args = [str(a) for a in container.get("args") or []]
        if command and is_python_command(command[0]):
            original = " ".join(shell_quote_bash_c(p) for p in command + args)
        elif args:
            original = " ".join(args)
        else:
            original = " ".join(command)
        total = req.nodes * gpu_count(req.component)
        names = sorted(set(_TRTLLM_COMMON_ENV) | {str(e.get("name")) for e in container.get("env") or []})
        env_flags = " ".join(f"-x {n}" for n in names)
        mpirun = (
            f'mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n {total} -H {",".join(hosts)} '
            f'--mca pml ob1 --mca plm_rsh_args "-p {MPI_SSH_PORT} -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" '
            f"{env_flags} bash -c 'trtllm-llmapi-launch {original}'"
        )
        cmds = ["mkdir -p $HOME/.ssh"] + _SSH_COMMON
        if deployer.needs_dns_wait():
            workers = " ".join(hosts[1:])
            cmds.append(
                f'TIMEOUT=300; START_TIME=$(date +%s); for worker in {workers}; do echo "Waiting for DNS: $worker"; '
                f"until getent hosts $worker >/dev/null 2>&1; do CURRENT_TIME=$(date +%s); "
                f'if [ $((CURRENT_TIME - START_TIME)) -gt $TIMEOUT ]; then echo "ERROR: Timeout waiting for DNS: $worker"; exit 1; fi; '
                f'echo "DNS not ready for $worker, retrying..."; sleep 2; done; echo "\u2713 DNS resolved: $worker"; done; echo "All workers DNS ready"'
            )
        cmds.append(mpirun)
        container["command"] = ["/bin/sh", "-c"]
        container["args"] = [" && ".join(cmds)]
    elif req.role == "worker":
        cmds = ["mkdir -p $HOME/.ssh $HOME/.ssh/host_keys $HOME/.ssh/run"] + _SSH_COMMON + [
            "ssh-keygen -t rsa -f $HOME/.ssh/host_keys/ssh_host_rsa_key -N ''",
            "ssh-keygen -t ecdsa -f $HOME/.ssh/host_keys/ssh_host_ecdsa_key -N ''",
            "ssh-keygen -t ed25519 -f $HOME/.ssh/host_keys/ssh_host_ed25519_key -N ''",
            (
                f"printf 'Port {MPI_SSH_PORT}\\nHostKey '$HOME'/.ssh/host_keys/ssh_host_rsa_key\\nHostKey '$HOME'/.ssh/host_keys/ssh_host_ecdsa_key\\n"
                f"HostKey '$HOME'/.ssh/host_keys/ssh_host_ed25519_key\\nPidFile '$HOME'/.ssh/run/sshd.pid\\nStrictModes no\\nPermitRootLogin yes\\n"
                f"PasswordAuthentication no\\nPubkeyAuthentication yes\\nAuthorizedKeysFile '$HOME'/.ssh/authorized_keys\\n' > $HOME/.ssh/sshd_config"
            ),
            "/usr/sbin/sshd -D -f $HOME/.ssh/sshd_config",
        ]
        container["command"] = ["/bin/sh", "-c"]
        container["args"] = [" && ".join(cmds)]


def _trtllm_update_pod_spec(pod: dict[str, Any], req: PodRequest) -> None:
    if req.nodes > 1:
        secret = req.options.mpi_ssh_secret_name
        pod.setdefault("volumes", []).append({"name": secret, "secret": {"secretName": secret, "defaultMode": 0o644}})


# ---------------------------------------------------------------- dispatch


#: The backends ``BackendFactory`` knows (``noop``: components without backend-specific changes).
BACKENDS = ("vllm", "sglang", "trtllm", "noop")


def update_container(container: dict[str, Any], req: PodRequest) -> None:
    if req.backend not in BACKENDS:  # GenerateBasePodSpec: BackendFactory returned none
        raise RenderError.at(f"unsupported backend framework: {req.backend}", req.path, rule="render.backend")
    if req.backend == "vllm":
        _vllm_update_container(container, req)
    elif req.backend == "sglang":
        _sglang_update_container(container, req)
    elif req.backend == "trtllm":
        _trtllm_update_container(container, req)


def update_pod_spec(pod: dict[str, Any], req: PodRequest) -> None:
    if req.backend == "vllm":
        _vllm_update_pod_spec(pod, req)
    elif req.backend == "trtllm":
        _trtllm_update_pod_spec(pod, req)
