"""``validate --patch FILE`` and ``validate --kustomize DIR``.

``--kustomize DIR`` builds DIR with ``kubectl kustomize`` when ``kubectl`` is on PATH, else with a standalone
``kustomize build`` (no network: a remote base fails the build and is reported; which tool ran is said on
standard error) and validates every object of the build. A problem is reported where it was written when it
can be traced (DIR's kustomization, its resources, components, patches, recursively, 16 levels below DIR):

1. a JSON6902 operation (``add``/``replace``) whose target matches the built object (kind, group, version,
   name as the kustomization's ``target:`` gives them) and whose ``value`` is what the build has at the
   operation's path, the problem's field at or below it: the line in the patch file's ``value``;
2. else the patch or base file whose document of the same kind has the deepest part of the field, the one
   whose value at the field is the built value first, then a patch first (its value wins in the build);
3. else its line in the built stream (``kustomize:DIR``).

A patch written inline in the kustomization (``patch: |-`` of a ``patches``/``patchesJson6902`` entry, a
multi-line string of ``patchesStrategicMerge``) counts as a patch file whose lines are the kustomization's:
a literal block scalar maps line for line; any other style (folded, quoted, an explicit indentation
indicator) is not traced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import TYPE_CHECKING, Any, Callable

from .._core._diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from .._core._document import Document
    from .._report import ResourceResult
    from ._validate import ValidateOptions

BUILD_TIMEOUT_S = 120


def patch_file_results(path: str, options: ValidateOptions) -> list[ResourceResult]:
    from .._io._load import load_path_result
    from ._kustomize import io_error_result, patch_results, patch_target

    try:
        loaded = load_path_result(path, strict=options.strict, sequences=True)
    except OSError as exc:
        return [io_error_result(path, exc)]
    return patch_results(loaded, path, patch_target(path), strict=options.strict,
                         kubernetes_version=options.kubernetes_version)


def builder() -> tuple[list[str], str] | None:
    """The build command (``kubectl kustomize``, else ``kustomize build``) and how to name it, or None."""
    kubectl = shutil.which("kubectl")
    if kubectl is not None:
        return [kubectl, "kustomize"], f"`kubectl kustomize` ({kubectl})"
    kustomize = shutil.which("kustomize")
    if kustomize is not None:
        return [kustomize, "build"], f"`kustomize build` ({kustomize}; kubectl is not on PATH)"
    return None


def _error(name: str, rule: str, message: str) -> ResourceResult:
    from ._kustomize import error_result

    return error_result(name, [Diagnostic(rule, (), message).located(name, None, None)])


def kustomize_results(folder: str, options: ValidateOptions, log: Callable[[str], Any] | None = None
                      ) -> list[ResourceResult]:
    from .._io._load import load
    from ._kustomize import error_result
    from ._result import document_result

    name = f"kustomize:{folder}"
    if not os.path.isdir(folder):
        return [_error(folder, "io.not-found", "no such file or directory")]
    tool = builder()
    if tool is None:
        return [_error(name, "io.kustomize-unavailable", "cannot build: neither kubectl nor kustomize is on PATH")]
    if log is not None:
        log(f"validate: --kustomize {folder}: built with {tool[1]}\n")
    try:
        proc = subprocess.run([*tool[0], folder], capture_output=True, timeout=BUILD_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [_error(name, "io.kustomize-unavailable", f"cannot build: {exc}")]
    if proc.returncode != 0:
        text = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        return [_error(name, "kustomize.build-failed", text)]
    loaded = load(proc.stdout, name, strict=options.strict)
    sources, ops = _sources(folder)
    renames = _renames(folder)
    out = []
    for doc, load_diags in loaded.entries():
        if doc is None:
            out.append(error_result(name, list(load_diags)))
            continue
        r = document_result(doc, options, load_diags)
        r.diagnostics = [_trace(d, doc.data, sources, ops, renames) for d in r.diagnostics] \
            + _replaced_lists(doc.data, sources)
        r.filename = name
        out.append(r)
    return out


def _names(items: Any) -> list[str] | None:
    """The ``name`` of every item of a list of named mappings (components, containers, env…), else None."""
    if not isinstance(items, list) or not items:
        return None
    names = [x.get("name") for x in items if isinstance(x, dict)]
    return names if len(names) == len(items) and all(isinstance(n, str) for n in names) else None  # type: ignore[return-value]


def _replaced_lists(built: Any, sources: list[tuple[bool, Document]]) -> list[Diagnostic]:
    """``kustomize.list-replaced`` warnings: a strategic-merge patch of a custom resource whose list of named
    items replaced the base's list, dropping items. Kustomize merges a list by key only where it knows the
    kind's schema (built-in kinds, or the kustomization's ``openapi:``); a CRD's lists are replaced whole,
    which the build shows as the patch's items alone where the base had more."""
    if not isinstance(built, dict) or not isinstance(built.get("kind"), str):
        return []
    kind = built["kind"]
    group = str(built.get("apiVersion", "")).rpartition("/")[0]
    if "." not in group or group.endswith(".k8s.io"):
        return []  # a built-in kind (core, apps, networking.k8s.io…): kustomize knows its merge keys

    def name_of(data: Any) -> Any:
        meta = data.get("metadata") if isinstance(data, dict) else None
        return meta.get("name") if isinstance(meta, dict) else None

    out: list[Diagnostic] = []
    bases = [doc for is_patch, doc in sources if not is_patch and isinstance(doc.data, dict)
             and doc.data.get("kind") == kind]
    for is_patch, doc in sources:
        if not is_patch or not isinstance(doc.data, dict) or doc.data.get("kind") != kind:
            continue
        base = next((b for b in bases if name_of(b.data) == name_of(doc.data)), None)
        if base is None:
            continue

        def walk(node: Any, path: tuple[Any, ...], base_doc: Document = base, patch: Document = doc) -> None:
            if not isinstance(node, dict):
                return
            for k, v in node.items():
                here = (*path, k)
                mine = _names(v)
                if mine is None:
                    walk(v, here)
                    continue
                _, had = _at(base_doc.data, here)
                _, now = _at(built, here)
                before = _names(had)
                if before is None or _names(now) != mine:
                    continue
                dropped = [n for n in before if n not in mine]
                if dropped:
                    line, col = patch.locate(here)
                    field = ".".join(str(p) for p in here)
                    out.append(Diagnostic(
                        "kustomize.list-replaced", here,
                        f"this strategic-merge patch replaced the whole list {field} (kustomize merges a custom "
                        f"resource's lists by key only with the kustomization's openapi schema): "
                        f"{', '.join(dropped)} of the base dropped; patch items with a JSON6902 patch, or list "
                        "every item", "warning").located(patch.file, line, col))

        walk(doc.data, ())
    return out


