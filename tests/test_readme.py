"""The README's code blocks are run, so the README cannot drift from what the tool does.

* every ``python -m dynamo_schema ...`` line of a ``sh`` block runs (in a scratch copy of ``examples/``):
  exit 0, or 1 when it reads one of the bundled ``rejected-*`` examples; never a traceback;
* the ``text`` transcript (``$ command`` lines followed by their output) is replayed and compared line for line,
  ``$ echo $?`` against the previous exit code;
* every ``python`` block is executed;
* the pre-commit snippet names a hook that ``.pre-commit-hooks.yaml`` defines;
* the test command shown is the one ``.ci/run`` runs.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```$", README, flags=re.M | re.S)


def _blocks(lang: str) -> list[str]:
    return [body for kind, body in BLOCKS if kind == lang]


def _commands() -> list[list[str]]:
    out = []
    for body in _blocks("sh"):
        for line in body.splitlines():
            for part in line.split("&&"):
                argv = shlex.split(part, comments=True)
                if argv[:3] == ["python", "-m", "dynamo_schema"]:
                    out.append(argv[3:])
    return out


COMMANDS = _commands()


@pytest.fixture()
def scratch(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-m", "dynamo_schema", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=300, check=False)


def test_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 10
    assert ["render", "--target", "kubernetes", "examples/vllm-disagg.yaml"] in COMMANDS


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a)[:60] for a in COMMANDS])
def test_readme_command_runs(args: list[str], scratch: Path) -> None:
    proc = _run(args, scratch)
    reads_rejected = any(a.rstrip("/") == "examples" or "rejected-" in a for a in args)
    assert proc.returncode == (1 if reads_rejected else 0), proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.stdout.strip(), "the command printed nothing"


def test_readme_transcript_is_what_the_tool_prints() -> None:
    (body,) = [b for b in _blocks("text") if b.startswith("$ ")]
    steps: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    last_rc = None
    for command, expected in steps:
        if command == "echo $?":
            assert expected == [str(last_rc)]
            continue
        argv = shlex.split(command)
        assert argv[:3] == ["python", "-m", "dynamo_schema"]
        proc = _run(argv[3:], ROOT)
        last_rc = proc.returncode
        assert proc.stdout.splitlines() == expected, proc.stdout + proc.stderr


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_readme_python_block_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_blocks("python")[index], f"README.md python block {index}", "exec"), {"__name__": "readme"})
    assert out.getvalue().strip()


def test_readme_precommit_snippet_names_a_real_hook() -> None:
    (snippet,) = [b for b in _blocks("yaml") if "hooks:" in b]
    ids = {h["id"] for entry in yaml.safe_load(snippet) for h in entry["hooks"]}
    defined = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert ids and ids <= defined


def test_ci_runs_the_readme_test_command() -> None:
    shown = [line for body in _blocks("sh") for line in body.splitlines() if "pytest" in line]
    assert len(shown) == 1
    install, test = (shlex.split(part) for part in shown[0].split("&&"))
    ci = [shlex.split(line, comments=True) for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test in ci
    ci_install = next(argv for argv in ci if argv[:4] == ["python", "-m", "pip", "install"])
    assert [a for a in ci_install if a not in ("--disable-pip-version-check", "-q")] == install
