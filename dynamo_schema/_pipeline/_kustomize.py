"""Kustomize repositories: patch files checked as patches, and ``kubectl kustomize`` builds validated.

A strategic-merge patch (a partial DGD/DCD: ``recipes/kustomize/components/*/patch-dgd.yaml``) is merged
into a base, so it need not carry what the base has. As a patch it is checked for what it does carry:
types, enums, patterns, bounds, unknown fields, list-map keys, label/annotation keys, and the CEL rules
whose fields are all present in the patch; never required fields, minimum sizes or whole-object rules
(admission webhooks). A JSON6902 patch (a list of ``{op, path, value}``) is checked op by op in
``_json6902`` (each ``value`` against the schema of its ``path`` in the target's kind).

Which files are patches: those given with ``validate --patch``, those a ``kustomization.yaml``
(``Kustomization`` or ``Component``) in the same tree lists under ``patches`` / ``patchesStrategicMerge``
/ ``patchesJson6902`` (the file's folder and its parents are searched; the entry's ``target:`` is the
patch's target, a missing ``version`` read from the kustomization's resources), and a file that is one
JSON6902 patch document (no kustomization lists it: its target is unknown, a ``patch.target-unknown`` note).
"""

from __future__ import annotations

import os
import re
import time
from functools import cache

from .._core._diagnostics import Diagnostic
from .._core._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from .._core._document import Document
    from .._report import ResourceResult

KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_DROPPED = frozenset({"schema.required", "schema.min-items", "schema.min-properties", "cel.not-checked",
                      "metadata.name-required"})
_SEARCH_UP = 8


