"""Run CLI invocations in this process and report each one as a JSON line on stdout:
``{"argv", "exit", "stderr", "seconds", "maxrss_mb"}`` (``maxrss_mb``: the process's peak so far: Linux's
``VmHWM``, since ``ru_maxrss`` keeps the parent's peak across fork and exec -- a test run launched from a
pytest of 600 MB reported 600 MB for a driver of 15 MB).

Usage: ``python -m tests.fuzz._driver JSON`` where JSON is a list of argv lists. Used by the class
tests (one process per class, so the peak RSS is that class's) and by the long fuzz run."""

from __future__ import annotations

import io
import json
import resource
import sys
import time
import traceback


def run(argv: list[str]) -> dict[str, object]:
    from dynamo_schema._cli._main import main

    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    try:
        code = main(argv, out, err)
    except BaseException as exc:
        code = -1
        err.write("escaped main: " + "".join(traceback.format_exception_only(type(exc), exc)))
    seconds = time.perf_counter() - start
    rss = _peak_mb()
    return {"argv": argv, "exit": code, "stderr": _clip(err.getvalue()), "stdout": _clip(out.getvalue()),
            "seconds": round(seconds, 3), "maxrss_mb": round(rss, 1)}


def _peak_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _clip(text: str) -> str:
    return text if len(text) <= 4000 else text[:2000] + " ... " + text[-2000:]


def main() -> None:
    for argv in json.loads(sys.argv[1]):
        print(json.dumps(run(argv)), flush=True)


if __name__ == "__main__":
    main()
