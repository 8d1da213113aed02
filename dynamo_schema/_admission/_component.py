"""Derived facts about one component spec (plain dict), mirroring the Go helper methods."""

from __future__ import annotations

from .._k8s._grovenames import MAX_COMBINED_GROVE_NAME as MAX_COMBINED_GROVE_NAME
from .._k8s._grovenames import is_inter_pod_gms as inter_pod_gms_enabled
from .._k8s._grovenames import longest_clique_name
from .._k8s._grovenames import node_count as node_count
from .._k8s._grovenames import pcs_name_for_dgd as pcs_name_for_dgd
from .._k8s._grovenames import uses_pcsg as uses_pcsg
from ._common import as_dict, as_int, as_list, as_str, get

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

GMS_INTRA = "IntraPod"
GMS_INTER = "InterPod"
WORKER_TYPES = ("worker", "prefill", "decode")


def is_multinode(c: Any) -> bool:
    return node_count(c) > 1


def gms(c: Any) -> dict[str, Any] | None:
    v = get(c, "experimental", "gpuMemoryService")
    return v if isinstance(v, dict) else None


def failover(c: Any) -> dict[str, Any] | None:
    v = get(c, "experimental", "failover")
    return v if isinstance(v, dict) else None


def effective_mode(mode: Any) -> str:
    m = as_str(mode)
    return GMS_INTRA if m == "" else m


def is_inter_pod_gms(g: dict[str, Any] | None) -> bool:
    return g is not None and effective_mode(g.get("mode")) == GMS_INTER


def is_inter_pod_failover(f: dict[str, Any] | None) -> bool:
    return f is not None and effective_mode(f.get("mode")) == GMS_INTER


def num_shadows(f: dict[str, Any]) -> int:
    n = as_int(f.get("numShadows")) or 0
    return max(n, 1)


def containers(c: Any, key: str = "containers") -> list[Any]:
    return as_list(get(c, "podTemplate", "spec", key))


def container_names(c: Any) -> list[str]:
    return [as_str(x.get("name")) for x in containers(c) if isinstance(x, dict)]


def main_container(c: Any) -> tuple[int, dict[str, Any] | None]:
    for i, x in enumerate(containers(c)):
        if isinstance(x, dict) and x.get("name") == "main":
            return i, x
    return -1, None


def main_resources(c: Any) -> dict[str, Any]:
    _, m = main_container(c)
    return as_dict(as_dict(m).get("resources"))


def role_names(c: Any) -> list[str]:
    """Rendered Grove role (PodClique) names, as ``expandRolesForComponent``."""
    from .._k8s._roles import expand_role_names

    return expand_role_names(as_str(as_dict(c).get("name")), node_count(c), inter_pod_gms_enabled(c))


def longest_podclique_name(c: Any) -> str:
    return longest_clique_name(as_str(as_dict(c).get("name")), c)
