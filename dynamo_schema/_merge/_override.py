"""``apply_overrides``: merge a DGDR ``spec.overrides.dgd`` into a generated DGD.

Behaviour and messages follow upstream ``deploy/operator/internal/dgdoverride/override.go`` (newest
revision: legacy-alias translation, unknown targets are errors, ``$patch: {args: append}``), plus the
profiler adapter's compatibility rule for an override with neither ``apiVersion`` nor ``kind``
(``components/src/dynamo/profiler/utils/dgd_override.py``: stamped ``nvidia.com/v1alpha1`` with a
warning).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from dynamo_schema._core._consts import V1ALPHA1 as ALPHA
from dynamo_schema._core._consts import V1BETA1 as BETA
from dynamo_schema._core._diagnostics import Diagnostic, DynamoSchemaError
from dynamo_schema._k8s._gofmt import go_type, go_v
from dynamo_schema._merge._engine import StructuralError, StructuralMerger
from dynamo_schema._merge._schema import SchemaWalker, root_schema

KIND = "DynamoGraphDeployment"

SchemaFor = Callable[[str, str], dict[str, Any]]

LEGACY_UNVERSIONED_WARNING = (
    "DGD override is missing apiVersion and kind; treating it as nvidia.com/v1alpha1 "
    "DynamoGraphDeployment. Add explicit type metadata because this compatibility behavior will "
    "be removed in a future release."
)

# Legacy component names the profiler used before the worker/prefill/decode rename:
# alias -> (backend it belongs to, candidate generated names in preference order).
DEPRECATED_TARGETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "VllmWorker": ("vllm", ("worker",)),
    "VllmPrefillWorker": ("vllm", ("prefill",)),
    "VllmDecodeWorker": ("vllm", ("worker", "decode")),
    "TRTLLMPrefillWorker": ("trtllm", ("prefill",)),
    "TRTLLMDecodeWorker": ("trtllm", ("decode",)),
    "SGLangPrefillWorker": ("sglang", ("prefill",)),
    "SGLangDecodeWorker": ("sglang", ("worker", "decode")),
    "SglangPrefillWorker": ("sglang", ("prefill",)),
    "SglangDecodeWorker": ("sglang", ("worker", "decode")),
}


class MergeError(DynamoSchemaError):
    """The override cannot be applied; the message is upstream's error text."""

    def __init__(self, message: str, warnings: list[str] | None = None) -> None:
        super().__init__(message, [Diagnostic("merge.override", (), message)])
        self.warnings = list(warnings or [])


@dataclass(frozen=True)
class Warning_:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


@dataclass
class MergeResult:
    """The effective DGD (same apiVersion as the blueprint) and the warnings, in upstream order."""

    dgd: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    warning_items: list[Warning_] = field(default_factory=list)

    def diagnostics(self) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        for w in self.warning_items:
            out.append(Diagnostic("merge.warning", _split_path(w.path), w.message, "warning"))
        return out

    def __iter__(self) -> Iterator[Any]:  # allows ``dgd, warnings = apply_overrides(...)``
        return iter((self.dgd, self.warnings))


def _split_path(path: str) -> tuple[str, ...]:
    return tuple(p for p in path.split(".") if p) if path else ()


