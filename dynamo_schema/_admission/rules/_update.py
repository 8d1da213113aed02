"""UPDATE rules: immutability and transition checks for DGD and DCD (``validate...Update``),
plus the CEL transition rules of the CRDs that need the old object."""

from __future__ import annotations

from ..._core._consts import ANN_WORKLOAD_PROVIDER, GPU_RESOURCE
from ..._core._diagnostics import Diagnostic, Path
from .._common import (
    FAILOVER,
    FIELD_IMMUTABLE,
    KV_TRANSFER_POLICY,
    MULTINODE,
    SPEC_TOPOLOGY_CONSTRAINT,
    TOPOLOGY_CONSTRAINT,
    as_dict,
    as_int,
    as_list,
    as_str,
    forbidden,
    get,
    go_struct,
    invalid,
    invalid_novalue,
    str_map,
    warning,
)
from .._component import (
    containers,
    effective_mode,
    failover,
    gms,
    is_inter_pod_failover,
    is_inter_pod_gms,
    is_multinode,
    node_count,
    num_shadows,
)
from .._settings import AdmissionSettings
from ._dgd import ANN_POWER_LIMIT, power_limit
from ._shared import (
    Ctx,
    runtime_image_and_path,
    runtime_version_rules,
    validate_gms,
)

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

SCALING_ADAPTER_DETAIL = (
    "cannot be modified directly when scaling adapter is enabled; scale or update the related "
    "DynamoGraphDeploymentScalingAdapter instead"
)


def _topology_detail(kind: str) -> str:
    return (
        f"is immutable and cannot be added, removed, or changed after creation; delete and recreate the {kind} "
        "to change topology constraints"
    )


KV_DETAIL = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change the KV transfer policy"
)


def _provider_override_update(new: Any, old: Any, path: Path, rid: str) -> list[Diagnostic]:
    if not isinstance(new, dict) or not isinstance(old, dict):
        return []
    errs: list[Diagnostic] = []
    for key in ("apiVersion", "target"):
        if as_str(new.get(key)) != as_str(old.get(key)):
            errs.append(invalid(rid, path + (key,), as_str(new.get(key)), FIELD_IMMUTABLE))
    return errs


