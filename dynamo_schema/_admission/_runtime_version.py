"""Runtime-version resolution (``deploy/operator/internal/runtimeversion/runtimeversion.go``).

Public within the package (the renderer reuses it)::

    resolve_runtime_version(image: str, override: str = "") -> RuntimeVersion | None
    parse_image_version(image: str) -> RuntimeVersion          # raises RuntimeVersionError
    parse_runtime_version(value: str) -> RuntimeVersion        # raises RuntimeVersionError
    component_runtime_image(component: dict) -> str
    component_runtime_version(component: dict) -> RuntimeVersion | None

1. A non-empty ``runtimeVersionOverride`` wins; it must be a strict semantic version.
2. Otherwise the image tag (text after the last ``:`` that follows the last ``/``, ignoring an
   ``@digest``) must be a semantic version, optionally ``v``/``V``-prefixed; only
   ``MAJOR.MINOR.PATCH`` is kept.
3. If neither resolves, the result is None (all runtime gates off).

The runtime image is the image of ``podTemplate.spec.containers[name=main]``. (At the reference
revision there is no "Dynamo sidecar mode"; the published docs' ``initContainers[name=runtime]``
source is not implemented in the code.)
"""

from __future__ import annotations

import re

from .._core._lazyre import lazy
from ._common import as_dict, as_list, as_str, get

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_IDENT = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_CORE = r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
_PRE = rf"(?:-({_IDENT}(?:\.{_IDENT})*))?"
_BUILD = r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
IMAGE_TAG_PATTERN = re.compile(rf"^[vV]?{_CORE}{_PRE}{_BUILD}\Z")
_STRICT_SEMVER = lazy(rf"^{_CORE}{_PRE}{_BUILD}\Z")

MAIN_CONTAINER_NAME = "main"


class RuntimeVersion(tuple[int, int, int]):
    """``(major, minor, patch)``: ordered as a tuple, printed ``X.Y.Z``. Written out rather than a
    ``typing.NamedTuple``, whose class creation (a ForwardRef compiled per annotated field, the
    generated ``__new__``) costs ~11 M instructions, 3 % of a cold one-file ``validate``."""

    __slots__ = ()

    def __new__(cls, major: int, minor: int, patch: int) -> RuntimeVersion:
        return tuple.__new__(cls, (major, minor, patch))

    @property
    def major(self) -> int:
        return self[0]

    @property
    def minor(self) -> int:
        return self[1]

    @property
    def patch(self) -> int:
        return self[2]

    def __repr__(self) -> str:
        return f"RuntimeVersion(major={self[0]!r}, minor={self[1]!r}, patch={self[2]!r})"

    def __str__(self) -> str:
        return f"{self[0]}.{self[1]}.{self[2]}"

    def __getnewargs__(self) -> tuple[int, int, int]:  # pickling and copying: the three fields
        return (self[0], self[1], self[2])


class RuntimeVersionError(ValueError):
    pass


def parse_runtime_version(value: str) -> RuntimeVersion:
    m = _STRICT_SEMVER.match(value)
    if not m or not _fits_uint64(m):
        raise RuntimeVersionError('must be a semantic version such as "1.1.0"')
    return RuntimeVersion(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _fits_uint64(m: re.Match[str]) -> bool:
    return all(int(m.group(i)) < 2**64 for i in (1, 2, 3))


def image_tag(image: str) -> str:
    ref = image.strip()
    at = ref.find("@")
    if at >= 0:
        ref = ref[:at]
    last_slash = ref.rfind("/")
    last_colon = ref.rfind(":")
    if last_colon <= last_slash:
        return ""
    return ref[last_colon + 1 :]


def parse_image_version(image: str) -> RuntimeVersion:
    tag = image_tag(image)
    if tag == "":
        raise RuntimeVersionError(f'image "{image}" does not contain a tag')
    trimmed = tag.strip()
    m = IMAGE_TAG_PATTERN.match(trimmed)
    if not m or not _fits_uint64(m):
        raise RuntimeVersionError(f'image tag "{tag}" must contain a semantic version such as "1.1.0"')
    return RuntimeVersion(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def resolve_runtime_version(image: str, override: str = "") -> RuntimeVersion | None:
    """The runtime version from ``override`` (if non-empty) or the image tag; None if unresolvable."""
    try:
        if override:
            return parse_runtime_version(override)
        return parse_image_version(image)
    except RuntimeVersionError:
        return None


def image_has_version(image: str) -> bool:
    try:
        parse_image_version(image)
    except RuntimeVersionError:
        return False
    return True


def main_container_index(component: Any) -> int:
    for i, c in enumerate(as_list(get(component, "podTemplate", "spec", "containers"))):
        if isinstance(c, dict) and c.get("name") == MAIN_CONTAINER_NAME:
            return i
    return -1


def component_runtime_image(component: Any) -> str:
    idx = main_container_index(component)
    if idx < 0:
        return ""
    return as_str(as_dict(as_list(get(component, "podTemplate", "spec", "containers"))[idx]).get("image"))


def component_runtime_version(component: Any) -> RuntimeVersion | None:
    return resolve_runtime_version(
        component_runtime_image(component), as_str(as_dict(component).get("runtimeVersionOverride"))
    )
