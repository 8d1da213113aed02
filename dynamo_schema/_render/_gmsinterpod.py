"""Inter-pod GPU Memory Service on Grove: a GMS weight-server clique per node rank beside the engines.

Upstream: ``internal/dynamo/graph.go`` (``expandRolesForComponent`` and its GMS layouts,
``applyCliqueStartupDependencies``, the GMS branches of ``generatePodSpecForRole`` and
``buildCliqueForRole``) and ``internal/dynamo/failover.go`` (``gmsWeightServerPodSpec``,
``augmentEngineForGMS``, ``gmsResourceClaimTemplateConfigs``, ``gmsResourceSharingEntries``). Each rank
gets its own ResourceClaimTemplate, shared by that rank's GMS and engine pods through the scaling group's
``resourceSharing`` (Grove then adds the claims to the pods); the engines reach the server through a
rank-isolated hostPath directory.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._datacopy import deepcopy
from .._k8s._roles import ROLE_SUFFIX_GMS, ROLE_SUFFIX_LEADER, ROLE_SUFFIX_WORKER
from . import _dra
from ._errors import RenderError
from ._gms import ENV_SOCKET_DIR, SERVER_MODULE
from ._names import is_inter_pod_gms, is_scaling_group_forced, node_count, normalize_kube_name

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

ROLE_GMS = "gms"
SHARED_VOLUME = "gms-shared"
HOST_PATH_BASE = "/run/gms"
SHARED_MOUNT_PATH = "/run/gms/shared"
PERM_FIX_INIT = "fix-gms-perms"
LABEL_FAILOVER_MEMBER = "nvidia.com/dynamo-failover-engine-group-member"
POD_INDEX_FIELD = "metadata.labels['grove.io/podclique-pod-index']"

#: A role of a component's pods: (clique name, role, replicas, node rank) (``ServiceRole``).
Role = tuple[str, str, int, int]


def total_engine_pods(component: Mapping[str, Any]) -> int:
    """``GetTotalEnginePods``: the primary engine plus the shadows of inter-pod failover (at least one)."""
    if not _dra.is_inter_pod_failover(component):
        return 1
    shadows = (_dra.experimental(component).get("failover") or {}).get("numShadows")
    shadows = shadows if isinstance(shadows, int) and not isinstance(shadows, bool) else 0
    return max(shadows, 1) + 1


def expand_roles(name: str, component: Mapping[str, Any]) -> list[Role]:
    """``expandRolesForComponent``: multinode inter-pod GMS (a GMS and an engine role per rank), plain
    multinode (leader, worker), single-node inter-pod GMS (GMS, then the engines), a forced scaling
    group (one pod), else the component with its replicas."""
    n = node_count(component)
    gms = is_inter_pod_gms(component)
    if n > 1 and gms:
        engines = total_engine_pods(component)
        roles: list[Role] = []
        for rank in range(n):
            roles.append((f"{name}-{ROLE_SUFFIX_GMS}-{rank}", ROLE_GMS, 1, rank))
            if rank == 0:
                roles.append((f"{name}-{ROLE_SUFFIX_LEADER}", "leader", engines, rank))
            else:
                roles.append((f"{name}-{ROLE_SUFFIX_WORKER}-{rank}", "worker", engines, rank))
        return roles
    if n > 1:
        return [(f"{name}-{ROLE_SUFFIX_LEADER}", "leader", 1, 0), (f"{name}-{ROLE_SUFFIX_WORKER}", "worker", n - 1, 0)]
    if gms:
        return [(f"{name}-{ROLE_SUFFIX_GMS}-0", ROLE_GMS, 1, 0), (name, "main", total_engine_pods(component), 0)]
    if is_scaling_group_forced(component):
        return [(name, "main", 1, 0)]
    replicas = component.get("replicas")
    return [(name, "main", 1 if replicas is None else int(replicas), 0)]


def clique_startup_dependencies(role: str, backend: str, leader: str, workers: list[str]) -> list[str] | None:
    """``getCliqueStartupDependencies``: a vLLM or SGLang worker clique starts after its leader, a
    TRT-LLM leader after its workers (mpirun reaches them over SSH); nothing otherwise."""
    if backend in ("vllm", "sglang") and role == "worker" and leader:
        return [leader]
    if backend == "trtllm" and role == "leader" and workers:
        return list(workers)
    return None


def startup_dependencies(roles: list[Role], backend: str, nodes: int, inter_pod_gms: bool) -> dict[str, list[str]]:
    """``applyCliqueStartupDependencies``: lower-cased clique name -> ``startsAfter``. Engines start after
    their rank's GMS clique; a TRT-LLM multinode leader after its workers."""
    trtllm_multinode = backend == "trtllm" and nodes > 1
    if not trtllm_multinode and not inter_pod_gms:
        return {}
    leader = next((n.lower() for n, role, _, _ in roles if role == "leader"), "")
    workers = [n.lower() for n, role, _, _ in roles if role == "worker"]
    gms_by_rank = {rank: n.lower() for n, role, _, rank in roles if role == ROLE_GMS}
    out: dict[str, list[str]] = {}
    for n, role, _, rank in roles:
        after: list[str] = []
        if inter_pod_gms and role != ROLE_GMS and rank in gms_by_rank:
            after.append(gms_by_rank[rank])
        if trtllm_multinode:
            after += clique_startup_dependencies(role, backend, leader, workers) or []
        if after:
            out.setdefault(n.lower(), after)
    return out


