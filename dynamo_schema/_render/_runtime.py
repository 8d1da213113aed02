"""Runtime version resolution (``admission.md`` §3) and rendering feature gates (``rendering.md`` §5.3)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_OVERRIDE_RE = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$")
_TAG_RE = re.compile(
    r"^[vV]?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$"
)

Version = tuple[int, int, int]

FRONTEND_STARTUP_PROBE: Version = (1, 6, 0)
CANARY_HEALTH_CHECKS: Version = (1, 5, 0)
INCREASED_WORKER_FAILURE_THRESHOLD: Version = (1, 5, 0)
NATIVE_RUST_EPP: Version = (1, 5, 0)
VLLM_MULTIPROCESSING_ORIGIN: Version = (1, 0, 0)


def image_tag_version(image: str | None) -> Version | None:
    if not image:
        return None
    ref = image.split("@", 1)[0]
    last_slash = ref.rfind("/")
    colon = ref.rfind(":")
    if colon <= last_slash:
        return None
    m = _TAG_RE.match(ref[colon + 1 :])
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)))


def runtime_image(component: Mapping[str, Any]) -> str | None:
    pt = component.get("podTemplate") or {}
    spec = pt.get("spec") or {}
    for c in spec.get("initContainers") or []:
        if isinstance(c, Mapping) and c.get("name") == "runtime":
            return c.get("image")
    for c in spec.get("containers") or []:
        if isinstance(c, Mapping) and c.get("name") == "main":
            return c.get("image")
    return None


def resolve_runtime_version(component: Mapping[str, Any]) -> Version | None:
    override = component.get("runtimeVersionOverride")
    if override:
        m = _OVERRIDE_RE.match(str(override))
        if m:
            return (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return image_tag_version(runtime_image(component))


def gate(version: Version | None, threshold: Version) -> bool:
    return version is not None and version >= threshold


def parse_semver(text: str | None) -> Version | None:
    """Masterminds/semver-style parse of an origin version (``1.4.x`` style wildcards are 0)."""
    if not text:
        return None
    m = re.match(r"^[vV]?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$", str(text).strip())
    if not m:
        return None

    def part(s: str | None) -> int:
        return int(s) if s and s.isdigit() else 0

    return (int(m.group(1)), part(m.group(2)), part(m.group(3)))
