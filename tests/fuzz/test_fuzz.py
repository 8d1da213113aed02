"""The fuzzer in the normal test run: the committed corpus of minimized interesting inputs through
every entry point, and a bounded structured-mutation run (derandomized under ``CI=1``; a random seed
otherwise, printed on failure). The long local run is documented in ``harness.py``."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from . import harness

CORPUS = sorted(p for p in harness.CORPUS_DIR.iterdir() if p.suffix in (".yaml", ".json", ".bin"))
LOCATED = re.compile(r"\S+:\d+:\d+: ")
#: mutants in the bounded run (each through one entry point, plus every entry point for a few)
BOUNDED = 500


def test_corpus_is_there() -> None:
    assert len(CORPUS) == 31


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_replay(path: Path, tmp_path: Path) -> None:
    """Every entry point on every corpus input: no internal error, nothing escapes, within bounds;
    an input refused with exit 1 gets a located message (``-bad`` files must be refused)."""
    body = path.read_bytes()
    name = path.name[:-4] if path.suffix == ".bin" else path.name
    target = tmp_path / name
    target.write_bytes(body)
    seed = str(harness.ROOT / "examples" / "vllm-disagg.yaml")
    from dynamo_schema._io._load import load

    docs = load(body, str(target)).documents
    data = docs[0].data if docs else {}
    entries = sorted(set(harness.entries_for(data)) | {"render", "render-kubernetes", "render-grove"})
    for entry in entries:
        o = harness.run_entry(entry, harness.argv_for(entry, str(target), seed, data), body, str(target))
        assert o.bad is None, (entry, o.bad, o.output)
        assert o.exit in (0, 1, 2), (entry, o.exit, o.output)
        if o.exit == 1 and entry in ("validate", "default") and ".bad." in path.name:
            assert LOCATED.search(o.output), (entry, o.output)
    if ".bad." in path.name:
        o = harness.run_entry("validate", ["validate", str(target)])
        assert o.exit == 1 and LOCATED.search(o.output), o.output


@pytest.mark.shared  # mutates the upstream corpus: without it some entry points get no mutant
def test_bounded_fuzz(tmp_path: Path) -> None:
    seed = 1313 if os.environ.get("CI") else int(os.environ.get("DYNAMO_SCHEMA_FUZZ_SEED",
                                                                random.SystemRandom().randrange(2**32)))
    stats = harness.fuzz(BOUNDED, seed, tmp_path / "one")
    stats.merge(harness.fuzz(12, seed + 1, tmp_path / "all", all_entries=True))
    assert stats.mutants >= BOUNDED, stats.mutants
    assert set(stats.calls) == set(harness.ENTRY_POINTS), stats.calls
    assert not stats.findings, (f"seed {seed}", [(f["entry"], f["bad"], f["mutation"], f["output"][-300:])
                                               for f in stats.findings[:5]])
