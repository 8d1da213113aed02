"""Every v1beta1 DGD/DCD document of the upstream corpus renders for both targets, and output is
byte-identical across runs (and across PYTHONHASHSEED values)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dynamo_schema._pipeline._render_object import check_rendered
from dynamo_schema._render import RenderError, RenderOptions, render

# The GPU Memory Service / failover samples need DRA and the checkpoint sample the checkpoint gate: the
# operator's reconcile refuses them without (operator-cases DRA-GATE), so the corpus renders for a cluster
# with both. DGD-managed checkpoints are rendered on the Grove pathway only (render.unsupported otherwise).
GMS_SAMPLE = "deploy__operator__samples__dgd-gms-failover.yaml"
CHECKPOINT_SAMPLE = "examples__backends__trtllm__deploy__snapshot-restore.yaml"
UNSUPPORTED = {(CHECKPOINT_SAMPLE, "kubernetes"), (CHECKPOINT_SAMPLE, "dcd")}
OPTIONS = RenderOptions(namespace="corpus", dra_enabled=True, checkpoint_enabled=True)


def _documents(shared: Path) -> list[tuple[str, int, dict]]:
    out = []
    for path in sorted((shared / "reference" / "dynamo" / "corpus" / "v1beta1").glob("*.yaml")):
        docs = list(yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader))
        for i, doc in enumerate(docs):
            if isinstance(doc, dict) and doc.get("apiVersion") == "nvidia.com/v1beta1" and doc.get("kind") in (
                "DynamoGraphDeployment", "DynamoComponentDeployment"
            ):
                out.append((path.name, i, doc))
    return out


def _containers(x: object, out: set[int] | None = None) -> set[int]:
    """The ids of every mapping and list in ``x``."""
    out = set() if out is None else out
    if isinstance(x, (dict, list)):
        out.add(id(x))
        for v in x.values() if isinstance(x, dict) else x:
            _containers(v, out)
    return out


@pytest.mark.slow
def test_corpus_renders(shared: Path) -> None:
    docs = _documents(shared)
    assert len(docs) > 100
    failures = []
    rendered = 0
    for name, i, doc in docs:
        targets = ["kubernetes", "grove", "dcd"] if doc["kind"] == "DynamoGraphDeployment" else ["kubernetes"]
        for target in targets:
            before = copy.deepcopy(doc)
            try:
                objs = render(doc, target, OPTIONS)
            except RenderError as exc:
                if (name, target) not in UNSUPPORTED:
                    failures.append(f"{name}#{i} {target}: {exc}")
                continue
            rendered += 1
            assert doc == before, f"{name}#{i} {target}: the input changed"
            shared_ids = _containers(doc) & _containers(objs)
            assert not shared_ids, f"{name}#{i} {target}: the output shares a mapping or list with the input"
            problems = check_rendered(objs)
            if problems:
                failures.append(f"{name}#{i} {target}: " + "; ".join(d.message for d in problems[:3]))
            assert objs and all(o.get("apiVersion") and o.get("kind") and o["metadata"].get("name") for o in objs)
            assert all(o["metadata"].get("namespace") == (doc.get("metadata") or {}).get("namespace", "corpus") for o in objs)
    assert failures == []
    assert rendered > 300


def test_unsupported_is_reported(shared: Path) -> None:
    docs = {name: doc for name, _, doc in _documents(shared)}
    for name, target in UNSUPPORTED:
        with pytest.raises(RenderError) as exc:
            render(docs[name], target, OPTIONS)
        assert [d.rule for d in exc.value.diagnostics] == ["render.unsupported"]


def test_gms_sample_needs_dra(shared: Path) -> None:
    """Without DRA the operator's shared-resource reconcile refuses a GMS / failover DGD on both pathways."""
    docs = [doc for name, _, doc in _documents(shared) if name == GMS_SAMPLE]
    assert docs
    for target in ("kubernetes", "grove"):
        with pytest.raises(RenderError, match="requires DRA"):
            render(docs[0], target, RenderOptions())


_SCRIPT = r"""
import json, sys, yaml
from pathlib import Path
from dynamo_schema._render import render, RenderError, RenderOptions
out = []
for p in sorted(Path(sys.argv[1]).glob("*.yaml"))[:40]:
    for d in yaml.load_all(p.read_text(), Loader=yaml.CSafeLoader):
        if isinstance(d, dict) and d.get("apiVersion") == "nvidia.com/v1beta1" and d.get("kind") in ("DynamoGraphDeployment", "DynamoComponentDeployment"):
            for t in (["kubernetes", "grove"] if d["kind"] == "DynamoGraphDeployment" else ["kubernetes"]):
                try:
                    out.append(render(d, t, RenderOptions()))
                except RenderError as e:  # the documented unsupported layouts
                    out.append(str(e))
sys.stdout.write(json.dumps(out, sort_keys=False))
"""


def test_output_byte_identical_across_runs(shared: Path) -> None:
    corpus = shared / "reference" / "dynamo" / "corpus" / "v1beta1"
    repo = Path(__file__).resolve().parents[2]
    runs = []
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT, str(corpus)], cwd=repo, env=env, capture_output=True, text=True, check=True)
        runs.append(proc.stdout)
    assert runs[0] == runs[1] == runs[2]
    assert len(json.loads(runs[0])) > 20
