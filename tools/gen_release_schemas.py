"""Generate the release profiles' schema store (``dynamo_schema/_data/releases/``) from the operator's CRDs
at each release (``../shared/reference/dynamo/crds-history/X.Y/*.yaml``; the commits are in its SOURCE.md).

``python tools/gen_release_schemas.py`` writes the store; ``--check`` only says whether the committed store is
current (exit 1 when not). tests/schema/test_release_schemas.py runs ``build()`` and compares.

What is kept of a CRD is what validation reads, as facts: for every served version its
``openAPIV3Schema`` without ``description`` (upstream prose stays out of the project), with an ``allOf`` of
repeated enum markers folded the way tools/gen_models.py folds it for the bundled schemas
(``x-dynamo-schema-allof``: the API server reports the allOf failure), plus per kind the served versions,
the storage version and whether ``status`` is a subresource.

The schemas are cut into content-addressed fragments: every subschema whose compact JSON is at least
``MIN_FRAGMENT`` bytes becomes ``{"$ref": "#/$defs/<sha-256 prefix>"}`` (the root of every version always
does), so what is equal between kinds and releases (the pod spec, containers, volumes…) is stored once. A
fragment lives in the pack of exactly the releases that use it (``packs/<releases>.json``); a release reads
its packs only. The runtime side is ``dynamo_schema/_schema/_releases.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
HISTORY = (ROOT / ".." / "shared" / "reference" / "dynamo" / "crds-history").resolve()
OUT = ROOT / "dynamo_schema" / "_data" / "releases"
MIN_FRAGMENT = 200
HASH_CHARS = 12
# keywords whose value is a schema / a list of schemas / a map of schemas (everything else is a value)
_SCHEMA = ("items", "additionalProperties", "not")
_SCHEMAS = ("allOf", "anyOf", "oneOf")


def fold_allof(node: dict[str, Any]) -> dict[str, Any]:
    """``allOf`` folded into the node (controller-gen emits it for repeated enum markers); the same rule as
    tools/gen_models.py ``flatten_allof``, which the bundled schemas went through."""
    out = {k: v for k, v in node.items() if k != "allOf"}
    parts = node["allOf"]
    if all(isinstance(p, dict) and "enum" in p for p in parts):
        out["x-dynamo-schema-allof"] = len(parts)
    for part in parts:
        for k, v in part.items():
            if k == "enum" and "enum" in out:
                out["enum"] = [x for x in out["enum"] if x in v]
            else:
                out[k] = v
    return out


def reduce_schema(node: Any) -> Any:
    """The schema node without descriptions, ``allOf`` folded (values such as defaults and enums as is)."""
    if isinstance(node, list):
        return [reduce_schema(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k == "description":
            continue
        if k == "properties" and isinstance(v, dict):
            out[k] = {name: reduce_schema(sub) for name, sub in v.items()}
        elif k in _SCHEMA and isinstance(v, dict):
            out[k] = reduce_schema(v)
        elif k in _SCHEMAS and isinstance(v, list):
            out[k] = [reduce_schema(x) for x in v]
        else:
            out[k] = v
    if isinstance(out.get("allOf"), list):
        out = fold_allof(out)
    return out


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Store:
    """Fragments by hash, the releases using each, and one root per (release, kind, version)."""

    def __init__(self) -> None:
        self.fragments: dict[str, Any] = {}
        self.users: dict[str, set[str]] = {}

    def add(self, node: Any, release: str, force: bool = False) -> Any:
        if isinstance(node, list):
            return [self.add(x, release) for x in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                out[k] = {name: self.add(sub, release) for name, sub in v.items()}
            elif k in _SCHEMA and isinstance(v, dict):
                out[k] = self.add(v, release)
            elif k in _SCHEMAS and isinstance(v, list):
                out[k] = [self.add(x, release) for x in v]
            else:
                out[k] = v
        text = canonical(out)
        if len(text) < MIN_FRAGMENT and not force:
            return out
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]
        if key in self.fragments and canonical(self.fragments[key]) != text:  # pragma: no cover
            raise SystemExit(f"hash collision on {key}: raise HASH_CHARS")
        self.fragments[key] = out
        self.users.setdefault(key, set()).add(release)
        return key if force else {"$ref": "#/$defs/" + key}


def release_commits(history: Path) -> dict[str, dict[str, str]]:
    """``{release: {commit, date}}`` from the table of SOURCE.md."""
    out = {}
    for line in (history / "SOURCE.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(\d+\.\d+)\s*\|[^|]*\|\s*([0-9a-f]{40})\s*\|\s*(\d{4}-\d\d-\d\d)\s*\|", line)
        if m:
            out[m.group(1)] = {"commit": m.group(2), "date": m.group(3)}
    return out


def _release_key(name: str) -> tuple[int, ...]:
    return tuple(int(p) for p in name.split("."))


def build(history: Path = HISTORY) -> dict[str, str]:
    """``{relative path: file text}`` of the whole store."""
    commits = release_commits(history)
    releases = sorted((p.name for p in history.iterdir() if p.is_dir() and re.fullmatch(r"\d+\.\d+", p.name)),
                      key=_release_key)
    missing = [r for r in releases if r not in commits]
    if missing:
        raise SystemExit(f"SOURCE.md has no commit for {missing}")
    store = Store()
    index: dict[str, Any] = {}
    for release in releases:
        kinds: dict[str, Any] = {}
        for path in sorted((history / release).glob("*.yaml")):
            crd = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            spec = crd["spec"]
            versions: dict[str, Any] = {}
            storage = ""
            for v in spec["versions"]:
                if not v.get("served"):
                    continue
                root = store.add(reduce_schema(v["schema"]["openAPIV3Schema"]), release, force=True)
                versions[v["name"]] = {"schema": root, "status": "status" in (v.get("subresources") or {})}
                if v.get("storage"):
                    storage = v["name"]
            kinds[spec["names"]["kind"]] = {"group": spec["group"], "versions": versions, "storage": storage}
        index[release] = {**commits[release], "kinds": dict(sorted(kinds.items()))}
    packs: dict[str, dict[str, Any]] = {}
    for key in sorted(store.fragments):
        name = "_".join(sorted(store.users[key], key=_release_key))
        packs.setdefault(name, {})[key] = store.fragments[key]
    for release, entry in index.items():
        entry["packs"] = sorted((n for n in packs if release in n.split("_")), key=lambda n: n.split("_"))
    files = {"index.json": json.dumps({"generator": "tools/gen_release_schemas.py", "releases": index},
                                      indent=1, sort_keys=False, ensure_ascii=False) + "\n"}
    for name, frags in packs.items():
        # one fragment a line: a new release changes few lines
        body = ",\n".join(f"{json.dumps(k)}:{canonical(v)}" for k, v in frags.items())
        files[f"packs/{name}.json"] = "{\n" + body + "\n}\n"
    return files


def write(files: dict[str, str], out: Path = OUT) -> None:
    (out / "packs").mkdir(parents=True, exist_ok=True)
    for stale in (out / "packs").glob("*.json"):
        if f"packs/{stale.name}" not in files:
            stale.unlink()
    for rel, text in files.items():
        (out / rel).write_text(text, encoding="utf-8")


def stale(files: dict[str, str], out: Path = OUT) -> list[str]:
    """What differs between ``files`` and the committed store (missing, changed or extra files)."""
    have = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*.json")} \
        if out.is_dir() else {}
    return sorted(set(have) ^ set(files) | {k for k in files if k in have and have[k] != files[k]})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crds-history", type=Path, default=HISTORY, help="the crds-history folder")
    ap.add_argument("--check", action="store_true", help="only check that the committed store is current")
    ns = ap.parse_args(argv)
    files = build(ns.crds_history)
    if ns.check:
        diff = stale(files)
        if diff:
            print("release schema store is stale: " + ", ".join(diff), file=sys.stderr)
            return 1
        return 0
    write(files)
    size = sum(len(t.encode("utf-8")) for t in files.values())
    print(f"wrote {len(files)} files, {size} bytes, to {OUT.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
