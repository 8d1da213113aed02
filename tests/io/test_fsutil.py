"""Atomic writes into an output folder (``_core/_fsutil.py``: ``render -o``, ``schema --out``)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dynamo_schema._core._fsutil import MANIFEST, UnsafePathError, atomic_write, replace_output


def test_atomic_write_creates_parents_and_writes_into_existing_folders(tmp_path: Path) -> None:
    a = atomic_write(tmp_path, "x/y/a.yaml", "a: 1\n")  # parents created
    b = atomic_write(tmp_path, "x/y/b.yaml", "b: 2\n")  # the folder exists now: no error
    again = atomic_write(tmp_path, "x/y/a.yaml", "a: 3\n")  # replaced in place
    assert a == again == (tmp_path / "x/y/a.yaml").resolve() and b == (tmp_path / "x/y/b.yaml").resolve()
    assert a.read_text() == "a: 3\n" and b.read_text() == "b: 2\n"
    assert sorted(p.name for p in (tmp_path / "x/y").iterdir()) == ["a.yaml", "b.yaml"]  # no temporary left


def test_atomic_write_gives_the_mode_open_would(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = atomic_write(tmp_path, "m.yaml", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # 0666 less the umask, not mkstemp's 0600


def test_atomic_write_refuses_a_symlink_out(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "link").symlink_to(tmp_path)
    with pytest.raises(UnsafePathError, match=r"through a symbolic link"):
        atomic_write(out, "link/escape.yaml", "x")


def test_replace_output_removes_only_what_the_previous_run_recorded(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("kept")
    replace_output(tmp_path, [("a.yaml", "a"), ("b.yaml", "b")])
    replace_output(tmp_path, [("a.yaml", "a2")])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([MANIFEST, "a.yaml", "mine.txt"])
    recorded = [ln for ln in (tmp_path / MANIFEST).read_text().splitlines() if not ln.startswith("#")]
    assert recorded == ["a.yaml"] and (tmp_path / "a.yaml").read_text() == "a2"


def test_replace_output_removes_a_previous_file_whatever_its_name_sorts_as(tmp_path: Path) -> None:
    # mutant 7ff30eab8a8d: only the record itself is kept back, not every name sorting before it
    replace_output(tmp_path, [("-first.txt", "a"), ("+plus.txt", "b"), ("z.txt", "c")])
    replace_output(tmp_path, [("z.txt", "d")])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([MANIFEST, "z.txt"])
    assert (tmp_path / MANIFEST).read_text().splitlines()[-1] == "z.txt"
