"""Rules on preserved nvidia.com/v1alpha1 fields (``shared_v1alpha1.go``,
``dynamographdeployment_v1alpha1.go``).

Upstream reconstructs the v1alpha1 compatibility view of a v1beta1 object (from the conversion
annotations ``nvidia.com/dgd-spec`` / ``nvidia.com/dcd-spec``) and validates the alpha-only fields
when any is present. We reuse the project's converter (``dynamo_schema._convert._v1alpha1.to_v1alpha1``);
when it is unavailable or fails on malformed input these rules are skipped.

Paths point into the alpha view (``spec.services.<name>...``); messages that embed a path use the
Go rendering (``spec.services[worker]``).
"""

from __future__ import annotations

from ..._core._consts import ANN_VLLM_BACKEND
from ..._core._diagnostics import Diagnostic, Path
from ..._core._kinds import DCD, DGD
from .._common import as_dict, as_int, as_list, as_str, forbidden, get, invalid, required, str_map, warning
from ._shared import runtime_version_rules

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

FRONTEND_SIDECAR_CONTAINER = "sidecar-frontend"


def _alpha_view(obj: dict[str, Any]) -> dict[str, Any] | None:
    try:
        from ..._convert._v1alpha1 import alpha_by_content
    except ImportError:  # pragma: no cover - converter not installed
        return None
    try:
        alpha = alpha_by_content(obj)  # the render of the same object reuses this conversion
    except Exception:  # noqa: BLE001 - malformed input: the schema stage reports it
        return None
    return alpha if isinstance(alpha, dict) else None


def _has_service_compat(svc: Any, *, dgd: bool) -> bool:
    if not isinstance(svc, dict):
        return dgd and svc is None
    gms = svc.get("gpuMemoryService")
    return bool(
        (svc.get("ingress") is not None)
        or as_dict(svc.get("annotations"))
        or svc.get("dynamoNamespace") is not None
        or svc.get("autoscaling") is not None
        or as_list(svc.get("volumeMounts"))
        or (dgd and svc.get("sharedMemory") is not None)
        or svc.get("eppConfig") is not None
        or svc.get("frontendSidecar") is not None
        or svc.get("failover") is not None
        or (dgd and isinstance(gms, dict) and gms.get("enabled") is not True)
    )


def compute_dynamo_namespace(global_ns: Any, k8s_namespace: str, dgd_name: str) -> str:
    if global_ns is True:
        return "dynamo"
    return f"{k8s_namespace}-{dgd_name.replace('.', '-')}"


def _alpha_image(svc: Any) -> str:
    return as_str(get(svc, "extraPodSpec", "mainContainer", "image"))


def _runtime_version(
    prefix: str, svc: dict[str, Any], path: Path, allow_missing: bool, old: dict[str, Any] | None = None
) -> list[Diagnostic]:
    """The main-image / runtime-version-override rules; on update (``old`` given) only a removed
    image or a changed image/override is reported."""
    return runtime_version_rules(
        prefix, path, _alpha_image(svc), path + ("extraPodSpec", "mainContainer", "image"),
        as_str(svc.get("runtimeVersionOverride")), allow_missing,
        None if old is None else (_alpha_image(old), as_str(old.get("runtimeVersionOverride"))),
    )


