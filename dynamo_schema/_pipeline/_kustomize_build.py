"""``validate --patch FILE`` and ``validate --kustomize DIR``.

``--kustomize DIR`` builds DIR with ``kubectl kustomize`` (when ``kubectl`` is on PATH; no network: a
remote base fails the build and is reported) and validates every object of the build. A problem is
reported where it was written when it can be traced: the patch or base file (of DIR's kustomization,
its resources, components and patches, recursively) whose document of the same kind has the field, a
patch first (its value wins in the build); else at its line in the built stream (``kustomize:DIR``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import TYPE_CHECKING, Any

from .._core._diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from .._core._document import Document
    from .._io._report import ResourceResult
    from ._validate import ValidateOptions

BUILD_TIMEOUT_S = 120


def patch_file_results(path: str, options: ValidateOptions) -> list[ResourceResult]:
    from .._io._load import load_path_result
    from ._kustomize import io_error_result, patch_results, patch_target

    try:
        loaded = load_path_result(path, strict=options.strict)
    except OSError as exc:
        return [io_error_result(path, exc)]
    return patch_results(loaded, path, patch_target(path), strict=options.strict)


def _error(name: str, rule: str, message: str) -> ResourceResult:
    from ._kustomize import error_result

    return error_result(name, [Diagnostic(rule, (), message).located(name, None, None)])


def kustomize_results(folder: str, options: ValidateOptions) -> list[ResourceResult]:
    from .._io._load import load
    from .._io._report import ResourceResult
    from ._kustomize import error_result
    from ._validate import validate_document

    name = f"kustomize:{folder}"
    if not os.path.isdir(folder):
        return [_error(folder, "io.not-found", "no such file or directory")]
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        return [_error(name, "io.kustomize-unavailable", "cannot build: kubectl is not on PATH")]
    try:
        proc = subprocess.run([kubectl, "kustomize", folder], capture_output=True, timeout=BUILD_TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [_error(name, "io.kustomize-unavailable", f"cannot build: {exc}")]
    if proc.returncode != 0:
        text = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        return [_error(name, "kustomize.build-failed", text)]
    loaded = load(proc.stdout, name, strict=options.strict)
    sources = _sources(folder)
    out = []
    for doc, load_diags in loaded.entries():
        if doc is None:
            out.append(error_result(name, list(load_diags)))
            continue
        r = validate_document(doc, options)
        diags = [_trace(d, doc.data, sources) for d in r.diagnostics]
        out.append(ResourceResult(filename=name, kind=r.kind, name=r.name, version=r.version,
                                  status=r.status,  # type: ignore[arg-type]
                                  diagnostics=list(load_diags) + diags))
    return out


# ------------------------------------------------------------------------------------------------
def _kustomization(folder: str) -> str | None:
    from ._kustomize import KUSTOMIZATION_NAMES

    for n in KUSTOMIZATION_NAMES:
        if os.path.isfile(os.path.join(folder, n)):
            return os.path.join(folder, n)
    return None


def _sources(folder: str) -> list[tuple[bool, Document]]:
    """(is a patch, Document) of every file the kustomization in ``folder`` builds from, recursively."""
    from .._io._load import load_path_result
    from ._kustomize import _read_yaml

    files: list[tuple[bool, str]] = []
    seen: set[str] = set()

    def visit(d: str, depth: int) -> None:
        k = _kustomization(d)
        if k is None or k in seen or depth > 16:
            return
        seen.add(k)
        data = _read_yaml(k)
        if not isinstance(data, dict):
            return
        for key in ("resources", "bases", "components"):
            for entry in data.get(key) or []:
                if not isinstance(entry, str) or "://" in entry:
                    continue
                p = os.path.normpath(os.path.join(d, entry))
                if os.path.isdir(p):
                    visit(p, depth + 1)
                elif os.path.isfile(p):
                    files.append((False, p))
        for key in ("patches", "patchesStrategicMerge", "patchesJson6902"):
            for entry in data.get(key) or []:
                rel = entry if isinstance(entry, str) else entry.get("path") if isinstance(entry, dict) else None
                if isinstance(rel, str) and "\n" not in rel:
                    full = os.path.normpath(os.path.join(d, rel))
                    if os.path.isfile(full):
                        files.append((True, full))

    visit(folder, 0)
    out: list[tuple[bool, Document]] = []
    for is_patch, f in files:
        try:
            r = load_path_result(f)
        except OSError:
            continue
        out += [(is_patch, doc) for doc in r.documents]
    out.sort(key=lambda x: not x[0])  # patches first: their values win in the build
    return out


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


def _trace(d: Diagnostic, built: Any, sources: list[tuple[bool, Document]]) -> Diagnostic:
    if not d.path or not isinstance(built, dict):
        return d
    kind = built.get("kind")
    best: tuple[int, Document, tuple[Any, ...]] | None = None
    for _is_patch, doc in sources:
        if not isinstance(doc.data, dict) or doc.data.get("kind") not in (kind, None):
            continue
        path = tuple(d.path)
        for n in range(len(path), 0, -1):  # the deepest part of the field the source has
            sp = _source_path(doc.data, built, path[:n])
            if sp is not None and sp in doc.positions:
                if best is None or n > best[0]:
                    best = (n, doc, sp)
                break
    if best is None:
        return d
    _, doc, sp = best
    line, col = doc.positions[sp]
    return d.located(doc.file, line, col)
