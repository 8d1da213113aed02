"""The operator-origin version the renderer reads (``nvidia.com/dynamo-operator-origin-version``).

The reference revision's rendering has no runtime-version gate (docs/decisions.md D37): the resolved
runtime version enters only the worker hash (``_workerhash.resolved_runtime_version_for_hash``).
"""

from __future__ import annotations

import re

Version = tuple[int, int, int]

#: ``features/compatibility/gates.go`` ``VLLMMultiprocessing``: an operator-origin version at or above this
#: launches multinode vLLM with the multiprocessing backend (``backend_vllm.go`` ``shouldUseMpBackend``).
VLLM_MULTIPROCESSING_ORIGIN: Version = (1, 0, 0)


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
