"""The Grove PodCliqueSet name the Dynamo operator gives a DGD (``PCSNameForDGD``) and the component facts
it reads: one copy for admission (the name-length rules) and render (the PodCliqueSet itself).

The readers tolerate unvalidated input (admission runs on it): a missing ``multinode.nodeCount`` is the
schema default 2, a count that is not an integer is 0; on admitted objects (render) they read the values
as the operator's Go helpers do (``GetNumberOfNodes``, ``IsInterPodGMSEnabled``, ``forceScalingGroup``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .._core._access import as_dict, as_str
from ._gohash import fnv32a
from ._roles import longest_role_name

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

#: Grove's limit on a PodClique's combined resource name (PCS + replica + clique), which the operator
#: and the DGDR profiler check as well (one copy of the number).
MAX_COMBINED_GROVE_NAME = 45
MIN_PCS_NAME_LENGTH = 8
GMS_INTER = "InterPod"


def node_count(component: Any) -> int:
    """``GetNumberOfNodes``: ``multinode.nodeCount`` (schema default 2) or 1 without multinode. An
    integral JSON float (``2.0``, which the schema admits as an integer) counts as its integer."""
    mn = as_dict(component).get("multinode")
    if not isinstance(mn, dict):
        return 1
    n = mn.get("nodeCount")
    if n is None:
        return 2
    if isinstance(n, bool):
        return 0
    if isinstance(n, int):
        return n
    if isinstance(n, float) and n.is_integer():
        return int(n)
    return 0


def _experimental(component: Any, key: str) -> dict[str, Any]:
    return as_dict(as_dict(as_dict(component).get("experimental")).get(key))


def is_inter_pod_gms(component: Any) -> bool:
    """``IsInterPodGMSEnabled``: the raw ``gpuMemoryService.mode`` is ``InterPod`` (no default)."""
    return _experimental(component, "gpuMemoryService").get("mode") == GMS_INTER


def is_scaling_group_forced(component: Any) -> bool:
    return _experimental(component, "grove").get("forceScalingGroup") is True


def uses_pcsg(component: Any) -> bool:
    """The component's pods are a PodCliqueScalingGroup: multinode, inter-pod GMS or forced."""
    return node_count(component) > 1 or is_inter_pod_gms(component) or is_scaling_group_forced(component)


def longest_clique_name(component_name: str, component: Any) -> str:
    """The longest PodClique name of the component (lower-cased), the Grove name budget's share."""
    if not uses_pcsg(component):
        return component_name.lower()
    return longest_role_name(component_name, node_count(component), is_inter_pod_gms(component))


def pcs_name_for_dgd(dgd_name: str, components: Sequence[Any]) -> str:
    """``PCSNameForDGD``: the DGD name if it fits the Grove 45-character budget, else truncated with a
    ``-`` and 4 hex digits of its FNV-1a hash."""
    max_budget = 0
    for comp in components:
        name = as_str(as_dict(comp).get("name"))
        lower = name.lower()
        budget = len(lower) + len(longest_clique_name(name, comp)) if uses_pcsg(comp) else len(lower)
        max_budget = max(max_budget, budget)
    pcs_budget = max(MAX_COMBINED_GROVE_NAME - max_budget, MIN_PCS_NAME_LENGTH)
    if len(dgd_name) <= pcs_budget:
        return dgd_name
    return dgd_name[: pcs_budget - 5] + "-" + format(fnv32a(dgd_name.encode("utf-8")) & 0xFFFF, "04x")
