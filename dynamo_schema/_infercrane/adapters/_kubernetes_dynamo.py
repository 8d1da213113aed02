"""``kubernetes-dynamo`` adapter: one parent ``DynamoGraphDeployment`` (nvidia.com/v1beta1).

Upstream: ``internal/provision/kubernetes_dynamo.go@c2425ba`` (``validate``, ``validateConfig``,
``runtime``, ``manifest``, ``workerComponent``, ``intentHash``); tests
``kubernetes_dynamo_test.go@11890ae``. Per-worker GPUs are the pool ``tensor_parallelism``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..._k8s._gofmt import go_json, go_quote
from .. import _contracts as c
from .._common import RenderedArtifact, Replica, adapter_error, replica_artifact
from .._settings import valid_dns_label_strict, valid_dynamo_runtime_version
from ._kubernetes import external_key_hash, resource_name
from ._protocol import PartRenderer

name = "kubernetes-dynamo"
cloud = "kubernetes"
FIELD_MANAGER = "infercrane-dynamo-v1"


def _runtime_config(s: Mapping[str, Any], runtime: str) -> tuple[str, str]:
    if runtime == "vllm":
        return str(s.get("VLLMImageDigest") or ""), str(s.get("VLLMRuntimeVersion") or "")
    if runtime == "sglang":
        return str(s.get("SGLangImageDigest") or ""), str(s.get("SGLangRuntimeVersion") or "")
    return "", ""


def runtime_image(s: Mapping[str, Any], runtime: str) -> tuple[str, str]:
    image, version = _runtime_config(s, runtime)
    if runtime not in ("vllm", "sglang"):
        raise adapter_error(name, f"Dynamo runtime {go_quote(runtime)} is unsupported", ("runtime", "engine"))
    if not image or not version:
        raise adapter_error(name, f"Dynamo {runtime} runtime image and version are not configured")
    if not c.validate_image(image):
        raise adapter_error(name, f"Dynamo {runtime} runtime image must be pinned by sha256 digest")
    if not valid_dynamo_runtime_version(version):
        raise adapter_error(name, f"Dynamo {runtime} runtime version must be numeric MAJOR.MINOR.PATCH")
    return image, version


def validate_config(s: Mapping[str, Any]) -> None:
    if not all(s.get(k) for k in ("Context", "Namespace", "ServiceAccount", "GPUResource", "GPUProductLabel")):
        raise adapter_error(name, "Dynamo Kubernetes context, namespace, service account, GPU resource, and GPU product "
                                  "label are required")
    configured = 0
    for runtime in ("vllm", "sglang"):
        image, version = _runtime_config(s, runtime)
        if not image and not version:
            continue
        configured += 1
        runtime_image(s, runtime)
    if configured == 0:
        raise adapter_error(name, "Dynamo requires at least one complete vLLM or SGLang image digest and runtime version pair")
    for value in (s["Namespace"], s["ServiceAccount"]):
        if not valid_dns_label_strict(str(value)):
            raise adapter_error(name, f"invalid Kubernetes identifier {go_quote(str(value))}")
    secret = s.get("ModelSecretName") or ""
    if secret and not valid_dns_label_strict(str(secret)):
        raise adapter_error(name, f"invalid Kubernetes Secret name {go_quote(str(secret))}")


def validate(r: Replica, s: Mapping[str, Any]) -> None:
    validate_config(s)
    runtime_image(s, r.runtime)
    if not r.external_key or len(r.external_key) > 253 or not r.model or r.cloud != "kubernetes" or not r.gpu:
        raise adapter_error(name, "Dynamo graph requires bounded external key, model, cloud kubernetes, and GPU")
    if r.has_workload:
        raise adapter_error(name, "Dynamo graph uses its qualified runtime image and does not accept a portable workload "
                                  "override", ("runtime", "workload"))
    problem = c.topology_validate(r.serving, r.runtime, r.cloud, "kubernetes-dynamo", 1, 1)
    if problem:
        raise adapter_error(name, problem[0], problem[1])
    if c.topology_from(r.serving)["autoscaling"]["owner"] == "dynamo-planner":
        raise adapter_error(name, "Dynamo Planner intent is registered but not executable until DGDSA/Planner ownership "
                                  "is qualified", ("serving", "autoscaling", "owner"))


def intent_hash(r: Replica, s: Mapping[str, Any]) -> str:
    image, version = runtime_image(s, r.runtime)
    body = {"Spec": r.go_json(), "Namespace": s.get("Namespace", ""), "ServiceAccount": s.get("ServiceAccount", ""),
            "RuntimeImageDigest": image, "RuntimeVersion": version, "ModelSecretName": s.get("ModelSecretName") or "",
            "GPUResource": s.get("GPUResource", ""), "GPUProductLabel": s.get("GPUProductLabel", "")}
    return "sha256:" + hashlib.sha256(go_json(body).encode()).hexdigest()


def _worker(r: Replica, s: Mapping[str, Any], t: dict[str, Any], cname: str, ctype: str, pool: dict[str, int]) -> dict[str, Any]:
    image, version = runtime_image(s, r.runtime)
    tp = str(pool["tensor_parallelism"])
    if r.runtime == "vllm":
        args = ["--model", r.model, "--served-model-name", r.model]
        if r.model_revision:
            args += ["--revision", r.model_revision]
        args += ["--tensor-parallel-size", tp]
        if t["mode"] == "disaggregated":
            args += ["--disaggregation-mode", ctype, "--kv-transfer-config", '{"kv_connector":"NixlConnector","kv_role":"kv_both"}']
        if t["routing"] == "kv-aware":
            args += ["--kv-events-config",
                     '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:20080","enable_kv_cache_events":true}']
    else:
        args = ["--model-path", r.model, "--served-model-name", r.model, "--tp", tp, "--skip-tokenizer-init"]
        if r.model_revision:
            args += ["--revision", r.model_revision]
        if t["mode"] == "disaggregated":
            args += ["--disaggregation-mode", ctype, "--disaggregation-transfer-backend", "nixl",
                     "--disaggregation-bootstrap-port", "12345", "--host", "0.0.0.0"]
        if t["routing"] == "kv-aware":
            args += ["--kv-events-config", '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5557"}']
    args += list(r.runtime_args)
    container: dict[str, Any] = {
        "name": "main", "image": image, "imagePullPolicy": "IfNotPresent", "command": ["python3", "-m", "dynamo." + r.runtime],
        "args": args, "resources": {"limits": {s["GPUResource"]: tp}, "requests": {s["GPUResource"]: tp}},
        "securityContext": {"allowPrivilegeEscalation": False},
    }
    if s.get("ModelSecretName"):
        container["envFrom"] = [{"secretRef": {"name": s["ModelSecretName"]}}]
    pod: dict[str, Any] = {"serviceAccountName": s.get("ServiceAccount"), "nodeSelector": {s["GPUProductLabel"]: r.gpu},
                           "containers": [container]}
    cache = t["cache"]
    if cache["backend"] != "none":
        if cache["backend"] != "kvbm" or r.runtime != "vllm":
            raise adapter_error(name, f"Dynamo cache backend {go_quote(cache['backend'])} is registered but not executable "
                                      "by the current adapter", ("serving", "cache", "backend"), wrap=None)
        container["args"] = args + ["--kv-transfer-config", '{"kv_connector":"DynamoConnector","kv_connector_module_path":'
                                    '"kvbm.vllm_integration.connector","kv_role":"kv_both"}']
        env = [{"name": "DYN_KVBM_CPU_CACHE_GB", "value": str(cache["host_gib"])}]
        if cache["disk_gib"] > 0:
            env += [{"name": "DYN_KVBM_DISK_CACHE_GB", "value": str(cache["disk_gib"])},
                    {"name": "DYN_KVBM_DISK_CACHE_DIR", "value": "/var/cache/infercrane/kv"}]
            container["volumeMounts"] = [{"name": "kv-cache", "mountPath": "/var/cache/infercrane/kv"}]
            pod["volumes"] = [{"name": "kv-cache", "persistentVolumeClaim": {"claimName": cache["storage_claim"]}}]
        if cache["metrics"]:
            env.append({"name": "DYN_KVBM_METRICS", "value": "true"})
        container["env"] = env
        memory = f"{cache['memory_gib']}Gi"
        container["resources"]["requests"]["memory"] = memory
        container["resources"]["limits"]["memory"] = memory
    return {"name": cname, "type": ctype, "replicas": pool["replicas"], "runtimeVersionOverride": version,
            "podTemplate": {"spec": pod}}


def graph(r: Replica, s: Mapping[str, Any]) -> dict[str, Any]:
    key = r.external_key
    rname = resource_name(key)
    port = r.port or 8000
    t = c.topology_normalize(r.serving)
    image, version = runtime_image(s, r.runtime)
    labels = {"app.kubernetes.io/name": "infercrane-dynamo", "app.kubernetes.io/instance": rname,
              "app.kubernetes.io/managed-by": "infercrane", "infercrane.dev/external-key-hash": external_key_hash(key),
              "infercrane.dev/serving-backend": "dynamo"}
    metadata = {"name": rname, "namespace": s.get("Namespace"), "labels": labels,
                "annotations": {"infercrane.dev/external-key": key, "infercrane.dev/provider-contract": "infercrane.provider/v1",
                                "infercrane.dev/serving-contract": c.SERVING_SCHEMA_V1,
                                "infercrane.dev/intent-hash": intent_hash(r, s)}}
    frontend_env = [{"name": "DYN_HTTP_PORT", "value": str(port)}]
    if t["routing"] == "kv-aware":
        frontend_env.append({"name": "DYN_ROUTER_MODE", "value": "kv"})
    frontend = {"name": "Frontend", "type": "frontend", "replicas": 1, "runtimeVersionOverride": version,
                "podTemplate": {"spec": {"serviceAccountName": s.get("ServiceAccount"), "containers": [{
                    "name": "main", "image": image, "imagePullPolicy": "IfNotPresent",
                    "command": ["python3", "-m", "dynamo.frontend"], "args": ["--http-port", str(port)],
                    "env": frontend_env, "securityContext": {"allowPrivilegeEscalation": False}}]}}}
    components = [frontend]
    if t["mode"] == "aggregated":
        components.append(_worker(r, s, t, "Worker", "worker", t["worker"]))
    else:
        components += [_worker(r, s, t, "Prefill", "prefill", t["prefill"]), _worker(r, s, t, "Decode", "decode", t["decode"])]
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": metadata,
            "spec": {"backendFramework": r.runtime, "components": components}}


def check(s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    validate_config(s)


def render(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    validate(r, s)
    dgd = graph(r, s)
    rname = resource_name(r.external_key)
    port = r.port or 8000
    return [
        RenderedArtifact(f"DynamoGraphDeployment/{rname}", "object", dgd, description="the parent Dynamo graph"),
        RenderedArtifact("manifest.json", "text", go_json(dgd, sort_keys=True), "application/json",
                         "JSON of the applied objects"),
        replica_artifact(f"kubernetes:dynamo:{s.get('Namespace')}/{rname}", r.external_key,
                         endpoint=f"http://{rname}-frontend.{s.get('Namespace')}.svc:{port}",
                         extra={"apply": ["kubectl", "--context", s.get("Context"), "--namespace", s.get("Namespace"),
                                          "apply", "--server-side", "--field-manager=" + FIELD_MANAGER,
                                          "--validate=strict", "-f", "manifest.json"]}),
    ]


#: No piece of the output renders on its own: upstream builds the whole DynamoGraphDeployment at once and tests only that.
#: ``render_part`` refuses every part name for this adapter (rule ``infercrane.adapter.part``).
PARTS: dict[str, PartRenderer] = {}
