"""The v1alpha1 DynamoGraphDeployment webhook of releases 0.8 – 1.2 (``DynamoGraphDeploymentValidator``).

Follows ``internal/webhook/validation/dynamographdeployment.go`` at each release's commit, on the v1alpha1
object after the CRD defaults and the release's mutating webhook. ``Validate`` runs its checks in
upstream's order and stops at the first that fails; the services are visited in name order (Go ranges over
a map in random order, so upstream's choice among several failing services varies). ``ValidateUpdate`` runs
after ``Validate`` passed, as the handler does. Messages are upstream's error texts (see ``_shared``).
"""

from __future__ import annotations

from typing import Any

from ..._core._consts import ANN_DISCOVERY_MODE, ANN_ENABLE_GROVE, ANN_ORIGIN_VERSION, ANN_VLLM_BACKEND
from ..._core._diagnostics import Diagnostic, Path
from ..._k8s._gofmt import go_float, go_list, go_quote
from .._common import as_dict, as_int, as_list, as_str, get, str_map
from .._settings import AdmissionSettings
from ._shared import (
    Errs,
    Shared,
    dynamo_namespace,
    err,
    first_failure,
    is_inter_pod_failover,
    is_inter_pod_gms,
    node_count,
    since,
)

MAX_COMBINED = 45  # consts.MaxCombinedGroveResourceNameLength / maxCombinedResourceNameLength
_DOMAIN = r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$"  # api/v1alpha1 topologyDomainRegex


