"""validate's report for every kind (docs/decisions.md D50): skip reasons (text -v, json, junit, tap), files that
are no Kubernetes objects, the plural of a summary count, one resource's lines in position order, the other
CRD-bundle kinds through ``default`` and ``convert``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import dynamo_schema
from dynamo_schema._cli._main import main

DGDSA_BAD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeploymentScalingAdapter
metadata:
  name: a
spec:
  dgdRef:
    name: ""
"""
CHART = "apiVersion: v2\nname: mychart\nversion: 0.1.0\n"
VALUES = "replicaCount: 1\nimage:\n  repository: nginx\n"
WIDGET = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
NO_KIND = "apiVersion: v1\nmetadata:\n  name: x\n"
NOT_K8S = "not a Kubernetes object (no apiVersion/kind)"
CHART_FILE = "a Helm chart's own file, not a Kubernetes manifest: skipped"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def _files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("Chart.yaml", CHART), ("values.yml", VALUES), ("widget.yaml", WIDGET),
                       ("nokind.yaml", NO_KIND)):
        p = tmp_path / name
        p.write_text(text)
        out[name] = p
    return out


def test_skip_reasons_in_every_format(tmp_path: Path) -> None:
    f = _files(tmp_path)
    paths = [str(f["Chart.yaml"]), str(f["values.yml"]), str(f["widget.yaml"])]
    rc, out, _ = run("validate", "-v", *paths)
    assert rc == 0
    assert f"{f['Chart.yaml']}: resource is skipped ({CHART_FILE})" in out  # tests/repos/test_helm.py
    assert f"{f['values.yml']}: resource is skipped ({NOT_K8S})" in out
    assert f"{f['widget.yaml']}: Widget/w: resource is skipped (no schema for example.com/v1/Widget in Kubernetes 1.32.0)" in out
    doc = json.loads(run("validate", "-o", "json", *paths)[1])
    assert [r.get("reason") for r in doc["resources"]] == [CHART_FILE, NOT_K8S, "no schema for example.com/v1/Widget in Kubernetes 1.32.0"]
    tap = run("validate", "-o", "tap", *paths)[1]
    assert f"# SKIP {NOT_K8S}" in tap and "# SKIP no schema for example.com/v1/Widget in Kubernetes 1.32.0" in tap
    assert "no schema for this kind" not in tap
    junit = run("validate", "-o", "junit", *paths)[1]
    assert f'<skipped message="{NOT_K8S}"' in junit


def test_metadata_without_kind_is_still_an_error(tmp_path: Path) -> None:
    rc, out, _ = run("validate", str(_files(tmp_path)["nokind.yaml"]))
    assert rc == 1 and "missing 'kind' key [load.missing-kind]" in out


def test_summary_counts_other_than_one_are_plural(tmp_path: Path) -> None:
    f = _files(tmp_path)
    rc, out, _ = run("validate", "--summary", "--ignore-filename-pattern", ".", str(f["values.yml"]))
    assert rc == 0 and out == "Summary: 0 resources found in 0 files - Valid: 0, Invalid: 0, Errors: 0, Skipped: 0\n"
    out = run("validate", "--summary", str(f["values.yml"]))[1]
    assert out == "Summary: 1 resource found in 1 file - Valid: 0, Invalid: 0, Errors: 0, Skipped: 1\n"


def test_lines_of_one_resource_in_position_order(tmp_path: Path) -> None:
    p = tmp_path / "a.yaml"
    p.write_text(DGDSA_BAD)
    # the structural walk reports a parent's missing field after its children's errors
    from dynamo_schema._io._load import load_path
    from dynamo_schema._pipeline._validate import ValidateOptions, validate_document

    raw = [(d.line, d.rule) for d in validate_document(load_path(str(p))[0], ValidateOptions()).diagnostics
           if d.severity == "error"]
    assert raw != sorted(raw), raw  # the case needs sorting: else the test could not fail
    lib = [(d.line, d.rule) for r in dynamo_schema.validate(p) for d in r.errors]
    assert lib == sorted(raw)  # the library's results are in position order too
    rc, out, _ = run("validate", str(p))
    lines = [ln.split(": ", 1)[0] for ln in out.splitlines()]
    positions = [tuple(int(x) for x in ln.split(":")[1:3]) for ln in lines]
    assert rc == 1 and len(positions) == 3 and positions == sorted(positions)
    errs = json.loads(run("validate", "-o", "json", str(p))[1])["resources"][0]["errors"]
    assert [(e["line"], e["column"]) for e in errs] == sorted(positions)
    _, _, err = run("default", str(p))  # default's stderr: validate's lines, in validate's order
    assert err == out


def test_default_and_validate_refuse_an_unknown_field_of_every_bundle_kind(tmp_path: Path) -> None:
    for api, kind in (("nvidia.com/v1alpha1", "DynamoModel"), ("nvidia.com/v1beta1", "DynamoGraphDeploymentScalingAdapter"),
                      ("nvidia.com/v1alpha1", "DynamoGraphDeploymentScalingAdapter"),
                      ("nvidia.com/v1alpha1", "DynamoCheckpoint"), ("nvidia.com/v1alpha1", "DynamoWorkerMetadata")):
        p = tmp_path / f"{kind}.yaml"
        p.write_text(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: m\nspec:\n  bogusField: 1\n")
        want = f'{p}:6:3: {kind}/m: spec.bogusField: unknown field "spec.bogusField" [schema.unknown-field]\n'
        assert run("validate", str(p)) == (1, want, ""), kind  # strict decoding: nothing else reported
        assert run("default", str(p)) == (1, "", want), kind


def test_dgdsa_converts_both_ways_and_one_version_kinds_are_kept(tmp_path: Path) -> None:
    p = tmp_path / "a.yaml"
    p.write_text("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeploymentScalingAdapter\nmetadata:\n  name: a\n"
                 "spec:\n  replicas: 1\n  dgdRef:\n    name: g\n    serviceName: worker  # the service\n")
    rc, beta, _ = run("convert", str(p))
    assert rc == 0 and "componentName: worker  # the service" in beta and "serviceName" not in beta
    q = tmp_path / "b.yaml"
    q.write_text(beta)
    rc, alpha, _ = run("convert", "--to", "v1alpha1", str(q))
    assert rc == 0 and alpha == p.read_text()
    m = tmp_path / "m.yaml"
    m.write_text("apiVersion: nvidia.com/v1alpha1\nkind: DynamoModel\nmetadata:\n  name: m\n"
                 "spec:\n  modelName: a\n  baseModelName: a\n")
    rc, out, err = run("convert", "--to", "v1beta1", str(m))
    assert (rc, out) == (0, m.read_text())  # nothing to convert to: kept as written
    assert err == (f"{m}:1:1: DynamoModel/m: apiVersion: warning: DynamoModel has no version 'nvidia.com/v1beta1' "
                   "(served: nvidia.com/v1alpha1): kept as nvidia.com/v1alpha1 [convert.not-served]\n")
    # already at the target version: written byte for byte, nothing to warn about (docs/cli.md "convert")
    assert run("convert", "--to", "v1alpha1", str(m)) == (0, m.read_text(), "")
    # explain refuses the same version in the same words
    rc, _, err = run("explain", "--api-version", "nvidia.com/v1beta1", "DynamoModel")
    assert (rc, err) == (1, "error: DynamoModel has no version 'nvidia.com/v1beta1' (served: nvidia.com/v1alpha1)\n")
