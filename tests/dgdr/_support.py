from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()
CORPUS = SHARED / "reference" / "dynamo" / "corpus" / "v1beta1"


def dgdr(name: str = "my-dgdr", namespace: str | None = "ns", **spec: Any) -> dict:
    meta: dict[str, Any] = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    body: dict[str, Any] = {
        "model": "Qwen/Qwen3-0.6B",
        "backend": "vllm",
        "image": "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0",
    }
    body.update(spec)
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeploymentRequest",
        "metadata": meta,
        "spec": copy.deepcopy(body),
    }


def main_override(name: str, container: dict, **component: Any) -> dict:
    """An ``overrides.dgd`` patching component ``name``'s main container with ``container``;
    ``pod=`` adds pod-spec fields, other keywords component fields."""
    body: dict[str, Any] = {
        "name": name,
        "podTemplate": {"spec": {"containers": [{"name": "main", **container}]}},
    }
    body["podTemplate"]["spec"].update(component.pop("pod", {}))
    body.update(component)
    return beta_override(body)


def comp(dgd: dict, name: str) -> dict:
    return next(c for c in dgd["spec"]["components"] if c["name"] == name)


def main(component: dict) -> dict:
    return next(c for c in component["podTemplate"]["spec"]["containers"] if c["name"] == "main")


def names(dgd: dict) -> list[str]:
    return [c["name"] for c in dgd["spec"]["components"]]


def beta_override(*components: dict, **extra: Any) -> dict:
    out: dict[str, Any] = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment"}
    out.update(extra)
    if components:
        out["spec"] = {"components": list(components)}
    return out
