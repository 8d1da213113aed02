"""The PodClique role names the Dynamo operator gives a component's pods (``expandRolesForComponent``):
one copy for admission (name-length rules) and render (the PodCliqueSet itself).

Callers pass the component's name, node count and whether inter-pod GPU memory service is on, each read
with their own accessors (admission tolerates unvalidated input, render reads admitted objects).
"""

from __future__ import annotations

ROLE_SUFFIX_LEADER = "ldr"
ROLE_SUFFIX_WORKER = "wkr"
ROLE_SUFFIX_GMS = "gms"


def expand_role_names(name: str, nodes: int, inter_pod_gms: bool) -> list[str]:
    """Multinode: leader and worker (with GMS: one GMS and one engine role per node rank); single-node GMS:
    the GMS role then the component; otherwise the component alone."""
    if nodes > 1 and inter_pod_gms:
        out: list[str] = []
        for rank in range(nodes):
            out.append(f"{name}-{ROLE_SUFFIX_GMS}-{rank}")
            out.append(f"{name}-{ROLE_SUFFIX_LEADER}" if rank == 0 else f"{name}-{ROLE_SUFFIX_WORKER}-{rank}")
        return out
    if nodes > 1:
        return [f"{name}-{ROLE_SUFFIX_LEADER}", f"{name}-{ROLE_SUFFIX_WORKER}"]
    if inter_pod_gms:
        return [f"{name}-{ROLE_SUFFIX_GMS}-0", name]
    return [name]


def longest_role_name(name: str, nodes: int, inter_pod_gms: bool) -> str:
    """The first longest of ``name`` and its role names, lower-cased (the Grove name budget), without
    building one name per node rank: multinode GMS's ``-gms-R`` is longer than ``-ldr`` and first among
    equals, R the first rank with the most digits."""
    lower = name.lower()
    if nodes > 1 and inter_pod_gms:
        digits = len(str(nodes - 1))
        first = 0 if digits == 1 else 10 ** (digits - 1)
        return f"{lower}-{ROLE_SUFFIX_GMS}-{first}"
    longest = lower
    for role in expand_role_names(name, nodes, inter_pod_gms):
        if len(role.lower()) > len(longest):
            longest = role.lower()
    return longest
