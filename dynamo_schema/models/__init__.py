"""Typed pydantic v2 models of the nvidia.com/v1beta1 Dynamo resources.

JSON names are aliases, attributes are snake_case; models are strict (no type coercion, unknown fields
rejected) and built lazily on first validation. ``Model.model_validate(data)`` checks a manifest;
``obj.to_dict()`` gives it back as Kubernetes JSON.
"""

from ._base import ObjectMeta
from ._generated import *  # noqa: F403
from ._generated import (
    DynamoComponentDeployment,
    DynamoComponentDeploymentSharedSpec,
    DynamoComponentDeploymentSpec,
    DynamoGraphDeployment,
    DynamoGraphDeploymentRequest,
    DynamoGraphDeploymentRequestSpec,
    DynamoGraphDeploymentSpec,
    PodTemplateSpec,
)

__all__ = [
    "DynamoComponentDeployment",
    "DynamoComponentDeploymentSharedSpec",
    "DynamoComponentDeploymentSpec",
    "DynamoGraphDeployment",
    "DynamoGraphDeploymentRequest",
    "DynamoGraphDeploymentRequestSpec",
    "DynamoGraphDeploymentSpec",
    "ObjectMeta",
    "PodTemplateSpec",
]
