"""The v1alpha1 webhook of releases 0.8 – 1.2: what DGD services and DCDs share (``SharedSpecValidator``).

Follows ``internal/webhook/validation/shared.go`` at each release's commit (crds-history/SOURCE.md). These
webhooks return plain Go errors, not field errors: the message is the error text as upstream words it
(it names the field itself), the diagnostic's path is the field it names (for the location). A validator
stops at its first failing check (``return nil, err``); checks that join their errors (``errors.Join``)
give one diagnostic per joined error. Warnings are only returned when nothing failed.
"""

from __future__ import annotations

from typing import Any, Callable

from ..._core._consts import ANN_VLLM_BACKEND
from ..._core._diagnostics import Diagnostic, Path
from ..._k8s._gofmt import go_quote
from .._common import as_dict, as_int, as_list, as_str, get, str_map

Errs = list[Diagnostic]
INFERENCE_POOL_GROUP = "inference.networking.k8s.io"  # internal/dynamo/epp: gaiev1.GroupName
FRONTEND_SIDECAR_CONTAINER = "sidecar-frontend"  # consts.FrontendSidecarContainerName
GMS_INTRA, GMS_INTER = "intraPod", "interPod"  # v1alpha1 GMSModeIntraPod / GMSModeInterPod
_WORKERS = ("worker", "prefill", "decode")


def release_key(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in release.split("."))


def since(release: str, first: str) -> bool:
    """Whether ``release`` has what ``first`` introduced."""
    return release_key(release) >= release_key(first)


def err(rule: str, path: Path, message: str) -> Diagnostic:
    return Diagnostic(rule, tuple(path), message)


def first_failure(*steps: Callable[[], Errs]) -> Errs:
    """The errors of the first step that fails (a Go validator's ``if err := ...; err != nil { return }``)."""
    for step in steps:
        out = step()
        if out:
            return out
    return []


def go_atoi(value: str) -> int | None:
    """``strconv.Atoi``: an optional sign and decimal digits, within int64."""
    import re

    if not re.fullmatch(r"[+-]?[0-9]+", value):
        return None
    n = int(value)
    return n if -(2**63) <= n < 2**63 else None


def gpu_count(svc: dict[str, Any]) -> tuple[int, str | None]:
    """``parseGPUCount`` of the v1alpha1 ``resources`` (limits first, then requests): (count, Atoi error)."""
    res = as_dict(svc.get("resources"))
    text = as_str(get(res, "limits", "gpu")) or as_str(get(res, "requests", "gpu"))
    if not text:
        return 0, None
    n = go_atoi(text)
    if n is None:
        import re

        why = "value out of range" if re.fullmatch(r"[+-]?[0-9]+", text) else "invalid syntax"
        return 0, f"invalid value {go_quote(text)}: strconv.Atoi: parsing {go_quote(text)}: {why}"
    return n, None


def gms_enabled(svc: dict[str, Any]) -> bool:
    return as_dict(svc.get("gpuMemoryService")).get("enabled") is True


def is_inter_pod_gms(svc: dict[str, Any]) -> bool:
    """``IsInterPodGMSEnabled`` (1.1 on): enabled with mode interPod."""
    return gms_enabled(svc) and as_dict(svc.get("gpuMemoryService")).get("mode") == GMS_INTER


def is_inter_pod_failover(svc: dict[str, Any]) -> bool:
    fo = as_dict(svc.get("failover"))
    return fo.get("enabled") is True and fo.get("mode") == GMS_INTER


def node_count(svc: dict[str, Any]) -> int:
    """``GetNumberOfNodes``: ``multinode.nodeCount`` (0 when absent in the object), 1 without multinode."""
    mn = svc.get("multinode")
    if not isinstance(mn, dict):
        return 1
    return as_int(mn.get("nodeCount")) or 0


