"""Helm charts (issue 20, item 3): a chart's templates are skipped with a ``helm.template`` note (they are
Go-template text, not manifests), and ``validate --helm CHART`` validates ``helm template``'s output with
problems located in the chart's template files by helm's ``# Source:`` comments."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dynamo_schema._cli._main import main
from tests.oracles._tools import require

DGD_TEMPLATE = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: {{ .Release.Name }}-dgd
  labels:
    {{- include "web.labels" . | nindent 4 }}
spec:
  components:
    - name: Frontend
      type: {{ .Values.frontendType }}
      replicas: {{ .Values.replicas }}
      podTemplate:
        spec:
          containers:
            - name: main
              image: {{ .Values.image | quote }}
"""

SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
    - port: 80
"""

HELPERS = '{{- define "web.labels" -}}\napp: web\n{{- end -}}\n'

VALUES = "frontendType: frontend\nreplicas: 1\nimage: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0\n"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def line_of(f: Path, needle: str) -> int:
    return next(i for i, t in enumerate(f.read_text().splitlines(), 1) if needle in t)


def chart(tmp: Path) -> Path:
    c = tmp / "web"
    (c / "templates").mkdir(parents=True)
    (c / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n")
    (c / "values.yaml").write_text(VALUES)
    (c / "templates" / "dgd.yaml").write_text(DGD_TEMPLATE)
    (c / "templates" / "service.yaml").write_text(SERVICE)
    (c / "templates" / "_helpers.tpl").write_text(HELPERS)
    return c


def test_a_charts_files_are_skipped_with_the_helm_note(tmp_path: Path) -> None:
    c = chart(tmp_path)
    rc, out, _ = run("validate", "--summary", str(c))
    assert rc == 0, out
    lines = out.splitlines()
    dgd, svc = c / "templates" / "dgd.yaml", c / "templates" / "service.yaml"
    # the template that does not load as YAML: at its first action; the one that does: still a template
    assert lines[0].startswith(f"{dgd}:4:9: note: a template of the Helm chart ")
    assert lines[0].endswith(f"validate the rendered chart with `validate --helm {c}` [helm.template]")
    assert lines[1].startswith(f"{svc}:1:1: note: a template of the Helm chart ")
    assert "could not find expected" not in out
    # Chart.yaml, values.yaml and the two templates: all skipped, nothing fails
    assert lines[2] == "Summary: 4 resources found in 4 files - Valid: 0, Invalid: 0, Errors: 0, Skipped: 4"


def test_the_note_is_in_json_and_github_output(tmp_path: Path) -> None:
    c = chart(tmp_path)
    rc, out, _ = run("validate", "-o", "json", str(c / "templates" / "dgd.yaml"))
    assert rc == 0
    (res,) = json.loads(out)["resources"]
    assert res["status"] == "skipped"
    assert [(d["rule"], d["severity"], d["line"]) for d in res["errors"]] == [("helm.template", "note", 4)]
    rc, out, _ = run("validate", "-o", "github", str(c / "templates" / "dgd.yaml"))
    assert rc == 0 and out.startswith("::notice file=") and "[helm.template]" in out


def test_a_loose_file_with_template_actions_that_does_not_load(tmp_path: Path) -> None:
    f = tmp_path / "deploy.yaml"
    f.write_text(DGD_TEMPLATE)
    rc, out, _ = run("validate", "--summary", str(f))
    assert rc == 0, out
    assert out.splitlines()[0] == (
        f"{f}:4:9: note: a Helm template (Go-template actions such as {{{{ .Release.Name }}}}): not YAML until "
        "rendered, skipped; validate the rendered chart with `validate --helm CHART` [helm.template]")
    assert out.splitlines()[1].endswith("Skipped: 1")
    # without template actions a syntax error is still an error
    f.write_text(SERVICE + "  bad: [\n")
    rc, out, _ = run("validate", str(f))
    assert rc == 1 and "[load.syntax]" in out
    # a file that loads is validated as usual, actions or not
    f.write_text(DGD_TEMPLATE.replace("{{ .Release.Name }}-dgd", '"{{ .Release.Name }}"')
                 .replace("    {{- include \"web.labels\" . | nindent 4 }}", "    app: web")
                 .replace("{{ .Values.frontendType }}", "frontend").replace("{{ .Values.replicas }}", "1")
                 .replace("{{ .Values.image | quote }}", "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0"))
    rc, out, _ = run("validate", str(f))
    assert rc == 1 and f"{f}:4:3: " in out and 'Invalid value: "{{ .Release.Name }}"' in out, out


def test_helm_without_helm_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = chart(tmp_path)
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    rc, out, err = run("validate", "--helm", str(c))
    assert (rc, out) == (2, "")
    assert "--helm needs `helm` on PATH" in err


def test_helm_values_without_helm_chart_is_a_usage_error(tmp_path: Path) -> None:
    rc, _, err = run("validate", "-f", str(tmp_path / "v.yaml"), str(tmp_path))
    assert rc == 2 and "-f/--values and --helm-set are values for --helm CHART" in err


@pytest.fixture
def only_helm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """PATH holds helm and nothing else (no kubectl, no kustomize)."""
    helm = require("helm")
    d = tmp_path / "bin"
    d.mkdir()
    (d / "helm").symlink_to(helm)
    monkeypatch.setenv("PATH", str(d))
    return str(d / "helm")


def test_helm_renders_and_validates_the_chart(tmp_path: Path, only_helm: str) -> None:
    c = chart(tmp_path)
    rc, out, err = run("validate", "-v", "--summary", "--helm", str(c))
    assert rc == 0, out + err
    assert err == f"validate: --helm {c}: rendered with `helm template` ({only_helm})\n"
    assert f"{c}/templates/dgd.yaml: DynamoGraphDeployment/release-name-dgd: resource is valid" in out
    assert f"{c}/templates/service.yaml: Service/web: resource is valid" in out


def test_helm_problems_are_located_in_the_template_files(tmp_path: Path, only_helm: str) -> None:
    c = chart(tmp_path)
    bad = tmp_path / "bad-values.yaml"
    bad.write_text("frontendType: frontnd\n")
    dgd = c / "templates" / "dgd.yaml"
    rc, out, _ = run("validate", "--helm", str(c), "-f", str(bad), "--helm-set", "replicas=-3")
    assert rc == 1, out
    got = {line.split(": ", 1)[0] for line in out.splitlines()}
    assert got == {f"{dgd}:{line_of(dgd, 'type: {{')}:7", f"{dgd}:{line_of(dgd, 'replicas: {{')}:7"}, out
    assert 'Unsupported value: "frontnd"' in out


def test_helm_template_failure_is_an_error_resource(tmp_path: Path, only_helm: str) -> None:
    c = chart(tmp_path)
    (c / "templates" / "broken.yaml").write_text("{{ .Values.nope.deeper }}\n")
    rc, out, _ = run("validate", "--helm", str(c))
    assert rc == 1
    assert f"helm:{c}: " in out and "[helm.template-failed]" in out


def test_template_line_mapping() -> None:
    from dynamo_schema._pipeline._helm import template_line

    tpl = DGD_TEMPLATE.splitlines()
    # the rendered line appears once in the template: that line, at its indentation
    assert template_line(tpl, "    - name: Frontend", ["spec", "components"]) == (9, 5)
    # a templated value: the template line of the same key path
    assert template_line(tpl, "      replicas: -3", ["spec", "components", "replicas"]) == (11, 7)
    # a key the template does not have (it came from an included helper): no line
    assert template_line(tpl, "    app: web", ["metadata", "labels", "app"]) is None
    # keys must nest (growing indentation): a top-level `type` is not the component's
    assert template_line(["type: x", "spec:", "  type: {{ .Values.t }}"], "  type: y", ["spec", "type"]) == (3, 3)
    assert template_line(["spec:", "type: {{ .Values.t }}"], "  type: y", ["spec", "type"]) is None


TWO_WORKERS = """\
spec:
  components:
    - name: Frontend
      replicas: 1
      image: {{ .Values.image }}
    - name: {{ .Values.worker }}
      replicas: {{ .Values.replicas }}
      image: {{ .Values.image }}
