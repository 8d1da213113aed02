"""Developer report over the operator-verified cases (tests/oracles/_operator_cases.py).

    python tools/operator_cases.py                 counts per aspect, differing cases by knownDifferences id
    python tools/operator_cases.py -d 0139 1036    the differences of the cases whose names contain these
    python tools/operator_cases.py --allow-list    rewrite tests/oracles/operator_cases_allowed.yaml from the
                                                   current differences (reasons kept; new ones UNEXPLAINED)
"""

from __future__ import annotations

import argparse
import collections
import difflib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from tests.oracles import _operator_cases as oc  # noqa: E402

ALLOWED = ROOT / "tests" / "oracles" / "operator_cases_allowed.yaml"


def _dump(value: Any) -> list[str]:
    text = value if isinstance(value, str) else yaml.safe_dump(value, sort_keys=False, width=160)
    return text.splitlines(keepends=True)


def _diff(aspect: str, want: Any, got: Any) -> None:
    if aspect == "objects" and isinstance(want, list) and isinstance(got, list):
        w = {(o["kind"], o["metadata"]["name"]): o for o in want}
        g = {(o["kind"], o["metadata"]["name"]): o for o in got}
        for key in sorted(set(w) | set(g)):
            if key not in g:
                print(f"  missing object {key}")
            elif key not in w:
                print(f"  extra object {key}")
            elif w[key] != g[key]:
                print(f"  object {key}:")
                sys.stdout.writelines(difflib.unified_diff(_dump(w[key]), _dump(g[key]), "operator", "ours", n=2))
        return
    if isinstance(want, (dict, list)) and isinstance(got, (dict, list)) and aspect != "causes":
        sys.stdout.writelines(difflib.unified_diff(_dump(want), _dump(got), "operator", "ours", n=2))
        return
    print("  operator:", want)
    print("  ours:    ", got)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-d", "--diff", nargs="+", metavar="NAME")
    parser.add_argument("--allow-list", action="store_true")
    parser.add_argument("--goldens", action="store_true", help="the project-goldens cases instead")
    args = parser.parse_args()
    files = oc.case_files(oc.GOLDENS_DIR if args.goldens else oc.CASES_DIR)
    if args.diff:
        files = [f for f in files if any(n in f.name for n in args.diff)]
    counts: collections.Counter[tuple[str, bool]] = collections.Counter()
    by_id: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    differing: dict[str, list[str]] = {}
    for path, case, outcome in oc.iter_outcomes(files):
        about = case.get("about") or {}
        for aspect, ok in outcome.agree.items():
            counts[(aspect, ok)] += 1
            if not ok:
                for kid in about.get("knownDifferences") or ["<none>"]:
                    by_id[aspect][kid] += 1
        if outcome.differing:
            differing[path.name] = outcome.differing
        if args.diff and outcome.differing:
            print(f"== {path.name} {case.get('settings')} {about.get('knownDifferences')}")
            for aspect in outcome.differing:
                print(f"-- {aspect}")
                _diff(aspect, *outcome.detail[aspect])
    for aspect in oc.ASPECTS:
        ok, bad = counts[(aspect, True)], counts[(aspect, False)]
        print(f"{aspect:10} agree {ok:5}  differ {bad:4}  {dict(by_id[aspect].most_common())}")
    if args.allow_list:
        old = yaml.safe_load(ALLOWED.read_text(encoding="utf-8")) or {}
        new = {name: {a: (old.get(name) or {}).get(a, "UNEXPLAINED") for a in aspects}
               for name, aspects in sorted(differing.items())}
        head = "".join(line for line in ALLOWED.read_text(encoding="utf-8").splitlines(keepends=True)
                       if line.startswith("#"))
        ALLOWED.write_text(head + (yaml.safe_dump(new, sort_keys=True, width=110) if new else "{}\n"),
                           encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
