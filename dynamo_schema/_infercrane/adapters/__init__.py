"""Provider adapters: one module per adapter, each an :class:`Adapter` (``name``, ``cloud``, ``PARTS``,
``check``, ``render``), imported lazily through :func:`load`.

A new adapter: a module here with that shape, its name in ``MODULES``, its module in the type-checked
tuple below, its cloud and compute modes in ``_compile.ADAPTER_CLOUDS``;
tests/infercrane/test_adapter_registry.py calls every member of every registered adapter.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, cast

from ._protocol import Adapter, PartRenderer

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


def load(name: str) -> Adapter:
    """The adapter module registered as ``name`` (``KeyError`` when it is not registered)."""
    return cast(Adapter, import_module(f"{__name__}.{MODULES[name]}"))


if TYPE_CHECKING:  # mypy checks every adapter module against the Protocol; nothing is imported at run time
    from . import _aws_ec2, _gcp_compute, _kubernetes, _kubernetes_dynamo, _runpod_pods, _runpod_serverless, _skypilot

    _SHAPES: tuple[Adapter, ...] = (_skypilot, _aws_ec2, _gcp_compute, _kubernetes, _kubernetes_dynamo,
                                    _runpod_serverless, _runpod_pods)

__all__ = ["DEFERRED", "MODULES", "Adapter", "PartRenderer", "load"]
