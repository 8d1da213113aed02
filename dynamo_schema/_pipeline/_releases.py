"""``validate`` for an earlier operator release (``AdmissionSettings.operator_release``, ``--operator-version``).

The API server of a cluster running release X.Y: the kinds and versions that release's CRDs serve, their
schema and CEL rules (``_schema/_releases.py``), then that release's admission (``_admission/_releases.py``):

1. the object is checked against the schema of the version it was sent in (unknown fields, types, CEL…);
2. the CRD defaults of that version, then the release's mutating webhook (in the version it is registered
   for, converted there and back by the conversion webhook as the API server does);
3. the release's validating webhook on the object in the version it decodes (v1alpha1 for DGD and DCD up to
   1.2, ``_admission/legacy``; v1beta1 from 1.3, the reference rules the release had);
4. its diagnostics pointed back at the version the user wrote.

Conversion uses the reference revision's converter for every release (the releases' own conversion
webhooks are not modelled; 0.8 – 1.1 convert nothing for DGD and DCD, which served v1alpha1 only). The
reconcile-time failures of ``_reconcile.py`` belong to the reference revision and are not run.
Called from ``_validate.check_nvidia`` / ``validate_document`` (this module does not import them).
"""

from __future__ import annotations

from typing import Any, Callable

from .._core._diagnostics import Diagnostic
from .._core._kinds import ADMITTED_KINDS as NVIDIA_KINDS  # the one list of kinds (D50)

ToAlpha = Callable[[Diagnostic, dict[str, Any], "dict[str, Any] | None"], Diagnostic]


def release_of(options: Any) -> str:
    settings = getattr(options, "settings", None)
    return str(getattr(settings, "operator_release", "") or "")


def served_diagnostic(release: str, api: str, kind: str) -> Diagnostic | None:
    """What the API server of ``release`` answers for a kind or version its CRDs do not serve (None: served)."""
    from .._schema import _releases

    version = api.rpartition("/")[2]
    served = _releases.served_versions(release, kind)
    msg = f'no matches for kind "{kind}" in version "{api}"'
    if not served:
        return Diagnostic("schema.unknown-kind", ("kind",), f"{msg}: operator release {release} has no {kind}")
    if version in served:
        return None
    versions = " and ".join(f'"nvidia.com/{v}"' for v in served)
    return Diagnostic("schema.unknown-kind", ("apiVersion",), f"{msg}: operator release {release} serves {versions}")


