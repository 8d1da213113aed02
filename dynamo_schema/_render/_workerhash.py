"""DGD worker hash (``ComputeDGDWorkersSpecHash``): the algorithms and which operator release used which.

Algorithms (``ALGORITHMS``):

* ``dcd-runtime-version`` — the reference revision (``deploy/operator/internal/dynamo/hash.go`` at
  ai-dynamo/dynamo 2a6da14c; operator 1.5). The worker DCDs are generated through the normal
  DGD → DCD path with the worker hash replaced by ``worker-hash-placeholder``; the hash is
  ``sha256(json.Marshal(map[componentName]workerTemplate))[:8]`` where ``workerTemplate`` is
  ``{labels, annotations, runtimeVersion, spec}`` (all ``omitempty`` but ``spec``):
  ``labels`` = ``GetDCDKubeLabels(dcd)``, ``annotations`` = ``GetDCDKubeAnnotations(dcd)``,
  ``runtimeVersion`` = the resolved runtime version of the main container (override, else image
  tag) when it is ≥ 1.5.0, and ``spec`` = the DCD spec with ``replicas``, ``minAvailable``,
  ``scalingAdapter`` cleared and ``runtimeVersionOverride`` emptied, marshalled in Go struct order.
* ``dcd`` — the same without ``runtimeVersion`` (#9235/#9427 shipped in 1.2; the v2 value that is
  authoritative for DCD names from 1.4; #12633 added the runtime version in 1.5).
* ``legacy-v1`` — ``api/v1alpha1/legacy_worker_hash.go``: ``json.Marshal`` of the v1alpha1 worker
  services with non-pod fields stripped (the DCD suffix of new DGDs up to operator 1.3; v1beta1
  input is converted to v1alpha1 first, as ``ComputeLegacyAlphaDGDWorkersSpecHash`` did).
* ``rollout-v2`` — the ``api/v1beta1/worker_hash.go`` input struct ``{"version":
  "dgd-worker-rollout-v2", backendFramework, env, workers}`` (golden ``2bc34b39``). It is not on
  the upstream main history (no commit of the reference mirror contains that file); it is kept
  reachable with an explicit ``algorithm``.

``select_algorithm(operator_version)`` maps an emulated operator release to the algorithm whose
value names the worker DCDs of a new DGD (``worker-hash.md`` "Release History").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from .._core._consts import ANN_ORIGIN_VERSION
from .._core._datacopy import deepcopy
from ._hashjson import canonical_quantity, encode, go_marshal
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
            entry["podTemplate"] = encode(deepcopy(pt), "PodTemplateSpec")
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


def compute_rollout_v2_hash(dgd: Mapping[str, Any]) -> str:
    """The ``dgd-worker-rollout-v2`` worker hash of a DGD (dict form)."""
    data = go_marshal(worker_hash_input(dgd)).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]


# ---------------------------------------------------------------- main: hash of the generated DCDs

ALGORITHM_DCD_RUNTIME = "dcd-runtime-version"
ALGORITHM_DCD = "dcd"
ALGORITHM_ROLLOUT_V2 = "rollout-v2"
ALGORITHM_LEGACY_V1 = "legacy-v1"
ALGORITHMS = (ALGORITHM_DCD_RUNTIME, ALGORITHM_DCD, ALGORITHM_LEGACY_V1, ALGORITHM_ROLLOUT_V2)

WORKER_HASH_PLACEHOLDER = "worker-hash-placeholder"
MINIMUM_HASHED_RUNTIME_VERSION = (1, 5, 0)
# First operator release whose worker hash includes the resolved runtime version (#12633).
RUNTIME_VERSION_HASH_RELEASE = (1, 5, 0)
# First operator release in which new DGDs are named by the v2 hash (#11529); before it the
# DCD suffix of a new DGD was the legacy v1 (v1alpha1 struct) hash.
V2_AUTHORITATIVE_RELEASE = (1, 4, 0)
_BUNDLED_OPERATOR_VERSION = "1.5.0"

_IDENT = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_CORE = r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
_SEMVER_TAIL = rf"(?:-{_IDENT}(?:\.{_IDENT})*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
_STRICT_SEMVER = re.compile(rf"^{_CORE}{_SEMVER_TAIL}\Z")
_IMAGE_TAG = re.compile(rf"^[vV]?{_CORE}{_SEMVER_TAIL}\Z")
_LOOSE_VERSION = re.compile(r"^[vV]?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?\Z", re.ASCII)


def _operator_release(version: str | None) -> tuple[int, int, int] | None:
    m = _LOOSE_VERSION.match(str(version or "").strip())
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0))


def select_algorithm(operator_version: str | None) -> str:
    """The worker-hash algorithm of an operator release (None or unparseable: the bundled 1.5.0).

    1.5 and later: ``dcd-runtime-version`` (#12633); 1.4: ``dcd`` (v2 authoritative, #11529);
    earlier: ``legacy-v1`` (1.0/1.1 had only v1; 1.2/1.3 computed v1 and v2 but named the DCDs of
    a new DGD with v1: ``workerHashForDCDGeneration``).
    """
    release = _operator_release(operator_version) or _operator_release(_BUNDLED_OPERATOR_VERSION)
    assert release is not None
    if release >= RUNTIME_VERSION_HASH_RELEASE:
        return ALGORITHM_DCD_RUNTIME
    if release >= V2_AUTHORITATIVE_RELEASE:
        return ALGORITHM_DCD
    return ALGORITHM_LEGACY_V1


def _image_tag(image: str) -> str:
    ref = image.strip()
    at = ref.find("@")
    if at >= 0:
        ref = ref[:at]
    last_slash, last_colon = ref.rfind("/"), ref.rfind(":")
    if last_colon <= last_slash:
        return ""
    return ref[last_colon + 1:]


def resolve_runtime_version(image: str, override: str) -> tuple[int, int, int] | None:
    """``runtimeversion.Resolve``: a strict semver override wins, else the image tag; None if neither."""
    if override:
        m = _STRICT_SEMVER.match(override)
    else:
        m = _IMAGE_TAG.match(_image_tag(image).strip())
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _main_container(spec: Mapping[str, Any]) -> Mapping[str, Any] | None:
    for c in ((spec.get("podTemplate") or {}).get("spec") or {}).get("containers") or []:
        if isinstance(c, Mapping) and c.get("name") == "main":
            return c
    return None


def resolved_runtime_version_for_hash(spec: Mapping[str, Any]) -> str:
    """``resolvedRuntimeVersionForHash``: ``X.Y.Z`` when ≥ 1.5.0, else ``""``."""
    main = _main_container(spec)  # GetMainContainer
    image = str((main or {}).get("image") or "")
    version = resolve_runtime_version(image, str(spec.get("runtimeVersionOverride") or ""))
    if version is None or version < MINIMUM_HASHED_RUNTIME_VERSION:
        return ""
    return f"{version[0]}.{version[1]}.{version[2]}"


def _hash_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """``workerHashSpec``: scaling fields cleared, runtime version hashed separately. Not a deep copy:
    ``encode`` builds new containers and never changes its input."""
    out = {k: v for k, v in spec.items() if not str(k).startswith("_")}
    for key in ("replicas", "minAvailable", "scalingAdapter", "runtimeVersionOverride"):
        out.pop(key, None)
    return out


def _sorted_map(m: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): m[k] for k in sorted(m, key=str)}


# tests: True = build the hash input as upstream does (each carrier converted to v1beta1, each DCD
# back to v1alpha1) instead of reading the DCDs' v1alpha1 metadata from the DGD's view
ALWAYS_CONVERT = False


def generated_worker_dcds(dgd: Mapping[str, Any], namespace: str | None = None) -> list[tuple[dict[str, Any], Any]]:
    """The DCDs of ``dgd`` generated with the placeholder worker hash (``GenerateDynamoComponentsDeployments``),
    each with its v1alpha1 view's metadata (or ``_workloads._UNSET``: ask ``dcd_alpha_spec``), for the
    hash input: it reads each DCD's spec, labels, the topology-source annotations and the view's
    ``labels``, ``annotations``, ``subComponentType`` and ``dynamoNamespace``.

    Those four come from the DGD's v1alpha1 view directly (:func:`._alphacompat.generated_dcd_alpha_metadata`),
    so the DCDs are generated without ``applyDGDComponentAlphaCompatibilityToDCD``'s payload: no carrier
    converted to v1beta1 and no DCD back. Without a ``nvidia.com/dgd-spec`` payload
    (:func:`._alphacompat.may_preserve_alpha_metadata` false) not even the DGD is converted: each
    component's view is ``comp_to_svc`` alone (no ``labels``, ``annotations`` or ``dynamoNamespace``;
    ``subComponentType`` exactly for ``prefill``/``decode``), which is what "no view" says (None).
    ``tests/test_perf_paths.py`` compares the hash inputs against always converting. The DCDs are the
    generator's own (not copied): the hash input only reads them, and ``encode`` builds new containers."""
    from ._alphacompat import generated_dcd_alpha_metadata, may_preserve_alpha_metadata
    from ._graph import generate_dcds
    from ._workloads import _UNSET

    ns = str(namespace or (dgd.get("metadata") or {}).get("namespace") or "default")
    if ALWAYS_CONVERT:
        return [(d, _UNSET) for d in generate_dcds(dgd, WORKER_HASH_PLACEHOLDER, ns)]
    dcds = generate_dcds(dgd, WORKER_HASH_PLACEHOLDER, ns, alpha_compat=False)
    convert = may_preserve_alpha_metadata(dgd)
    comps = (dgd.get("spec") or {}).get("components") or []
    return [
        (d, generated_dcd_alpha_metadata(dgd, str(c.get("name", ""))) if convert else None)
        for d, c in zip(dcds, comps)
    ]


