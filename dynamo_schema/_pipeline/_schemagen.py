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
# Marks an ``anyOf: [X, {"type": "null"}]`` added for an explicit null that the API server prunes (or
# defaults) before validation: JSON Schema tools (kubeconform) accept the null; our structural validator
# reads the field as X, not nullable, and prunes the null with a note (``schema.null-pruned``).
PRUNED_NULL = "x-dynamo-schema-null"
_NULL = {"type": "null"}
# Kubernetes resources: their explicit nulls go through the API server's pruning.
_PRUNING_GROUPS = ("nvidia.com", "grove.io", "leaderworkerset.x-k8s.io")


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
    from ..models import _generated as g
    from ..models import _generated_v1alpha1 as a
    from ..models import _grove, _lws

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
    from ..models import _generated_extra as e
    from ..models import _generated_extra_v1alpha1 as ea

    out += [  # the other kinds of the operator's CRD bundle
        ("nvidia.com", "DynamoGraphDeploymentScalingAdapter", "v1beta1", e.DynamoGraphDeploymentScalingAdapter),
        ("nvidia.com", "DynamoGraphDeploymentScalingAdapter", "v1alpha1", ea.DynamoGraphDeploymentScalingAdapter),
        ("nvidia.com", "DynamoModel", "v1alpha1", ea.DynamoModel),
        ("nvidia.com", "DynamoCheckpoint", "v1alpha1", ea.DynamoCheckpoint),
        ("nvidia.com", "DynamoWorkerMetadata", "v1alpha1", ea.DynamoWorkerMetadata),
    ]
    try:
        from .._infercrane._model import DeploymentSpec
    except ImportError:  # pragma: no cover - while the DeploymentSpec model is being written
        pass
    else:
        out.append(("infercrane.dev", "Deployment", "v1", DeploymentSpec))
    return out


def schema_for(model: Any, *, pruned_nulls: bool = False) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, schema_generator=K8sJsonSchema, mode="validation")
    if pruned_nulls:
        schema = accept_pruned_nulls(schema)
    return {"$schema": DRAFT, **schema}


def _accepts_null(root: dict[str, Any], node: Any) -> bool:
    """Whether the API server lets an explicit null through here: ``nullable`` (kept) or a ``default``
    (the null is defaulted). Follows local ``$ref``s."""
    seen = 0
    while isinstance(node, dict):
        if node.get("nullable") is True or "default" in node:
            return True
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/$defs/") or seen > 64:
            return False
        node = (root.get("$defs") or {}).get(ref[len("#/$defs/"):])
        seen += 1
    return False


def _or_null(node: dict[str, Any]) -> dict[str, Any]:
    if node.get(PRUNED_NULL) or node.get("type") == "null":
        return node
    return {"anyOf": [node, dict(_NULL)], PRUNED_NULL: "pruned"}


def accept_pruned_nulls(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with an explicit null allowed wherever kube-apiserver removes or defaults it before
    validating (``PruneNonNullableNullsWithoutDefaults``): optional properties and map values; required
    properties and list items only when nullable or defaulted (else the server reports the null).
    The resource root's ``metadata`` is left as is (a null there leaves the object without a name)."""
    import copy

    out = copy.deepcopy(schema)

    def walk(node: Any, is_root: bool = False) -> None:
        if isinstance(node, list):
            for x in node:
                walk(x)
            return
        if not isinstance(node, dict):
            return
        for k, v in node.items():
            if not (is_root and k == "$defs"):
                walk(v)
        props = node.get("properties")
        if isinstance(props, dict):
            required = set(node.get("required") or ())
            for k, v in list(props.items()):
                if not isinstance(v, dict) or (is_root and k == "metadata"):
                    continue
                if k not in required or _accepts_null(out, v):
                    props[k] = _or_null(v)
        addl = node.get("additionalProperties")
        if isinstance(addl, dict) and addl:
            node["additionalProperties"] = _or_null(addl)
        items = node.get("items")
        if isinstance(items, dict) and _accepts_null(out, items):
            node["items"] = _or_null(items)

    for d in (out.get("$defs") or {}).values():
        walk(d)
    walk(out, is_root=True)
    return out


def generate_all() -> dict[str, dict[str, Any]]:
    """``{relative path: schema}`` for every model, in a stable order."""
    out = {}
    for group, kind, version, model in _models():
        rel = f"{group}/{kind.lower()}_{version}.json"
        schema = schema_for(model, pruned_nulls=group in _PRUNING_GROUPS)
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
    from .._core._fsutil import atomic_write

    out = Path(out_dir)
    written = []
    for rel, schema in generate_all().items():
        written.append(atomic_write(out, rel, dumps(schema)))
    return written


def _strict_objects(node: Any) -> None:
    """``additionalProperties: false`` on every object schema with properties that keeps no unknown fields
    (the API server prunes or, strictly, refuses them; JSON Schema tools allow them unless told)."""
    if isinstance(node, list):
        for x in node:
            _strict_objects(x)
        return
    if not isinstance(node, dict):
        return
    for v in node.values():
        _strict_objects(v)
    if isinstance(node.get("properties"), dict) and "additionalProperties" not in node \
            and not node.get("x-kubernetes-preserve-unknown-fields"):
        node["additionalProperties"] = False


def release_schemas(release: str) -> dict[str, dict[str, Any]]:
    """``{relative path: schema}`` of an earlier operator release (docs/releases.md): the Dynamo kinds and
    versions that release serves, from its CRDs (no descriptions: upstream prose stays out of the package),
    with the same null handling and strict objects as the bundled schemas; the other groups' schemas (Grove,
    LWS, InferCrane) are the bundled ones, which no operator release changes."""
    import copy
    import os

    from .._schema._releases import export

    out: dict[str, dict[str, Any]] = {}
    for rel, schema in export(release).items():
        body = copy.deepcopy(schema)
        _strict_objects(body)
        body = accept_pruned_nulls(body)
        out[rel] = {"$schema": DRAFT, "$id": schema_id(f"releases/{release}/{rel}"), **body}
    from .._schema._schemas import _DIR, _read

    for group in sorted(os.listdir(_DIR)):
        if group == "nvidia.com" or not os.path.isdir(os.path.join(_DIR, group)):
            continue
        for name in sorted(os.listdir(os.path.join(_DIR, group))):
            out[f"{group}/{name}"] = _read(f"{group}/{name}")
    return out


def write_release(out_dir: str | Path, release: str) -> list[Path]:
    from .._core._fsutil import atomic_write

    out = Path(out_dir)
    return [atomic_write(out, rel, dumps(schema)) for rel, schema in release_schemas(release).items()]
