"""The request of one pod build (``PodRequest``) and the component accessors pods and backends share.

Below ``_pod`` (pod spec assembly) and ``_backends`` (backend-specific container changes), so neither
imports the other's module for these.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import GPU_RESOURCE
from .._core._record import Record
from ._options import RenderOptions

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

MAIN = "main"


class PodRequest(Record):
    """The request of one pod build: a value with a dataclass's constructor, equality and repr, written out
    (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("component", "component_type", "backend", "dgd_name", "namespace", "role",
                                            "nodes", "deployer", "service_name", "options", "path", "gms_rank")
    component: dict[str, Any]
    component_type: str
    backend: str
    dgd_name: str
    namespace: str
    role: str  # "main" | "leader" | "worker"
    nodes: int
    deployer: str  # "grove" | "lws"
    service_name: str
    options: RenderOptions
    path: tuple[str | int, ...]
    # The node rank of an engine pod of multinode inter-pod GMS: its deployer names hosts and ranks
    # statically (``GroveMultinodeDeployer{IsInterPodGMS: true, Rank: r}``); None otherwise.
    gms_rank: int | None

    def __init__(self, component: dict[str, Any], component_type: str, backend: str, dgd_name: str, namespace: str,
                 role: str, nodes: int, deployer: str, service_name: str, options: RenderOptions,
                 path: tuple[str | int, ...] = (), gms_rank: int | None = None) -> None:
        self.component = component
        self.component_type = component_type
        self.backend = backend
        self.dgd_name = dgd_name
        self.namespace = namespace
        self.role = role
        self.nodes = nodes
        self.deployer = deployer
        self.service_name = service_name
        self.options = options
        self.path = path
        self.gms_rank = gms_rank


def pod_template_annotations(component: Mapping[str, Any]) -> dict[str, str]:
    pt = component.get("podTemplate") or {}
    return dict((pt.get("metadata") or {}).get("annotations") or {})


def pod_template_labels(component: Mapping[str, Any]) -> dict[str, str]:
    pt = component.get("podTemplate") or {}
    return dict((pt.get("metadata") or {}).get("labels") or {})


def main_container(component: Mapping[str, Any]) -> dict[str, Any] | None:
    pt = component.get("podTemplate") or {}
    for c in (pt.get("spec") or {}).get("containers") or []:
        if isinstance(c, dict) and c.get("name") == MAIN:
            return c
    return None


def gpu_count(component: Mapping[str, Any]) -> int:
    main = main_container(component) or {}
    res = main.get("resources") or {}
    for section in ("limits", "requests"):
        val = (res.get(section) or {}).get(GPU_RESOURCE)
        if val is not None:
            try:
                return int(str(val))
            except ValueError:
                return 0
    return 0
