"""``default``: every document as the API server would store it, or its refusal.

One function for every kind the package models (``_core/_kinds.py``, docs/decisions.md D50):

* DGD, DCD, DGDR: ``_validate.check_nvidia`` (schema, CEL, mutating then validating webhooks; v1alpha1
  converted to the storage version v1beta1);
* the other Dynamo kinds (DGDSA, DynamoModel, DynamoCheckpoint, DynamoWorkerMetadata): ``validate``'s
  checks (schema, ObjectMeta, CEL, the DynamoModel validating webhook), then the CRD's schema defaults
  (none of them has a mutating webhook); a v1alpha1 DGDSA is stored as v1beta1, its storage version;
* PodCliqueSet, LeaderWorkerSet and the built-in kinds with a bundled schema: ``validate``'s checks, then
  what the API server defaults (Grove's CRD defaults and defaulting webhook, the LWS webhook, the built-in
  defaults ``render --stored`` applies);
* anything ``validate`` skips (no schema, not a Kubernetes object) and DeploymentSpec (not admitted by an
  API server) is kept as written, once ``validate`` found nothing wrong with it.
"""

from __future__ import annotations

from typing import Any

from .._core._diagnostics import Diagnostic
from .._core._document import Document
from ._validate import ValidateOptions


def stored_object(doc: Document, options: ValidateOptions) -> tuple[list[Diagnostic], Any, bool]:
    """(diagnostics, the stored object, admitted). ``admitted`` is False when admission refuses it."""
    from .._core._kinds import ADMITTED_KINDS, EXTRA_KINDS, served
    from ._validate import check_nvidia, in_namespace, validate_document

    data = doc.data
    api = data.get("apiVersion") if isinstance(data, dict) else None
    kind = data.get("kind") if isinstance(data, dict) else None
    if isinstance(api, str) and api.rpartition("/")[0] == "nvidia.com":
        # stored in the namespace it is applied to, as the API server fills it in before admission
        data = in_namespace(data, options.namespace)
    if isinstance(api, str) and isinstance(kind, str) and kind in ADMITTED_KINDS and served(api, kind) \
            and isinstance(data, dict):
        diags, stored = check_nvidia(data, options)
        ok = stored is not None and not any(d.severity == "error" for d in diags)
        return diags, stored, ok
    outcome = validate_document(doc, options)
    diags = outcome.diagnostics
    if outcome.status in ("invalid", "error"):
        return diags, None, False
    if outcome.status == "skipped" or not isinstance(data, dict) or not isinstance(api, str):
        return diags, doc.data, True
    group = api.rpartition("/")[0]
    if group == "nvidia.com" and isinstance(kind, str) and kind in EXTRA_KINDS:
        return diags, extra_defaults(data), True
    if (group, kind) in (("grove.io", "PodCliqueSet"), ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"),
                         ("apps", "Deployment"), ("", "Service")):
        from .._render._serverdefaults import apply_server_defaults

        return diags, apply_server_defaults(_pruned(data)), True
    return diags, data, True


def _pruned(data: dict[str, Any]) -> dict[str, Any]:
    from .._schema import _schemas, _structural

    schema = _schemas.for_object(str(data.get("apiVersion")), str(data.get("kind")))
    return _structural.prune_nulls(data, schema)[0] if schema is not None else data


def extra_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A DGDSA / DynamoModel / DynamoCheckpoint / DynamoWorkerMetadata (any ``crd`` kind of the registry,
    ``_core/_kinds.py``) with its CRD's defaults, in the storage version."""
    from .._schema import _schemas, _structural
    from .._schema._defaulting import apply_schema_defaults

    schema = _schemas.for_object(str(data.get("apiVersion")), str(data.get("kind")))
    assert schema is not None
    pruned, _ = _structural.prune_nulls(data, schema)
    out: dict[str, Any] = apply_schema_defaults(pruned, schema)
    if out.get("kind") == "DynamoGraphDeploymentScalingAdapter" and out.get("apiVersion") == "nvidia.com/v1alpha1":
        from .._convert._dgdsa import convert_dgdsa

        out = convert_dgdsa(out, "nvidia.com/v1beta1")
    return out
