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
