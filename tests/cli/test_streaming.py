"""Long runs: results stream in input order as files finish; a progress line only on a terminal outside CI."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._cli import _main as _cli
from dynamo_schema._pipeline import _validate_files
from dynamo_schema._report import ResourceResult


class Recorder(io.StringIO):
    def __init__(self, events: list[str], tty: bool = False) -> None:
        super().__init__()
        self.events, self.tty = events, tty
        self.first: float | None = None

    def write(self, s: str) -> int:
        if self.first is None and s:
            self.first = time.monotonic()
        self.events.append("write")
        return super().write(s)

    def isatty(self) -> bool:
        return self.tty


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    for i in range(2000):
        (tmp_path / f"f{i:04d}.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    return tmp_path


def slow_fake(events: list[str]) -> Any:
    def fake(work: Any) -> list[ResourceResult]:
        path = work.path
        events.append("validate " + Path(path).name)
        time.sleep(0.001)  # 2,000 files: 2 s in all, so a run that waits for the end is late by far
        return [ResourceResult(path, "ConfigMap", Path(path).stem, "v1", "invalid", [], api_version="v1")]
    return fake


def test_first_result_line_within_a_second_on_2000_files(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    monkeypatch.setattr(_validate_files, "validate_file", slow_fake(events))
    out, err = Recorder(events), Recorder([])
    start = time.monotonic()
    rc = _cli.main(["validate", str(corpus)], stdout=out, stderr=err)
    assert rc == 1
    # deterministic: the first line is written before the second file is even started
    assert events[:3] == ["validate f0000.yaml", "write", "validate f0001.yaml"]
    assert out.first is not None and out.first - start < 1.0
    lines = out.getvalue().splitlines()
    assert len(lines) == 2000
    assert lines[0].startswith(str(corpus / "f0000.yaml")) and lines[-1].startswith(str(corpus / "f1999.yaml"))


def test_order_is_input_order_with_a_pool(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"f{i:02d}.yaml").write_text(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\ndata: {i}\n")
    seq, par = io.StringIO(), io.StringIO()
    assert _cli.main(["validate", str(tmp_path)], stdout=seq, stderr=io.StringIO()) == 1
    assert _cli.main(["validate", "-j", "2", str(tmp_path)], stdout=par, stderr=io.StringIO()) == 1
    assert seq.getvalue() == par.getvalue() and seq.getvalue().count("\n") == 12


@pytest.mark.parametrize("tty,ci,expect", [(True, None, True), (False, None, False), (True, "1", False)])
def test_progress_only_on_a_terminal_outside_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tty: bool,
                                                ci: str | None, expect: bool) -> None:
    for i in range(40):
        (tmp_path / f"f{i:02d}.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    events: list[str] = []
    monkeypatch.setattr(_validate_files, "validate_file", slow_fake(events))
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    monkeypatch.delenv("DYNAMO_SCHEMA_NO_PROGRESS", raising=False)
    out, err = Recorder([]), Recorder([], tty=tty)
    _cli.main(["validate", str(tmp_path)], stdout=out, stderr=err)
    assert ("[40/40]" in err.getvalue()) is expect
    assert ("\r" in err.getvalue()) is expect
    if expect:
        assert err.getvalue().endswith("\r")  # the line is erased at the end
    assert "\r" not in out.getvalue()