def component_update(
    ctx: Ctx,
    new: dict[str, Any],
    old: dict[str, Any],
    path: Path,
    *,
    can_modify_replicas: bool,
    owner_kind: str,
    validate_gms_new_state: bool,
) -> list[Diagnostic]:
    rid = ctx.rid
    errs: list[Diagnostic] = []
    if new.get("providerOverride") is not None and old.get("providerOverride") is not None:
        errs += _provider_override_update(
            new.get("providerOverride"),
            old.get("providerOverride"),
            path + ("providerOverride",),
            rid("provider-override-immutable"),
        )
    if is_multinode(new) != is_multinode(old):
        errs.append(
            invalid(
                rid("multinode-topology-immutable"),
                path + ("multinode",),
                go_struct(new.get("multinode"), MULTINODE),
                "cannot change node topology between single-node and multi-node after creation",
            )
        )
    nmn, omn = new.get("multinode"), old.get("multinode")
    if isinstance(nmn, dict) and isinstance(omn, dict):
        for role in ("leader", "worker"):
            errs += _provider_override_update(
                get(nmn, role, "providerOverride"),
                get(omn, role, "providerOverride"),
                path + ("multinode", role, "providerOverride"),
                rid("provider-override-immutable"),
            )
    if (
        new.get("scalingAdapter") is not None or old.get("scalingAdapter") is not None
    ) and not can_modify_replicas:
        nr = as_int(new.get("replicas"))
        orr = as_int(old.get("replicas"))
        if (1 if nr is None else nr) != (1 if orr is None else orr):
            errs.append(
                forbidden(rid("replicas-scaling-adapter"), path + ("replicas",), SCALING_ADAPTER_DETAIL)
            )
    ntc, otc = new.get("topologyConstraint"), old.get("topologyConstraint")
    if ntc is not None:
        if otc is None or as_str(as_dict(ntc).get("packDomain")) != as_str(as_dict(otc).get("packDomain")):
            errs.append(
                invalid(
                    rid("topology-immutable"),
                    path + ("topologyConstraint",),
                    go_struct(ntc, TOPOLOGY_CONSTRAINT),
                    _topology_detail(owner_kind),
                )
            )
    elif otc is not None:
        errs.append(
            invalid(
                rid("topology-immutable"), path + ("topologyConstraint",), None, _topology_detail(owner_kind)
            )
        )

    nexp, oexp = new.get("experimental"), old.get("experimental")
    epath = path + ("experimental",)

    toggles: dict[str, tuple[Path, str]] = {
        "inter-pod-gms-toggle": (
            ("gpuMemoryService", "mode"),
            f"the inter-pod GMS layout cannot be toggled after creation; delete and recreate the {owner_kind}",
        ),
        "inter-pod-failover-toggle": (
            ("failover",),
            f"inter-pod GMS failover cannot be toggled after creation; delete and recreate the {owner_kind}",
        ),
        "force-scaling-group-toggle": (
            ("grove", "forceScalingGroup"),
            f"cannot be toggled after creation; delete and recreate the {owner_kind} to change it",
        ),
    }

    def toggled(rule: str, value: Any) -> Diagnostic:
        sub, detail = toggles[rule]
        return invalid(rid(rule), epath + sub, value, detail)

    if isinstance(nexp, dict):
        ngms = gms(new)
        if ngms is not None and validate_gms_new_state:
            errs += validate_gms(ctx, new, ngms, epath + ("gpuMemoryService",))
        ogms = gms(old)
        if is_inter_pod_gms(ngms) != is_inter_pod_gms(ogms):
            errs.append(toggled("inter-pod-gms-toggle", as_str(as_dict(ngms).get("mode"))))
        nf, of = failover(new), failover(old)
        if is_inter_pod_failover(nf) != is_inter_pod_failover(of):
            errs.append(toggled("inter-pod-failover-toggle", go_struct(nf, FAILOVER)))
        if (
            nf is not None
            and of is not None
            and is_inter_pod_failover(nf)
            and is_inter_pod_failover(of)
            and num_shadows(nf) != num_shadows(of)
        ):
            errs.append(
                invalid(
                    rid("num-shadows-immutable"),
                    epath + ("failover", "numShadows"),
                    as_int(nf.get("numShadows")) or 0,
                    f"is immutable for inter-pod GMS failover; delete and recreate the {owner_kind} to change it",
                )
            )
        old_forced = get(oexp, "grove", "forceScalingGroup") is True
        ngrove = nexp.get("grove")
        if isinstance(ngrove, dict):
            new_forced = ngrove.get("forceScalingGroup") is True
            if new_forced != old_forced:
                errs.append(toggled("force-scaling-group-toggle", new_forced))
        elif old_forced:
            errs.append(toggled("force-scaling-group-toggle", None))
    elif isinstance(oexp, dict):
        if is_inter_pod_gms(gms(old)):
            errs.append(toggled("inter-pod-gms-toggle", None))
        if is_inter_pod_failover(failover(old)):
            errs.append(toggled("inter-pod-failover-toggle", None))
        if get(oexp, "grove", "forceScalingGroup") is True:
            errs.append(toggled("force-scaling-group-toggle", None))

    if ctx.check_runtime_version:
        nimg, ipath = runtime_image_and_path(new, path)
        oimg, _ = runtime_image_and_path(old, path)
        errs += runtime_version_rules(
            ctx.prefix, path, nimg, ipath, as_str(new.get("runtimeVersionOverride")),
            ctx.allow_missing_override, (oimg, as_str(old.get("runtimeVersionOverride"))),
        )
    return errs


def _backend_update(prefix: str, new_spec: dict[str, Any], old_spec: dict[str, Any]) -> list[Diagnostic]:
    nb, ob = as_str(new_spec.get("backendFramework")), as_str(old_spec.get("backendFramework"))
    if nb == ob:
        return []
    return [
        warning(
            f"{prefix}.backend-framework-changed",
            ("spec", "backendFramework"),
            "Changing spec.backendFramework may cause unexpected behavior",
        ),
        invalid(
            f"{prefix}.backend-framework-immutable",
            ("spec", "backendFramework"),
            nb,
            "is immutable and cannot be changed after creation",
        ),
    ]


def _gpu_count_entry(component: Any, path: Path) -> tuple[str | None, Path]:
    cpath = path + ("podTemplate", "spec", "containers")
    if as_dict(component).get("podTemplate") is None:
        return None, cpath
    for i, c in enumerate(containers(component)):
        if not isinstance(c, dict) or c.get("name") != "main":
            continue
        rpath = cpath + (i, "resources")
        for key in ("limits", "requests"):
            rl = as_dict(get(c, "resources", key))
            if GPU_RESOURCE in rl:
                v = rl[GPU_RESOURCE]
                return (v if isinstance(v, str) else str(v)), rpath + (key, GPU_RESOURCE)
        return None, rpath
    return None, cpath


