"""validate's kind and file controls through the CLI: --skip, --reject, --ignore-missing-schemas, the policy
for kinds without a schema (removed built-in APIs refused), --ignore-filename-pattern, --schema-location,
--verbose, --version, -j, help text, -o."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dynamo_schema._cli._main import build_parser, main

MIXED = """\
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: old
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
data:
  a: b
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: cert
spec:
  secretName: 5
---
apiVersion: nvidia.com/v1alpha1
kind: DynamoModel
metadata:
  name: m
spec:
  modelName: m
  baseModelName: m
"""

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
spec:
  group: cert-manager.io
  names: {kind: Certificate, plural: certificates}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [secretName]
            properties:
              secretName: {type: string}
"""


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def statuses(*args: str) -> dict[str, str]:
    rc, out, err = run("validate", "-o", "json", *args)
    assert rc in (0, 1), err
    return {r["kind"]: r["status"] for r in json.loads(out)["resources"]}


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    p = tmp_path / "mixed.yaml"
    p.write_text(MIXED)
    return p


def test_default_policy_refuses_removed_api_and_skips_unknown_kinds(mixed: Path) -> None:
    rc, out, _ = run("validate", str(mixed))
    assert rc == 1
    assert out.count("\n") == 1
    assert "extensions/v1beta1 Ingress was removed in Kubernetes v1.22; use networking.k8s.io/v1" in out
    assert out.startswith(f"{mixed}:1:1: Ingress/old: apiVersion: ")
    assert out.rstrip().endswith("[schema.removed-api]")
    # every kind of the Dynamo CRD bundle is checked (D50): the DynamoModel is valid, not skipped
    assert statuses(str(mixed)) == {"Ingress": "invalid", "ConfigMap": "valid", "Certificate": "skipped",
                                    "DynamoModel": "valid"}


def test_removed_api_is_judged_against_the_target_release(tmp_path: Path) -> None:
    p = tmp_path / "cron.yaml"
    p.write_text("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\n")
    assert statuses(str(p)) == {"CronJob": "invalid"}  # removed in v1.25, default target 1.32
    rc, out, _ = run("validate", str(p))
    assert "removed in Kubernetes v1.25; use batch/v1" in out
    # autoscaling/v2beta2 HorizontalPodAutoscaler is served through v1.25 and removed in v1.26 (Kubernetes
    # "Deprecated API Migration Guide"): refused from that release on only (docs/cli.md: "removed at or before")
    hpa = tmp_path / "hpa.yaml"
    hpa.write_text("apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n"
                   "  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: d\n  maxReplicas: 3\n")
    assert statuses("--kubernetes-version", "1.25.0", str(hpa)) == {"HorizontalPodAutoscaler": "valid"}
    assert statuses("--kubernetes-version", "1.26.0", str(hpa)) == {"HorizontalPodAutoscaler": "invalid"}
    rc, out, _ = run("validate", "--kubernetes-version", "1.26.0", str(hpa))
    assert out.rstrip().endswith("was removed in Kubernetes v1.26; use autoscaling/v2 [schema.removed-api]")


def test_skip_and_reject_by_kind_and_by_gvk(mixed: Path) -> None:
    got = statuses("--skip", "Ingress", "--reject", "v1/ConfigMap", str(mixed))
    assert got == {"Ingress": "skipped", "ConfigMap": "error", "Certificate": "skipped", "DynamoModel": "valid"}
    rc, out, _ = run("validate", "--skip", "extensions/v1beta1/Ingress,cert-manager.io/v1/Certificate",
                     "--reject", "ConfigMap", str(mixed))
    assert rc == 1 and "prohibited resource kind ConfigMap [policy.rejected-kind]" in out
    assert "Ingress" not in out
    assert run("validate", "--skip", "Ingress", str(mixed))[0] == 0


def test_ignore_missing_schemas_skips_unknown_dynamo_kinds(tmp_path: Path) -> None:
    p = tmp_path / "typo.yaml"
    p.write_text("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymnet\nmetadata:\n  name: t\n")
    rc, out, _ = run("validate", str(p))
    assert rc == 1 and 'did you mean "DynamoGraphDeployment"' in out
    assert statuses("--ignore-missing-schemas", str(p)) == {"DynamoGraphDeploymnet": "skipped"}


def test_schema_location_crd_yaml_file(mixed: Path, tmp_path: Path) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(CRD)
    got = statuses("--schema-location", str(crd), str(mixed))
    assert got["Certificate"] == "invalid" and got["ConfigMap"] == "valid"
    rc, out, _ = run("validate", "--schema-location", str(crd), str(mixed))
    assert ("Certificate/cert: spec.secretName: Invalid value: \"integer\": spec.secretName in body must be of "
            "type string") in out


