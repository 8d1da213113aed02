"""Base class of every model and the hand-written Kubernetes ObjectMeta."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

# strict: the API server does not coerce "3" to 3 nor 3 to "3".
# defer_build: a model's validator is built on first use, not at import (pre-commit speed).
_CONF = ConfigDict(
    populate_by_name=True,
    strict=True,
    defer_build=True,
    protected_namespaces=(),
    validate_default=False,
)


class _Base(BaseModel):
    """Shared behaviour: dump with JSON names and without unset optional fields."""

    model_config = ConfigDict(extra="forbid", **_CONF)

    def to_dict(self) -> dict[str, Any]:
        """The object as Kubernetes JSON (aliases, no ``None`` values)."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")


class OwnerReference(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    api_version: StrictStr = Field(alias="apiVersion")
    kind: StrictStr = Field(alias="kind")
    name: StrictStr = Field(alias="name")
    uid: StrictStr = Field(alias="uid")
    controller: Optional[StrictBool] = Field(default=None, alias="controller")
    block_owner_deletion: Optional[StrictBool] = Field(default=None, alias="blockOwnerDeletion")


class ManagedFieldsEntry(_Base):
    model_config = ConfigDict(extra="forbid", **_CONF)
    manager: Optional[StrictStr] = Field(default=None, alias="manager")
    operation: Optional[StrictStr] = Field(default=None, alias="operation")
    api_version: Optional[StrictStr] = Field(default=None, alias="apiVersion")
    time: Optional[StrictStr] = Field(default=None, alias="time")
    fields_type: Optional[StrictStr] = Field(default=None, alias="fieldsType")
    fields_v1: Optional[Dict[str, Any]] = Field(
        default=None, alias="fieldsV1", json_schema_extra={"x-kubernetes-preserve-unknown-fields": True}
    )
    subresource: Optional[StrictStr] = Field(default=None, alias="subresource")


class ObjectMeta(_Base):
    """Kubernetes ``metav1.ObjectMeta`` (the fields a manifest may carry)."""

    model_config = ConfigDict(extra="forbid", **_CONF)
    name: Optional[StrictStr] = Field(default=None, alias="name")
    generate_name: Optional[StrictStr] = Field(default=None, alias="generateName")
    namespace: Optional[StrictStr] = Field(default=None, alias="namespace")
    self_link: Optional[StrictStr] = Field(default=None, alias="selfLink")
    uid: Optional[StrictStr] = Field(default=None, alias="uid")
    resource_version: Optional[StrictStr] = Field(default=None, alias="resourceVersion")
    generation: Optional[StrictInt] = Field(default=None, alias="generation", json_schema_extra={"format": "int64"})
    creation_timestamp: Optional[StrictStr] = Field(
        default=None, alias="creationTimestamp", json_schema_extra={"format": "date-time"}
    )
    deletion_timestamp: Optional[StrictStr] = Field(
        default=None, alias="deletionTimestamp", json_schema_extra={"format": "date-time"}
    )
    deletion_grace_period_seconds: Optional[StrictInt] = Field(
        default=None, alias="deletionGracePeriodSeconds", json_schema_extra={"format": "int64"}
    )
    labels: Optional[Dict[str, StrictStr]] = Field(default=None, alias="labels")
    annotations: Optional[Dict[str, StrictStr]] = Field(default=None, alias="annotations")
    owner_references: Optional[List[OwnerReference]] = Field(
        default=None,
        alias="ownerReferences",
        json_schema_extra={"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"]},
    )
    finalizers: Optional[List[StrictStr]] = Field(
        default=None, alias="finalizers", json_schema_extra={"x-kubernetes-list-type": "set"}
    )
    managed_fields: Optional[List[ManagedFieldsEntry]] = Field(
        default=None, alias="managedFields", json_schema_extra={"x-kubernetes-list-type": "atomic"}
    )