def validate_dgd_update(
    new: dict[str, Any], old: dict[str, Any], settings: AdmissionSettings, ctx: Ctx
) -> list[Diagnostic]:
    errs: list[Diagnostic] = []
    nann = str_map(get(new, "metadata", "annotations"))
    oann = str_map(get(old, "metadata", "annotations"))
    apath: Path = ("metadata", "annotations", ANN_WORKLOAD_PROVIDER)
    if (
        ANN_WORKLOAD_PROVIDER not in oann
        and ANN_WORKLOAD_PROVIDER in nann
        and settings.operator_principal
        and settings.request_username != settings.operator_principal
    ):
        errs.append(
            forbidden(
                "dgd.workload-provider-materialize", apath, "may only be materialized by the Dynamo operator"
            )
        )
    if ANN_WORKLOAD_PROVIDER in oann and nann.get(ANN_WORKLOAD_PROVIDER) != oann[ANN_WORKLOAD_PROVIDER]:
        errs.append(
            invalid(
                "dgd.workload-provider-immutable", apath, nann.get(ANN_WORKLOAD_PROVIDER), FIELD_IMMUTABLE
            )
        )

    ns, os_ = as_dict(new.get("spec")), as_dict(old.get("spec"))
    if ns.get("providerOverride") is not None and os_.get("providerOverride") is not None:
        errs += _provider_override_update(
            ns.get("providerOverride"),
            os_.get("providerOverride"),
            ("spec", "providerOverride"),
            "dgd.provider-override-immutable",
        )
    ncomps = [c if isinstance(c, dict) else {} for c in as_list(ns.get("components"))]
    ocomps = {
        as_str(c.get("name")): c
        for c in (x if isinstance(x, dict) else {} for x in as_list(os_.get("components")))
    }
    nnames = {as_str(c.get("name")) for c in ncomps}
    added, removed = sorted(nnames - set(ocomps)), sorted(set(ocomps) - nnames)
    if added or removed:
        detail = "component topology is immutable and cannot be modified after creation"
        if added and removed:
            detail += f": components added: [{' '.join(added)}], components removed: [{' '.join(removed)}]"
        elif added:
            detail += f": components added: [{' '.join(added)}]"
        else:
            detail += f": components removed: [{' '.join(removed)}]"
        errs.append(forbidden("dgd.components-immutable", ("spec", "components"), detail))

    can_modify = can_modify_dgd_replicas(settings)
    for i, nc in enumerate(ncomps):
        oc = ocomps.get(as_str(nc.get("name")))
        if oc is None:
            continue
        cpath: Path = ("spec", "components", i)
        errs += component_update(
            ctx,
            nc,
            oc,
            cpath,
            can_modify_replicas=can_modify,
            owner_kind="DynamoGraphDeployment",
            validate_gms_new_state=True,
        )
        # Power-limit contract.
        nv, nh = power_limit(nc)
        ov, oh = power_limit(oc)
        if nh != oh or (nh and nv != ov):
            errs.append(
                invalid(
                    "dgd.power-limit-immutable",
                    cpath + ("podTemplate", "metadata", "annotations", ANN_POWER_LIMIT),
                    nv if nh else None,
                    FIELD_IMMUTABLE,
                )
            )
        if oh:
            ngpu, npath = _gpu_count_entry(nc, cpath)
            ogpu, _ = _gpu_count_entry(oc, cpath)
            if ngpu != ogpu:
                errs.append(invalid("dgd.gpu-count-immutable", npath, ngpu, FIELD_IMMUTABLE))
            if node_count(nc) != node_count(oc):
                errs.append(
                    invalid(
                        "dgd.node-count-immutable",
                        cpath + ("multinode", "nodeCount"),
                        node_count(nc),
                        FIELD_IMMUTABLE,
                    )
                )

    errs += _backend_update("dgd", ns, os_)

    ntc, otc = ns.get("topologyConstraint"), os_.get("topologyConstraint")
    tpath: Path = ("spec", "topologyConstraint")
    if ntc is not None:
        same = otc is not None and all(
            as_str(as_dict(ntc).get(k)) == as_str(as_dict(otc).get(k))
            for k in ("clusterTopologyName", "packDomain")
        )
        if not same:
            errs.append(
                invalid(
                    "dgd.topology-immutable",
                    tpath,
                    go_struct(ntc, SPEC_TOPOLOGY_CONSTRAINT),
                    _topology_detail("DynamoGraphDeployment"),
                )
            )
    elif otc is not None:
        errs.append(invalid("dgd.topology-immutable", tpath, None, _topology_detail("DynamoGraphDeployment")))

    nexp, oexp = ns.get("experimental"), os_.get("experimental")
    npol = get(nexp, "kvTransferPolicy")
    opol = get(oexp, "kvTransferPolicy")
    kpath: Path = ("spec", "experimental", "kvTransferPolicy")
    if nexp is not None:
        if npol is not None:
            if not _kv_equal(npol, opol):
                errs.append(
                    invalid(
                        "dgd.kv-transfer-immutable", kpath, go_struct(npol, KV_TRANSFER_POLICY), KV_DETAIL
                    )
                )
        elif opol is not None:
            errs.append(invalid("dgd.kv-transfer-immutable", kpath, None, KV_DETAIL))
    elif opol is not None:
        errs.append(invalid("dgd.kv-transfer-immutable", kpath, None, KV_DETAIL))

    # Restart id frozen during a rolling update.
    phase = as_str(get(old, "status", "rollingUpdate", "phase"))
    if phase in ("Pending", "InProgress"):
        nid = as_str(get(ns, "restart", "id"))
        oid = as_str(get(os_, "restart", "id"))
        if nid != oid:
            errs.append(
                invalid(
                    "dgd.restart-id-rolling-update",
                    ("spec", "restart", "id"),
                    nid,
                    f"cannot be changed while a rolling update is {phase}",
                )
            )
    return errs


