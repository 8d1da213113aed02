"""Grove's topology-constraint rules (ai-dynamo/grove
``operator/internal/webhook/admission/pcs/validation/topologyconstraints.go``): on CREATE the TAS gate,
the effective ``topologyName``, the ClusterTopologyBinding and its domains, the domain hierarchy;
on UPDATE the immutability of every constraint (the ``packDomain`` -> ``pack.required`` migration
allowed, no legacy repair)."""

from __future__ import annotations

from .._core._diagnostics import Diagnostic, Path, format_path
from .._k8s._gofmt import go_quote
from ._common import (
    TPL,
    PcsView,
    as_dict,
    as_list,
    as_str,
    forbidden,
    invalid,
    preferred_domain,
    required,
    required_domain,
)
from ._settings import GroveSettings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["topology_on_create", "topology_update"]


# ------------------------------------------------------------------------------------------ create
def _constraints(v: PcsView) -> list[tuple[dict[str, Any], Path]]:
    out: list[tuple[dict[str, Any], Path]] = []
    tc = v.tmpl.get("topologyConstraint")
    if isinstance(tc, dict):
        out.append((tc, TPL + ("topologyConstraint",)))
    for i, c in enumerate(v.cliques):
        if isinstance(c.get("topologyConstraint"), dict):
            out.append((c["topologyConstraint"], TPL + ("cliques", i, "topologyConstraint")))
    for i, g in enumerate(v.groups):
        if isinstance(g.get("topologyConstraint"), dict):
            out.append((g["topologyConstraint"], TPL + ("podCliqueScalingGroups", i, "topologyConstraint")))
    return out


def topology_on_create(v: PcsView, settings: GroveSettings, warnings: list[Diagnostic]) -> list[Diagnostic]:
    constraints = _constraints(v)
    if not settings.tas_enabled:
        return [invalid("grove.topology-disabled", p, _referenced_domains(tc),
                        "topology constraints are not allowed when Topology Aware Scheduling is disabled")
                for tc, p in constraints]
    if not constraints:
        return []
    topo, errs = _resolve_topology_name(v)
    if errs:
        return errs
    domains: list[str] | None = None
    if settings.cluster_topologies is not None and topo:
        levels = settings.cluster_topologies.get(topo)
        if levels is None:
            return [invalid("grove.topology-binding", TPL + ("topologyConstraint", "topologyName"), topo,
                            f"ClusterTopologyBinding {go_quote(topo)} not found")]
        domains = [str(x) for x in levels]
    if domains is None:
        return []
    for tc, p in constraints:
        req, pref = required_domain(tc), preferred_domain(tc)
        if req and pref and req in domains and pref in domains and domains.index(pref) < domains.index(req):
            warnings.append(Diagnostic(
                "grove.topology-preferred-redundant", p + ("pack", "preferred"),
                f"{format_path(p + ('pack', 'preferred'))} is coarser than {format_path(p + ('pack', 'required'))} "
                "and is redundant", "warning"))
    errs = _topology_domains_exist(constraints, domains)
    if errs:
        return errs
    return _topology_hierarchy(v, domains)


def _resolve_topology_name(v: PcsView) -> tuple[str, list[Diagnostic]]:
    """``resolveEffectiveTopologyNameFieldErrors``."""
    errs: list[Diagnostic] = []
    observed: list[str] = []
    conflict = False

    def observe(name: str) -> None:
        nonlocal conflict
        if not observed:
            observed.append(name)
        elif observed[0] != name:
            conflict = True

    def resolve(tc: dict[str, Any], p: Path, inherited: str, can_inherit: bool) -> str | None:
        name = as_str(tc.get("topologyName"))
        if not name and (not can_inherit or not inherited):
            errs.append(required("grove.topology-name", p + ("topologyName",),
                                 "topologyName is required when topologyConstraint is set and cannot be inherited"))
            return None
        if name and inherited and name != inherited:
            errs.append(invalid("grove.topology-name", p + ("topologyName",), name,
                                "all topologyConstraint.topologyName values within a PodCliqueSet must match in "
                                "the current implementation"))
            return None
        return name or inherited

    pcs_name, pcs_ok = "", False
    tc = v.tmpl.get("topologyConstraint")
    if isinstance(tc, dict):
        r = resolve(tc, TPL + ("topologyConstraint",), "", False)
        if r is not None:
            pcs_name, pcs_ok = r, True
            observe(r)
    by_clique: dict[str, str] = {}
    for i, g in enumerate(v.groups):
        gtc = g.get("topologyConstraint")
        if not isinstance(gtc, dict):
            continue
        r = resolve(gtc, TPL + ("podCliqueScalingGroups", i, "topologyConstraint"), pcs_name, pcs_ok)
        if r is not None:
            observe(r)
            for cn in as_list(g.get("cliqueNames")):
                by_clique.setdefault(as_str(cn), r)
    for i, c in enumerate(v.cliques):
        ctc = c.get("topologyConstraint")
        if not isinstance(ctc, dict):
            continue
        inherited, can = pcs_name, pcs_ok
        if as_str(c.get("name")) in by_clique:
            inherited, can = by_clique[as_str(c.get("name"))], True
        r = resolve(ctc, TPL + ("cliques", i, "topologyConstraint"), inherited, can)
        if r is not None:
            observe(r)
    if conflict:
        msg = "all topologyConstraint.topologyName values within a PodCliqueSet must match in the current implementation"
        if isinstance(tc, dict) and as_str(tc.get("topologyName")):
            errs.append(invalid("grove.topology-name", TPL + ("topologyConstraint", "topologyName"),
                                tc["topologyName"], msg))
        for i, g in enumerate(v.groups):
            name = as_str(as_dict(g.get("topologyConstraint")).get("topologyName"))
            if name:
                errs.append(invalid("grove.topology-name",
                                    TPL + ("podCliqueScalingGroups", i, "topologyConstraint", "topologyName"),
                                    name, msg))
        for i, c in enumerate(v.cliques):
            name = as_str(as_dict(c.get("topologyConstraint")).get("topologyName"))
            if name:
                errs.append(invalid("grove.topology-name",
                                    TPL + ("cliques", i, "topologyConstraint", "topologyName"), name, msg))
    if errs:
        return "", errs
    return (observed[0] if observed else ""), []


