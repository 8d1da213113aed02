"""DGD worker hash (``ComputeDGDWorkersSpecHash``, ``dgd-worker-rollout-v2``).

``rendering.md`` §3.2: ``sha256(json.Marshal(input))[:8]`` over
``{"version":"dgd-worker-rollout-v2","backendFramework":…,"env":…,"workers":{name: {...}}}`` where
only worker, prefill and decode components contribute and, per worker, the fields
``globalDynamoNamespace, podTemplate, multinode, sharedMemorySize, frontendSidecar,
compilationCache, experimental`` are kept (replicas, scalingAdapter, modelRef, eppConfig,
topologyConstraint, type are excluded). This is the upstream revision whose golden test expects
``2bc34b39`` (``api/v1beta1/worker_hash.go``): ``spec.env`` is hashed at the top level and the
component ``type`` is not part of the input.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from typing import Any

from ._gojson import canonical_quantity, encode, go_marshal
from ._names import is_worker_type

HASH_INPUT_VERSION = "dgd-worker-rollout-v2"


def _pod_template_is_empty(pt: Any) -> bool:
    if not isinstance(pt, Mapping):
        return True
    meta = pt.get("metadata") or {}
    spec = pt.get("spec") or {}
    return not any(v not in (None, {}, [], "") for v in meta.values()) and not any(
        v not in (None, {}, [], "") for v in spec.values()
    )


def worker_hash_input(dgd: Mapping[str, Any]) -> dict[str, Any]:
    spec = dgd.get("spec") or {}
    components = spec.get("components") or []
    workers: dict[str, Any] = {}
    by_name: dict[str, Mapping[str, Any]] = {}
    for comp in components:
        if isinstance(comp, Mapping) and is_worker_type(comp.get("type")):
            by_name.setdefault(str(comp.get("name", "")), comp)
    for name in sorted(by_name):
        comp = by_name[name]
        entry: dict[str, Any] = {}
        if comp.get("globalDynamoNamespace"):
            entry["globalDynamoNamespace"] = True
        pt = comp.get("podTemplate")
        if pt is not None and not _pod_template_is_empty(pt):
            entry["podTemplate"] = encode(copy.deepcopy(pt), "PodTemplateSpec")
        if comp.get("multinode") is not None:
            entry["multinode"] = encode(comp["multinode"], "MultinodeSpec")
        if comp.get("sharedMemorySize") is not None:
            entry["sharedMemorySize"] = canonical_quantity(comp["sharedMemorySize"])
        if comp.get("frontendSidecar") is not None:
            entry["frontendSidecar"] = comp["frontendSidecar"]
        if comp.get("compilationCache") is not None:
            entry["compilationCache"] = encode(comp["compilationCache"], "CompilationCacheConfig")
        if comp.get("experimental") is not None:
            entry["experimental"] = encode(comp["experimental"], None)
        workers[name] = entry
    out: dict[str, Any] = {"version": HASH_INPUT_VERSION}
    if spec.get("backendFramework"):
        out["backendFramework"] = spec["backendFramework"]
    if spec.get("env"):
        out["env"] = encode(spec["env"], "list:EnvVar")
    if workers:
        out["workers"] = workers
    return out


def compute_worker_hash(dgd: Mapping[str, Any]) -> str:
    """The 8-hex worker hash of a DGD (dict form)."""
    data = go_marshal(worker_hash_input(dgd)).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]
