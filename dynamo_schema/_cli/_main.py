"""``python -m dynamo_schema``: the command-line contract of ../shared/spec/cli.md.

Thin by design: the entry point, dispatch and exit codes live here; the parsers in ``_parser.py``, each
subcommand in ``commands/NAME.py`` (imported when it runs, so ``--help`` and the pre-commit hook start
fast), which calls library functions. Exit codes: 0 success, 1 invalid input or a refused operation,
2 usage or I/O error; ``diff`` follows ``kubectl diff``: 0 no differences, 1 differences, 2 an error. No traceback for bad input unless ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager

from ._common import UsageError
from ._parser import _parse_validate, parse_command_line, program_name
from ._parser import build_parser as build_parser  # re-exported: tests and tools build the parser from here
from ._startup import prime_yaml_reader

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Callable, Iterator, NoReturn, Sequence, TextIO


class _Command:
    """A subcommand's ``run`` (``commands/NAME.py``), imported on first call: a command line imports
    only its own command's module."""

    def __init__(self, name: str) -> None:
        self.module = f"dynamo_schema._cli.commands.{name}"

    def __call__(self, ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
        import importlib

        run: Callable[[argparse.Namespace, TextIO, TextIO], int] = importlib.import_module(self.module).run
        return run(ns, stdout, stderr)


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    name: _Command(name)
    for name in ("validate", "schema", "default", "merge", "convert", "render", "explain", "diff", "lsp")
}


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None,
         prog: str | None = None) -> int:
    """``prog``: the program name of usage lines (default: how the process was started, ``program_name``)."""
    with _collect_less(restore_after=True) as restore:
        return _main(argv, stdout, stderr, prog, restore)


def _main(argv: Sequence[str] | None, stdout: TextIO | None, stderr: TextIO | None, prog: str | None,
          restore: Callable[[], None]) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    prime_yaml_reader()
    import contextlib

    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):  # --help, --version, usage
            ns = _parse_validate(argv)
            if ns is None:
                ns = parse_command_line(argv, prog or program_name(argv is not None))
    except SystemExit as exc:  # argparse: --help exits 0, usage errors exit 2
        return int(exc.code or 0)
    from .._core._diagnostics import DynamoSchemaError

    try:
        if ns.command == "lsp":  # a long-lived server: the collector as it was
            restore()
        return COMMANDS[ns.command](ns, stdout, stderr)
    except UsageError as exc:
        stderr.write(f"error: {exc}\n")
        return 2
    except DynamoSchemaError as exc:
        if ns.debug:
            raise
        for d in exc.diagnostics:
            loc = f"{d.file}:{d.line}:{d.column}: " if d.file else ""
            stderr.write(f"{loc}{d.field + ': ' if d.path else ''}{d.message} [{d.rule}]\n")
        if not exc.diagnostics:
            stderr.write(f"error: {exc}\n")
        return 2 if ns.command == "diff" else 1  # diff: 1 means "differences" (kubectl diff)
    except BrokenPipeError:  # pragma: no cover - the reader went away (``| head``)
        _silence_stdout(stdout)
        return 0
    except OSError as exc:
        if ns.debug:
            raise
        stderr.write(f"error: {exc}\n")
        return 2
    except Exception as exc:  # a bug, not bad input: no traceback unless --debug
        if ns.debug:
            raise
        from .._core._fsutil import UnsafePathError
        from .._pipeline._config import ConfigFileError

        if isinstance(exc, (ConfigFileError, UnsafePathError)):
            stderr.write(f"error: {exc}\n")
            return 2
        stderr.write(f"error: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)\n")
        return 2


#: The cyclic collector's first-generation threshold while a command runs (CPython's default is 700; D65).
COMMAND_GC_THRESHOLD = 50_000


@contextmanager
def _collect_less(restore_after: bool) -> Iterator[Callable[[], None]]:
    """The collector runs less often while a command runs (it yields what puts it back, for ``lsp``, a
    long-lived server); its thresholds are restored after it when ``restore_after``: not at the end of the
    process (:func:`run`), where the restored threshold, below the count of new objects, would make the
    next allocation collect them all once more.

    A cold command allocates most of its objects to keep them (modules, compiled schemas, the documents):
    at CPython's 700, collections of the older generations walk them again and again (~4 % of a cold
    one-file ``validate``, D65). Reference counting frees the documents; the collector only finds cycles."""
    import gc

    before = gc.get_threshold()
    gc.set_threshold(COMMAND_GC_THRESHOLD, before[1], before[2])
    try:
        yield lambda: gc.set_threshold(*before)
    finally:
        if restore_after:
            gc.set_threshold(*before)


def run(prog: str | None = None) -> NoReturn:
    """The process's entry point (``python -m dynamo_schema``, the ``dynamo-schema`` script): :func:`main`,
    then :func:`exit_now` with its exit code."""
    with _collect_less(restore_after=False) as restore:
        code = _main(None, None, None, prog, restore)
    exit_now(code)


def exit_now(code: int) -> NoReturn:
    """End this process with ``code`` as the interpreter's exit would, without its teardown (D65).

    A normal exit joins the other threads, runs the ``atexit`` functions, flushes ``sys.stdout`` and
    ``sys.stderr``, and then takes every module and object apart and runs the cyclic collector over what
    is left: ~10 % of a cold one-file ``validate``, for a process about to end. Here the first three
    happen as they would, and ``os._exit`` ends the process. Where that could change what the process
    does, the normal exit runs instead (:func:`_quick_exit_safe`), and when a standard stream fails to
    flush (the interpreter reports it, as before)."""
    if not _quick_exit_safe():
        raise SystemExit(code)
    import atexit

    atexit._run_exitfuncs()  # they are cleared once run: the normal exit below would not run them twice
    from .._core._stdio import flush_standard_streams

    if not flush_standard_streams():
        raise SystemExit(code)
    import os

    os._exit(code)


def _quick_exit_safe() -> bool:
    """Whether nothing after this process's main code needs the interpreter's exit: this package is the
    process's program (``python -m dynamo_schema``, or a script run as the program, as the console script
    is: not a caller's process that runs :func:`run` itself), no profiler or tracer waits for the end to
    write its results (``python -m cProfile``, ``trace``), no other thread is alive (the interpreter joins
    it), no ``python -i``, and CPython's ``atexit._run_exitfuncs`` is there."""
    import atexit

    main_module = sys.modules.get("__main__")
    spec = getattr(main_module, "__spec__", None)
    script = getattr(main_module, "__file__", None)
    program = (getattr(spec, "name", None) == "dynamo_schema.__main__"
               or (spec is None and isinstance(script, str) and bool(sys.argv) and script == sys.argv[0]))
    threading = sys.modules.get("threading")
    return (program and sys.gettrace() is None and sys.getprofile() is None and not sys.flags.inspect
            and (threading is None or threading.active_count() == 1) and hasattr(atexit, "_run_exitfuncs"))


def _silence_stdout(stdout: TextIO) -> None:
    """After a broken pipe, point the real stdout at /dev/null so the interpreter's final flush is quiet."""
    import os

    if stdout is not sys.stdout:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover
        pass