# ------------------------------------------------------------------------------------------------
def _kustomization(folder: str) -> str | None:
    from ._kustomize import KUSTOMIZATION_NAMES

    for n in KUSTOMIZATION_NAMES:
        if os.path.isfile(os.path.join(folder, n)):
            return os.path.join(folder, n)
    return None


class _Op:
    """One JSON6902 ``add``/``replace`` operation of a patch file the build applied."""

    __slots__ = ("target", "doc", "index", "pointer", "value")

    def __init__(self, target: dict[str, Any], doc: Document, index: int, pointer: tuple[Any, ...],
                 value: Any) -> None:
        self.target, self.doc, self.index, self.pointer, self.value = target, doc, index, pointer, value


def _resources(folder: str, data: dict[str, Any]) -> list[str]:
    """The local paths a kustomization in ``folder`` builds from (``resources``, ``bases``, ``components``), in order."""
    return [os.path.normpath(os.path.join(folder, entry)) for key in ("resources", "bases", "components")
            for entry in data.get(key) or [] if isinstance(entry, str) and "://" not in entry]


def _walk(folder: str, *, pre: Callable[[str, dict[str, Any]], Any] | None = None,
          on_file: Callable[[str], Any] | None = None,
          post: Callable[[str, str, dict[str, Any]], Any] | None = None) -> None:
    """Visit the kustomization in ``folder`` and every one it builds from, each once (16 levels at most):
    ``pre(kustomization, data)``, then its resources in the order listed (a folder visited, a file given to
    ``on_file``), then ``post(folder, kustomization, data)``."""
    from ._kustomize import _read_yaml

    seen: set[str] = set()

    def visit(d: str, depth: int) -> None:
        k = _kustomization(d)
        if k is None or k in seen or depth > 16:
            return
        seen.add(k)
        data = _read_yaml(k)
        if not isinstance(data, dict):
            return
        if pre is not None:
            pre(k, data)
        for p in _resources(d, data):
            if os.path.isdir(p):
                visit(p, depth + 1)
            elif os.path.isfile(p) and on_file is not None:
                on_file(p)
        if post is not None:
            post(d, k, data)

    visit(folder, 0)