class PatchTarget(FrozenRecord):
    """What a kustomization says a patch applies to (empty: not said). A frozen value with a
    dataclass's constructor, equality, hash and repr (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("api_version", "kind", "name")
    api_version: str
    kind: str
    name: str

    def __init__(self, api_version: str = "", kind: str = "", name: str = "") -> None:
        object.__setattr__(self, "api_version", api_version)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "name", name)


def _read_yaml(path: str) -> Any:
    import yaml

    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None


def _target_of(entry: Any, folder: str = "") -> PatchTarget:
    target = entry.get("target") if isinstance(entry, dict) else None
    if not isinstance(target, dict):
        return PatchTarget()
    group, version, kind = target.get("group"), target.get("version"), target.get("kind")
    kind = kind if isinstance(kind, str) else ""
    group = group if isinstance(group, str) else ""
    api = ""
    if isinstance(version, str) and version:
        api = f"{group}/{version}" if group else version
    name = target.get("name")
    name = name if isinstance(name, str) else ""
    if not api and kind and folder:  # no version: the apiVersion of a resource of that kind in the tree
        api = resource_api(folder, kind, group, name)
    return PatchTarget(api, kind, name)


def _docs_of(path: str) -> list[Any]:
    import yaml

    try:
        with open(path, encoding="utf-8") as fh:
            return list(yaml.load_all(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []


def resource_api(folder: str, kind: str, group: str = "", name: str = "", depth: int = 0) -> str:
    """The ``apiVersion`` of the first resource of ``kind`` (in ``group``, named ``name`` when given) that
    the kustomization in ``folder`` builds from (its ``resources``/``bases``, recursively), else ``""``."""
    k = next((os.path.join(folder, n) for n in KUSTOMIZATION_NAMES if os.path.isfile(os.path.join(folder, n))), None)
    data = _read_yaml(k) if k is not None and depth <= 8 else None
    if not isinstance(data, dict):
        return ""
    for key in ("resources", "bases"):
        for entry in data.get(key) or []:
            if not isinstance(entry, str) or "://" in entry:
                continue
            p = os.path.normpath(os.path.join(folder, entry))
            if os.path.isdir(p):
                found = resource_api(p, kind, group, name, depth + 1)
                if found:
                    return found
                continue
            for doc in _docs_of(p) if os.path.isfile(p) else []:
                if not isinstance(doc, dict) or doc.get("kind") != kind or not isinstance(doc.get("apiVersion"), str):
                    continue
                api = doc["apiVersion"]
                raw = doc.get("metadata")
                meta: dict[str, Any] = raw if isinstance(raw, dict) else {}
                if (not group or api.rpartition("/")[0] == group) and (not name or meta.get("name") == name):
                    return str(api)
    return ""


@cache
def _patches_of(kustomization: str) -> dict[str, PatchTarget]:
    """Patch files (absolute, normalised) a kustomization file lists, with their targets."""
    data = _read_yaml(kustomization)
    if not isinstance(data, dict):
        return {}
    base = os.path.dirname(kustomization)
    out: dict[str, PatchTarget] = {}
    for key in ("patches", "patchesStrategicMerge", "patchesJson6902"):
        entries = data.get(key)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            path = entry if isinstance(entry, str) else entry.get("path") if isinstance(entry, dict) else None
            if isinstance(path, str) and path and "\n" not in path:
                out[os.path.normpath(os.path.join(base, path))] = _target_of(entry, base)
    return out


def inline_documents(kfile: str, where: tuple[Any, ...], text: str) -> list[Document]:
    """The documents of the inline patch at ``where`` in the kustomization ``kfile`` (its value ``text``),
    located at their lines in ``kfile``; [] unless the value is a literal block scalar whose lines give
    ``text`` back (a folded or quoted string, or one with an indentation indicator, is not traced)."""
    return inline_load(kfile, where, text, strict=False)[0]


def inline_load(kfile: str, where: tuple[Any, ...], text: str, *, strict: bool = True
                ) -> tuple[list[Document], list[list[Diagnostic]], list[Diagnostic]]:
    """:func:`inline_documents` with the load's diagnostics (per document, and those tied to no document: a
    YAML syntax error of the inline text), located in ``kfile`` too."""
    from .._io._load import load, load_path_result

    nothing: tuple[list[Document], list[list[Diagnostic]], list[Diagnostic]] = ([], [], [])

    try:
        kdocs = load_path_result(kfile, strict=False).documents
        with open(kfile, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return nothing
    if not kdocs:
        return nothing
    pos = getattr(kdocs[0], "value_positions", {}).get(where) if isinstance(where[-1], str) \
        else kdocs[0].positions.get(where)  # a list item's position is where its value starts
    if pos is None or not 1 <= pos[0] <= len(lines):
        return nothing
    line, col = pos
    header = lines[line - 1][col - 1:].split("#", 1)[0].rstrip()
    if not header.startswith("|") or header[1:] not in ("", "-", "+"):
        return nothing
    body = lines[line:]
    first = next((t for t in body if t.strip()), None)
    if first is None:
        return nothing
    indent = len(first) - len(first.lstrip(" "))
    content: list[str] = []
    for t in body:
        if t.strip() and len(t) - len(t.lstrip(" ")) < indent:
            break
        content.append(t[indent:])

    def norm(v: str) -> str:
        return "\n".join(x.rstrip() for x in v.split("\n")).strip("\n")

    if indent == 0 or norm("\n".join(content)) != norm(text):
        return nothing

    def moved(p: tuple[int, int]) -> tuple[int, int]:  # the text's line 1 is the line after the header
        return (line + p[0], p[1] + indent)

    def relocated(d: Diagnostic) -> Diagnostic:
        return d.located(kfile, *moved((d.line, d.column))) if d.line is not None and d.column is not None \
            else d.located(kfile, line, col)

    result = load(text, kfile, strict=strict, sequences=True)
    for doc in result.documents:
        doc.positions = {k: moved(v) for k, v in doc.positions.items()}
        if hasattr(doc, "value_positions"):
            doc.value_positions = {k: moved(v) for k, v in doc.value_positions.items()}
        doc.start = moved(doc.start)
    return (list(result.documents), [[relocated(d) for d in ds] for ds in result.document_diagnostics],
            [relocated(d) for d in result.errors])


def inline_patch_results(path: str, *, strict: bool = True, kubernetes_version: str = "1.32.0") -> list[Any]:
    """``validate``'s results for the patches written inline in the kustomization ``path`` (a ``patch: |-`` of
    a ``patches``/``patchesJson6902`` entry, a multi-line string of ``patchesStrategicMerge``), each checked as
    a patch file of the same entry would be and located at its lines of the kustomization."""
    from .._io._load import LoadResult

    data = _read_yaml(path)
    if not isinstance(data, dict):
        return []
    base = os.path.dirname(path)
    out: list[Any] = []
    for key in ("patches", "patchesStrategicMerge", "patchesJson6902"):
        entries = data.get(key)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            text, where = (entry, (key, i)) if isinstance(entry, str) else (
                entry.get("patch"), (key, i, "patch")) if isinstance(entry, dict) else (None, ())
            if not isinstance(text, str) or (isinstance(entry, str) and "\n" not in entry):
                continue  # a patch file's path (checked as that file)
            docs, diags, errors = inline_load(path, where, text, strict=strict)
            if docs or errors:
                out += patch_results(LoadResult(docs, diags, errors), path, _target_of(entry, base), strict=strict,
                                     kubernetes_version=kubernetes_version)
    return out


#: folder -> (its modification time, the kustomization files in it): a bulk ``validate`` asks for every
#: file, and every file of a folder shares its chain of parent folders. Adding, removing or renaming an
#: entry changes the folder's modification time, so a long-lived process (the language server) sees a
#: kustomization created after it started. File times tick coarsely (a few milliseconds on Linux): a
#: folder changed less than :data:`_SETTLED_NS` ago is scanned again each time, not remembered (as git
#: treats a "racily clean" index entry).
_FOLDERS: dict[str, tuple[int, tuple[str, ...]]] = {}
_SETTLED_NS = 2_000_000_000


def _kustomizations_in(folder: str) -> tuple[str, ...]:
    """The kustomization files directly in ``folder`` (in :data:`KUSTOMIZATION_NAMES` order)."""
    try:
        stamp = os.stat(folder).st_mtime_ns
    except OSError:
        return ()
    hit = _FOLDERS.get(folder)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    found = tuple(k for k in (os.path.join(folder, name) for name in KUSTOMIZATION_NAMES) if os.path.isfile(k))
    if time.time_ns() - stamp > _SETTLED_NS:
        _FOLDERS[folder] = (stamp, found)
    return found


def patch_target(path: str) -> PatchTarget | None:
    """The target of ``path`` when a kustomization in its tree lists it as a patch, else None."""
    if path == "-" or not os.path.isfile(path):
        return None
    full = os.path.normpath(os.path.abspath(path))
    folder = os.path.dirname(full)
    for _ in range(_SEARCH_UP):
        for k in _kustomizations_in(folder):
            hit = _patches_of(k).get(full)
            if hit is not None:
                return hit
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


def _strip_directives(node: Any) -> Any:
    """A strategic-merge patch without its ``$patch``/``$setElementOrder``/``$retainKeys`` directives
    (list items that only delete are dropped)."""
    if isinstance(node, dict):
        return {k: _strip_directives(v) for k, v in node.items() if not (isinstance(k, str) and k.startswith("$"))}
    if isinstance(node, list):
        return [_strip_directives(v) for v in node
                if not (isinstance(v, dict) and v.get("$patch") == "delete")]
    return node


@cache
def _cel_texts() -> dict[str, list[str]]:
    """CEL rule id -> the rule texts of that id (built once: a constant table; read per CEL finding of a patch)."""
    from .._schema._cel_rules import BY_NORM

    out: dict[str, list[str]] = {}
    for text, (short, _fn) in BY_NORM.items():
        out.setdefault(f"cel.{short}", []).append(text)
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        if isinstance(node, dict) and p in node:
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        else:
            return None
    return node


def _fields_present(d: Diagnostic, patch: Any, texts: dict[str, list[str]]) -> bool:
    """Whether every ``self.<field>`` a failed CEL rule reads is in the patch at the rule's node."""
    if "no such key" in d.message:
        return False  # the rule read a field the patch does not carry
    rules = texts.get(d.rule)
    if not rules:
        return True
    fields = set()
    for text in rules:
        fields |= set(re.findall(r"\bself\.([A-Za-z_]\w*)", text))
    if not fields:
        return True  # a rule on the value itself (a list, a string): all present
    path = tuple(d.path)
    for n in range(len(path), -1, -1):
        node = _at(patch, path[:n])
        if isinstance(node, dict) and fields <= set(node):
            return True
    return False


