"""DynamoGraphDeployment create-time rules (``dynamographdeployment.go`` and helpers)."""

from __future__ import annotations

import re

from ..._core._consts import (
    ANN_DISCOVERY_MODE,
    ANN_ENABLE_GROVE,
    ANN_GROVE_UPDATE_STRATEGY,
    ANN_ORIGIN_VERSION,
    ANN_VLLM_BACKEND,
    ANN_WORKLOAD_PROVIDER,
)
from ..._core._diagnostics import Diagnostic, Path
from ..._core._lazyre import lazy
from ..._k8s._gofmt import go_list
from .._common import (
    as_dict,
    as_int,
    as_list,
    as_str,
    forbidden,
    get,
    invalid,
    not_supported,
    required,
    str_map,
)
from .._component import (
    GMS_INTER,
    GMS_INTRA,
    MAX_COMBINED_GROVE_NAME,
    effective_mode,
    failover,
    gms,
    longest_podclique_name,
    pcs_name_for_dgd,
    uses_pcsg,
)
from .._defaults import canonical_semver
from .._provider import (
    SCOPE_COMPONENT,
    SCOPE_LEADER,
    SCOPE_ROOT,
    SCOPE_WORKER,
    expected_target,
    writes_grove_topology,
)
from .._settings import AdmissionSettings
from ._shared import Ctx, validate_elastic_ep, validate_provider_override, validate_shared_spec

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

ANN_POWER_LIMIT = "dynamo.nvidia.com/gpu-power-limit"
TOPOLOGY_COMPOSITION = (
    "cannot be combined with spec.topologyConstraint or components[].topologyConstraint; use either the typed "
    "topology API or provider-native Grove topology overrides"
)


def grove_pathway(settings: AdmissionSettings, dgd: dict[str, Any]) -> tuple[bool, str]:
    """``grovePathwayForDynamoGraphDeployment``: (on the pathway, Forbidden detail when not)."""
    ann = str_map(get(dgd, "metadata", "annotations"))
    if ANN_WORKLOAD_PROVIDER in ann:
        provider = ann[ANN_WORKLOAD_PROVIDER]
        if provider == "grove":
            return True, ""
        if provider == "component":
            return False, f'requires the Grove pathway, but workload provider "{provider}" is selected'
        return False, (
            f'requires the Grove pathway, but annotation "{ANN_WORKLOAD_PROVIDER}" has unsupported value "{provider}"'
        )
    if not settings.grove_enabled:
        return False, "requires the Grove pathway, but Grove is disabled in the operator configuration"
    value = ann.get(ANN_ENABLE_GROVE, "")
    if value.lower() == "false":
        return (
            False,
            f'requires the Grove pathway; remove or unset annotation "{ANN_ENABLE_GROVE}" (currently "{value}")',
        )
    return True, ""


def _semver_ok(value: str) -> bool:
    return canonical_semver(value) is not None


def has_intra_pod_failover(spec: Any) -> bool:
    for c in as_list(as_dict(spec).get("components")):
        f = failover(c)
        if f is not None and effective_mode(f.get("mode")) == GMS_INTRA:
            return True
    return False


def validate_object_meta(dgd: dict[str, Any]) -> list[Diagnostic]:
    errs: list[Diagnostic] = []
    raw = get(dgd, "metadata", "annotations")
    ann = str_map(raw)
    base: Path = ("metadata", "annotations")
    if ANN_ORIGIN_VERSION in ann and not _semver_ok(ann[ANN_ORIGIN_VERSION]):
        errs.append(
            invalid(
                "dgd.origin-version-semver",
                base + (ANN_ORIGIN_VERSION,),
                ann[ANN_ORIGIN_VERSION],
                "must be valid semver",
            )
        )
    if ANN_VLLM_BACKEND in ann and ann[ANN_VLLM_BACKEND].lower() not in ("mp", "ray"):
        errs.append(
            invalid(
                "dgd.vllm-executor-backend",
                base + (ANN_VLLM_BACKEND,),
                ann[ANN_VLLM_BACKEND],
                'must be "mp" or "ray"',
            )
        )
    if ANN_GROVE_UPDATE_STRATEGY in ann and ann[ANN_GROVE_UPDATE_STRATEGY] not in (
        "RollingRecreate",
        "OnDelete",
    ):
        errs.append(
            not_supported(
                "dgd.grove-update-strategy",
                base + (ANN_GROVE_UPDATE_STRATEGY,),
                ann[ANN_GROVE_UPDATE_STRATEGY],
                ["RollingRecreate", "OnDelete"],
            )
        )
    if ANN_DISCOVERY_MODE in ann and ann[ANN_DISCOVERY_MODE] not in ("pod", "container"):
        errs.append(
            not_supported(
                "dgd.discovery-mode",
                base + (ANN_DISCOVERY_MODE,),
                ann[ANN_DISCOVERY_MODE],
                ["pod", "container"],
            )
        )
    if ANN_WORKLOAD_PROVIDER in ann and ann[ANN_WORKLOAD_PROVIDER] not in ("component", "grove"):
        errs.append(
            not_supported(
                "dgd.workload-provider-value",
                base + (ANN_WORKLOAD_PROVIDER,),
                ann[ANN_WORKLOAD_PROVIDER],
                ["component", "grove"],
            )
        )
    if has_intra_pod_failover(dgd.get("spec")) and ann.get(ANN_DISCOVERY_MODE, "") != "container":
        errs.append(
            invalid(
                "dgd.intrapod-failover-discovery-mode",
                base + (ANN_DISCOVERY_MODE,),
                ann.get(ANN_DISCOVERY_MODE, ""),
                'must be "container" when intra-pod failover is configured',
            )
        )
    return errs


