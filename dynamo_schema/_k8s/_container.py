"""A container's command line as the Dynamo operator searches it (one copy for admission and render)."""

from __future__ import annotations

from collections.abc import Sequence


def has_arg(args: Sequence[str], flag: str, value: str) -> bool:
    """``flag value`` or ``flag=value`` inside one argument, or ``flag`` and ``value`` as two arguments
    (the operator's ``hasArg`` over command and args; ``--data-parallel-backend ray``, ``-dpb=ray``)."""
    joined, equals = f"{flag} {value}", f"{flag}={value}"
    for i, a in enumerate(args):
        if joined in a or equals in a:
            return True
        if a == flag and i + 1 < len(args) and args[i + 1] == value:
            return True
    return False
