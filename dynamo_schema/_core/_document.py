"""A loaded document: plain JSON-like data plus where each node came from."""

from __future__ import annotations

from ._diagnostics import Diagnostic, Path
from ._record import Record

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Document(Record):
    """One YAML/JSON document.

    ``data`` is plain JSON-like Python data (dict/list/str/int/float/bool/None), keys in source order.
    ``positions`` maps a path (tuple of keys and indexes) to the 1-based ``(line, column)`` of that node
    (for a mapping entry: of its key). ``index`` is the document's position in its file (0-based).

    A mutable value with a dataclass's constructor, equality, repr and ``dataclasses.replace``, written
    out: no dataclass on a cold start (docs/decisions.md D32).
    """

    __slots__ = ("data", "file", "index", "positions", "start")
    _FIELDS: ClassVar[tuple[str, ...]] = __slots__
    data: Any
    file: str
    index: int
    positions: dict[Path, tuple[int, int]]
    start: tuple[int, int]

    def __init__(self, data: Any, file: str = "<stdin>", index: int = 0,
                 positions: dict[Path, tuple[int, int]] | None = None, start: tuple[int, int] = (1, 1)) -> None:
        self.data = data
        self.file = file
        self.index = index
        self.positions = {} if positions is None else positions
        self.start = start

    @property
    def api_version(self) -> str:
        return self.data.get("apiVersion", "") if isinstance(self.data, dict) else ""

    @property
    def kind(self) -> str:
        return self.data.get("kind", "") if isinstance(self.data, dict) else ""

    @property
    def name(self) -> str:
        if isinstance(self.data, dict):
            meta = self.data.get("metadata")
            if isinstance(meta, dict):
                n = meta.get("name")
                if isinstance(n, str):
                    return n
                if "name" not in meta and isinstance(meta.get("generateName"), str):
                    return str(meta["generateName"])
            n = self.data.get("name")  # DeploymentSpec: a top-level name, no metadata
            if isinstance(n, str) and not isinstance(meta, dict):
                return n
        return ""

    def locate(self, path: Path) -> tuple[int, int]:
        """Position of ``path``, or of its nearest located ancestor."""
        p = tuple(path)
        while p:
            pos = self.positions.get(p)
            if pos is not None:
                return pos
            p = p[:-1]
        return self.positions.get((), self.start)

    def place(self, diag: Diagnostic) -> Diagnostic:
        line, col = self.locate(diag.path)
        return diag.located(self.file, line, col)
