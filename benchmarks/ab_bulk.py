"""Before/after CPU of a bulk ``validate`` (not a test): ``python benchmarks/ab_bulk.py BASELINE_DIR
[--files N] [--runs R] [--jobs J]``.

Builds an N-file corpus (``corpus.py``), then runs this checkout's ``validate --summary -j J`` and the
package under BASELINE_DIR (``git archive REV dynamo_schema | tar -x -C DIR``) alternately, R times each
after one warm-up run each (byte code cached as in ``run.py``), and prints the CPU seconds (user +
system, workers included) and the ratio of the medians. Interleaved runs share the neighbours' load,
which separate runs on a shared machine do not.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as R
from corpus import build


def _cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, capture_output=True, env=R._env())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("baseline", type=Path)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ns = ap.parse_args()
    R.BASELINE = ns.baseline.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "corpus"
        build(ns.files, d)
        args = ("validate", "--summary", "-j", str(ns.jobs), str(d))
        ours, base = R._ours(*args), R._ours(*args, baseline=True)
        _cpu(ours), _cpu(base)  # warm-up: byte code, file-system cache
        o, b = [], []
        for _ in range(ns.runs):
            o.append(_cpu(ours))
            b.append(_cpu(base))
    print({"files": ns.files, "jobs": ns.jobs, "ours_cpu_s": [round(x, 3) for x in o],
           "baseline_cpu_s": [round(x, 3) for x in b],
           "cpu_ours_over_baseline": round(statistics.median(o) / statistics.median(b), 3)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