def _renames(folder: str) -> list[tuple[str, str]]:
    """(kustomization file, ``namePrefix`` or ``nameSuffix``) of each kustomization of the build in ``folder`` that
    renames its resources, outermost first."""
    out: list[tuple[str, str]] = []
    _walk(folder, pre=lambda k, data: out.extend(
        (k, key) for key in ("namePrefix", "nameSuffix") if isinstance(data.get(key), str) and data[key]))
    return out


def _sources(folder: str) -> tuple[list[tuple[bool, Document]], list[_Op]]:
    """(is a patch, Document) of every file the kustomization in ``folder`` builds from, recursively, and
    the JSON6902 operations of its patches."""
    from .._io._load import load_path_result
    from ._json6902 import is_json6902, pointer
    from ._kustomize import inline_documents

    files: list[tuple[bool, str, dict[str, Any]]] = []
    inline: list[tuple[Document, dict[str, Any]]] = []  # documents of inline patches, with their target

    def patches(d: str, k: str, data: dict[str, Any]) -> None:
        for key in ("patches", "patchesStrategicMerge", "patchesJson6902"):
            for i, entry in enumerate(data.get(key) or []):
                rel = entry if isinstance(entry, str) else entry.get("path") if isinstance(entry, dict) else None
                target = entry.get("target") if isinstance(entry, dict) else None
                target = target if isinstance(target, dict) else {}
                if isinstance(rel, str) and "\n" not in rel:
                    full = os.path.normpath(os.path.join(d, rel))
                    if os.path.isfile(full):
                        files.append((True, full, target))
                    continue
                text, where = (rel, (key, i)) if isinstance(rel, str) else (
                    entry.get("patch"), (key, i, "patch")) if isinstance(entry, dict) else (None, ())
                if isinstance(text, str):
                    inline.extend((doc, target) for doc in inline_documents(k, where, text))

    _walk(folder, on_file=lambda p: files.append((False, p, {})), post=patches)
    out: list[tuple[bool, Document]] = []
    ops: list[_Op] = []
    loaded: list[tuple[bool, Document, dict[str, Any]]] = []
    for is_patch, f, target in files:
        try:
            r = load_path_result(f, sequences=is_patch)
        except OSError:
            continue
        loaded.extend((is_patch, doc, target) for doc in r.documents)
    loaded.extend((True, doc, target) for doc, target in inline)
    for is_patch, doc, target in loaded:
        if not isinstance(doc.data, list):
            out.append((is_patch, doc))
        elif is_json6902(doc.data):
            for i, op in enumerate(doc.data):
                ptr = pointer(op["path"]) if isinstance(op.get("path"), str) else None
                if op.get("op") in ("add", "replace") and "value" in op and ptr is not None:
                    ops.append(_Op(target, doc, i, ptr, op["value"]))
    out.sort(key=lambda x: not x[0])  # patches first: their values win in the build
    return out, ops


def _at(node: Any, path: tuple[Any, ...]) -> tuple[bool, Any]:
    for p in path:
        if isinstance(node, dict) and isinstance(p, str) and p in node:
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        else:
            return False, None
    return True, node


