"""Test helpers: the real v1beta1 CRD schemas from ../shared (tests only; skipped when absent)."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()
CRDS = SHARED / "reference" / "dynamo" / "crds"
CORPUS = SHARED / "reference" / "dynamo" / "corpus" / "v1beta1"

FILES = {
    "DynamoGraphDeployment": "nvidia.com_dynamographdeployments.yaml",
    "DynamoComponentDeployment": "nvidia.com_dynamocomponentdeployments.yaml",
    "DynamoGraphDeploymentRequest": "nvidia.com_dynamographdeploymentrequests.yaml",
}


@cache
def _crd_schema(kind: str, version: str) -> dict[str, Any]:
    doc = yaml.load((CRDS / FILES[kind]).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    for v in doc["spec"]["versions"]:
        if v["name"] == version:
            return v["schema"]["openAPIV3Schema"]  # type: ignore[no-any-return]
    raise LookupError(kind)


def crd_schema(kind: str, version: str = "v1beta1") -> dict[str, Any]:
    """The ``openAPIV3Schema`` of ``kind`` ``version`` (shared object: do not mutate)."""
    if not (CRDS / FILES[kind]).is_file():
        pytest.skip("../shared reference CRDs are not available")
    return _crd_schema(kind, version)


def main(image: str = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0") -> dict[str, Any]:
    return {"name": "main", "image": image}


def dgd() -> dict[str, Any]:
    """A small valid DGD (fresh copy)."""
    return copy.deepcopy(
        {
            "apiVersion": "nvidia.com/v1beta1",
            "kind": "DynamoGraphDeployment",
            "metadata": {"name": "demo", "namespace": "default"},
            "spec": {
                "backendFramework": "vllm",
                "components": [
                    {
                        "name": "Frontend",
                        "type": "frontend",
                        "replicas": 1,
                        "podTemplate": {"spec": {"containers": [main()]}},
                    },
                    {
                        "name": "VllmWorker",
                        "type": "worker",
                        "replicas": 2,
                        "podTemplate": {
                            "spec": {
                                "containers": [
                                    {
                                        **main(),
                                        "imagePullPolicy": "IfNotPresent",
                                        "resources": {
                                            "limits": {"nvidia.com/gpu": "1", "cpu": 2, "memory": "8Gi"}
                                        },
                                    }
                                ]
                            }
                        },
                    },
                ],
            },
        }
    )


def dcd() -> dict[str, Any]:
    return copy.deepcopy(
        {
            "apiVersion": "nvidia.com/v1beta1",
            "kind": "DynamoComponentDeployment",
            "metadata": {"name": "demo-worker"},
            "spec": {
                "name": "worker",
                "type": "worker",
                "replicas": 1,
                "podTemplate": {"spec": {"containers": [main()]}},
            },
        }
    )


def dgdr() -> dict[str, Any]:
    return copy.deepcopy(
        {
            "apiVersion": "nvidia.com/v1beta1",
            "kind": "DynamoGraphDeploymentRequest",
            "metadata": {"name": "req"},
            "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "vllm"},
        }
    )
