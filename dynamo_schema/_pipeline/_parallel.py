"""Bulk runs of ``validate``: many files, optionally over ``-j N`` worker processes.

Results always come back in input order. What makes ``-j 2`` scale (docs/decisions.md, performance; D64):

* the parent warms up before the workers start: it imports the validation stack and checks the first
  file itself, so that every forked worker inherits the imported modules and the compiled schemas
  instead of importing and compiling them again;
* on Linux the parent is one of the ``N`` processes: it forks ``N - 1`` children and takes chunks of
  files itself, from the same pipe of chunk numbers (no executor, no threads, no import of
  ``multiprocessing``); elsewhere a ``ProcessPoolExecutor`` of ``N`` workers;
* files go in chunks (one pickled message per chunk of results, instead of one per file);
* the objects that exist at that point are moved out of the cyclic garbage collector's sight
  (``gc.freeze``: no copy-on-write of inherited pages by the collector) and the collector runs less
  often (the documents are trees: reference counting frees them; the collector only finds cycles).
"""

from __future__ import annotations

import struct
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from .._core._stdio import flush_standard_streams

#: The collector's first-generation threshold during bulk runs (CPython's default is 700).
GC_THRESHOLD = 10_000
#: Room asked for in the chunk pipe: this many chunk numbers (four bytes each; a pipe holds 64 KiB).
_MAX_CHUNKS = 16_000
#: A child's message header: the pickle's length and the chunk's number.
_HEADER = struct.Struct("=QI")


