"""Developer sessions (docs/decisions.md D12 says which one CI runs and how the lock is refreshed).

* ``tests-3.10`` … ``tests-3.13``: the suite on each supported Python with the locked test environment
  (``requirements/test.lock``), oracles installed, ``CI=1`` (nothing may skip for a missing tool).
* ``lowest``: the declared floors (``uv pip compile --resolution lowest-direct``) on the oldest Python.
* ``latest``: today's newest releases, no lock, on the newest Python.
* ``lock``: refresh ``requirements/test.lock`` (universal: valid on every supported Python).
* ``lint``, ``typecheck``, ``bench``, ``oracles``.
* ``mutants``: mutation testing (``tools/mutants.py``, D54): ``nox -s mutants -- --sample 200 --seed 1``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
LOCK = "requirements/test.lock"
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]

nox.options.sessions = ["tests-3.11", "lint"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True  # a missing Python is a failure, never a quiet skip


def _find_pythons() -> None:
    """pyenv keeps non-global versions off PATH: put their bin folders on it so nox finds pythonX.Y."""
    versions = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    extra = []
    for v in PYTHONS:
        if shutil.which(f"python{v}") is None or subprocess.run([f"python{v}", "-V"], capture_output=True).returncode:
            extra += [str(d / "bin") for d in sorted(versions.glob(f"{v}.*")) if (d / "bin" / f"python{v}").exists()][-1:]
    if extra:
        os.environ["PATH"] = os.pathsep.join([*extra, os.environ.get("PATH", "")])


_find_pythons()


def _oracle_env(session: nox.Session) -> dict[str, str]:
    """PATH with the pinned oracles (``.ci/install-oracles.sh`` builds them once into a cache)."""
    env = {"CI": "1"}
    script = ROOT / ".ci" / "install-oracles.sh"
    if script.is_file():
        bindir = subprocess.run(["bash", str(script)], check=True, capture_output=True, text=True).stdout.strip()
        env["PATH"] = os.pathsep.join([bindir.splitlines()[-1], os.environ.get("PATH", "")])
    return env


def _pytest(session: nox.Session) -> None:
    session.run("python", "-m", "pip", "list", "--format=freeze", silent=False)
    session.run("python", "-m", "pytest", "-q", *session.posargs, env=_oracle_env(session))


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    session.install("-c", LOCK, "-e", ".[test]")
    _pytest(session)


@nox.session(python=PYTHONS[0])
def lowest(session: nox.Session) -> None:
    session.install("uv")
    floors = Path(session.create_tmp()) / "lowest.txt"
    session.run("uv", "pip", "compile", "pyproject.toml", "--extra", "test", "--resolution", "lowest-direct",
                "--python-version", PYTHONS[0], "--no-emit-package", "dynamo-schema", "-q", "-o", str(floors))
    session.install("-c", str(floors), "-e", ".[test]")
    _pytest(session)


@nox.session(python=PYTHONS[-1])
def latest(session: nox.Session) -> None:
    session.install("--upgrade", "--upgrade-strategy", "eager", "-e", ".[test]")
    _pytest(session)


@nox.session(python=False)
def lock(session: nox.Session) -> None:
    # the dev tools too (ruff, nox, check-jsonschema): ``lint`` and ``bench`` install them with ``-c LOCK``
    session.run("uv", "pip", "compile", "pyproject.toml", "--extra", "test", "--extra", "dev", "--universal",
                "--python-version", PYTHONS[0], "--no-emit-package", "dynamo-schema", "--upgrade",
                "--custom-compile-command", "nox -s lock", "-o", LOCK)


@nox.session
def lint(session: nox.Session) -> None:
    session.install("-c", LOCK, "ruff", "import-linter", "-e", ".")
    session.run("ruff", "check", "dynamo_schema", "tests", "benchmarks", "tools")
    session.run("lint-imports")


@nox.session
def typecheck(session: nox.Session) -> None:
    session.install("-c", LOCK, "mypy", "types-PyYAML", "-e", ".")
    session.run("mypy")


@nox.session
def bench(session: nox.Session) -> None:
    # installed as users install it (not editable: an editable install's import hook loads pathlib and
    # friends, ~8 ms of every cold start, which neither a wheel nor check-jsonschema pays; D33)
    session.install("-c", LOCK, ".[lsp]", "check-jsonschema")
    session.run("python", "benchmarks/run.py", *session.posargs)


@nox.session
def oracles(session: nox.Session) -> None:
    """The independent oracles: pinned kubeconform and kubectl-validate (``go install``, cached), then the
    oracle tests with them required. ``DYNAMO_SCHEMA_DIFF_CASES=50000 nox -s oracles`` is the long run."""
    if shutil.which("go") is None and not os.environ.get("CI"):
        session.skip("Go is not installed")
    out = session.run("bash", ".ci/install-oracles.sh", silent=True, external=True)
    bin_dir = str(out).strip().splitlines()[-1]
    session.install("-c", LOCK, "-e", ".[test]")
    env = {"CI": "1", "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    session.run("python", "-m", "pytest", "-q", "-m", "oracle", "tests/oracles", *session.posargs, env=env)


@nox.session
def mutants(session: nox.Session) -> None:
    """Mutation testing (cosmic-ray's operators, our runner; D54). Not in .ci/run: a sample of 200 takes
    about an hour on two cores. Arguments go to tools/mutants.py (``--sample N --seed S``, ``--package``)."""
    session.install("-c", LOCK, "-e", ".[mutation]")
    session.run("python", "tools/mutants.py", *(session.posargs or ["--sample", "200", "--seed", "1"]),
                env=_oracle_env(session))