def power_limit(component: Any) -> tuple[str, bool]:
    pt = as_dict(component).get("podTemplate")
    if pt is None:
        return "", False
    ann = str_map(get(pt, "metadata", "annotations"))
    if ANN_POWER_LIMIT in ann:
        return ann[ANN_POWER_LIMIT], True
    return "", False


_ATOI = lazy(r"^[+-]?[0-9]+\Z")


def _validate_power(component: dict[str, Any], cpath: Path) -> list[Diagnostic]:
    value, has = power_limit(component)
    if not has:
        return []
    errs: list[Diagnostic] = []
    ppath = cpath + ("podTemplate", "metadata", "annotations", ANN_POWER_LIMIT)
    if not _ATOI.match(value) or not (-(2**63) <= int(value) < 2**63):
        errs.append(invalid("dgd.power-limit-value", ppath, value, "must be a decimal integer"))
    elif int(value) <= 0:
        errs.append(invalid("dgd.power-limit-value", ppath, value, "must be greater than zero"))
    dra_path = _dra_path(component, cpath)
    if dra_path is not None:
        errs.append(
            forbidden(
                "dgd.power-limit-dra",
                dra_path,
                f'cannot be combined with annotation "{ANN_POWER_LIMIT}": power-aware planning does not '
                "support DRA-backed device allocation",
            )
        )
    return errs


def _dra_path(component: dict[str, Any], cpath: Path) -> Path | None:
    if gms(component) is not None or get(component, "experimental", "gpuMemoryService") is not None:
        return cpath + ("experimental", "gpuMemoryService")
    pt = component.get("podTemplate")
    if pt is None:
        return None
    for key in ("containers", "initContainers"):
        for i, c in enumerate(as_list(get(pt, "spec", key))):
            if as_list(get(c, "resources", "claims")):
                return cpath + ("podTemplate", "spec", key, i, "resources", "claims")
    return None


