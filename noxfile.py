"""Developer sessions: tests, lint, typecheck, layers, bench, oracles (kubeconform, kubectl-validate)."""

from __future__ import annotations

import os
import shutil

import nox

nox.options.sessions = ["tests", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-q", *session.posargs, env={"CI": "1"})


@nox.session
def lint(session: nox.Session) -> None:
    session.install("ruff", "import-linter", "-e", ".")
    session.run("ruff", "check", "dynamo_schema", "tests", "benchmarks", "tools")
    session.run("lint-imports")


@nox.session
def typecheck(session: nox.Session) -> None:
    session.install("mypy", "types-PyYAML", "-e", ".")
    session.run("mypy")


@nox.session
def bench(session: nox.Session) -> None:
    session.install("-e", ".", "check-jsonschema")
    session.run("python", "benchmarks/run.py", *session.posargs)


@nox.session
def oracles(session: nox.Session) -> None:
    """The independent oracles: pinned kubeconform and kubectl-validate (``go install``, cached), then the
    oracle tests with them required. ``DYNAMO_SCHEMA_DIFF_CASES=50000 nox -s oracles`` is the long run."""
    if shutil.which("go") is None and not os.environ.get("CI"):
        session.skip("Go is not installed")
    out = session.run("bash", ".ci/install-oracles.sh", silent=True, external=True)
    bin_dir = str(out).strip().splitlines()[-1]
    session.install("-e", ".[test]")
    env = {"CI": "1", "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    session.run("python", "-m", "pytest", "-q", "-m", "oracle", "tests/oracles", *session.posargs, env=env)