def _services(dgd: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    services = as_dict(as_dict(dgd.get("spec")).get("services"))
    return [(name, as_dict(services[name])) for name in sorted(services) if isinstance(name, str)]


def grove_pathway(release: str, settings: AdmissionSettings, dgd: dict[str, Any]) -> bool:
    """``isGrovePathway``: the enable-grove annotation is not "false" (and, from 1.1 on, Grove is enabled)."""
    if since(release, "1.1") and not settings.grove_enabled:
        return False
    return as_str(str_map(get(dgd, "metadata", "annotations")).get(ANN_ENABLE_GROVE)).lower() != "false"


def _semver_ok(value: str) -> bool:
    from .._defaults import canonical_semver

    return canonical_semver(value) is not None


def _annotations(dgd: dict[str, Any]) -> Errs:
    """``validateAnnotations`` (1.0)."""
    ann = str_map(get(dgd, "metadata", "annotations"))
    base: Path = ("metadata", "annotations")
    errs: Errs = []
    v = ann.get(ANN_ORIGIN_VERSION)
    if v is not None and not _semver_ok(v):
        errs.append(err("dgd.origin-version-semver", base + (ANN_ORIGIN_VERSION,),
                        f"annotation {ANN_ORIGIN_VERSION} has invalid value {go_quote(v)}: must be valid semver"))
    v = ann.get(ANN_VLLM_BACKEND)
    if v is not None and v.lower() not in ("mp", "ray"):
        errs.append(err("dgd.vllm-executor-backend", base + (ANN_VLLM_BACKEND,),
                        f'annotation {ANN_VLLM_BACKEND} has invalid value {go_quote(v)}: must be "mp" or "ray"'))
    v = ann.get(ANN_DISCOVERY_MODE)
    if v is not None and v not in ("pod", "container"):
        errs.append(err("dgd.discovery-mode", base + (ANN_DISCOVERY_MODE,),
                        f'annotation {ANN_DISCOVERY_MODE} has invalid value {go_quote(v)}: must be "pod" or "container"'))
    return errs


def _pvcs(dgd: dict[str, Any]) -> Errs:
    from ..._k8s._quantity import quantity_is_zero

    for i, pvc in enumerate(as_list(as_dict(dgd.get("spec")).get("pvcs"))):
        pvc = as_dict(pvc)
        p: Path = ("spec", "pvcs", i)
        errs: Errs = []
        if not as_str(pvc.get("name")):
            errs.append(err("dgd.v1alpha1-pvc-name", p + ("name",), f"spec.pvcs[{i}].name is required"))
        if pvc.get("create") is True:
            for key, rule, what in (("storageClass", "storage-class", "storageClass"),
                                    ("size", "size", "size"), ("volumeAccessMode", "access-mode", "volumeAccessMode")):
                missing = quantity_is_zero(pvc.get(key)) if key == "size" else not as_str(pvc.get(key))
                if missing:
                    errs.append(err(f"dgd.v1alpha1-pvc-{rule}", p + (key,),
                                    f"spec.pvcs[{i}].{what} is required when create is true"))
        if errs:
            return errs
    return []


def _restart(dgd: dict[str, Any]) -> Errs:
    spec = as_dict(dgd.get("spec"))
    restart = spec.get("restart")
    if not isinstance(restart, dict):
        return []
    errs: Errs = []
    if not as_str(restart.get("id")):
        errs.append(err("dgd.v1alpha1-restart-id", ("spec", "restart", "id"), "spec.restart.id is required"))
    strategy = as_dict(restart.get("strategy"))
    order = as_list(strategy.get("order"))
    if not order:
        return errs
    op: Path = ("spec", "restart", "strategy", "order")
    if strategy.get("type") == "Parallel":
        return errs + [err("dgd.restart-order-parallel", op,
                           "spec.restart.strategy.order cannot be specified when strategy is parallel")]
    unique: list[Any] = []
    for x in order:
        if x not in unique:
            unique.append(x)
    services = as_dict(spec.get("services"))
    if len(unique) != len(order):
        errs.append(err("dgd.restart-order-unique", op, "spec.restart.strategy.order must be unique"))
    if len(unique) != len(services):
        errs.append(err("dgd.restart-order-count", op,
                        "spec.restart.strategy.order must have the same number of unique services as the deployment"))
    for x in unique:
        if x not in services:
            errs.append(err("dgd.restart-order-unknown", op + (order.index(x),),
                            f"spec.restart.strategy.order contains unknown service: {x}"))
    return errs


def _domain_ok(value: str) -> bool:
    import re

    return re.match(_DOMAIN, value) is not None


def _topology(release: str, settings: AdmissionSettings, dgd: dict[str, Any]) -> Errs:
    """``validateTopologyConstraints`` (1.0), with the ClusterTopology checks on create."""
    spec = as_dict(dgd.get("spec"))
    tc = spec.get("topologyConstraint")
    tc = tc if isinstance(tc, dict) else None
    errs: Errs = []
    sp: Path = ("spec", "topologyConstraint")
    fmt = "is not a valid topology domain; must match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$"
    if tc is not None and as_str(tc.get("packDomain")) and not _domain_ok(as_str(tc.get("packDomain"))):
        errs.append(err("dgd.v1alpha1-topology-domain-format", sp + ("packDomain",),
                        f"spec.topologyConstraint.packDomain {go_quote(as_str(tc.get('packDomain')))} {fmt}"))
    services = _services(dgd)
    has_any = tc is not None
    for name, svc in services:
        stc = svc.get("topologyConstraint")
        if stc is None:
            continue
        has_any = True
        pd = as_str(as_dict(stc).get("packDomain"))
        path: Path = ("spec", "services", name, "topologyConstraint", "packDomain")
        if not pd:
            errs.append(err("dgd.v1alpha1-topology-pack-domain", path,
                            f"spec.services[{name}].topologyConstraint.packDomain is required"))
        elif not _domain_ok(pd):
            errs.append(err("dgd.v1alpha1-topology-domain-format", path,
                            f"spec.services[{name}].topologyConstraint.packDomain {go_quote(pd)} {fmt}"))
    if not has_any:
        return []
    if tc is None:
        return errs + [err("dgd.topology-spec-required", sp,
                           "spec.topologyConstraint with topologyProfile is required when any topology constraint is "
                           "set (at spec or service level)")]
    profile = as_str(tc.get("topologyProfile"))
    if not profile:
        errs.append(err("dgd.v1alpha1-topology-profile", sp + ("topologyProfile",),
                        "spec.topologyConstraint.topologyProfile is required when any topology constraint is set"))
    pack = as_str(tc.get("packDomain"))
    if not pack:
        for name, svc in services:
            if svc.get("topologyConstraint") is None:
                errs.append(err("dgd.topology-component-required", ("spec", "services", name, "topologyConstraint"),
                                f"spec.services[{name}].topologyConstraint is required because "
                                "spec.topologyConstraint.packDomain is not set; either set a spec-level packDomain or "
                                "provide a topologyConstraint for every service"))
    generation = as_int(get(dgd, "metadata", "generation")) or 0
    if errs or generation > 1 or not grove_pathway(release, settings, dgd) or not profile \
            or settings.cluster_topologies is None:
        return errs
    levels = settings.cluster_topologies.get(profile)
    if levels is None:
        return [err("dgd.topology-binding", sp + ("topologyProfile",),
                    f"topology-aware scheduling requires a ClusterTopology resource {go_quote(profile)} but it was not "
                    "found; ensure the cluster topology is configured per the framework documentation")]
    index = {d: i for i, d in enumerate(levels)}
    domains = go_list(sorted(levels))
    checks = ([("spec.topologyConstraint.packDomain", sp + ("packDomain",), pack)] if pack else []) + [
        (f"spec.services[{name}].topologyConstraint.packDomain", ("spec", "services", name, "topologyConstraint",
                                                                  "packDomain"),
         as_str(as_dict(svc.get("topologyConstraint")).get("packDomain")))
        for name, svc in services if as_str(as_dict(svc.get("topologyConstraint")).get("packDomain"))]
    for go_path, path, dom in checks:
        if dom not in index:
            errs.append(err("dgd.topology-domain", path, f"{go_path}: domain {go_quote(dom)} does not exist in "
                            f"ClusterTopology {go_quote(profile)}; available domains: {domains}"))
    if pack in index:
        for _go_path, path, dom in checks[1:]:
            if dom in index and index[dom] < index[pack]:
                errs.append(err("dgd.topology-narrower", path,
                                f"spec.services[{path[2]}]: topologyConstraint.packDomain {go_quote(dom)} is broader than "
                                f"spec-level {go_quote(pack)}; service constraints must be equal to or narrower than "
                                "the deployment-level constraint"))
    return errs


def _kv_transfer(dgd: dict[str, Any]) -> Errs:
    """``validateKvTransferPolicy`` (1.2, on ``spec.experimental.kvTransferPolicy``)."""
    from ..._k8s._objectmeta import qualified_name_errors

    kv = get(dgd, "spec", "experimental", "kvTransferPolicy")
    if not isinstance(kv, dict):
        return []
    go = "spec.experimental.kvTransferPolicy"
    p: Path = ("spec", "experimental", "kvTransferPolicy")
    rid = "dgd.v1alpha1-kv-transfer-policy"
    errs: Errs = []
    label = as_str(kv.get("labelKey"))
    if not label:
        errs.append(err(rid, p + ("labelKey",), f"{go}.labelKey is required"))
    else:
        bad = qualified_name_errors(label)
        if bad:
            errs.append(err(rid, p + ("labelKey",), f"{go}.labelKey {go_quote(label)} is not a valid Kubernetes label "
                            f"key: {'; '.join(bad)}"))
    domain = as_str(kv.get("domain"))
    if not domain:
        errs.append(err(rid, p + ("domain",), f"{go}.domain is required"))
    elif not _domain_ok(domain):
        errs.append(err(rid, p + ("domain",), f"{go}.domain {go_quote(domain)} is not a valid topology domain; must "
                        "match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$"))
    raw = as_str(kv.get("enforcement"))
    enforcement = raw or "required"
    if enforcement not in ("required", "preferred"):
        errs.append(err(rid, p + ("enforcement",), f'{go}.enforcement {go_quote(raw)} is invalid; must be "required" '
                        'or "preferred"'))
    weight = kv.get("preferredWeight")
    if enforcement == "preferred" and weight is None:
        errs.append(err(rid, p + ("preferredWeight",), f'{go}.preferredWeight is required when enforcement is '
                        '"preferred"'))
    if isinstance(weight, (int, float)) and not isinstance(weight, bool):
        if weight < 0 or weight > 1:
            errs.append(err(rid, p + ("preferredWeight",), f"{go}.preferredWeight {go_float(float(weight), 32)} is invalid; "
                            "must be >= 0 and <= 1"))
        if enforcement == "required":
            errs.append(err(rid, p + ("preferredWeight",), f'{go}.preferredWeight must not be set when enforcement is '
                            '"required"'))
    return errs


def _failover_discovery(release: str, dgd: dict[str, Any]) -> Errs:
    """``validateFailoverRequiresDiscoveryMode`` (1.0: any failover; 1.1: intra-pod failover only)."""
    hit = False
    for _, svc in _services(dgd):
        fo = as_dict(svc.get("failover"))
        if fo.get("enabled") is True and (not since(release, "1.1") or fo.get("mode") == "intraPod"):
            hit = True
            break
    ann = str_map(get(dgd, "metadata", "annotations"))
    if hit and ann.get(ANN_DISCOVERY_MODE) != "container":
        return [err("dgd.intrapod-failover-discovery-mode", ("metadata", "annotations", ANN_DISCOVERY_MODE),
                    f"failover requires per-container K8s discovery; set annotation {go_quote(ANN_DISCOVERY_MODE)} to "
                    f'"container" on the DynamoGraphDeployment')]
    return []


def _pcs_name(dgd_name: str, services: list[tuple[str, dict[str, Any]]]) -> str:
    """``PCSNameForAlphaDGDServices`` (1.2): the services as v1beta1 components, then ``PCSNameForDGD``."""
    from ..._k8s._grovenames import pcs_name_for_dgd

    components = []
    for name, svc in services:
        comp: dict[str, Any] = {"name": name}
        if isinstance(svc.get("multinode"), dict):
            comp["multinode"] = {"nodeCount": node_count(svc)}
        if is_inter_pod_gms(svc):
            comp["experimental"] = {"gpuMemoryService": {"mode": "InterPod"}}
        components.append(comp)
    return pcs_name_for_dgd(dgd_name, components)


def _name_length(release: str, dgd: dict[str, Any], name: str, svc: dict[str, Any],
                 services: list[tuple[str, dict[str, Any]]]) -> Errs:
    """``validateServiceNameLength`` (1.0; the inter-pod layout 1.1; the truncated PodCliqueSet name 1.2)."""
    dgd_name = as_str(get(dgd, "metadata", "name"))
    lower = name.lower()
    nodes = node_count(svc)
    head = (f"spec.services[{name}]: combined resource name length %d exceeds {MAX_COMBINED}-character limit required "
            f"for pod naming. Consider shortening the DynamoGraphDeployment name '{dgd_name}' (length {len(dgd_name)}) "
            f"or service name '{name}' (length {len(name)}). ")
    path: Path = ("spec", "services", name)
    if not since(release, "1.1"):
        if nodes > 1:
            n = len(dgd_name) + len(lower) + len(lower + "-ldr")
            tail = ("For multinode services, the combined length of DGD name + service name + service name with role "
                    f"suffix (e.g., '{lower}-ldr') must not exceed {MAX_COMBINED} characters")
        else:
            n = len(dgd_name) + len(lower)
            tail = f"The combined length of DGD name + service name must not exceed {MAX_COMBINED} characters"
        return [err("dgd.grove-name-length", path, head % n + tail)] if n > MAX_COMBINED else []
    truncated = since(release, "1.2")
    base = _pcs_name(dgd_name, services) if truncated else dgd_name
    what = "PCS name" if truncated else "DGD name"
    suffix = f". The PCS name '{base}' was auto-truncated from DGD name '{dgd_name}'" if truncated else ""
    if is_inter_pod_gms(svc):
        longest = f"{lower}-gms-0"
        if nodes > 1 and len(f"{lower}-wkr-{nodes - 1}") > len(longest):
            longest = f"{lower}-wkr-{nodes - 1}"
    elif nodes > 1:
        longest = lower + "-ldr"
    else:
        n = len(base) + len(lower)
        tail = f"The combined length of {what} + service name must not exceed {MAX_COMBINED} characters{suffix}"
        return [err("dgd.grove-name-length", path, head % n + tail)] if n > MAX_COMBINED else []
    n = len(base) + len(lower) + len(longest)
    tail = (f"The combined length of {what} + PCSG name + longest PodClique name ('{longest}') must not exceed "
            f"{MAX_COMBINED} characters{suffix}")
    return [err("dgd.grove-name-length", path, head % n + tail)] if n > MAX_COMBINED else []


def _service(release: str, settings: AdmissionSettings, dgd: dict[str, Any], name: str, svc: dict[str, Any],
             services: list[tuple[str, dict[str, Any]]]) -> tuple[Errs, Errs]:
    path: Path = ("spec", "services", name)
    grove = grove_pathway(release, settings, dgd)
    if since(release, "1.1") and is_inter_pod_gms(svc):
        mpath = path + ("gpuMemoryService", "mode")
        if not grove:
            if not settings.grove_enabled:
                return [err("dgd.inter-pod-gms-grove", mpath,
                            f'spec.services[{name}]: gpuMemoryService.mode="interPod" requires the Grove pathway, but '
                            "Grove is disabled at the operator level (global.grove.enabled=false)")], []
            current = as_str(str_map(get(dgd, "metadata", "annotations")).get(ANN_ENABLE_GROVE))
            return [err("dgd.inter-pod-gms-grove", mpath,
                        f'spec.services[{name}]: gpuMemoryService.mode="interPod" requires the Grove pathway; remove '
                        f'or unset the "{ANN_ENABLE_GROVE}" annotation (currently {go_quote(current)})')], []
        backend = as_str(as_dict(dgd.get("spec")).get("backendFramework"))
        if backend != "vllm":
            return [err("dgd.inter-pod-gms-vllm", mpath,
                        f'spec.services[{name}]: the inter-pod GMS layout (gpuMemoryService.mode="interPod") is '
                        f"currently supported only for vLLM (detected: {backend or '<unset>'}); set "
                        'spec.backendFramework="vllm"')], []
    if since(release, "1.0") and grove:
        errs = _name_length(release, dgd, name, svc, services)
        if errs:
            return errs, []
    namespace = as_str(get(dgd, "metadata", "namespace")) or "default"
    dns = dynamo_namespace(release, svc.get("globalDynamoNamespace"), namespace, as_str(get(dgd, "metadata", "name")))
    return Shared("dgd", release, svc, path, f"spec.services[{name}]", dns,
                  settings.inference_pool_available if since(release, "0.9") else None).validate()


def validate_dgd(release: str, settings: AdmissionSettings, dgd: dict[str, Any]) -> Errs:
    """``Validate``: errors, or the warnings when nothing failed."""
    if not as_dict(as_dict(dgd.get("spec")).get("services")):
        return [err("dgd.components-required", ("spec", "services"), "spec.services must have at least one service")]
    steps = []
    if since(release, "1.0"):
        steps.append(lambda: _annotations(dgd))
    steps += [lambda: _pvcs(dgd), lambda: _restart(dgd)]
    if since(release, "1.0"):
        steps.append(lambda: _topology(release, settings, dgd))
    if since(release, "1.2"):
        steps.append(lambda: _kv_transfer(dgd))
    if since(release, "1.0"):
        steps.append(lambda: _failover_discovery(release, dgd))
    errors = first_failure(*steps)
    if errors:
        return errors
    warnings: Errs = []
    services = _services(dgd)
    for name, svc in services:
        errs, warns = _service(release, settings, dgd, name, svc, services)
        if errs:
            return errs
        warnings += warns
    return warnings


def _topology_equal(a: Any, b: Any, keys: tuple[str, ...]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return all(as_str(as_dict(a).get(k)) == as_str(as_dict(b).get(k)) for k in keys)


def validate_dgd_update(release: str, settings: AdmissionSettings, new: dict[str, Any], old: dict[str, Any]) -> Errs:
    """``ValidateUpdate`` (after ``Validate`` passed): the first failing step's errors, with the
    backendFramework warning."""
    from ..rules._update import can_modify_dgd_replicas

    new_spec, old_spec = as_dict(new.get("spec")), as_dict(old.get("spec"))
    old_services = as_dict(old_spec.get("services"))
    services = _services(new)
    errs: Errs = []
    if as_str(new_spec.get("backendFramework")) != as_str(old_spec.get("backendFramework")):
        errs.append(Diagnostic("dgd.backend-framework-changed", ("spec", "backendFramework"),
                               "Changing spec.backendFramework may cause unexpected behavior", "warning"))
        errs.append(err("dgd.backend-framework-immutable", ("spec", "backendFramework"),
                        "spec.backendFramework is immutable and cannot be changed after creation"))
    for name, svc in services:
        if name in old_services and (node_count(svc) > 1) != (node_count(as_dict(old_services[name])) > 1):
            errs.append(err("dgd.multinode-topology-immutable", ("spec", "services", name, "multinode"),
                            f"spec.services[{name}] cannot change node topology (between single-node and multi-node) "
                            "after creation"))
    if since(release, "1.1"):
        for name, svc in services:
            if name not in old_services:
                continue
            before = as_dict(old_services[name])
            if is_inter_pod_gms(before) != is_inter_pod_gms(svc):
                errs.append(err("dgd.inter-pod-gms-toggle", ("spec", "services", name, "gpuMemoryService", "mode"),
                                f"spec.services[{name}].gpuMemoryService.mode: the inter-pod GMS layout cannot be toggled "
                                "after creation; delete and recreate the DynamoGraphDeployment"))
            was, now = is_inter_pod_failover(before), is_inter_pod_failover(svc)
            if was != now:
                errs.append(err("dgd.inter-pod-failover-toggle", ("spec", "services", name, "failover"),
                                f"spec.services[{name}].failover: inter-pod GMS failover cannot be toggled after "
                                "creation; delete and recreate the DynamoGraphDeployment"))
            if was and now and as_int(get(before, "failover", "numShadows")) != as_int(get(svc, "failover", "numShadows")):
                errs.append(err("dgd.num-shadows-immutable", ("spec", "services", name, "failover", "numShadows"),
                                f"spec.services[{name}].failover.numShadows is immutable for inter-pod GMS failover; "
                                "delete and recreate the DynamoGraphDeployment to change it"))
    if since(release, "1.0"):
        tail = ("is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
                "DynamoGraphDeployment to change topology constraints")
        if not _topology_equal(new_spec.get("topologyConstraint"), old_spec.get("topologyConstraint"),
                               ("topologyProfile", "packDomain")):
            errs.append(err("dgd.topology-immutable", ("spec", "topologyConstraint"), f"spec.topologyConstraint {tail}"))
        for name, svc in services:
            if name in old_services and not _topology_equal(svc.get("topologyConstraint"),
                                                            as_dict(old_services[name]).get("topologyConstraint"),
                                                            ("packDomain",)):
                errs.append(err("dgd.topology-immutable", ("spec", "services", name, "topologyConstraint"),
                                f"spec.services[{name}].topologyConstraint {tail}"))
    if any(d.severity == "error" for d in errs):
        return errs
    warnings = errs
    added = sorted(n for n, _ in services if n not in old_services)
    removed = sorted(n for n in old_services if n not in as_dict(new_spec.get("services")))
    if added or removed:
        parts = ([f"services added: {go_list(added)}"] if added else []) + (
            [f"services removed: {go_list(removed)}"] if removed else [])
        return warnings + [err("dgd.components-immutable", ("spec", "services"),
                               "service topology is immutable and cannot be modified after creation: " + ", ".join(parts))]
    if not can_modify_dgd_replicas(settings):
        out: Errs = []
        for name, svc in services:
            if as_dict(svc.get("scalingAdapter")).get("enabled") is not True or name not in old_services:
                continue
            before = as_dict(old_services[name])
            new_n = svc.get("replicas") if svc.get("replicas") is not None else 1
            old_n = before.get("replicas") if before.get("replicas") is not None else 1
            if new_n != old_n:
                out.append(err("dgd.replicas-scaling-adapter", ("spec", "services", name, "replicas"),
                               f"spec.services[{name}].replicas cannot be modified directly when scaling adapter is "
                               "enabled; scale or update the related DynamoGraphDeploymentScalingAdapter instead"))
        if out:
            return warnings + out
    if since(release, "1.0"):
        phase = as_str(get(old, "status", "rollingUpdate", "phase"))
        if phase in ("Pending", "InProgress") and as_str(get(new_spec, "restart", "id")) != as_str(
                get(old_spec, "restart", "id")):
            return warnings + [err("dgd.restart-id-rolling-update", ("spec", "restart", "id"),
                                   f"spec.restart.id cannot be changed while a rolling update is {phase}")]
    return warnings
