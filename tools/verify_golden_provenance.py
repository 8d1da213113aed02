"""Check the upstream quotes of golden/*/provenance.yaml against a git clone of ai-dynamo/dynamo.

    python tools/verify_golden_provenance.py /path/to/dynamo.git [--rev 2a6da14c]

Every fact whose source is at the reference revision and carries a ``quote`` must find that text,
verbatim, in ``git show <rev>:<source.file>``. Sources marked ``revision: newer`` (code newer than the
reference revision, read in the search corpus) cannot be checked against the reference clone and are
listed. The test suite cannot run this (no upstream clone at test time); run it when a provenance file
changes. Exit status 1 when a quote is not found.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import yaml

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("--rev", default="main", help="the commit of the reference revision (2a6da14c)")
    args = parser.parse_args(argv)
    cache: dict[str, str | None] = {}
    bad = checked = newer = 0
    for path in sorted(GOLDEN.glob("*/provenance.yaml")):
        prov = yaml.safe_load(path.read_text(encoding="utf-8"))
        for fact in prov.get("facts") or []:
            src = fact.get("source") or {}
            if "golden" in src:
                continue
            if src.get("revision") == "newer":
                newer += 1
                continue
            file = src["file"]
            if file not in cache:
                proc = subprocess.run(["git", "-C", args.git_dir, "show", f"{args.rev}:{file}"],
                                      capture_output=True, text=True)
                cache[file] = proc.stdout if proc.returncode == 0 else None
            text = cache[file]
            if text is None:
                print(f"{path.parent.name}: {file} does not exist at {args.rev}")
                bad += 1
                continue
            quote = src.get("quote")
            if quote is None:
                continue
            checked += 1
            if quote not in text:
                print(f"{path.parent.name}: quote not found in {file}: {quote!r}")
                bad += 1
    print(f"{checked} quotes checked, {bad} problems, {newer} facts cite newer-than-reference code")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
