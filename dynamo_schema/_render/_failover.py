"""Intra-pod GMS failover: the ``main`` container cloned into an active and a standby engine.

Upstream: ``internal/dynamo/failover.go`` (``IsIntraPodFailoverEnabled``, ``buildFailoverPod``,
``buildEngineContainer``) and ``internal/dynamo/failover_vllm.go`` (``applyVLLMOverrides``, the
``--master-port`` staggering). It runs after intra-pod GMS (``_gms``), so the engines inherit the
shared claim, the socket mount and ``GMS_SOCKET_DIR``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._datacopy import deepcopy
from .._core._lazyre import lazy
from . import _dra
from ._errors import RenderError
from ._gms import SHARED_MOUNT_PATH

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

ENGINE_COUNT = 2
SYSTEM_PORT = 9090  # consts.DynamoSystemPort
FPM_BASE_PORT = 20380  # consts.DynamoFPMBasePort
LOCK_FILE = SHARED_MOUNT_PATH + "/failover.lock"
MASTER_PORT_FLAG = "--master-port"
MASTER_PORT_STRIDE = 100
RULE_FAILOVER_BACKEND = "render.failover-backend"

#: Env the engines drop from the base container: replaced per engine or not wanted.
_REPLACED_ENV = frozenset({
    "DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS", "DYN_SYSTEM_PORT", "DYN_SYSTEM_ENABLED", "DYN_HEALTH_CHECK_ENABLED",
    "CONTAINER_NAME", "DYN_FORWARDPASS_METRIC_PORT",
})
_LEADING_DIGITS = lazy(r"[0-9]*")
_GO_ATOI = lazy(r"[+-]?[0-9]+")


def is_intra_pod_failover(component: Mapping[str, Any]) -> bool:
    """``IsIntraPodFailoverEnabled``: ``experimental.failover`` present with mode ``IntraPod`` or none."""
    failover = _dra.experimental(component).get("failover")
    return isinstance(failover, dict) and failover.get("mode") in (None, "", "IntraPod")


def engine_container_names() -> list[str]:
    """``IntraPodFailoverEngineContainerNames``."""
    return [f"engine-{i}" for i in range(ENGINE_COUNT)]


def engine_container(base: Mapping[str, Any], engine_id: int, system_port: int) -> dict[str, Any]:
    """``buildEngineContainer``: a copy of ``base`` named ``engine-N`` with one system port, the failover
    env (after the base env minus the replaced names) and HTTP probes retargeted to its port."""
    engine: dict[str, Any] = deepcopy(dict(base))
    engine["name"] = f"engine-{engine_id}"
    port_name = f"system-{engine_id}"
    engine["ports"] = [{"protocol": "TCP", "name": port_name, "containerPort": system_port}]
    env = [e for e in engine.get("env") or [] if not (isinstance(e, Mapping) and e.get("name") in _REPLACED_ENV)]
    env += [
        {"name": "ENGINE_ID", "value": str(engine_id)},
        {"name": "CONTAINER_NAME", "value": engine["name"]},
        {"name": "FAILOVER_LOCK_PATH", "value": LOCK_FILE},
        {"name": "DYN_SYSTEM_STARTING_HEALTH_STATUS", "value": "notready"},
        {"name": "DYN_SYSTEM_PORT", "value": str(system_port)},
        {"name": "DYN_SYSTEM_ENABLED", "value": "true"},
        # both engines share the pod's network: each its own forward-pass metrics port
        {"name": "DYN_FORWARDPASS_METRIC_PORT", "value": str(FPM_BASE_PORT + engine_id)},
    ]
    engine["env"] = env
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        p = engine.get(probe)
        if isinstance(p, dict) and isinstance(p.get("httpGet"), dict):
            p["httpGet"]["port"] = port_name
    return engine


def _has_master_port_flag(container: Mapping[str, Any]) -> bool:
    """``hasMasterPortFlag``: the flag as an argument, or ``--master-port <v>`` inside one (args or command)."""
    for arg in container.get("args") or []:
        if arg == MASTER_PORT_FLAG or MASTER_PORT_FLAG + " " in str(arg):
            return True
    return any(MASTER_PORT_FLAG + " " in str(c) for c in container.get("command") or [])


def _stagger_in(items: list[Any], flag: str, offset: int) -> bool:
    """The first ``<flag> <digits>`` inside one string of ``items`` with ``offset`` added (``staggerFlagValue``)."""
    for i, raw in enumerate(items):
        text = str(raw)
        if flag + " " not in text:
            continue
        digits = _LEADING_DIGITS.match(text.split(flag + " ")[1])
        port = digits.group(0) if digits else ""
        if port:
            items[i] = text.replace(f"{flag} {port}", f"{flag} {int(port) + offset}", 1)
            return True
    return False


def _stagger_flag_value(container: dict[str, Any], flag: str, offset: int) -> None:
    args = container.get("args") or []
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            value = str(args[i + 1])
            if not _GO_ATOI.fullmatch(value):  # strconv.Atoi: an optional sign and decimal digits only
                continue
            args[i + 1] = str(int(value) + offset)
            return
    if _stagger_in(args, flag, offset):
        return
    _stagger_in(container.get("command") or [], flag, offset)


def _vllm_overrides(pod: dict[str, Any], nodes: int) -> None:
    """``applyVLLMOverrides``: per-engine NIXL side-channel and KV-event ports, the shadow-mode switch, a
    staggered ``--master-port`` for every engine but the first, ``NNODES`` when multinode."""
    for c in pod.get("containers") or []:
        name = str(c.get("name") or "")
        if not name.startswith("engine-"):
            continue
        try:
            engine_id = int(name[len("engine-"):])
        except ValueError:
            engine_id = 0
        env = c.setdefault("env", [])
        env += [
            {"name": "DYN_VLLM_GMS_SHADOW_MODE", "value": "true"},
            {"name": "VLLM_NIXL_SIDE_CHANNEL_PORT", "value": str(5600 + engine_id)},
            {"name": "DYN_VLLM_KV_EVENT_PORT", "value": str(20080 + engine_id)},
        ]
        if engine_id > 0:
            if _has_master_port_flag(c):
                _stagger_flag_value(c, MASTER_PORT_FLAG, engine_id * MASTER_PORT_STRIDE)
            else:
                c["args"] = list(c.get("args") or []) + [MASTER_PORT_FLAG, str(29500 + engine_id * MASTER_PORT_STRIDE)]
        if nodes > 1:
            env.append({"name": "NNODES", "value": str(nodes)})


def build_failover_pod(pod: dict[str, Any], nodes: int, backend: str, path: tuple[str | int, ...] = ()) -> None:
    """``buildFailoverPod``: two engines in place of the first container (sidecars kept after them), then
    the backend's overrides; only vLLM supports failover."""
    containers = pod.get("containers") or []
    if not containers:
        raise RenderError.at("failed to build failover pod: pod spec must have at least one container for failover "
                             "transformation", path, rule=RULE_FAILOVER_BACKEND)
    main, sidecars = containers[0], containers[1:]
    pod["containers"] = [engine_container(main, i, SYSTEM_PORT + i) for i in range(ENGINE_COUNT)] + sidecars
    if backend != "vllm":
        raise RenderError.at(
            f"failed to build failover pod: failover is currently supported only for vLLM (detected: {backend})",
            path + ("experimental", "failover"), rule=RULE_FAILOVER_BACKEND,
        )
    _vllm_overrides(pod, nodes)


def apply_intra_pod_failover(pod: dict[str, Any], component: Mapping[str, Any], nodes: int, backend: str,
                             path: tuple[str | int, ...] = ()) -> None:
    if is_intra_pod_failover(component):
        build_failover_pod(pod, nodes, backend, path)
