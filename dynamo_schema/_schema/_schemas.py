"""Run-time access to the JSON Schemas generated from the models (shipped as package data).

The files under ``dynamo_schema/_data/schemas`` are the output of ``python -m dynamo_schema schema``;
a test keeps them identical to what the models generate. Reading them is far cheaper than building the
pydantic models, which matters for a pre-commit hook.
"""

from __future__ import annotations

import json
import os
from functools import cache

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_data", "schemas")  # dynamo_schema/_data

KNOWN: dict[tuple[str, str], str] = {
    ("nvidia.com/v1beta1", "DynamoGraphDeployment"): "nvidia.com/dynamographdeployment_v1beta1.json",
    ("nvidia.com/v1beta1", "DynamoComponentDeployment"): "nvidia.com/dynamocomponentdeployment_v1beta1.json",
    ("nvidia.com/v1beta1", "DynamoGraphDeploymentRequest"): "nvidia.com/dynamographdeploymentrequest_v1beta1.json",
    ("nvidia.com/v1alpha1", "DynamoGraphDeployment"): "nvidia.com/dynamographdeployment_v1alpha1.json",
    ("nvidia.com/v1alpha1", "DynamoComponentDeployment"): "nvidia.com/dynamocomponentdeployment_v1alpha1.json",
    ("nvidia.com/v1alpha1", "DynamoGraphDeploymentRequest"): "nvidia.com/dynamographdeploymentrequest_v1alpha1.json",
    ("nvidia.com/v1beta1", "DynamoGraphDeploymentScalingAdapter"):
        "nvidia.com/dynamographdeploymentscalingadapter_v1beta1.json",
    ("nvidia.com/v1alpha1", "DynamoGraphDeploymentScalingAdapter"):
        "nvidia.com/dynamographdeploymentscalingadapter_v1alpha1.json",
    ("nvidia.com/v1alpha1", "DynamoModel"): "nvidia.com/dynamomodel_v1alpha1.json",
    ("nvidia.com/v1alpha1", "DynamoCheckpoint"): "nvidia.com/dynamocheckpoint_v1alpha1.json",
    ("nvidia.com/v1alpha1", "DynamoWorkerMetadata"): "nvidia.com/dynamoworkermetadata_v1alpha1.json",
    ("grove.io/v1alpha1", "PodCliqueSet"): "grove.io/podcliqueset_v1alpha1.json",
    ("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"): "leaderworkerset.x-k8s.io/leaderworkerset_v1.json",
}


@cache
def _read(rel: str) -> dict[str, Any]:
    path = os.path.join(_DIR, *rel.split("/"))
    try:  # the package is a directory (wheel, editable, sdist): no importlib.resources machinery
        with open(path, "rb") as fh:
            return json.loads(fh.read())  # type: ignore[no-any-return]
    except FileNotFoundError:  # zipped or otherwise virtual: the resource API
        from importlib import resources

        ref = resources.files("dynamo_schema").joinpath("_data").joinpath("schemas")
        for part in rel.split("/"):
            ref = ref.joinpath(part)
        return json.loads(ref.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def load(group: str, kind: str, version: str) -> dict[str, Any]:
    """The generated schema of ``group/version`` ``kind`` (shared, do not mutate)."""
    return _read(f"{group}/{kind.lower()}_{version}.json")


def for_object(api_version: str, kind: str) -> dict[str, Any] | None:
    """The schema of ``api_version`` ``kind``: a bundled one, else that of a kind registered at run time
    (``_core/_kinds.register``), else None."""
    rel = KNOWN.get((api_version, kind))
    if rel:
        return _read(rel)
    group, _, version = api_version.rpartition("/")
    if group != "nvidia.com":
        return None
    from .._core._kinds import spec_of

    spec = spec_of(kind)
    return None if spec is None else spec.schema(version)


def resolve(root: dict[str, Any], node: Any) -> Any:
    """Follow local ``$ref`` (``#/$defs/Name``) links until a concrete schema node."""
    seen = 0
    while isinstance(node, dict) and ("$ref" in node or "x-dynamo-schema-null" in node):
        if "$ref" not in node:  # ``anyOf: [X, null]`` for a null the API server prunes: X
            node = node["anyOf"][0]
            seen += 1
            continue
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"unsupported $ref {ref!r}")
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        extra = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **extra} if extra else target
        seen += 1
        if seen > 64:
            raise ValueError("$ref cycle")
    return node