def _shared(
    prefix: str,
    svc: dict[str, Any],
    path: Path,
    go_path: str,
    dynamo_ns: str,
    runtime_check: bool = False,
    allow_missing: bool = False,
) -> list[Diagnostic]:
    def rid(name: str) -> str:
        return f"{prefix}.v1alpha1-{name}"

    out: list[Diagnostic] = []
    ann = str_map(svc.get("annotations"))
    if ANN_VLLM_BACKEND in ann and ann[ANN_VLLM_BACKEND].lower() not in ("mp", "ray"):
        out.append(
            invalid(
                rid("vllm-executor-backend"),
                path + ("annotations", ANN_VLLM_BACKEND),
                ann[ANN_VLLM_BACKEND],
                'must be "mp" or "ray"',
            )
        )
    dns = svc.get("dynamoNamespace")
    if isinstance(dns, str) and dns:
        out.append(
            warning(
                rid("dynamo-namespace-deprecated"),
                path + ("dynamoNamespace",),
                f'{go_path}.dynamoNamespace is deprecated and ignored. Value "{dns}" will be replaced with '
                f'"{dynamo_ns}". Remove this field from your configuration',
            )
        )
    if svc.get("autoscaling") is not None:
        out.append(
            warning(
                rid("autoscaling-deprecated"),
                path + ("autoscaling",),
                f"{go_path}.autoscaling is deprecated and ignored. Use DynamoGraphDeploymentScalingAdapter "
                "with HPA, KEDA, or Planner for autoscaling instead. See docs/kubernetes/autoscaling.md",
            )
        )
    for i, vm in enumerate(as_list(svc.get("volumeMounts"))):
        vm = as_dict(vm)
        if vm.get("useAsCompilationCache") is not True and not as_str(vm.get("mountPoint")):
            out.append(
                required(
                    rid("volume-mount-point"),
                    path + ("volumeMounts", i, "mountPoint"),
                    "is required when useAsCompilationCache is false",
                )
            )
    ingress = svc.get("ingress")
    if isinstance(ingress, dict) and ingress.get("enabled") is True and not as_str(ingress.get("host")):
        out.append(
            required(rid("ingress-host"), path + ("ingress", "host"), "is required when ingress is enabled")
        )
    epp = svc.get("eppConfig")
    if isinstance(epp, dict) and (epp.get("configMapRef") is None) == (epp.get("config") is None):
        out.append(
            forbidden(
                rid("epp-config"), path + ("eppConfig",), "exactly one of configMapRef or config is required"
            )
        )
    eps = svc.get("extraPodSpec")
    if (
        svc.get("frontendSidecar") is not None
        and isinstance(eps, dict)
        and any(
            isinstance(c, dict) and c.get("name") == FRONTEND_SIDECAR_CONTAINER
            for c in as_list(eps.get("containers"))
        )
    ):
        out.append(
            forbidden(
                rid("frontend-sidecar-conflict"),
                path + ("frontendSidecar",),
                f'cannot inject frontend sidecar: a container named "{FRONTEND_SIDECAR_CONTAINER}" '
                "already exists in extraPodSpec.containers",
            )
        )
    fo = svc.get("failover")
    if isinstance(fo, dict) and fo.get("enabled") is True and fo.get("mode") == "intraPod":
        n = as_int(fo.get("numShadows")) or 0
        if n not in (0, 1):
            out.append(
                invalid(
                    rid("failover-num-shadows"),
                    path + ("failover", "numShadows"),
                    n,
                    'is invalid for mode="intraPod": intraPod uses a fixed 1 primary + 1 shadow sidecar; '
                    'use failover.mode="interPod" to configure numShadows',
                )
            )
    if runtime_check:
        out += _runtime_version(prefix, svc, path, allow_missing)
    return out


#: Conversion-annotation prefixes: an object carrying one has preserved v1alpha1 fields.
_PRESERVED_PREFIXES = ("nvidia.com/dgd-", "nvidia.com/dcd-")


def _descend(node: dict[str, Any], *steps: tuple[str, type]) -> Any:
    """Follow ``(key, type)`` steps down from ``node`` for the fast path's verdict: ``False`` when a
    step is absent (nothing there to convert), ``True`` when a value is not of its type (unsure: let the
    conversion decide), else the value reached (never a bool)."""
    value: Any = node
    for key, type_ in steps:
        value = value.get(key)
        if value is None:
            return False
        if not isinstance(value, type_):
            return True
    return value


def _mount_may_fail(mounts: Any) -> bool:
    """A container's ``volumeMounts`` as the converter flattens them (``mountPoint`` = ``mountPath``):
    whether one can lack its ``mountPoint`` (rule ``v1alpha1-volume-mount-point``)."""
    if mounts is None:
        return False
    if not isinstance(mounts, list):
        return True
    return any(not isinstance(m, dict) or not as_str(m.get("mountPath")) for m in mounts)


def _component_may_fire(comp: Any) -> bool:
    """Whether a rule of :func:`_shared` can fire on ``_convert._component_from_hub.comp_to_svc(comp)`` (no preserved
    fields). Conservative (True when unsure). Without a conversion annotation the converted service
    has no ``annotations``, ``dynamoNamespace``, ``autoscaling``, ``ingress`` or ``frontendSidecar``;
    what is left comes from ``eppConfig`` (copied), ``experimental.failover`` (``failover``) and the
    containers' volume mounts (``volumeMounts``; a ``compilationCache`` mount is flagged and never
    fails). ``sharedMemory`` and ``gpuMemoryService`` have no rule of their own."""
    if not isinstance(comp, dict):
        return True
    if comp.get("eppConfig") is not None:
        return True
    exp = comp.get("experimental")
    if exp is not None and (not isinstance(exp, dict) or exp.get("failover") is not None):
        return True
    containers = _descend(comp, ("podTemplate", dict), ("spec", dict), ("containers", list))
    if isinstance(containers, bool):
        return containers
    return any(not isinstance(c, dict) or _mount_may_fail(c.get("volumeMounts")) for c in containers)