def dynamo_namespace(release: str, global_ns: Any, k8s_namespace: str, dgd_name: str) -> str:
    """``ComputeDynamoNamespace``: ``dynamo`` for a global namespace, else ``{namespace}-{dgd}`` (dots of the DGD
    name replaced by ``-`` from 1.0 on)."""
    if global_ns is True:
        return "dynamo"
    return f"{k8s_namespace}-{dgd_name.replace('.', '-') if since(release, '1.0') else dgd_name}"


def _dns_label(value: str) -> list[str]:
    from ..._k8s._names import dns1123_label_errors

    return dns1123_label_errors(value)


class Shared:
    """``SharedSpecValidator`` for one service (DGD: ``spec.services[NAME]``) or a DCD (``spec``)."""

    def __init__(self, kind: str, release: str, svc: dict[str, Any], path: Path, go_path: str,
                 dynamo_ns: str, inference_pool: bool | None) -> None:
        self.kind, self.release, self.svc, self.path, self.go = kind, release, svc, path, go_path
        self.dynamo_ns = dynamo_ns
        self.inference_pool = inference_pool  # None: the validator has no manager (DCD): no API check

    def rid(self, name: str) -> str:
        return f"{self.kind}.{name}"

    def validate(self) -> tuple[Errs, Errs]:
        """(errors, warnings) in upstream's order."""
        r, svc, go = self.release, self.svc, self.go
        warnings: Errs = []
        dns = svc.get("dynamoNamespace")
        if isinstance(dns, str) and dns:
            warnings.append(Diagnostic(
                self.rid("v1alpha1-dynamo-namespace-deprecated"), self.path + ("dynamoNamespace",),
                f"{go}.dynamoNamespace is deprecated and ignored. Value '{dns}' will be replaced with "
                f"'{self.dynamo_ns}'. Remove this field from your configuration", "warning"))
        steps: list[Callable[[], Errs]] = [self._replicas, self._ingress, self._volume_mounts]
        if since(r, "1.2"):
            steps += [self._checkpoint, self._gms_client_names]
        steps.append(self._shared_memory)
        errors = first_failure(*steps)
        if errors:
            return errors, []
        if svc.get("autoscaling") is not None:
            warnings.append(Diagnostic(
                self.rid("v1alpha1-autoscaling-deprecated"), self.path + ("autoscaling",),
                f"{go}.autoscaling is deprecated and ignored. Use DynamoGraphDeploymentScalingAdapter with HPA, "
                "KEDA, or Planner for autoscaling instead. See docs/kubernetes/autoscaling.md", "warning"))
        steps = []
        if since(r, "1.0"):
            steps += [self._frontend_sidecar, self._annotations]
        if since(r, "0.9"):
            steps.append(self._epp)
        if since(r, "1.0"):
            steps += [self._gms, self._failover]
        if since(r, "1.2"):
            steps.append(self._snapshot_gms)
        errors = first_failure(*steps)
        return (errors, []) if errors else ([], warnings)

    def _replicas(self) -> Errs:
        n = self.svc.get("replicas")
        if isinstance(n, int) and not isinstance(n, bool) and n < 0:
            return [err(self.rid("v1alpha1-replicas-non-negative"), self.path + ("replicas",),
                        f"{self.go}.replicas must be non-negative")]
        return []

    def _ingress(self) -> Errs:
        ing = self.svc.get("ingress")
        if isinstance(ing, dict) and ing.get("enabled") is True and not as_str(ing.get("host")):
            return [err(self.rid("v1alpha1-ingress-host"), self.path + ("ingress", "host"),
                        f"{self.go}.ingress.host is required when ingress is enabled")]
        return []

    def _volume_mounts(self) -> Errs:
        for i, vm in enumerate(as_list(self.svc.get("volumeMounts"))):
            vm = as_dict(vm)
            if vm.get("useAsCompilationCache") is not True and not as_str(vm.get("mountPoint")):
                return [err(self.rid("v1alpha1-volume-mount-point"), self.path + ("volumeMounts", i, "mountPoint"),
                            f"{self.go}.volumeMounts[{i}].mountPoint is required when useAsCompilationCache is false")]
        return []

    def _checkpoint(self) -> Errs:
        """``validateCheckpointConfig`` (1.2)."""
        ck = self.svc.get("checkpoint")
        if not isinstance(ck, dict):
            return []
        go, p = self.go + ".checkpoint", self.path + ("checkpoint",)
        job = ck.get("job")
        rid = self.rid("v1alpha1-checkpoint-job")
        if job is not None and as_str(ck.get("checkpointRef")):
            return [err(rid, p + ("job",), f"{go}.job cannot be set when checkpointRef is specified")]
        if job is not None and as_str(ck.get("mode")) not in ("", "Auto"):
            return [err(rid, p + ("job",), f"{go}.job can only be set in Auto mode")]
        target = as_str(ck.get("targetContainerName"))
        if target:
            errs = _dns_label(target)
            if errs:
                return [err(self.rid("v1alpha1-checkpoint-container-name"), p + ("targetContainerName",),
                            f"{go}.targetContainerName {go_quote(target)} is not a valid Kubernetes container "
                            f"name: {'; '.join(errs)}")]
        if isinstance(job, dict):
            clients = as_list(job.get("gmsClientContainers"))
            gms = self.svc.get("gpuMemoryService")
            if clients:
                if not gms_enabled(self.svc):
                    return [err(self.rid("checkpoint-gms-client-containers"), p + ("job", "gmsClientContainers"),
                                f"{go}.job.gmsClientContainers requires gpuMemoryService to be enabled")]
                if as_dict(gms).get("mode") == GMS_INTER:
                    return [err(self.rid("checkpoint-gms-client-containers"), p + ("job", "gmsClientContainers"),
                                f"{go}.job.gmsClientContainers is only supported with gpuMemoryService.mode=IntraPod")]
            for i, name in enumerate(clients):
                errs = _dns_label(as_str(name))
                if errs:
                    return [err(self.rid("v1alpha1-checkpoint-container-name"), p + ("job", "gmsClientContainers", i),
                                f"{go}.job.gmsClientContainers[{i}] {go_quote(as_str(name))} is not a valid "
                                f"Kubernetes container name: {'; '.join(errs)}")]
        return []

    def _gms_client_names(self) -> Errs:
        """``validateGMSClientContainerNames`` (1.2)."""
        for i, name in enumerate(as_list(get(self.svc, "gpuMemoryService", "extraClientContainers"))):
            errs = _dns_label(as_str(name))
            if errs:
                return [err(self.rid("v1alpha1-gms-client-name"),
                            self.path + ("gpuMemoryService", "extraClientContainers", i),
                            f"{self.go}.gpuMemoryService.extraClientContainers[{i}] {go_quote(as_str(name))} is not a "
                            f"valid Kubernetes container name: {'; '.join(errs)}")]
        return []

    def _shared_memory(self) -> Errs:
        from ..._k8s._quantity import quantity_is_zero

        sm = self.svc.get("sharedMemory")
        if isinstance(sm, dict) and sm.get("disabled") is not True and quantity_is_zero(sm.get("size")):
            return [err(self.rid("v1alpha1-shared-memory-size"), self.path + ("sharedMemory", "size"),
                        f"{self.go}.sharedMemory.size is required when disabled is false")]
        return []

    def _frontend_sidecar(self) -> Errs:
        eps = self.svc.get("extraPodSpec")
        if self.svc.get("frontendSidecar") is None or not isinstance(eps, dict):
            return []
        for c in as_list(eps.get("containers")):
            if isinstance(c, dict) and c.get("name") == FRONTEND_SIDECAR_CONTAINER:
                return [err(self.rid("v1alpha1-frontend-sidecar-conflict"), self.path + ("frontendSidecar",),
                            f"{self.go}: cannot inject frontend sidecar: a container named "
                            f"{go_quote(FRONTEND_SIDECAR_CONTAINER)} already exists in extraPodSpec.containers")]
        return []

    def _annotations(self) -> Errs:
        ann = str_map(self.svc.get("annotations"))
        value = ann.get(ANN_VLLM_BACKEND)
        if value is not None and value.lower() not in ("mp", "ray"):
            return [err(self.rid("v1alpha1-vllm-executor-backend"), self.path + ("annotations", ANN_VLLM_BACKEND),
                        f"{self.go}.annotations[{ANN_VLLM_BACKEND}] has invalid value {go_quote(value)}: "
                        'must be "mp" or "ray"')]
        return []

    def _epp(self) -> Errs:
        """``validateEPPConfig`` (0.9)."""
        svc, go, p = self.svc, self.go, self.path
        if svc.get("componentType") != "epp":
            return []
        if self.inference_pool is False:
            return [err(self.rid("epp-inference-pool"), p + ("componentType",),
                        f"{go}: cannot deploy EPP component: InferencePool API group ({INFERENCE_POOL_GROUP}) is not "
                        "available in the cluster. EPP requires the Gateway API Inference Extension to be installed. "
                        "Please install the Gateway API Inference Extension before deploying EPP components")]
        if node_count(svc) > 1:
            return [err(self.rid("epp-multinode"), p + ("multinode",),
                        f"{go}: EPP component cannot be multinode (multinode field must be nil or nodeCount must be 1)")]
        n = svc.get("replicas")
        if isinstance(n, int) and not isinstance(n, bool) and n != 1:
            return [err(self.rid("epp-replicas"), p + ("replicas",),
                        f"{go}: EPP component must have exactly 1 replica (found {n} replicas)")]
        epp = svc.get("eppConfig")
        if not isinstance(epp, dict):
            return [err(self.rid("epp-config-required"), p + ("eppConfig",),
                        f"{go}.eppConfig is required for EPP components")]
        ref, inline = epp.get("configMapRef"), epp.get("config")
        if ref is None and inline is None:
            return [err(self.rid("v1alpha1-epp-config"), p + ("eppConfig",),
                        f"{go}.eppConfig: either configMapRef or config must be specified (no default configuration "
                        "provided)")]
        if ref is not None and inline is not None:
            return [err(self.rid("v1alpha1-epp-config"), p + ("eppConfig",),
                        f"{go}.eppConfig: configMapRef and config are mutually exclusive, only one can be specified")]
        if ref is not None and not as_str(as_dict(ref).get("name")):
            return [err(self.rid("epp-config-map-name"), p + ("eppConfig", "configMapRef", "name"),
                        f"{go}.eppConfig.configMapRef.name is required")]
        return []

    def _gms(self) -> Errs:
        """``validateGPUMemoryService`` (1.0; the inter-pod layout refused at 1.0 only)."""
        svc, go, p = self.svc, self.go + ".gpuMemoryService", self.path + ("gpuMemoryService",)
        if not gms_enabled(svc):
            return []
        if not since(self.release, "1.1") and as_dict(svc.get("gpuMemoryService")).get("mode") == GMS_INTER:
            return [err(self.rid("v1alpha1-gms-inter-pod"), p + ("mode",), f'{go}: mode "interPod" is not yet supported')]
        if svc.get("componentType") not in _WORKERS:
            return [err(self.rid("gms-component-type"), p,
                        f"{go}: GPU memory service is only supported for worker components (componentType must be "
                        "worker, prefill, or decode)")]
        n, bad = gpu_count(svc)
        if bad is not None or n < 1:
            return [err(self.rid("gms-gpu"), p, f"{go}: GPU memory service requires resources.limits.gpu >= 1")]
        return []

    def _failover(self) -> Errs:
        svc, go, p = self.svc, self.go, self.path + ("failover",)
        fo = svc.get("failover")
        if not isinstance(fo, dict) or fo.get("enabled") is not True:
            return []
        mode = as_str(fo.get("mode"))
        gms = as_dict(svc.get("gpuMemoryService"))
        gms_mode = as_str(gms.get("mode"))
        if not since(self.release, "1.1"):  # 1.0: one check at a time
            if not gms_enabled(svc):
                return [err(self.rid("failover-gms-required"), p,
                            f"{go}.failover: failover requires gpuMemoryService.enabled to be true")]
            if mode and gms_mode and mode != gms_mode:
                return [err(self.rid("failover-mode-match"), p + ("mode",),
                            f"{go}.failover: failover.mode {go_quote(mode)} must match gpuMemoryService.mode "
                            f"{go_quote(gms_mode)}")]
            if mode == GMS_INTER:
                return [err(self.rid("v1alpha1-failover-inter-pod"), p + ("mode",),
                            f'{go}.failover: mode "interPod" is not yet supported')]
            return []
        errs: Errs = []
        if mode == GMS_INTRA:
            if not gms_enabled(svc):
                errs.append(err(self.rid("failover-gms-required"), p,
                                f"{go}.failover: intraPod failover requires gpuMemoryService.enabled to be true"))
            elif gms_mode and gms_mode != GMS_INTRA:
                errs.append(err(self.rid("failover-mode-match"), p + ("mode",),
                                f"{go}.failover: failover.mode {go_quote(mode)} must match gpuMemoryService.mode "
                                f"{go_quote(gms_mode)}"))
            shadows = as_int(fo.get("numShadows")) or 0
            if shadows not in (0, 1):
                errs.append(err(self.rid("v1alpha1-failover-num-shadows"), p + ("numShadows",),
                                f"{go}.failover.numShadows={shadows} is invalid for mode={go_quote(GMS_INTRA)}: intraPod "
                                f"uses a fixed 1 primary + 1 shadow sidecar; use failover.mode={go_quote(GMS_INTER)} to "
                                "configure numShadows"))
        if mode == GMS_INTER:
            if not gms_enabled(svc):
                errs.append(err(self.rid("failover-gms-required"), p,
                                f"{go}.failover: interPod failover requires gpuMemoryService.enabled=true and "
                                f"gpuMemoryService.mode={go_quote(GMS_INTER)}"))
            elif gms_mode != GMS_INTER:
                errs.append(err(self.rid("failover-mode-match"), p + ("mode",),
                                f"{go}.failover: interPod failover requires gpuMemoryService.mode={go_quote(GMS_INTER)} "
                                f"(got {go_quote(gms_mode or '<unset>')})"))
            if (as_int(fo.get("numShadows")) or 0) < 1:
                errs.append(err(self.rid("v1alpha1-failover-num-shadows"), p + ("numShadows",),
                                f"{go}.failover.numShadows must be >= 1"))
            n, bad = gpu_count(svc)
            if bad is not None:
                errs.append(err(self.rid("failover-gpu"), self.path + ("resources", "limits", "gpu"),
                                f"{go}.resources.limits.gpu: {bad}"))
            elif n < 1:
                errs.append(err(self.rid("failover-gpu"), self.path + ("resources",),
                                f"{go}: GMS failover requires at least 1 GPU in resources.limits.gpu"))
            ctype = as_str(svc.get("componentType"))
            if ctype in ("epp", "frontend", "planner"):
                errs.append(err(self.rid("failover-component-type"), self.path + ("componentType",),
                                f"{go}: GMS failover is not supported for componentType {go_quote(ctype)}"))
        return errs

    def _snapshot_gms(self) -> Errs:
        """``checkpoint.ValidateGMSSnapshotGate`` (1.2; the operator's environment override is not modelled)."""
        if as_dict(self.svc.get("checkpoint")).get("enabled") is True and gms_enabled(self.svc):
            return [err(self.rid("checkpoint-compatibility"), self.path + ("checkpoint",),
                        f"{self.go}.checkpoint: GMS + Snapshot is temporarily disabled; disable gpuMemoryService or "
                        "enable the internal GMS + Snapshot gate")]
        return []
