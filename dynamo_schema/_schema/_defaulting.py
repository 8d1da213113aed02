"""What the API server does to a custom resource before it validates it: explicit nulls pruned
(``PruneNonNullableNullsWithoutDefaults``) and the schema ``default`` values applied
(``structuraldefaulting.Default``)."""

from __future__ import annotations

from .._core._datacopy import deepcopy
from .._core._diagnostics import Diagnostic, Path
from ._fielderrors import Run, null_note
from ._nodes import Node, compile_schema, has_below

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["apply_defaults", "apply_schema_defaults", "defaulted_view", "prune_nulls"]


# ------------------------------------------------------------------------------------ null pruning
def prune_nulls(data: Any, schema: dict[str, Any], *, root_path: Path = ()) -> tuple[Any, list[Diagnostic]]:
    """Drop explicit nulls the API server prunes (``PruneNonNullableNullsWithoutDefaults``).

    A null on a non-nullable property (or additional property) without a default is removed; a null
    on one *with* a default is replaced by a copy of the default (the API server defaults it). A null
    array item whose (non-nullable) item schema has a default takes that default too; any other null item
    is kept (a type error). Returns ``(new_data, notes)``; ``data`` is not modified.
    """
    node = compile_schema(schema)
    notes: list[Diagnostic] = []
    run = Run(True)
    new = _prune(data, node, tuple(root_path), run)
    notes = run.diags
    return new, notes


def _prune(data: Any, node: Node | None, path: Path, run: Run) -> Any:
    """``data`` itself when nothing below it is pruned (the copy is made at the first change only)."""
    if node is None:
        return data
    if isinstance(data, dict):
        out: dict[str, Any] | None = None
        for k, v in data.items():
            if v is not None and not isinstance(v, (dict, list)):  # a scalar: nothing to prune below
                if out is not None:
                    out[k] = v
                continue
            sub = node.prop(k) if node.props_raw is not None else None
            if sub is None:
                sub = node.additional()
            if v is None and sub is not None and not sub.nullable:
                null_note(run, path + (k,), sub)
                if out is None:
                    out = _before(data, k)
                if sub.has_default:
                    out[k] = deepcopy(sub.default)
                continue
            nk: Any = _prune(v, sub, path + (k,), run) if sub is not None else v
            if nk is not v and out is None:
                out = _before(data, k)
            if out is not None:
                out[k] = nk
        return data if out is None else out
    if isinstance(data, list):
        item = node.items()
        if item is None:
            return data
        new_items: list[Any] | None = None
        for i, v in enumerate(data):
            if v is None and item.has_default and not item.nullable:
                null_note(run, path + (i,), item)
                nv: Any = deepcopy(item.default)
            elif not isinstance(v, (dict, list)):  # a scalar (or a null left for the type check)
                nv = v
            else:
                nv = _prune(v, item, path + (i,), run)
            if nv is not v and new_items is None:
                new_items = data[:i]
            if new_items is not None:
                new_items.append(nv)
        return data if new_items is None else new_items
    return data


def _before(data: dict[str, Any], key: str) -> dict[str, Any]:
    """The entries of ``data`` before ``key`` (in order): the start of a changed copy."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        if k is key:  # the very key object of ``data`` (equal keys aside)
            break
        out[k] = v
    return out


# ------------------------------------------------------------------ defaulting (structuraldefaulting.Default)


def apply_schema_defaults(data: Any, schema: dict[str, Any]) -> Any:
    """A copy of ``data`` with the schema ``default`` values applied, as the API server does before
    validation (missing properties, and nulls on non-nullable properties / items). Input untouched."""
    return apply_defaults(data, compile_schema(schema))


def apply_defaults(x: Any, node: Node | None) -> Any:
    if node is None:
        return x
    if not has_below(node, "default"):  # nothing to default here or below: the data as it is
        return x
    if isinstance(x, dict):
        out = dict(x)
        for k, sub in _defaulted_props(node):
            if k not in out or (out[k] is None and not sub.nullable):
                out[k] = deepcopy(sub.default)
        for k, v in out.items():
            child = node.prop(k) if node.props_raw is not None else None
            if child is None:
                child = node.additional()
                if child is not None and v is None and child.has_default and not child.nullable:
                    out[k] = v = deepcopy(child.default)
            if child is not None and isinstance(v, (dict, list)):
                out[k] = apply_defaults(v, child)
        return out
    if isinstance(x, list):
        item = node.items()
        if item is None:
            return x
        res = []
        for v in x:
            if v is None and item.has_default and not item.nullable:
                v = deepcopy(item.default)
            res.append(apply_defaults(v, item) if isinstance(v, (dict, list)) else v)
        return res
    return x


def defaulted_view(x: Any, node: Node | None) -> Any:
    """:func:`apply_defaults` for a reader: equal to it, but ``x`` itself (and its own subtrees) where
    nothing is defaulted; a mapping or list is copied only when a default lands in it or below it.
    Never modifies ``x``; the result may share any part of it (do not modify the result)."""
    if node is None or not has_below(node, "default"):
        return x
    if isinstance(x, dict):
        out: dict[str, Any] | None = None
        for k, sub in _defaulted_props(node):
            if k not in x or (x[k] is None and not sub.nullable):
                if out is None:
                    out = dict(x)
                out[k] = deepcopy(sub.default)
        src = x if out is None else out
        for k, v in src.items():  # values replaced in place: no key is added while iterating
            child = node.prop(k) if node.props_raw is not None else None
            nv = v
            if child is None:
                child = node.additional()
                if child is not None and v is None and child.has_default and not child.nullable:
                    nv = deepcopy(child.default)
            if child is not None and isinstance(nv, (dict, list)):
                nv = defaulted_view(nv, child)
            if nv is not v:
                if out is None:
                    out = dict(x)
                out[k] = nv
        return x if out is None else out
    if isinstance(x, list):
        item = node.items()
        if item is None:
            return x
        res: list[Any] | None = None
        for i, v in enumerate(x):
            nv = v
            if v is None and item.has_default and not item.nullable:
                nv = deepcopy(item.default)
            if isinstance(nv, (dict, list)):
                nv = defaulted_view(nv, item)
            if nv is not v and res is None:
                res = x[:i]
            if res is not None:
                res.append(nv)
        return x if res is None else res
    return x


_DEFAULTED: dict[int, tuple[Node, tuple[tuple[str, Node], ...]]] = {}


def _defaulted_props(node: Node) -> tuple[tuple[str, Node], ...]:
    """The properties of ``node`` that have a ``default``, in schema order (computed once per node:
    most object nodes have none, and walking every property of every object was a hot spot)."""
    hit = _DEFAULTED.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    found = tuple((k, sub) for k, sub in _iter_props(node) if sub.has_default)
    _DEFAULTED[id(node)] = (node, found)
    return found


def _iter_props(node: Node) -> list[tuple[str, Node]]:
    out = []
    for k in node.properties:
        sub = node.prop(k)
        if sub is not None:
            out.append((k, sub))
    return out
