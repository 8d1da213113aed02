"""Structural-schema validation the way the Kubernetes API server does it, offline.

Emulates, for a custom resource posted to ``kube-apiserver`` (``apiextensions-apiserver``):

1. pruning of unknown fields (``fieldValidation=Strict`` reports them as ``unknown field "spec.foo"``;
   ``Warn`` as a warning) — rule ``schema.unknown-field``;
2. pruning of explicit nulls on non-nullable fields without a default
   (``PruneNonNullableNullsWithoutDefaults``); a null on a field *with* a default is defaulted —
   both reported as notes, rule ``schema.null-pruned``;
3. the OpenAPI v3 value validation of ``k8s.io/kube-openapi/pkg/validation/validate`` converted to
   field errors by ``kubeOpenAPIResultToFieldErrors`` (``Invalid value: "string": spec.replicas in
   body must be of type integer: "string"``, ``Unsupported value: …``, ``Required value``,
   ``Too long: …``, ``Too many: …``);
4. ``x-kubernetes-list-type`` set/map uniqueness (``listtype.ValidateListSetsAndMaps``,
   ``Duplicate value: …``) and ``x-kubernetes-embedded-resource`` type-meta checks.

Messages are the Kubernetes field-error body *without* the leading field path (the reporter adds it).

The schema is either a CRD ``openAPIV3Schema`` (inline) or a generated JSON Schema with
``$ref: #/$defs/Name``, compiled into nodes by ``_nodes.py``; the messages and the collecting run are
``_fielderrors.py``, the null pruning (``prune_nulls``) and schema defaulting ``_defaulting.py``.
"""

from __future__ import annotations

import datetime
import math

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import go_quote
from ._defaulting import prune_nulls
from ._fastcheck import clean as _clean
from ._fastcheck import known_fields as _known_fields
from ._fielderrors import Run, go_number, null_note, openapi_name, schema_field_error, unknown_field
from ._nodes import Node, child_node, compile_schema
from ._values import STRING_FORMATS as _STRING_FORMATS
from ._values import enum_ok as _enum_ok
from ._values import list_uniqueness as _list_uniqueness

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "Node",
    "child_node",
    "compile_schema",
    "openapi_name",
    "prune_nulls",
    "validate",
]

# --------------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------------

# metav1.ObjectMeta JSON fields: the API server decodes metadata of the resource root and of
# embedded resources into ObjectMeta, and reports anything else as an unknown field.
_OBJECT_META_FIELDS = (
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
)
_META_FIELDS = ("apiVersion", "kind", "metadata")