def check_patch(data: Any, target: PatchTarget | None = None, *, strict: bool = True,
                kubernetes_version: str = "1.32.0") -> list[Diagnostic]:
    """Diagnostics of one patch document (strategic-merge mapping or JSON6902 list: see ``_json6902``;
    there ``target=None`` means that no kustomization lists the patch, a ``patch.target-unknown`` note)."""
    from .._schema import _schemas
    from .._schema._apiserver import api_server_checks

    if isinstance(data, list):
        from ._json6902 import check

        return check(data, target, strict=strict, kubernetes_version=kubernetes_version)
    target = target or PatchTarget()
    if not isinstance(data, dict):
        return [Diagnostic("patch.not-a-mapping", (), "a patch must be a mapping or a JSON6902 list")]
    api = data.get("apiVersion") if isinstance(data.get("apiVersion"), str) else target.api_version
    kind = data.get("kind") if isinstance(data.get("kind"), str) else target.kind
    schema = _schemas.for_object(str(api), str(kind))
    if schema is None:
        return []  # not a Dynamo (or modelled) kind: kustomize merges it, the build is checked with --kustomize
    patch = _strip_directives(data)
    patch.setdefault("apiVersion", api)
    patch.setdefault("kind", kind)
    # a patch is partial: what only a whole object must have (_DROPPED) is not asked of it, and a CEL rule
    # counts only when the patch sets the fields it reads
    return api_server_checks(patch, schema, strict=strict, ignore=_DROPPED, guard_meta=False,
                             keep=lambda d, pruned: not d.rule.startswith("cel.")
                             or _fields_present(d, pruned, _cel_texts())).diagnostics


