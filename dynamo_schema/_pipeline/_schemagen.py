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

from .._core._consts import NULL_DEF, NULL_DEF_NAME, NULL_REF

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Marks an ``anyOf: [X, NULL_REF]`` added for an explicit null that the API server prunes (or
# defaults) before validation: JSON Schema tools (kubeconform) accept the null; our structural validator
# reads the field as X, not nullable, and prunes the null with a note (``schema.null-pruned``).
# NULL_REF's definition accepts null without naming a null type, and X's description is repeated on the wrapper:
# what editors read (yaml-language-server: completion documentation, no ``null`` value offered, errors
# worded "Expected integer"; docs/decisions.md D46).
PRUNED_NULL = "x-dynamo-schema-null"
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


def _own_description(root: dict[str, Any], node: dict[str, Any]) -> str | None:
    """The description of ``node``, or of the definition a bare ``$ref`` names."""
    desc = node.get("description")
    if isinstance(desc, str):
        return desc
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = (root.get("$defs") or {}).get(ref[len("#/$defs/"):])
        if isinstance(target, dict) and isinstance(target.get("description"), str):
            return str(target["description"])
    return None


def _or_null(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if node.get(PRUNED_NULL) or node.get("type") == "null":
        return node
    out: dict[str, Any] = {"anyOf": [node, dict(NULL_REF)]}
    desc = _own_description(root, node)
    if desc is not None:  # on the property itself: editors document completion items from here
        out["description"] = desc
    out[PRUNED_NULL] = "pruned"
    return out


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
                    props[k] = _or_null(out, v)
        addl = node.get("additionalProperties")
        if isinstance(addl, dict) and addl:
            node["additionalProperties"] = _or_null(out, addl)
        items = node.get("items")
        if isinstance(items, dict) and _accepts_null(out, items):
            node["items"] = _or_null(out, items)

    for d in (out.get("$defs") or {}).values():
        walk(d)
    walk(out, is_root=True)
    if '"' + NULL_REF["$ref"] + '"' in json.dumps(out):
        defs = dict(out.get("$defs") or {})
        if defs.get(NULL_DEF_NAME, NULL_DEF) != NULL_DEF:
            raise ValueError(f"a model is named {NULL_DEF_NAME}: the pruned-null definition needs another name")
        defs[NULL_DEF_NAME] = copy.deepcopy(NULL_DEF)
        out["$defs"] = dict(sorted(defs.items()))
    return out


_RST_LITERAL = r"``([^`]+)``"


def markdown_descriptions(node: Any) -> Any:
    """Descriptions in Markdown, what editors render: the model docstrings' RST literals (````x````)
    become Markdown code spans (```x```). Changes ``node`` in place; returns it."""
    import re

    if isinstance(node, dict):
        for k, v in node.items():
            if k == "description" and isinstance(v, str):
                if "``" in v:
                    node[k] = re.sub(_RST_LITERAL, r"`\1`", v)
            else:
                markdown_descriptions(v)
    elif isinstance(node, list):
        for x in node:
            markdown_descriptions(x)
    return node


def generate_all(core_descriptions: bool = False) -> dict[str, dict[str, Any]]:
    """``{relative path: schema}`` for every model, in a stable order. ``core_descriptions``: also the
    descriptions of the Kubernetes core types inside them, read now from the installed
    kubernetes-validate (:func:`add_core_descriptions`; never in the committed schemas)."""
    out = {}
    for group, kind, version, model in _models():
        rel = f"{group}/{kind.lower()}_{version}.json"
        schema = markdown_descriptions(schema_for(model, pruned_nulls=group in _PRUNING_GROUPS))
        if core_descriptions:
            add_core_descriptions(schema)
        out[rel] = {"$schema": schema.pop("$schema"), "$id": schema_id(rel), **schema}
    out.update(registered_schemas())
    return out


def registered_schemas() -> dict[str, dict[str, Any]]:
    """``{relative path: schema}`` of the kinds registered at run time with their own schemas
    (``_core/_kinds.register``): written by ``schema --out`` next to the generated ones."""
    from .._core._kinds import SPECS

    out: dict[str, dict[str, Any]] = {}
    for spec in SPECS.values():
        for version in spec.versions:
            schema = spec.schema(version)
            if schema is not None:
                rel = f"nvidia.com/{spec.kind.lower()}_{version}.json"
                out[rel] = {"$schema": schema.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
                            "$id": schema_id(rel), **{k: v for k, v in schema.items() if k not in ("$schema", "$id")}}
    return out


def add_core_descriptions(schema: dict[str, Any]) -> int:
    """Give every property of a Kubernetes core type inside ``schema`` (``podTemplate``, containers, probes,
    ObjectMeta…) that has no description of its own the description the Kubernetes OpenAPI schema has for
    it, read from the schemas the kubernetes-validate dependency installed (the ``explain`` command's
    source). Changes ``schema`` in place; returns the number of descriptions added."""
    from .._schema import _explain

    if not _explain._k8s_defs():
        raise FileNotFoundError("the Kubernetes schemas of kubernetes-validate were not found: "
                                "--with-core-descriptions needs the kubernetes-validate package")
    return _CoreDescriptions(schema).walk(schema, None)


class _CoreDescriptions:
    """One walk of a generated schema beside the Kubernetes definitions its core-type fields are."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.seen: set[tuple[int, int]] = set()
        self.added = 0

    def _concrete(self, node: Any) -> Any:
        for _ in range(64):
            if not isinstance(node, dict):
                return None
            if node.get(PRUNED_NULL):
                node = node["anyOf"][0]
            elif isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
                node = (self.root.get("$defs") or {}).get(node["$ref"][len("#/$defs/"):])
            else:
                return node
        return None

    def walk(self, node: Any, k8s: Any) -> int:
        from .._schema import _explain

        target = self._concrete(node)
        if not isinstance(target, dict):
            return self.added
        k8s_def = _explain._k8s_resolve(k8s) if k8s is not None else None
        key = (id(target), id(k8s_def))
        if key in self.seen:
            return self.added
        self.seen.add(key)
        if isinstance(target.get("items"), dict):
            self.walk(target["items"], k8s)
        addl = target.get("additionalProperties")
        if isinstance(addl, dict) and addl and "properties" not in target:
            sub = k8s_def.get("additionalProperties") if isinstance(k8s_def, dict) else None
            self.walk(addl, sub if isinstance(sub, dict) else None)
        props = target.get("properties")
        if not isinstance(props, dict):
            return self.added
        defs = _explain._k8s_defs()
        for name, prop in props.items():
            if not isinstance(prop, dict):
                continue
            sub_k8s = _explain._k8s_step(k8s, name) if k8s is not None else None
            if sub_k8s is None and name in _explain.CORE_TYPES and _explain.CORE_TYPES[name] in defs:
                sub_k8s = {"$ref": "#/$defs/" + _explain.CORE_TYPES[name]}
            if sub_k8s is not None and not isinstance(prop.get("description"), str):
                text = _explain._description({}, sub_k8s)
                if text:
                    prop["description"] = text
                    self.added += 1
            self.walk(prop, sub_k8s)
        return self.added


ID_PREFIX = "urn:dynamo-schema:schemas/"


def schema_id(rel: str) -> str:
    """The ``$id`` of an exported schema: a URN naming its place in the layout (no host is implied)."""
    return ID_PREFIX + rel


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write(out_dir: str | Path, core_descriptions: bool = False) -> list[Path]:
    """Write every schema under ``out_dir`` (atomically, file by file). Returns the paths written."""
    from .._core._fsutil import atomic_write

    out = Path(out_dir)
    written = []
    for rel, schema in generate_all(core_descriptions).items():
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


def write_release(out_dir: str | Path, release: str, core_descriptions: bool = False) -> list[Path]:
    """:func:`write` for an earlier operator release (``core_descriptions`` as there)."""
    from .._core._fsutil import atomic_write

    out = Path(out_dir)
    schemas = release_schemas(release)
    if core_descriptions:
        for schema in schemas.values():
            add_core_descriptions(schema)
    return [atomic_write(out, rel, dumps(schema)) for rel, schema in schemas.items()]
