"""``validate``'s orchestration of its inputs: each file's documents loaded and checked (as patches when a
kustomization lists the file as one, as updates with ``--old``), then ``--patch`` files and ``--kustomize``
builds, results yielded in input order."""

from __future__ import annotations

import os

from .._core._record import FrozenRecord
from .._io._load import load, load_path_result
from ._helm import template_result
from ._kustomize import KUSTOMIZATION_NAMES, error_result, io_error_result, json6902_file, patch_results, patch_target
from ._result import document_result
from ._waivers import apply_to_file

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Iterator

    from .._report import ResourceResult
    from ._validate import ValidateOptions


class FileWork(FrozenRecord):
    """One input of ``validate`` (what a ``-j`` worker receives; pickled by its constructor):

    * ``path`` (``-``: standard input, whose bytes are ``preread``: pool workers cannot read it);
    * ``options``; ``olds``: the old objects by :func:`identity` (``--old``: each document is then checked as
      an update of the old object of the same identity, and as a create when there is none), or None;
    * ``policy``: the kind policy (``--skip``, ``--reject``…), or None; ``ignore_rules``: ``--ignore-rule``."""

    __slots__ = _FIELDS = ("path", "options", "olds", "preread", "policy", "ignore_rules")
    path: str
    options: ValidateOptions
    olds: dict[Any, Any] | None
    preread: bytes | None
    policy: Any
    ignore_rules: frozenset[str]

    def __init__(self, path: str, options: ValidateOptions, olds: dict[Any, Any] | None = None,
                 preread: bytes | None = None, policy: Any = None, ignore_rules: frozenset[str] = frozenset()) -> None:
        for attr, value in (("path", path), ("options", options), ("olds", olds), ("preread", preread),
                            ("policy", policy), ("ignore_rules", ignore_rules)):
            object.__setattr__(self, attr, value)


def identity(data: Any) -> tuple[str, str, str, str] | None:
    """(apiVersion group, kind, namespace, name): what makes two manifests the same object."""
    if not isinstance(data, dict):
        return None
    api, kind = data.get("apiVersion"), data.get("kind")
    raw_meta = data.get("metadata")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    name, namespace = meta.get("name"), meta.get("namespace")
    if not isinstance(api, str) or not isinstance(kind, str) or not isinstance(name, str):
        return None
    return api.rpartition("/")[0], kind, namespace if isinstance(namespace, str) else "", name


def validate_file(work: FileWork) -> list[ResourceResult]:
    """Results of one file (:class:`FileWork`): one per document; a problem tied to no document is one
    ``error`` result."""
    path, options, olds, preread = work.path, work.options, work.olds, work.preread
    policy, ignore_rules = work.policy, work.ignore_rules
    target = patch_target(path)  # listed as a patch by a kustomization in its tree: checked as a patch
    raw = preread  # the file's bytes, read once: loaded, then searched for waivers (``apply_to_file``)
    try:
        if preread is not None:
            loaded = load(preread, "<stdin>", strict=options.strict)
        elif path != "-" and not os.path.isdir(path):
            with open(path, "rb") as fh:
                raw = fh.read()
            loaded = load(raw, path, strict=options.strict, sequences=target is not None)
        else:
            loaded = load_path_result(path, strict=options.strict, sequences=target is not None)
    except OSError as exc:  # one ``error`` resource; the other paths are still checked
        return [io_error_result(path, exc)]

    helm = template_result(path, loaded, raw)  # a Helm chart's template: skipped with a note
    if helm is not None:
        return [helm]
    if target is not None:
        return patch_results(loaded, path, target, strict=options.strict,
                             kubernetes_version=options.kubernetes_version)
    if any(d.rule == "load.not-a-mapping" for d in loaded.errors):  # a JSON6902 patch no kustomization lists?
        again = load(preread, "<stdin>", strict=options.strict, sequences=True) if preread is not None \
            else load(raw, path, strict=options.strict, sequences=True) if raw is not None \
            else load_path_result(path, strict=options.strict, sequences=True)
        if json6902_file(again) is not None:
            return patch_results(again, path, None, strict=options.strict,
                                 kubernetes_version=options.kubernetes_version)
    out = []
    # per result: line of its document's first key, and of its kind: List document's (0: not an item) (waivers)
    starts: list[tuple[int, int]] = []
    for doc, load_diags in loaded.entries():
        list_start = getattr(doc, "list_start", None)
        starts.append((doc.start[0], list_start[0] if list_start else 0) if doc is not None else (0, 0))
        if doc is None:
            out.append(error_result(path, list(load_diags)))
            continue
        opts = options
        if olds is not None:
            opts = options._replace(old=olds.get(identity(doc.data)))
        out.append(document_result(doc, opts, load_diags, policy))
    if preread is None and os.path.basename(path) in KUSTOMIZATION_NAMES:  # its inline patches, checked as patches
        from ._kustomize import inline_patch_results

        for r in inline_patch_results(path, strict=options.strict, kubernetes_version=options.kubernetes_version):
            out.append(r)
            starts.append((0, 0))  # inside the kustomization's one YAML document: waivers on a problem's line only
    return apply_to_file(out, path, raw, starts, ignore_rules)


def results_by_input(work: list[FileWork], jobs: int, patches: list[str], kustomize: list[str], opts: ValidateOptions,
                     helm: Any = None, log: Any = None) -> Iterator[tuple[str, list[ResourceResult]]]:
    """(name, results) per input in order: the PATHs, then ``--patch`` files, then ``--kustomize`` builds,
    then ``--helm`` charts. ``helm``: ``(charts, values files, --helm-set values)``; ``log(text)``: where a
    build says which tool it ran (the command's standard error)."""
    from . import _stream

    # strict: after the last file zip asks the results for one more, so the ``-j`` generator finishes and reaps
    # its children there and then, not whenever the interpreter finalises a suspended generator
    for w, chunk in zip(work, _stream.results_in_order(validate_file, work, jobs), strict=True):
        yield w.path, chunk
    if patches or kustomize:
        from .._io._load import iter_paths_keeping_missing
        from ._kustomize_build import kustomize_results, patch_file_results

        for f in iter_paths_keeping_missing(patches):
            yield f, patch_file_results(f, opts)
        for d in kustomize:
            yield d, kustomize_results(d, opts, log)
    if helm is not None and helm[0]:
        from ._helm import helm_results

        for chart in helm[0]:
            yield chart, helm_results(chart, helm[1], helm[2], opts, log)