_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_FORMAT_RANGES = {"int32": _INT32, "int64": _INT64, "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}


def _json_type(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    if v is None:
        return "null"
    return type(v).__name__


def _type_ok(types: tuple[str, ...], jt: str, v: Any) -> bool:
    if jt in types:
        return True
    if jt == "number" and "integer" in types and isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return True  # isFloatInt
    return jt == "integer" and "number" in types  # isIntFloat


def _enum_values(enum: list[Any]) -> str:
    import json

    vals = []
    for e in enum:
        vals.append(go_quote(e if isinstance(e, str) else json.dumps(e, separators=(",", ":"))))
    return ", ".join(vals)


def _check_meta(run: Run, data: Any, path: Path) -> None:
    """``metadata`` of the resource root / an embedded resource: decoded as ObjectMeta."""
    if data is None:
        return
    if not isinstance(data, dict):
        name = openapi_name(path)
        jt = _json_type(data)
        run.add(
            "schema.type",
            path,
            schema_field_error("Invalid value", jt, f"{name} in body must be of type object: {go_quote(jt)}"),
        )
        return
    for k in data:
        if k not in _OBJECT_META_FIELDS:
            unknown_field(run, path + (k,), k, _OBJECT_META_FIELDS)


def _check_embedded(run: Run, data: dict[str, Any], path: Path) -> None:
    """``validateEmbeddedResource`` of apiextensions-apiserver (``x-kubernetes-embedded-resource``)."""
    for k in ("apiVersion", "kind"):
        if k not in data:
            run.add("schema.required", path + (k,), "Required value: must not be empty")
    for k in ("apiVersion", "kind"):
        if k not in data:
            continue
        value, vpath = data[k], path + (k,)
        if not isinstance(value, str):
            run.add("schema.embedded-resource", vpath, schema_field_error("Invalid value", value, "must be a string"))
        elif not value:
            run.add("schema.embedded-resource", vpath, 'Invalid value: "": must not be empty')
        elif k == "apiVersion" and value.count("/") > 1:
            run.add(
                "schema.embedded-resource",
                vpath,
                schema_field_error("Invalid value", value, f"unexpected GroupVersion string: {value}"),
            )
    if "metadata" in data:
        _check_meta(run, data["metadata"], path + ("metadata",))


def _validate_node(run: Run, data: Any, node: Node, path: Path, structural: bool) -> None:
    """Validate ``data`` (not None) against ``node``. ``structural`` False: value checks only
    (``allOf``/``anyOf`` branches), no unknown-field pruning."""
    if isinstance(data, (datetime.date, datetime.datetime)):
        # a YAML timestamp reaches the API server as a JSON string (kubectl converts YAML to JSON)
        data = data.isoformat().replace("+00:00", "Z")
    jt = _json_type(data)
    types = node.types
    name = None
    type_ok = True
    if types:
        type_ok = _type_ok(types, jt, data)
        if not type_ok:
            name = openapi_name(path)
            tname = ",".join(types)
            run.add(
                "schema.type",
                path,
                schema_field_error("Invalid value", jt, f"{name} in body must be of type {tname}: {go_quote(jt)}"),
            )
    # schemaPropsValidator: allOf / anyOf
    for b in node.all_of:
        _validate_node(run, data, b, path, False)
    if node.any_of:
        best: list[Diagnostic] | None = None
        for b in node.any_of:
            sub = Run(run.strict, notes=False)
            _validate_node(sub, data, b, path, False)
            errs = [d for d in sub.diags if d.severity == "error"]
            if not errs:
                best = None
                break
            if best is None or len(errs) < len(best):
                best = errs
        if best:
            run.diags.extend(best)
    if isinstance(data, str):
        if (
            node.min_length is not None
            or node.max_length is not None
            or node.pattern is not None
            or node.format
        ):
            if name is None:
                name = openapi_name(path)
            n = len(data)
            if node.max_length is not None and n > node.max_length:
                unit = "byte" if node.max_length == 1 else "bytes"
                run.add("schema.max-length", path, f"Too long: may not be more than {node.max_length} {unit}")
            # kube-openapi's stringValidator stops at the first failing keyword: maxLength, then
            # minLength, then pattern (operator case 0285-dgd-grove-component-name-pattern-denied)
            elif node.min_length is not None and n < node.min_length:
                run.add(
                    "schema.min-length",
                    path,
                    schema_field_error("Invalid value", data, f"{name} in body should be at least {node.min_length} chars long"),
                )
            elif node.pattern is not None and node.pattern.search(data) is None:
                run.add(
                    "schema.pattern",
                    path,
                    schema_field_error("Invalid value", data, f"{name} in body should match '{node.pattern_src}'"),
                )
            if node.format and type_ok:
                chk = _STRING_FORMATS.get(node.format)
                if chk is not None and not chk(data):
                    run.add(
                        "schema.format",
                        path,
                        schema_field_error("Invalid value", data, f"{name} in body must be of type {node.format}: {go_quote(data)}"),
                    )
    elif jt == "integer" or jt == "number":
        _check_number(run, data, node, path)
    if node.enum is not None and not _enum_ok(data, node.enum):
        run.add(
            "schema.enum",
            path,
            schema_field_error("Unsupported value", data, f"supported values: {_enum_values(node.enum)}"),
        )
        if node.all_of_enums:
            # kube-openapi's allOf validator: every branch failed; the error carries no field path
            run.add("schema.all-of", (), f'Invalid value: "": {go_quote(name or openapi_name(path))} '
                                         "must validate all the schemas (allOf). None validated")
    if not type_ok:
        if structural and isinstance(data, (dict, list)):
            _pruned_fields(run, data, node, path)
        return
    if isinstance(data, dict):
        _validate_object(run, data, node, path, structural)
    elif isinstance(data, list):
        _validate_array(run, data, node, path, structural)


def _check_number(run: Run, data: Any, node: Node, path: Path) -> None:
    name = None
    if node.format in _FORMAT_RANGES and "integer" in node.types:
        lo, hi = _FORMAT_RANGES[node.format]
        if isinstance(data, float) and not data.is_integer() or not (lo <= data <= hi):
            name = openapi_name(path)
            # kube-apiserver strips int32/int64 formats from CRD schemas (StripUnsupportedFormatsPostProcess),
            # so it stores such a value; the operator cannot decode it. kube-openapi's own wording.
            run.add(
                "schema.format",
                path,
                f'Invalid value: "": Checked value must be of type integer with format {node.format} in {name}',
                "warning",
            )
    if node.maximum is not None:
        mx = node.maximum
        if data > mx or (node.excl_max and data == mx):
            name = name or openapi_name(path)
            word = "less than" if node.excl_max else "less than or equal to"
            run.add(
                "schema.maximum",
                path,
                schema_field_error("Invalid value", data, f"{name} in body should be {word} {go_number(mx)}"),
            )
    if node.minimum is not None:
        mn = node.minimum
        if data < mn or (node.excl_min and data == mn):
            name = name or openapi_name(path)
            word = "greater than" if node.excl_min else "greater than or equal to"
            run.add(
                "schema.minimum",
                path,
                schema_field_error("Invalid value", data, f"{name} in body should be {word} {go_number(mn)}"),
            )
    mo = node.multiple_of
    if mo:
        q = data / mo
        if not (isinstance(q, float) and q.is_integer() or isinstance(q, int)):
            name = name or openapi_name(path)
            run.add(
                "schema.multiple-of",
                path,
                schema_field_error("Invalid value", data, f"{name} in body should be a multiple of {go_number(mo)}"),
            )


def _validate_object(run: Run, data: dict[str, Any], node: Node, path: Path, structural: bool) -> None:
    props = node.props_raw
    skip: tuple[str, ...] = ()
    if structural:
        if node.embedded:
            # TypeMeta / ObjectMeta of an embedded resource are not pruned by the schema
            _check_embedded(run, data, path)
            skip = _META_FIELDS
        elif run.root_meta and path == run.root_path:
            if "metadata" in data:
                _check_meta(run, data["metadata"], path + ("metadata",))
            skip = ("metadata",)
    pruned_nulls: list[str] = []
    for k, v in data.items():
        if skip and k in skip:
            continue
        sub = node.prop(k) if props is not None else None
        if sub is None:
            sub = node.additional()
            if sub is None:
                if structural and not node.allows_unknown:
                    unknown_field(run, path + (k,), k, props or ())
                continue
        if v is None:
            if not sub.nullable and structural:
                null_note(run, path + (k,), sub)
                pruned_nulls.append(k)
            continue
        _validate_node(run, v, sub, path + (k,), structural)
    if node.required:
        for r in node.required:
            if (r not in data or r in pruned_nulls) and not _defaulted(node, r):
                # a missing field with a schema default is defaulted before validation
                run.add("schema.required", path + (r,), "Required value")
    n = len(data)
    if node.max_props is not None and n > node.max_props:
        run.add("schema.max-properties", path, f"Too many: {n}: must have at most {node.max_props} items")
    if node.min_props is not None and n < node.min_props:
        run.add(
            "schema.min-properties",
            path,
            schema_field_error("Invalid value", n, f"{openapi_name(path)} in body should have at least {node.min_props} properties"),
        )


def _defaulted(node: Node, key: str) -> bool:
    sub = node.prop(key)
    return sub is not None and sub.has_default


def _root_meta_is_opaque(node: Node) -> bool:
    """CRD-style root: ``metadata`` declared as a bare ``type: object`` (decoded as ObjectMeta)."""
    m = node.prop("metadata")
    return m is not None and not m.props_raw and not m.allows_unknown and m.addl is None


def _validate_array(run: Run, data: list[Any], node: Node, path: Path, structural: bool) -> None:
    n = len(data)
    if node.min_items is not None and n < node.min_items:
        run.add(
            "schema.min-items",
            path,
            schema_field_error("Invalid value", n, f"{openapi_name(path)} in body should have at least {node.min_items} items"),
        )
    if node.max_items is not None and n > node.max_items:
        run.add("schema.max-items", path, f"Too many: {n}: must have at most {node.max_items} items")
    item = node.items()
    if item is not None:
        for i, v in enumerate(data):
            p = path + (i,)
            if v is None:
                if item.has_default and not item.nullable:
                    if structural:
                        null_note(run, p, item)
                    continue
                if not item.nullable and item.types:
                    tname = ",".join(item.types)
                    run.add(
                        "schema.type",
                        p,
                        f'Invalid value: "null": {openapi_name(p)} in body must be of type {tname}: "null"',
                    )
                continue
            _validate_node(run, v, item, p, structural)
    # the root ``metadata`` is decoded as ObjectMeta, not validated by the schema: its list types
    # (finalizers, ownerReferences) are merge semantics only (duplicate finalizers are admitted)
    if structural and node.list_type in ("set", "map") and n > 1 and path[:-1] != run.root_path + ("metadata",):
        _list_uniqueness(run, data, node, path)


def _unknown_only(run: Run, data: Any, node: Node | None, path: Path) -> None:
    """Strict decoding of a part the API server then drops (``status`` with a status subresource):
    unknown fields are still reported, values are not validated."""
    if node is None or node.preserve:
        return
    if isinstance(data, dict):
        props = node.props_raw
        for k, v in data.items():
            if node.embedded and k in _META_FIELDS:
                continue
            sub = node.prop(k) if props is not None else None
            if sub is None:
                sub = node.additional()
                if sub is None:
                    if not node.allows_unknown:
                        unknown_field(run, path + (k,), k, props or ())
                    continue
            _unknown_only(run, v, sub, path + (k,))
    elif isinstance(data, list):
        item = node.items()
        for i, v in enumerate(data):
            _unknown_only(run, v, item, path + (i,))


def _pruned_fields(run: Run, data: Any, node: Node | None, path: Path) -> None:
    """Unknown fields inside a value of the wrong type, as apiextensions' pruning finds them: a mapping
    where the schema declares no properties (a scalar or list schema, or none) has every key pruned,
    and the server's strict decoding reports each one (``spec.replicas.a``, ``args[0][0].name``)."""
    if node is not None and node.preserve:
        return
    if isinstance(data, dict):
        for k, v in data.items():
            if node is not None and node.embedded and k in _META_FIELDS:
                continue
            sub = node.prop(k) if node is not None and node.props_raw is not None else None
            if sub is None and node is not None:
                sub = node.additional()
            if sub is None:
                if node is None or not node.allows_unknown:
                    unknown_field(run, path + (k,), k, (node.props_raw or ()) if node is not None else ())
                continue
            _pruned_fields(run, v, sub, path + (k,))
    elif isinstance(data, list):
        item = node.items() if node is not None else None
        for i, v in enumerate(data):
            _pruned_fields(run, v, item, path + (i,))


#: the fast path for documents with nothing to report (``_fastcheck``); tests switch it off to compare
FAST_PATH = True


def validate(
    data: Any,
    schema: dict[str, Any],
    *,
    strict: bool = True,
    root_path: Path = (),
    status_subresource: bool = False,
) -> list[Diagnostic]:
    """Validate ``data`` against ``schema`` as kube-apiserver validates a custom resource.

    ``strict``: unknown fields are errors (``fieldValidation=Strict``, kubectl's default) rather than
    warnings. Explicit nulls on non-nullable fields are reported as notes (``schema.null-pruned``)
    and treated as absent; use :func:`prune_nulls` to get the pruned data. Paths are prefixed with
    ``root_path`` (when validating a sub-document against a sub-schema).

    ``status_subresource``: the CRD has ``subresources.status`` (DGD, DCD and DGDR do), so the API
    server drops ``status`` from a create/update of the main resource after decoding: unknown fields
    under ``status`` are still reported, its values are not validated.
    """
    node = compile_schema(schema)
    run = Run(strict)
    path = tuple(root_path)
    if data is None:
        if node.types and not node.nullable:
            tname = ",".join(node.types)
            run.add(
                "schema.type",
                path,
                f'Invalid value: "null": {openapi_name(path)} in body must be of type {tname}: "null"',
            )
        return run.diags
    root_meta = isinstance(data, dict) and _root_meta_is_opaque(node)
    if FAST_PATH and not (status_subresource and isinstance(data, dict) and "status" in data):
        if _clean(data, node, root_meta):
            return []  # nothing to report: the walk below only explains failures
    run.root_path = path
    run.root_meta = root_meta
    if status_subresource and isinstance(data, dict) and "status" in data:
        status = data["status"]
        data = {k: v for k, v in data.items() if k != "status"}
        _unknown_only(run, status, node.prop("status"), path + ("status",))
    _validate_node(run, data, node, path, True)
    # identical messages can come from several allOf branches; report each once
    out: list[Diagnostic] = []
    seen: set[tuple[str, Path, str]] = set()
    for d in run.diags:
        key = (d.rule, d.path, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


#: what strict decoding reports (before any value is checked)
DECODING_RULES = frozenset({"schema.unknown-field", "schema.did-you-mean"})


def decoding_findings(data: Any, schema: dict[str, Any], *, strict: bool = True,
                      status_subresource: bool = False) -> list[Diagnostic]:
    """The findings of :func:`validate` that strict decoding makes (:data:`DECODING_RULES`), alone: the
    field names are compared first (``_fastcheck.known_fields``), and only a document with an unknown
    (or unsure) field is walked."""
    if FAST_PATH and isinstance(data, dict):
        node = compile_schema(schema)
        if _known_fields(data, node, _root_meta_is_opaque(node), status_subresource):
            return []
    return [d for d in validate(data, schema, strict=strict, status_subresource=status_subresource)
            if d.rule in DECODING_RULES]