# ---------------------------------------------------------------- pod specs


def _shared_volume(rank: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The hostPath volume and its mount, isolated per scaling-group replica and rank (``subPathExpr``)."""
    volume = {"name": SHARED_VOLUME, "hostPath": {"path": HOST_PATH_BASE, "type": "DirectoryOrCreate"}}
    mount = {"name": SHARED_VOLUME, "mountPath": SHARED_MOUNT_PATH,
             "subPathExpr": f"$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)/rank-{rank}"}
    return volume, mount


def _perm_fix_init(rank: int, image: Any) -> dict[str, Any]:
    """``gmsPermFixInitContainer``: root opens the rank's directory to the non-root engine and server."""
    _, mount = _shared_volume(rank)
    c: dict[str, Any] = {"name": PERM_FIX_INIT}
    if image:
        c["image"] = image
    c["command"] = ["sh", "-c", f"chmod 1777 {SHARED_MOUNT_PATH}"]
    c["resources"] = {}
    c["securityContext"] = {"runAsUser": 0, "runAsNonRoot": False}
    c["volumeMounts"] = [mount]
    return c


def _apply_shared_resources(pod: dict[str, Any], container: dict[str, Any], rank: int) -> None:
    """``applyGMSSharedResources``: no scalar GPUs (DRA allocates them), the GPU toleration, the rank's
    shared directory mounted and the permission-fix init container appended."""
    _dra.strip_container_gpus(container)
    _dra.add_gpu_toleration(pod)
    volume, mount = _shared_volume(rank)
    pod.setdefault("volumes", []).append(volume)
    container.setdefault("volumeMounts", []).append(mount)
    pod.setdefault("initContainers", []).append(_perm_fix_init(rank, container.get("image")))


def _wrapper_script() -> str:
    """``gmsWrapperScript``: stale sockets removed, the server started, signals forwarded to its process
    group and its exit code kept."""
    return "\n".join([
        f"rm -f {SHARED_MOUNT_PATH}/gms_*.sock",
        "rc=1",
        'cleanup() { kill -- -$$ 2>/dev/null; exit "$rc"; }',
        "trap cleanup SIGTERM SIGINT",
        f"python3 -m {SERVER_MODULE} &",
        'echo "Started GMS server pid=$!"',
        "wait -n",
        "rc=$?",
        'echo "GMS server exited (code=$rc), shutting down"',
        "cleanup",
    ])


def weight_server_gpus(component: Mapping[str, Any], path: tuple[str | int, ...] = ()) -> int:
    """The main container's GPU count the server's startup probe waits for (two sockets per GPU)."""
    try:
        return _dra.gpu_count(_dra.main_container_resources(component), path)
    except RenderError as exc:
        raise RenderError.at(f"failed to get GPU count for GMS weight server: {exc}", path,
                             rule=_dra.RULE_DRA_CLAIM) from exc


def weight_server_pod(base: dict[str, Any], rank: int, gpus: int) -> dict[str, Any]:
    """``gmsWeightServerPodSpec``: the engine's base pod running the GMS server instead, without liveness
    and readiness probes, started once both sockets of every GPU exist (2 s x 150)."""
    pod: dict[str, Any] = deepcopy(base)
    containers = pod.get("containers") or []
    if not containers:
        return pod
    c = containers[0]
    c["command"] = ["bash", "-c"]
    c["args"] = [_wrapper_script()]
    c["startupProbe"] = {
        "exec": {"command": ["sh", "-c",
                             f"test $(ls {SHARED_MOUNT_PATH}/gms_*.sock 2>/dev/null | wc -l) -ge {2 * gpus}"]},
        "periodSeconds": 2, "timeoutSeconds": 2, "failureThreshold": 150,
    }
    c.pop("livenessProbe", None)
    c.pop("readinessProbe", None)
    c.setdefault("env", []).append({"name": ENV_SOCKET_DIR, "value": SHARED_MOUNT_PATH})
    _apply_shared_resources(pod, c, rank)
    return pod


def augment_engine(pod: dict[str, Any], rank: int, inter_pod_failover: bool) -> None:
    """``augmentEngineForGMS``: the engine env (its index among the shadows, the socket directory, the
    failover lock, not ready until promoted), no endpoint health status, the shared resources; with
    failover the engines are never restarted in place (the cascade controller replaces the cohort)."""
    containers = pod.get("containers") or []
    if not containers:
        return
    c = containers[0]
    env = [e for e in c.get("env") or []
           if not (isinstance(e, Mapping) and e.get("name") == "DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS")]
    env += [
        {"name": "ENGINE_ID", "valueFrom": {"fieldRef": {"fieldPath": POD_INDEX_FIELD}}},
        {"name": ENV_SOCKET_DIR, "value": SHARED_MOUNT_PATH},
        {"name": "FAILOVER_LOCK_PATH", "value": SHARED_MOUNT_PATH + "/failover.lock"},
        {"name": "DYN_SYSTEM_STARTING_HEALTH_STATUS", "value": "notready"},
    ]
    c["env"] = env
    _apply_shared_resources(pod, c, rank)
    if inter_pod_failover:
        pod["restartPolicy"] = "Never"


# ---------------------------------------------------------------- PodCliqueSet parts


def rank_claim_template_name(service: str, rank: int) -> str:
    """``gmsRCTName``."""
    return f"{normalize_kube_name(service)}-gpu-rank-{rank}"


def claim_template_configs(service: str, component: Mapping[str, Any], roles: list[Role],
                           path: tuple[str | int, ...] = ()) -> list[dict[str, Any]]:
    """``gmsResourceClaimTemplateConfigs``: one PodCliqueSet-level template per rank, each for the main
    container's GPU count."""
    try:
        count = _dra.gpu_count(_dra.main_container_resources(component), path)
    except RenderError as exc:
        raise RenderError.at(f"failed to build GMS ResourceClaimTemplate configs for component {service}: {exc}",
                             path, rule=_dra.RULE_DRA_CLAIM) from exc
    device_class = _dra.device_class(_dra.gms_spec(component))
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for _, _, _, rank in roles:
        if rank in seen:
            continue
        seen.add(rank)
        request = _dra.device_request("gpu", device_class, count)
        if not count:
            del request["exactly"]["count"]  # ExactDeviceRequest.count is omitempty
        out.append({"name": rank_claim_template_name(service, rank),
                    "templateSpec": {"metadata": {}, "spec": {"devices": {"requests": [request]}}}})
    return out


def resource_sharing(service: str, roles: list[Role]) -> list[dict[str, Any]]:
    """``gmsResourceSharingEntries``: per rank (in first-seen order), the rank's template shared per
    scaling-group replica by that rank's GMS and engine cliques only."""
    groups: dict[int, list[str]] = {}
    for name, _, _, rank in roles:
        groups.setdefault(rank, []).append(name.lower())
    return [{"name": rank_claim_template_name(service, rank), "scope": "PerReplica",
             "filter": {"childCliqueNames": cliques}} for rank, cliques in groups.items()]