def error_result(filename: str, diagnostics: list[Diagnostic]) -> ResourceResult:
    """``validate``'s ``error`` result for a problem tied to no document (unreadable file, YAML syntax).
    Only warnings (a duplicate key of an empty ``kind: List`` under ``--no-strict``): ``skipped``, as nothing
    is left to check; the warnings are still reported."""
    from .._report import ResourceResult

    if diagnostics and all(d.severity != "error" for d in diagnostics):
        return ResourceResult(filename=filename, kind="", name="", version="", status="skipped",
                              diagnostics=diagnostics, reason="no resource")
    return ResourceResult(filename=filename, kind="", name="", version="", status="error", diagnostics=diagnostics)


def io_error_result(path: str, exc: OSError) -> ResourceResult:
    """The report entry of a path that cannot be read (``validate``: status ``error``, exit 2)."""
    if isinstance(exc, FileNotFoundError):
        d = Diagnostic("io.not-found", (), "no such file or directory")
    else:
        d = Diagnostic("io.unreadable", (), f"cannot read: {exc.strerror or exc}")
    return error_result(path, [d.located(path, None, None)])


def patch_results(loaded: Any, path: str, target: PatchTarget | None, *, strict: bool = True,
                  kubernetes_version: str = "1.32.0") -> list[Any]:
    """``validate``'s results for a file read as a patch (one per document; ``loaded`` read with
    ``sequences=True`` so that a JSON6902 list is a document). A JSON6902 patch whose values could not be
    checked (target unknown) and has no error is ``skipped`` with its ``patch.target-unknown`` note."""
    from .._report import ResourceResult
    from ._json6902 import TARGET_UNKNOWN

    out = []
    for doc, load_diags in loaded.entries():
        if doc is None:
            out.append(error_result(path, list(load_diags)))
            continue
        kind = doc.kind if isinstance(doc.kind, str) else ""
        api = doc.api_version if isinstance(doc.api_version, str) else ""
        kind, api = kind or (target.kind if target else ""), api or (target.api_version if target else "")
        name = doc.name or (target.name if target else "")
        if any(d.severity == "error" for d in load_diags):
            out.append(ResourceResult(filename=doc.file, kind=kind, name=name, version=api.rpartition("/")[2],
                                      status="error", diagnostics=list(load_diags), api_version=api))
            continue
        if isinstance(doc.data, list):  # located in the patch file, about the target's field
            from ._json6902 import target_path

            diags = [doc.place(d)._replace(path=target_path(doc.data, tuple(d.path)))
                     for d in check_patch(doc.data, target, strict=strict, kubernetes_version=kubernetes_version)]
        else:
            diags = [doc.place(d) for d in check_patch(doc.data, target, strict=strict)]
        status = "invalid" if any(d.severity == "error" for d in diags) else \
            "skipped" if any(d.rule == TARGET_UNKNOWN for d in diags) else "valid"
        out.append(ResourceResult(filename=doc.file, kind=kind, name=name, version=api.rpartition("/")[2],
                                  status=status, diagnostics=list(load_diags) + diags,  # type: ignore[arg-type]
                                  api_version=api))
    return out


def json6902_file(loaded: Any) -> Any:
    """``loaded`` (read with ``sequences=True``) when it is one JSON6902 patch document, else None."""
    from ._json6902 import is_json6902

    docs = loaded.documents
    if len(docs) == 1 and not loaded.errors and is_json6902(docs[0].data):
        return loaded
    return None
