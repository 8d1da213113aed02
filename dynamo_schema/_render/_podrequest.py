"""The request of one pod build (``PodRequest``) and the component accessors pods and backends share.

Below ``_pod`` (pod spec assembly) and ``_backends`` (backend-specific container changes), so neither
imports the other's module for these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._core._consts import GPU_RESOURCE
from ._options import RenderOptions

MAIN = "main"


@dataclass
class PodRequest:
    component: dict[str, Any]
    component_type: str
    backend: str
    dgd_name: str
    namespace: str
    role: str  # "main" | "leader" | "worker"
    nodes: int
    deployer: str  # "grove" | "lws"
    service_name: str
    options: RenderOptions
    path: tuple[str | int, ...] = field(default_factory=tuple)


def pod_template_annotations(component: Mapping[str, Any]) -> dict[str, str]:
    pt = component.get("podTemplate") or {}
    return dict((pt.get("metadata") or {}).get("annotations") or {})


def pod_template_labels(component: Mapping[str, Any]) -> dict[str, str]:
    pt = component.get("podTemplate") or {}
    return dict((pt.get("metadata") or {}).get("labels") or {})


def main_container(component: Mapping[str, Any]) -> dict[str, Any] | None:
    pt = component.get("podTemplate") or {}
    for c in (pt.get("spec") or {}).get("containers") or []:
        if isinstance(c, dict) and c.get("name") == MAIN:
            return c
    return None


def gpu_count(component: Mapping[str, Any]) -> int:
    main = main_container(component) or {}
    res = main.get("resources") or {}
    for section in ("limits", "requests"):
        val = (res.get(section) or {}).get(GPU_RESOURCE)
        if val is not None:
            try:
                return int(str(val))
            except ValueError:
                return 0
    return 0
