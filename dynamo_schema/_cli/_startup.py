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

PyYAML's resolver and ``SafeConstructor`` also compile, at ``import yaml``, the implicit-tag patterns (bool,
null, float, int, timestamp, merge, value) and the timestamp parser: ~11 M instructions, 3 % of a cold
one-file ``validate``, for patterns this process matches with only when it dumps YAML through PyYAML (the
loader resolves every tag itself, D7). They are seeded the same way under their own texts, each compiled
exactly as given when first used (:data:`YAML_DEFERRED_PATTERNS`; a PyYAML whose texts differ compiles its
own as before, and ``tests/test_perf_paths.py`` notices).
"""

from __future__ import annotations

import sys

#: ``yaml.reader.Reader.NON_PRINTABLE``'s pattern (PyYAML 5.1 and later), and the same set written as its complement.
YAML_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
NON_PRINTABLE_COMPLEMENT = "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]"

#: PyYAML's (5.1 and later) ``Resolver`` implicit-tag patterns and ``SafeConstructor.timestamp_regexp``, with the
#: flags they are compiled with (64: ``re.VERBOSE``), in the order PyYAML compiles them.
YAML_DEFERRED_PATTERNS: tuple[tuple[str, int], ...] = (
    ("^(?:yes|Yes|YES|no|No|NO\n                    |true|True|TRUE|false|False|FALSE\n"
     "                    |on|On|ON|off|Off|OFF)$", 64),
    ("^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?\n                    |\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?\n"
     "                    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*\n                    |[-+]?\\.(?:inf|Inf|INF)\n"
     "                    |\\.(?:nan|NaN|NAN))$", 64),
    ("^(?:[-+]?0b[0-1_]+\n                    |[-+]?0[0-7_]+\n                    |[-+]?(?:0|[1-9][0-9_]*)\n"
     "                    |[-+]?0x[0-9a-fA-F_]+\n                    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$", 64),
    ("^(?:<<)$", 0),
    ("^(?: ~\n                    |null|Null|NULL\n                    | )$", 64),
    ("^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]\n                    |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?\n"
     "                     (?:[Tt]|[ \\t]+)[0-9][0-9]?\n                     :[0-9][0-9] :[0-9][0-9] (?:\\.[0-9]*)?\n"
     "                     (?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$", 64),
    ("^(?:=)$", 0),
    ("^(?:!|&|\\*)$", 0),
    ("^(?P<year>[0-9][0-9][0-9][0-9])\n                -(?P<month>[0-9][0-9]?)\n                -(?P<day>[0-9][0-9]?)\n"
     "                (?:(?:[Tt]|[ \\t]+)\n                (?P<hour>[0-9][0-9]?)\n                :(?P<minute>[0-9][0-9])\n"
     "                :(?P<second>[0-9][0-9])\n                (?:\\.(?P<fraction>[0-9]*))?\n"
     "                (?:[ \\t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)\n"
     "                (?::(?P<tz_minute>[0-9][0-9]))?))?)?$", 64),
)


def prime_yaml_reader() -> None:
    """Seed ``re``'s cache with PyYAML's reader pattern, its complement compiled on first use, and with its
    resolver's and constructor's patterns, each compiled on first use (before ``import yaml``)."""
    if "yaml" in sys.modules:
        return
    import re

    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return
    from .._core._lazyre import lazy

    cache.setdefault((str, YAML_NON_PRINTABLE, 0), lazy(NON_PRINTABLE_COMPLEMENT))
    for pattern, flags in YAML_DEFERRED_PATTERNS:
        cache.setdefault((str, pattern, flags), lazy(pattern, flags))
