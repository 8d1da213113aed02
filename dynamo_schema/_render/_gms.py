"""The GPU Memory Service (GMS) server and its clients inside one pod (intra-pod GMS).

Upstream: ``internal/gms/gms.go`` (``EnsureServerSidecar``, ``EnsureClient``, ``Container``) and the
intra-pod part of ``internal/dynamo/graph.go: GenerateBasePodSpec`` (the shared DRA claim, the server as
a native sidecar, the extra client containers; ``gmsExtraClientContainersError``). Pod specs are plain
dicts; every function changes the one it is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .._k8s._gofmt import go_quote
from .._k8s._grovenames import is_inter_pod_gms
from . import _dra
from ._errors import RenderError

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

SERVER_CONTAINER = "gms-server"
#: The emptyDir shared by the server and its clients for the UDS sockets (not the snapshot control volume).
SHARED_VOLUME = "gms-intrapod-control"
SHARED_MOUNT_PATH = "/gms-intrapod-control"
ENV_SOCKET_DIR = "GMS_SOCKET_DIR"
SERVER_MODULE = "gpu_memory_service.cli.server"
RULE_GMS = "render.gms"


def _replace_or_append(items: list[dict[str, Any]], value: dict[str, Any]) -> None:
    """The first entry of the same ``name`` replaced by ``value``, else ``value`` appended."""
    for i, item in enumerate(items):
        if isinstance(item, Mapping) and item.get("name") == value["name"]:
            items[i] = value
            return
    items.append(value)


def ensure_client(pod: dict[str, Any], container: dict[str, Any]) -> None:
    """``EnsureClient``: the socket volume (emptyDir), its mount and ``GMS_SOCKET_DIR`` on ``container``
    (operator-owned: a user's entry of the same name is replaced), its GPUs replaced by the shared claim."""
    volumes = pod.get("volumes")
    if not isinstance(volumes, list):
        volumes = pod["volumes"] = []
    _replace_or_append(volumes, {"name": SHARED_VOLUME, "emptyDir": {}})
    mounts = container.get("volumeMounts")
    if not isinstance(mounts, list):
        mounts = container["volumeMounts"] = []
    _replace_or_append(mounts, {"name": SHARED_VOLUME, "mountPath": SHARED_MOUNT_PATH})
    env = container.get("env")
    if not isinstance(env, list):
        env = container["env"] = []
    _replace_or_append(env, {"name": ENV_SOCKET_DIR, "value": SHARED_MOUNT_PATH})
    _dra.strip_container_gpus(container)
    _dra.add_container_claim(container)


def server_container(name: str, module: str, image: Any) -> dict[str, Any]:
    """``Container``: a GMS process on the shared socket directory and the shared claim."""
    c: dict[str, Any] = {"name": name}
    if image:
        c["image"] = image
    c["command"] = ["python3", "-m", module]
    c["env"] = [{"name": ENV_SOCKET_DIR, "value": SHARED_MOUNT_PATH}]
    c["volumeMounts"] = [{"name": SHARED_VOLUME, "mountPath": SHARED_MOUNT_PATH}]
    c["resources"] = {"claims": [{"name": _dra.CLAIM_NAME}]}
    return c


def ensure_server_sidecar(pod: dict[str, Any], main: dict[str, Any]) -> None:
    """``EnsureServerSidecar``: ``main`` made a client, then the server appended once as a native
    sidecar (an init container with ``restartPolicy: Always`` and no startup probe)."""
    ensure_client(pod, main)
    sidecar = server_container(SERVER_CONTAINER, SERVER_MODULE, main.get("image"))
    sidecar["restartPolicy"] = "Always"
    init = pod.get("initContainers")
    if not isinstance(init, list):
        init = pod["initContainers"] = []
    if any(isinstance(c, Mapping) and c.get("name") == SERVER_CONTAINER for c in init):
        return
    init.append(sidecar)


def _go_quote_list(names: Sequence[str]) -> str:
    """Go's ``%q`` of a ``[]string``: ``["a" "b"]``."""
    return "[" + " ".join(go_quote(n) for n in names) + "]"


def extra_client_containers_error(spec: Mapping[str, Any], containers: Any) -> str | None:
    """``gmsExtraClientContainersError``: duplicate or missing ``extraClientContainers`` references, one
    message naming all of them (sorted), or None."""
    declared = {c.get("name") for c in containers or [] if isinstance(c, Mapping)}
    seen: set[str] = set()
    missing: list[str] = []
    duplicate: list[str] = []
    for raw in spec.get("extraClientContainers") or []:
        name = str(raw)
        if name in seen:
            duplicate.append(name)
            continue
        seen.add(name)
        if name not in declared:
            missing.append(name)
    if not missing and not duplicate:
        return None
    problems = []
    if duplicate:
        problems.append(f"contains duplicate names {_go_quote_list(sorted(duplicate))}")
    if missing:
        problems.append(f"references missing pod containers {_go_quote_list(sorted(missing))}")
    return "gpuMemoryService.extraClientContainers " + "; ".join(problems)


def check_extra_clients(component: Mapping[str, Any], component_name: str, path: tuple[str | int, ...]) -> None:
    """``GenerateDynamoComponentsDeployments``: an intra-pod GMS component's client references are checked
    against its pod template before any child DCD is written."""
    spec = _dra.gms_spec(component)
    if spec is None or is_inter_pod_gms(component):
        return
    containers = ((component.get("podTemplate") or {}).get("spec") or {}).get("containers")
    problem = extra_client_containers_error(spec, containers)
    if problem:
        raise RenderError.at(f"component {go_quote(component_name)}: {problem}",
                             path + ("experimental", "gpuMemoryService", "extraClientContainers"), rule=RULE_GMS)


def apply_intra_pod_gms(pod: dict[str, Any], component: Mapping[str, Any], parent_name: str, service_name: str,
                        path: tuple[str | int, ...] = ()) -> None:
    """The intra-pod GMS part of ``GenerateBasePodSpec``: the rendered containers' client references
    rechecked, the first container's GPUs replaced by the claim of the ``<parent>-<service>-gpu``
    ResourceClaimTemplate, the server sidecar added, each extra client wired. Inter-pod GMS is wired per
    rank by the Grove layout instead (``_gmsinterpod``)."""
    spec = _dra.gms_spec(component)
    if spec is None or is_inter_pod_gms(component):
        return
    containers: list[dict[str, Any]] = pod.get("containers") or []
    problem = extra_client_containers_error(spec, containers)
    if problem:
        where = path + ("experimental", "gpuMemoryService", "extraClientContainers")
        raise RenderError.at(problem, where, rule=RULE_GMS)
    _dra.apply_claim(pod, _dra.claim_template_name(parent_name, service_name), path)
    ensure_server_sidecar(pod, containers[0])
    for name in spec.get("extraClientContainers") or []:
        client = next((c for c in containers if c.get("name") == name), None)
        if client is None:  # pragma: no cover - the recheck above found every client
            raise RenderError.at(f"gpuMemoryService extra client container {go_quote(str(name))} disappeared while "
                                 "rendering the pod", path, rule=RULE_GMS)
        ensure_client(pod, client)
