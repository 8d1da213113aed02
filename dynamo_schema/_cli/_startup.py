"""Start-up costs of the command line that are not ours to remove at their source.

PyYAML's ``yaml/__init__`` imports its pure-Python reader, whose class body compiles
``Reader.NON_PRINTABLE``, a negated character class over every printable code point (``\\xA0-\\uD7FF``,
``\\uE000-\\uFFFD``, ``\\U00010000-\\U0010ffff``). ``re`` builds the 64 K-entry map of such a class one code
point at a time: ~57 M instructions, 11 % of a cold one-file ``validate`` (docs/decisions.md D26), for a
pattern the C loader we use never reads. The same set written as its complement (the few non-printable
ranges) compiles in ~5 M, and only when first used (``_core._lazyre.lazy``: only the pure-Python reader
searches with it). Before the first ``import yaml`` of a command-line process, that pattern is put
into ``re``'s compile cache under PyYAML's pattern text, so PyYAML's ``re.compile`` finds it: the same
matches for every code point (``tests/test_perf_paths.py`` checks all 1,114,112 and that PyYAML got it).
Library users are not touched (only ``main`` calls this), and a Python whose ``re`` keeps its cache
elsewhere just compiles PyYAML's pattern as before.
"""

from __future__ import annotations

import sys

#: ``yaml.reader.Reader.NON_PRINTABLE``'s pattern (PyYAML 5.1 and later), and the same set written as its complement.
YAML_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
NON_PRINTABLE_COMPLEMENT = "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]"


def prime_yaml_reader() -> None:
    """Seed ``re``'s cache with PyYAML's reader pattern, its complement compiled on first use (before ``import yaml``)."""
    if "yaml" in sys.modules:
        return
    import re

    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return
    from .._core._lazyre import lazy

    cache.setdefault((str, YAML_NON_PRINTABLE, 0), lazy(NON_PRINTABLE_COMPLEMENT))
