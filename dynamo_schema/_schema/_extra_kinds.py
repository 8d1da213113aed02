"""The other kinds of the Dynamo operator's CRD bundle: DynamoModel, DynamoGraphDeploymentScalingAdapter,
DynamoCheckpoint, DynamoWorkerMetadata.

Checked as the API server admits them: explicit nulls pruned, the generated structural schema (status is
a subresource where the CRD says so), ObjectMeta, the CRD's CEL rules, then for DynamoModel the
operator's validating webhook (``internal/webhook/validation/dynamomodel.go`` at the reference revision,
its messages). Rule ids of the webhook: ``dynamomodel.*``.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from .._core._kinds import EXTRA_KINDS as EXTRA_KINDS  # kind -> served versions (the one list, D50)

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def check_extra(data: dict[str, Any], *, strict: bool = True, old: Any = None) -> list[Diagnostic]:
    from .._core._kinds import spec_of
    from . import _schemas
    from ._apiserver import api_server_checks

    kind = str(data.get("kind"))
    spec = spec_of(kind)
    schema = _schemas.for_object(str(data.get("apiVersion")), kind)
    assert schema is not None and spec is not None
    # strict field validation (kubectl's default): the API server refuses an unknown field while decoding,
    # before the schema, CEL and webhooks run (as for DGD/DCD/DGDR, _pipeline/_validate._check_v1beta1)
    checked = api_server_checks(data, schema, strict=strict, old=old, status_subresource=spec.status_subresource,
                                stop_at_unknown_field=True, guard_meta=False)
    diags, pruned = checked.diagnostics, checked.pruned
    if checked.refused:
        return diags
    rules = spec.webhook_rules()  # the kind's validating webhook (DynamoModel's: dynamo_model_rules below)
    if rules is not None:
        diags += rules(pruned, old if isinstance(old, dict) else None)
    return diags


def _spec(obj: Any) -> dict[str, Any]:
    spec = obj.get("spec") if isinstance(obj, dict) else None
    return spec if isinstance(spec, dict) else {}


def _quote(value: Any) -> str:
    import json

    return json.dumps(value if isinstance(value, str) else "", ensure_ascii=False)


def dynamo_model_rules(model: dict[str, Any], old: dict[str, Any] | None = None) -> list[Diagnostic]:
    """The DynamoModel validating webhook (create; with ``old`` also the update rules)."""
    spec = _spec(model)
    out: list[Diagnostic] = []
    if not spec.get("modelName"):
        out.append(Diagnostic("dynamomodel.model-name-required", ("spec", "modelName"),
                              "Required value: must not be empty"))
    if not spec.get("baseModelName"):
        out.append(Diagnostic("dynamomodel.base-model-name-required", ("spec", "baseModelName"),
                              "Required value: must not be empty"))
    if spec.get("modelType") == "lora":
        source = spec.get("source")
        if not isinstance(source, dict):
            out.append(Diagnostic("dynamomodel.source-required", ("spec", "source"),
                                  'Required value: is required when spec.modelType is "lora"'))
        else:
            uri = source.get("uri")
            if not uri:
                out.append(Diagnostic("dynamomodel.source-uri-required", ("spec", "source", "uri"),
                                      'Required value: must be specified when spec.modelType is "lora"'))
            elif not (isinstance(uri, str) and uri.startswith(("s3://", "hf://", "file:///"))):
                # upstream redacts the URI in the message
                out.append(Diagnostic("dynamomodel.source-uri-scheme", ("spec", "source", "uri"),
                                      'Invalid value: "<redacted>": must start with "s3://", "hf://", or "file:///"'))
    if old is not None:
        before = _spec(old)
        for name, rule, warning in (
            ("baseModelName", "dynamomodel.base-model-name-immutable", "will break endpoint discovery"),
            ("modelType", "dynamomodel.model-type-immutable", "may cause unexpected behavior"),
        ):
            if spec.get(name, "") != before.get(name, ""):
                out.append(Diagnostic(rule, ("spec", name), f"Changing spec.{name} {warning}", severity="warning"))
                out.append(Diagnostic(rule, ("spec", name), f"Invalid value: {_quote(spec.get(name))}: is immutable "
                                      "and cannot be changed after creation"))
    return out