def test_schema_location_templates(mixed: Path, tmp_path: Path) -> None:
    d = tmp_path / "loc" / "cert-manager.io"
    d.mkdir(parents=True)
    (d / "certificate_v1.json").write_text(json.dumps(
        {"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "secretName": {"type": "string"}}}}}))
    tpl = str(tmp_path / "loc" / "{{.Group}}" / "{{ .ResourceKind }}_{{.ResourceAPIVersion}}.json")
    assert statuses("--schema-location", tpl, str(mixed))["Certificate"] == "invalid"
    # kubeconform's KindSuffix layout, and a CRD YAML found through a template
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "certificate-cert-manager-v1.yaml").write_text(CRD.replace("secretName: {type: string}",
                                                                                 "secretName: {type: integer}"))
    tpl2 = str(tmp_path / "k" / "{{.ResourceKind}}{{.KindSuffix}}.yaml")
    assert statuses("--schema-location", tpl2, str(mixed))["Certificate"] == "valid"
    assert statuses("--schema-location", "default", str(mixed))["Certificate"] == "skipped"


def test_schema_location_refuses_network_and_unknown_variables(mixed: Path) -> None:
    rc, _, err = run("validate", "--schema-location", "https://example.invalid/{{.ResourceKind}}.json", str(mixed))
    assert rc == 2 and "only local paths" in err
    rc, _, err = run("validate", "--schema-location", "x/{{.Nope}}.json", str(mixed))
    assert rc == 2 and "unknown template variable .Nope" in err


def test_template_variables_match_kubeconform() -> None:
    from dynamo_schema._pipeline._kindpolicy import expand, template_vars

    v = template_vars("nvidia.com/v1alpha1", "DynamoGraphDeployment", "1.32.0", True)
    assert v["KindSuffix"] == "-nvidia-v1alpha1" and v["Group"] == "nvidia.com"
    assert template_vars("v1", "ConfigMap", "1.32.0", False)["KindSuffix"] == "-v1"
    assert template_vars("apps/v1", "Deployment", "1.32.0", False)["KindSuffix"] == "-apps-v1"
    assert expand("schemas", v) == \
        "schemas/v1.32.0-standalone-strict/dynamographdeployment-nvidia-v1alpha1.json"


def test_ignore_filename_pattern(tmp_path: Path, mixed: Path) -> None:
    (tmp_path / "skip-me.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: 5\n")
    assert run("validate", "--skip", "Ingress", str(tmp_path))[0] == 1
    rc, out, _ = run("validate", "--skip", "Ingress", "--ignore-filename-pattern", r"skip-me\.yaml$",
                     "--summary", str(tmp_path))
    assert rc == 0 and "found in 1 file" in out
    assert run("validate", "--ignore-filename-pattern", "(", str(tmp_path))[0] == 2


def test_verbose_lists_valid_and_skipped(mixed: Path) -> None:
    _, out, _ = run("validate", "--skip", "Ingress", str(mixed))
    assert out == ""
    _, out, _ = run("validate", "--skip", "Ingress", "--verbose", str(mixed))
    assert f"{mixed}: ConfigMap/cm: resource is valid\n" in out
    assert f"{mixed}: Ingress/old: resource is skipped (kind extensions/v1beta1/Ingress skipped (--skip))" in out


def test_version() -> None:
    from dynamo_schema import __version__

    for argv in (["--version"], ["validate", "--version"]):
        rc, out, _ = run(*argv)
        assert rc == 0 and out.strip() == f"dynamo-schema {__version__}"


def test_jobs(mixed: Path, tmp_path: Path) -> None:
    rc, _, err = run("validate", "-j", "-1", str(mixed))
    assert rc == 2 and "must be 0 (all cores) or more" in err
    (tmp_path / "b.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    seq = run("validate", "-o", "json", str(tmp_path))
    par = run("validate", "-o", "json", "-j", "0", str(tmp_path))
    assert seq == par and seq[0] == 1
    from dynamo_schema._cli._options import jobs_count

    assert jobs_count(0) >= 1 and jobs_count(3) == 3


def test_every_option_has_help_and_help_names_no_repository_path() -> None:
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    for name, p in sub.choices.items():
        for a in p._actions:
            if isinstance(a, argparse._HelpAction) or a.help == argparse.SUPPRESS:
                continue
            if not a.help:
                missing.append(f"{name} {a.option_strings or a.dest}")
    assert missing == []
    text = parser.format_help()
    assert "shared/spec" not in text and "../" not in text


def test_o_means_output_everywhere_old_render_spelling_warns(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "vllm-disagg.yaml"
    rc, _, err = run("render", "--target", "kubernetes", "-o", str(tmp_path / "a"), str(example))
    assert rc == 0 and err.startswith("warning: render -o DIR is deprecated, use --out DIR")
    rc, _, err = run("render", "--target", "kubernetes", "--out", str(tmp_path / "b"), str(example))
    assert rc == 0 and err == ""
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(p.name for p in (tmp_path / "b").iterdir())
    parser = build_parser()
    for cmd in ("validate", "diff"):
        sp = parser._subparsers._group_actions[0].choices[cmd]  # type: ignore[union-attr]
        assert any("-o" in a.option_strings and "--output" in a.option_strings for a in sp._actions)


def test_ignore_filename_pattern_never_drops_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    """kubeconform's ``-ignore-filename-pattern`` filters the files it finds; standard input (``-``) is no
    file name, so even a pattern matching every name (``.``) leaves it checked."""
    import sys

    bad = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: 5\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(bad), encoding="utf-8"))
    rc, out, _ = run("validate", "--ignore-filename-pattern", ".", "--summary", "-")
    assert rc == 1 and "found parsing stdin - Valid: 0, Invalid: 1" in out
