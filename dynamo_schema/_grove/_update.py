"""Grove's in-place update admission of a PodCliqueSet (rule ids ``grove.*``).

What the validating webhook ``pcs.validating.webhooks.grove.io`` refuses when a PodCliqueSet is updated
(ai-dynamo/grove ``operator/internal/webhook/admission/pcs/validation/podcliqueset.go``
``validateUpdate`` and ``operator/internal/mnnvl/webhook.go`` ``ValidatePCSOnUpdate``): the immutable
fields, with Grove's messages and paths (which, upstream, carry no list index for clique and scaling
group fields).
"""

from __future__ import annotations

from typing import Any

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import field_error
from ._common import as_dict, as_list, forbidden, immutable
from ._defaults import grove_defaults
from ._mnnvl import mnnvl_update
from ._topology import topology_update

__all__ = ["WEBHOOK", "update_refusals"]

WEBHOOK = "pcs.validating.webhooks.grove.io"


def _empty(v: Any) -> bool:
    return v is None or v == [] or v == {} or v == ""


def _sem_equal(a: Any, b: Any) -> bool:
    """apimachinery ``Semantic.DeepEqual`` on decoded JSON: nil and empty slices/maps are equal."""
    if isinstance(a, dict) or isinstance(b, dict):
        if a is None or b is None:
            return _empty(a) and _empty(b)
        if not isinstance(a, dict) or not isinstance(b, dict):
            return False
        keys = set(a) | set(b)
        return all(_sem_equal(a.get(k), b.get(k)) for k in keys)
    if isinstance(a, list) or isinstance(b, list):
        if a is None or b is None:
            return _empty(a) and _empty(b)
        if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
            return False
        return all(_sem_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


def update_refusals(old_pcs: dict[str, Any], new_pcs: dict[str, Any]) -> list[Diagnostic]:
    """What Grove's validating webhook refuses when ``old_pcs`` is updated in place to ``new_pcs``.

    Both are defaulted first (:func:`grove_default`). As upstream, the MNNVL annotation checks run
    with the create-time checks and, when those report anything, the update rules are not reached.
    """
    old = grove_defaults(old_pcs)
    new = grove_defaults(new_pcs)
    mnnvl = mnnvl_update(old, new)
    if mnnvl:
        return mnnvl
    errs: list[Diagnostic] = []
    base: Path = ("spec", "template")
    ot = as_dict(as_dict(old.get("spec")).get("template"))
    nt = as_dict(as_dict(new.get("spec")).get("template"))

    # cliques (validatePodCliqueUpdate)
    cpath = base + ("cliques",)
    old_cliques = [c for c in as_list(ot.get("cliques")) if isinstance(c, dict)]
    new_cliques = [c for c in as_list(nt.get("cliques")) if isinstance(c, dict)]
    if len(new_cliques) != len(old_cliques):
        errs.append(forbidden("grove.clique-composition", cpath, "not allowed to change clique composition"))
    old_index = {c.get("name"): (i, c) for i, c in enumerate(old_cliques)}
    startup = nt.get("cliqueStartupType")
    ordered = startup in ("CliqueStartupTypeInOrder", "CliqueStartupTypeExplicit")
    for i, c in enumerate(new_cliques):
        name = c.get("name")
        if name not in old_index:
            errs.append(forbidden("grove.clique-composition", cpath + ("name",),
                                  f"not allowed to change clique composition, new clique name '{name}' is not allowed"))
            continue
        oi, oc = old_index[name]
        if ordered and i != oi:
            errs.append(Diagnostic("grove.clique-order", cpath,
                                   field_error("Invalid value", name, "clique order cannot be changed when StartupType is "
                                               f"InOrder or Explicit. Expected '{oc.get('name')}' at position {i}, "
                                               f"got '{name}'")))
        ns_, os_ = as_dict(c.get("spec")), as_dict(oc.get("spec"))
        spath = cpath + ("spec",)
        for fname in ("roleName", "minAvailable", "startsAfter"):
            nv, ov = ns_.get(fname), os_.get(fname)
            if fname == "roleName":
                nv, ov = str(nv or ""), str(ov or "")
            if not _sem_equal(nv, ov):
                errs.append(immutable("grove.immutable-field", spath + (fname,), nv))
        nsched = str(as_dict(ns_.get("podSpec")).get("schedulerName") or "")
        osched = str(as_dict(os_.get("podSpec")).get("schedulerName") or "")
        if nsched != osched:
            errs.append(immutable("grove.immutable-field", spath + ("podSpec", "schedulerName"), nsched))
        if not _sem_equal(c.get("resourceSharing"), oc.get("resourceSharing")):
            errs.append(immutable("grove.immutable-field", cpath + (i, "resourceSharing"), c.get("resourceSharing")))

    # cliqueStartupType
    if not _sem_equal(nt.get("cliqueStartupType"), ot.get("cliqueStartupType")):
        errs.append(immutable("grove.immutable-field", base + ("cliqueStartupType",), nt.get("cliqueStartupType")))

    # scaling groups (validatePodCliqueScalingGroupConfigsUpdate)
    gpath = base + ("podCliqueScalingGroups",)
    old_groups = [g for g in as_list(ot.get("podCliqueScalingGroups")) if isinstance(g, dict)]
    new_groups = [g for g in as_list(nt.get("podCliqueScalingGroups")) if isinstance(g, dict)]
    if len(new_groups) != len(old_groups):
        errs.append(forbidden("grove.scaling-group-composition", gpath,
                              "not allowed to add or remove PodCliqueScalingGroupConfigs"))
    else:
        old_by_name = {g.get("name"): g for g in old_groups}
        for g in new_groups:
            og = old_by_name.get(g.get("name"))
            if og is None:
                errs.append(forbidden("grove.scaling-group-composition", gpath + ("name",),
                                      "not allowed to change scaling group composition, new scaling group name "
                                      f"'{g.get('name')}' is not allowed"))
                continue
            for fname in ("cliqueNames", "minAvailable", "resourceSharing"):
                if not _sem_equal(g.get(fname), og.get(fname)):
                    errs.append(immutable("grove.immutable-field", gpath + (fname,), g.get(fname)))

    # topology constraints (validateTopologyConstraintImmutability, no legacy repair)
    errs += topology_update(ot, nt, base)

    for fname in ("resourceClaimTemplates", "resourceSharing"):
        if not _sem_equal(nt.get(fname), ot.get(fname)):
            errs.append(immutable("grove.immutable-field", base + (fname,), nt.get(fname)))
    return errs