def _dns1123_subdomain_errors(value: str) -> list[str]:
    errs = []
    if len(value) > 253:
        errs.append("must be no more than 253 characters")
    if not re.match(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z", value):
        errs.append(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
            "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            r"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        )
    return errs


class _Topology:
    def __init__(self, name: str, levels: tuple[str, ...]) -> None:
        self.name = name
        self.index = {d: i for i, d in enumerate(levels)}
        self.domains = sorted(levels)


def _read_topology(settings: AdmissionSettings, name: str) -> tuple[_Topology | None, str | None]:
    """(info, error detail). Unknown cluster state (``cluster_topologies is None``) → (None, None)."""
    if settings.cluster_topologies is None:
        return None, None
    levels = settings.cluster_topologies.get(name)
    if levels is None:
        return None, "references a ClusterTopologyBinding resource that was not found"
    return _Topology(name, tuple(levels)), None


def validate_dgd(
    dgd: dict[str, Any], settings: AdmissionSettings, *, check_runtime_version: bool = True
) -> list[Diagnostic]:
    errs = validate_object_meta(dgd)
    pathway, requirement = grove_pathway(settings, dgd)
    provider = str_map(get(dgd, "metadata", "annotations")).get(ANN_WORKLOAD_PROVIDER, "")
    name = as_str(get(dgd, "metadata", "name"))
    generation = as_int(get(dgd, "metadata", "generation")) or 0
    spec = as_dict(dgd.get("spec"))
    sp: Path = ("spec",)
    ctx = Ctx(
        "dgd",
        settings,
        grove_pathway=pathway,
        validate_inference_pool=True,
        provider_overrides_supported=True,
        workload_provider=provider,
        check_runtime_version=check_runtime_version,
    )

    if spec.get("providerOverride") is not None:
        errs += validate_provider_override(
            ctx, spec.get("providerOverride"), sp + ("providerOverride",), SCOPE_ROOT, None
        )
    if as_str(spec.get("priorityClassName")) and not pathway:
        errs.append(forbidden("dgd.priority-class-grove", sp + ("priorityClassName",), requirement))

    components = [c if isinstance(c, dict) else {} for c in as_list(spec.get("components"))]
    if not components:
        errs.append(
            required("dgd.components-required", sp + ("components",), "must have at least one component")
        )
    backend = as_str(spec.get("backendFramework"))
    for i, comp in enumerate(components):
        cpath = sp + ("components", i)
        cname = as_str(comp.get("name"))
        if pathway:
            pcs = pcs_name_for_dgd(name, components)
            length = len(pcs) + len(cname.lower())
            detail = "PCS name + component name"
            if uses_pcsg(comp):
                longest = longest_podclique_name(comp)
                length += len(longest)
                detail = f'PCS name + PCSG name + longest PodClique name "{longest}"'
            if length > MAX_COMBINED_GROVE_NAME:
                errs.append(
                    invalid(
                        "dgd.grove-name-length",
                        cpath + ("name",),
                        cname,
                        f"combined resource name length {length} exceeds the {MAX_COMBINED_GROVE_NAME}-character "
                        f'pod-name limit ({detail}); shorten DynamoGraphDeployment name "{name}" or component name "{cname}"',
                    )
                )
        g = gms(comp)
        if g is not None and effective_mode(g.get("mode")) == GMS_INTER:
            mpath = cpath + ("experimental", "gpuMemoryService", "mode")
            if not pathway:
                errs.append(forbidden("dgd.inter-pod-gms-grove", mpath, requirement))
            if backend != "vllm":
                errs.append(
                    invalid(
                        "dgd.inter-pod-gms-vllm",
                        mpath,
                        as_str(g.get("mode")),
                        "the inter-pod GMS layout is currently supported only for vLLM (detected backend: "
                        f"{backend or '<unset>'})",
                    )
                )
        errs += _validate_power(comp, cpath)
        errs += validate_elastic_ep(ctx, backend, comp, cpath)
        errs += validate_shared_spec(ctx, comp, cpath)

    restart = spec.get("restart")
    if isinstance(restart, dict):
        errs += _validate_restart(restart, sp + ("restart",), components)

    # Topology.
    tc = spec.get("topologyConstraint")
    tc = tc if isinstance(tc, dict) else None
    has_component_tc = any(c.get("topologyConstraint") is not None for c in components)
    if tc is not None or has_component_tc:
        errs += _topology_composition(spec, components, provider)
        cpath_t = sp + ("topologyConstraint",)
        if tc is None:
            errs.append(
                required(
                    "dgd.topology-spec-required",
                    cpath_t,
                    "is required when any component topology constraint is set",
                )
            )
        else:
            if as_str(tc.get("packDomain")) == "" and not has_component_tc:
                errs.append(
                    required(
                        "dgd.topology-pack-domain-required",
                        cpath_t + ("packDomain",),
                        "is required when no component topologyConstraint is set",
                    )
                )
            info = None
            ctn = as_str(tc.get("clusterTopologyName"))
            if ctn and generation <= 1 and pathway:
                info, read_err = _read_topology(settings, ctn)
                if read_err:
                    errs.append(
                        invalid("dgd.topology-binding", cpath_t + ("clusterTopologyName",), ctn, read_err)
                    )
            pack = as_str(tc.get("packDomain"))
            if info is not None and pack and pack not in info.index:
                errs.append(
                    invalid(
                        "dgd.topology-domain",
                        cpath_t + ("packDomain",),
                        pack,
                        f'does not exist in ClusterTopologyBinding "{info.name}"; available domains: {go_list(info.domains)}',
                    )
                )
            for i, comp in enumerate(components):
                ctc = comp.get("topologyConstraint")
                if ctc is None or info is None:
                    continue
                dom = as_str(as_dict(ctc).get("packDomain"))
                ppath = sp + ("components", i, "topologyConstraint", "packDomain")
                if dom not in info.index:
                    errs.append(
                        invalid(
                            "dgd.topology-domain",
                            ppath,
                            dom,
                            f'does not exist in ClusterTopology "{info.name}"; available domains: {go_list(info.domains)}',
                        )
                    )
                elif pack and pack in info.index and info.index[dom] < info.index[pack]:
                    errs.append(
                        invalid(
                            "dgd.topology-narrower",
                            ppath,
                            dom,
                            f'must be equal to or narrower than the deployment-level domain "{pack}"',
                        )
                    )

    kv = get(spec, "experimental", "kvTransferPolicy")
    if isinstance(kv, dict) and as_str(kv.get("clusterTopologyName")):
        kp: Path = sp + ("experimental", "kvTransferPolicy")
        ctn = as_str(kv.get("clusterTopologyName"))
        kerrs: list[Diagnostic] = []
        dns = _dns1123_subdomain_errors(ctn)
        if dns:
            kerrs.append(
                invalid("dgd.kv-transfer-topology-name", kp + ("clusterTopologyName",), ctn, "; ".join(dns))
            )
        if not pathway:
            kerrs.append(forbidden("dgd.kv-transfer-grove", kp + ("clusterTopologyName",), requirement))
        if not kerrs and generation <= 1:
            info, read_err = _read_topology(settings, ctn)
            if read_err:
                kerrs.append(invalid("dgd.kv-transfer-binding", kp + ("clusterTopologyName",), ctn, read_err))
            elif info is not None:
                dom = as_str(kv.get("domain"))
                if dom not in info.index:
                    kerrs.append(
                        invalid(
                            "dgd.kv-transfer-domain",
                            kp + ("domain",),
                            dom,
                            f'does not exist in ClusterTopologyBinding "{info.name}"; available domains: {go_list(info.domains)}',
                        )
                    )
        errs += kerrs
    return errs


def _override_writes_topology(override: Any, provider: str, scope: str, component: Any) -> bool:
    if not isinstance(override, dict):
        return False
    target = as_str(override.get("target"))
    if target == "":
        t, err = expected_target(provider, as_str(override.get("apiVersion")), scope, component)
        if err is not None or t is None:
            return False
        target = t
    return writes_grove_topology(target, override.get("value"))


def _topology_composition(
    spec: dict[str, Any], components: list[dict[str, Any]], provider: str
) -> list[Diagnostic]:
    if provider != "grove":
        return []
    rid = "dgd.topology-provider-conflict"
    errs: list[Diagnostic] = []
    if _override_writes_topology(spec.get("providerOverride"), provider, SCOPE_ROOT, None):
        errs.append(forbidden(rid, ("spec", "providerOverride", "value"), TOPOLOGY_COMPOSITION))
    for i, comp in enumerate(components):
        cpath: Path = ("spec", "components", i)
        if _override_writes_topology(comp.get("providerOverride"), provider, SCOPE_COMPONENT, comp):
            errs.append(forbidden(rid, cpath + ("providerOverride", "value"), TOPOLOGY_COMPOSITION))
        mn = comp.get("multinode")
        if not isinstance(mn, dict):
            continue
        for role, scope in (("leader", SCOPE_LEADER), ("worker", SCOPE_WORKER)):
            if _override_writes_topology(get(mn, role, "providerOverride"), provider, scope, comp):
                errs.append(
                    forbidden(
                        rid, cpath + ("multinode", role, "providerOverride", "value"), TOPOLOGY_COMPOSITION
                    )
                )
    return errs


def _validate_restart(
    restart: dict[str, Any], path: Path, components: list[dict[str, Any]]
) -> list[Diagnostic]:
    strategy = restart.get("strategy")
    if not isinstance(strategy, dict):
        return []
    order = as_list(strategy.get("order"))
    if not order:
        return []
    opath = path + ("strategy", "order")
    if strategy.get("type") == "Parallel":
        return [
            forbidden("dgd.restart-order-parallel", opath, "cannot be specified when strategy is parallel")
        ]
    names = {as_str(c.get("name")) for c in components}
    errs: list[Diagnostic] = []
    unique: list[Any] = []
    for x in order:
        if x not in unique:
            unique.append(x)
    if len(unique) != len(order):
        errs.append(invalid("dgd.restart-order-unique", opath, order, "must be unique"))
    if len(unique) != len(names):
        errs.append(
            invalid(
                "dgd.restart-order-count",
                opath,
                order,
                "must have the same number of unique components as the deployment",
            )
        )
    for i, x in enumerate(order):
        if not isinstance(x, str) or x not in names:
            errs.append(not_supported("dgd.restart-order-unknown", opath + (i,), x, sorted(names)))
    return errs
