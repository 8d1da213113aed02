"""Fixtures modelled on the upstream envtest builders (``newBetaDGDForValidation`` etc.)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dynamo_schema._admission import AdmissionSettings, default, validate
from dynamo_schema._core._diagnostics import Diagnostic

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
IMAGE = "registry.example/runtime:1.1.0"


def main_container(image: str = IMAGE, **extra: Any) -> dict[str, Any]:
    return {"name": "main", "image": image, **extra}


def beta_dgd(mutate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """``betaDGDForAdmission``: frontend + worker (index 1), vllm, runtime 1.1.0."""
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "test-graph", "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "components": [
                {
                    "name": "frontend",
                    "type": "frontend",
                    "runtimeVersionOverride": "1.1.0",
                    "replicas": 1,
                    "podTemplate": {"spec": {"containers": [main_container()]}},
                },
                {
                    "name": "worker",
                    "type": "worker",
                    "runtimeVersionOverride": "1.1.0",
                    "replicas": 2,
                    "podTemplate": {"spec": {"containers": [main_container()]}},
                },
            ],
        },
    }
    if mutate:
        mutate(obj)
    return obj


def component_dgd(mutate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """``betaComponentDGDForAdmission``: opted out of Grove."""

    def m(d: dict[str, Any]) -> None:
        d["metadata"]["annotations"] = {
            "nvidia.com/workload-provider": "component",
            "nvidia.com/enable-grove": "false",
        }
        if mutate:
            mutate(d)

    return beta_dgd(m)


def worker(d: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in d["spec"]["components"] if c["name"] == "worker")


def frontend(d: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in d["spec"]["components"] if c["name"] == "frontend")


def beta_dcd(mutate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoComponentDeployment",
        "metadata": {"name": "test-dcd", "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "type": "worker",
            "replicas": 1,
            "podTemplate": {"spec": {"containers": [main_container()]}},
        },
    }
    if mutate:
        mutate(obj)
    return obj


def beta_dgdr(mutate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeploymentRequest",
        "metadata": {"name": "test-dgdr", "namespace": "default"},
        "spec": {"model": "Qwen/Qwen3-0.6B"},
    }
    if mutate:
        mutate(obj)
    return obj


def with_gpu(component: dict[str, Any], gpus: Any = "1") -> None:
    component["podTemplate"]["spec"]["containers"][0].setdefault("resources", {})["limits"] = {
        "nvidia.com/gpu": gpus
    }


def decoded(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` as the webhook receives it: decoded from the request's JSON body, so every string in it is
    a fresh object (never one of the code's interned constants: a rule comparing with ``is`` fails here
    as it fails on a file)."""
    return json.loads(json.dumps(obj))


def run(obj: dict[str, Any], settings: AdmissionSettings | None = None) -> list[Diagnostic]:
    s = settings or AdmissionSettings()
    return validate(default(decoded(obj), s), s)


def run_update(
    old_obj: dict[str, Any],
    mutate: Callable[[dict[str, Any]], Any],
    settings: AdmissionSettings | None = None,
    old_status: dict[str, Any] | None = None,
) -> list[Diagnostic]:
    """Create ``old_obj`` (defaulted as CREATE), apply ``mutate`` to a copy, validate the UPDATE."""
    s = settings or AdmissionSettings()
    old = default(decoded(old_obj), s)
    if old_status is not None:
        old["status"] = decoded(old_status)
    new = copy.deepcopy(old)
    mutate(new)
    new = default(decoded(new), s, operation="UPDATE", old=old)
    return validate(new, s, old=old)


def errors(diags: list[Diagnostic]) -> list[str]:
    return [f"{d.field}: {d.message}" for d in diags if d.severity == "error"]


def warnings(diags: list[Diagnostic]) -> list[str]:
    return [d.message for d in diags if d.severity == "warning"]
