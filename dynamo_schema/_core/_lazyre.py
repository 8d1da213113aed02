"""Regular expressions compiled on first use.

A cold one-file ``validate`` has a budget of a few tens of milliseconds, and ``re`` spends 20-400 µs
compiling each pattern. A pattern that only some inputs reach (an error message's parser, a rarely set
field's format, a render option) is declared with :func:`lazy` instead of ``re.compile``: the same
object for its readers (``match``, ``fullmatch``, ``search``, ``sub``, ``pattern`` … are the compiled
pattern's), compiled when one of them is first read. A pattern every run reaches stays ``re.compile``d:
the indirection costs a little on each use.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["lazy"]


class _LazyPattern:
    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:  # the compiled pattern's attributes (slots are found first)
        compiled = self._compiled
        if compiled is None:
            # seeded in ``re``'s cache under its own text (``_cli._startup``): out first, so that ``re``
            # compiles the pattern instead of returning this object; the caches then hold the compiled one
            key = (type(self._args[0]), *self._args)
            for cache in (getattr(re, "_cache", None), getattr(re, "_cache2", None)):  # _cache2: Python 3.12+
                if isinstance(cache, dict) and cache.get(key) is self:
                    del cache[key]
            compiled = self._compiled = re.compile(*self._args)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r}, {self._args[1]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled when first used."""
    return _LazyPattern(pattern, int(flags))  # type: ignore[return-value]  # the Pattern's attributes, by delegation
