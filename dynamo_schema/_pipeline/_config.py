"""Settings files of the commands (``--settings``, ``--provider-config``, ``--values``…): one YAML mapping per
file, read with located errors; a file that cannot be used is a usage error (:class:`ConfigFileError`)."""

from __future__ import annotations

from typing import Any

from .._core._diagnostics import DynamoSchemaError


class ConfigFileError(DynamoSchemaError, ValueError):
    """A settings file that cannot be used (unreadable, not YAML, not a mapping); a usage error on the
    command line (still a ``ValueError`` for callers that catch that)."""


def read_mapping_file(path: str, what: str) -> dict[str, Any]:
    """A YAML file holding one mapping (empty file: ``{}``), read with located errors.

    Raises :class:`ConfigFileError` (a usage error) when the file cannot be read, is not YAML, holds
    several documents or is not a mapping."""
    doc = read_mapping_document(path, what)
    return dict(doc.data) if doc is not None else {}


def read_mapping_document(path: str, what: str) -> Any:
    """:func:`read_mapping_file` keeping positions: the loaded ``Document``, or None for an empty file."""
    from .._io._load import load_path_result

    try:
        result = load_path_result(path)
    except FileNotFoundError as exc:
        raise ConfigFileError(f"cannot read {what} {path}: no such file or directory") from exc
    except OSError as exc:
        raise ConfigFileError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if errors:
        lines = []
        for d in errors:
            loc = f"{d.file}:{d.line}:{d.column}" if d.line is not None else str(d.file or path)
            lines.append(f"{loc}: {d.field + ': ' if d.path else ''}{d.message} [{d.rule}]")
        raise ConfigFileError(f"invalid {what} {path}:\n" + "\n".join(lines))
    docs = result.documents
    if len(docs) > 1:
        second = docs[1]
        raise ConfigFileError(f"{second.file}:{second.start[0]}:{second.start[1]}: {what} must be a single YAML mapping, "
                              f"found {len(docs)} documents")
    if not docs:
        return None
    if not isinstance(docs[0].data, dict):  # pragma: no cover - the loader reports non-mapping documents
        raise ConfigFileError(f"{path}: {what} must be a YAML mapping")
    return docs[0]
