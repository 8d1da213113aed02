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
