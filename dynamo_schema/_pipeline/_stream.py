"""Long ``validate`` runs: results in input order as soon as each file (and every file before it) is done,
and a progress line on stderr when, and only when, stderr is a terminal outside CI."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any, TextIO


def results_in_order(fn: Callable[[Any], Any], work: list[Any], jobs: int) -> Iterator[Any]:
    """``fn(w)`` for every ``w``, yielded in input order as each becomes available (``_parallel``: the
    parent warms up on the first file, forked workers take the rest in chunks)."""
    if jobs > 1 and len(work) > 1:
        from ._parallel import iter_ordered

        yield from iter_ordered(fn, work, jobs)
    elif len(work) > 1:
        from ._parallel import bulk_gc

        with bulk_gc():  # as map_sequential and the -j workers: the collector runs less often
            for w in work:
                yield fn(w)
    else:
        for w in work:
            yield fn(w)


def progress_enabled(stream: TextIO) -> bool:
    if os.environ.get("CI") or os.environ.get("DYNAMO_SCHEMA_NO_PROGRESS"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """``\\r[done/total] file`` redrawn at most 10 times a second; cleared before the end."""

    def __init__(self, stream: TextIO, total: int, enabled: bool) -> None:
        self.stream, self.total, self.enabled = stream, total, enabled and total > 1
        self.done = 0
        self.last = 0.0
        self.width = 0

    def step(self, name: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < 0.1 and self.done < self.total:
            return
        self.last = now
        text = f"[{self.done}/{self.total}] {name}"[:100]
        self.stream.write("\r" + text.ljust(self.width))
        self.width = len(text)
        self.stream.flush()

    def clear(self) -> None:
        """Erase the line (before printing a result, and at the end)."""
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
