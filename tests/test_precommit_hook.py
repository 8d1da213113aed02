"""The pre-commit hook, run for real with ``pre-commit try-repo`` in a throw-away git repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

VALID = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: ok
spec:
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""

INVALID = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: bad
spec:
  components:
    - name: Frontend
      type: frontnd
"""

OTHER = "name: ci\non: [push]\njobs: {}\n"


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t.invalid", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t.invalid", "PATH": "/usr/bin:/bin", "HOME": str(cwd)})


@pytest.mark.needs("pre-commit", "git")
@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_hook_passes_valid_and_fails_invalid(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "good.yaml").write_text(VALID)
    (repo / "workflow.yml").write_text(OTHER)  # not a Dynamo kind: skipped, never fails
    (repo / "README.txt").write_text("not yaml: [\n")  # not yaml/json: the hook does not see it
    _git(repo, "add", ".")

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["pre-commit", "try-repo", str(ROOT), "dynamo-schema-validate", "--all-files"],
            cwd=repo, capture_output=True, text=True, timeout=900,
        )

    ok = run()
    assert ok.returncode == 0, ok.stdout + ok.stderr
    (repo / "bad.yaml").write_text(INVALID)
    _git(repo, "add", "bad.yaml")
    bad = run()
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.yaml:8:7:" in bad.stdout, bad.stdout  # the key of the offending field
    assert 'Unsupported value: "frontnd"' in bad.stdout, bad.stdout


JSON6902_BAD = "- op: replace\n  path: /spec/components/0/type\n  value: frontnd\n"
KUSTOMIZATION = ("resources:\n  - good.yaml\npatches:\n  - path: patch.yaml\n    target:\n      group: nvidia.com\n"
                 "      version: v1beta1\n      kind: DynamoGraphDeployment\n")
TEMPLATE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n" \
           "    {{- include \"labels\" . | nindent 4 }}\n"


@pytest.mark.needs("pre-commit", "git")
@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_hook_skips_helm_templates_and_checks_json6902_patches(tmp_path: Path) -> None:
    """issue 20: a chart's templates are skipped with the Helm note, not a YAML error; a JSON6902 patch is
    checked against its target, refused at its line in the patch file (not load.not-a-mapping)."""
    repo = tmp_path / "repo"
    (repo / "chart" / "templates").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "chart" / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n")
    (repo / "chart" / "templates" / "svc.yaml").write_text(TEMPLATE)
    (repo / "good.yaml").write_text(VALID)
    (repo / "kustomization.yaml").write_text(KUSTOMIZATION)
    (repo / "patch.yaml").write_text(JSON6902_BAD.replace("frontnd", "worker"))
    _git(repo, "add", ".")

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["pre-commit", "try-repo", str(ROOT), "dynamo-schema-validate", "--all-files", "--verbose"],
            cwd=repo, capture_output=True, text=True, timeout=900,
        )

    ok = run()
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "chart/templates/svc.yaml:4:9: note: a template of the Helm chart chart" in ok.stdout, ok.stdout
    assert "could not find expected" not in ok.stdout
    (repo / "patch.yaml").write_text(JSON6902_BAD)
    _git(repo, "add", "patch.yaml")
    bad = run()
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "patch.yaml:3:3: DynamoGraphDeployment/: spec.components[0].type: Unsupported value: \"frontnd\"" \
        in bad.stdout, bad.stdout
    assert "load.not-a-mapping" not in bad.stdout
