"""The MNNVL annotation rules of Grove's webhook (ai-dynamo/grove ``operator/internal/mnnvl/webhook.go``):
``grove.io/mnnvl-group`` on the PodCliqueSet, its clique templates and its scaling groups is a
DNS-1123 label (or ``none``) on CREATE, needs auto-MNNVL enabled, and is immutable on UPDATE."""

from __future__ import annotations

from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import field_error, go_quote
from .._k8s._names import dns1123_label_errors
from ._common import ANN_MNNVL_GROUP, TPL, PcsView, as_dict, as_list, forbidden, invalid, str_map
from ._settings import GroveSettings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, Iterator

RULE_CREATE = "grove.mnnvl"
RULE_UPDATE = "grove.mnnvl-immutable"


def _annotated(view: PcsView) -> Iterator[tuple[Path, tuple[str, Any] | None, Any]]:
    """Where the annotation may be: (path of the annotations map, ``(list, name)`` of the clique or
    scaling group or None for the PodCliqueSet, the annotations)."""
    yield ("metadata", "annotations"), None, view.meta.get("annotations")
    for field_ in ("cliques", "podCliqueScalingGroups"):
        for i, x in enumerate(as_list(view.tmpl.get(field_))):
            if isinstance(x, dict):
                yield TPL + (field_, i, "annotations"), (field_, x.get("name")), x.get("annotations")


def mnnvl_create(view: PcsView, settings: GroveSettings) -> list[Diagnostic]:
    """``ValidatePCSOnCreate``'s annotation checks."""
    errs: list[Diagnostic] = []
    for base, _, ann in _annotated(view):
        errs += _create_annotation(ann, base, settings)
    return errs


def _create_annotation(annotations: Any, base: Path, settings: GroveSettings) -> list[Diagnostic]:
    ann = str_map(annotations)
    if ANN_MNNVL_GROUP not in ann:
        return []
    value = ann[ANN_MNNVL_GROUP]
    p = base + (ANN_MNNVL_GROUP,)
    errs: list[Diagnostic] = []
    if not value:
        errs.append(invalid(RULE_CREATE, p, value, "mnnvl-group value must not be empty"))
    elif value != "none":
        label_errs = dns1123_label_errors(value)
        if label_errs:
            errs.append(invalid(RULE_CREATE, p, value, f"mnnvl-group value {go_quote(value)} is not a valid "
                                                       f"DNS-1123 label: {'; '.join(label_errs)}"))
    if not settings.auto_mnnvl_enabled and value != "none":
        errs.append(invalid(RULE_CREATE, p, value, "MNNVL is not enabled in the operator configuration. Either "
                                                   f"enable MNNVL globally or remove the {ANN_MNNVL_GROUP} annotation"))
    return errs


def mnnvl_update(old: dict[str, Any], new: dict[str, Any]) -> list[Diagnostic]:
    """``ValidatePCSOnUpdate``: the annotation of the PodCliqueSet and of every clique / scaling group
    present on both sides (matched by name) cannot be added, removed or changed."""
    olds = {name: ann for _, name, ann in _annotated(PcsView(old))}
    out: list[Diagnostic] = []
    for base, name, ann in _annotated(PcsView(new)):
        if name in olds:
            out += _annotation_immutability(olds[name], ann, base)
    return out


def _annotation_immutability(old: Any, new: Any, base: Path) -> list[Diagnostic]:
    """``kubeutils.ValidateAnnotationsImmutability`` for ``grove.io/mnnvl-group``."""
    o, n = as_dict(old), as_dict(new)
    key = ANN_MNNVL_GROUP
    path = base + (key,)
    out: list[Diagnostic] = []
    if key not in o and key in n:
        out.append(forbidden(RULE_UPDATE, path, f"annotation {key} cannot be added after creation"))
    if key in o and key not in n:
        out.append(forbidden(RULE_UPDATE, path, f"annotation {key} cannot be removed after creation"))
    if key in o and key in n and o[key] != n[key]:
        ov, nv = str(o[key]), str(n[key])
        out.append(Diagnostic(RULE_UPDATE, path,
                              field_error("Invalid value", nv, f"annotation {key} is immutable and cannot be "
                                          f"changed from {go_quote(ov)} to {go_quote(nv)}")))
    return out
