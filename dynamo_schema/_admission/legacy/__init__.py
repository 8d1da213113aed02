"""The admission webhooks of operator releases 0.8 – 1.2, before upstream rewrote them as structural
field-error validation (1.3: ``refactor(validation): make DGD/DCD validation structural``).

``validate(kind, obj, settings, release, old=None)`` runs the release's validating webhook on the object in
the version that webhook decodes (DGD and DCD: v1alpha1; DGDR: v1alpha1 up to 0.9, v1beta1 from 1.0;
DynamoModel: v1alpha1) and returns its diagnostics (errors, or the warnings when it admits). The rule table
with each rule's first and last release is docs/releases.md (``dynamo_schema._admission._releases``).
"""

from __future__ import annotations

from typing import Any

from ..._core._diagnostics import Diagnostic
from .._settings import AdmissionSettings

__all__ = ["validate"]


def validate(kind: str, obj: dict[str, Any], settings: AdmissionSettings, release: str,
             old: dict[str, Any] | None = None) -> list[Diagnostic]:
    from ._dgd import validate_dgd, validate_dgd_update
    from ._kinds import validate_dcd, validate_dcd_update, validate_dgdr, validate_dgdr_update, validate_model
    from ._shared import since

    if kind == "DynamoModel":
        return validate_model(obj, old)
    if old is not None and isinstance(obj.get("metadata"), dict) and obj["metadata"].get("deletionTimestamp"):
        return []  # the DGD, DCD and DGDR handlers skip an object being deleted
    if kind == "DynamoGraphDeploymentRequest":
        if old is not None and since(release, "1.0"):
            # dynamographdeploymentrequest_handler.go of 1.0 – 1.2: ValidateUpdate alone (the phase rule), no Validate
            return validate_dgdr_update(obj, old)
        # 0.8, 0.9: Validate, then a ValidateUpdate that accepts every update
        return validate_dgdr(release, obj)
    if kind == "DynamoGraphDeployment":
        out = validate_dgd(release, settings, obj)
        return out if old is None else _then_update(out, validate_dgd_update(release, settings, obj, old))
    out = validate_dcd(release, obj)
    return out if old is None else _then_update(out, validate_dcd_update(obj, old))


def _then_update(out: list[Diagnostic], update: list[Diagnostic]) -> list[Diagnostic]:
    """The DGD and DCD handlers' ``ValidateUpdate``: ``Validate`` first (its error and warnings returned as they
    are), then ``validator.ValidateUpdate``, whose error comes back with its own warnings only
    (``return updateWarnings, err``), else both warning lists."""
    if any(d.severity == "error" for d in out):
        return out
    if any(d.severity == "error" for d in update):
        return update
    return out + update
