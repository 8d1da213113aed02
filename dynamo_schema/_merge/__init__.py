"""Override merge: a DGDR's ``spec.overrides.dgd`` onto a generated DGD, as upstream merges it.

Public entry points (imported lazily so ``import dynamo_schema._merge`` stays cheap):

* :func:`apply_overrides` ``(blueprint, override, schema_for=None) -> MergeResult``
* :class:`MergeResult` (``.dgd``, ``.warnings``), :class:`MergeError`
* :class:`StructuralMerger` - the schema-driven structured merge used underneath.

The ``merge`` command body is ``dynamo_schema._cli.commands.merge``.
DGDR materialization lives in :mod:`dynamo_schema._dgdr`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real types for checkers; at run time they are imported on first use
    from dynamo_schema._merge._engine import StructuralMerger
    from dynamo_schema._merge._override import MergeError, MergeResult, apply_overrides

__all__ = ["MergeError", "MergeResult", "StructuralMerger", "apply_overrides"]


def __getattr__(name: str) -> Any:
    if name in ("apply_overrides", "MergeResult", "MergeError"):
        from dynamo_schema._merge import _override

        return getattr(_override, name)
    if name == "StructuralMerger":
        from dynamo_schema._merge._engine import StructuralMerger

        return StructuralMerger
    raise AttributeError(name)
