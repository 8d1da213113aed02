"""``convert``, ``diff``, ``merge``, ``merge_overrides`` and ``explain``: versions, updates, overrides, fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._common import ApiVersion, Manifest, Target, plain

if TYPE_CHECKING:  # pragma: no cover
    from .._admission import AdmissionSettings
    from .._merge._override import MergeResult
    from .._pipeline._diff import DiffReport


def convert(obj: Manifest, to: ApiVersion) -> dict[str, Any]:
    """The object in API version ``to``, as the conversion webhook converts it (``convert --to``): a Dynamo
    object is validated first, as the command does; any other object is returned unchanged (a copy).

    Raises ``ConversionError`` (``.diagnostics``) when the object is not valid or cannot be converted."""
    import copy

    from .._convert._envelope import ConversionError
    from .._convert._v1alpha1 import to_v1alpha1, to_v1beta1
    from ._common import in_memory

    if to not in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1"):
        raise ConversionError(f"unknown target version {to!r} (nvidia.com/v1beta1 or nvidia.com/v1alpha1)")
    data = plain(obj)
    api = data.get("apiVersion") if isinstance(data, dict) else None
    if not (isinstance(api, str) and api.startswith("nvidia.com/")):
        return copy.deepcopy(data)
    from .._pipeline._validate import ValidateOptions, validate_document

    outcome = validate_document(in_memory(data), ValidateOptions())
    if outcome.status in ("invalid", "error"):
        errors = [d for d in outcome.diagnostics if d.severity == "error"]
        raise ConversionError(f"the {data.get('kind')} is not valid: " + "; ".join(
            (f"{d.field}: " if d.path else "") + d.message for d in errors[:3]), errors)
    return (to_v1beta1 if to == "nvidia.com/v1beta1" else to_v1alpha1)(data)


def diff(old: Manifest | None, new: Manifest | None, *, target: Target | None = None, namespace: str = "default",
         settings: AdmissionSettings | None = None, operator_version: str | None = None) -> DiffReport:
    """What updating ``old`` to ``new`` changes (``python -m dynamo_schema diff`` for one object): the new
    object admitted as an UPDATE, both rendered for the same target, the changed objects, the components
    that restart and what Grove or admission would refuse (``.refused``, ``.status``). Never raises for bad
    input: problems are in the report (``.problems``, ``.admission``)."""
    from .._pipeline._diff import diff_documents

    return diff_documents(None if old is None else plain(old), None if new is None else plain(new), target=target,
                          namespace=namespace, settings=settings, operator_version=operator_version)


def merge(blueprint: Manifest, override: Manifest, *, validate: bool = False) -> MergeResult:
    """``python -m dynamo_schema merge``: a DGD ``blueprint`` with an override applied as upstream applies a
    DGDR's ``spec.overrides.dgd``. ``override`` is a partial DGD or a whole DGDR manifest (its
    ``spec.overrides.dgd``; a DGDR without one normalises the blueprint). ``validate``: the effective DGD
    must pass admission. Raises ``MergeError`` (upstream's message; ``.diagnostics``)."""
    from .._merge._override import MergeError, apply_overrides
    from .._pipeline._merge_check import merged_errors, override_from_document

    base, doc = plain(blueprint), plain(override)
    patch = override_from_document(doc)
    if patch is None:
        api = base.get("apiVersion") if isinstance(base, dict) else None
        patch = {"apiVersion": api, "kind": "DynamoGraphDeployment"}
    result = apply_overrides(base, patch)
    if validate:
        errors = merged_errors(result.dgd)
        if errors:
            exc = MergeError("the merged DGD would not be admitted: " + "; ".join(
                (f"{d.field}: " if d.path else "") + d.message for d in errors[:3]), [str(w) for w in result.warnings])
            exc.diagnostics = errors
            raise exc
    return result


def merge_overrides(blueprint: dict[str, Any] | None, override: dict[str, Any] | None) -> MergeResult:
    """Apply a DGDR ``spec.overrides.dgd`` to a generated DGD as upstream does (``MergeResult``)."""
    from .._merge._override import apply_overrides

    return apply_overrides(blueprint, override)


def explain(field: str, *, api_version: str | None = None, recursive: bool = False,
            operator_version: str | None = None) -> str:
    """``python -m dynamo_schema explain``: a field's documentation, type, default and constraints
    (``field``: ``dgd.spec.components.multinode``, a kind or short name then a path). ``operator_version``:
    the schema of an earlier operator release. Raises ``ExplainError`` (an unknown kind, version or
    field) or ``UnknownRelease``."""
    from .._schema._explain import explain as _explain
    from .._schema._releases import release_of

    release = release_of(operator_version) if operator_version is not None else ""
    return _explain(field, api_version=api_version, recursive=recursive, release=release)
