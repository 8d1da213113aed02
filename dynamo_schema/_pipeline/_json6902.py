"""Kustomize JSON6902 patches: a list of ``{op, path, value}`` operations (RFC 6902), checked op by op.

Each operation's shape is checked as kustomize's JSON-patch decoder needs it (``op`` one of the six,
``path`` a JSON pointer, ``value`` for ``add``/``replace``/``test``, ``from`` for ``move``/``copy``). With
a known target (the ``target:`` of the kustomization entry that lists the file) every ``value`` is
checked against the schema of its ``path``: the generated schema of a modelled kind (Dynamo, Grove,
LWS), the bundled Kubernetes schema of a built-in kind. A value is a whole node (it replaces what is
there), so its required fields count. Every diagnostic has the path of the operation in the patch file
(``(i, "value", ...)`` or ``(i, "path")``), so it is located at the patch file's own line.

A target whose ``version`` the kustomization leaves out is read from a resource of that kind in the
kustomization's tree; failing that, a Dynamo kind is checked against each served version and the one
the patch fits best (fewest paths that version lacks, then fewest errors, v1beta1 on a tie) is used.
"""

from __future__ import annotations

from typing import Any

from .._core._diagnostics import Diagnostic

OPS = ("add", "remove", "replace", "move", "copy", "test")
TARGET_UNKNOWN = "patch.target-unknown"
_VALUE_DROPPED = frozenset({"cel.not-checked", "metadata.name-required"})


def is_json6902(data: Any) -> bool:
    """A non-empty list whose every item is a mapping with an ``op``: a JSON6902 patch document."""
    return isinstance(data, list) and bool(data) and all(isinstance(x, dict) and "op" in x for x in data)


