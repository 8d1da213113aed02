"""Diagnostics: the one shape every stage reports problems in.

A diagnostic names a rule id, the field path inside its document, the upstream message, a severity
and, once the pipeline has located it, the source ``file:line:col``.
"""

from __future__ import annotations

from ._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Literal

    Severity = Literal["error", "warning", "note"]
else:
    Severity = str

PathElem = str | int
Path = tuple[PathElem, ...]


def format_path(path: Path) -> str:
    """Render a path the Kubernetes way: ``spec.components[0].podTemplate.metadata.labels[a/b]``."""
    out: list[str] = []
    for elem in path:
        if isinstance(elem, int):
            out.append(f"[{elem}]")
        elif out and ("." in elem or "/" in elem):
            out.append(f"[{elem}]")
        else:
            out.append(("." if out else "") + elem)
    return "".join(out)


class Diagnostic(FrozenRecord):
    """One problem (or warning, or note) found in one document.

    A frozen value (the constructor, equality, hash, repr and ``dataclasses.replace`` of a frozen
    dataclass with these fields), written out: no dataclass on a cold start (docs/decisions.md D32).
    """

    __slots__ = _FIELDS = ("rule", "path", "message", "severity", "file", "line", "column")
    rule: str
    path: Path
    message: str
    severity: Severity
    file: str | None
    line: int | None
    column: int | None

    def __init__(self, rule: str, path: Path, message: str, severity: Severity = "error",
                 file: str | None = None, line: int | None = None, column: int | None = None) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "rule", rule)
        setattr_(self, "path", path)
        setattr_(self, "message", message)
        setattr_(self, "severity", severity)
        setattr_(self, "file", file)
        setattr_(self, "line", line)
        setattr_(self, "column", column)

    def __eq__(self, other: object) -> bool:  # written out: the hot one (sets of diagnostics in bulk runs)
        if isinstance(other, Diagnostic) and other.__class__ is self.__class__:
            return (self.rule, self.path, self.message, self.severity, self.file, self.line, self.column) == (
                other.rule, other.path, other.message, other.severity, other.file, other.line, other.column)
        return NotImplemented

    def __hash__(self) -> int:  # type: ignore[override]
        return hash((self.rule, self.path, self.message, self.severity, self.file, self.line, self.column))

    @property
    def field(self) -> str:
        return format_path(self.path)

    def located(self, file: str | None, line: int | None, column: int | None) -> Diagnostic:
        return Diagnostic(self.rule, self.path, self.message, self.severity, file, line, column)

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "path": self.field,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "severity": self.severity,
        }


class DynamoSchemaError(Exception):
    """Base class of the errors the library raises for bad input."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])
