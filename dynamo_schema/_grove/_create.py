"""Grove's create-time admission of a PodCliqueSet, offline (rule ids ``grove.*``).

Emulates, for a PodCliqueSet given as plain data, what the Grove operator's webhooks do on CREATE
at ai-dynamo/grove ``fcc3b3bbbc5e6a2a797cd080bdbc6983b1ccec24`` (grove.md §1):

* the defaulting webhook (``operator/internal/webhook/admission/pcs/defaulting/podcliqueset.go``)
  plus the CRD defaults it relies on, then
* the validating webhook ``Handler.ValidateCreate``
  (``operator/internal/webhook/admission/pcs/validation/{handler,podcliqueset,topologyconstraints,
  podcliquedeps,util}.go``), the MNNVL annotation checks (``operator/internal/mnnvl/webhook.go``) and
  the scheduler-backend check (``operator/internal/scheduler/{kube,kai,volcano,lpx}/backend.go``),

in upstream order, with upstream messages and field paths. Field errors carry the Kubernetes body
``<Type>: <value>: <detail>`` (:func:`dynamo_schema._k8s._gofmt.field_error`). The defaulting is
``_grove/_defaults.py``, the scheduler-backend check ``_grove/_backend.py``, the topology and MNNVL
rules ``_grove/_topology.py`` and ``_grove/_mnnvl.py`` (shared with the update rules, ``_grove/_update.py``).

Cluster state the webhook reads is explicit input (:class:`GroveSettings`). Deterministic where Go
is not: the webhook iterates Go maps for unknown ``startsAfter`` names and for the cycle search; here
the clique order is used.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import OMIT, field_error, go_quote
from .._k8s._grovenames import MAX_COMBINED_GROVE_NAME

# k8s.io/apimachinery/pkg/util/validation: one copy of the validators and their exact texts (``_k8s``)
from .._k8s._names import (
    before_1_35,
    dns1123_label_errors,
    dns1123_subdomain_errors,
    env_var_name_errors,
    label_value_errors,
)
from .._k8s._objectmeta import qualified_name_errors
from ._backend import backend_errors
from ._common import (
    TPL,
    PcsView,
    as_dict,
    as_int,
    as_list,
    as_str,
    duplicate,
    invalid,
    not_found,
    required,
    str_map,
)
from ._defaults import grove_defaults
from ._mnnvl import mnnvl_create
from ._settings import GroveSettings
from ._topology import topology_on_create

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["GroveSettings", "grove_defaults", "validate_pcs"]

MAX_COMBINED_RESOURCE_NAME_LENGTH = MAX_COMBINED_GROVE_NAME
STARTUP_TYPES = ("CliqueStartupTypeAnyOrder", "CliqueStartupTypeExplicit", "CliqueStartupTypeInOrder")
EXPLICIT = "CliqueStartupTypeExplicit"
SHARING_SCOPES = ("AllReplicas", "PerReplica")


# --------------------------------------------------------------------------------------- helpers


def _find_duplicates(items: list[str]) -> list[str]:
    """``lo.FindDuplicates``: each duplicated element once, in order of first occurrence."""
    if len(set(items)) == len(items):  # the common case: nothing repeats
        return []
    counts: dict[str, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    out: list[str] = []
    for x in items:
        if counts[x] > 1 and x not in out:
            out.append(x)
    return out


def _unique(rule: str, items: list[str], path: Path) -> list[Diagnostic]:
    """``sliceMustHaveUniqueElements``."""
    dups = _find_duplicates(items)
    return [duplicate(rule, path, dups)] if dups else []


def _labels(rule: str, labels: Any, path: Path) -> list[Diagnostic]:
    """``metav1validation.ValidateLabels``: errors on the map's path, not the key's."""
    out: list[Diagnostic] = []
    for k, v in str_map(labels).items():  # Grove's apimachinery (v0.34): the texts before Kubernetes 1.35
        key_errs = qualified_name_errors(k)
        if key_errs:
            out += [invalid(rule, path, k, m) for m in before_1_35(key_errs)]
        value_errs = label_value_errors(v)
        if value_errs:
            out += [invalid(rule, path, v, m) for m in before_1_35(value_errs)]
    return out


def _annotations(rule: str, annotations: Any, path: Path) -> list[Diagnostic]:
    """``apivalidation.ValidateAnnotations``."""
    out: list[Diagnostic] = []
    total = 0
    for k, v in str_map(annotations).items():
        out += [invalid(rule, path, k, m) for m in before_1_35(qualified_name_errors(k.lower()))]
        total += len(k.encode()) + len(v.encode())
    if total > 256 * 1024:
        out.append(Diagnostic(rule, path, field_error("Too long", OMIT, f"may not be more than {256 * 1024} bytes")))
    return out


_DURATION_UNITS = {"ns": 1, "us": 1000, "µs": 1000, "μs": 1000, "ms": 10**6, "s": 10**9, "m": 60 * 10**9,
                   "h": 3600 * 10**9}
_U63 = 1 << 63


def parse_go_duration(s: str) -> int | None:
    """``time.ParseDuration`` in nanoseconds (``None`` when Go would refuse the string): Go's integer
    arithmetic with its overflow checks, a fraction added as ``uint64(float64(f) * (float64(unit) / scale))``."""
    neg = False
    if s[:1] in ("+", "-"):
        neg, s = s[0] == "-", s[1:]
    if s == "0":
        return 0
    if not s:
        return None
    d = 0
    n = len(s)
    i = 0
    while i < n:
        if not (s[i] == "." or "0" <= s[i] <= "9"):
            return None
        start = i
        v = 0
        while i < n and "0" <= s[i] <= "9":  # leadingInt
            if v > _U63 // 10:
                return None
            v = v * 10 + ord(s[i]) - 48
            if v > _U63:
                return None
            i += 1
        pre = i != start
        f, scale, post = 0, 1.0, False
        if i < n and s[i] == ".":
            i += 1
            fstart = i
            overflow = False
            while i < n and "0" <= s[i] <= "9":  # leadingFraction
                if not overflow:
                    if f > (_U63 - 1) // 10:
                        overflow = True
                    else:
                        y = f * 10 + ord(s[i]) - 48
                        if y > _U63:
                            overflow = True
                        else:
                            f, scale = y, scale * 10
                i += 1
            post = i != fstart
        if not pre and not post:
            return None
        ustart = i
        while i < n and not (s[i] == "." or "0" <= s[i] <= "9"):
            i += 1
        unit = _DURATION_UNITS.get(s[ustart:i])
        if unit is None:  # a missing or unknown unit
            return None
        if v > _U63 // unit:
            return None
        v *= unit
        if f > 0:
            v += int(float(f) * (float(unit) / scale))
            if v > _U63:
                return None
        d += v
        if d > _U63:
            return None
    if neg:
        return -d
    return None if d > _U63 - 1 else d


# --------------------------------------------------------------------------------------- validation


def validate_pcs(pcs: dict[str, Any], settings: GroveSettings | None = None, *,
                 default: bool = True) -> list[Diagnostic]:
    """Grove's create-time admission of one PodCliqueSet (plain data): errors, plus warnings
    (``severity="warning"``) for what Grove returns as admission warnings. ``default`` applies
    :func:`grove_defaults` first, as the API server does before the validating webhook."""
    settings = settings or GroveSettings()
    raw = pcs if isinstance(pcs, dict) else {}
    obj = grove_defaults(raw, shared=True) if default else raw  # the checks below only read it
    v = _Validator(obj, raw, settings)
    return v.run()


class _Validator(PcsView):
    """One create-time admission of ``pcs`` (defaulted; ``raw`` as submitted): errors returned, warnings collected."""

    def __init__(self, pcs: dict[str, Any], raw: dict[str, Any], settings: GroveSettings) -> None:
        super().__init__(pcs)
        self.raw = raw
        self.settings = settings
        self.warnings: list[Diagnostic] = []

    def explicit(self) -> bool:
        return self.tmpl.get("cliqueStartupType") == EXPLICIT

    # -------------------------------------------------------------- Handler.ValidateCreate
    def run(self) -> list[Diagnostic]:
        errs = topology_on_create(self, self.settings, self.warnings)
        errs += self.validate()
        errs += mnnvl_create(self, self.settings)
        errs += backend_errors(self, self.settings)
        return errs + self.warnings

    def validate(self) -> list[Diagnostic]:
        errs = self.object_meta()
        sp: Path = ("spec",)
        replicas = as_int(self.spec.get("replicas")) or 0
        if replicas < 0:
            errs.append(invalid("grove.replicas", sp + ("replicas",), replicas, "must be greater than or equal to 0"))
        errs += self.template_spec()
        return errs

    def object_meta(self) -> list[Diagnostic]:
        """``apivalidation.ValidateObjectMeta(meta, true, NameIsDNSSubdomain, "metadata")`` (name,
        generateName, namespace, labels, annotations; not ownerReferences/finalizers/managedFields)."""
        rule = "grove.metadata"
        m = self.meta
        mp: Path = ("metadata",)
        errs: list[Diagnostic] = []
        gen = as_str(m.get("generateName"))
        if gen:
            errs += [invalid(rule, mp + ("generateName",), gen, e) for e in dns1123_subdomain_errors(_mask_prefix(gen))]
        if not self.name:
            if not gen:
                errs.append(required(rule, mp + ("name",), "name or generateName is required"))
        else:
            errs += [invalid(rule, mp + ("name",), self.name, e) for e in dns1123_subdomain_errors(self.name)]
        ns = as_str(m.get("namespace"))
        if not ns:
            errs.append(required(rule, mp + ("namespace",), ""))
        else:
            errs += [invalid(rule, mp + ("namespace",), ns, e) for e in dns1123_label_errors(ns)]
        gen_no = as_int(m.get("generation"))
        if gen_no is not None and gen_no < 0:
            errs.append(invalid(rule, mp + ("generation",), gen_no, "must be greater than or equal to 0"))
        errs += _labels(rule, m.get("labels"), mp + ("labels",))
        errs += _annotations(rule, m.get("annotations"), mp + ("annotations",))
        return errs

    def template_spec(self) -> list[Diagnostic]:
        tp = TPL
        errs: list[Diagnostic] = []
        st = self.tmpl.get("cliqueStartupType")
        if st is None:
            errs.append(required("grove.startup-type", tp + ("cliqueStartupType",), "field is required"))
        elif st not in STARTUP_TYPES:
            allowed = "map[" + " ".join(f"{t}:{{}}" for t in STARTUP_TYPES) + "]"
            errs.append(invalid("grove.startup-type", tp + ("cliqueStartupType",), st, f"can only be one of {allowed}"))
        errs += self.resource_claim_templates(tp + ("resourceClaimTemplates",))
        errs += self.pcs_resource_sharing(tp + ("resourceSharing",))
        errs += self.clique_templates(tp + ("cliques",))
        errs += self.scaling_groups(tp + ("podCliqueScalingGroups",))
        errs += self.termination_delay(tp + ("terminationDelay",))
        return errs

    # -------------------------------------------------------------- resource claims and sharing
    def resource_claim_templates(self, fp: Path) -> list[Diagnostic]:
        rule = "grove.resource-claim-template"
        errs: list[Diagnostic] = []
        names: list[str] = []
        for i, rct in enumerate(as_list(self.tmpl.get("resourceClaimTemplates"))):
            rct = as_dict(rct)
            name = as_str(rct.get("name"))
            if not name:
                errs.append(required(rule, fp + (i, "name"), "template name is required"))
            reqs = as_list(as_dict(as_dict(as_dict(rct.get("templateSpec")).get("spec")).get("devices")).get("requests"))
            if not reqs:
                errs.append(required(rule, fp + (i, "templateSpec", "spec", "devices", "requests"),
                                     "at least one device request is required"))
            names.append(name)
        return errs + _unique(rule, names, fp + ("name",))

    def _sharing_specs(self, refs: list[dict[str, Any]], fp: Path) -> list[Diagnostic]:
        """``validateResourceSharingSpecs``."""
        rule = "grove.resource-sharing"
        templates = {as_str(as_dict(t).get("name")) for t in as_list(self.tmpl.get("resourceClaimTemplates"))}
        errs: list[Diagnostic] = []
        seen: set[str] = set()
        for i, ref in enumerate(refs):
            name, ns, scope = as_str(ref.get("name")), as_str(ref.get("namespace")), as_str(ref.get("scope"))
            if not name:
                errs.append(required(rule, fp + (i, "name"), "reference name is required"))
            if name and name in seen:
                errs.append(duplicate(rule, fp + (i, "name"), name))
            seen.add(name)
            if ns and name and name in templates:
                errs.append(invalid(rule, fp + (i, "namespace"), ns,
                                    "namespace must be empty when name matches an internal resourceClaimTemplate"))
            if scope not in SHARING_SCOPES:
                # sets.UnsortedList of a two-element set: Go map order; printed sorted here
                supported = ", ".join(go_quote(s) for s in SHARING_SCOPES)
                errs.append(Diagnostic(rule, fp + (i, "scope"),
                                       field_error("Unsupported value", scope, f"supported values: {supported}")))
        return errs

    def pcs_resource_sharing(self, fp: Path) -> list[Diagnostic]:
        rule = "grove.resource-sharing"
        refs = [as_dict(r) for r in as_list(self.tmpl.get("resourceSharing"))]
        errs = self._sharing_specs(refs, fp)
        cliques = {as_str(c.get("name")) for c in self.cliques}
        groups = {as_str(g.get("name")) for g in self.groups}
        for i, ref in enumerate(refs):
            flt = ref.get("filter")
            if not isinstance(flt, dict):
                continue
            p = fp + (i, "filter")
            cn, gn = as_list(flt.get("childCliqueNames")), as_list(flt.get("childScalingGroupNames"))
            if not cn and not gn:
                errs.append(required(rule, p, "filter must specify at least one childCliqueNames or "
                                               "childScalingGroupNames entry"))
            errs += [not_found(rule, p + ("childCliqueNames", j), n) for j, n in enumerate(cn) if n not in cliques]
            errs += [not_found(rule, p + ("childScalingGroupNames", j), n) for j, n in enumerate(gn) if n not in groups]
        return errs

    def pcsg_resource_sharing(self, g: dict[str, Any], fp: Path) -> list[Diagnostic]:
        rule = "grove.resource-sharing"
        members = set(as_list(g.get("cliqueNames")))
        refs = [as_dict(r) for r in as_list(g.get("resourceSharing"))]
        errs = self._sharing_specs(refs, fp)
        for i, ref in enumerate(refs):
            flt = ref.get("filter")
            if not isinstance(flt, dict):
                continue
            p = fp + (i, "filter")
            cn = as_list(flt.get("childCliqueNames"))
            if not cn:
                errs.append(required(rule, p, "filter must specify at least one childCliqueNames entry"))
            errs += [not_found(rule, p + ("childCliqueNames", j), n) for j, n in enumerate(cn) if n not in members]
        return errs

    # -------------------------------------------------------------- cliques
    def scaling_group_clique_names(self) -> set[str]:
        return {as_str(n) for g in self.groups for n in as_list(g.get("cliqueNames"))}

    def clique_templates(self, fp: Path) -> list[Diagnostic]:
        errs: list[Diagnostic] = []
        cliques = self.cliques
        if not cliques:
            errs.append(required("grove.cliques-required", fp, "at least one PodClique must be defined"))
        in_groups = self.scaling_group_clique_names()
        names, roles, schedulers = [], [], []
        for i, c in enumerate(cliques):
            errs += self.clique_template(c, fp + (i,), in_groups)
            cs = as_dict(c.get("spec"))
            names.append(as_str(c.get("name")))
            roles.append(as_str(cs.get("roleName")))
            schedulers.append(as_str(as_dict(cs.get("podSpec")).get("schedulerName")))
        errs += _unique("grove.clique-name-duplicate", names, fp + ("name",))
        errs += _unique("grove.role-name-duplicate", roles, fp + ("roleName",))
        errs += self.scheduler_names(schedulers, fp)
        if self.explicit():
            errs += self.clique_dependencies(cliques, fp)
        return errs

    def scheduler_names(self, names: list[str], fp: Path) -> list[Diagnostic]:
        sp = fp + ("spec", "podSpec", "schedulerName")
        errs: list[Diagnostic] = []
        resolved: list[str] = []
        for n in names:
            r = n or self.settings.default_scheduler
            if r not in resolved:
                resolved.append(r)
        if len(resolved) > 1:
            errs.append(invalid("grove.scheduler-name", sp, ", ".join(resolved),
                                "the schedulerName for all pods have to be the same"))
        # upstream indexes uniqueSchedulerNames[0] (a PCS without cliques would panic there)
        first = resolved[0] if resolved else self.settings.default_scheduler
        if first not in self.settings.enabled_schedulers:
            errs.append(invalid("grove.scheduler-enabled", sp, first,
                                "schedulerName must be an enabled scheduler backend; this scheduler is not "
                                "enabled in OperatorConfiguration"))
        return errs

    def clique_template(self, c: dict[str, Any], fp: Path, in_groups: set[str]) -> list[Diagnostic]:
        errs: list[Diagnostic] = []
        name = as_str(c.get("name"))
        if not name:
            errs.append(required("grove.clique-name", fp + ("name",), "field cannot be empty"))
        else:
            if dns1123_subdomain_errors(name):
                errs.append(invalid("grove.clique-name", fp + ("name",), name,
                                    "invalid PodCliqueTemplateSpec name, must be a valid DNS subdomain"))
            if name not in in_groups:
                msg = _pod_name_error(self.name, "", name)
                if msg:
                    errs.append(invalid("grove.pod-name-length", fp + ("name",), name, msg))
                    errs.append(invalid("grove.pod-name-length", ("metadata", "name"), self.name, msg))
        errs += _labels("grove.clique-labels", c.get("labels"), fp + ("labels",))
        errs += _annotations("grove.clique-annotations", c.get("annotations"), fp + ("annotations",))
        errs += self._sharing_specs([as_dict(r) for r in as_list(c.get("resourceSharing"))], fp + ("resourceSharing",))
        errs += self.clique_spec(name, as_dict(c.get("spec")), fp + ("spec",), fp)
        return errs

    def clique_spec(self, name: str, cs: dict[str, Any], fp: Path, cpath: Path) -> list[Diagnostic]:
        errs: list[Diagnostic] = []
        replicas = as_int(cs.get("replicas")) or 0
        if replicas <= 0:
            errs.append(invalid("grove.clique-replicas", fp + ("replicas",), replicas, "must be greater than 0"))
        min_av = as_int(cs.get("minAvailable"))
        if min_av is None:
            errs.append(required("grove.clique-min-available", fp + ("minAvailable",), "field is required"))
        else:
            if min_av <= 0:
                errs.append(invalid("grove.clique-min-available", fp + ("minAvailable",), min_av,
                                    "must be greater than 0"))
            if min_av > replicas:
                errs.append(invalid("grove.clique-min-available", fp + ("minAvailable",), min_av,
                                    "minAvailable must not be greater than replicas"))
        deps = [as_str(d) for d in as_list(cs.get("startsAfter"))]
        if self.explicit() and deps:
            for dep in deps:
                if not dep:
                    errs.append(required("grove.starts-after", fp + ("startsAfter",), "clique dependency must not be empty"))
                if dep == name:
                    errs.append(invalid("grove.starts-after", fp + ("startsAfter",), dep,
                                        "clique dependency cannot refer to itself"))
            errs += _unique("grove.starts-after", deps, fp + ("startsAfter",))
        sc = cs.get("autoScalingConfig")
        if isinstance(sc, dict):
            ap = fp + ("autoScalingConfig",)
            min_r = as_int(sc.get("minReplicas"))
            max_r = as_int(sc.get("maxReplicas")) or 0
            if min_r is None:
                errs.append(required("grove.autoscaling", ap + ("minReplicas",), "field is required"))
            elif min_av is not None and min_r < min_av:
                errs.append(invalid("grove.autoscaling", ap + ("minReplicas",), min_r,
                                    "must be greater than or equal to podCliqueSpec.minAvailable"))
            if min_r is not None and max_r < min_r:
                errs.append(invalid("grove.autoscaling", ap + ("maxReplicas",), max_r,
                                    "must be greater than or equal to podCliqueSpec.minReplicas"))
            if max_r < replicas:
                errs.append(invalid("grove.autoscaling", ap + ("maxReplicas",), max_r,
                                    "must be greater than or equal to replicas"))
        errs += self.pod_spec(as_dict(cs.get("podSpec")), fp + ("podSpec",))
        return errs

    def pod_spec(self, ps: dict[str, Any], fp: Path) -> list[Diagnostic]:
        errs: list[Diagnostic] = []
        raw_rp = _raw_restart_policy(self.raw, fp)
        if raw_rp:
            self.warnings.append(Diagnostic("grove.restart-policy-ignored", fp + ("restartPolicy",),
                                            "restartPolicy will be ignored, it will be set to Always", "warning"))
        sp = fp + ("spec",)  # upstream adds a "spec" element to podSpec paths
        if ps.get("topologySpreadConstraints") is not None:
            errs.append(invalid("grove.pod-spec-forbidden", sp + ("topologySpreadConstraints",),
                                ps["topologySpreadConstraints"], "must not be set"))
        if as_str(ps.get("nodeName")):
            errs.append(invalid("grove.pod-spec-forbidden", sp + ("nodeName",), ps["nodeName"], "must not be set"))
        for key in ("containers", "initContainers"):
            for i, ctr in enumerate(as_list(ps.get(key))):
                errs += _env_vars(as_list(as_dict(ctr).get("env")), sp + (key, i, "env"))
        return errs

    def clique_dependencies(self, cliques: list[dict[str, Any]], fp: Path) -> list[Diagnostic]:
        """``validateCliqueDependencies``: unknown names and cycles (Tarjan SCCs of size > 1)."""
        errs: list[Diagnostic] = []
        adjacency: dict[str, list[str]] = {}
        known: list[str] = []
        for c in cliques:
            n = as_str(c.get("name"))
            known.append(n)
            adjacency.setdefault(n, []).extend(as_str(d) for d in as_list(as_dict(c.get("spec")).get("startsAfter")))
        unknown = [d for deps in adjacency.values() for d in deps if d not in known]
        if unknown:
            errs.append(invalid("grove.starts-after", fp + ("startsAfter",), ",".join(unknown),
                                "unknown clique names found, all clique dependencies must be defined as cliques"))
        cycles = _tarjan(adjacency)
        if cycles:
            errs.append(invalid("grove.starts-after-cycle", fp, cycles, "clique must not have circular dependencies"))
        return errs

    # -------------------------------------------------------------- scaling groups
    def scaling_groups(self, fp: Path) -> list[Diagnostic]:
        errs: list[Diagnostic] = []
        all_cliques = [as_str(c.get("name")) for c in self.cliques]
        group_names: list[str] = []
        members_all: list[str] = []
        for i, g in enumerate(self.groups):
            gp = fp + (i,)
            gname = as_str(g.get("name"))
            if dns1123_subdomain_errors(gname):
                errs.append(invalid("grove.scaling-group-name", gp + ("name",), gname,
                                    "invalid PodCliqueScalingGroupConfig name, must be a valid DNS subdomain"))
            group_names.append(gname)
            members = [as_str(n) for n in as_list(g.get("cliqueNames"))]
            members_all += members
            errs += self.scaling_group_members(gname, all_cliques, members, gp + ("cliqueNames",), gp + ("name",))
            replicas, min_av = as_int(g.get("replicas")), as_int(g.get("minAvailable"))
            if replicas is not None and replicas <= 0:
                errs.append(invalid("grove.scaling-group-replicas", gp + ("replicas",), replicas,
                                    "must be greater than 0"))
            if min_av is not None and min_av <= 0:
                errs.append(invalid("grove.scaling-group-min-available", gp + ("minAvailable",), min_av,
                                    "must be greater than 0"))
            if replicas is not None and min_av is not None and min_av > replicas:
                errs.append(invalid("grove.scaling-group-min-available", gp + ("minAvailable",), min_av,
                                    "minAvailable must not be greater than replicas"))
            sc = g.get("scaleConfig")
            if isinstance(sc, dict) and min_av is not None:
                mr = as_int(sc.get("minReplicas"))
                if mr is not None and mr < min_av:
                    errs.append(invalid("grove.scaling-group-scale-config", gp + ("scaleConfig", "minReplicas"), mr,
                                        "scaleConfig.minReplicas must be greater than or equal to minAvailable"))
            errs += self.pcsg_resource_sharing(g, gp + ("resourceSharing",))
        errs += _unique("grove.scaling-group-name-duplicate", group_names, fp + ("name",))
        errs += _unique("grove.scaling-group-clique-overlap", members_all, fp + ("cliqueNames",))
        in_groups = set(members_all)
        for c in self.cliques:
            if as_str(c.get("name")) in in_groups and as_dict(c.get("spec")).get("autoScalingConfig") is not None:
                errs.append(invalid("grove.scaling-group-autoscaling", fp, as_str(c.get("name")),
                                    "AutoScalingConfig is not allowed to be defined for PodClique that is part "
                                    "of scaling group"))
        return errs

    def scaling_group_members(self, gname: str, all_cliques: list[str], members: list[str], fp: Path,
                              name_path: Path) -> list[Diagnostic]:
        errs: list[Diagnostic] = []
        unique_members = list(dict.fromkeys(members))
        unidentified = [m for m in unique_members if m not in all_cliques]
        if unidentified:
            errs.append(invalid("grove.scaling-group-cliques", fp, ",".join(unidentified),
                                "unidentified PodClique names found"))
        for i, m in enumerate(members):
            msg = _pod_name_error(self.name, gname, m)
            if msg:
                errs.append(invalid("grove.pod-name-length", fp + (i, "name"), m, msg))
                errs.append(invalid("grove.pod-name-length", name_path, m, msg))
                errs.append(invalid("grove.pod-name-length", ("metadata", "name"), self.name, msg))
        return errs

    def termination_delay(self, fp: Path) -> list[Diagnostic]:
        td = self.tmpl.get("terminationDelay")
        if td is None:
            return [required("grove.termination-delay", fp, "terminationDelay is required")]
        ns = parse_go_duration(td) if isinstance(td, str) else None
        if ns is not None and ns <= 0:
            return [invalid("grove.termination-delay", fp, _go_duration_string(ns),
                            "terminationDelay must be greater than 0")]
        return []

# --------------------------------------------------------------------------------------- small pieces


def _mask_prefix(gen: str) -> str:
    """``NameIsDNSSubdomain(name, prefix=true)``: a trailing ``-`` is allowed in generateName."""
    return gen[:-1] + "a" if gen.endswith("-") else gen


def _pod_name_error(pcs: str, pcsg: str, pclq: str) -> str:
    """``validatePodNameConstraints``: ``""`` when within the 45-character budget."""
    n = len(pcs) + len(pclq) + len(pcsg)
    if n <= MAX_COMBINED_RESOURCE_NAME_LENGTH:
        return ""
    head = f"combined resource name length {n} exceeds 45-character limit required for pod naming. Consider shortening: "
    if pcsg:
        return head + f"PodCliqueSet '{pcs}', PodCliqueScalingGroup '{pcsg}', or PodClique '{pclq}'"
    return head + f"PodCliqueSet '{pcs}' or PodClique '{pclq}'"


def _env_vars(env: list[Any], fp: Path) -> list[Diagnostic]:
    errs: list[Diagnostic] = []
    names: list[str] = []
    for j, e in enumerate(env):
        n = as_str(as_dict(e).get("name"))
        msgs = env_var_name_errors(n)
        if msgs:
            errs.append(invalid("grove.env-var", fp + (j, "name"), n, "; ".join(msgs)))
        names.append(n)
    return errs + _unique("grove.env-var", names, fp)


def _raw_restart_policy(raw: dict[str, Any], fp: Path) -> str:
    node: Any = raw
    for k in fp:
        if isinstance(k, int):
            node = node[k] if isinstance(node, list) and k < len(node) else None
        else:
            node = node.get(k) if isinstance(node, dict) else None
    return as_str(as_dict(node).get("restartPolicy"))


def _tarjan(adjacency: dict[str, list[str]]) -> list[list[str]]:
    """``GetStronglyConnectedCliques``: SCCs with more than one clique, each in stack-pop order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: dict[str, bool] = {}
    stack: list[str] = []
    sccs: list[list[str]] = []
    counter = [0]

    def connect(c: str) -> None:
        index[c] = low[c] = counter[0]
        counter[0] += 1
        stack.append(c)
        on_stack[c] = True
        for d in adjacency.get(c, []):
            if d not in index:
                connect(d)
                low[c] = min(low[c], low[d])
            elif on_stack.get(d):
                low[c] = min(low[c], index[d])
        if low[c] == index[c]:
            scc: list[str] = []
            while True:
                e = stack.pop()
                on_stack[e] = False
                scc.append(e)
                if e == c:
                    break
            if len(scc) > 1:
                sccs.append(scc)

    for c in adjacency:
        if c not in index:
            connect(c)
    return sccs


def _go_duration_string(ns: int) -> str:
    """``time.Duration.String`` for the values the termination-delay rule prints (≤ 0)."""
    if ns == 0:
        return "0s"
    neg = ns < 0
    u = -ns if neg else ns
    if u < 10**9:
        if u < 1000:
            s = f"{u}ns"
        elif u < 10**6:
            s = _frac(u, 1000) + "µs"
        else:
            s = _frac(u, 10**6) + "ms"
    else:
        secs, rem = divmod(u, 10**9)
        h, secs = divmod(secs, 3600)
        m, secs = divmod(secs, 60)
        sec = _frac(secs * 10**9 + rem, 10**9) + "s"
        s = (f"{h}h{m}m" if h else (f"{m}m" if m else "")) + sec
    return ("-" if neg else "") + s


def _frac(v: int, unit: int) -> str:
    whole, rem = divmod(v, unit)
    if not rem:
        return str(whole)
    digits = str(rem).rjust(len(str(unit)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"
