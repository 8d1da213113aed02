"""How a command-line process ends (``_cli._main.run``, ``exit_now``; D65): the exit code, the ``atexit``
functions and every byte of the output as the interpreter's exit gives them, without its teardown; the
normal exit where the quick one could change anything; the collector's thresholds while a command runs."""

from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from dynamo_schema._cli import _main
from dynamo_schema._cli._main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-disagg.yaml"
REJECTED = ROOT / "examples" / "rejected-admission.yaml"


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


# An object whose finaliser prints runs at the interpreter's teardown only (it is alive until then).
_PRELUDE = """\
import atexit, sys
class Late:
    def __del__(self):
        sys.stdout.write("teardown\\n")
late = Late()
atexit.register(lambda: sys.stdout.write("atexit\\n"))
"""


def _script(tmp_path: Path, body: str) -> Path:
    """A program file run as the process's program, as the ``dynamo-schema`` console script is."""
    path = tmp_path / "dynamo-schema"
    path.write_text(_PRELUDE + "from dynamo_schema._cli._main import run\n" + textwrap.dedent(body))
    return path


def _program(tmp_path: Path, *args: str, body: str = "run()\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(_script(tmp_path, body)), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_the_program_keeps_its_exit_code_output_and_atexit_and_skips_the_teardown(tmp_path: Path) -> None:
    proc = _program(tmp_path, "validate", str(REJECTED))
    assert proc.returncode == 1, proc.stderr
    out, err = io.StringIO(), io.StringIO()  # the same findings as an in-process main() writes
    assert main(["validate", str(REJECTED)], stdout=out, stderr=err) == 1
    assert proc.stdout == out.getvalue() + "atexit\n" and "teardown" not in proc.stdout


def test_python_m_skips_the_teardown(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(_PRELUDE)  # alive in a module until the teardown
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", str(EXAMPLE)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env=env)
    assert (proc.returncode, proc.stdout) == (0, "atexit\n"), proc.stderr
    plain = subprocess.run([sys.executable, "-c", "pass"], capture_output=True, text=True, env=env, timeout=60)
    assert plain.stdout == "atexit\nteardown\n"  # the same set-up with the interpreter's exit


def test_every_byte_of_a_long_output_reaches_the_pipe(tmp_path: Path) -> None:
    files = []
    for i in range(150):
        for src in (EXAMPLE, REJECTED):
            files.append(str(tmp_path / f"{src.stem}-{i}.yaml"))
            Path(files[-1]).write_text(src.read_text())
    proc = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", "-o", "json", *files],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    out = io.StringIO()
    assert main(["validate", "-o", "json", *files], stdout=out, stderr=io.StringIO()) == proc.returncode == 1
    assert len(proc.stdout) > 65536 and proc.stdout == out.getvalue()
    assert len(json.loads(proc.stdout)["resources"]) >= 300


def test_usage_errors_and_success_keep_their_codes(tmp_path: Path) -> None:
    assert _program(tmp_path, "validate", "--no-such-option").returncode == 2
    ok = _program(tmp_path, "validate", str(EXAMPLE))
    assert (ok.returncode, ok.stdout) == (0, "atexit\n"), ok.stderr


def test_another_thread_alive_gets_the_normal_exit(tmp_path: Path) -> None:
    proc = _program(tmp_path, "--version", body="""\
        import threading, time
        def later():
            time.sleep(0.3)
            sys.stdout.write("thread done\\n")
        threading.Thread(target=later).start()
        run()
        """)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "thread done" in lines and "atexit" in lines and "teardown" in lines  # joined, then the teardown


def test_a_caller_that_runs_run_itself_gets_the_normal_exit() -> None:
    proc = _python(_PRELUDE + """\
from dynamo_schema._cli._main import run
sys.argv = ["dynamo-schema", "--version"]
try:
    run()
except SystemExit as exc:
    sys.stdout.write(f"caught {exc.code}\\n")
""")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-3:] == ["caught 0", "atexit", "teardown"]


def test_a_profiler_gets_its_results(tmp_path: Path) -> None:
    script = _script(tmp_path, "run()\n")
    proc = subprocess.run([sys.executable, "-m", "cProfile", str(script), "--version"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "function calls" in proc.stdout and "teardown" in proc.stdout  # the profiler printed, after the end


def test_a_stream_that_fails_to_flush_gets_the_normal_exit(tmp_path: Path) -> None:
    proc = _program(tmp_path, body="""\
        from dynamo_schema._cli._main import exit_now
        class Full:
            def write(self, s): return len(s)
            def flush(self): raise OSError(28, "No space left on device")
        sys.stdout = Full()
        exit_now(3)
        """)
    # the interpreter's own exit: it reports the failed flush of sys.stdout at its end (status 120)
    assert proc.returncode == 120 and "No space left on device" in proc.stderr


def test_main_restores_the_collector_and_a_command_runs_with_the_higher_threshold(monkeypatch: object) -> None:
    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    real = _main.COMMANDS["validate"]

    def spy(ns: object, stdout: object, stderr: object) -> int:
        seen.append(gc.get_threshold())
        return real(ns, stdout, stderr)  # type: ignore[arg-type]

    _main.COMMANDS["validate"] = spy
    try:
        assert main(["validate", str(EXAMPLE)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    finally:
        _main.COMMANDS["validate"] = real
    assert seen == [(_main.COMMAND_GC_THRESHOLD, before[1], before[2])]
    assert gc.get_threshold() == before


def test_the_collector_thresholds_put_back_for_lsp_and_kept_at_the_end_of_a_process() -> None:
    before = gc.get_threshold()
    try:
        with _main._collect_less(restore_after=True) as restore:
            assert gc.get_threshold()[0] == _main.COMMAND_GC_THRESHOLD
            restore()  # what the lsp command gets: the thresholds as they were
            assert gc.get_threshold() == before
        assert gc.get_threshold() == before
        with _main._collect_less(restore_after=False):
            pass
        assert gc.get_threshold()[0] == _main.COMMAND_GC_THRESHOLD  # run(): the process ends next
    finally:
        gc.set_threshold(*before)


def test_the_console_script_skips_the_teardown(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "dynamo-schema"
    if not script.exists():  # an environment without the installed package's scripts (a bare checkout)
        import pytest

        pytest.skip("the dynamo-schema console script is not installed next to this Python")
    (tmp_path / "sitecustomize.py").write_text(_PRELUDE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "atexit" and "teardown" not in proc.stdout
