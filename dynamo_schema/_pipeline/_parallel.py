"""Bulk runs of ``validate``: many files, optionally over ``-j N`` worker processes.

Results always come back in input order (``Executor.map``). What makes ``-j 2`` scale
(docs/decisions.md, performance):

* the parent warms up before the workers start: it imports the validation stack and checks the first
  file itself, so that with the ``fork`` start method (Linux) every worker inherits the imported
  modules and the compiled schemas instead of importing and compiling them again;
* files are sent in chunks (one pickled message per chunk of files and one per chunk of results,
  instead of one round trip per file);
* the objects that exist at that point are moved out of the cyclic garbage collector's sight
  (``gc.freeze``: no copy-on-write of inherited pages by the collector) and the collector runs less
  often (the documents are trees: reference counting frees them; the collector only finds cycles).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

#: The collector's first-generation threshold during bulk runs (CPython's default is 700).
GC_THRESHOLD = 10_000


@contextmanager
def bulk_gc() -> Iterator[None]:
    """Fewer cyclic-garbage collections while a bulk run lasts; the collector's state is restored."""
    import gc

    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def chunk_size(items: int, jobs: int) -> int:
    """Files per message: about eight chunks per worker (load balance), at most 32 files."""
    return max(1, min(32, items // (jobs * 8)))


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
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = None
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("fork")  # inherit the warm state (default before 3.14)
    with bulk_gc(), ProcessPoolExecutor(max_workers=min(jobs, len(rest)), mp_context=context) as pool:
        yield from pool.map(fn, rest, chunksize=chunk_size(len(rest), jobs))


def map_ordered(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any]:
    """``[fn(x) for x in items]`` over ``jobs`` processes, in order (see :func:`iter_ordered`)."""
    return list(iter_ordered(fn, items, jobs))


def map_sequential(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """``[fn(x) for x in items]`` (``-j 1``), with the collector tuned when there are many items."""
    if len(items) < 2:
        return [fn(x) for x in items]
    with bulk_gc():
        return [fn(x) for x in items]
