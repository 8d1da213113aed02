"""The standard streams, flushed before a process forks (``-j``) or ends without the interpreter's exit
(D64, D65)."""

from __future__ import annotations

import sys


def flush_standard_streams() -> bool:
    """Flush ``sys.stdout`` and ``sys.stderr`` (either may be None); False when one fails to."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            return False
    return True
