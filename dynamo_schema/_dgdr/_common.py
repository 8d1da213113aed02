"""What every materialization step shares: the error, worker types, component accessors, image names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dynamo_schema._core._diagnostics import Diagnostic, DynamoSchemaError

BACKEND_IMAGE_NAMES = {"vllm": "vllm-runtime", "sglang": "sglang-runtime", "trtllm": "tensorrtllm-runtime"}
PLANNER_IMAGE_NAME = "dynamo-planner"

WORKER_TYPES = frozenset({"worker", "prefill", "decode"})


class DgdrError(DynamoSchemaError):
    """The DGDR cannot be materialized; the message is upstream's refusal text."""

    def __init__(self, message: str, path: tuple[Any, ...] = (), rule: str = "dgdr.materialize") -> None:
        super().__init__(message, [Diagnostic(rule, tuple(path), message)])
        self.path = tuple(path)
        self.rule = rule


def main_container(component: dict[str, Any]) -> dict[str, Any] | None:
    pt = component.get("podTemplate")
    spec = pt.get("spec") if isinstance(pt, dict) else None
    containers = spec.get("containers") if isinstance(spec, dict) else None
    if not isinstance(containers, list):
        return None
    for c in containers:
        if isinstance(c, dict) and c.get("name") == "main":
            return c
    return None


def components_of(dgd: dict[str, Any]) -> list[dict[str, Any]]:
    spec = dgd.get("spec")
    comps = spec.get("components") if isinstance(spec, dict) else None
    return [c for c in comps if isinstance(c, dict)] if isinstance(comps, list) else []


def component_named(dgd: dict[str, Any], name: str) -> dict[str, Any] | None:
    for c in components_of(dgd):
        if c.get("name") == name:
            return c
    return None


def _replace_image_name(image_ref: str, new_name: str) -> str:
    slash = image_ref.rfind("/")
    prefix = image_ref[: slash + 1] if slash >= 0 else ""
    suffix = image_ref[slash + 1 :]
    name_and_tag, has_digest, digest = suffix.partition("@")
    colon = name_and_tag.rfind(":")
    tag = name_and_tag[colon:] if colon >= 0 else ""
    return f"{prefix}{new_name}{tag}{'@' + digest if has_digest else ''}"


def derive_backend_image(profiler_image: str, backend: str) -> str:
    name = BACKEND_IMAGE_NAMES.get(backend)
    if name is None:
        raise DgdrError(
            f"Cannot derive backend image for unknown backend '{backend}'. "
            f"Supported backends: {list(BACKEND_IMAGE_NAMES)}",
            ("spec", "backend"),
        )
    return _replace_image_name(profiler_image, name)


def derive_planner_image(profiler_image: str) -> str:
    return _replace_image_name(profiler_image, PLANNER_IMAGE_NAME)


def set_unique_env(container: dict[str, Any], name: str, value: str) -> None:
    env = container.get("env")
    env = (
        [e for e in env if not (isinstance(e, dict) and e.get("name") == name)]
        if isinstance(env, list)
        else []
    )
    env.append({"name": name, "value": value})
    container["env"] = env


def worker_main_containers(dgd: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(component, main container) of every worker-type component that has a main container."""
    for comp in components_of(dgd):
        if comp.get("type") not in WORKER_TYPES:
            continue
        mc = main_container(comp)
        if mc is not None:
            yield comp, mc


def apply_runtime_version_override(dgd: dict[str, Any], version: str, only_missing: bool) -> None:
    if not version:
        return
    for comp in components_of(dgd):
        if only_missing and comp.get("runtimeVersionOverride"):
            continue
        comp["runtimeVersionOverride"] = version
