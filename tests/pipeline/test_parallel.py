"""``validate -j N`` work split (``_pipeline._parallel``): files per message."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._pipeline import _parallel
from dynamo_schema._pipeline._parallel import chunk_size


@pytest.mark.parametrize(("items", "jobs", "want"), [
    (160, 2, 10),  # 160 files / (2 workers * 8 chunks)
    (96, 3, 4),
    (512, 2, 32),  # capped at 32 files a message
    (10_000, 4, 32),
    (15, 2, 1),  # fewer files than chunks: one file a message, never zero
    (1, 8, 1),
])
def test_chunk_size_is_eight_chunks_per_worker_capped_at_32(items: int, jobs: int, want: int) -> None:
    """Chunks: about eight per worker process (load balance), at most 32 files, at least one."""
    assert chunk_size(items, jobs) == want


# --- the forked pool (Linux): this process and jobs - 1 children share the chunks (D64) ---

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the forked pool is Linux's")
PARENT = os.getpid()


def _children() -> set[str]:
    """This process's child processes, zombies included (Linux's /proc)."""
    found: set[str] = set()
    for task in Path("/proc/self/task").iterdir():
        found.update((task / "children").read_text().split())
    return found


def _slow_pid(x: int) -> tuple[int, int]:
    time.sleep(0.002)
    return x * x, os.getpid()


@linux
@pytest.mark.parametrize("jobs", [2, 3])
def test_forked_pool_keeps_input_order_and_the_parent_works_too(jobs: int) -> None:
    out = _parallel.map_ordered(_slow_pid, list(range(200)), jobs)
    assert [v for v, _ in out] == [x * x for x in range(200)]
    pids = {p for _, p in out}
    assert PARENT in pids and len(pids) == jobs  # the parent took chunks, and so did every child


def _fails_at(bad: frozenset[int]) -> Any:
    def fn(x: int) -> int:
        time.sleep(0.001)
        if x in bad:
            raise ValueError(f"bad {x}")
        return x
    return fn


@linux
@pytest.mark.parametrize("bad", [{0}, {1}, {37}, {37, 90}, {119}, {60, 3}])
def test_forked_pool_raises_the_earliest_error_after_every_result_before_it(bad: set[int]) -> None:
    got: list[int] = []
    before = _children()
    with pytest.raises(ValueError, match=f"bad {min(bad)}$"):
        for v in _parallel.iter_ordered(_fails_at(frozenset(bad)), list(range(120)), 2):
            got.append(v)
    assert got == list(range(min(bad)))  # as the sequential loop: every item before the error, in order
    assert _children() == before  # every child reaped (the ones killed after the error too)


def _child_raises_unpicklable(x: int) -> int:
    class Local(Exception):  # a local class does not pickle
        pass

    time.sleep(0.002)
    if x == 50:
        raise Local("no pickle")
    return x


@linux
def test_an_error_that_does_not_pickle_comes_back_as_its_type_and_text() -> None:
    with pytest.raises(Exception, match="no pickle") as info:
        _parallel.map_ordered(_child_raises_unpicklable, list(range(120)), 2)
    assert type(info.value).__name__ == "Local" or str(info.value) == "Local: no pickle"


def _children_die(x: int) -> int:
    if os.getpid() != PARENT:
        os._exit(3)
    time.sleep(0.005)
    return x


@linux
def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    before = _children()
    with pytest.raises(RuntimeError, match="worker process ended"):
        _parallel.map_ordered(_children_die, list(range(60)), 2)
    assert _children() == before


@linux
def test_an_abandoned_run_stops_and_reaps_its_children() -> None:
    before = _children()
    gen = _parallel.iter_ordered(_slow_pid, list(range(400)), 2)
    assert [next(gen)[0] for _ in range(3)] == [0, 1, 4]
    assert len(_children() - before) == 1  # the child is at work
    gen.close()
    assert _children() == before


@linux
def test_output_buffered_before_the_fork_is_written_once(capfd: pytest.CaptureFixture[str]) -> None:
    sys.stdout.write("before-")
    assert [v for v, _ in _parallel.map_ordered(_slow_pid, list(range(40)), 2)] == [x * x for x in range(40)]
    sys.stdout.write("after")
    sys.stdout.flush()
    assert capfd.readouterr().out == "before-after"


class TwoArgs(Exception):
    """Pickles, and does not unpickle: ``__reduce__`` gives ``args`` (one text) to a two-argument class."""

    def __init__(self, what: str, where: int) -> None:
        super().__init__(f"{what} at {where}")


def _fails_unpicklable(x: int) -> int:
    time.sleep(0.001)
    if x == 70:
        raise TwoArgs("broken", x)
    return x


@linux
def test_an_error_that_does_not_unpickle_still_comes_after_every_result_before_it() -> None:
    got: list[int] = []
    with pytest.raises(Exception, match="broken at 70") as info:
        for v in _parallel.iter_ordered(_fails_unpicklable, list(range(120)), 2):
            got.append(v)
    assert got == list(range(70))
    assert type(info.value) is TwoArgs or str(info.value) == "TwoArgs: broken at 70"


def _only_children_fail(x: int) -> int:
    time.sleep(0.002)
    if os.getpid() != PARENT:
        raise ValueError(f"child failed at {x}")
    return x


@linux
def test_an_error_from_a_child_carries_its_traceback() -> None:
    with pytest.raises(ValueError, match="child failed at") as info:
        _parallel.map_ordered(_only_children_fail, list(range(200)), 2)
    cause = info.value.__cause__
    assert type(cause).__name__ == "_RemoteTraceback" and "in _only_children_fail" in str(cause)


def _big(x: int) -> str:
    if os.getpid() == PARENT:
        time.sleep(0.003)  # the parent is slow: the children's results wait in their pipes
    return f"{x}:" + "y" * 200_000


@linux
def test_results_larger_than_a_pipe_arrive_whole_and_in_order() -> None:
    assert [r.partition(":")[0] for r in _parallel.map_ordered(_big, list(range(80)), 3)] == [str(x) for x in range(80)]


class _Unflushable:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        raise BlockingIOError(11, "Resource temporarily unavailable")


@linux
def test_no_children_when_standard_output_cannot_be_flushed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Buffered output a fork would copy into every child (each would write it again): the parent works alone."""
    monkeypatch.setattr(sys, "stdout", _Unflushable())
    out = _parallel.map_ordered(_slow_pid, list(range(30)), 2)
    assert [v for v, _ in out] == [x * x for x in range(30)] and {p for _, p in out} == {PARENT}


