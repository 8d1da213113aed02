"""The admission defaults a render target applies to its input (schema defaults and the mutating webhook, for
the pathway the target renders): idempotent on an object admission already stored."""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import ANN_WORKLOAD_PROVIDER
from .._core._datacopy import deepcopy
from ._options import RenderOptions

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

FALLBACK_OPERATOR_VERSION = "1.5.0"


def operator_version(options: RenderOptions) -> str:
    if options.operator_version:
        return options.operator_version
    try:
        from .._admission._settings import BUNDLED_OPERATOR_VERSION

        return BUNDLED_OPERATOR_VERSION
    except ImportError:  # pragma: no cover - admission package absent
        return FALLBACK_OPERATOR_VERSION


def admit(obj: Mapping[str, Any], options: RenderOptions, grove: bool) -> dict[str, Any]:
    """The target's copy of its input: with ``options.admitted`` the stored object as it is (admitted once,
    by the caller, for this pathway); else with the CREATE-time admission defaults applied (schema defaults
    and the mutating webhook, idempotent). The namespace rendered into when it has none; a DGD's workload
    provider is the target's pathway."""
    data: dict[str, Any] = deepcopy(dict(obj))
    if not isinstance(data.get("metadata"), dict):
        data["metadata"] = {}
    if not data["metadata"].get("namespace"):
        data["metadata"]["namespace"] = options.namespace
    if options.admitted:
        out = data
    else:
        from .._admission import _defaults as adm
        from .._admission._settings import AdmissionSettings

        settings = AdmissionSettings(
            grove_enabled=grove,
            lws_enabled=options.lws_enabled,
            discovery_backend=options.discovery_backend,
            operator_version=operator_version(options),
        )
        out = adm.default(data, settings, operation="CREATE")
    if out.get("kind") == "DynamoGraphDeployment":
        # The rendering target decides the pathway (CREATE semantics: the webhook chooses it).
        ann = out.setdefault("metadata", {}).setdefault("annotations", {})
        ann[ANN_WORKLOAD_PROVIDER] = "grove" if grove else "component"
    return out