def pointer(path: str) -> tuple[Any, ...] | None:
    """A JSON pointer as a path (``~1`` -> ``/``, ``~0`` -> ``~``; digits -> list indexes)."""
    if not path.startswith("/"):
        return None
    out: list[Any] = []
    for raw in path[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        out.append(int(part) if part.isdigit() and (part == "0" or not part.startswith("0")) else part)
    return tuple(out)


def _subschema(schema: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any] | None:
    """The schema node at ``path`` (``None``: the schema has no such field); a free-form object
    (no properties) accepts any path below it (returned as ``{}``)."""
    from .._schema._schemas import resolve

    node: Any = schema
    for p in path:
        node = resolve(schema, node)
        if not isinstance(node, dict):
            return None
        if isinstance(p, int) or p == "-":
            node = node.get("items")
        else:
            props = node.get("properties")
            if isinstance(props, dict) and p in props:
                node = props[p]
            elif isinstance(node.get("additionalProperties"), dict):
                node = node["additionalProperties"]
            elif node.get("x-kubernetes-preserve-unknown-fields") or (
                    not isinstance(props, dict) and node.get("additionalProperties") is not False
                    and node.get("type") in ("object", None) and "items" not in node):
                return {}
            else:
                return None
        if node is None:
            return None
    node = resolve(schema, node)
    if not isinstance(node, dict):
        return None
    return {"$defs": schema.get("$defs", {}), **node}


def _shape(i: int, op: Any) -> tuple[list[Diagnostic], tuple[Any, ...] | None]:
    """Shape problems of operation ``i`` and its pointer (``None``: nothing more to check)."""
    if not isinstance(op, dict):
        return [Diagnostic("patch.json6902", (i,), "a JSON6902 operation must be a mapping")], None
    kind = op.get("op")
    if kind not in OPS:
        return [Diagnostic("patch.json6902", (i, "op"), f"Unsupported value: {kind!r}: supported values: "
                           + ", ".join(f'"{o}"' for o in OPS))], None
    path = op.get("path")
    ptr = pointer(path) if isinstance(path, str) else None
    if ptr is None:
        return [Diagnostic("patch.json6902", (i, "path"), 'Required value: a JSON pointer ("/spec/…")')], None
    out = []
    if kind in ("add", "replace", "test") and "value" not in op:
        out.append(Diagnostic("patch.json6902", (i,), f'Required value: a "{kind}" operation needs a value'))
    if kind in ("move", "copy"):
        src = op.get("from")
        if not (isinstance(src, str) and pointer(src) is not None):
            out.append(Diagnostic("patch.json6902", (i, "from") if "from" in op else (i,),
                                  f'Required value: a "{kind}" operation needs "from", a JSON pointer'))
    return out, ptr


def _check_crd_value(schema: dict[str, Any], i: int, ptr: tuple[Any, ...], op: dict[str, Any], kind: str,
                     strict: bool) -> list[Diagnostic]:
    from .._schema import _structural

    sub = _subschema(schema, ptr)
    if sub is None:
        return [Diagnostic("patch.unknown-path", (i, "path"), f'unknown field "{op["path"]}" in {kind}')]
    if not sub or op.get("op") == "remove" or "value" not in op:
        return []
    value, _notes = _structural.prune_nulls(op["value"], sub)
    out = []
    for d in _structural.validate(value, sub, strict=strict, root_path=ptr):  # worded with the target's field
        if d.rule in _VALUE_DROPPED:
            continue
        out.append(Diagnostic(d.rule, (i, "value", *tuple(d.path)[len(ptr):]), d.message, d.severity))
    return out


def _synthetic(api: str, kind: str, ptr: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A skeleton object holding ``value`` at ``ptr`` (mappings and lists made along the way)."""
    root: dict[str, Any] = {"apiVersion": api, "kind": kind}
    node: Any = root
    for n, p in enumerate(ptr):
        last = n == len(ptr) - 1
        nxt: Any = value if last else ([] if isinstance(ptr[n + 1], int) or ptr[n + 1] == "-" else {})
        if isinstance(node, list):
            idx = p if isinstance(p, int) else len(node)
            while len(node) < idx:
                node.append({})
            node.append(nxt)
        else:
            if not last and isinstance(node.get(p), (dict, list)):
                node = node[p]
                continue
            node[p] = nxt
        node = nxt
    return root


def _check_builtin_value(api: str, kind: str, version: str, i: int, ptr: tuple[Any, ...], op: dict[str, Any],
                         strict: bool) -> list[Diagnostic]:
    """A built-in kind: the value placed in a skeleton object, checked with the bundled schema; what is
    reported at or below the pointer belongs to the operation (an unknown field along the way: its path)."""
    from .._k8s import _builtin_kinds

    if op.get("op") == "remove" or "value" not in op:
        return []
    real = tuple(0 if p == "-" else p for p in ptr)  # an append lands at index 0 of the skeleton
    diags = _builtin_kinds.validate(_synthetic(api, kind, ptr, op["value"]), version=version, strict=strict) or []
    out = []
    for d in diags:
        dp = tuple(d.path)
        if dp[:len(real)] == real:
            out.append(Diagnostic(d.rule, (i, "value", *dp[len(real):]), d.message, d.severity))
        elif d.rule == "schema.unknown-field" and real[:len(dp)] == dp:
            out.append(Diagnostic("patch.unknown-path", (i, "path"),
                                  f'unknown field "{op["path"]}" in {kind}: {d.message}'))
    return out


def target_path(ops: list[Any], path: tuple[Any, ...]) -> tuple[Any, ...]:
    """A diagnostic's path in the patch document (``(i, "value", ...)``, ``(i, "path")``) as the target
    object's field it is about (the operation's pointer, then the path inside the value)."""
    if len(path) < 2 or not isinstance(path[0], int) or not 0 <= path[0] < len(ops):
        return path
    op = ops[path[0]]
    ptr = pointer(op["path"]) if isinstance(op, dict) and isinstance(op.get("path"), str) else None
    if ptr is None or path[1] not in ("value", "path"):
        return path
    return (*ptr, *path[2:]) if path[1] == "value" else ptr


def _versions(kind: str) -> list[str]:
    from .._schema._schemas import KNOWN

    apis = [api for (api, k) in KNOWN if k == kind]
    return sorted(apis, key=lambda a: (not a.endswith("v1beta1"), a))


def check(ops: list[Any], target: Any, *, strict: bool = True,
          kubernetes_version: str = "1.32.0") -> list[Diagnostic]:
    """Diagnostics of one JSON6902 patch document; a ``patch.target-unknown`` note when the values could
    not be checked (no target, or no schema for it). ``target``: a ``_kustomize.PatchTarget`` or None (no
    kustomization lists the patch)."""
    shapes: list[tuple[int, dict[str, Any], tuple[Any, ...]]] = []
    out: list[Diagnostic] = []
    for i, op in enumerate(ops):
        diags, ptr = _shape(i, op)
        out += diags
        if ptr is not None and isinstance(op, dict):
            shapes.append((i, op, ptr))
    api, kind = (target.api_version, target.kind) if target is not None else ("", "")
    if target is None:
        return out + [Diagnostic(TARGET_UNKNOWN, (), "a kustomize JSON6902 patch that no kustomization.yaml in "
                                 "its folder or its parents lists: its target is unknown, so its values are not "
                                 "checked (validate the build with --kustomize DIR)", "note")]
    if not kind:
        return out + [Diagnostic(TARGET_UNKNOWN, (), "a kustomize JSON6902 patch whose kustomization gives no "
                                 "target kind: its values are not checked", "note")]
    from .._k8s import _builtin_kinds
    from .._schema import _schemas

    candidates = [api] if api else _versions(kind)
    best: list[Diagnostic] | None = None
    for cand in candidates:
        schema = _schemas.for_object(cand, kind)
        if schema is None:
            continue
        found = [d for i, op, ptr in shapes for d in _check_crd_value(schema, i, ptr, op, kind, strict)]
        if best is None or _fit(found) < _fit(best):
            best = found
    if best is not None:
        return out + best
    if api and _builtin_kinds.has_schema(api, kind, kubernetes_version):
        return out + [d for i, op, ptr in shapes
                      for d in _check_builtin_value(api, kind, kubernetes_version, i, ptr, op, strict)]
    what = f"{api}/{kind}" if api else f"{kind} (the kustomization's target gives no version)"
    return out + [Diagnostic(TARGET_UNKNOWN, (), f"a kustomize JSON6902 patch of {what}: no schema for its target, "
                             "so its values are not checked", "note")]


def _fit(diags: list[Diagnostic]) -> tuple[int, int]:
    """How badly a patch fits a version: paths that version does not have, then errors."""
    return sum(d.rule == "patch.unknown-path" for d in diags), sum(d.severity == "error" for d in diags)
