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