def can_modify_dgd_replicas(settings: AdmissionSettings) -> bool:
    """``CanModifyDGDReplicas``: the operator principal or the planner service account."""
    user = settings.request_username
    if user is None or not user.startswith("system:serviceaccount:"):
        return False
    if settings.operator_principal and user == settings.operator_principal:
        return True
    parts = user.split(":")
    return len(parts) == 4 and parts[3] == "planner-serviceaccount"


def _kv_equal(a: Any, b: Any) -> bool:
    if not isinstance(b, dict):
        return False
    a = as_dict(a)
    for k in ("clusterTopologyName", "labelKey", "domain"):
        if as_str(a.get(k)) != as_str(b.get(k)):
            return False
    if (as_str(a.get("enforcement")) or "required") != (as_str(b.get("enforcement")) or "required"):
        return False
    return bool(a.get("preferredWeight") == b.get("preferredWeight"))


def validate_dcd_update(new: dict[str, Any], old: dict[str, Any], ctx: Ctx) -> list[Diagnostic]:
    ns, os_ = as_dict(new.get("spec")), as_dict(old.get("spec"))
    errs = _backend_update("dcd", ns, os_)
    errs += component_update(
        ctx,
        ns,
        os_,
        ("spec",),
        can_modify_replicas=True,
        owner_kind="DynamoComponentDeployment",
        validate_gms_new_state=False,
    )
    return errs


def cel_transition_rules(kind: str, new: dict[str, Any], old: dict[str, Any] | None) -> list[Diagnostic]:
    """CRD CEL rules that need ``oldSelf`` (messages from the CRDs, value omitted as CEL does)."""
    errs: list[Diagnostic] = []
    if kind == "DynamoGraphDeployment":
        if old is None and get(new, "spec", "restart") is not None:
            errs.append(
                invalid_novalue(
                    "dgd.restart-unset-on-create",
                    ("spec",),
                    "spec.restart must be unset on create; set spec.restart.id after creation to "
                    "request a restart",
                )
            )
        if old is not None:
            ocomps = {
                as_str(c.get("name")): c
                for c in as_list(get(old, "spec", "components"))
                if isinstance(c, dict)
            }
            for i, c in enumerate(as_list(get(new, "spec", "components"))):
                if not isinstance(c, dict) or as_str(c.get("name")) not in ocomps:
                    continue
                o = ocomps[as_str(c.get("name"))]
                if o.get("minAvailable") is not None and c.get("minAvailable") != o.get("minAvailable"):
                    errs.append(
                        invalid_novalue(
                            "dgd.min-available-immutable",
                            ("spec", "components", i),
                            "minAvailable is immutable after creation",
                        )
                    )
    elif kind == "DynamoComponentDeployment" and old is not None:
        ns, os_ = as_dict(new.get("spec")), as_dict(old.get("spec"))
        if os_.get("minAvailable") is not None and ns.get("minAvailable") != os_.get("minAvailable"):
            errs.append(
                invalid_novalue(
                    "dcd.min-available-immutable", ("spec",), "minAvailable is immutable after creation"
                )
            )
    return errs


__all__ = ["cel_transition_rules", "effective_mode", "validate_dcd_update", "validate_dgd_update"]
