"""Provider adapters: one module per adapter, one shape (``name``, ``cloud``, ``render``, ``check``)."""

from __future__ import annotations

import importlib
from types import ModuleType

#: adapter name -> module (imported lazily).
MODULES = {
    "skypilot": "_skypilot",
    "aws-ec2": "_aws_ec2",
    "gcp-compute": "_gcp_compute",
    "kubernetes": "_kubernetes",
    "kubernetes-dynamo": "_kubernetes_dynamo",
    "runpod-serverless": "_runpod_serverless",
    "runpod-pods": "_runpod_pods",
}

#: Registered in upstream's integration catalog but not executable (``catalog.go@10614af``).
DEFERRED = {
    "aws-asg": "aws", "aws-eks": "aws", "aws-sagemaker": "aws", "aws-bedrock": "aws",
    "gcp-mig": "gcp", "gcp-gke": "gcp", "gcp-vertex": "gcp", "coreweave-cks": "coreweave",
    "openrouter": "external", "openai-compatible-external": "external",
}


def load(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{MODULES[name]}")
