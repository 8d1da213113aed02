"""List the render unit-test functions and their table rows of the operator at the reference revision.

Dev tool (not used at run time): reads the Go test files from a git mirror of ai-dynamo/dynamo (or its
fork wxsms/dynamo, main = 2a6da14c) and prints, per file, every ``func TestXxx`` with the names of its
table rows (``name: "..."`` / ``desc: "..."`` fields of the table literal, or ``"row": {`` map keys, or
``t.Run("...")`` subtests; a function without any counts as one row named after itself).
The result seeds ``tests/render/upstream_cases/INDEX.json``.

    python tools/upstream_render_tests.py index /work/.mirror/wxsms+dynamo/repo main > /tmp/index.json
    python tools/upstream_render_tests.py cases DUMP_DIR tests/render/upstream_cases MIRROR main
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

FILES = [
    "deploy/operator/internal/dynamo/graph_test.go",
    "deploy/operator/internal/dynamo/backend_vllm_test.go",
    "deploy/operator/internal/dynamo/backend_sglang_test.go",
    "deploy/operator/internal/dynamo/backend_trtllm_test.go",
    "deploy/operator/internal/dynamo/component_planner_test.go",
    "deploy/operator/internal/dynamo/grove_test.go",
    "deploy/operator/internal/dynamo/hash_test.go",
    "deploy/operator/internal/gms/gms_test.go",
    "deploy/operator/internal/controller/dynamocomponentdeployment_controller_test.go",
]

FUNC = re.compile(r"^func (Test\w+)\(t \*testing\.T\) \{", re.M)
ROW = re.compile(r'^\t\t\t(?:name|desc|description|testName):\s+"((?:[^"\\]|\\.)*)",?\s*$', re.M)
MAPROW = re.compile(r'^\t\t"((?:[^"\\]|\\.)*)":\s*\{\s*$', re.M)
RUN = re.compile(r'^\t+t\.Run\("((?:[^"\\]|\\.)*)"', re.M)


def functions(text: str) -> list[tuple[str, str]]:
    starts = [(m.group(1), m.start()) for m in FUNC.finditer(text)]
    out = []
    for i, (name, pos) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(text)
        body = text[pos:end]
        nxt = re.search(r"^\}\s*$", body, re.M)
        out.append((name, body[: nxt.end()] if nxt else body))
    return out


def rows(body: str) -> list[str]:
    for rx in (ROW, MAPROW, RUN):
        found = [json.loads(f'"{m.group(1)}"') for m in rx.finditer(body)]
        if found:
            return found
    return []


FILE_OF_TEST: dict[str, str] = {}


def write_cases(dump_dir: str, out_dir: str, repo: str, rev: str) -> None:
    """One JSON file per Go test file: ``{"source", "cases": [{"test", "row", "data"}]}``."""
    import glob
    import os

    for path in FILES:
        text = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True, text=True,
                              check=True).stdout
        for name, _ in functions(text):
            FILE_OF_TEST[name] = path
    per_file: dict[str, list] = {}
    for fn in sorted(glob.glob(os.path.join(dump_dir, "*.jsonl"))):
        for line in open(fn, encoding="utf-8"):
            rec = json.loads(line)
            test, _, row = rec["test"].partition("/")
            if test not in FILE_OF_TEST:
                continue
            per_file.setdefault(FILE_OF_TEST[test], []).append({"test": test, "row": row, "data": rec["row"]})
    for path, cases in per_file.items():
        stem = path.rsplit("/", 1)[1].removesuffix("_test.go")
        body = {"source": f"ai-dynamo/dynamo@2a6da14c {path}", "cases": cases}
        with open(os.path.join(out_dir, stem + ".json"), "w", encoding="utf-8") as f:
            json.dump(body, f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")


def main() -> None:
    if sys.argv[1] == "cases":
        write_cases(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
        return
    _, repo, rev = sys.argv[1:4]
    index = {}
    for path in FILES:
        text = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True, text=True,
                              check=True).stdout
        index[path] = {name: rows(body) for name, body in functions(text)}
    json.dump(index, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
