"""Masterminds/semver v3.4.0 ``NewVersion``, the semantic versions the operator parses: the
``nvidia.com/dynamo-operator-origin-version`` annotation (the validating webhook's "must be valid semver",
``compatibility.Gate.Enabled``) and the operator's own version (the DGDR profiler image tag).

``NewVersion`` with ``CoerceNewVersion`` on (its default): the loose pattern, anchored at both ends of the
text (Go's ``$`` is the end of the text, not a line: ``"1.5.0\\n"`` is refused), ASCII digits only; then
each of major, minor and patch must fit a uint64 (``strconv.ParseUint``) and a numeric prerelease
identifier must not start with 0 (``validatePrerelease``). A missing minor or patch is 0; a leading
zero of major, minor or patch is accepted (``01.2.3`` is 1.2.3). ``String()`` prints
``MAJOR.MINOR.PATCH``, then ``-PRERELEASE`` and ``+METADATA`` when present.
"""

from __future__ import annotations

import re

from .._core._lazyre import lazy

__all__ = ["SemVer", "new_version", "version_string"]

SemVer = tuple[tuple[int, int, int], str, str]  # (major, minor, patch), prerelease, metadata

_LOOSE = lazy(r"v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
              r"(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?", re.ASCII)
_UINT64 = 1 << 64


def new_version(text: object) -> SemVer | None:
    """``semver.NewVersion(text)``: the version, or None where it returns an error."""
    if not isinstance(text, str):
        return None
    m = _LOOSE.fullmatch(text)
    if m is None:
        return None
    parts = (int(m.group(1)), int((m.group(2) or ".0")[1:]), int((m.group(3) or ".0")[1:]))
    if any(p >= _UINT64 for p in parts):
        return None
    pre = m.group(5) or ""
    # validatePrerelease: a numeric identifier has no leading zero (the pattern already refuses an empty one)
    if pre and any(ident.isdigit() and len(ident) > 1 and ident[0] == "0" for ident in pre.split(".")):
        return None
    return parts, pre, m.group(8) or ""


def version_string(version: SemVer) -> str:
    """``Version.String()``."""
    (major, minor, patch), pre, meta = version
    out = f"{major}.{minor}.{patch}"
    if pre:
        out += "-" + pre
    if meta:
        out += "+" + meta
    return out
