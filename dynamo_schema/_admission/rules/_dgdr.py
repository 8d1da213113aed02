"""DynamoGraphDeploymentRequest rules (``dynamographdeploymentrequest.go``)."""

from __future__ import annotations

from ..._core._datacopy import deepcopy
from ..._core._diagnostics import Diagnostic
from .._common import as_dict, as_str, forbidden, get, invalid, required
from .._runtime_version import image_has_version
from .._settings import AdmissionSettings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

HARDWARE_DETAIL = "GPU hardware configuration is required when GPU discovery is disabled"
OVERRIDE_DETAIL = "is required when spec.image has no parseable semantic-version tag"
IMMUTABLE_PHASES = ("Profiling", "Deploying", "Ready", "Deployed")


def _has_manual_hardware(hw: Any) -> bool:
    if not isinstance(hw, dict):
        return False
    return (
        as_str(hw.get("gpuSku")) != "" or hw.get("vramMb") is not None or hw.get("numGpusPerNode") is not None
    )


def _hardware_missing(settings: AdmissionSettings, spec: dict[str, Any]) -> bool:
    return not settings.gpu_discovery_enabled and not _has_manual_hardware(spec.get("hardware"))


def _hardware_required() -> Diagnostic:
    return required("dgdr.hardware-required", ("spec", "hardware"), HARDWARE_DETAIL)


def _search_backend_error(spec: dict[str, Any]) -> Diagnostic:
    return invalid(
        "dgdr.search-strategy-backend", ("spec", "searchStrategy"), spec.get("searchStrategy"), _search_detail(spec)
    )


def _override_required_error() -> Diagnostic:
    return required("dgdr.runtime-version-override-required", ("spec", "runtimeVersionOverride"), OVERRIDE_DETAIL)


def _search_detail(spec: dict[str, Any]) -> str:
    return (
        f'is incompatible with spec.backend "{as_str(spec.get("backend"))}"; set spec.backend to a specific '
        "backend (sglang, trtllm, or vllm)"
    )


def _incompatible_search(spec: dict[str, Any]) -> bool:
    return spec.get("searchStrategy") == "thorough" and spec.get("backend") == "auto"


def _override_required(spec: dict[str, Any]) -> bool:
    image = as_str(spec.get("image"))
    if image == "" or as_str(spec.get("runtimeVersionOverride")) != "":
        return False
    return not image_has_version(image)


def validate_dgdr(dgdr: dict[str, Any], settings: AdmissionSettings) -> list[Diagnostic]:
    spec = as_dict(dgdr.get("spec"))
    errs: list[Diagnostic] = []
    if _hardware_missing(settings, spec):
        errs.append(_hardware_required())
    if _incompatible_search(spec):
        errs.append(_search_backend_error(spec))
    if _override_required(spec):
        errs.append(_override_required_error())
    return errs


def _auto_apply(spec: dict[str, Any]) -> bool | None:
    v = spec.get("autoApply")
    return v if isinstance(v, bool) else None


def _deferred_runtime_update(new: dict[str, Any], old: dict[str, Any], phase: str) -> bool:
    old_auto = _auto_apply(old)
    if old_auto is None or old_auto or phase not in ("Profiling", "Ready"):
        return False
    new_auto = _auto_apply(new)
    activated = new_auto is None or new_auto
    if activated and phase != "Ready":
        return False
    stripped = deepcopy(new)
    for key in ("autoApply", "runtimeVersionOverride"):
        stripped.pop(key, None)
        if key in old:
            stripped[key] = deepcopy(old[key])
    return _semantic_equal(stripped, old)


def _drop_empty(v: Any) -> Any:
    """Compare like Go structs with omitempty: empty strings/maps/lists equal absent fields."""
    if isinstance(v, dict):
        out = {k: _drop_empty(x) for k, x in v.items()}
        return {k: x for k, x in out.items() if x not in (None, "", [], {})}
    if isinstance(v, list):
        return [_drop_empty(x) for x in v]
    return v


def _semantic_equal(a: Any, b: Any) -> bool:
    return bool(_drop_empty(a) == _drop_empty(b))


def validate_dgdr_update(
    new: dict[str, Any], old: dict[str, Any], settings: AdmissionSettings
) -> list[Diagnostic]:
    ns, os_ = as_dict(new.get("spec")), as_dict(old.get("spec"))
    phase = as_str(get(old, "status", "phase"))
    errs: list[Diagnostic] = []
    # ratchets: an update is refused only for what the old object did not already violate
    if _hardware_missing(settings, ns) and not _hardware_missing(settings, os_):
        errs.append(_hardware_required())
    if _incompatible_search(ns) and not _incompatible_search(os_):
        errs.append(_search_backend_error(ns))
    old_auto, new_auto = _auto_apply(os_), _auto_apply(ns)
    activated = old_auto is False and (new_auto is None or new_auto)
    if _override_required(ns) and (
        as_str(ns.get("image")) != as_str(os_.get("image"))
        or as_str(ns.get("runtimeVersionOverride")) != as_str(os_.get("runtimeVersionOverride"))
        or activated
    ):
        errs.append(_override_required_error())
    if (
        phase in IMMUTABLE_PHASES
        and not _semantic_equal(ns, os_)
        and not _deferred_runtime_update(ns, os_, phase)
    ):
        errs.append(
            forbidden(
                "dgdr.phase-immutable",
                ("spec",),
                f'updates are forbidden while the resource is in phase "{phase}"; delete and recreate '
                "the resource to change its spec",
            )
        )
    return errs
