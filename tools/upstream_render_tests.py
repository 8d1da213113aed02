"""List the render unit-test functions and their table rows of the operator at a revision.

Dev tool (not used at run time, runs nothing of upstream): reads the Go test files from a git mirror of
ai-dynamo/dynamo (or its fork wxsms/dynamo, main = 2a6da14c) and prints, per file, every ``func TestXxx``
with the names of its table rows (``name: "..."`` / ``desc: "..."`` fields of the table literal, or
``"row": {`` map keys, or ``t.Run("...")`` subtests; a function without any counts as one row named after
itself), as JSON. Compare it with the function listing of the reference rows' ``INDEX.json``
(docs/upstream-render-tests.md) after a revision change.

    python tools/upstream_render_tests.py /work/.mirror/wxsms+dynamo/repo main > /tmp/index.json
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


def main() -> None:
    repo, rev = sys.argv[1:3]
    index = {}
    for path in FILES:
        text = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True, text=True,
                              check=True).stdout
        index[path] = {name: rows(body) for name, body in functions(text)}
    json.dump(index, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