def dcd_worker_hash_input(
    dgd: Mapping[str, Any], namespace: str | None = None, runtime_version: bool = True,
) -> dict[str, Any]:
    """The ordered value whose Go ``json.Marshal`` is hashed (``map[componentName]workerTemplate``)."""
    from ._errors import RenderError
    from ._workloads import dcd_component_name, dcd_kube_annotations, dcd_kube_labels

    ns = str(namespace or (dgd.get("metadata") or {}).get("namespace") or "default")
    workers: dict[str, dict[str, Any]] = {}
    for dcd, alpha in generated_worker_dcds(dgd, ns):
        spec = dcd.get("spec") or {}
        if not is_worker_type(spec.get("type")):
            continue
        name = dcd_component_name(dcd)
        if not name:
            raise RenderError.at(f"generated worker DCD {(dcd.get('metadata') or {}).get('name', '')!r} has no component name label",
                              rule="render.worker-hash")
        if name in workers:
            raise RenderError.at(f'duplicate generated worker DCD component name "{name}"', rule="render.worker-hash")
        entry: dict[str, Any] = {}
        labels = dcd_kube_labels(dcd, ns, alpha)
        if labels:
            entry["labels"] = _sorted_map(labels)
        annotations = dcd_kube_annotations(dcd, alpha)
        if annotations:
            entry["annotations"] = _sorted_map(annotations)
        rv = resolved_runtime_version_for_hash(spec) if runtime_version else ""
        if rv:
            entry["runtimeVersion"] = rv
        entry["spec"] = encode(_hash_spec(spec), "DynamoComponentDeploymentSpec")
        workers[name] = entry
    return {name: workers[name] for name in sorted(workers)}


