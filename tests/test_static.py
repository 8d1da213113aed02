"""The architecture and the types are checked on every run, not only in a lint session.

* import-linter holds the pipeline's layers (pyproject ``[tool.importlinter]``): a stage never imports
  the CLI, the CLI never hides in a stage.
* mypy holds the package type-clean under ``--strict`` (pyproject ``[tool.mypy] strict = true``;
  ``py.typed`` promises it to users).
* no hand-written module is over 800 lines; tests write YAML through the Kubernetes-safe emitter.
* the tree carries no upstream code, no recipe to build or run it, and no data extracted from it (the
  operator's render test rows are reference data in ../shared; docs/upstream-render-tests.md).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.needs("lint-imports")
def test_layers_hold() -> None:
    proc = subprocess.run(["lint-imports"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    """``mypy`` with the project's settings: strict for every hand-written module."""
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


GENERATED = ("_generated", "_grove.py")  # models/_generated*.py and models/_grove.py come from tools/


def test_no_hand_written_module_is_over_800_lines() -> None:
    """Issue 9: a big file holds several modules; split it along its seams."""
    big = {}
    for path in sorted((ROOT / "dynamo_schema").rglob("*.py")):
        if path.parent.name == "models" and path.name.startswith(GENERATED):
            continue
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > 800:
            big[path.relative_to(ROOT).as_posix()] = lines
    assert not big, big


# Issue 26: the folders that held a harness compiled into upstream (and its build steps) and the rows
# extracted with it. Go sources of our own may exist (tests/io/data/gojson records Go's standard library);
# none may import the operator's packages.
UPSTREAM_ONLY = ("tools/upstream_dump", "tests/render/upstream_cases")


def test_no_upstream_code_or_extracted_data_in_the_tree() -> None:
    present = [p for p in UPSTREAM_ONLY if (ROOT / p).exists()]
    go = sorted(p.relative_to(ROOT).as_posix() for top in ("dynamo_schema", "tests", "tools", "docs", "benchmarks")
                for p in (ROOT / top).rglob("*") if p.name.endswith((".go", ".go.txt"))
                and "github.com/ai-dynamo/" in p.read_text(encoding="utf-8", errors="replace"))
    assert not present and not go, (present, go)


#: what only a build or a download makes: a package archive, a compiled object (nothing we write is one)
_BUILT = (".whl", ".egg", ".tar.gz", ".tgz", ".zip", ".so", ".pyd", ".dylib", ".dll", ".exe", ".a", ".o")


def _tracked_files() -> list[str]:
    """The files git tracks (every file under the project's folders outside a checkout)."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True)
        return [f for f in out.stdout.decode("utf-8", "replace").split("\0") if f]
    skip = {".git", ".nox", ".venv", "build", "dist", "__pycache__", ".hypothesis", ".mypy_cache", ".ruff_cache"}
    return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def test_no_package_archive_or_compiled_object_in_the_tree() -> None:
    """A downloaded wheel or a compiled module is nobody's source here (the package ships only what we write or
    generate): a stray ``pip download`` or build output committed by ``git add -A`` fails this."""
    built = [f for f in _tracked_files() if f.lower().endswith(_BUILT)]
    assert not built, built


def test_tests_write_yaml_through_the_kubernetes_safe_emitter() -> None:
    # issue 20: yaml.safe_dump writes a generated label value `n` unquoted, which our loader (like
    # sigs.k8s.io/yaml) reads back as a boolean; tests/_yaml.py is the emitter tests use. A line marked
    # ``# negative control`` calls it on purpose, to show what it gets wrong (tests/test_public_types.py).
    unsafe = re.compile(r"(?<![\w.])yaml\.(safe_)?dump(_all)?\(")
    offenders = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*.py")
                       if p.name not in ("_yaml.py", "test_static.py", "test_emit_fast.py")
                       and any(unsafe.search(line) and "# negative control" not in line
                               for line in p.read_text(encoding="utf-8").splitlines()))
    assert not offenders, offenders


def _private_names_imported_from_other_packages(package: str) -> list[str]:
    """``from OTHER import _name`` in the modules of ``dynamo_schema.<package>`` where ``_name`` is not a module."""
    import ast

    def is_module(module: str, name: str) -> bool:
        where = ROOT.joinpath(*module.split("."), name)
        return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()

    out: list[str] = []
    for path in sorted((ROOT / "dynamo_schema" / package).rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        pkg_parts = parts if rel.name == "__init__" else parts[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = pkg_parts[: len(pkg_parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("dynamo_schema.") or module.startswith(f"dynamo_schema.{package}"):
                continue
            for alias in node.names:
                dunder = alias.name.startswith("__") and alias.name.endswith("__")
                if alias.name.startswith("_") and not dunder and not is_module(module, alias.name):
                    out.append(f"{rel}:{node.lineno}: from {module} import {alias.name}")
    return out


def test_the_cli_imports_no_private_name_of_another_package() -> None:
    """The command line reads other packages through their non-underscore names only (issue 21); a
    private module (``_pipeline._validate``) may be imported, a private name in it may not."""
    assert _private_names_imported_from_other_packages("_cli") == []


def test_the_private_name_check_finds_one() -> None:
    """The check above can fail: ``_pipeline`` does read a private name of another package."""
    found = _private_names_imported_from_other_packages("_pipeline")
    assert found and all(" import _" in f for f in found)


def _kind_tuples(root: Path) -> list[str]:
    """Literal tuples, lists and sets of two or more Dynamo kind names in the package, outside the registry."""
    import ast

    from dynamo_schema._core._kinds import DYNAMO_KINDS

    kinds = set(DYNAMO_KINDS)
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ("dynamo_schema/_core/_kinds.py",) or "/models/" in rel:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exports = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)}  # class names
        for node in ast.walk(tree):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in exports:
                names = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in kinds]
                if len(names) >= 2:
                    found.append(f"{rel}:{node.lineno}: {names}")
    return found


def test_no_kind_name_tuple_outside_the_registry() -> None:
    """Which kinds a step handles is read from ``_core/_kinds.py`` (issue 21), not written out again."""
    assert _kind_tuples(ROOT / "dynamo_schema") == []


def test_the_kind_tuple_check_finds_one(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('K = ("DynamoGraphDeployment", "DynamoModel")\n', encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert _kind_tuples(tmp_path) == ["m.py:1: ['DynamoGraphDeployment', 'DynamoModel']"]
    finally:
        ROOT = saved
