"""The releases 0.8 – 1.2 webhooks of DynamoComponentDeployment, DynamoGraphDeploymentRequest and DynamoModel.

* DCD (v1alpha1): ``internal/webhook/validation/dynamocomponentdeployment.go`` — the shared spec checks on
  ``spec`` (no manager: no InferencePool lookup), and on update the backendFramework immutability.
* DGDR: 0.8 – 0.9 validate v1alpha1 (``spec.profilingConfig``), 1.0 – 1.2 v1beta1
  (``dynamographdeploymentrequest.go``). The operator runs cluster-wide (the set-up of the operator-verified
  cases), so the namespace-restricted GPU-discovery refusals of these releases never fire.
* DynamoModel (v1alpha1): ``dynamomodel.go`` of 0.8 – 1.2 (identical in those releases).
"""

from __future__ import annotations

import json
from typing import Any

from ..._core._diagnostics import Diagnostic
from ..._k8s._gofmt import go_quote
from .._common import as_dict, as_str, get
from ._shared import Errs, Shared, dynamo_namespace, err, since


def _parent_dgd(dcd: dict[str, Any]) -> str:
    """``GetParentGraphDeploymentName``: the owner reference of kind DynamoGraphDeployment."""
    for ref in get(dcd, "metadata", "ownerReferences") or ():
        if isinstance(ref, dict) and ref.get("kind") == "DynamoGraphDeployment":
            return as_str(ref.get("name"))
    return ""


def validate_dcd(release: str, dcd: dict[str, Any]) -> Errs:
    spec = as_dict(dcd.get("spec"))
    namespace = as_str(get(dcd, "metadata", "namespace")) or "default"
    dns = dynamo_namespace(release, spec.get("globalDynamoNamespace"), namespace, _parent_dgd(dcd))
    errors, warnings = Shared("dcd", release, spec, ("spec",), "spec", dns, None).validate()
    return errors or warnings


def validate_dcd_update(dcd: dict[str, Any], old: dict[str, Any]) -> Errs:
    if as_str(get(dcd, "spec", "backendFramework")) != as_str(get(old, "spec", "backendFramework")):
        return [Diagnostic("dcd.backend-framework-changed", ("spec", "backendFramework"),
                           "Changing spec.backendFramework may cause unexpected behavior", "warning"),
                err("dcd.backend-framework-immutable", ("spec", "backendFramework"),
                    "spec.backendFramework is immutable and cannot be changed after creation")]
    return []


def validate_dgdr(release: str, dgdr: dict[str, Any]) -> Errs:
    spec = as_dict(dgdr.get("spec"))
    if not since(release, "1.0"):  # v1alpha1
        pc = as_dict(spec.get("profilingConfig"))
        errs: Errs = []
        pp = ("spec", "profilingConfig")
        if not as_str(pc.get("profilerImage")):
            errs.append(err("dgdr.v1alpha1-profiler-image", pp + ("profilerImage",),
                            "spec.profilingConfig.profilerImage is required"))
        config = pc.get("config")
        if config is None:  # RawExtension: only an absent config is empty (``{}`` has two bytes)
            errs.append(err("dgdr.v1alpha1-profiling-config", pp + ("config",),
                            "spec.profilingConfig.config is required and must not be empty"))
        warnings: Errs = []
        if config is not None and not isinstance(config, dict):
            errs.append(err("dgdr.v1alpha1-profiling-config", pp + ("config",),
                            "failed to parse spec.profilingConfig.config: error unmarshaling JSON: while decoding JSON: "
                            f"json: cannot unmarshal {_json_kind(config)} into Go value of type map[string]interface {{}}"))
        elif isinstance(config, dict):
            backend = get(config, "engine", "backend")
            if isinstance(backend, str) and backend and backend != as_str(spec.get("backend")):
                warnings.append(Diagnostic("dgdr.v1alpha1-config-overwritten", pp + ("config", "engine", "backend"),
                                           f"spec.profilingConfig.config.engine.backend ({backend}) will be overwritten "
                                           f"by spec.backend ({as_str(spec.get('backend'))})", "warning"))
            model = get(config, "deployment", "model")
            if isinstance(model, str) and model and model != as_str(spec.get("model")):
                warnings.append(Diagnostic("dgdr.v1alpha1-config-overwritten", pp + ("config", "deployment", "model"),
                                           f"spec.profilingConfig.config.deployment.model ({model}) will be overwritten "
                                           f"by spec.model ({as_str(spec.get('model'))})", "warning"))
        return errs + warnings
    errs = []
    if spec.get("searchStrategy") == "thorough" and spec.get("backend") == "auto":
        errs.append(err("dgdr.search-strategy-backend", ("spec", "searchStrategy"),
                        'spec.searchStrategy "thorough" is incompatible with spec.backend "auto": set spec.backend to a '
                        "specific backend (sglang, trtllm, or vllm)"))
    opt = get(spec, "sla", "optimizationType")
    if since(release, "1.2") and isinstance(opt, str) and opt not in ("latency", "throughput"):
        errs.append(err("dgdr.v1alpha1-sla-optimization-type", ("spec", "sla", "optimizationType"),
                        f'spec.sla.optimizationType {go_quote(opt)} is invalid: must be "latency" or "throughput"'))
    return errs