def compute_dcd_worker_hash(
    dgd: Mapping[str, Any], namespace: str | None = None, runtime_version: bool = True,
) -> str:
    """The worker hash of the reference revision (``runtime_version=False``: the 1.2–1.4 ``dcd`` value)."""
    data = go_marshal(dcd_worker_hash_input(dgd, namespace, runtime_version)).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]


def compute_worker_hash(
    dgd: Mapping[str, Any], options: Any = None, *, algorithm: str | None = None, namespace: str | None = None,
) -> str:
    """The 8-hex worker hash of a DGD (dict form, as the operator stores it: admission defaults applied).

    The algorithm is ``algorithm`` if given, else ``options.worker_hash_algorithm``, else the one of
    the emulated operator release ``options.operator_version`` (default: bundled 1.5.0). Without
    ``options`` the release is the DGD's ``nvidia.com/dynamo-operator-origin-version`` stamp, else the
    bundled release.
    """
    if algorithm is None and options is not None:
        algorithm = getattr(options, "worker_hash_algorithm", None)
    if algorithm is None:
        if options is not None:
            algorithm = select_algorithm(getattr(options, "operator_version", None))
        else:
            origin = ((dgd.get("metadata") or {}).get("annotations") or {}).get(ANN_ORIGIN_VERSION)
            algorithm = select_algorithm(str(origin) if origin else None)
    if namespace is None and options is not None:
        namespace = str((dgd.get("metadata") or {}).get("namespace") or getattr(options, "namespace", "") or "default")
    if algorithm == ALGORITHM_ROLLOUT_V2:
        return compute_rollout_v2_hash(dgd)
    if algorithm == ALGORITHM_DCD_RUNTIME:
        return compute_dcd_worker_hash(dgd, namespace, runtime_version=True)
    if algorithm == ALGORITHM_DCD:
        return compute_dcd_worker_hash(dgd, namespace, runtime_version=False)
    if algorithm == ALGORITHM_LEGACY_V1:
        return compute_legacy_v1_hash(dgd)
    from ._errors import RenderError

    raise RenderError.at(f"unknown worker hash algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}",
                      rule="render.worker-hash")