def needs_alpha_view(obj: dict[str, Any]) -> bool:
    """Whether :func:`validate_preserved_alpha` can report anything on a v1beta1 DGD/DCD submitted
    as v1beta1, i.e. whether its v1alpha1 compatibility view is worth building.

    False only when nothing can fire: no conversion annotation (``nvidia.com/dgd-*``,
    ``nvidia.com/dcd-*``: the only source of the preserved alpha-only fields ``ingress``,
    ``annotations``, ``dynamoNamespace``, ``autoscaling``, ``pvcs``, ``frontendSidecar``), and no
    v1beta1 field a rule can fail on once converted (:func:`_component_may_fire`). Saves converting
    every plain v1beta1 object to v1alpha1; ``tests/admission/test_fast_paths.py`` checks the
    verdicts equal the full conversion's on the corpus and on generated objects."""
    meta = obj.get("metadata")
    anns = meta.get("annotations") if isinstance(meta, dict) else None
    if anns is not None and not isinstance(anns, dict):
        return True
    if anns and any(not isinstance(k, str) or k.startswith(_PRESERVED_PREFIXES) for k in anns):
        return True
    spec = _descend(obj, ("spec", dict))
    if isinstance(spec, bool):
        return spec
    if obj.get("kind") == "DynamoComponentDeployment":
        return _component_may_fire(spec)
    if "pvcs" in spec or "services" in spec:
        return True
    comps = _descend(spec, ("components", list))
    if isinstance(comps, bool):
        return comps
    return any(_component_may_fire(c) for c in comps)


def validate_preserved_alpha(obj: dict[str, Any], *, alpha_source: bool = False) -> list[Diagnostic]:
    """Rules 60–64 on the v1alpha1 compatibility view of a v1beta1 DGD or DCD.

    With ``alpha_source`` (the request was submitted as v1alpha1) the view is always validated and
    the runtime-version rule runs on the alpha fields (``extraPodSpec.mainContainer.image``).
    Without it, an object whose view cannot hold a compatibility field (:func:`needs_alpha_view`)
    is not converted at all.
    """
    kind = obj.get("kind")
    if kind not in (DGD, DCD):  # the kinds whose v1alpha1 webhooks differ
        return []
    if not alpha_source and not needs_alpha_view(obj):
        return []
    return _validate_view(obj, kind, alpha_source)


def _validate_view(obj: dict[str, Any], kind: Any, alpha_source: bool) -> list[Diagnostic]:
    """:func:`validate_preserved_alpha` on the converted view, always (the reference behaviour)."""
    alpha = _alpha_view(obj)
    if alpha is None:
        return []
    spec = as_dict(alpha.get("spec"))
    namespace = as_str(get(obj, "metadata", "namespace"))
    name = as_str(get(obj, "metadata", "name"))
    if kind == "DynamoGraphDeployment":
        services = as_dict(spec.get("services"))
        if (
            not alpha_source
            and not as_list(spec.get("pvcs"))
            and not any(_has_service_compat(s, dgd=True) for s in services.values())
        ):
            return []
        out: list[Diagnostic] = []
        for i, pvc in enumerate(as_list(spec.get("pvcs"))):
            if not as_str(as_dict(pvc).get("name")):
                out.append(required("dgd.v1alpha1-pvc-name", ("spec", "pvcs", i, "name"), "is required"))
        for svc_name in sorted(str(k) for k in services):
            svc = services[svc_name]
            if not isinstance(svc, dict):
                continue
            dns = compute_dynamo_namespace(svc.get("globalDynamoNamespace"), namespace, name)
            out += _shared(
                "dgd",
                svc,
                ("spec", "services", svc_name),
                f"spec.services[{svc_name}]",
                dns,
                runtime_check=alpha_source,
            )
        return out
    if not alpha_source and not _has_service_compat(spec, dgd=False):
        return []
    parent = ""
    for ref in as_list(get(obj, "metadata", "ownerReferences")):
        if isinstance(ref, dict) and ref.get("kind") == "DynamoGraphDeployment":
            parent = as_str(ref.get("name"))
            break
    dns = compute_dynamo_namespace(spec.get("globalDynamoNamespace"), namespace, parent)
    return _shared("dcd", spec, ("spec",), "spec", dns, runtime_check=alpha_source, allow_missing=True)


def validate_alpha_runtime_update(new: dict[str, Any], old: dict[str, Any]) -> list[Diagnostic]:
    """The v1alpha1-source runtime-version ratchet on UPDATE (``...SharedSpecUpdateV1alpha1``)."""
    nview, oview = _alpha_view(new), _alpha_view(old)
    if nview is None or oview is None:
        return []
    if new.get("kind") == "DynamoGraphDeployment":
        nsvc, osvc = as_dict(get(nview, "spec", "services")), as_dict(get(oview, "spec", "services"))
        out: list[Diagnostic] = []
        for name in sorted(str(k) for k in nsvc):
            if isinstance(nsvc[name], dict) and isinstance(osvc.get(name), dict):
                out += _runtime_version("dgd", nsvc[name], ("spec", "services", name), False, osvc[name])
        return out
    return _runtime_version("dcd", as_dict(nview.get("spec")), ("spec",), True, as_dict(oview.get("spec")))


__all__ = ["validate_alpha_runtime_update", "validate_preserved_alpha"]