def _json_kind(v: Any) -> str:
    from ..._k8s._gofmt import json_kind

    return json_kind(v)


def validate_dgdr_update(dgdr: dict[str, Any], old: dict[str, Any]) -> Errs:
    """1.0 – 1.2: the spec is frozen while the request is Profiling, Deploying or Deployed."""
    phase = as_str(get(old, "status", "phase"))
    if phase in ("Profiling", "Deploying", "Deployed"):
        def canon(v: Any) -> str:
            return json.dumps(v, sort_keys=True, separators=(",", ":"))

        if canon(dgdr.get("spec")) != canon(old.get("spec")):
            return [err("dgdr.phase-immutable", ("spec",),
                        f"spec updates are forbidden while the resource is in phase {go_quote(phase)}; delete and "
                        "recreate the resource to change its spec")]
    return []


def validate_model(model: dict[str, Any], old: dict[str, Any] | None = None) -> Errs:
    """The DynamoModel webhook of 0.8 – 1.2 (``Validate`` then, on update, ``ValidateUpdate``)."""
    spec = as_dict(model.get("spec"))
    if not as_str(spec.get("modelName")):
        return [err("dynamomodel.model-name-required", ("spec", "modelName"), "spec.modelName is required")]
    if not as_str(spec.get("baseModelName")):
        return [err("dynamomodel.base-model-name-required", ("spec", "baseModelName"), "spec.baseModelName is required")]
    if spec.get("modelType") == "lora":
        source = spec.get("source")
        if not isinstance(source, dict):
            return [err("dynamomodel.source-required", ("spec", "source"),
                        "spec.source is required when modelType is 'lora'")]
        uri = as_str(source.get("uri"))
        if not uri:
            return [err("dynamomodel.source-uri-required", ("spec", "source", "uri"),
                        "spec.source.uri must be specified when modelType is 'lora'")]
        if not uri.startswith(("s3://", "hf://")):
            return [err("dynamomodel.source-uri-scheme", ("spec", "source", "uri"),
                        f"source URI must start with 's3://' or 'hf://', got: {uri}")]
    if old is None:
        return []
    before = as_dict(old.get("spec"))
    if as_str(spec.get("modelType")) != as_str(before.get("modelType")):
        return [Diagnostic("dynamomodel.model-type-immutable", ("spec", "modelType"),
                           "Changing spec.modelType may cause unexpected behavior", "warning"),
                err("dynamomodel.model-type-immutable", ("spec", "modelType"),
                    "spec.modelType is immutable and cannot be changed after creation")]
    if as_str(spec.get("baseModelName")) != as_str(before.get("baseModelName")):
        return [Diagnostic("dynamomodel.base-model-name-immutable", ("spec", "baseModelName"),
                           "Changing spec.baseModelName will break endpoint discovery", "warning"),
                err("dynamomodel.base-model-name-immutable", ("spec", "baseModelName"),
                    "spec.baseModelName is immutable and cannot be changed after creation")]
    return []