def _targets(target: dict[str, Any], built: dict[str, Any]) -> bool:
    """Whether a kustomization ``target:`` selects the built object (kind, group, version, name)."""
    api = built.get("apiVersion") if isinstance(built.get("apiVersion"), str) else ""
    group, _, version = str(api).rpartition("/")
    raw = built.get("metadata")
    meta: dict[str, Any] = raw if isinstance(raw, dict) else {}
    for key, have in (("kind", built.get("kind")), ("group", group), ("version", version)):
        want = target.get(key)
        if isinstance(want, str) and want and want != have:
            return False
    name = target.get("name")
    if isinstance(name, str) and name:
        import re

        try:
            return re.fullmatch(name, str(meta.get("name", ""))) is not None
        except re.error:
            return name == meta.get("name")
    return True


def _trace_op(d: Diagnostic, built: dict[str, Any], ops: list[_Op]) -> Diagnostic | None:
    """The located diagnostic when a JSON6902 operation set the value the problem is in (the last one wins)."""
    path = tuple(d.path)
    for op in reversed(ops):
        if not _targets(op.target, built):
            continue
        ptr = op.pointer
        if ptr[-1] == "-":  # an append: the last item of the list that equals the value
            ok, items = _at(built, ptr[:-1])
            if not ok or not isinstance(items, list):
                continue
            idx = next((j for j in range(len(items) - 1, -1, -1) if items[j] == op.value), None)
            if idx is None:
                continue
            ptr = (*ptr[:-1], idx)
        if path[:len(ptr)] != ptr:
            continue
        ok, value = _at(built, ptr)
        if not ok or value != op.value:
            continue
        line, col = op.doc.locate((op.index, "value", *path[len(ptr):]))
        return d.located(op.doc.file, line, col)
    return None


def _source_path(src: Any, built: Any, path: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """``path`` of the built object translated into ``src`` (list items matched by ``name``)."""
    out: list[Any] = []
    s, b = src, built
    for p in path:
        if isinstance(p, int):
            if not (isinstance(b, list) and isinstance(s, list) and 0 <= p < len(b)):
                return None
            item = b[p]
            j = p
            if isinstance(item, dict) and "name" in item:
                j = next((k for k, x in enumerate(s) if isinstance(x, dict) and x.get("name") == item["name"]), -1)
            if not 0 <= j < len(s):
                return None
            out.append(j)
            s, b = s[j], item
        else:
            if not (isinstance(s, dict) and p in s):
                return None
            out.append(p)
            s, b = s[p], b.get(p) if isinstance(b, dict) else None
    return tuple(out)


def _trace(d: Diagnostic, built: Any, sources: list[tuple[bool, Document]], ops: list[_Op] | None = None,
           renames: list[tuple[str, str]] | None = None) -> Diagnostic:
    if not d.path or not isinstance(built, dict):
        return d
    if ops:
        hit = _trace_op(d, built, ops)
        if hit is not None:
            return hit
    kind = built.get("kind")
    path = tuple(d.path)
    ok, built_value = _at(built, path)
    best: tuple[tuple[int, bool], Document, tuple[Any, ...]] | None = None
    for _is_patch, doc in sources:
        if not isinstance(doc.data, dict) or doc.data.get("kind") not in (kind, None):
            continue
        for n in range(len(path), 0, -1):  # the deepest part of the field the source has
            sp = _source_path(doc.data, built, path[:n])
            if sp is not None and sp in doc.positions:
                same = n == len(path) and ok and _at(doc.data, sp) == (True, built_value)
                if best is None or (n, same) > best[0]:  # ties: the earlier source (patches come first)
                    best = ((n, same), doc, sp)
                break
    if best is None:
        return d
    _, doc, sp = best
    if renames and path == ("metadata", "name") and _at(doc.data, sp) != (True, built_value):
        # the name as built is not the source's: a namePrefix / nameSuffix made it (the outermost one shown)
        renamed = _rename_place(*renames[0])
        if renamed is not None:
            return d.located(*renamed)
    line, col = doc.positions[sp]
    return d.located(doc.file, line, col)


def _rename_place(kustomization: str, key: str) -> tuple[str, int, int] | None:
    """Where ``key`` (``namePrefix``/``nameSuffix``) is written in ``kustomization``: file, line, column."""
    from .._io._load import load_path_result

    try:
        docs = load_path_result(kustomization, strict=False).documents
    except OSError:
        return None
    pos = docs[0].positions.get((key,)) if docs else None
    return None if pos is None else (kustomization, pos[0], pos[1])
