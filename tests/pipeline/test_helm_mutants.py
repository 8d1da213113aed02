"""``_pipeline._helm``: mutants the suite left alive (issue 24). ``helm`` is a stand-in script printing a
fixed ``helm template`` output (helm writes ``---`` then ``# Source: CHART/templates/FILE`` before each
document), so no helm install is needed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dynamo_schema._pipeline._helm import helm_results, template_line
from dynamo_schema._pipeline._validate import ValidateOptions

SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: b\n"


@pytest.fixture
def fake_helm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    chart = tmp_path / "web"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n")
    (chart / "templates" / "service.yaml").write_text(SERVICE)
    (chart / "templates" / "cm.yaml").write_text(CONFIGMAP)
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(f"---\n# Source: web/templates/service.yaml\n{SERVICE}"
                        f"---\n# Source: web/templates/cm.yaml\n{CONFIGMAP}")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    helm = bin_dir / "helm"
    helm.write_text(f"#!/bin/sh\nexec cat {rendered}\n")
    helm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return chart


def test_each_document_is_filed_under_its_source_template(fake_helm: Path) -> None:
    """docs/cli.md (validate --helm): each rendered document is reported in the template file helm's
    ``# Source:`` comment before it names."""
    # mutant 7fc269a570fb (line numbers of the Source comments i + 1 -> i + 2)
    got = [(r.kind, r.filename) for r in helm_results(str(fake_helm), [], [], ValidateOptions())]
    assert got == [("Service", str(fake_helm / "templates" / "service.yaml")),
                   ("ConfigMap", str(fake_helm / "templates" / "cm.yaml"))]


def test_a_repeated_line_is_found_by_its_key_path() -> None:
    """docs/cli.md (validate --helm): a rendered line that is not once in the template is placed at the
    template line of the same key path."""
    # mutant b970df232048 (the key regex built with / instead of +)
    tpl = ["a:", "  b: 1", "c:", "  b: 1"]
    assert template_line(tpl, "  b: 1", ["c", "b"]) == (4, 3)
    assert template_line(tpl, "  b: 1", ["a", "b"]) == (2, 3)


def _validate_json(path: Path, *args: str) -> tuple[int, list[dict]]:
    import io
    import json

    from dynamo_schema._cli._main import main

    out = io.StringIO()
    rc = main(["validate", *args, "-o", "json", str(path)], stdout=out, stderr=io.StringIO())
    return rc, json.loads(out.getvalue())["resources"]


def test_a_load_warning_does_not_make_a_manifest_a_helm_template(tmp_path: Path) -> None:
    """docs/cli.md (Helm templates are skipped): a file outside a chart is taken for a Helm template only when
    it does not load; under ``--no-strict`` a duplicate key is a warning (the API server's decoder keeps the
    last value), so a file with ``{{ x }}`` in a value or comment is still validated, not skipped."""
    # mutant 3c3259b55bf2 (d.severity == "error" -> >= "error": "warning" sorts after "error"); a List's own
    # keys are the file's diagnostics (LoadResult.errors) when it has no item to carry them
    f = tmp_path / "list.yaml"
    f.write_text("apiVersion: v1\nkind: List\nkind: List\nitems: []\n# {{ x }}\n")
    _, results = _validate_json(f, "--no-strict")
    # validated: an empty List with only a warning is skipped with that warning (docs/cli.md --strict), no
    # helm.template note
    assert [(r["status"], [d["rule"] for d in r.get("errors", [])]) for r in results] == [
        ("skipped", ["load.duplicate-key"])]


def test_a_lists_own_warning_goes_with_its_first_item(tmp_path: Path) -> None:
    """A duplicate key of a ``kind: List`` under ``--no-strict`` is a warning on the List, not a failed
    resource: the item is validated and the warning reported with it (exit 0)."""
    f = tmp_path / "list.yaml"
    f.write_text('apiVersion: v1\nkind: List\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n'
                 '  metadata:\n    name: cfg\n  data:\n    a: "{{ x }}"\n')
    rc, results = _validate_json(f, "--no-strict")
    assert rc == 0 and [(r["kind"], r["status"]) for r in results] == [("ConfigMap", "valid")]
    assert [(d["rule"], d["severity"], d["line"]) for d in results[0]["errors"]] == \
        [("load.duplicate-key", "warning", 3)]
    f.write_text(f.read_text().replace('"{{ x }}"', "b"))
    _, strict = _validate_json(f)
    assert [r["status"] for r in strict] == ["error", "valid"]  # strict: the duplicate key is an error


def test_a_templated_line_not_in_the_template_is_found_by_its_key_path() -> None:
    """docs/cli.md (validate --helm): a rendered line that does not appear in the template (here the value
    came from ``{{ .Values.n }}``) is placed at the template line of the same key path."""
    # mutant 039e332db608 (len(hits) == 1 -> <= 1: no hit indexed hits[0])
    tpl = ["spec:", "  replicas: {{ .Values.n }}"]
    assert template_line(tpl, "  replicas: 3", ["spec", "replicas"]) == (2, 3)
