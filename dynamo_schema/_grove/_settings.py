"""Operator configuration and cluster state Grove's admission reads, as explicit input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

KUBE_SCHEDULER = "default-scheduler"
KAI_SCHEDULER = "kai-scheduler"
VOLCANO_SCHEDULER = "volcano"
LPX_SCHEDULER = "lpx-scheduler"


@dataclass(frozen=True)
class GroveSettings:
    """Operator configuration and cluster state Grove's create admission reads.

    Defaults are the Helm chart's (grove.md §3.7, §3.9): scheduler profiles ``default-scheduler`` and
    ``kai-scheduler`` enabled, ``default-scheduler`` the default; topology-aware scheduling off;
    auto-MNNVL off. ``cluster_topologies`` maps ClusterTopologyBinding names to their domains,
    broadest first; ``None`` means unknown (lookups are skipped).
    """

    enabled_schedulers: tuple[str, ...] = (KUBE_SCHEDULER, KAI_SCHEDULER)
    default_scheduler: str = KUBE_SCHEDULER
    tas_enabled: bool = False
    cluster_topologies: Mapping[str, Sequence[str]] | None = None
    auto_mnnvl_enabled: bool = False


def grove_settings(settings: Any) -> GroveSettings:
    """Grove's admission settings from an :class:`~dynamo_schema._admission.AdmissionSettings` (one
    input: the TAS gate and the ClusterTopologyBindings)."""
    return GroveSettings(tas_enabled=bool(settings.grove_tas_enabled), cluster_topologies=settings.cluster_topologies)
