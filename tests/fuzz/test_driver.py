"""The class tests' memory figure is the driver's own peak, not its parent's.

Linux carries a process's ``ru_maxrss`` over from its parent across fork and exec, so a driver started
from a large pytest process reported the parent's peak (CI: 504 MB for drivers of ~15 MB, eleven class
tests failed on their 500 MB bound). Here a parent of ~300 MB starts the driver, which must report its own
peak; and a driver that allocates ~300 MB itself must still show it, so the bound keeps catching a blow-up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import json, subprocess, sys
block = bytearray(300 << 20)
for i in range(0, len(block), 4096):
    block[i] = 1  # resident, not only reserved
argv = sys.argv[1]
out = subprocess.run([sys.executable, "-c", argv], capture_output=True, text=True, check=True).stdout
print(out.strip())
"""

CHILD = """
import json, sys
from tests.fuzz._driver import _peak_mb
grow = {grow}
if grow:
    block = bytearray(300 << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    del block
print(json.dumps(_peak_mb()))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the inherited peak is Linux's behaviour")
def test_the_driver_reports_its_own_peak() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    figures = []
    for grow in (False, True):
        proc = subprocess.run([sys.executable, "-c", PARENT, CHILD.format(grow=grow)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120, check=True)
        figures.append(json.loads(proc.stdout))
    small, grown = figures
    assert small < 150, small  # ~15 MB: not the parent's ~300 MB
    assert grown > 300, grown  # its own 300 MB block
