"""The kinds this package models, in one place (docs/decisions.md D50).

Every command asks this module which kinds it knows: ``validate`` (and its kind policy), ``default``,
``convert``, ``explain``, ``render``'s pass-through, ``schema``. Served versions are those of the CRDs at
the reference revision (``deploy/operator/config/crd/bases``; newest first). Lowest layer, no imports.
"""

from __future__ import annotations

DGD = "DynamoGraphDeployment"
DCD = "DynamoComponentDeployment"
DGDR = "DynamoGraphDeploymentRequest"
DGDSA = "DynamoGraphDeploymentScalingAdapter"

#: the Dynamo kinds with the operator's whole admission chain (mutating and validating webhooks) and a
#: renderer: checked by ``_pipeline/_validate.check_nvidia``
ADMITTED_KINDS = (DGD, DCD, DGDR)

#: every kind of the operator's CRD bundle -> its served versions, newest first
DYNAMO_KINDS: dict[str, tuple[str, ...]] = {
    DGD: ("v1beta1", "v1alpha1"),
    DCD: ("v1beta1", "v1alpha1"),
    DGDR: ("v1beta1", "v1alpha1"),
    DGDSA: ("v1beta1", "v1alpha1"),
    "DynamoModel": ("v1alpha1",),
    "DynamoCheckpoint": ("v1alpha1",),
    "DynamoWorkerMetadata": ("v1alpha1",),
}

#: the CRDs' ``shortNames``
SHORT_NAMES: dict[str, str] = {"dgd": DGD, "dcd": DCD, "dgdr": DGDR, "dgdsa": DGDSA, "dm": "DynamoModel",
                               "dckpt": "DynamoCheckpoint", "dwm": "DynamoWorkerMetadata"}

#: the rest of the bundle (schema, ObjectMeta, CEL; DynamoModel's validating webhook): ``_schema/_extra_kinds``
EXTRA_KINDS: dict[str, tuple[str, ...]] = {k: v for k, v in DYNAMO_KINDS.items() if k not in ADMITTED_KINDS}

#: the kinds with a v1alpha1 <-> v1beta1 conversion (the CRDs' conversion webhook): ``_convert``
CONVERTIBLE_KINDS = tuple(k for k, v in DYNAMO_KINDS.items() if len(v) > 1)

#: the workload kinds the operator creates, with bundled schemas: (group, kind) -> served versions
WORKLOAD_KINDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("grove.io", "PodCliqueSet"): ("v1alpha1",),
    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"): ("v1",),
}

#: InferCrane's DeploymentSpec
INFERCRANE_KINDS: dict[tuple[str, str], tuple[str, ...]] = {("infercrane.dev", "Deployment"): ("v1",)}

GROUP = "nvidia.com"
MODELLED_GROUPS = (GROUP, "grove.io", "leaderworkerset.x-k8s.io", "infercrane.dev")


def served(api: str, kind: str) -> bool:
    """Whether ``api``/``kind`` is one of the Dynamo kinds and versions the CRD bundle serves."""
    group, _, version = api.rpartition("/")
    return group == GROUP and version in DYNAMO_KINDS.get(kind, ())


def served_text(kind: str) -> str:
    """``"nvidia.com/v1beta1" and "nvidia.com/v1alpha1"`` (the served versions of a Dynamo kind, quoted)."""
    return " and ".join(f'"{GROUP}/{v}"' for v in DYNAMO_KINDS.get(kind, ()))


def unserved_version(kind: str, api: str, versions: tuple[str, ...] | None = None, group: str = GROUP) -> str:
    """The refusal of a version a kind does not serve, worded alike by ``convert --to`` and
    ``explain --api-version``: ``DynamoModel has no version 'nvidia.com/v1beta1' (served: nvidia.com/v1alpha1)``."""
    served_ = ", ".join(f"{group}/{v}" for v in (DYNAMO_KINDS.get(kind, ()) if versions is None else versions))
    return f"{kind} has no version {api!r} (served: {served_})"
