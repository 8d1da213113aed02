"""The backend framework of a component (vllm, sglang, trtllm or noop), as the operator determines it.

Upstream: ``graph.go`` ``DetectBackendFrameworkFromArgs``, ``determineBackendFramework``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ._errors import RenderError
from ._names import is_worker_type

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_BACKEND_PATTERNS = (
    ("vllm", re.compile(r"python[0-9.]*\s+[^|&;]*-m\s+[^|&;]*dynamo\.vllm[^|&;]*")),
    ("sglang", re.compile(r"python[0-9.]*\s+[^|&;]*-m\s+[^|&;]*dynamo\.sglang[^|&;]*")),
    ("trtllm", re.compile(r"python[0-9.]*\s+[^|&;]*-m\s+[^|&;]*dynamo\.trtllm[^|&;]*")),
)


def main_command_args(component: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    pt = component.get("podTemplate") or {}
    for c in (pt.get("spec") or {}).get("containers") or []:
        if isinstance(c, Mapping) and c.get("name") == "main":
            return [str(x) for x in c.get("command") or []], [str(x) for x in c.get("args") or []]
    return [], []


def detect_backend(command: list[str], args: list[str]) -> str:
    full = " ".join(command + args)
    detected = [name for name, pat in _BACKEND_PATTERNS if pat.search(full)]
    if not detected:
        return "noop"
    if len(detected) > 1:
        raise RenderError.at(f"multiple backend frameworks detected from command: [{' '.join(detected)}] in \"{full}\"", rule="render.backend")
    return detected[0]


def determine_backend(component_type: str, command: list[str], args: list[str], explicit: str | None, path: tuple[str | int, ...] = ()) -> str:
    if not is_worker_type(component_type):
        return "noop"
    detected = ""
    err: RenderError | None = None
    if command or args:
        try:
            detected = detect_backend(command, args)
        except RenderError as exc:
            err = exc
    if detected and detected != "noop" and explicit and detected != explicit:
        raise RenderError.at(
            f'backend framework mismatch: detected "{detected}" from command but explicitly configured as "{explicit}"',
            path, rule="render.backend",
        )
    if detected and detected != "noop":
        return detected
    if explicit:
        return explicit
    if err is not None:
        raise RenderError.at(f"could not determine backend framework: {err}", path, rule="render.backend")
    return "noop"


def component_backend(component: Mapping[str, Any], explicit: str | None, path: tuple[str | int, ...] = ()) -> str:
    cmd, args = main_command_args(component)
    return determine_backend(str(component.get("type") or ""), cmd, args, explicit, path)


def backend_for_generated_dcds(dgd: Mapping[str, Any]) -> str:
    spec = dgd.get("spec") or {}
    if spec.get("backendFramework"):
        return str(spec["backendFramework"])
    detected = ""
    for i, comp in enumerate(spec.get("components") or []):
        if not is_worker_type(comp.get("type")):
            continue
        bf = component_backend(comp, None, ("spec", "components", i))
        if not bf or bf == "noop":
            continue
        if detected and detected != bf:
            raise RenderError.at(
                f"multiple backend frameworks detected for generated DynamoComponentDeployments: {detected} and {bf}",
                ("spec", "components"), rule="render.backend",
            )
        detected = bf
    return detected


