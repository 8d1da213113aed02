"""Stage orchestration for ``validate``: load → schema → CEL → defaulting → webhook rules.

Each document is checked on its own, the way the API server admits it:

* ``nvidia.com/v1beta1`` DGD, DCD, DGDR: explicit nulls pruned, the generated structural schema, the CRD's
  CEL rules, then (only when those pass, as the API server stops there) the mutating webhooks' defaults
  and the validating webhooks' rules;
* ``nvidia.com/v1alpha1``: converted to v1beta1 (as the conversion webhook does), then the same;
* ``infercrane.dev/v1`` DeploymentSpec (and header-less pre-v1 files): the DeploymentSpec loader rules;
* any other kind: the bundled Kubernetes schema of the chosen release, or ``skipped``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._diagnostics import Diagnostic
from ._document import Document

NVIDIA_KINDS = ("DynamoGraphDeployment", "DynamoComponentDeployment", "DynamoGraphDeploymentRequest")


@dataclass(frozen=True)
class ValidateOptions:
    strict: bool = True
    kubernetes_version: str = "1.32.0"
    settings: Any = None  # dynamo_schema._admission.AdmissionSettings; None = documented defaults
    old: Any = None  # previous version of the object (update checks), plain data


@dataclass
class ResourceOutcome:
    filename: str
    kind: str
    name: str
    version: str
    status: str  # valid | invalid | error | skipped
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _settings(options: ValidateOptions) -> Any:
    if options.settings is not None:
        return options.settings
    from ._admission import AdmissionSettings

    return AdmissionSettings()


def is_deploymentspec(data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    api = data.get("apiVersion")
    if isinstance(api, str) and api.startswith("infercrane.dev/"):
        return True
    # header-less pre-v1 DeploymentSpec files are read as v1
    return "apiVersion" not in data and "kind" not in data and ("model" in data or "provider" in data)


def check_nvidia(data: dict[str, Any], options: ValidateOptions, *,
                 source_version: str | None = None) -> tuple[list[Diagnostic], dict[str, Any] | None]:
    """Diagnostics for a Dynamo object, and the stored (defaulted, v1beta1) object when admitted.

    The API server validates against the schema of the version that was sent (v1beta1 or v1alpha1),
    converts to the storage version v1beta1, then calls the webhooks. Webhook diagnostics of a v1alpha1
    object refer to the converted object: they are reported at the document with their v1beta1 path.
    """
    from . import _cel, _schemas, _structural

    api = str(data.get("apiVersion"))
    schema = _schemas.for_object(api, str(data.get("kind")))
    assert schema is not None
    pruned, notes = _structural.prune_nulls(data, schema)
    diags: list[Diagnostic] = list(notes)
    # status is a subresource: the API server drops it from create/update requests before validating
    structural = _structural.validate(pruned, schema, strict=options.strict, status_subresource=True)
    diags += structural
    old = options.old
    diags += _cel.validate_cel(pruned, schema, old=old, structural=structural, status_subresource=True)
    if any(d.severity == "error" for d in diags):
        return diags, None
    from . import _admission

    alpha = api == "nvidia.com/v1alpha1"
    if alpha:
        converted, conv = _convert_alpha(pruned)
        if converted is None:
            return diags + conv, None
        pruned = converted
        if isinstance(old, dict) and old.get("apiVersion") == "nvidia.com/v1alpha1":
            old, _ = _convert_alpha(old)
    settings = _settings(options)
    operation = "UPDATE" if old is not None else "CREATE"
    stored = _admission.default(pruned, settings, operation=operation, old=old)
    # the CRD's transition rules (oldSelf) were evaluated with the CEL rules above
    hook = _admission.validate(stored, settings, old=old, transition_rules=False,
                               source_version=source_version or ("v1alpha1" if alpha else "v1beta1"))
    if alpha:
        hook = [Diagnostic(d.rule, (), f"{d.field}: {d.message}" if d.path else d.message, d.severity)
                for d in hook]
    return diags + hook, stored


def _convert_alpha(data: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    try:
        from ._convert import to_v1beta1
    except ImportError:
        return None, []
    try:
        return to_v1beta1(data), []
    except Exception as exc:  # conversion refuses the object
        return None, [Diagnostic("convert.failed", (), str(exc))]


def unknown_kind(api: str, kind: str) -> Diagnostic:
    """The API server's answer to a kind or version the Dynamo CRDs do not serve, with a suggestion."""
    import difflib

    msg = f'no matches for kind "{kind}" in version "{api}"'
    if kind not in NVIDIA_KINDS:
        close = difflib.get_close_matches(kind, NVIDIA_KINDS, n=1, cutoff=0.6)
        if close:
            return Diagnostic("schema.unknown-kind", ("kind",), f'{msg}, did you mean "{close[0]}"?')
        return Diagnostic("schema.unknown-kind", ("kind",), msg)
    return Diagnostic("schema.unknown-kind", ("apiVersion",),
                      f'{msg}: served versions are "nvidia.com/v1beta1" and "nvidia.com/v1alpha1"')


def validate_document(doc: Document, options: ValidateOptions | None = None) -> ResourceOutcome:
    options = options or ValidateOptions()
    data = doc.data
    kind = doc.kind if isinstance(doc.kind, str) else ""
    api = doc.api_version if isinstance(doc.api_version, str) else ""
    version = api.rpartition("/")[2]
    out = ResourceOutcome(doc.file, kind, doc.name, version, "valid")

    def finish(diags: list[Diagnostic]) -> ResourceOutcome:
        out.diagnostics = [doc.place(d) for d in diags]
        if any(d.severity == "error" for d in diags):
            out.status = "invalid"
        return out

    if not isinstance(data, dict):
        out.status = "error"
        out.diagnostics = [doc.place(Diagnostic("load.not-a-mapping", (), "document is not a mapping"))]
        return out
    if is_deploymentspec(data):
        out.kind = out.kind or "Deployment"
        out.version = out.version or "v1"
        from ._infercrane import validate_spec

        return finish(validate_spec(data))
    if not kind and not api:
        # not a Kubernetes resource at all (a CI workflow, a Helm values file): nothing to check
        out.status = "skipped"
        return out
    if not kind or not api:
        missing = "kind" if not kind else "apiVersion"
        out.status = "error"
        out.diagnostics = [doc.place(Diagnostic("load.missing-" + missing.lower(), (), f"missing '{missing}' key"))]
        return out
    group = api.rpartition("/")[0]
    if group == "nvidia.com" and (kind not in NVIDIA_KINDS or version not in ("v1beta1", "v1alpha1")):
        return finish([unknown_kind(api, kind)])
    if api == "nvidia.com/v1beta1" and kind in NVIDIA_KINDS:
        diags, _ = check_nvidia(data, options)
        return finish(diags)
    if api == "nvidia.com/v1alpha1" and kind in NVIDIA_KINDS:
        diags, _ = check_nvidia(data, options)
        return finish(diags)
    from . import _k8s_schemas

    k8s = _k8s_schemas.validate(data, version=options.kubernetes_version, strict=options.strict)
    if k8s is None:
        out.status = "skipped"
        return out
    return finish(k8s)


def validate_documents(docs: list[Document], options: ValidateOptions | None = None) -> list[ResourceOutcome]:
    return [validate_document(d, options) for d in docs]
