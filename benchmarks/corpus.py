"""Build benchmark corpora from the shapes of the upstream corpus (../shared/reference/dynamo/corpus).

``build(n, out)`` writes ``n`` files, cycling over the upstream files (v1beta1 and v1alpha1, every document
of each, other kinds included), with every ``metadata.name`` made unique (``<name>-<i>``, cut to fit the
63-character budget) so that no two files describe the same object. Deterministic: the same ``n`` gives
the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus").resolve()


def _shapes(kinds: tuple[str, ...] | None = None) -> list[list[Any]]:
    import yaml

    out = []
    for folder in ("v1beta1", "v1alpha1"):
        for f in sorted((CORPUS / folder).glob("*.yaml")):
            try:
                docs = [d for d in yaml.load_all(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) if d]
            except yaml.YAMLError:
                continue
            if kinds is not None:
                docs = [d for d in docs if isinstance(d, dict) and d.get("kind") in kinds]
            if docs:
                out.append(docs)
    return out


def _rename(doc: Any, i: int) -> Any:
    if isinstance(doc, dict) and isinstance(doc.get("metadata"), dict) and isinstance(doc["metadata"].get("name"), str):
        suffix = f"-{i}"
        doc["metadata"]["name"] = doc["metadata"]["name"][: 40 - len(suffix)].rstrip("-.") + suffix
    return doc


def build(n: int, out: Path, kinds: tuple[str, ...] | None = None) -> list[Path]:
    """``n`` files under ``out`` (created), named ``f00000.yaml`` …; returns their paths in order."""
    import copy

    import yaml

    shapes = _shapes(kinds)
    if not shapes:
        raise SystemExit(f"no corpus at {CORPUS}")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        docs = [_rename(copy.deepcopy(d), i) for d in shapes[i % len(shapes)]]
        path = out / f"f{i:05d}.yaml"
        path.write_text(yaml.dump_all(docs, Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
        paths.append(path)
    return paths
