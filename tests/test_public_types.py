"""What a type checker sees of the public API: real types, no ``Any`` where one exists (issue 9).

``dynamo_schema`` resolves its names lazily (``__getattr__``), so every name needs its
``TYPE_CHECKING`` import to come from the module that defines it; through a package's lazy
``__getattr__`` (``_merge``) a name is ``Any`` to mypy.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import dynamo_schema

ROOT = Path(__file__).resolve().parents[1]

# mypy --strict, file by file: the command line, the public facade and the hand-written models
STRICT = ["dynamo_schema/_cli", "dynamo_schema/__init__.py", "dynamo_schema/__main__.py", "dynamo_schema/_api.py",
          "dynamo_schema/models/__init__.py", "dynamo_schema/models/_base.py", "dynamo_schema/models/_lws.py"]


def _mypy(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    return proc.stdout + proc.stderr


@pytest.mark.slow
def test_no_public_name_is_any_to_mypy(tmp_path: Path) -> None:
    names = [n for n in dynamo_schema.__all__ if n != "__version__"]
    probe = tmp_path / "probe_public_types.py"
    probe.write_text("import dynamo_schema\n" + "".join(f"reveal_type(dynamo_schema.{n})\n" for n in names)
                     + "reveal_type(dynamo_schema.merge_overrides({}, {}))\n")
    out = _mypy("--strict", "--no-incremental", str(probe))
    revealed = re.findall(r'probe_public_types\.py:(\d+): note: Revealed type is "(.*)"', out)
    assert len(revealed) == len(names) + 1, out
    for line, text in revealed:
        name = names[int(line) - 2] if int(line) - 2 < len(names) else "merge_overrides(...)"
        assert text != "Any", f"{name} is Any to mypy"
        # a function's parameter or return typed Any where the API has a real type (a class may take
        # Any: ``Document(data)`` holds any JSON value)
        assert name[0].isupper() or not re.search(r"(: Any( =)?[,)])|(-> Any$)", text), f"{name}: {text}"
    assert revealed[-1][1] == "dynamo_schema._merge._override.MergeResult"


@pytest.mark.slow
def test_the_command_line_and_the_facade_are_strict() -> None:
    out = _mypy("--strict", *STRICT)
    mine = [line for line in out.splitlines() if line.startswith(tuple(STRICT)) and ": error:" in line]
    assert mine == [], "\n".join(mine)
