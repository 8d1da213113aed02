"""Grove's scheduler-backend check of a PodCliqueSet on CREATE (ai-dynamo/grove
``operator/internal/scheduler/{kube,kai,volcano,lpx}/backend.go``): the backend of the first clique's
``schedulerName`` (or the default) must be enabled; KAI needs one queue, Volcano one queue and no
topology constraints, LPX no topology constraints."""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from .._k8s._gofmt import field_error, go_json, go_quote
from .._k8s._names import dns1123_subdomain_errors
from ._common import PcsView, as_dict, as_str, str_map
from ._settings import KAI_SCHEDULER, LPX_SCHEDULER, VOLCANO_SCHEDULER, GroveSettings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["backend_errors"]

KAI_QUEUE_KEY = "kai.scheduler/queue"
VOLCANO_QUEUE_KEY = "scheduling.grove.io/volcano-queue"


def backend_errors(v: PcsView, settings: GroveSettings) -> list[Diagnostic]:
    cliques = v.cliques
    sched = as_str(as_dict(as_dict(cliques[0].get("spec")).get("podSpec")).get("schedulerName")) if cliques else ""
    backend = sched or settings.default_scheduler
    if backend not in settings.enabled_schedulers:
        detail = ("default scheduler backend is not configured" if not sched
                  else f"schedulerName {go_quote(sched)} is not enabled in OperatorConfiguration")
    elif backend == KAI_SCHEDULER:
        detail = _kai_queue_error(v)
    elif backend == VOLCANO_SCHEDULER:
        detail = _no_topology_error(v, backend) or _volcano_queue_error(v)
    elif backend == LPX_SCHEDULER:
        detail = _no_topology_error(v, backend)
    else:
        detail = ""
    if not detail:
        return []
    # upstream prints the whole Go PodCliqueSetSpec struct as JSON; here the (defaulted) input
    # spec in source order, which can differ in key order and omitted zero values
    return [Diagnostic("grove.backend", ("spec",), field_error("Invalid value", go_json(v.spec), detail,
                                                               render=str))]


def _kai_queue_error(v: PcsView) -> str:
    ns, name = as_str(v.meta.get("namespace")), v.name
    pcs_q = _queue(v.meta)
    if pcs_q:
        for c in v.cliques:
            q = _queue(c)
            if q and q != pcs_q:
                return (f"KAI queue on PodCliqueSet {ns}/{name} is {go_quote(pcs_q)} but PodClique template "
                        f"{go_quote(as_str(c.get('name')))} resolves to {go_quote(q)}")
        return ""
    queues = sorted({q for q in (_queue(c) for c in v.cliques) if q})
    if not queues:
        return f"no KAI queue is configured on PodCliqueSet {ns}/{name} or its PodClique templates"
    if len(queues) == 1:
        return ""
    return f"conflicting KAI queues on PodCliqueSet {ns}/{name} PodClique templates: [{' '.join(queues)}]"


def _volcano_queue_error(v: PcsView) -> str:
    """``validateQueueAnnotations`` without the cluster lookup of the queue (not offline)."""
    key = VOLCANO_QUEUE_KEY
    pcs_q = str_map(v.meta.get("annotations")).get(key, "").strip()
    if pcs_q:
        msgs = dns1123_subdomain_errors(pcs_q)
        if msgs:
            return f"metadata.annotations[{key}]: " + "; ".join(msgs)
    errs: list[str] = []
    resolved = ""
    for i, c in enumerate(v.cliques):
        cq = str_map(c.get("annotations")).get(key, "").strip()
        if cq:
            msgs = dns1123_subdomain_errors(cq)
            if msgs:
                errs.append(f"spec.template.cliques[{i}].annotations[{key}]: " + "; ".join(msgs))
        if pcs_q and cq and pcs_q != cq:
            errs.append(f"spec.template.cliques[{i}].annotations[{key}]: conflicting volcano queue annotations: "
                        f"PodCliqueSet has {go_quote(pcs_q)}, PodClique has {go_quote(cq)}")
            continue
        queue = pcs_q or cq or "default"
        if not resolved:
            resolved = queue
        elif resolved != queue:
            errs.append(f"spec.template.cliques[{i}].annotations[{key}]: all PodCliques in a PodCliqueSet using "
                        "volcano scheduler must resolve to the same queue")
    if not errs:
        return ""
    return errs[0] if len(errs) == 1 else "[" + ", ".join(errs) + "]"


def _no_topology_error(v: PcsView, backend: str) -> str:
    if isinstance(v.tmpl.get("topologyConstraint"), dict):
        return ("volcano scheduler backend does not support topologyConstraint on PodCliqueSet"
                if backend == "volcano" else _LPX_TOPOLOGY)
    for c in v.cliques:
        if isinstance(c.get("topologyConstraint"), dict):
            return (f"volcano scheduler backend does not support topologyConstraint on PodClique "
                    f"{go_quote(as_str(c.get('name')))}" if backend == "volcano" else _LPX_TOPOLOGY)
    for g in v.groups:
        if isinstance(g.get("topologyConstraint"), dict):
            return (f"volcano scheduler backend does not support topologyConstraint on PodCliqueScalingGroup "
                    f"{go_quote(as_str(g.get('name')))}" if backend == "volcano" else _LPX_TOPOLOGY)
    return ""



_LPX_TOPOLOGY = ("lpx-scheduler does not support Grove topology constraints; placement topology must be expressed "
                 "through the LPX workload contract")


def _queue(obj: dict[str, Any]) -> str:
    """The KAI queue of a PodCliqueSet or clique template: its label, else its annotation."""
    labels, ann = str_map(obj.get("labels")), str_map(obj.get("annotations"))
    if labels.get(KAI_QUEUE_KEY):
        return labels[KAI_QUEUE_KEY]
    return ann.get(KAI_QUEUE_KEY, "")
