"""A v1beta1 DGD builder (``test-deploy`` in ``default``, vllm, optional metadata annotations) and its Grove
PodCliqueSet render. Shared by the Grove topology, scheduler, scaling-group, EPP and SGLang port render tests.
"""

from __future__ import annotations

from typing import Any

from dynamo_schema._render import RenderOptions, render


def _dgd(components: list[dict[str, Any]], meta_annotations: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "test-deploy", "namespace": "default"}
    if meta_annotations:
        meta["annotations"] = meta_annotations
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": meta,
            "spec": {"backendFramework": "vllm", "components": components, **spec}}


def _pcs(objs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(o for o in objs if o["kind"] == "PodCliqueSet")


def _grove(dgd: dict[str, Any], **options: Any) -> dict[str, Any]:
    return _pcs(render(dgd, "grove", RenderOptions(namespace="default", **options)))