@contextmanager
def bulk_gc() -> Iterator[None]:
    """Fewer cyclic-garbage collections while a bulk run lasts; the collector's state is restored."""
    import gc

    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(GC_THRESHOLD, before[0]), before[1], before[2])  # never lower than the command's (D65)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def chunk_size(items: int, jobs: int) -> int:
    """Files per message: about eight chunks per worker (load balance), at most 32 files."""
    return max(1, min(32, items // (jobs * 8)))


def chunk_bounds(items: int, jobs: int, most: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of each chunk: :func:`chunk_size` files, larger when that would make more than
    ``most`` chunks."""
    size = max(chunk_size(items, jobs), -(-items // most))
    return [(lo, min(lo + size, items)) for lo in range(0, items, size)]


def iter_ordered(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> Iterator[Any]:
    """``fn(x)`` for every item over ``jobs`` processes, yielded in input order as each result (and every
    one before it) is done; the first item runs in this process (the warm-up the workers inherit).

    An exception from ``fn`` propagates as in the sequential loop: the one of the earliest item."""
    if not items:
        return
    yield fn(items[0])  # warm-up: imports, compiled schemas, regular expressions
    rest = items[1:]
    if not rest:
        return
    if sys.platform.startswith("linux"):
        with bulk_gc():
            yield from _forked(fn, rest, jobs)
        return
    from concurrent.futures import ProcessPoolExecutor

    with bulk_gc(), ProcessPoolExecutor(max_workers=min(jobs, len(rest))) as pool:
        yield from pool.map(fn, rest, chunksize=chunk_size(len(rest), jobs))


class _RemoteTraceback(Exception):
    """The traceback of an error raised in a ``-j`` child (the ``__cause__`` of the error raised here)."""

    def __str__(self) -> str:
        return str(self.args[0])


def _forked(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> Iterator[Any]:
    """:func:`iter_ordered` on Linux: this process and ``jobs - 1`` forked children share the chunks.

    Every chunk's number is in one pipe before the children start; each process (this one too) takes the
    next chunk by reading four bytes (a pipe holds whole records here: they were all written before any
    read), runs it and, in a child, sends the pickled results back on the child's own pipe. This process
    reads the children's pipes between its own files, and yields each chunk's results once it and every
    chunk before it are in. No executor, no threads: the children inherit everything at the fork."""
    if not flush_standard_streams():  # what is buffered now would be written again by every child: no children
        yield from map(fn, items)
        return
    import fcntl
    import os
    import select
    import signal

    task_r, task_w = os.pipe()
    try:  # room for every chunk's number, so that writing them can never block
        capacity = fcntl.fcntl(task_w, fcntl.F_GETPIPE_SZ)
        if capacity < 4 * _MAX_CHUNKS:
            capacity = fcntl.fcntl(task_w, fcntl.F_SETPIPE_SZ, 4 * _MAX_CHUNKS)
    except OSError:
        capacity = 4096  # PIPE_BUF, what any pipe holds
    bounds = chunk_bounds(len(items), jobs, capacity // 4)
    os.write(task_w, struct.pack(f"={len(bounds)}I", *range(len(bounds))))
    children: dict[int, int] = {}  # a child's result pipe (read end) -> its pid
    done: dict[int, tuple[list[Any], BaseException | None]] = {}  # chunk -> (results, the error that ended it)
    taken = 0  # chunks yielded (and dropped from ``done``)
    res_w = -1
    try:
        for _ in range(min(jobs, len(bounds)) - 1):
            res_r, res_w = os.pipe()
            try:
                pid = os.fork()
            except BaseException:
                os.close(res_r)
                raise
            if pid == 0:
                os.close(res_r)
                os.close(task_w)
                for fd in children:
                    os.close(fd)
                _child(fn, items, bounds, task_r, res_w)  # never returns
            children[res_r] = pid
            os.close(res_w)
            res_w = -1
        os.close(task_w)
        task_w = -1
        buffers = {fd: bytearray() for fd in children}
        poller = select.poll()
        for fd in buffers:
            poller.register(fd, select.POLLIN)

        def receive(timeout_ms: int | None) -> None:
            for fd, _event in poller.poll(timeout_ms):
                data = os.read(fd, 1 << 20)
                if not data:  # the child has left
                    poller.unregister(fd)
                    del buffers[fd]
                    continue
                buf = buffers[fd]
                buf += data
                while len(buf) >= _HEADER.size:
                    n, index = _HEADER.unpack_from(buf)
                    if len(buf) < _HEADER.size + n:
                        break
                    frame = bytes(memoryview(buf)[_HEADER.size:_HEADER.size + n])
                    del buf[:_HEADER.size + n]
                    done[index] = _read_frame(frame)

        mine = True  # chunks are left for this process to take
        for index in range(len(bounds)):
            while index not in done:
                if mine:
                    record = os.read(task_r, 4)
                    if len(record) == 4:
                        own = struct.unpack("=I", record)[0]
                        results: list[Any] = []
                        error: BaseException | None = None
                        for item in items[slice(*bounds[own])]:
                            try:
                                results.append(fn(item))
                            except Exception as exc:  # noqa: BLE001 - as the sequential loop: raised after the results before it
                                error = exc
                                break
                            if buffers:
                                receive(0)  # keep the children's pipes from filling up
                        done[own] = (results, error)
                        continue
                    mine = False
                if not buffers:
                    raise RuntimeError("a -j worker process ended before sending all its results")
                receive(None)
            results, error = done.pop(index)
            taken += 1
            yield from results
            if error is not None:
                raise error
    finally:
        for fd in (task_r, task_w, res_w):
            if fd >= 0:
                os.close(fd)
        for fd, pid in children.items():
            os.close(fd)
            if len(done) + taken < len(bounds):  # an error or an abandoned run: the children stop now
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:  # already reaped (SIGCHLD ignored by the embedding program)
                pass


def _read_frame(frame: bytes) -> tuple[list[Any], BaseException | None]:
    """A child's message: its results, and the error that ended the chunk (with the child's traceback as
    its cause; a stand-in of the same type name and text when the error itself does not unpickle)."""
    import pickle

    try:
        results, failure = pickle.loads(frame)
    except Exception as exc:  # noqa: BLE001 - a result that does not unpickle here
        return [], RuntimeError(f"the results of a -j worker could not be read: {type(exc).__name__}: {exc}")
    if failure is None:
        return results, None
    blob, name, text, trace = failure
    try:
        error = pickle.loads(blob) if blob else None
    except Exception:  # noqa: BLE001 - an error that pickled but does not unpickle
        error = None
    if not isinstance(error, BaseException):
        error = RuntimeError(f"{name}: {text}")
    error.__cause__ = _RemoteTraceback(trace)
    return results, error


def _child(fn: Callable[[Any], Any], items: Sequence[Any], bounds: list[tuple[int, int]], task_r: int,
           res_w: int) -> None:
    """A forked worker: chunks from ``task_r`` until none is left, each chunk's results (and the error that
    ended it) pickled to ``res_w``; leaves by ``os._exit``, running none of the parent's exit handlers."""
    import os
    import pickle

    status = 0
    try:
        while True:
            record = os.read(task_r, 4)
            if len(record) < 4:
                break
            index = struct.unpack("=I", record)[0]
            results: list[Any] = []
            failure: tuple[bytes, str, str, str] | None = None
            try:
                for item in items[slice(*bounds[index])]:
                    results.append(fn(item))
            except Exception as exc:  # noqa: BLE001 - sent to the parent, which raises it in order
                import traceback

                try:
                    blob = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - an error that does not pickle: its type name and text
                    blob = b""
                failure = (blob, type(exc).__name__, str(exc), "".join(traceback.format_exception(exc)))
            data = pickle.dumps((results, failure), protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(_HEADER.pack(len(data), index) + data)
            while view:
                view = view[os.write(res_w, view):]
    except BaseException:  # noqa: BLE001 - an interrupt, a closed pipe: the parent sees the pipe end early
        status = 1
    finally:
        flush_standard_streams()  # what this child wrote (the parent's buffers were empty at the fork)
        os._exit(status)


def map_ordered(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any]:
    """``[fn(x) for x in items]`` over ``jobs`` processes, in order (see :func:`iter_ordered`)."""
    return list(iter_ordered(fn, items, jobs))


def map_sequential(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """``[fn(x) for x in items]`` (``-j 1``), with the collector tuned when there are many items."""
    if len(items) < 2:
        return [fn(x) for x in items]
    with bulk_gc():
        return [fn(x) for x in items]
