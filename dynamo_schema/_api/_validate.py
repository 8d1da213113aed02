"""``load``, ``load_text`` and ``validate``: what ``python -m dynamo_schema validate`` checks, per resource."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

from .._core._document import Document
from ._common import Manifest, in_memory, plain

if TYPE_CHECKING:  # pragma: no cover
    from .._admission import AdmissionSettings
    from .._report import ResourceResult

#: ``validate``'s input: a path (file, directory, ``"-"``), a loaded ``Document``, a manifest, or a list of
#: documents and manifests.
Validatable = Union[str, "os.PathLike[str]", Document, Manifest, Sequence[Union[Document, Manifest]]]


def load(path: str | os.PathLike[str]) -> list[Document]:
    """Documents of a file, a directory (recursively, sorted) or ``"-"`` (stdin). Raises ``LoadError``."""
    from .._io._load import load_path

    return load_path(os.fspath(path))


def load_text(text: str | bytes, file: str = "<string>") -> list[Document]:
    """Documents of YAML or JSON text. Raises ``LoadError``."""
    from .._io._load import load_text as _load_text

    return _load_text(text, file)


def validate(
    target: Validatable,
    *,
    strict: bool = True,
    settings: AdmissionSettings | None = None,
    old: Manifest | None = None,
    kubernetes_version: str = "1.32.0",
) -> list[ResourceResult]:
    """One ``ResourceResult`` per resource: its status (``valid``, ``invalid``, ``error``, ``skipped``), its
    identity and its diagnostics. The verdict ``python -m dynamo_schema validate`` gives (the same
    pipeline: the kind policy, schema, CEL, defaulting, webhook rules, the reconcile check).

    * a path: every file of it (a directory recursively); a file that cannot be read or parsed is an
      ``error`` result and the others are still checked; waiver comments apply as on the command line;
    * a ``Document`` (``load``, ``load_text``): located diagnostics;
    * a manifest (plain data or a typed model), or a list of documents and manifests: data has no source
      positions, so its diagnostics have ``line``/``column`` ``None`` (``index``: its position in the list).

    ``old``: the object as it is on the cluster (the check is then an UPDATE). A kind with no schema is
    ``skipped`` (``result.reason`` says why), never ``valid``. Raises ``ValueError`` for a malformed or
    unbundled ``kubernetes_version``.
    """
    from .._k8s._builtin_kinds import check_version
    from .._pipeline._kindpolicy import KindPolicy
    from .._pipeline._result import document_result
    from .._pipeline._validate import ValidateOptions
    from .._pipeline._validate_files import FileWork, validate_file

    kubernetes_version = check_version(kubernetes_version)
    opts = ValidateOptions(strict=strict, settings=settings, old=None if old is None else plain(old),
                           kubernetes_version=kubernetes_version)
    policy = KindPolicy(kubernetes_version=kubernetes_version, strict=strict)  # the CLI's, without flags
    if isinstance(target, (str, os.PathLike)):
        from .._io._load import iter_paths_keeping_missing

        out: list[ResourceResult] = []
        for f in iter_paths_keeping_missing([os.fspath(target)]):
            out.extend(validate_file(FileWork(f, opts, policy=policy)))
        return out
    items: Sequence[Any] = target if isinstance(target, Sequence) else [target]
    docs = [t if isinstance(t, Document) else in_memory(t, i) for i, t in enumerate(items)]
    return [document_result(doc, opts, (), policy) for doc in docs]
