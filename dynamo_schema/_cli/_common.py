"""What the subcommands share: the usage error (exit 2), reading inputs, ``validate``'s report lines."""

from __future__ import annotations

import sys
from contextlib import contextmanager

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterator

    from .._core._diagnostics import Diagnostic
    from .._core._document import Document


class UsageError(Exception):
    """Exit 2: a usage or I/O problem (missing file, unreadable stdin, bad option value)."""


@contextmanager
def usage_errors(path: str) -> Iterator[None]:
    """A missing or unreadable ``path`` inside the block: a UsageError (exit 2) naming it."""
    try:
        yield
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such file or directory") from exc
    except PermissionError as exc:
        raise UsageError(f"{path}: permission denied") from exc


def load_documents(path: str, strict: bool = True) -> list[Document]:
    """Documents of one path; load errors propagate as LoadError, I/O errors as UsageError."""
    from .._io._load import load_path

    try:
        with usage_errors(path):
            return load_path(path, strict=strict) if strict is not True else load_path(path)
    except IsADirectoryError as exc:  # pragma: no cover
        raise UsageError(str(exc)) from exc


def read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError) as exc:
        raise UsageError(f"cannot read standard input: {exc}") from exc


def report_lines(doc: Document, diags: list[Diagnostic], status: str = "invalid") -> list[str]:
    """``validate``'s text lines (``FILE:LINE:COL: KIND/NAME: FIELD: MESSAGE [RULE]``) for one document, as
    ``validate`` presents them: ``cel.not-checked`` folded into the first other error as a note, an unknown
    field's suggestion in its line; notes are not printed."""
    from .._core._access import as_str
    from .._pipeline._validate import runtime_image_hints
    from .._report import ResourceResult, prepare, text_line

    diags, at = runtime_image_hints(doc.data, diags)  # the image an override-required error is about
    placed = [d.located(doc.file, *doc.locate(at[id(d)])) if id(d) in at else d if d.file else doc.place(d)
              for d in diags]
    api = as_str(doc.api_version)
    r = ResourceResult(filename=doc.file, kind=as_str(doc.kind), name=doc.name, version=api.rpartition("/")[2],
                       status=status, diagnostics=placed)  # type: ignore[arg-type]
    return [text_line(r, d) + "\n" for d in prepare(r).diagnostics if d.severity in ("error", "warning")]
