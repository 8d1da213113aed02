"""Missing paths in ``validate`` reports, ``render -o`` replacing its own output, ``merge`` validating
its result and refusing nil inputs (issue 14, item 6)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml

from dynamo_schema._cli._main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-disagg.yaml"
REJECTED = ROOT / "examples" / "rejected-dgd.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "github"])
def test_a_missing_path_is_one_error_resource_and_the_others_are_checked(fmt: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.yaml")
    rc, out, err = run("validate", "-o", fmt, str(EXAMPLE), missing, str(REJECTED))
    assert rc == 2  # the contract: an I/O error exits 2
    assert missing in out and "no such file or directory" in out
    assert "cel.single-epp" in out  # the file after the missing one was checked
    if fmt == "json":
        res = json.loads(out)["resources"]
        assert [r["status"] for r in res] == ["valid", "error", "invalid"]
        assert res[1]["filename"] == missing and res[1]["errors"][0]["rule"] == "io.not-found"


def test_summary_counts_the_missing_path(tmp_path: Path) -> None:
    rc, out, _ = run("validate", "--summary", str(EXAMPLE), str(tmp_path / "nope.yaml"))
    assert rc == 2
    assert out.splitlines()[-1] == "Summary: 2 resources found in 2 files - Valid: 1, Invalid: 0, Errors: 1, Skipped: 0"


def test_an_unreadable_directory_entry_is_reported(tmp_path: Path) -> None:
    d = tmp_path / "dir.yaml"
    d.mkdir()
    f = tmp_path / "ok.yaml"
    f.write_text(EXAMPLE.read_text())
    rc, out, _ = run("validate", str(f), str(d / "x.yaml"))
    assert rc == 2 and "io.not-found" in out


def test_render_out_twice_leaves_only_the_second_render(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "kept-by-user.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine}\n")
    assert run("render", "--target", "grove", "-o", str(out), str(EXAMPLE))[0] == 0
    first = {p.name for p in out.iterdir()}
    assert any("podcliqueset" in n for n in first)
    assert run("render", "--target", "kubernetes", "-o", str(out), str(EXAMPLE))[0] == 0
    second = {p.name for p in out.iterdir()}
    rc, stdout, _ = run("render", "--target", "kubernetes", str(EXAMPLE))
    expected = len(list(yaml.safe_load_all(stdout)))
    objects = sorted(n for n in second if n.endswith(".yaml") and n != "kept-by-user.yaml")
    assert len(objects) == expected
    assert not any("podcliqueset" in n for n in second)
    assert "kept-by-user.yaml" in second  # never written by a render: never deleted
    recorded = (out / ".dynamo-schema-render").read_text().splitlines()
    assert [r for r in recorded if not r.startswith("#")] == objects


def _dgd_file(tmp_path: Path, name: str, text: str) -> Path:
    f = tmp_path / name
    f.write_text(text)
    return f


@pytest.mark.parametrize("which", ["blueprint", "override"])
@pytest.mark.parametrize("content", ["", "null\n", "---\n"])
def test_merge_nil_input_is_invalid(which: str, content: str, tmp_path: Path) -> None:
    good = _dgd_file(tmp_path, "good.yaml", EXAMPLE.read_text())
    nil = _dgd_file(tmp_path, "nil.yaml", content)
    args = {"blueprint": good, "override": good, which: nil}
    rc, out, err = run("merge", "--blueprint", str(args["blueprint"]), "--override", str(args["override"]))
    assert rc == 1 and out == ""
    assert err == f"error: {which} must not be nil\n"  # upstream dgdoverride's wording


def test_merge_validates_its_result(tmp_path: Path) -> None:
    bp = _dgd_file(tmp_path, "bp.yaml", EXAMPLE.read_text())
    ok = _dgd_file(tmp_path, "ok.yaml", "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
                   "spec:\n  components:\n  - name: Frontend\n    replicas: 2\n")
    rc, out, err = run("merge", "--blueprint", str(bp), "--override", str(ok))
    assert rc == 0, err
    assert yaml.safe_load(out)["spec"]["components"][0]["replicas"] == 2
    # an override that makes the DGD one the API server refuses (replicas below the schema's minimum)
    bad = _dgd_file(tmp_path, "bad.yaml", "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
                    "spec:\n  components:\n  - name: Frontend\n    replicas: -1\n")
    rc, out, err = run("merge", "--blueprint", str(bp), "--override", str(bad))
    assert rc == 1 and out == ""
    assert "error: merged DGD: spec.components[0].replicas: " in err and "[schema." in err
    rc, out, _ = run("merge", "--no-validate", "--blueprint", str(bp), "--override", str(bad))
    assert rc == 0 and yaml.safe_load(out)["spec"]["components"][0]["replicas"] == -1
