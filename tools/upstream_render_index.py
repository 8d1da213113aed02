"""Refresh tests/render/upstream_cases/INDEX.json (dev tool).

Reads the function listing of ``tools/upstream_render_tests.py index`` (a JSON file), the case files and the
runner's adapters; keeps the status, reason and failing rows already recorded for each function.

    python tools/upstream_render_tests.py index MIRROR main > /tmp/index.json
    python tools/upstream_render_index.py /tmp/index.json
"""

from __future__ import annotations

import glob
import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "render" / "upstream_cases"


def main() -> None:
    sys.path.insert(0, str(ROOT))
    listing = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    rows: dict[str, list[str]] = {}
    manual: set[str] = set()
    for path in sorted(glob.glob(str(CASES / "*.json"))):
        if path.endswith("INDEX.json"):
            continue
        for case in json.loads(Path(path).read_text(encoding="utf-8"))["cases"]:
            rows.setdefault(case["test"], []).append(case["row"])
            if path.endswith("_manual.json"):
                manual.add(case["test"])
    index_path = CASES / "INDEX.json"
    old = json.loads(index_path.read_text(encoding="utf-8")) if index_path.exists() else {}
    adapters = set(importlib.import_module("tests.render.test_upstream_cases").ADAPTERS)
    out: dict[str, dict[str, dict]] = {}
    for file, funcs in listing.items():
        out[file] = {}
        for name, upstream_rows in funcs.items():
            prev = old.get(file, {}).get(name, {})
            entry: dict = {"rows": rows.get(name, [])}
            if name in adapters:
                entry["status"] = "ported"
                if prev.get("failing"):
                    entry["failing"] = prev["failing"]
            else:
                status = prev.get("status", "not_ported")
                entry["status"] = "not_ported" if status == "ported" else status
                entry["reason"] = prev.get("reason", "in scope, not ported yet")
            if not entry["rows"] and upstream_rows:
                entry["upstream_rows"] = upstream_rows
            if name in manual and not upstream_rows:
                entry["unit"] = "function"
            out[file][name] = entry
    index_path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
