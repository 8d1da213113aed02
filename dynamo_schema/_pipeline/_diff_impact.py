"""What an update does to the pods of each component (``diff``): the rendered workloads of both sides
(Deployments, LeaderWorkerSets, PodCliqueSet cliques, DCDs) matched per component, their pod-template
and replica changes, renamed workers (a new worker hash) and a ``spec.restart.id`` request."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from .._core._access import as_dict, as_list
from .._core._consts import LABEL_COMPONENT, LABEL_WORKER_HASH
from .._core._diagnostics import Path, format_path

MAX_FIELDS = 12

ObjKey = tuple[str, str, str, str]

# impacts, from the least to the most disruptive
IMPACT_NONE = "unchanged"
IMPACT_NO_RESTART = "no-restart"
IMPACT_ON_DELETE = "restart-on-delete"
IMPACT_ROLLING = "rolling-restart"
IMPACT_REPLACED = "replaced"
IMPACT_ADDED = "added"
IMPACT_REMOVED = "removed"
RESTARTING = (IMPACT_ROLLING, IMPACT_REPLACED, IMPACT_ADDED, IMPACT_REMOVED)


@dataclass
class ComponentImpact:
    """What the update does to one component's pods."""

    name: str
    impact: str
    reasons: list[str] = field(default_factory=list)

    @property
    def restarts(self) -> bool:
        return self.impact in RESTARTING

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "impact": self.impact, "restart": self.restarts, "reasons": list(self.reasons)}


# ------------------------------------------------------------------------------------------ helpers
def meta_of(obj: Any) -> dict[str, Any]:
    return as_dict(as_dict(obj).get("metadata"))


def _labels(obj: Any) -> dict[str, Any]:
    return as_dict(meta_of(obj).get("labels"))


def object_key(obj: dict[str, Any], namespace: str = "") -> ObjKey:
    meta = meta_of(obj)
    return (str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
            str(meta.get("namespace") or namespace or ""), str(meta.get("name") or meta.get("generateName") or ""))


