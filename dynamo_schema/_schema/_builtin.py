"""Built-in kinds (ConfigMap, Deployment, Service…) checked against the bundled Kubernetes schemas with the
structural checker of custom resources (``_structural``), so that their errors are worded as the API
server words a field error (``Invalid value: "integer": data.a in body must be of type string:
"integer"``, ``Required value``, ``Unsupported value: …``, ``unknown field "spec.foo"``) and not in
Python ``jsonschema``'s words (docs/decisions.md D50). The schemas are kubeconform's
(``_k8s/_builtin_kinds.structural_schema``); every field there is nullable, as the API server reads a
``null`` of a built-in kind as absent. Rule ids: ``k8s-schema.`` + the structural check's suffix
(``k8s-schema.type``, ``k8s-schema.required``, ``k8s-schema.min-length``…), ``schema.unknown-field``.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from .._k8s._builtin_kinds import structural_schema
from . import _structural

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


def validate_builtin(obj: dict[str, Any], *, version: str, strict: bool = True) -> list[Diagnostic] | None:
    """Diagnostics for a built-in kind, or ``None`` when no bundled schema knows it (skipped)."""
    schema = structural_schema(str(obj.get("apiVersion", "")), str(obj.get("kind", "")), version, strict)
    if schema is None:
        return None
    out = []
    for d in _structural.validate(obj, schema, strict=strict):
        # the rule family stays ``k8s-schema.*`` (waivers name it); an unknown field is ``schema.unknown-field``
        if d.rule.startswith("schema.") and d.rule not in ("schema.unknown-field", "schema.did-you-mean"):
            d = d._replace(rule="k8s-schema." + d.rule.removeprefix("schema."))
        out.append(d)
    return out