"""


def test_a_templated_line_is_found_by_matching_its_actions_as_any_text() -> None:
    # before: the key path alone (indices ignored) put the second component's name and replicas at the
    # first component's lines (3 and 4)
    from dynamo_schema._pipeline._helm import template_line

    tpl = TWO_WORKERS.splitlines()
    out = ["spec:", "  components:", "    - name: Frontend", "      replicas: 1", "      image: img:1",
           "    - name: Bad_Name", "      replicas: -1", "      image: img:1"]
    assert template_line(tpl, out[5], ["spec", "components", "name"], out, 5) == (6, 5)
    assert template_line(tpl, out[6], ["spec", "components", "replicas"], out, 6) == (7, 7)
    # two template lines match (`image: {{ … }}` twice): the k-th rendered one is the k-th template line
    assert template_line(tpl, out[4], ["spec", "components", "image"], out, 4) == (5, 7)
    assert template_line(tpl, out[7], ["spec", "components", "image"], out, 7) == (8, 7)
    # a loop rendered the line more often than the template has it: no occurrence, the key path decides
    looped = [*out, "      image: img:1"]
    assert template_line(tpl, looped[8], ["spec", "components", "image"], looped, 8) == (5, 7)
    # a repeated literal line: the k-th rendered one is the k-th template line, when the counts agree
    lit = ["a:", "  - name: main", "b:", "  - name: main"]
    assert template_line(lit, lit[3], ["b", "name"], lit, 3) == (4, 3)
    assert template_line(lit, lit[1], ["b", "name"], lit, 1) == (2, 3)


def test_helm_problems_of_a_second_component_are_at_its_template_lines(tmp_path: Path, only_helm: str) -> None:
    c = chart(tmp_path)
    dgd = c / "templates" / "dgd.yaml"
    dgd.write_text(DGD_TEMPLATE + "    - name: {{ .Values.worker }}\n      type: worker\n"
                   "      replicas: {{ .Values.workerReplicas }}\n      podTemplate:\n        spec:\n"
                   "          containers:\n            - name: main\n              image: {{ .Values.image | quote }}\n")
    rc, out, _ = run("validate", "-o", "json", "--helm", str(c), "--helm-set", "worker=Bad_Name",
                     "--helm-set", "workerReplicas=-1")
    assert rc == 1, out
    got = {(d["path"], d["line"]) for r in json.loads(out)["resources"] for d in r["errors"]
           if d["severity"] == "error"}
    assert got == {("spec.components[1].name", line_of(dgd, "name: {{ .Values.worker }}")),
                   ("spec.components[1].replicas", line_of(dgd, "replicas: {{ .Values.workerReplicas")),
                   ("spec.components[1]", line_of(dgd, "name: {{ .Values.worker }}"))}, out