def changed_paths(old: Any, new: Any, path: Path = (), out: list[Path] | None = None,
                  limit: int = 200) -> list[Path]:
    """Leaf paths where ``old`` and ``new`` differ (lists of named maps are paired by ``name``)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(old, dict) and isinstance(new, dict):
        for k in list(old) + [k for k in new if k not in old]:
            if k not in new or k not in old:
                out.append(path + (k,))
            elif old[k] != new[k]:
                changed_paths(old[k], new[k], path + (k,), out, limit)
        return out
    if isinstance(old, list) and isinstance(new, list):
        named = all(isinstance(x, dict) and isinstance(x.get("name"), str) for x in old + new)
        if named and old and new:
            onames = [x["name"] for x in old]
            nnames = [x["name"] for x in new]
            if len(set(onames)) == len(onames) and len(set(nnames)) == len(nnames):
                if onames != nnames and sorted(onames) != sorted(nnames):
                    out.append(path)
                    return out
                omap = {x["name"]: x for x in old}
                for i, x in enumerate(new):
                    if omap.get(x["name"]) != x:
                        changed_paths(omap.get(x["name"]), x, path + (i,), out, limit)
                if onames != nnames and len(out) < limit:
                    out.append(path)  # reordered
                return out
        if len(old) == len(new):
            for i, (a, b) in enumerate(zip(old, new)):
                if a != b:
                    changed_paths(a, b, path + (i,), out, limit)
            return out
        out.append(path)
        return out
    if old != new:
        out.append(path)
    return out


def field_texts(paths: list[Path], limit: int = MAX_FIELDS) -> list[str]:
    texts = [format_path(p) or "(whole object)" for p in paths]
    seen: list[str] = []
    for t in texts:
        if t not in seen:
            seen.append(t)
    if len(seen) > limit:
        return seen[:limit] + [f"… {len(seen) - limit} more"]
    return seen


# ---------------------------------------------------------------------------------- components
@dataclass
class _Workload:
    key: ObjKey
    component: str
    where: str  # object text, or object text + clique
    template: Any  # what the pod-template hash depends on
    replicas: Any
    worker_hash: str
    grove_on_delete: bool = False
    group: str = ""  # PCS clique: name of its scaling group


def _component_of(labels: dict[str, Any]) -> str:
    v = labels.get(LABEL_COMPONENT)
    return str(v) if isinstance(v, str) else ""


def _workloads(objs: Iterable[dict[str, Any]], namespace: str) -> list[_Workload]:
    out: list[_Workload] = []
    for obj in objs:
        if not isinstance(obj, dict):
            continue
        key = object_key(obj, namespace)
        kind = key[1]
        spec = as_dict(obj.get("spec"))
        text = f"{kind}/{key[3]}"
        if kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"):
            tmpl = spec.get("template")
            comp = _component_of(_labels(obj)) or _component_of(_labels(tmpl))
            if comp:
                out.append(_Workload(key, comp, text, tmpl, spec.get("replicas"),
                                     str(_labels(obj).get(LABEL_WORKER_HASH) or _labels(tmpl).get(LABEL_WORKER_HASH) or "")))
        elif kind == "LeaderWorkerSet":
            lwt = as_dict(spec.get("leaderWorkerTemplate"))
            comp = _component_of(_labels(obj)) or _component_of(_labels(lwt.get("workerTemplate"))) \
                or _component_of(_labels(lwt.get("leaderTemplate")))
            if comp:
                tmpl = {k: lwt.get(k) for k in ("leaderTemplate", "workerTemplate", "size") if k in lwt}
                out.append(_Workload(key, comp, text, tmpl, spec.get("replicas"),
                                     str(_labels(obj).get(LABEL_WORKER_HASH) or "")))
        elif kind == "PodCliqueSet":
            tmpl_spec = as_dict(spec.get("template"))
            prio = tmpl_spec.get("priorityClassName")
            on_delete = as_dict(spec.get("updateStrategy")).get("type") == "OnDelete"
            group_of: dict[str, tuple[str, Any]] = {}
            for g in as_list(tmpl_spec.get("podCliqueScalingGroups")):
                for cn in as_list(as_dict(g).get("cliqueNames")):
                    group_of[str(cn)] = (str(as_dict(g).get("name") or ""), as_dict(g).get("replicas"))
            for c in as_list(tmpl_spec.get("cliques")):
                c = as_dict(c)
                labels = as_dict(c.get("labels"))
                comp = _component_of(labels)
                if not comp:
                    continue
                cspec = as_dict(c.get("spec"))
                hashed = {"labels": c.get("labels"), "annotations": c.get("annotations"),
                          "podSpec": cspec.get("podSpec"), "priorityClassName": prio}
                gname, greplicas = group_of.get(str(c.get("name") or ""), ("", None))
                replicas = {"clique": cspec.get("replicas"), "scalingGroup": greplicas, "podCliqueSet": spec.get("replicas")}
                out.append(_Workload(key, comp, f"{text} clique {c.get('name')}", hashed, replicas,
                                     str(labels.get(LABEL_WORKER_HASH) or ""), on_delete, gname))
        elif kind == "DynamoComponentDeployment":
            comp = _component_of(_labels(obj)) or str(spec.get("name") or "")
            if comp:
                tmpl = {k: v for k, v in spec.items() if k not in ("replicas", "scalingAdapter")}
                out.append(_Workload(key, comp, text, tmpl, spec.get("replicas"),
                                     str(_labels(obj).get(LABEL_WORKER_HASH) or "")))
    return out


_LEVEL = {"clique": "clique", "scalingGroup": "scaling group", "podCliqueSet": "PodCliqueSet"}


def _fmt(v: Any) -> str:
    if v is None:
        return "unset"
    return json.dumps(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else str(v)


def component_impacts(old_objs: list[dict[str, Any]], new_objs: list[dict[str, Any]], namespace: str,
                      grove_refused: bool = False) -> list[ComponentImpact]:
    """Per component: do its pods restart, and why."""
    old_w = _workloads(old_objs, namespace)
    new_w = _workloads(new_objs, namespace)
    # When a component has Deployments/LWS/PCS, its DCD is only the operator's intermediate object.
    def primary(ws: list[_Workload]) -> dict[str, list[_Workload]]:
        by: dict[str, list[_Workload]] = {}
        for w in ws:
            by.setdefault(w.component, []).append(w)
        for comp, lst in by.items():
            if any(w.key[1] != "DynamoComponentDeployment" for w in lst):
                by[comp] = [w for w in lst if w.key[1] != "DynamoComponentDeployment"]
        return by

    old_by, new_by = primary(old_w), primary(new_w)
    names = list(dict.fromkeys([w.component for w in new_w] + [w.component for w in old_w]))
    out: list[ComponentImpact] = []
    for comp in names:
        olds, news = old_by.get(comp, []), new_by.get(comp, [])
        if not olds:
            out.append(ComponentImpact(comp, IMPACT_ADDED, ["new component: " + ", ".join(w.where for w in news)]))
            continue
        if not news:
            out.append(ComponentImpact(comp, IMPACT_REMOVED, ["component removed: its pods are deleted ("
                                                              + ", ".join(w.where for w in olds) + ")"]))
            continue
        okeys = {(w.key, w.where): w for w in olds}
        nkeys = {(w.key, w.where): w for w in news}
        reasons: list[str] = []
        impact = IMPACT_NONE
        if set(okeys) != set(nkeys):
            ohash = sorted({w.worker_hash for w in olds if w.worker_hash})
            nhash = sorted({w.worker_hash for w in news if w.worker_hash})
            gone = [w.where for k, w in okeys.items() if k not in nkeys]
            new = [w.where for k, w in nkeys.items() if k not in okeys]
            if ohash != nhash and (ohash or nhash):
                reasons.append(f"worker hash {','.join(ohash) or 'unset'} → {','.join(nhash) or 'unset'}")
            if new and gone:
                reasons.append(f"{', '.join(new)} replaces {', '.join(gone)}: new pods are created, the old ones removed")
            elif new:
                reasons.append(f"new {', '.join(new)}")
            elif gone:
                reasons.append(f"{', '.join(gone)} removed")
            impact = IMPACT_REPLACED
        else:
            ohash = sorted({w.worker_hash for w in olds if w.worker_hash})
            nhash = sorted({w.worker_hash for w in news if w.worker_hash})
            if ohash != nhash:
                reasons.append(f"worker hash {','.join(ohash) or 'unset'} → {','.join(nhash) or 'unset'}")
        for k, nw in nkeys.items():
            ow = okeys.get(k)
            if ow is None:
                continue
            if ow.template != nw.template:
                paths = changed_paths(ow.template, nw.template)
                label = "pod template" if nw.key[1] != "DynamoComponentDeployment" else "component spec"
                reasons.append(f"{nw.where}: {label} changed ({', '.join(field_texts(paths, 6))})")
                level = IMPACT_ON_DELETE if nw.grove_on_delete else IMPACT_ROLLING
                if nw.grove_on_delete:
                    reasons.append("PodCliqueSet updateStrategy OnDelete: pods are replaced only when deleted")
                impact = _worse(impact, level)
            if ow.replicas != nw.replicas:
                if isinstance(ow.replicas, dict) and isinstance(nw.replicas, dict):
                    for level in nw.replicas:
                        a, b = ow.replicas.get(level), nw.replicas.get(level)
                        if a != b:
                            reasons.append(f"{nw.where}: {_LEVEL.get(level, level)} replicas {_fmt(a)} → {_fmt(b)}")
                else:
                    reasons.append(f"{nw.where}: replicas {_fmt(ow.replicas)} → {_fmt(nw.replicas)}")
                impact = _worse(impact, IMPACT_NO_RESTART)
        if grove_refused and any(w.key[1] == "PodCliqueSet" for w in news):
            reasons.append("the in-place PodCliqueSet update is refused by Grove; deleting and recreating the "
                           "PodCliqueSet to apply it restarts every pod")
        out.append(ComponentImpact(comp, impact, reasons))
    return out


_ORDER = [IMPACT_NONE, IMPACT_NO_RESTART, IMPACT_ON_DELETE, IMPACT_ROLLING, IMPACT_REPLACED, IMPACT_ADDED, IMPACT_REMOVED]


def _worse(a: str, b: str) -> str:
    return a if _ORDER.index(a) >= _ORDER.index(b) else b


def restart_request(components: list[ComponentImpact], old: dict[str, Any], new: dict[str, Any]) -> None:
    """A new ``spec.restart.id`` asks the operator to restart the DGD's components (dgd-dcd-model.md §5.6:
    strategy ``Sequential`` by default, in ``order`` or alphabetical component order; ``Parallel``)."""
    if new.get("kind") != "DynamoGraphDeployment":
        return
    oid = as_dict(as_dict(old.get("spec")).get("restart")).get("id")
    restart = as_dict(as_dict(new.get("spec")).get("restart"))
    nid = restart.get("id")
    if not nid or nid == oid:
        return
    strategy = as_dict(restart.get("strategy"))
    kind = str(strategy.get("type") or "Sequential")
    names = [str(as_dict(c).get("name")) for c in as_list(as_dict(new.get("spec")).get("components"))]
    order = [str(x) for x in as_list(strategy.get("order"))] or sorted(names)
    for c in components:
        if c.name not in names or c.impact in (IMPACT_ADDED, IMPACT_REMOVED):
            continue
        where = ""
        if kind == "Sequential" and c.name in order:
            where = f", step {order.index(c.name) + 1} of {len(order)}"
        c.reasons.append(f"spec.restart.id {_fmt(oid)} → {_fmt(nid)}: the operator restarts it ({kind}{where})")
        c.impact = _worse(c.impact, IMPACT_ROLLING)
