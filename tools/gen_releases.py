"""Generate ``dynamo_schema/_data/releases.json``: the operator release that first served each field.

A development-time tool, like tools/gen_models.py. It reads the Dynamo CRDs at earlier operator releases
(``../shared/reference/dynamo/crds-history/X.Y/``, each folder main at the branch point of release X.Y) and
at the reference revision (``../shared/reference/dynamo/crds/``, the development line after the newest
folder), and writes only derived facts: for each kind/version, the field paths (dotted from the resource
root, list items not named, map values ``*``) and the first release whose CRD has them. A path is written
only where its release differs from its parent's (a sub-tree added with its parent says nothing more);
the root (``""``) holds the release that first served the kind/version. The language server's hover reads
it (``dynamo_schema/_lsp/_schemainfo.py``); tests/lsp/test_releases.py keeps it current.

Run: ``python tools/gen_releases.py`` (``--check``: exit 1 when the committed file is stale).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference" / "dynamo"
OUT = ROOT / "dynamo_schema" / "_data" / "releases.json"
MAX_DEPTH = 40


def _paths(node: Any, prefix: str, out: set[str], depth: int = 0) -> None:
    """Every field path of an inline CRD schema node (``properties``, ``items``, ``additionalProperties``)."""
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return
    items = node.get("items")
    if isinstance(items, dict):
        _paths(items, prefix, out, depth + 1)
    props = node.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            path = f"{prefix}.{name}" if prefix else str(name)
            out.add(path)
            _paths(sub, path, out, depth + 1)
    addl = node.get("additionalProperties")
    if isinstance(addl, dict) and not isinstance(props, dict):
        path = f"{prefix}.*" if prefix else "*"
        out.add(path)
        _paths(addl, path, out, depth + 1)
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(key) or ():
            _paths(branch, prefix, out, depth + 1)


def crd_fields(folder: Path) -> dict[str, set[str]]:
    """``{"Kind/version": {field paths}}`` of every CRD file in ``folder``."""
    import yaml

    out: dict[str, set[str]] = {}
    for f in sorted(folder.glob("nvidia.com_*.yaml")):
        crd = yaml.load(f.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        kind = crd["spec"]["names"]["kind"]
        for v in crd["spec"]["versions"]:
            if not v.get("served", True):
                continue
            paths: set[str] = {""}
            _paths(((v.get("schema") or {}).get("openAPIV3Schema") or {}), "", paths)
            out[f"{kind}/{v['name']}"] = paths
    return out


def _release_key(name: str) -> tuple[int, ...]:
    return tuple(int(p) for p in name.split("."))


def generate(reference: Path = REFERENCE) -> dict[str, Any]:
    history = reference / "crds-history"
    releases = sorted((d.name for d in history.iterdir() if d.is_dir()), key=_release_key)
    newest = _release_key(releases[-1])
    development = f"{newest[0]}.{newest[1] + 1}"  # the reference revision: the next line, in development
    by_release = [(r, crd_fields(history / r)) for r in releases]
    current = crd_fields(reference / "crds")
    kinds: dict[str, dict[str, str]] = {}
    for kv in sorted(current):
        first: dict[str, str] = {}
        for path in sorted(current[kv]):
            first[path] = next((r for r, fields in by_release if path in fields.get(kv, ())), development)
        kept: dict[str, str] = {}
        for path in sorted(first, key=lambda p: (p.count("."), p)):
            parent = path.rpartition(".")[0] if "." in path else ("" if path else None)
            if parent is None or first.get(parent) != first[path]:
                kept[path] = first[path]
        kinds[kv] = dict(sorted(kept.items()))
    return {"releases": releases, "development": development, "kinds": kinds}


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, default=REFERENCE, help="the dynamo reference folder")
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed file is stale")
    ns = ap.parse_args(argv)
    text = dumps(generate(ns.reference))
    if ns.check:
        if not OUT.is_file() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/gen_releases.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
