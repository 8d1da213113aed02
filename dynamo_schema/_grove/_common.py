"""Helpers shared by Grove's create and update admission: safe accessors on plain data, the field
errors Grove's webhook builds (``field.Invalid``, ``field.Forbidden``…, rendered as
``<Type>: <value>: <detail>`` by :func:`dynamo_schema._k8s._gofmt.field_error`), the view of a
PodCliqueSet the rules read and the topology-constraint domains."""

from __future__ import annotations

from .._core._access import as_dict, as_int, as_list, as_str
from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import OMIT, field_error

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ANN_MNNVL_GROUP", "FIELD_IMMUTABLE", "TPL", "PcsView", "as_dict", "as_int", "as_list", "as_str", "duplicate",
    "forbidden", "immutable", "invalid", "not_found", "preferred_domain", "required", "required_domain", "str_map",
]

ANN_MNNVL_GROUP = "grove.io/mnnvl-group"
FIELD_IMMUTABLE = "field is immutable"

#: ``spec.template``: where the clique, scaling-group and topology fields live
TPL: Path = ("spec", "template")


# --------------------------------------------------------------------------------------- accessors
def str_map(v: Any) -> dict[str, str]:
    """A ``map[string]string`` as Go decodes it (a non-string value reads as ``""``)."""
    return {str(k): (x if isinstance(x, str) else "") for k, x in as_dict(v).items()}


class PcsView:
    """Accessors on a PodCliqueSet given as plain data (missing levels read as empty). A plain class, not a
    dataclass: creating a dataclass costs ~0.2-0.5 ms at import, in every cold ``validate`` (D26)."""

    def __init__(self, pcs: dict[str, Any]) -> None:
        self.pcs = pcs

    def __repr__(self) -> str:
        return f"{type(self).__name__}(pcs={self.pcs!r})"

    @property
    def meta(self) -> dict[str, Any]:
        return as_dict(self.pcs.get("metadata"))

    @property
    def name(self) -> str:
        return as_str(self.meta.get("name"))

    @property
    def spec(self) -> dict[str, Any]:
        return as_dict(self.pcs.get("spec"))

    @property
    def tmpl(self) -> dict[str, Any]:
        return as_dict(self.spec.get("template"))

    @property
    def cliques(self) -> list[dict[str, Any]]:
        return [as_dict(c) for c in as_list(self.tmpl.get("cliques"))]

    @property
    def groups(self) -> list[dict[str, Any]]:
        return [as_dict(g) for g in as_list(self.tmpl.get("podCliqueScalingGroups"))]


# ------------------------------------------------------------------------------------ field errors
def invalid(rule: str, path: Path, value: Any, detail: str) -> Diagnostic:
    return Diagnostic(rule, path, field_error("Invalid value", value, detail))


def required(rule: str, path: Path, detail: str) -> Diagnostic:
    return Diagnostic(rule, path, field_error("Required value", OMIT, detail))


def duplicate(rule: str, path: Path, value: Any) -> Diagnostic:
    return Diagnostic(rule, path, field_error("Duplicate value", value))


def not_found(rule: str, path: Path, value: Any) -> Diagnostic:
    return Diagnostic(rule, path, field_error("Not found", value))


def forbidden(rule: str, path: Path, detail: str) -> Diagnostic:
    return Diagnostic(rule, path, field_error("Forbidden", OMIT, detail))


def immutable(rule: str, path: Path, new_value: Any) -> Diagnostic:
    return invalid(rule, path, new_value, FIELD_IMMUTABLE)


# ---------------------------------------------------------------------------- topology constraints
def required_domain(tc: dict[str, Any] | None) -> str:
    """``TopologyConstraint.RequiredDomain``: ``pack.required``, else the deprecated ``packDomain``."""
    if tc is None:
        return ""
    return as_str(as_dict(tc.get("pack")).get("required")) or as_str(tc.get("packDomain"))


def preferred_domain(tc: dict[str, Any] | None) -> str:
    """``TopologyConstraint.PreferredDomain``: ``pack.preferred``."""
    if tc is None:
        return ""
    return as_str(as_dict(tc.get("pack")).get("preferred"))
