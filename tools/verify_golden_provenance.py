"""Check the upstream sources cited by golden/*/provenance.yaml against a git clone of ai-dynamo/dynamo.

    python tools/verify_golden_provenance.py /path/to/dynamo.git [--rev 2a6da14c]

Provenance files quote no upstream code (they cite a file and a symbol and state the fact in our own
words, golden/README.md). For every fact whose source is at the reference revision this checks that the
cited file exists at that revision and that the symbol's leading identifier (``TestFoo`` of
``TestFoo "row name"``, ``GenerateComponentIngress`` of ``graph.go GenerateComponentIngress``) occurs in
it. Sources marked ``revision: newer`` cannot be checked against the reference clone and are counted.
Operator-verified goldens cite no sources (tests/render/test_project_goldens.py checks them). The test
suite cannot run this (no upstream clone at test time); run it when a provenance file changes. Exit
status 1 when a file or symbol is not found.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import yaml

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def leading_identifier(symbol: str) -> str | None:
    """The first Go-looking identifier of a symbol text (a trailing ``.go`` file name is skipped)."""
    for m in _IDENT.finditer(symbol):
        word = m.group(0).rstrip(".")
        if not word.endswith(".go"):
            return word.split(".")[-1]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("--rev", default="main", help="the commit of the reference revision (2a6da14c)")
    args = parser.parse_args(argv)
    cache: dict[str, str | None] = {}
    bad = checked = newer = 0
    for path in sorted(GOLDEN.glob("*/provenance.yaml")):
        prov = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for fact in (prov.get("facts") or []):
            src = fact.get("source") or {}
            if "golden" in src:
                continue
            if "quote" in src:
                print(f"{path.parent.name}: a source quotes upstream code; cite the file and symbol instead")
                bad += 1
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
            ident = leading_identifier(str(src.get("symbol") or ""))
            checked += 1
            if ident is None or ident not in text:
                print(f"{path.parent.name}: symbol {src.get('symbol')!r} not found in {file}")
                bad += 1
    print(f"{checked} sources checked, {bad} problems, {newer} facts cite newer-than-reference code")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
