"""DynamoComponentDeployment create-time rules (``dynamocomponentdeployment.go``)."""

from __future__ import annotations

from ..._core._diagnostics import Diagnostic
from .._common import as_dict, as_str
from .._settings import AdmissionSettings
from ._shared import Ctx, validate_elastic_ep, validate_shared_spec

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def dcd_ctx(settings: AdmissionSettings, *, check_runtime_version: bool = True) -> Ctx:
    # A standalone DCD is never on the Grove pathway, skips the InferencePool check, cannot carry
    # provider overrides and may omit runtimeVersionOverride.
    return Ctx(
        "dcd",
        settings,
        grove_pathway=False,
        validate_inference_pool=False,
        provider_overrides_supported=False,
        workload_provider="",
        check_runtime_version=check_runtime_version,
        allow_missing_override=True,
    )


def validate_dcd(
    dcd: dict[str, Any], settings: AdmissionSettings, *, check_runtime_version: bool = True
) -> list[Diagnostic]:
    ctx = dcd_ctx(settings, check_runtime_version=check_runtime_version)
    spec = as_dict(dcd.get("spec"))
    errs = validate_elastic_ep(ctx, as_str(spec.get("backendFramework")), spec, ("spec",))
    errs += validate_shared_spec(ctx, spec, ("spec",))
    return errs
