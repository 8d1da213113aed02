"""Operator configuration and cluster state Grove's admission reads, as explicit input."""

from __future__ import annotations

from .._core._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, Mapping, Sequence

KUBE_SCHEDULER = "default-scheduler"
KAI_SCHEDULER = "kai-scheduler"
VOLCANO_SCHEDULER = "volcano"
LPX_SCHEDULER = "lpx-scheduler"


class GroveSettings(FrozenRecord):
    """Operator configuration and cluster state Grove's create admission reads.

    Defaults are the Helm chart's (grove.md §3.7, §3.9): scheduler profiles ``default-scheduler`` and
    ``kai-scheduler`` enabled, ``default-scheduler`` the default; topology-aware scheduling off;
    auto-MNNVL off. ``cluster_topologies`` maps ClusterTopologyBinding names to their domains,
    broadest first; ``None`` means unknown (lookups are skipped).

    An immutable value (a :class:`~dynamo_schema._core._record.FrozenRecord`: equality, hash and repr as a
    frozen dataclass gives them, without creating one at import; docs/decisions.md D26, D32).
    """

    __slots__ = _FIELDS = ("enabled_schedulers", "default_scheduler", "tas_enabled", "cluster_topologies",
                           "auto_mnnvl_enabled")
    enabled_schedulers: tuple[str, ...]
    default_scheduler: str
    tas_enabled: bool
    cluster_topologies: Mapping[str, Sequence[str]] | None
    auto_mnnvl_enabled: bool

    def __init__(self, enabled_schedulers: tuple[str, ...] = (KUBE_SCHEDULER, KAI_SCHEDULER),
                 default_scheduler: str = KUBE_SCHEDULER, tas_enabled: bool = False,
                 cluster_topologies: Mapping[str, Sequence[str]] | None = None, auto_mnnvl_enabled: bool = False) -> None:
        for name, value in zip(self._FIELDS, (enabled_schedulers, default_scheduler, tas_enabled, cluster_topologies,
                                              auto_mnnvl_enabled)):
            object.__setattr__(self, name, value)


def grove_settings(settings: Any) -> GroveSettings:
    """Grove's admission settings from an :class:`~dynamo_schema._admission.AdmissionSettings` (one
    input: the TAS gate and the ClusterTopologyBindings)."""
    return GroveSettings(tas_enabled=bool(settings.grove_tas_enabled), cluster_topologies=settings.cluster_topologies)
