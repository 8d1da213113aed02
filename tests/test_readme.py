"""The README's code blocks are run, so the README cannot drift from what the tool does.

* every ``python -m dynamo_schema ...`` line of a ``sh`` block runs (in a scratch copy of ``examples/``):
  exit 0, or 1 when it reads one of the bundled ``rejected-*`` examples or is a ``diff`` of two different
  files (kubectl diff's convention); never a traceback; and what the README says of it (its comment)
  holds on its output (``CLAIMS``);
* the ``text`` transcript (``$ command`` lines followed by their output) is replayed and compared line for line,
  ``$ echo $?`` against the previous exit code;
* every ``python`` block is executed;
* the pre-commit snippet names a hook that ``.pre-commit-hooks.yaml`` defines;
* the test command shown is the one ``.ci/run`` runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```$", README, flags=re.M | re.S)


def _blocks(lang: str) -> list[str]:
    return [body for kind, body in BLOCKS if kind == lang]


def _commands() -> list[list[str]]:
    out = []
    for body in _blocks("sh"):
        for line in body.splitlines():
            for part in line.split("&&"):
                argv = shlex.split(part, comments=True)
                if argv[:3] == ["python", "-m", "dynamo_schema"]:
                    out.append(argv[3:])
    return out


COMMANDS = _commands()


@pytest.fixture()
def scratch(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-m", "dynamo_schema", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=300, check=False)


def test_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 10
    assert ["render", "--target", "kubernetes", "examples/vllm-disagg.yaml"] in COMMANDS


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a)[:60] for a in COMMANDS])
def test_readme_command_runs(args: list[str], scratch: Path) -> None:
    proc = _run(args, scratch)
    reads_rejected = any(a.rstrip("/") == "examples" or "rejected-" in a for a in args)
    # diff exits as kubectl diff: 1 when OLD and NEW differ (docs/cli.md)
    differs = args[0] == "diff" and len({a for a in args[1:] if not a.startswith("-")}) > 1
    assert proc.returncode == (1 if reads_rejected or differs else 0), proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.stdout.strip(), "the command printed nothing"
    claim = next((check for prefix, check in CLAIMS.items() if " ".join(args).startswith(prefix)), None)
    assert claim is not None, f"the README's claim for {' '.join(args)!r} is not checked (add it to CLAIMS)"
    claim(proc.stdout, scratch)


_LINE = re.compile(r"^examples/[\w.-]+\.yaml:\d+:\d+: [A-Za-z]+/[\w.-]+: \S.*: .+ \[[a-z0-9.-]+\]$")


def _kinds(out: str) -> list[str]:
    return [d["kind"] for d in yaml.safe_load_all(out) if d]


def _claim_lines(out: str, _: Path) -> None:  # "schema + CEL + webhook rules, file:line:col"
    lines = out.splitlines()
    assert lines and all(_LINE.match(line) for line in lines), out
    assert {"[cel.single-epp]", "[dgd.min-available-grove]"} <= {line.rpartition(" ")[2] for line in lines}


def _claim_json(out: str, _: Path) -> None:  # docs/cli.md's JSON shape, with the summary
    body = json.loads(out)
    assert [r["status"] for r in body["resources"]] == ["valid"] and body["summary"]["valid"] == 1, body


def _claim_default(out: str, _: Path) -> None:  # "the object as admission would store it"
    (doc,) = [d for d in yaml.safe_load_all(out) if d]
    assert (doc["apiVersion"], doc["kind"], doc["metadata"]["name"]) == (
        "nvidia.com/v1beta1", "DynamoGraphDeployment", "llama-disagg")


def _claim_grove(out: str, _: Path) -> None:  # "PodCliqueSet and friends"
    assert "PodCliqueSet" in _kinds(out) and "DynamoComponentDeployment" not in _kinds(out)


def _claim_kubernetes(out: str, _: Path) -> None:  # what the operator creates with Grove off
    assert {"DynamoComponentDeployment", "Deployment", "Service"} <= set(_kinds(out)), _kinds(out)


def _claim_merge(out: str, _: Path) -> None:  # the blueprint with the overrides: one DGD
    assert _kinds(out) == ["DynamoGraphDeployment"]


def _claim_schema(out: str, scratch: Path) -> None:  # JSON Schemas written, one per printed path
    paths = [Path(line) for line in out.splitlines()]
    assert paths and all(p.is_relative_to(scratch / "schemas") and json.loads(p.read_text()) for p in paths)


def _claim_diff(out: str, _: Path) -> None:  # "what restarts"
    assert "rolling restart" in out and "clique replicas 1 → 2" in out, out


def _claim_convert(out: str, scratch: Path) -> None:  # "v1alpha1 -> v1beta1, comments kept"
    source = (scratch / "examples" / "legacy-v1alpha1.yaml").read_text()
    comments = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
    assert {d["apiVersion"] for d in yaml.safe_load_all(out) if d} == {"nvidia.com/v1beta1"}
    assert comments and all(c in out for c in comments)


def _claim_release(out: str, _: Path) -> None:  # "as operator 1.1": the v1alpha1 file is served and valid
    assert out.splitlines()[-1] == "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0"


def _claim_explain(out: str, _: Path) -> None:
    assert out.startswith("KIND:     DynamoGraphDeployment\n") and "FIELD:    multinode <Object>" in out


def _claim_spec(out: str, _: Path) -> None:  # the Kubernetes adapter's manifests for the DeploymentSpec
    assert "Deployment" in _kinds(out)


#: What the README says each command does (its comment, or the sentence around it), checked on the output.
CLAIMS = {
    "validate examples/": _claim_lines,
    "validate -o json --summary": _claim_json,
    "default ": _claim_default,
    "render --target grove": _claim_grove,
    "render --target kubernetes": _claim_kubernetes,
    "merge ": _claim_merge,
    "schema --out": _claim_schema,
    "diff ": _claim_diff,
    "convert ": _claim_convert,
    "validate --summary --operator-version 1.1": _claim_release,
    "explain ": _claim_explain,
    "render --provider-config": _claim_spec,
}


def test_readme_transcript_is_what_the_tool_prints() -> None:
    (body,) = [b for b in _blocks("text") if b.startswith("$ ")]
    steps: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    last_rc = None
    for command, expected in steps:
        if command == "echo $?":
            assert expected == [str(last_rc)]
            continue
        argv = shlex.split(command)
        assert argv[:3] == ["python", "-m", "dynamo_schema"]
        proc = _run(argv[3:], ROOT)
        last_rc = proc.returncode
        assert proc.stdout.splitlines() == expected, proc.stdout + proc.stderr


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_readme_python_block_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_blocks("python")[index], f"README.md python block {index}", "exec"), {"__name__": "readme"})
    assert out.getvalue().strip()


def _hook_snippets() -> list[dict[str, object]]:
    return [entry for b in _blocks("yaml") if "hooks:" in b for entry in yaml.safe_load(b)]


def test_readme_precommit_snippet_names_a_real_hook() -> None:
    remote = [e for e in _hook_snippets() if e["repo"] != "local"]
    assert len(remote) == 1
    ids = {h["id"] for entry in remote for h in entry["hooks"]}  # type: ignore[attr-defined]
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert ids and ids <= set(hooks)
    # the local form is the published hook as it is, minus what only a remote repository needs
    (local,) = [e for e in _hook_snippets() if e["repo"] == "local"]
    for h in local["hooks"]:  # type: ignore[attr-defined]
        published = hooks[h["id"]]
        assert {k: h[k] for k in ("id", "name", "entry", "types_or")} == \
            {k: published[k] for k in ("id", "name", "entry", "types_or")}
        assert h["language"] == "system"


def _git_tags() -> set[str]:
    out = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.needs("git", "pre-commit")
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_readme_precommit_rev_is_a_tag_that_exists_or_the_documented_commit_form(tmp_path: Path) -> None:
    """``rev: v0.1.0`` named a tag that did not exist. Now: when the release tag of pyproject's version exists,
    the snippet uses it; until then it shows the full-commit-id form and says that no release is tagged.
    Either way pre-commit itself accepts the rev as immutable (no "mutable reference" warning)."""
    from tests._yaml import dump

    version = re.search(r'^version = "([^"]+)"$', (ROOT / "pyproject.toml").read_text(), re.M).group(1)  # type: ignore[union-attr]
    (remote,) = [e for e in _hook_snippets() if e["repo"] != "local"]
    rev = str(remote["rev"])
    if f"v{version}" in _git_tags():
        assert rev == f"v{version}"
    else:
        assert isinstance(remote["rev"], str) and re.fullmatch(r"[0-9a-f]{40}", rev), rev
        assert "No release is tagged yet" in README and f"`pyproject.toml` is {version}" in README
    config = tmp_path / "config.yaml"
    config.write_text(dump({"repos": [remote]}))
    res = subprocess.run(["pre-commit", "validate-config", str(config)], capture_output=True, text=True,
                         timeout=120, check=False)
    assert res.returncode == 0 and "mutable reference" not in res.stdout + res.stderr, res.stdout + res.stderr


@pytest.mark.needs("git", "pre-commit", "dynamo-schema")
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_readme_local_precommit_hook_runs(tmp_path: Path) -> None:
    """The README's ``repo: local`` snippet, run by pre-commit in a scratch repository: the examples pass,
    a rejected example fails at its line."""
    from tests._yaml import dump

    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@t.invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t.invalid"}

    def sh(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, cwd=repo, capture_output=True, text=True, env=env, timeout=300, check=False)

    sh("git", "init", "-q")
    (local,) = [e for e in _hook_snippets() if e["repo"] == "local"]
    (repo / ".pre-commit-config.yaml").write_text(dump({"repos": [local]}))
    shutil.copy(ROOT / "examples" / "vllm-disagg.yaml", repo / "good.yaml")
    sh("git", "add", ".")
    ok = sh("pre-commit", "run", "--all-files")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    shutil.copy(ROOT / "examples" / "rejected-dgd.yaml", repo / "bad.yaml")
    sh("git", "add", "bad.yaml")
    bad = sh("pre-commit", "run", "--all-files")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.yaml:8:3: DynamoGraphDeployment/broken: spec.components: " in bad.stdout, bad.stdout


def test_ci_runs_the_readme_test_command() -> None:
    shown = [line for body in _blocks("sh") for line in body.splitlines() if "pytest" in line]
    assert len(shown) == 1
    install, test = (shlex.split(part) for part in shown[0].split("&&"))
    ci = [shlex.split(line, comments=True) for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test in ci
    ci_install = next(argv for argv in ci if argv[:4] == ["python", "-m", "pip", "install"])
    assert [a for a in ci_install if a not in ("--disable-pip-version-check", "-q")] == install
