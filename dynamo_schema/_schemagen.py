"""Stage "schema": JSON Schemas generated from the pydantic models (the single source of truth).

The output is standalone (no external ``$ref``), Draft 2020-12, in the CRDs-catalog layout
``{group}/{kind lower-case}_{version}.json``. It keeps the Kubernetes extension keywords recorded on the
model fields (list types, list-map keys, map types, int-or-string, preserve-unknown-fields, CEL rules) so
that the runtime validator and the override merge read list semantics from it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

DRAFT = "https://json-schema.org/draft/2020-12/schema"


class K8sJsonSchema(GenerateJsonSchema):
    """Pydantic's generator, shaped like a Kubernetes structural schema."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        # Optional[X] means "may be absent"; an explicit null is pruned by the API server, so the
        # schema states X only (nullable fields are marked with ``nullable: true`` by the models).
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        out = super().default_schema(schema)
        if out.get("default", 0) is None:
            out = {k: v for k, v in out.items() if k != "default"}
        return out

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        out = super().model_schema(schema)
        out.pop("title", None)
        return out

    def generate(self, schema: Any, mode: Any = "validation") -> JsonSchemaValue:
        out = super().generate(schema, mode=mode)
        for d in out.get("$defs", {}).values():
            d.pop("title", None)
        out.pop("title", None)
        return out


def _models() -> list[tuple[str, str, str, Any]]:
    from .models import _generated as g
    from .models import _generated_v1alpha1 as a
    from .models import _grove, _lws

    out: list[tuple[str, str, str, Any]] = [
        ("nvidia.com", "DynamoGraphDeployment", "v1beta1", g.DynamoGraphDeployment),
        ("nvidia.com", "DynamoComponentDeployment", "v1beta1", g.DynamoComponentDeployment),
        ("nvidia.com", "DynamoGraphDeploymentRequest", "v1beta1", g.DynamoGraphDeploymentRequest),
        ("nvidia.com", "DynamoGraphDeployment", "v1alpha1", a.DynamoGraphDeployment),
        ("nvidia.com", "DynamoComponentDeployment", "v1alpha1", a.DynamoComponentDeployment),
        ("nvidia.com", "DynamoGraphDeploymentRequest", "v1alpha1", a.DynamoGraphDeploymentRequest),
        ("grove.io", "PodCliqueSet", "v1alpha1", _grove.PodCliqueSet),
        ("leaderworkerset.x-k8s.io", "LeaderWorkerSet", "v1", _lws.LeaderWorkerSet),
    ]
    from .models import _generated_extra as e
    from .models import _generated_extra_v1alpha1 as ea

    out += [  # the other kinds of the operator's CRD bundle
        ("nvidia.com", "DynamoGraphDeploymentScalingAdapter", "v1beta1", e.DynamoGraphDeploymentScalingAdapter),
        ("nvidia.com", "DynamoGraphDeploymentScalingAdapter", "v1alpha1", ea.DynamoGraphDeploymentScalingAdapter),
        ("nvidia.com", "DynamoModel", "v1alpha1", ea.DynamoModel),
        ("nvidia.com", "DynamoCheckpoint", "v1alpha1", ea.DynamoCheckpoint),
        ("nvidia.com", "DynamoWorkerMetadata", "v1alpha1", ea.DynamoWorkerMetadata),
    ]
    try:
        from ._infercrane._model import DeploymentSpec
    except ImportError:  # pragma: no cover - while the DeploymentSpec model is being written
        pass
    else:
        out.append(("infercrane.dev", "Deployment", "v1", DeploymentSpec))
    return out


def schema_for(model: Any) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, schema_generator=K8sJsonSchema, mode="validation")
    return {"$schema": DRAFT, **schema}


def generate_all() -> dict[str, dict[str, Any]]:
    """``{relative path: schema}`` for every model, in a stable order."""
    out = {}
    for group, kind, version, model in _models():
        rel = f"{group}/{kind.lower()}_{version}.json"
        schema = schema_for(model)
        out[rel] = {"$schema": schema.pop("$schema"), "$id": schema_id(rel), **schema}
    return out


ID_PREFIX = "urn:dynamo-schema:schemas/"


def schema_id(rel: str) -> str:
    """The ``$id`` of an exported schema: a URN naming its place in the layout (no host is implied)."""
    return ID_PREFIX + rel


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write(out_dir: str | Path) -> list[Path]:
    """Write every schema under ``out_dir`` (atomically, file by file). Returns the paths written."""
    from ._fsutil import atomic_write

    out = Path(out_dir)
    written = []
    for rel, schema in generate_all().items():
        written.append(atomic_write(out, rel, dumps(schema)))
    return written
