"""A v1beta1 DGD builder (``test-dgd`` in ``default``, vllm) and lookups into what it renders: the generated
DCDs by component name, a container's env, the PodCliqueSet's cliques by name. Shared by the kvTransferPolicy,
DYN_DEPLOYMENT_CONFIG and v1alpha1 compatibility-metadata render tests.
"""

from __future__ import annotations

from typing import Any


def _dgd(components: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "test-dgd", "namespace": "default"},
            "spec": {"backendFramework": "vllm", "components": components, **spec}}


WORKER = {"name": "worker", "type": "worker"}


def _by_name(dcds: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {d["spec"]["name"]: d for d in dcds}


def _env(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value") for e in container.get("env") or []}


def _pcs(objs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(o for o in objs if o["kind"] == "PodCliqueSet")


def _cliques(objs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in _pcs(objs)["spec"]["template"]["cliques"]}