def _topology_domains_exist(constraints: list[tuple[dict[str, Any], Path]],
                            domains: list[str]) -> list[Diagnostic]:
    errs: list[Diagnostic] = []

    def check(domain: str, p: Path) -> None:
        if domain and domain not in domains:
            errs.append(invalid("grove.topology-domain", p, domain,
                                f"topology domain '{domain}' does not exist in cluster topology "
                                f"[{' '.join(domains)}]"))

    for tc, p in constraints:
        if as_str(tc.get("packDomain")):
            check(tc["packDomain"], p + ("packDomain",))
        pack = tc.get("pack")
        if isinstance(pack, dict):
            check(as_str(pack.get("required")), p + ("pack", "required"))
            check(as_str(pack.get("preferred")), p + ("pack", "preferred"))
    return errs


def _topology_hierarchy(v: PcsView, domains: list[str]) -> list[Diagnostic]:
    errs: list[Diagnostic] = []
    rule = "grove.topology-hierarchy"

    def violates(parent: str, child: str) -> bool:
        return parent in domains and child in domains and domains.index(parent) > domains.index(child)

    def msg(pd: str, pkind: str, pname: str, cd: str, ckind: str, cname: str) -> str:
        ident = f"{pkind} '{pname}'" if pname else pkind
        return f"{ident} topology constraint domain '{pd}' is narrower than {ckind} '{cname}' topology constraint domain '{cd}'"

    pcs_tc = v.tmpl.get("topologyConstraint")
    tp = TPL + ("topologyConstraint",)
    if isinstance(pcs_tc, dict):
        preq, ppref = required_domain(pcs_tc), preferred_domain(pcs_tc)
        for kind, items in (("PodClique", v.cliques), ("PodCliqueScalingGroup", v.groups)):
            for item in items:
                ctc = item.get("topologyConstraint")
                if not isinstance(ctc, dict):
                    continue
                cname = as_str(item.get("name"))
                if violates(preq, required_domain(ctc)):
                    errs.append(invalid(rule, tp, preq, msg(preq, "PodCliqueSet", "", required_domain(ctc), kind, cname)))
                if violates(ppref, preferred_domain(ctc)):
                    errs.append(invalid(rule, tp + ("pack", "preferred"), ppref,
                                        msg(ppref, "PodCliqueSet", "", preferred_domain(ctc), kind, cname)))
    for i, g in enumerate(v.groups):
        gtc = g.get("topologyConstraint")
        if not isinstance(gtc, dict):
            continue
        gp = TPL + ("podCliqueScalingGroups", i, "topologyConstraint")
        greq, gpref = required_domain(gtc), preferred_domain(gtc)
        gname = as_str(g.get("name"))
        for cn in as_list(g.get("cliqueNames")):
            c = next((c for c in v.cliques if as_str(c.get("name")) == cn), None)
            ctc = as_dict(c).get("topologyConstraint") if c is not None else None
            if not isinstance(ctc, dict):
                continue
            if violates(greq, required_domain(ctc)):
                errs.append(invalid(rule, gp, greq, msg(greq, "PodCliqueScalingGroup", gname,
                                                        required_domain(ctc), "PodClique", cn)))
            if violates(gpref, preferred_domain(ctc)):
                errs.append(invalid(rule, gp + ("pack", "preferred"), gpref,
                                    msg(gpref, "PodCliqueScalingGroup", gname, preferred_domain(ctc),
                                         "PodClique", cn)))
    return errs


