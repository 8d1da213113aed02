"""The operator-origin version the renderer reads (``nvidia.com/dynamo-operator-origin-version``).

The reference revision's rendering has no runtime-version gate (docs/decisions.md D37): the resolved
runtime version enters only the worker hash (``_workerhash.resolved_runtime_version_for_hash``).
"""

from __future__ import annotations

from .._k8s._semver import new_version

Version = tuple[int, int, int]

#: ``features/compatibility/gates.go`` ``VLLMMultiprocessing``: an operator-origin version at or above this
#: launches multinode vLLM with the multiprocessing backend (``backend_vllm.go`` ``shouldUseMpBackend``).
VLLM_MULTIPROCESSING_ORIGIN: Version = (1, 0, 0)


def parse_semver(text: str | None) -> tuple[Version, str] | None:
    """Masterminds/semver ``NewVersion`` (``_k8s._semver``): ``((major, minor, patch), prerelease)``, or None where
    it returns an error. Build metadata is checked, then ignored."""
    parsed = new_version(text)
    return None if parsed is None else (parsed[0], parsed[1])


def at_least(text: str | None, minimum: Version) -> bool:
    """``compatibility.Gate.Enabled``: the origin version parses and ``Compare(minimum) >= 0`` (``minimum`` a release:
    a prerelease of the same version is below it). An absent or unparseable version disables the gate."""
    parsed = parse_semver(text)
    if parsed is None:
        return False
    version, pre = parsed
    return version > minimum or (version == minimum and not pre)