class _Fail(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ---------------------------------------------------------------------------------------------------
# Go-flavoured helpers (unstructured accessors and their error texts)


_MAP = "map[string]interface{}"


def _accessor_error(fields: tuple[str, ...], val: Any, expected: str) -> _Fail:
    """The ``unstructured`` accessors' wrong-type error for the value at ``.a.b``."""
    return _Fail(
        f".{'.'.join(fields)} accessor error: {go_v(val)} is of the type {go_type(val)}, expected {expected}"
    )


@contextmanager
def _prefixed(prefix: str) -> Iterator[None]:
    """Re-raise a :class:`_Fail` from the block as ``<prefix>: <message>``."""
    try:
        yield
    except _Fail as exc:
        raise _Fail(f"{prefix}: {exc.message}") from None


def _nested(obj: Any, *fields: str) -> tuple[Any, bool]:
    """``unstructured.NestedFieldNoCopy``: (value, found); raises _Fail on a non-map step."""
    val = obj
    for i, f in enumerate(fields):
        if not isinstance(val, dict):
            raise _accessor_error(fields[: i + 1], val, _MAP)
        if f not in val:
            return None, False
        val = val[f]
    return val, True


def _nested_typed(obj: Any, fields: tuple[str, ...], type_: type, expected: str) -> tuple[Any, bool]:
    """(value, found) of a field that must hold a ``type_`` (Go type ``expected``) when present."""
    val, found = _nested(obj, *fields)
    if not found:
        return None, False
    if not isinstance(val, type_):
        raise _accessor_error(fields, val, expected)
    return val, True


def _nested_map(obj: Any, *fields: str) -> tuple[dict[str, Any] | None, bool]:
    return _nested_typed(obj, fields, dict, _MAP)


def _nested_slice(obj: Any, *fields: str) -> tuple[list[Any] | None, bool]:
    return _nested_typed(obj, fields, list, "[]interface{}")


def _nested_string_slice(obj: Any, *fields: str) -> tuple[list[str] | None, bool]:
    val, found = _nested_slice(obj, *fields)
    if val is None:
        return None, found
    for v in val:
        if not isinstance(v, str):
            raise _Fail(
                f".{'.'.join(fields)} accessor error: contains non-string value in the slice: "
                f"{go_v(v)} is of the type {go_type(v)}, expected string"
            )
    return list(val), True


def _nested_string(obj: Any, *fields: str) -> str:
    val, found = _nested_typed(obj, fields, str, "string")
    return val if found else ""


def _set_nested(obj: dict[str, Any], value: Any, *fields: str) -> None:
    cur = obj
    for f in fields[:-1]:
        nxt = cur.get(f)
        if not isinstance(nxt, dict):
            nxt = {}
            cur[f] = nxt
        cur = nxt
    cur[fields[-1]] = value


# ---------------------------------------------------------------------------------------------------
# Schema access


def _default_schema_for(api_version: str, kind: str) -> dict[str, Any]:
    from dynamo_schema._schema import _schemas

    group, _, version = api_version.partition("/")
    return _schemas.load(group, kind, version)


class _Schemas:
    def __init__(self, schema_for: SchemaFor | None) -> None:
        self._schema_for = schema_for or _default_schema_for
        self._raw: dict[str, dict[str, Any]] = {}
        self._mergers: dict[str, StructuralMerger] = {}

    def raw(self, api_version: str) -> dict[str, Any]:
        if api_version not in self._raw:
            try:
                self._raw[api_version] = self._schema_for(api_version, KIND)
            except (OSError, KeyError, ValueError, ImportError) as exc:  # e.g. a version not shipped
                raise _Fail(f"no schema for {api_version} {KIND}: {exc}") from None
        return self._raw[api_version]

    def merger(self, api_version: str) -> StructuralMerger:
        if api_version not in self._mergers:
            self._mergers[api_version] = StructuralMerger(root_schema(self.raw(api_version)))
        return self._mergers[api_version]


# ---------------------------------------------------------------------------------------------------
# Apply


def apply_overrides(
    blueprint: dict[str, Any] | None,
    override: dict[str, Any] | None,
    schema_for: SchemaFor | None = None,
) -> MergeResult:
    """Overlay a partial DGD ``override`` onto a complete DGD ``blueprint``.

    The merge runs in the override's API version; a blueprint of the other version is converted as a
    whole first and the merged result converted back, so the result always has the blueprint's
    apiVersion. Neither input is mutated. Raises :class:`MergeError` with upstream's message.
    """
    warnings: list[Warning_] = []
    try:
        dgd = _apply(blueprint, override, schema_for, warnings)
    except _Fail as exc:
        raise MergeError(exc.message, [str(w) for w in warnings]) from None
    return MergeResult(dgd=dgd, warnings=[str(w) for w in warnings], warning_items=list(warnings))


def _gvk(obj: Any) -> tuple[str, str]:
    api = obj.get("apiVersion") if isinstance(obj, dict) else None
    kind = obj.get("kind") if isinstance(obj, dict) else None
    return (api if isinstance(api, str) else "", kind if isinstance(kind, str) else "")


def _validate_dgd(obj: Any, role: str) -> str:
    if obj is None:
        raise _Fail(f"{role} must not be nil")
    api, kind = _gvk(obj)
    if kind == KIND and api in (ALPHA, BETA):
        return api
    raise _Fail(f'{role} must be {ALPHA} or {BETA}, got apiVersion "{api}" kind "{kind}"')


def _typed(merger: StructuralMerger, obj: Any, wrap: str) -> None:
    try:
        merger.validate(obj)
    except StructuralError as exc:
        raise _Fail(f"{wrap}: {exc}") from None


def _convert(obj: dict[str, Any], target: str) -> dict[str, Any]:
    from dynamo_schema._convert import _v1alpha1 as conv

    if target == BETA:
        return conv.to_v1beta1(obj)
    return conv.to_v1alpha1(obj)


def _apply(
    blueprint: dict[str, Any] | None,
    override: dict[str, Any] | None,
    schema_for: SchemaFor | None,
    warnings: list[Warning_],
) -> dict[str, Any]:
    if isinstance(override, dict) and override.get("apiVersion") is None and override.get("kind") is None:
        # Profiler adapter compatibility: an unversioned override is a legacy v1alpha1 override.
        override = copy.deepcopy(override)
        override["apiVersion"] = ALPHA
        override["kind"] = KIND
        warnings.append(Warning_("", LEGACY_UNVERSIONED_WARNING))
    blueprint_api = _validate_dgd(blueprint, "blueprint")
    override_api = _validate_dgd(override, "override")
    assert isinstance(blueprint, dict) and isinstance(override, dict)
    schemas = _Schemas(schema_for)

    cross = blueprint_api != override_api
    if cross:
        _typed(schemas.merger(blueprint_api), blueprint, f"validate {blueprint_api} blueprint before conversion")

    working = copy.deepcopy(blueprint)
    if cross:
        try:
            working = _convert(working, override_api)
        except (
            ValueError,
            TypeError,
            KeyError,
            AttributeError,
        ) as exc:  # conversion errors carry their own text
            raise _Fail(f"convert complete blueprint from {blueprint_api} to {override_api}: {exc}") from None

    partial = _prepare_override(working, override, override_api, schemas, warnings)

    merger = schemas.merger(override_api)
    _typed(merger, working, f"validate {override_api} blueprint for merge")
    _typed(merger, partial, f"validate {override_api} override")
    merged: dict[str, Any] = merger.merge(working, partial)
    merged["apiVersion"] = override_api
    merged["kind"] = KIND

    if cross:
        try:
            merged = _convert(merged, blueprint_api)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise _Fail(f"convert complete merged DGD from {override_api} back to {blueprint_api}: {exc}") from None
        merged["apiVersion"] = blueprint_api
        merged["kind"] = KIND
        _typed(schemas.merger(blueprint_api), merged, f"validate final {blueprint_api} DGD")
        merged = _order_like(merged, blueprint)
    return merged


def _order_like(value: Any, template: Any) -> Any:
    """Cosmetic: give dict keys the blueprint's order (new keys after), so a round trip through the
    other API version does not reshuffle the emitted YAML. Values are untouched."""
    if isinstance(value, dict) and isinstance(template, dict):
        keys = [k for k in template if k in value] + [k for k in value if k not in template]
        return {k: _order_like(value[k], template.get(k)) for k in keys}
    if isinstance(value, list) and isinstance(template, list):
        named = {t.get("name"): t for t in template if isinstance(t, dict) and isinstance(t.get("name"), str)}
        out = []
        for i, item in enumerate(value):
            if isinstance(item, dict) and isinstance(item.get("name"), str) and item["name"] in named:
                out.append(_order_like(item, named[item["name"]]))
            elif i < len(template):
                out.append(_order_like(item, template[i]))
            else:
                out.append(item)
        return out
    return value


def _prepare_override(
    blueprint: dict[str, Any], override: dict[str, Any], api: str, schemas: _Schemas, warnings: list[Warning_]
) -> dict[str, Any]:
    partial = copy.deepcopy(override)
    if "status" in partial:
        raise _Fail("override status is not supported")
    warnings.extend(_sanitize_metadata(partial))
    raw = schemas.raw(api)
    _reject_nulls(partial, "", raw, SchemaWalker(raw))

    with _prefixed("blueprint spec.backendFramework must be a string"):
        backend = _nested_string(blueprint, "spec", "backendFramework")

    if api == ALPHA:
        _prepare_alpha_services(blueprint, partial, backend, warnings)
    else:
        _prepare_beta_components(blueprint, partial, backend, warnings)
    return partial


def _is_conversion_annotation(key: str) -> bool:
    from dynamo_schema._convert._v1alpha1 import is_dgd_conversion_annotation

    return is_dgd_conversion_annotation(key)


def _sanitize_metadata(partial: dict[str, Any]) -> list[Warning_]:
    with _prefixed("override metadata must be an object"):
        metadata, found = _nested_map(partial, "metadata")
    if not found or metadata is None:
        return []
    allowed: dict[str, Any] = {}
    for key in ("annotations", "labels"):
        if key in metadata:
            allowed[key] = metadata[key]
    out: list[Warning_] = []
    annotations = allowed.get("annotations")
    if isinstance(annotations, dict):
        reserved = sorted(k for k in annotations if _is_conversion_annotation(k))
        for k in reserved:
            del annotations[k]
        if not annotations:
            del allowed["annotations"]
        if reserved:
            out.append(Warning_("metadata.annotations", "ignored reserved operator keys: " + ", ".join(reserved)))
    ignored = sorted(k for k in metadata if k not in ("annotations", "labels"))
    if not allowed:
        del partial["metadata"]
    else:
        partial["metadata"] = allowed
    if ignored:
        out.insert(0, Warning_("metadata", "ignored identity/runtime fields: " + ", ".join(ignored)))
    return out


def _reject_nulls(value: Any, path: str, schema: Any, walker: SchemaWalker) -> None:
    if value is None:
        if walker.is_untyped_preserved(schema):
            return
        raise _Fail(f"override {path} must not be null; field deletion is not supported")
    if isinstance(value, dict):
        for key in sorted(value):
            child_path = f"{path}.{key}" if path else key
            child, opaque = walker.raw_property(schema, key) if schema is not None else (None, False)
            if opaque:
                continue
            _reject_nulls(value[key], child_path, child, walker)
    elif isinstance(value, list):
        item = walker.items(schema) if schema is not None else None
        for i, v in enumerate(value):
            _reject_nulls(v, f"{path}[{i}]", item, walker)


def _resolve_target(base_names: set[str], backend: str, name: str) -> tuple[str, bool]:
    if name in base_names:
        return name, False
    deprecated = DEPRECATED_TARGETS.get(name)
    if deprecated is None:
        raise _Fail(f'override target "{name}" is not present in the generated blueprint')
    owner, candidates = deprecated
    if owner != backend:
        raise _Fail(
            f'deprecated override target "{name}" belongs to backend "{owner}" and cannot be '
            f'translated for generated backend "{backend}"'
        )
    matches = [c for c in candidates if c in base_names]
    if not matches:
        raise _Fail(
            f'deprecated override target "{name}" cannot be translated because the generated blueprint '
            f"contains none of the compatible targets: {', '.join(candidates)}"
        )
    if len(matches) > 1:
        raise _Fail(
            f'deprecated override target "{name}" cannot be translated unambiguously because the '
            f"generated blueprint contains multiple compatible targets: {', '.join(matches)}"
        )
    return matches[0], True


def _translation_warning(path: str, old: str, new: str) -> Warning_:
    return Warning_(
        path,
        f'deprecated override target "{old}" translated to "{new}"; use "{new}" directly. '
        "Legacy-name translation will be removed in a future release",
    )


_Accessor = Callable[..., tuple[Any, bool]]


def _base_and_override(
    blueprint: dict[str, Any], partial: dict[str, Any], version: str, field: str, nested: _Accessor, shape: str
) -> tuple[Any, Any]:
    """``spec.<field>`` of the blueprint and of the override (None when the override has none), each
    read with ``nested`` and its wrong-type error prefixed ``<version> blueprint|override spec.<field>
    must be <shape>``."""
    with _prefixed(f"{version} blueprint spec.{field} must be {shape}"):
        base, _ = nested(blueprint, "spec", field)
    with _prefixed(f"{version} override spec.{field} must be {shape}"):
        entries, found = nested(partial, "spec", field)
    return base, entries if found else None


class _TargetResolver:
    """Resolves override entry names to the blueprint's (legacy aliases translated, with a warning);
    two entries resolving to the same generated ``noun`` are refused."""

    def __init__(self, base_names: set[str], backend: str, noun: str, warnings: list[Warning_]) -> None:
        self.base_names = base_names
        self.backend = backend
        self.noun = noun
        self.warnings = warnings
        self.sources: dict[str, str] = {}

    def resolve(self, name: str, where: str) -> tuple[str, bool]:
        """(generated target, translated?) of the entry ``name`` at ``where``."""
        with _prefixed(where):
            target, translated = _resolve_target(self.base_names, self.backend, name)
        if target in self.sources:
            raise _Fail(
                f'{where}: override targets "{self.sources[target]}" and "{name}" both resolve to generated '
                f'{self.noun} "{target}"'
            )
        if translated:
            self.warnings.append(_translation_warning(where, name, target))
        self.sources[target] = name
        return target, translated


def _prepare_alpha_services(
    blueprint: dict[str, Any], partial: dict[str, Any], backend: str, warnings: list[Warning_]
) -> None:
    base_services, services = _base_and_override(blueprint, partial, "alpha", "services", _nested_map, "an object")
    if services is None:
        return
    base_services = base_services or {}
    resolver = _TargetResolver(set(base_services), backend, "service", warnings)
    resolved: dict[str, Any] = {}
    for name in sorted(services):
        target, _ = resolver.resolve(name, f"spec.services.{name}")
        service = services[name]
        if target not in ("Frontend", "Planner"):
            with _prefixed(f"spec.services.{name}.extraPodSpec.mainContainer.args"):
                _append_alpha_worker_args(base_services.get(target), service)
        resolved[target] = service
    _set_nested(partial, resolved, "spec", "services")


def _append_alpha_worker_args(base: Any, service: Any) -> None:
    if not isinstance(base, dict):
        raise _Fail(f"blueprint service must be an object, got {go_type(base)}")
    if not isinstance(service, dict):
        raise _Fail(f"override service must be an object, got {go_type(service)}")
    with _prefixed("must be a list of strings"):
        args, found = _nested_string_slice(service, "extraPodSpec", "mainContainer", "args")
    if not found:
        return
    with _prefixed("blueprint value must be a list of strings"):
        base_args, _ = _nested_string_slice(base, "extraPodSpec", "mainContainer", "args")
    _set_nested(service, list(base_args or []) + list(args or []), "extraPodSpec", "mainContainer", "args")


def _prepare_beta_components(
    blueprint: dict[str, Any], partial: dict[str, Any], backend: str, warnings: list[Warning_]
) -> None:
    base_components, components = _base_and_override(blueprint, partial, "beta", "components", _nested_slice, "a list")
    if components is None:
        return
    by_name: dict[str, dict[str, Any]] = {}
    for i, comp in enumerate(base_components or []):
        if not isinstance(comp, dict):
            raise _Fail(f"beta blueprint spec.components[{i}] must be an object, got {go_type(comp)}")
        name = comp.get("name")
        if not isinstance(name, str) or not name:
            raise _Fail(f"beta blueprint spec.components[{i}].name must be a non-empty string")
        by_name[name] = comp
    resolver = _TargetResolver(set(by_name), backend, "component", warnings)
    out: list[Any] = []
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            raise _Fail(f"beta override spec.components[{i}] must be an object, got {go_type(comp)}")
        name = comp.get("name")
        if not isinstance(name, str) or not name:
            raise _Fail(f"beta override spec.components[{i}].name must be a non-empty string")
        target, translated = resolver.resolve(name, f"spec.components[name={name}]")
        if translated:
            comp["name"] = target
        _materialize_args_appends(comp, by_name[target], i)
        out.append(comp)
    _set_nested(partial, out, "spec", "components")


def _materialize_args_appends(comp: dict[str, Any], base_comp: dict[str, Any], ci: int) -> None:
    prefix = f"beta override spec.components[{ci}].podTemplate.spec.containers"
    with _prefixed(f"{prefix} must be a list"):
        containers, found = _nested_slice(comp, "podTemplate", "spec", "containers")
    if not found or containers is None:
        return
    for k, container in enumerate(containers):
        if not isinstance(container, dict):
            raise _Fail(f"{prefix}[{k}] must be an object, got {go_type(container)}")
        if "$patch" not in container:
            continue
        modifier = container["$patch"]
        if not (isinstance(modifier, dict) and len(modifier) == 1 and modifier.get("args") == "append"):
            raise _Fail(f"{prefix}[{k}].$patch only supports args: append")
        name = container.get("name")
        if not isinstance(name, str) or not name:
            raise _Fail(f"{prefix}[{k}].name must be a non-empty string when $patch is used")
        base_container = _blueprint_container(base_comp, name, ci)
        if base_container is None:
            raise _Fail(f'{prefix}[{k}].name "{name}" is not present in the generated blueprint')
        with _prefixed(f"{prefix}[{k}].args must be a list of strings"):
            args, found_args = _nested_string_slice(container, "args")
        if not found_args or not args:
            raise _Fail(f"{prefix}[{k}].args must be non-empty when $patch args is append")
        for a, arg in enumerate(args):
            if arg == "":
                raise _Fail(f"{prefix}[{k}].args[{a}] must be non-empty when $patch args is append")
        with _prefixed(f'beta blueprint spec.components[{ci}] container "{name}" args must be a list of strings'):
            base_args, found_base = _nested_string_slice(base_container, "args")
        if not found_base:
            raise _Fail(
                f'beta blueprint spec.components[{ci}] container "{name}" must define args explicitly '
                "before they can be appended"
            )
        del container["$patch"]
        container["args"] = list(base_args or []) + list(args)


def _blueprint_container(base_comp: dict[str, Any], name: str, ci: int) -> dict[str, Any] | None:
    with _prefixed(f"beta blueprint spec.components[{ci}].podTemplate.spec.containers must be a list"):
        containers, found = _nested_slice(base_comp, "podTemplate", "spec", "containers")
    if not found or containers is None:
        return None
    for k, c in enumerate(containers):
        if not isinstance(c, dict):
            raise _Fail(
                f"beta blueprint spec.components[{ci}].podTemplate.spec.containers[{k}] must be an object, "
                f"got {go_type(c)}"
            )
        if c.get("name") == name:
            return c
    return None
