"""Grove's defaulting of a PodCliqueSet: the CRD defaults and the defaulting webhook
(ai-dynamo/grove ``operator/internal/webhook/admission/pcs/defaulting/podcliqueset.go``), the object
Grove's validating webhook sees on CREATE and UPDATE."""

from __future__ import annotations

from .._core._datacopy import deepcopy
from ._common import as_dict, as_int, as_list

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["grove_defaults"]


def grove_defaults(pcs: dict[str, Any]) -> dict[str, Any]:
    """The PodCliqueSet as Grove's validating webhook sees it on CREATE: CRD defaults
    (``spec.replicas`` 0, ``cliqueStartupType`` AnyOrder, scaling group ``replicas``/``minAvailable``
    1) and the defaulting webhook (namespace ``default``; clique ``replicas`` 0 → 1 and
    ``minAvailable`` = the clique's *pre-defaulting* ``replicas``; ``autoScalingConfig.minReplicas`` =
    the pre-defaulting clique ``replicas``; PCSG ``scaleConfig.minReplicas`` = PCSG ``replicas``;
    ``terminationDelay`` 4h; ``headlessServiceConfig``; podSpec ``restartPolicy: Always`` and
    ``terminationGracePeriodSeconds: 30``). A new object; the input is untouched."""
    out: dict[str, Any] = deepcopy(pcs)
    if not isinstance(out, dict):  # not a mapping: a copy, untouched
        return out
    meta = out.setdefault("metadata", {})
    if isinstance(meta, dict) and not meta.get("namespace"):
        meta["namespace"] = "default"
    spec = out.get("spec")
    if not isinstance(spec, dict):
        return out
    spec.setdefault("replicas", 0)
    tmpl = spec.get("template")
    if not isinstance(tmpl, dict):
        return out
    tmpl.setdefault("cliqueStartupType", "CliqueStartupTypeAnyOrder")
    for clique in as_list(tmpl.get("cliques")):
        cs = as_dict(clique).get("spec")
        if not isinstance(cs, dict):
            continue
        replicas = as_int(cs.get("replicas")) or 0
        ps = cs.get("podSpec")
        if isinstance(ps, dict):
            if not ps.get("restartPolicy"):
                ps["restartPolicy"] = "Always"
            if ps.get("terminationGracePeriodSeconds") is None:
                ps["terminationGracePeriodSeconds"] = 30
        if replicas == 0:
            cs["replicas"] = 1
        if cs.get("minAvailable") is None:
            cs["minAvailable"] = replicas
        sc = cs.get("autoScalingConfig")
        if isinstance(sc, dict) and sc.get("minReplicas") is None:
            sc["minReplicas"] = replicas
    for g in as_list(tmpl.get("podCliqueScalingGroups")):
        if not isinstance(g, dict):
            continue
        if g.get("replicas") is None:
            g["replicas"] = 1
        if g.get("minAvailable") is None:
            g["minAvailable"] = 1
        sc = g.get("scaleConfig")
        if isinstance(sc, dict) and sc.get("minReplicas") is None:
            sc["minReplicas"] = g["replicas"]
    if tmpl.get("terminationDelay") is None:
        tmpl["terminationDelay"] = "4h0m0s"
    if tmpl.get("headlessServiceConfig") is None:
        tmpl["headlessServiceConfig"] = {"publishNotReadyAddresses": True}
    return out
