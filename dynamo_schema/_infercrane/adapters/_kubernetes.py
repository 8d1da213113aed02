"""``kubernetes`` adapter: a Deployment + Service owner set, or one KServe InferenceService.

Upstream: ``internal/provision/kubernetes.go@94697bc`` (naming, labels, annotations, validation,
manifest shape) updated by the newer tests ``kubernetes_test.go@64491a4`` (positional ``serve <model>``
argv, ``VLLM_API_KEY`` from the worker Secret, exact ``resources.gpu_count``, ``command``/``args`` split for
portable workloads, read-only artifact PVC at ``/models``). A verified PVC comes from
``provider_state["persistentvolumeclaim"]`` (one PVC or a list); a provider state without the mapped claim
fails closed before anything is applied; without any provider state a mapped claim is trusted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..._k8s._gofmt import go_json, go_quote
from .. import _contracts as c
from .._common import (
    RenderedArtifact,
    Replica,
    adapter_error,
    artifact_cache_policy,
    artifact_runtime_supported,
    expand,
    mapped_artifact,
    replica_artifact,
)
from .._settings import valid_dns_label_strict
from ._protocol import PartRenderer

name = "kubernetes"
cloud = "kubernetes"
FIELD_MANAGER = "infercrane-provider-v1"


def _valid_secret_key(value: str) -> bool:
    if not value or len(value) > 253 or value[0] in ".-_":
        return False
    return all(ch.isascii() and (ch.isalnum() or (ch in ".-_" and i < len(value) - 1)) for i, ch in enumerate(value))


def validate_config(s: Mapping[str, Any]) -> None:
    if not all(s.get(k) for k in ("Namespace", "Context", "ServiceAccount", "WorkerSecretName", "WorkerSecretKey",
                                  "GPUResource", "GPUProductLabel")):
        raise adapter_error(name, "Kubernetes context, namespace, service account, worker Secret name/key, GPU resource, "
                                  "and GPU product label are required")
    if s.get("WorkloadAPI") not in ("deployment", "kserve"):
        raise adapter_error(name, "Kubernetes workload API must be deployment or kserve")
    for value in (s["Namespace"], s["ServiceAccount"], s["WorkerSecretName"]):
        if not valid_dns_label_strict(str(value)):
            raise adapter_error(name, f"invalid Kubernetes identifier {go_quote(str(value))}")
    if not _valid_secret_key(str(s["WorkerSecretKey"])):
        raise adapter_error(name, f"invalid Kubernetes Secret key {go_quote(str(s['WorkerSecretKey']))}")


def validate(r: Replica, s: Mapping[str, Any]) -> None:
    validate_config(s)
    if not r.external_key or len(r.external_key) > 253 or not r.model or r.cloud != "kubernetes" or not r.gpu:
        raise adapter_error(name, "Kubernetes replica requires bounded external key, model, cloud kubernetes, and GPU")
    if artifact_cache_policy(s) == "required" and not artifact_runtime_supported(r):
        raise adapter_error(name, "Kubernetes artifact cache is qualified only for vLLM and SGLang workloads",
                            ("runtime", "engine"))
    if r.has_workload:
        problem = c.workload_validate(r.workload)
        if problem:
            raise adapter_error(name, "portable workload: " + problem[0], ("runtime", "workload") + problem[1])
    elif not c.validate_image(str(s.get("ImageDigest") or "")):
        raise adapter_error(name, "Kubernetes workload image must be pinned by sha256 digest")


def external_key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def resource_name(key: str) -> str:
    return "infercrane-" + external_key_hash(key)


def intent_hash(r: Replica, s: Mapping[str, Any]) -> str:
    """``Kubernetes.intentHash`` (@94697bc field set)."""
    body = {
        "Spec": r.go_json(), "Namespace": s.get("Namespace", ""), "WorkloadAPI": s.get("WorkloadAPI", ""),
        "ServiceAccount": s.get("ServiceAccount", ""), "WorkerSecret": s.get("WorkerSecretName", ""),
        "WorkerKey": s.get("WorkerSecretKey", ""), "ImageDigest": s.get("ImageDigest", ""),
        "GPUResource": s.get("GPUResource", ""), "GPULabel": s.get("GPUProductLabel", ""),
    }
    return "sha256:" + hashlib.sha256(go_json(body).encode()).hexdigest()


def _observed_claim(state: Mapping[str, Any], claim: str) -> Mapping[str, Any] | None:
    """The PVC named ``claim`` in ``provider_state["persistentvolumeclaim"]`` (one object or a list)."""
    observed = state.get("persistentvolumeclaim")
    items = observed if isinstance(observed, list) else [observed] if isinstance(observed, Mapping) else []
    return next((o for o in items if isinstance(o, Mapping) and o.get("name") == claim), None)


def _artifact_claim(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None) -> str:
    claim = mapped_artifact(name, r, s, artifact_cache_policy(s), "ArtifactPVCs",
                            "Kubernetes artifact cache requires a verified PVC for immutable model")
    if not claim:
        return ""
    if state is not None:
        observed = _observed_claim(state, str(claim))
        if observed is None:
            # the claim lookup (kubectl get) fails before anything is applied; kubectl failures are
            # reported as "kubectl request failed" (Kubernetes.run)
            raise adapter_error(name, "verify Kubernetes artifact PVC: kubectl request failed")
        digest = c.model_identity_digest(r.identity)
        annotations = observed.get("annotations") or {}
        if (observed.get("name") != claim or observed.get("namespace") != s.get("Namespace")
                or annotations.get("infercrane.dev/model-identity-digest") != digest
                or "ReadOnlyMany" not in (observed.get("accessModes") or []) or observed.get("phase") != "Bound"):
            raise adapter_error(name, f"Kubernetes artifact PVC {claim} is not bound, read-only, and bound to immutable "
                                      f"model identity digest {digest}")
    return str(claim)


def objects(r: Replica, s: Mapping[str, Any], claim: str = "") -> list[dict[str, Any]]:
    key = r.external_key
    rname = resource_name(key)
    port = (int(r.workload["port"]) if r.has_workload else r.port) or 8000
    container: dict[str, Any] = {"name": "runtime", "imagePullPolicy": "IfNotPresent"}
    if r.has_workload:
        argv = [expand(a, r.model, r.model_revision, port).replace("${WORKER_API_KEY}", "$(INFERCRANE_WORKER_API_KEY)")
                for a in list(r.workload["command"]) + list(r.runtime_args)]
        container["image"] = r.workload["image"]
        container["command"] = argv[:1]
        container["args"] = argv[1:]
        readiness, grace = r.workload["readiness_path"], int(r.workload["shutdown_grace_seconds"])
    else:
        args = ["serve", r.model, "--host", "0.0.0.0", "--port", str(port)]
        if r.model_revision:
            args += ["--revision", r.model_revision]
        container["image"] = s.get("ImageDigest")
        container["args"] = args + list(r.runtime_args)
        readiness, grace = "/health", 30
    secret_ref = {"secretKeyRef": {"name": s.get("WorkerSecretName"), "key": s.get("WorkerSecretKey")}}
    env: list[dict[str, Any]] = [{"name": "INFERCRANE_WORKER_API_KEY", "valueFrom": secret_ref},
                                 {"name": "VLLM_API_KEY", "valueFrom": secret_ref}]
    gpus = str(r.gpu_count or 1)
    container.update({
        "ports": [{"name": "http", "containerPort": port}],
        "env": env,
        "readinessProbe": {"httpGet": {"path": readiness, "port": "http"}, "periodSeconds": 5, "timeoutSeconds": 2,
                           "failureThreshold": 12},
        "resources": {"limits": {s["GPUResource"]: gpus}, "requests": {s["GPUResource"]: gpus}},
        "securityContext": {"allowPrivilegeEscalation": False},
    })
    pod: dict[str, Any] = {"serviceAccountName": s.get("ServiceAccount"), "terminationGracePeriodSeconds": grace,
                           "containers": [container], "nodeSelector": {s["GPUProductLabel"]: r.gpu}}
    if claim:
        env += [{"name": "HF_HOME", "value": "/models/huggingface"}, {"name": "HF_HUB_OFFLINE", "value": "1"},
                {"name": "TRANSFORMERS_OFFLINE", "value": "1"}]
        container["volumeMounts"] = [{"name": "model-cache", "mountPath": "/models", "readOnly": True}]
        pod["volumes"] = [{"name": "model-cache", "persistentVolumeClaim": {"claimName": claim, "readOnly": True}}]
    labels = {"app.kubernetes.io/name": "infercrane-runtime", "app.kubernetes.io/instance": rname,
              "app.kubernetes.io/managed-by": "infercrane", "infercrane.dev/external-key-hash": external_key_hash(key)}
    annotations = {"infercrane.dev/external-key": key, "infercrane.dev/provider-contract": "infercrane.provider/v1",
                   "infercrane.dev/intent-hash": intent_hash(r, s)}
    metadata = {"name": rname, "namespace": s.get("Namespace"), "labels": labels, "annotations": annotations}
    if s.get("WorkloadAPI") == "kserve":
        kmeta = dict(metadata, annotations=dict(annotations, **{"serving.kserve.io/deploymentMode": "Standard"}))
        predictor = {"minReplicas": 1, "maxReplicas": 1, "serviceAccountName": s.get("ServiceAccount"),
                     "nodeSelector": {s["GPUProductLabel"]: r.gpu}, "containers": [container]}
        if claim:
            predictor["volumes"] = pod["volumes"]
        return [{"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService", "metadata": kmeta,
                 "spec": {"predictor": predictor}}]
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": metadata,
                  "spec": {"replicas": 1, "strategy": {"type": "Recreate"}, "progressDeadlineSeconds": 1800,
                           "selector": {"matchLabels": {"app.kubernetes.io/instance": rname}},
                           "template": {"metadata": {"labels": labels}, "spec": pod}}}
    service = {"apiVersion": "v1", "kind": "Service", "metadata": metadata,
               "spec": {"selector": {"app.kubernetes.io/instance": rname},
                        "ports": [{"name": "http", "port": port, "targetPort": "http"}]}}
    return [deployment, service]


def check(s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    validate_config(s)
    if s.get("WorkloadAPI") == "kserve" and state is not None and not state.get("kserve_crd_installed"):
        # Kubernetes.Check discovers the serving.kserve.io API group before anything else
        raise adapter_error(name, "discover KServe API: kubectl request failed", wrap=None)


def render(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    validate(r, s)
    claim = _artifact_claim(r, s, state)
    objs = objects(r, s, claim)
    api = s.get("WorkloadAPI")
    body: Any = objs[0] if api == "kserve" else {"apiVersion": "v1", "kind": "List", "items": objs}
    rname = resource_name(r.external_key)
    port = (int(r.workload["port"]) if r.has_workload else r.port) or 8000
    endpoint = "" if api == "kserve" else f"http://{rname}.{s.get('Namespace')}.svc:{port}"
    out = [RenderedArtifact(f"{o['kind']}/{rname}", "object", o, description="Kubernetes object") for o in objs]
    out.append(RenderedArtifact("manifest.json", "text", go_json(body, sort_keys=True), "application/json",
                                "JSON of the applied objects (kubectl apply --server-side -f)"))
    out.append(replica_artifact(f"kubernetes:{api}:{s.get('Namespace')}/{rname}", r.external_key, endpoint=endpoint,
                                extra={"apply": ["kubectl", "--context", s.get("Context"), "--namespace", s.get("Namespace"),
                                                 "apply", "--server-side", "--field-manager=" + FIELD_MANAGER,
                                                 "--validate=strict", "-f", "manifest.json"]}))
    return out


#: No piece of the output renders on its own: upstream ``Kubernetes.manifest`` builds the whole ``v1 List`` (Deployment and Service, or the
#: InferenceService) at once and tests only that.
#: ``render_part`` refuses every part name for this adapter (rule ``infercrane.adapter.part``).
PARTS: dict[str, PartRenderer] = {}
