"""The ``lsp`` command: its help, and its advice when the ``lsp`` extra (pygls) is not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


def test_help() -> None:
    out = subprocess.run([sys.executable, "-m", "dynamo_schema", "lsp", "--help"], capture_output=True, text=True,
                         env=ENV, check=False)
    assert out.returncode == 0
    assert "--stdio" in out.stdout
    top = subprocess.run([sys.executable, "-m", "dynamo_schema", "--help"], capture_output=True, text=True,
                         env=ENV, check=False)
    assert "lsp" in top.stdout


def test_without_pygls_the_command_says_how_to_install_it() -> None:
    code = (
        "import io, sys\n"
        "sys.modules['pygls'] = None  # as if the lsp extra were not installed\n"
        "from dynamo_schema._cli._main import main\n"
        "err = io.StringIO()\n"
        "rc = main(['lsp'], stdout=io.StringIO(), stderr=err)\n"
        "print(rc, err.getvalue())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True)
    rc, _, message = out.stdout.partition(" ")
    assert rc == "2"
    assert "pip install 'dynamo-schema[lsp]'" in message


def _frame(message: dict[str, object]) -> bytes:
    import json

    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_a_session_ended_by_shutdown_and_exit_exits_0() -> None:
    """LSP: after ``shutdown`` the ``exit`` notification ends the server with code 0 (the specification's
    "exit" notification); docs/cli.md: exit code 0 is success for every subcommand."""
    import pytest

    pytest.importorskip("pygls")
    session = b"".join(_frame(m) for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                       "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ))
    out = subprocess.run([sys.executable, "-m", "dynamo_schema", "lsp", "--stdio"], input=session,
                         capture_output=True, env=ENV, timeout=120, check=False)
    assert out.returncode == 0, out.stderr.decode(errors="replace")
    assert b'"id": 2' in out.stdout or b'"id":2' in out.stdout  # the shutdown request was answered


def test_an_exit_without_shutdown_exits_1() -> None:
    """LSP specification, "exit" notification: the server exits with code 1 when no shutdown request came
    before it (pygls computes that code, but its stdio loop swallows the SystemExit)."""
    import pytest

    pytest.importorskip("pygls")
    session = b"".join(_frame(m) for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                       "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "exit"},
    ))
    out = subprocess.run([sys.executable, "-m", "dynamo_schema", "lsp", "--stdio"], input=session,
                         capture_output=True, env=ENV, timeout=120, check=False)
    assert out.returncode == 1, out.stderr.decode(errors="replace")
