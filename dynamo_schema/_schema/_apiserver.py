"""The API server's checks of one custom resource, in its order, in one function (issue 21).

``kube-apiserver`` handles a create or update of a custom resource as: strict decoding (an unknown field
refuses the request when ``fieldValidation=Strict``, kubectl's default, before anything else), pruning of
explicit nulls, the structural schema (``status`` dropped first when it is a subresource), the ObjectMeta
rules (skipped when ``metadata`` itself did not decode), then the CRD's CEL rules (skipped, with one
``cel.not-checked``, when the schema refused the object). :func:`api_server_checks` runs that sequence for every
caller: the Dynamo kinds (``_pipeline/_validate``: v1alpha1 as sent, v1beta1 on the object the mutating
webhook patched), the rest of the CRD bundle (``_extra_kinds``), Grove and LWS objects, kustomize patches and
earlier operator releases' schemas (``_pipeline/_releases``). The webhooks, which run after it, are the
callers' own.
"""

from __future__ import annotations

from collections.abc import Callable

from .._core._diagnostics import Diagnostic
from .._core._record import Record
from .._k8s._objectmeta import object_meta_errors
from . import _structural

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Checked", "api_server_checks", "meta_errors"]

_UNKNOWN = "schema.unknown-field"
_DECODING = frozenset({_UNKNOWN, "schema.did-you-mean"})


class Checked(Record):
    """What :func:`api_server_checks` found: ``diagnostics`` (in the server's order), the ``pruned`` object
    (explicit nulls removed: what the server goes on with), the ``structural`` findings, and ``decoded``
    (False: strict decoding refused an unknown field, nothing after it ran)."""

    __slots__ = _FIELDS = ("diagnostics", "pruned", "structural", "decoded")
    diagnostics: list[Diagnostic]
    pruned: Any
    structural: list[Diagnostic]
    decoded: bool

    def __init__(self, diagnostics: list[Diagnostic], pruned: Any, structural: list[Diagnostic],
                 decoded: bool = True) -> None:
        self.diagnostics, self.pruned, self.structural, self.decoded = diagnostics, pruned, structural, decoded

    @property
    def refused(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


def meta_errors(data: Any, structural: list[Diagnostic]) -> list[Diagnostic]:
    """The API server's ObjectMeta checks of the root ``metadata`` (name, namespace, labels…), unless the
    schema already refused ``metadata`` or an unknown field stopped decoding (strict)."""
    if any(d.severity == "error" and (d.rule == _UNKNOWN or d.path[:1] == ("metadata",)) for d in structural):
        return []
    return object_meta_errors(data)


def api_server_checks(data: Any, schema: dict[str, Any], *, strict: bool = True, old: Any = None,
                      status_subresource: bool = True, stop_at_unknown_field: bool = False,
                      ignore: frozenset[str] = frozenset(), prune_notes: bool = True, cel: bool = True,
                      guard_meta: bool = True, keep: Callable[[Diagnostic, Any], bool] | None = None,
                      defaulted: bool = False) -> Checked:
    """Prune, the structural schema, ObjectMeta, CEL (see the module docstring).

    * ``stop_at_unknown_field``: strict decoding refuses an unknown field first (only those findings and
      their suggestions are returned, ``decoded`` False);
    * ``ignore``: rules dropped from every step (kustomize patches: ``schema.required`` and the like, a patch
      being partial; the second pass on a webhook-patched object: the decoding findings already reported);
      ``prune_notes``: keep the ``schema.null-pruned`` notes of the pruning;
    * ``cel``: run the CRD's rules (False: an earlier release checked without them); ``guard_meta``: skip
      ObjectMeta when ``metadata`` did not decode (False: check it regardless);
    * ``keep(d, pruned)``: a last filter of the CEL findings (patches: only rules on fields the patch sets);
    * ``defaulted``: ``data`` carries the schema defaults already (the object the mutating webhook patched):
      CEL reads it as it is when the pruning changed nothing (``_cel.validate_cel``).
    """
    from . import _cel

    pruned, notes = _structural.prune_nulls(data, schema)
    diags: list[Diagnostic] = [d for d in notes if d.rule not in ignore] if prune_notes else []
    structural = [d for d in _structural.validate(pruned, schema, strict=strict, status_subresource=status_subresource)
                  if d.rule not in ignore]
    if stop_at_unknown_field and strict and any(d.rule == _UNKNOWN and d.severity == "error" for d in structural):
        return Checked(diags + [d for d in structural if d.rule in _DECODING], pruned, structural, decoded=False)
    diags += structural
    if guard_meta:
        diags += [d for d in meta_errors(pruned, structural) if d.rule not in ignore]
    else:
        diags += [d for d in object_meta_errors(pruned) if d.rule not in ignore]
    if cel:
        for d in _cel.validate_cel(pruned, schema, old=old, structural=structural,
                                   status_subresource=status_subresource, defaulted=defaulted and pruned is data):
            if d.rule not in ignore and (keep is None or keep(d, pruned)):
                diags.append(d)
    return Checked(diags, pruned, structural)
