"""``render`` of real repositories' files: other kinds are validated and passed through in place
(issue 14, item 1), ``--only-dynamo`` drops them, every failing document is reported."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml

from dynamo_schema._cli._main import main
from dynamo_schema._io._load import load_path
from dynamo_schema._pipeline._render_stream import is_rendered, render_stream

pytestmark = pytest.mark.shared  # reads ../shared (upstream reference data)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus").resolve()
CORPUS_FILES = sorted(CORPUS.glob("*/*.yaml"))
MIXED = sorted(f for f in CORPUS_FILES if any(not is_rendered(d.data) for d in load_path(str(f))))
LORA = "examples__backends__vllm__deploy__lora__agg_lora_hf.yaml"  # holds a DynamoModel


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def _doc_ranges(docs: list) -> list[tuple[int, int, object]]:
    """(first line, last line, document) of each document of one file."""
    out = []
    for i, d in enumerate(docs):
        end = docs[i + 1].start[0] - 1 if i + 1 < len(docs) else 10**9
        out.append((d.start[0], end, d))
    return out


def test_the_corpus_has_mixed_files() -> None:
    assert len(MIXED) == 69  # ConfigMaps, ComputeDomains, ResourceClaimTemplates, RBAC, PVCs…


@pytest.mark.parametrize("target", ["kubernetes", "grove"])
def test_no_render_failure_is_caused_by_another_kind(target: str) -> None:
    caused = _caused_by_other_kinds(MIXED, target)
    assert caused == []


def test_the_lora_example_renders_with_its_dynamo_model() -> None:
    assert _caused_by_other_kinds([f for f in MIXED if f.name == LORA], "kubernetes") == []


def _caused_by_other_kinds(files: list[Path], target: str) -> list[str]:
    caused = []
    for f in files:
        docs = load_path(str(f))
        result = render_stream(docs, target=target, namespace="default", operator_version=None, settings=None)
        ranges = _doc_ranges(docs)
        for e in result.errors:
            owner = next((d for lo, hi, d in ranges if e.line is not None and lo <= e.line <= hi), None)
            if owner is None or not is_rendered(owner.data):
                caused.append(f"{f.name}:{e.line}: {e.message} [{e.rule}]")
        # every other object is passed through unchanged, in document order
        others = [d.data for d in docs if not is_rendered(d.data)]
        if not result.errors:
            passed = [o for o in result.objects if any(o is d for d in others)]
            assert passed == others, f.name
    return caused


def _mixed_file(tmp_path: Path) -> Path:
    src = (ROOT / "examples" / "vllm-disagg.yaml").read_text()
    f = tmp_path / "mixed.yaml"
    f.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: before\ndata:\n  a: 'b'\n---\n" + src
                 + "\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: after\nstringData:\n  k: v\n")
    return f


def test_other_objects_pass_through_in_place(tmp_path: Path) -> None:
    rc, out, err = run("render", "--target", "kubernetes", str(_mixed_file(tmp_path)))
    assert rc == 0, err
    docs = list(yaml.safe_load_all(out))
    assert docs[0] == {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "before"}, "data": {"a": "b"}}
    assert docs[-1] == {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "after"}, "stringData": {"k": "v"}}
    assert "DynamoComponentDeployment" in [d["kind"] for d in docs[1:-1]]


def test_only_dynamo_drops_other_objects(tmp_path: Path) -> None:
    rc, out, err = run("render", "--only-dynamo", "--target", "kubernetes", str(_mixed_file(tmp_path)))
    assert rc == 0, err
    kinds = {d["kind"] for d in yaml.safe_load_all(out)}
    assert "ConfigMap" not in kinds and "Secret" not in kinds
    assert "Deployment" in kinds


def test_only_dynamo_keeps_a_dynamo_model(tmp_path: Path) -> None:
    f = tmp_path / "lora.yaml"
    f.write_text((CORPUS / "v1beta1" / LORA).read_text().replace(":my-tag", ":1.5.0"))  # placeholder filled
    rc, out, err = run("render", "--only-dynamo", "--target", "grove", str(f))
    assert rc == 0, err
    kinds = [d["kind"] for d in yaml.safe_load_all(out)]
    assert "PodCliqueSet" in kinds and kinds[-1] == "DynamoModel"  # applied as it is, in its place


def test_an_invalid_other_object_is_refused_with_the_others(tmp_path: Path) -> None:
    src = (ROOT / "examples" / "vllm-disagg.yaml").read_text()
    bad = src.replace("name: llama-disagg", "name: second", 1).replace("dynamoNamespace", "dynamoNamespace", 1)
    f = tmp_path / "two.yaml"
    # a ConfigMap with a wrong type, and a DGD admission refuses (no components)
    f.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: [1]\n---\n" + bad
                 + "\n---\napiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: empty\n"
                 "spec:\n  components: []\n")
    rc, out, err = run("render", str(f))
    assert rc == 1 and out == ""
    lines = err.splitlines()
    assert any(line.startswith(f"{f}:5:") for line in lines), err  # the ConfigMap's data
    assert any(line.startswith(f"{f}:") and "components" in line for line in lines), err  # the empty DGD
