"""Checkpoint facts the Grove cliques read: a component's checkpoint config, the DGD-managed checkpoint's
ID, what the operator knows about it (``CheckpointInfo``) and the restore metadata of a clique.

Upstream: ``internal/checkpoint/hash.go`` (``DGDCheckpointID``), ``internal/checkpoint/compatibility.go``
(``ValidateCheckpointCompatibility``), ``internal/checkpoint/podspec.go`` (``ApplyRestoreCandidateMetadata``,
``ApplyRestorePodMetadataWithStorageConfig``), ``internal/checkpointjob/common.go``
(``ApplyRestoreTargetMetadata``, ``FormatTargetContainers``) and the checkpoint parts of
``internal/dynamo/graph.go: buildCliqueForRole`` / ``buildGroveScalingGroupConfig``. The DynamoCheckpoint
objects themselves are built in ``_checkpointjob``. The cluster is empty: a checkpoint the operator has
just created is never Ready, so no restore is injected into pod specs.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._record import Record
from . import _dra

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

IMMEDIATE = "Immediate"
WAIT_FOR_CHECKPOINT = "WaitForCheckpoint"
LABEL_CHECKPOINT_ID = "nvidia.com/snapshot-checkpoint-id"
LABEL_RESTORE_TARGET = "nvidia.com/snapshot-is-restore-target"
LABEL_CHECKPOINT_SOURCE = "nvidia.com/snapshot-is-checkpoint-source"
ANN_ARTIFACT_VERSION = "nvidia.com/snapshot-artifact-version"
ANN_TARGET_CONTAINERS = "nvidia.com/snapshot-target-containers"
ANN_STORAGE_TYPE = "nvidia.com/snapshot-storage-type"
ANN_STORAGE_BASE_PATH = "nvidia.com/snapshot-storage-base-path"
ANN_RESTORE_CANDIDATE = "nvidia.com/dynamo-checkpoint-restore-candidate"
ANN_CHECKPOINT_NAME = "nvidia.com/dynamo-checkpoint-name"
ANN_STARTUP_POLICY = "nvidia.com/dynamo-checkpoint-startup-policy"
_RESTORE_STATUS = ("nvidia.com/snapshot-restore-status", "nvidia.com/snapshot-restore-container-id")
RULE_CHECKPOINT = "render.checkpoint"


def checkpoint_config(component: Mapping[str, Any]) -> dict[str, Any] | None:
    """``GetCheckpoint``: the component's ``experimental.checkpoint`` when ``enabled``."""
    cfg = _dra.experimental(component).get("checkpoint")
    return cfg if isinstance(cfg, dict) and cfg.get("enabled") is True else None


def compatibility_errors(component: Mapping[str, Any]) -> list[str]:
    """``ValidateCheckpointCompatibility``: checkpointing refused with inter-pod GMS and with failover."""
    if checkpoint_config(component) is None:
        return []
    out = []
    gms = _dra.gms_spec(component)
    if gms is not None and gms.get("mode") == "InterPod":
        out.append("Snapshot with gpuMemoryService.mode=InterPod is unsupported")
    if isinstance(_dra.experimental(component).get("failover"), dict):
        out.append("Snapshot with active/passive failover is temporarily unsupported")
    return out


def dgd_checkpoint_id(namespace: str, dgd_name: str, dgd_uid: str, component: str, worker_hash: str) -> str:
    """``DGDCheckpointID``: 32 hex digits of the SHA-256 of the identity as Go's ``encoding/json`` writes it
    (``namespace``, ``dgdUID`` and ``workerHash`` omitted when empty)."""
    import hashlib
    import json

    data: dict[str, str] = {}
    if namespace:
        data["namespace"] = namespace
    data["dgdName"] = dgd_name
    if dgd_uid:
        data["dgdUID"] = dgd_uid
    data["componentName"] = component
    if worker_hash:
        data["workerHash"] = worker_hash
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    # encoding/json escapes <, > and & (HTMLEscape); names and UIDs cannot hold them
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class CheckpointInfo(Record):
    """What the reconcile knows about a component's checkpoint (``checkpoint.CheckpointInfo``): a value with
    a dataclass's constructor, equality and repr, written out (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("name", "checkpoint_id", "startup_policy", "targets", "ready")
    name: str
    checkpoint_id: str
    startup_policy: str
    targets: tuple[str, ...]
    ready: bool

    def __init__(self, name: str, checkpoint_id: str, startup_policy: str = IMMEDIATE,
                 targets: tuple[str, ...] = (), ready: bool = False) -> None:
        self.name = name
        self.checkpoint_id = checkpoint_id
        self.startup_policy = startup_policy
        self.targets = targets
        self.ready = ready

    @property
    def waiting(self) -> bool:
        """``WaitForCheckpoint`` and not Ready: the workers are kept at zero replicas."""
        return self.startup_policy == WAIT_FOR_CHECKPOINT and not self.ready


def _clear_restore_status(annotations: dict[str, str]) -> None:
    """``clearRestoreStatusKeys``: the legacy keys and the per-container ``<key>.<container>`` ones."""
    prefixes = tuple(p + "." for p in _RESTORE_STATUS)
    for key in [k for k in annotations if k in _RESTORE_STATUS or k.startswith(prefixes)]:
        del annotations[key]


def apply_clique_metadata(labels: dict[str, str], annotations: dict[str, str], info: CheckpointInfo | None,
                          checkpoint_gate: bool) -> None:
    """The restore metadata of a non-GMS clique. ``Immediate`` (admission restore, the gate on): marked as a
    restore candidate of the named checkpoint. Otherwise (``ApplyRestorePodMetadataWithStorageConfig``; a
    checkpoint that is not Ready): every restore label and annotation a user may have written is removed."""
    if checkpoint_gate and info is not None and info.startup_policy in ("", IMMEDIATE):
        for key in (LABEL_CHECKPOINT_ID, LABEL_RESTORE_TARGET, LABEL_CHECKPOINT_SOURCE):
            labels.pop(key, None)
        for key in (ANN_ARTIFACT_VERSION, ANN_STORAGE_TYPE, ANN_STORAGE_BASE_PATH, ANN_RESTORE_CANDIDATE,
                    ANN_CHECKPOINT_NAME, ANN_STARTUP_POLICY, ANN_TARGET_CONTAINERS):
            annotations.pop(key, None)
        if not info.name:
            return
        annotations[ANN_RESTORE_CANDIDATE] = "true"
        annotations[ANN_CHECKPOINT_NAME] = info.name
        annotations[ANN_STARTUP_POLICY] = info.startup_policy or IMMEDIATE
        annotations[ANN_TARGET_CONTAINERS] = format_targets(info.targets or ("main",))
        return
    for key in (LABEL_CHECKPOINT_SOURCE, LABEL_RESTORE_TARGET, LABEL_CHECKPOINT_ID):
        labels.pop(key, None)
    annotations.pop(ANN_ARTIFACT_VERSION, None)
    _clear_restore_status(annotations)
    for key in (ANN_TARGET_CONTAINERS, ANN_STORAGE_TYPE, ANN_STORAGE_BASE_PATH, ANN_RESTORE_CANDIDATE,
                ANN_CHECKPOINT_NAME, ANN_STARTUP_POLICY):
        annotations.pop(key, None)


def format_targets(names: tuple[str, ...] | list[str]) -> str:
    """``FormatTargetContainers``: the trimmed, non-empty names joined by commas."""
    return ",".join(n.strip() for n in names if n.strip())