# ---------------------------------------------------------------- legacy v1 (v1alpha1 struct hash)

_ALPHA_WORKER_TYPES = ("worker", "prefill", "decode")
# stripV1alpha1NonPodTemplateFields (api/v1alpha1/legacy_worker_hash.go); minAvailable is kept.
_ALPHA_STRIPPED = ("annotations", "labels", "serviceName", "componentType", "subComponentType",
                   "runtimeVersionOverride", "dynamoNamespace", "replicas", "autoscaling", "scalingAdapter",
                   "ingress", "modelRef", "eppConfig")


def legacy_v1_hash_input(alpha_dgd: Mapping[str, Any]) -> dict[str, Any]:
    """``map[serviceName]strippedSharedSpec`` of a nvidia.com/v1alpha1 DGD (dict form)."""
    services = (alpha_dgd.get("spec") or {}).get("services") or {}
    out: dict[str, Any] = {}
    for name in sorted(services):
        svc = services[name]
        if not isinstance(svc, Mapping) or svc.get("componentType") not in _ALPHA_WORKER_TYPES:
            continue
        stripped = {k: v for k, v in svc.items() if k not in _ALPHA_STRIPPED}
        out[str(name)] = encode(stripped, "AlphaSharedSpec")
    return out


def compute_legacy_v1_hash(dgd: Mapping[str, Any]) -> str:
    """The v1 worker hash (``v1alpha1.ComputeDGDWorkersSpecHash``; for a v1beta1 DGD after conversion
    to v1alpha1, as ``ComputeLegacyAlphaDGDWorkersSpecHash`` of operator 1.2/1.3 does)."""
    alpha: Mapping[str, Any] = dgd
    if dgd.get("apiVersion") != "nvidia.com/v1alpha1":
        from ._alphacompat import alpha_view

        alpha = alpha_view(dgd)  # the same conversion the DCD generation of this DGD uses
    data = go_marshal(legacy_v1_hash_input(alpha)).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]
