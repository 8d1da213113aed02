"""Worker command-line helpers with the profiler's semantics (``profiler/utils/config.py``)."""

from __future__ import annotations

import json
import shlex
from typing import Any


def break_arguments(args: Any) -> list[str]:
    """Split whitespace-joined tokens (JSON-looking tokens are kept whole)."""
    out: list[str] = []
    if args is None:
        return out
    if isinstance(args, str):
        return shlex.split(args)
    for arg in args:
        if arg is None:
            continue
        if isinstance(arg, str) and (" " in arg or "\t" in arg) and not arg.strip().startswith(("{", "[")):
            out.extend(shlex.split(arg))
        else:
            out.append(arg)
    return out


def _insert_index(args: list[str]) -> int:
    idx = len(args)
    for stop in ("|", "2>&1"):
        if stop in args:
            idx = min(idx, args.index(stop))
    return idx


def append_argument(args: list[str], to_append: str | list[str]) -> list[str]:
    idx = _insert_index(args)
    if isinstance(to_append, list):
        args[idx:idx] = to_append
    else:
        args.insert(idx, to_append)
    return args


def set_argument_value(args: list[str], name: str, value: str) -> list[str]:
    """Replace the value after ``name`` in place, or append ``name value``."""
    if name in args:
        idx = args.index(name)
        if idx + 1 < len(args):
            args[idx + 1] = value
        else:
            args.append(value)
        return args
    return append_argument(args, [name, value])


def set_unique_argument_value(args: list[str], name: str, value: str) -> list[str]:
    """Drop every ``name value`` / ``name=value`` occurrence, then append one ``name value``."""
    kept: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == name:
            i += 2 if i + 1 < len(args) else 1
            continue
        if isinstance(arg, str) and arg.startswith(f"{name}="):
            i += 1
            continue
        kept.append(arg)
        i += 1
    return append_argument(kept, [name, value])


def remove_valued_argument(args: list[str], name: str) -> list[str]:
    if name in args:
        idx = args.index(name)
        if idx + 1 < len(args):
            del args[idx : idx + 2]
    return args


def get_valued_argument(args: list[str], name: str) -> str | None:
    value = None
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            value = args[i + 1]
        if isinstance(arg, str) and arg.startswith(f"{name}="):
            value = arg.split("=", 1)[1]
    return value


def is_shell_form(container: dict[str, Any]) -> bool:
    cmd = container.get("command") or []
    args = container.get("args") or []
    return (
        isinstance(cmd, list)
        and len(cmd) >= 2
        and cmd[0] in ("/bin/sh", "sh")
        and cmd[1] == "-c"
        and isinstance(args, list)
        and len(args) == 1
        and isinstance(args[0], str)
    )


def update_args_preserving_shell_form(container: dict[str, Any], fn: Any) -> None:
    shell = is_shell_form(container)
    tokens = fn(break_arguments(container.get("args")))
    container["args"] = [shlex.join(tokens)] if shell else tokens


def find_override_engine_args(args: list[str]) -> tuple[int, dict[str, Any] | None]:
    """Index of the first ``--override-engine-args`` (-1 when absent) and its value parsed as a JSON
    object (``None`` when there is no value, or it is not JSON or not an object)."""
    if "--override-engine-args" not in args:
        return -1, None
    idx = args.index("--override-engine-args")
    if idx + 1 >= len(args):
        return idx, None
    try:
        parsed = json.loads(args[idx + 1])
    except json.JSONDecodeError:
        return idx, None
    return idx, parsed if isinstance(parsed, dict) else None


def parse_override_engine_args(args: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Pop ``--override-engine-args <json>``; returns the parsed dict and the remaining args."""
    idx, parsed = find_override_engine_args(args)
    if parsed is None:
        return {}, args
    return parsed, args[:idx] + args[idx + 2 :]
