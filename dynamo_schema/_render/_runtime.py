"""The operator-origin version the renderer reads (``nvidia.com/dynamo-operator-origin-version``).

The reference revision's rendering has no runtime-version gate (docs/decisions.md D37): the resolved
runtime version enters only the worker hash (``_workerhash.resolved_runtime_version_for_hash``).
"""

from __future__ import annotations

import re

from .._core._lazyre import lazy

Version = tuple[int, int, int]

#: ``features/compatibility/gates.go`` ``VLLMMultiprocessing``: an operator-origin version at or above this
#: launches multinode vLLM with the multiprocessing backend (``backend_vllm.go`` ``shouldUseMpBackend``).
VLLM_MULTIPROCESSING_ORIGIN: Version = (1, 0, 0)


#: Masterminds/semver v3.4.0 ``NewVersion`` (``CoerceNewVersion`` on, its default): the loose pattern, anchored at
#: both ends of the text (Go's ``$`` is the end of the text, not a line), ASCII digits only.
_LOOSE = lazy(r"v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
             r"(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?", re.ASCII)
_UINT64 = 1 << 64


def parse_semver(text: str | None) -> tuple[Version, str] | None:
    """Masterminds/semver ``NewVersion``: ``((major, minor, patch), prerelease)``, or None where it returns an error
    (not a loose version, a segment over uint64, an empty or leading-zero numeric prerelease identifier). A missing
    minor or patch is 0; build metadata is checked, then ignored."""
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
    if any(ident.isdigit() and len(ident) > 1 and ident[0] == "0" for ident in pre.split(".") if pre):
        return None
    return parts, pre


def at_least(text: str | None, minimum: Version) -> bool:
    """``compatibility.Gate.Enabled``: the origin version parses and ``Compare(minimum) >= 0`` (``minimum`` a release:
    a prerelease of the same version is below it). An absent or unparseable version disables the gate."""
    parsed = parse_semver(text)
    if parsed is None:
        return False
    version, pre = parsed
    return version > minimum or (version == minimum and not pre)
