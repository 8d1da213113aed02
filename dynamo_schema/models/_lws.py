"""Typed model of the LeaderWorkerSet API (``leaderworkerset.x-k8s.io/v1``) the operator creates.

Written from the LWS API (``sigs.k8s.io/lws`` ``api/leaderworkerset/v1``): the fields, enums, bounds and
defaults of LeaderWorkerSetSpec. Pod templates reuse the Kubernetes ``PodTemplateSpec`` model.
"""

from __future__ import annotations

from typing import Any, Dict, Literal, Optional, Union

from pydantic import ConfigDict, Field, StrictInt, StrictStr

from ._base import _CONF, ObjectMeta, _Base
from ._generated import PodTemplateSpec

IntOrString = Union[StrictInt, StrictStr]
_IOS: Dict[str, Any] = {"x-kubernetes-int-or-string": True}


class SubGroupPolicy(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    sub_group_policy_type: Optional[Literal["LeaderWorker", "LeaderExcluded"]] = Field(
        default=None, alias="subGroupPolicyType")
    sub_group_size: Optional[StrictInt] = Field(default=None, alias="subGroupSize", ge=1,
                                                json_schema_extra={"format": "int32"})


class LeaderWorkerTemplate(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    leader_template: Optional[PodTemplateSpec] = Field(default=None, alias="leaderTemplate")
    worker_template: PodTemplateSpec = Field(alias="workerTemplate")
    size: Optional[StrictInt] = Field(default=1, alias="size", ge=1, json_schema_extra={"format": "int32"})
    restart_policy: Optional[Literal["RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "Default", "None"]] = Field(
        default=None, alias="restartPolicy")
    sub_group_policy: Optional[SubGroupPolicy] = Field(default=None, alias="subGroupPolicy")


class RollingUpdateConfiguration(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    partition: Optional[StrictInt] = Field(default=None, alias="partition", ge=0, json_schema_extra={"format": "int32"})
    max_unavailable: Optional[IntOrString] = Field(default=None, alias="maxUnavailable", json_schema_extra=_IOS)
    max_surge: Optional[IntOrString] = Field(default=None, alias="maxSurge", json_schema_extra=_IOS)


class RolloutStrategy(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    type: Optional[Literal["RollingUpdate"]] = Field(default=None, alias="type")
    rolling_update_configuration: Optional[RollingUpdateConfiguration] = Field(
        default=None, alias="rollingUpdateConfiguration")


class NetworkConfig(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    subdomain_policy: Optional[Literal["Shared", "UniquePerReplica"]] = Field(default=None, alias="subdomainPolicy")


class LeaderWorkerSetSpec(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    replicas: Optional[StrictInt] = Field(default=1, alias="replicas", ge=0, json_schema_extra={"format": "int32"})
    leader_worker_template: LeaderWorkerTemplate = Field(alias="leaderWorkerTemplate")
    rollout_strategy: Optional[RolloutStrategy] = Field(default=None, alias="rolloutStrategy")
    startup_policy: Optional[Literal["LeaderCreated", "LeaderReady"]] = Field(default=None, alias="startupPolicy")
    network_config: Optional[NetworkConfig] = Field(default=None, alias="networkConfig")


class LeaderWorkerSet(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    api_version: Literal["leaderworkerset.x-k8s.io/v1"] = Field(alias="apiVersion")
    kind: Literal["LeaderWorkerSet"] = Field(alias="kind")
    metadata: Optional[ObjectMeta] = Field(default=None, alias="metadata")
    spec: Optional[LeaderWorkerSetSpec] = Field(default=None, alias="spec")
