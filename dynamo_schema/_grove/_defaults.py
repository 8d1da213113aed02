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


def grove_defaults(pcs: dict[str, Any], *, shared: bool = False) -> dict[str, Any]:
    """The PodCliqueSet as Grove's validating webhook sees it on CREATE: CRD defaults
    (``spec.replicas`` 0, ``cliqueStartupType`` AnyOrder, scaling group ``replicas``/``minAvailable``
    1) and the defaulting webhook (namespace ``default``; clique ``replicas`` 0 → 1 and
    ``minAvailable`` = the clique's *pre-defaulting* ``replicas``; ``autoScalingConfig.minReplicas`` =
    the pre-defaulting clique ``replicas``; PCSG ``scaleConfig.minReplicas`` = PCSG ``replicas``;
    ``terminationDelay`` 4h; ``headlessServiceConfig``; podSpec ``restartPolicy: Always`` and
    ``terminationGracePeriodSeconds: 30``). A new object; the input is untouched.

    ``shared``: only the mappings and lists on the way to a default are copied, the rest of the result is the
    input's own (for a reader, Grove's webhook checks: do not modify it)."""
    if not shared:
        out: dict[str, Any] = deepcopy(pcs)
        if not isinstance(out, dict):  # not a mapping: a copy, untouched
            return out
        own = _same
    else:
        if not isinstance(pcs, dict):
            return deepcopy(pcs)
        out, own = dict(pcs), _copied
    meta = out["metadata"] = own(out.get("metadata")) if "metadata" in out else {}
    if isinstance(meta, dict) and not meta.get("namespace"):
        meta["namespace"] = "default"
    spec = out.get("spec")
    if not isinstance(spec, dict):
        return out
    spec = out["spec"] = own(spec)
    spec.setdefault("replicas", 0)
    tmpl = spec.get("template")
    if not isinstance(tmpl, dict):
        return out
    tmpl = spec["template"] = own(tmpl)
    tmpl.setdefault("cliqueStartupType", "CliqueStartupTypeAnyOrder")
    if isinstance(tmpl.get("cliques"), list):
        tmpl["cliques"] = [own(c) for c in tmpl["cliques"]]
    for clique in as_list(tmpl.get("cliques")):
        cs = as_dict(clique).get("spec")
        if not isinstance(cs, dict):
            continue
        cs = clique["spec"] = own(cs)
        replicas = as_int(cs.get("replicas")) or 0
        ps = cs.get("podSpec")
        if isinstance(ps, dict):
            ps = cs["podSpec"] = own(ps)
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
            cs["autoScalingConfig"] = sc = own(sc)
            sc["minReplicas"] = replicas
    if isinstance(tmpl.get("podCliqueScalingGroups"), list):
        tmpl["podCliqueScalingGroups"] = [own(g) for g in tmpl["podCliqueScalingGroups"]]
    for g in as_list(tmpl.get("podCliqueScalingGroups")):
        if not isinstance(g, dict):
            continue
        if g.get("replicas") is None:
            g["replicas"] = 1
        if g.get("minAvailable") is None:
            g["minAvailable"] = 1
        sc = g.get("scaleConfig")
        if isinstance(sc, dict) and sc.get("minReplicas") is None:
            g["scaleConfig"] = sc = own(sc)
            sc["minReplicas"] = g["replicas"]
    if tmpl.get("terminationDelay") is None:
        tmpl["terminationDelay"] = "4h0m0s"
    if tmpl.get("headlessServiceConfig") is None:
        tmpl["headlessServiceConfig"] = {"publishNotReadyAddresses": True}
    return out


def _same(x: Any) -> Any:
    return x


def _copied(x: Any) -> Any:
    """A shallow copy of a mapping or list (anything else as it is)."""
    if type(x) is dict:
        return dict(x)
    if type(x) is list:
        return list(x)
    return x
