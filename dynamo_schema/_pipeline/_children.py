"""What the API server (and Grove's webhook) refuse in one rendered object: the one check of a child
object, used by ``render`` (every rendered object must be admissible, ``_compile.check_rendered``) and by
``validate``'s reconcile check (``_reconcile``: what the operator would fail to create).

A Dynamo, Grove or LWS object is checked strictly against its bundled schema, then a PodCliqueSet by Grove's
create-time webhook; a built-in object (Deployment, Service…) against the bundled Kubernetes schema of
``kubernetes_version`` when one is given (``render``), else not at all (``validate``: the renderer builds
it from schema-checked input, and what the user's names can break in it is checked by ``check_names``).
Messages name the object: ``rendered KIND/NAME: FIELD: MESSAGE``.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from .._schema import _schemas, _structural

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def output_schema_version(api: str, kind: str, kubernetes_version: str) -> str:
    """The Kubernetes release whose bundled schema checks a rendered built-in object: DRA's
    ``resource.k8s.io/v1`` is served from Kubernetes 1.34 on, and a cluster with DRA runs one (D38)."""
    from .._k8s import _builtin_kinds as _k8s_schemas

    if api == "resource.k8s.io/v1" and not _k8s_schemas.has_schema(api, kind, kubernetes_version):
        return "1.34.0"
    return kubernetes_version


def child_errors(obj: dict[str, Any], settings: Any, kubernetes_version: str | None = None) -> list[Diagnostic]:
    """The errors of one rendered object (see the module docstring), each naming the object."""

    api, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    name = (obj.get("metadata") or {}).get("name", "")
    schema = _schemas.for_object(api, kind)
    diags: list[Diagnostic]
    if schema is not None:
        diags = _structural.validate(obj, schema, strict=True)
        if kind == "PodCliqueSet" and not diags:
            from .._admission import AdmissionSettings
            from .._grove._create import validate_pcs
            from .._grove._settings import grove_settings

            # what Grove's webhook would refuse, the cluster would too
            diags = validate_pcs(obj, grove_settings(settings if settings is not None else AdmissionSettings()))
    elif kubernetes_version is not None:
        from ._outputcheck import proven_valid

        version = output_schema_version(api, kind, kubernetes_version)
        if proven_valid(obj, version):  # compiled once per schema; the walk explains failures
            diags = []
        else:
            from .._schema._builtin import validate_builtin

            diags = validate_builtin(obj, version=version, strict=True) or []
    else:
        diags = []
    return [Diagnostic(d.rule, d.path, f"rendered {kind}/{name}: {d.field}: {d.message}")
            for d in diags if d.severity == "error"]