@pytest.mark.parametrize(("items", "jobs", "most"), [(1000, 2, 16_000), (999, 2, 10), (7, 3, 100), (1, 2, 1),
                                                     (600_000, 2, 16_000), (33, 2, 2)])
def test_chunk_bounds_cover_every_item_once_in_at_most_most_chunks(items: int, jobs: int, most: int) -> None:
    bounds = _parallel.chunk_bounds(items, jobs, most)
    assert len(bounds) <= most and bounds[0][0] == 0 and bounds[-1][1] == items
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:])) and all(lo < hi for lo, hi in bounds)
    if -(-items // most) <= chunk_size(items, jobs):
        assert all(hi - lo == chunk_size(items, jobs) for lo, hi in bounds[:-1])  # the usual size when it fits


@linux
def test_validate_reaps_its_children_when_the_last_file_is_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``results_by_input`` runs the ``-j`` generator to its end after the last file: the children are reaped
    then, whether or not anything still holds the generator (a runtime that finalises a suspended generator
    late, or never, would otherwise leave them behind)."""
    from dynamo_schema._pipeline import _stream
    from dynamo_schema._pipeline._validate import ValidateOptions
    from dynamo_schema._pipeline._validate_files import FileWork, results_by_input

    for i in range(40):
        (tmp_path / f"f{i:02d}.yaml").write_text(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n")
    held: list[Any] = []
    real = _stream.results_in_order

    def holding(*args: Any) -> Any:
        gen = real(*args)
        held.append(gen)  # kept alive: not finalised when the loop drops it
        return gen

    monkeypatch.setattr(_stream, "results_in_order", holding)
    opts = ValidateOptions()
    work = [FileWork(str(p), opts) for p in sorted(tmp_path.glob("*.yaml"))]
    before = _children()
    names = [name for name, _results in results_by_input(work, 2, [], [], opts)]
    assert names == [w.path for w in work]
    assert held and _children() == before
