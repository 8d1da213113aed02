"""Cluster and operator state that admission depends on, as an explicit input."""

from __future__ import annotations

from collections.abc import Mapping

from .._core._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

#: Operator version of the reference revision (ai-dynamo/dynamo@2a6da14c, Helm chart
#: ``deploy/helm/charts/platform`` version 1.5.0); stamped as
#: ``nvidia.com/dynamo-operator-origin-version`` on DGD create.
BUNDLED_OPERATOR_VERSION = "1.5.0"


class AdmissionSettings(FrozenRecord):
    """Operator configuration and cluster facts the webhooks consult.

    Defaults describe a cluster with Grove and the Gateway API Inference Extension installed,
    the default operator feature gates otherwise (``features.Defaults()``: GPU discovery on,
    checkpoint off) and the bundled operator version.

    * ``grove_enabled`` (True) — the operator's Grove feature gate (Grove installed and enabled).
      Decides the ``nvidia.com/workload-provider`` chosen on create and the Grove pathway.
    * ``lws_enabled`` (True) — LeaderWorkerSet installed and its gate on (rendering of multinode
      components without Grove; not used by admission).
    * ``lpx_enabled`` (False) — LPX support (out of scope; recorded only).
    * ``grove_tas_enabled`` (False) — Grove's topology-aware scheduling (Grove's create admission
      refuses topology constraints on a PodCliqueSet without it; Helm default off).
    * ``checkpoint_enabled`` (False) — the checkpoint gate (``experimental.checkpoint.enabled``).
    * ``gpu_discovery_enabled`` (True) — the GPU discovery gate (DGDR ``spec.hardware``).
    * ``inference_pool_available`` (True) — the InferencePool API group exists (EPP on DGD create).
    * ``dra_enabled`` (False) — Dynamic Resource Allocation is available (the ``resource.k8s.io/v1`` API
      and the DeviceClass ``gpu.nvidia.com``; the operator's DRA gate). Without it the operator's
      reconcile fails for GPU Memory Service / failover components.
    * ``discovery_backend`` ("kubernetes") — operator discovery backend (rendering only).
    * ``operator_version`` ("1.5.0") — the operator version (origin-version stamp, DGDR image).
    * ``dgdr_default_image`` ("") — explicit DGDR profiler image; empty derives
      ``nvcr.io/nvidia/ai-dynamo/dynamo-planner:<operator_version>``.
    * ``operator_principal`` ("") — the operator's service-account username; empty disables the
      "materialized only by the operator" check (as upstream does when unset).
    * ``request_username`` (None) — the requesting user on UPDATE; None means unknown, which makes
      replica changes under a scaling adapter fail closed like upstream.
    * ``cluster_topologies`` (None) — ClusterTopologyBinding name → ordered level domains
      (broadest first). None means "unknown": the live topology checks are skipped.
    * ``operator_release`` ("") — the operator release whose CRDs and webhooks judge a manifest
      (``validate --operator-version``): ``"0.8"`` … ``"1.4"`` (``X.Y`` or ``X.Y.Z``, kept as ``X.Y``),
      ``""`` or ``"1.5"`` for the reference revision. An unknown release raises ``ValueError`` naming the
      known ones. When it is set and ``operator_version`` is left at its default, ``operator_version``
      becomes ``X.Y.0`` (the version that release stamps). docs/releases.md.
    """

    __slots__ = _FIELDS = (
        "grove_enabled", "lws_enabled", "lpx_enabled", "grove_tas_enabled", "checkpoint_enabled",
        "gpu_discovery_enabled", "inference_pool_available", "dra_enabled", "discovery_backend",
        "operator_version", "dgdr_default_image", "operator_principal", "request_username",
        "cluster_topologies", "operator_release")
    _HASH = _FIELDS[:-2] + _FIELDS[-1:]  # ``cluster_topologies`` compared, not hashed
    grove_enabled: bool
    lws_enabled: bool
    lpx_enabled: bool
    grove_tas_enabled: bool
    checkpoint_enabled: bool
    gpu_discovery_enabled: bool
    inference_pool_available: bool
    dra_enabled: bool
    discovery_backend: str
    operator_version: str
    dgdr_default_image: str
    operator_principal: str
    request_username: str | None
    cluster_topologies: Mapping[str, tuple[str, ...]] | None
    operator_release: str

    def __init__(self, grove_enabled: bool = True, lws_enabled: bool = True, lpx_enabled: bool = False,
                 grove_tas_enabled: bool = False, checkpoint_enabled: bool = False,
                 gpu_discovery_enabled: bool = True, inference_pool_available: bool = True,
                 dra_enabled: bool = False, discovery_backend: str = "kubernetes", operator_version: str = BUNDLED_OPERATOR_VERSION,
                 dgdr_default_image: str = "", operator_principal: str = "",
                 request_username: str | None = None,
                 cluster_topologies: Mapping[str, tuple[str, ...]] | None = None,
                 operator_release: str = "") -> None:
        setattr_ = object.__setattr__
        if operator_release and isinstance(operator_release, str):
            from .._schema._releases import release_of

            operator_release = release_of(operator_release)  # ValueError (UnknownRelease) when unknown
            if operator_release and operator_version == BUNDLED_OPERATOR_VERSION:
                operator_version = operator_release + ".0"
        for name, value in zip(self._FIELDS, (
                grove_enabled, lws_enabled, lpx_enabled, grove_tas_enabled, checkpoint_enabled,
                gpu_discovery_enabled, inference_pool_available, dra_enabled, discovery_backend, operator_version,
                dgdr_default_image, operator_principal, request_username, cluster_topologies, operator_release)):
            setattr_(self, name, value)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> AdmissionSettings:
        """Build settings from a config mapping or ``--set key=value`` strings.

        Keys may use ``snake_case`` or ``kebab-case``. Unknown keys raise ``ValueError``. String
        values are coerced: booleans accept true/false/yes/no/1/0; ``cluster_topologies`` accepts
        a mapping of name → list of domains, or ``"name=a,b,c;other=x,y"``.
        """
        known = set(cls._FIELDS)
        kwargs: dict[str, Any] = {}
        for raw_key, value in data.items():
            key = str(raw_key).replace("-", "_")
            if key not in known:
                raise ValueError(
                    f"unknown admission setting {raw_key!r}; known settings: {', '.join(sorted(known))}"
                )
            kwargs[key] = _coerce(key, value)
        return cls(**kwargs)


_BOOL_KEYS = {
    "grove_enabled",
    "grove_tas_enabled",
    "lws_enabled",
    "lpx_enabled",
    "checkpoint_enabled",
    "gpu_discovery_enabled",
    "inference_pool_available",
    "dra_enabled",
}


def _coerce(key: str, value: Any) -> Any:
    if key in _BOOL_KEYS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise ValueError(f"admission setting {key!r} must be a boolean, got {value!r}")
    if key == "cluster_topologies":
        if value is None:
            return None
        if isinstance(value, str):
            out: dict[str, tuple[str, ...]] = {}
            for part in filter(None, (p.strip() for p in value.split(";"))):
                name, _, domains = part.partition("=")
                out[name.strip()] = tuple(d.strip() for d in domains.split(",") if d.strip())
            return out
        if isinstance(value, Mapping):
            return {str(k): tuple(str(d) for d in (v or ())) for k, v in value.items()}
        raise ValueError(f"admission setting {key!r} must be a mapping, got {value!r}")
    if key == "request_username":
        return None if value is None else str(value)
    if value is None:
        raise ValueError(f"admission setting {key!r} must be a string")
    return str(value)
