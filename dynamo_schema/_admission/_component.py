"""Derived facts about one component spec (plain dict), mirroring the Go helper methods."""

from __future__ import annotations

from typing import Any

from ._common import as_dict, as_int, as_list, as_str, get

GMS_INTRA = "IntraPod"
GMS_INTER = "InterPod"
WORKER_TYPES = ("worker", "prefill", "decode")


def node_count(c: Any) -> int:
    """``GetNumberOfNodes``: ``multinode.nodeCount`` (schema default 2) or 1 without multinode."""
    mn = as_dict(c).get("multinode")
    if isinstance(mn, dict):
        n = as_int(mn.get("nodeCount"))
        return 2 if mn.get("nodeCount") is None else (n if n is not None else 0)
    return 1


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


def inter_pod_gms_enabled(c: Any) -> bool:
    """``IsInterPodGMSEnabled`` compares the raw mode (no IntraPod default)."""
    g = gms(c)
    return g is not None and g.get("mode") == GMS_INTER


def force_scaling_group(c: Any) -> bool:
    return get(c, "experimental", "grove", "forceScalingGroup") is True


def uses_pcsg(c: Any) -> bool:
    return node_count(c) > 1 or inter_pod_gms_enabled(c) or force_scaling_group(c)


def num_shadows(f: dict[str, Any]) -> int:
    n = as_int(f.get("numShadows")) or 0
    return max(n, 1)


def total_engine_pods(c: Any) -> int:
    f = failover(c)
    if f is None or f.get("mode") != GMS_INTER:
        return 1
    return num_shadows(f) + 1


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
    from .._k8s._roles import longest_role_name

    if not uses_pcsg(c):
        return as_str(as_dict(c).get("name")).lower()
    return longest_role_name(as_str(as_dict(c).get("name")), node_count(c), inter_pod_gms_enabled(c))


MAX_COMBINED_GROVE_NAME = 45


def pcs_name_for_dgd(dgd_name: str, components: list[Any]) -> str:
    """``PCSNameForDGD``: the DGD name, truncated with a 4-hex FNV-1a suffix when too long."""
    budget_max = 0
    for c in components:
        lower = as_str(as_dict(c).get("name")).lower()
        budget = len(lower) + len(longest_podclique_name(c)) if uses_pcsg(c) else len(lower)
        budget_max = max(budget_max, budget)
    pcs_budget = max(MAX_COMBINED_GROVE_NAME - budget_max, 8)
    if len(dgd_name) <= pcs_budget:
        return dgd_name
    from .._k8s._gohash import fnv32a

    suffix = f"{fnv32a(dgd_name.encode()) & 0xFFFF:04x}"
    return dgd_name[: pcs_budget - 5] + "-" + suffix
