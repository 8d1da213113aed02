"""Developer sessions: tests, lint, typecheck, layers, bench, kubeconform (optional)."""

from __future__ import annotations

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
def kubeconform(session: nox.Session) -> None:
    """Differential check with the real kubeconform binary, when it is on PATH."""
    if shutil.which("kubeconform") is None:
        session.skip("kubeconform is not on PATH")
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-q", "tests/test_kubeconform_oracle.py", env={"DYNAMO_SCHEMA_KUBECONFORM": "1"})