def _referenced_domains(tc: dict[str, Any]) -> list[str] | None:
    """``TopologyConstraint.ReferencedDomains`` (nil slice → JSON ``null``)."""
    out: list[str] = []
    req, pref = required_domain(tc), preferred_domain(tc)
    if req:
        out.append(req)
    if pref and pref != req:
        out.append(pref)
    return out or None


# ------------------------------------------------------------------------------------------ update
def _tc(v: Any) -> dict[str, Any] | None:
    return v if isinstance(v, dict) else None


def _constraint_changed(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    if old is None and new is None:
        return False
    if old is None or new is None:
        return True
    return (str(old.get("topologyName") or "") != str(new.get("topologyName") or "")
            or str(old.get("packDomain") or "") != str(new.get("packDomain") or "")
            or required_domain(old) != required_domain(new)
            or preferred_domain(old) != preferred_domain(new))


def _migration_attempt(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    return (old is not None and new is not None and bool(old.get("packDomain")) and not new.get("packDomain")
            and isinstance(new.get("pack"), dict) and bool(new["pack"].get("required")))


def _allowed_migration(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    if not _migration_attempt(old, new):
        return False
    assert old is not None and new is not None
    return (str(old.get("topologyName") or "") == str(new.get("topologyName") or "")
            and required_domain(new) == str(old.get("packDomain") or "")
            and preferred_domain(new) == preferred_domain(old))


def _constraint_msg(kind: str, name: str, old: dict[str, Any] | None, new: dict[str, Any] | None) -> str:
    ident = f" '{name}'" if name else ""
    if old is None:
        return f"{kind}{ident} topology constraint cannot be added after creation"
    if new is None:
        return f"{kind}{ident} topology constraint cannot be removed after creation"
    otn, ntn = str(old.get("topologyName") or ""), str(new.get("topologyName") or "")
    if otn != ntn:
        return f"{kind}{ident} topology constraint topologyName cannot be changed from '{otn}' to '{ntn}'"
    if _migration_attempt(old, new):
        return (f"{kind}{ident} deprecated packDomain migration can only move packDomain to pack.required without "
                f"changing the required or preferred topology domain (old required={go_quote(str(old.get('packDomain') or ''))} "
                f"preferred={go_quote(preferred_domain(old))}, new required={go_quote(required_domain(new))} "
                f"preferred={go_quote(preferred_domain(new))})")
    return (f"{kind}{ident} topology constraint cannot be changed from required={go_quote(required_domain(old))} "
            f"preferred={go_quote(preferred_domain(old))} to required={go_quote(required_domain(new))} "
            f"preferred={go_quote(preferred_domain(new))}")



def topology_update(ot: dict[str, Any], nt: dict[str, Any], base: Path) -> list[Diagnostic]:
    """``validateTopologyConstraintImmutability`` of the PodCliqueSet template (``ot`` -> ``nt``, both
    defaulted), its cliques and its scaling groups (matched by name)."""
    errs: list[Diagnostic] = []
    rule = "grove.topology-immutable"
    oc, nc = _tc(ot.get("topologyConstraint")), _tc(nt.get("topologyConstraint"))
    otn = str((oc or {}).get("topologyName") or "")
    ntn = str((nc or {}).get("topologyName") or "")
    if otn != ntn:
        errs.append(forbidden(rule, base + ("topologyConstraint", "topologyName"),
                              f"topologyName cannot be changed from {go_quote(otn)} to {go_quote(ntn)}"))
    if otn == ntn and _constraint_changed(oc, nc) and not _allowed_migration(oc, nc):
        errs.append(forbidden(rule, base + ("topologyConstraint",), _constraint_msg("PodCliqueSet", "", oc, nc)))
    for field_, kind in (("cliques", "PodClique"), ("podCliqueScalingGroups", "PodCliqueScalingGroup")):
        olds = {x.get("name"): _tc(x.get("topologyConstraint")) for x in as_list(ot.get(field_)) if isinstance(x, dict)}
        for i, x in enumerate(as_list(nt.get(field_))):
            if not isinstance(x, dict):
                continue
            o, n = olds.get(x.get("name")), _tc(x.get("topologyConstraint"))
            if _constraint_changed(o, n) and not _allowed_migration(o, n):
                errs.append(forbidden(rule, base + (field_, i, "topologyConstraint"),
                                      _constraint_msg(kind, str(x.get("name") or ""), o, n)))
    return errs