def _convert(obj: dict[str, Any], version: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """``obj`` in ``version`` (the reference converter; unchanged when already there)."""
    if str(obj.get("apiVersion", "")).rpartition("/")[2] == version:
        return obj, []
    try:
        from .._convert._v1alpha1 import to_v1alpha1, to_v1beta1
    except ImportError:  # pragma: no cover - converter not installed
        return None, []
    try:
        return (to_v1beta1(obj) if version == "v1beta1" else to_v1alpha1(obj)), []
    except Exception as exc:  # noqa: BLE001 - the converter refuses the object: reported
        return None, [Diagnostic("convert.failed", (), str(exc))]


def _schema_checks(data: dict[str, Any], schema: dict[str, Any], *, strict: bool, old: Any, status: bool,
                   cel: bool = True) -> tuple[dict[str, Any], list[Diagnostic]]:
    from .._schema._apiserver import api_server_checks

    checked = api_server_checks(data, schema, strict=strict, old=old, status_subresource=status, cel=cel)
    return checked.pruned, checked.diagnostics


def _cel_checks(data: dict[str, Any], schema: dict[str, Any], *, old: Any, status: bool) -> list[Diagnostic]:
    from .._schema import _cel, _structural

    structural = _structural.validate(data, schema, strict=False, status_subresource=status)
    return _cel.validate_cel(data, schema, old=old, structural=structural, status_subresource=status)


def _beta_to_alpha_path(d: Diagnostic, sent: dict[str, Any]) -> Diagnostic:
    """A v1alpha1 webhook's diagnostic (``spec.services.NAME…``) on a DGD sent as v1beta1: the component's path."""
    path = tuple(d.path)
    if path[:2] != ("spec", "services"):
        return d
    if len(path) >= 3:
        comps = (sent.get("spec") or {}).get("components") if isinstance(sent.get("spec"), dict) else None
        for i, comp in enumerate(comps if isinstance(comps, list) else []):
            if isinstance(comp, dict) and comp.get("name") == path[2]:
                return d._replace(path=("spec", "components", i) + path[3:])
    return d._replace(path=("spec", "components"))  # the map itself (topology immutable) or a name not sent


def check_nvidia_release(data: dict[str, Any], options: Any, release: str, to_alpha: ToAlpha, *,
                         source_version: str | None = None) -> tuple[list[Diagnostic], dict[str, Any] | None]:
    """Diagnostics for a DGD, DCD or DGDR under ``release``, and the stored object (in the release's storage
    version) when admitted. ``options.old``: the stored old object (an update)."""
    from .._admission import AdmissionSettings
    from .._admission import _releases as adm
    from .._schema import _releases
    from .._schema._defaulting import apply_schema_defaults

    api, kind = str(data.get("apiVersion")), str(data.get("kind"))
    sent = api.rpartition("/")[2]
    served = served_diagnostic(release, api, kind)
    if served is not None:
        return [served], None
    schema = _releases.schema(release, api, kind)
    assert schema is not None
    old = options.old if isinstance(options.old, dict) else None
    old_sent = _convert(old, sent)[0] if old is not None else None
    status = _releases.status_subresource(release, api, kind)
    mutating = adm.mutating_version(release, kind)
    # with a mutating webhook, the CRD's CEL rules are evaluated on what its patch produced (below)
    pruned, diags = _schema_checks(data, schema, strict=options.strict, old=old_sent, status=status,
                                   cel=mutating is None)
    if any(d.severity == "error" for d in diags):
        if mutating is not None:  # refused before the webhook is called: the CEL findings on the object sent
            diags += _cel_checks(pruned, schema, old=old_sent, status=status)
        return diags, None
    settings = options.settings if options.settings is not None else AdmissionSettings(operator_release=release)
    operation = "UPDATE" if old is not None else "CREATE"
    obj: dict[str, Any] | None = apply_schema_defaults(pruned, schema)
    if mutating is not None and obj is not None:
        obj, conv = _convert(obj, mutating)
        if obj is None:
            return diags + conv, None
        obj = adm.mutate(obj, settings, release, operation)
        # the API server's order (as on the reference path): mutating admission, then the schema's CEL
        # rules on the patched object in the version sent (a grove DGD's defaulted minAvailable is what
        # the transition rule compares with the stored one), then the validating webhook
        patched, conv = _convert(obj, sent)
        if patched is None:
            return diags + conv, None
        diags += _cel_checks(patched, schema, old=old_sent, status=status)
        if any(d.severity == "error" for d in diags):
            return diags, None
    version = adm.webhook_version(release, kind)
    obj, conv = _convert(obj, version) if obj is not None else (None, [])
    if obj is None:
        return diags + conv, None
    target = _releases.schema(release, f"nvidia.com/{version}", kind)
    if target is not None and mutating is not None:
        obj = apply_schema_defaults(obj, target)  # the CRD defaults again, after the mutating webhook
    old_v = _convert(old, version)[0] if old is not None else None
    if adm.is_legacy(release, kind):
        from .._admission.legacy import validate

        hook = validate(kind, obj, settings, release, old_v)
    else:
        hook = adm.beta_rules(obj, settings, release, old=old_v, source_version=source_version or sent)
    if version != sent:
        if sent == "v1alpha1":
            hook = [to_alpha(d, data, obj) for d in hook]
        else:
            hook = [_beta_to_alpha_path(d, data) for d in hook]
    storage = _releases.storage_version(release, kind)
    stored, _ = _convert(obj, storage)
    return diags + hook, stored


def check_update_release(new: dict[str, Any], old: dict[str, Any], options: Any, release: str, to_alpha: ToAlpha
                         ) -> tuple[list[Diagnostic], dict[str, Any] | None, dict[str, Any] | None]:
    """An update under ``release``: ``old`` admitted as it was created, then ``new`` judged against what was
    stored, ``new`` applied over it as on the reference path (``check_update``)."""
    if not isinstance(old, dict) or old.get("kind") != new.get("kind"):
        okind = old.get("kind") if isinstance(old, dict) else None
        return [Diagnostic("update.kind-changed", ("kind",),
                           f'Invalid value: "{new.get("kind")}": the update changes the kind of "{okind}"')], None, None
    old_diags, old_stored = check_nvidia_release(old, options._replace(old=None), release, to_alpha)
    errors = [d for d in old_diags if d.severity == "error"]
    if old_stored is None or errors:
        detail = "; ".join(f"{d.field}: {d.message}" if d.path else d.message for d in errors[:5])
        return [Diagnostic("update.old-invalid", (), "the old object could not have been admitted: " + detail)], \
            None, None
    # ``kubectl apply``: ``new`` merged over the live object as last applied (``apply_over``, in the version
    # sent), so what only the server wrote stays (the workload-provider annotation 1.4 selects Grove by)
    sent = str(new.get("apiVersion", "")).rpartition("/")[2]
    live, _ = _convert(old_stored, sent)
    last, _ = _convert(old, sent)
    applied = new
    if live is not None and last is not None:
        from ._apply import apply_over

        applied = apply_over({k: v for k, v in live.items() if k != "status"}, last, new)
    diags, stored = check_nvidia_release(applied, options._replace(old=old_stored), release, to_alpha)
    return diags, stored, old_stored


def check_extra_release(data: dict[str, Any], options: Any, release: str) -> list[Diagnostic]:
    """The operator's other kinds under ``release`` (DynamoModel with that release's webhook)."""
    from .._schema import _releases

    api, kind = str(data.get("apiVersion")), str(data.get("kind"))
    served = served_diagnostic(release, api, kind)
    if served is not None:
        return [served]
    schema = _releases.schema(release, api, kind)
    assert schema is not None
    old = options.old if isinstance(options.old, dict) else None
    pruned, diags = _schema_checks(data, schema, strict=options.strict, old=old,
                                   status=_releases.status_subresource(release, api, kind),
                                   cel=_releases.has_cel_rules(release, api, kind))
    if kind != "DynamoModel" or any(d.severity == "error" for d in diags):
        return diags
    from .._admission._releases import since

    if since(release, "1.3"):
        from .._schema._extra_kinds import dynamo_model_rules

        return diags + dynamo_model_rules(pruned, old)
    from .._admission.legacy import validate

    return diags + validate(kind, pruned, _settings(options, release), release, old)


def _settings(options: Any, release: str) -> Any:
    from .._admission import AdmissionSettings

    return options.settings if options.settings is not None else AdmissionSettings(operator_release=release)


def validate_release_document(data: dict[str, Any], options: Any, release: str, to_alpha: ToAlpha,
                              dynamo_name: bool) -> list[Diagnostic] | None:
    """An ``nvidia.com`` document under ``release``; None: not a Dynamo kind (skipped, as any unknown kind)."""
    from .._schema import _releases
    from .._schema._extra_kinds import EXTRA_KINDS

    kind = str(data.get("kind"))
    if kind not in _releases.kinds(release) and kind not in NVIDIA_KINDS and kind not in EXTRA_KINDS \
            and not dynamo_name:
        return None
    served = served_diagnostic(release, str(data.get("apiVersion")), kind)
    if served is not None:
        return [served]
    if kind in NVIDIA_KINDS:
        if isinstance(options.old, dict):
            return check_update_release(data, options.old, options, release, to_alpha)[0]
        return check_nvidia_release(data, options, release, to_alpha)[0]
    return check_extra_release(data, options, release)


def default_release(obj: dict[str, Any], settings: Any, release: str) -> dict[str, Any]:
    """What ``release`` stores for ``obj`` without validating it (``dynamo_schema.default``): the CRD defaults of
    its version, the mutating webhook, the storage version. Other kinds and unserved versions: a copy."""
    from .._admission import _releases as adm
    from .._core._datacopy import deepcopy
    from .._schema import _releases
    from .._schema._defaulting import apply_schema_defaults

    api, kind = str(obj.get("apiVersion")), str(obj.get("kind"))
    schema = _releases.schema(release, api, kind) if kind in NVIDIA_KINDS else None
    if schema is None:
        return dict(deepcopy(obj))
    out: dict[str, Any] | None = apply_schema_defaults(obj, schema)
    mutating = adm.mutating_version(release, kind)
    if mutating is not None and out is not None:
        out, _ = _convert(out, mutating)
        if out is not None:
            out = adm.mutate(out, settings, release, "CREATE")
    if out is None:
        return dict(deepcopy(obj))
    converted, _ = _convert(out, _releases.storage_version(release, kind))
    return converted if converted is not None else out
