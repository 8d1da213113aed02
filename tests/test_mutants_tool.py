"""tools/mutants.py's test selection by coverage (issue 24): which lines a mutant's statement spans, and
when the selection gives way to the package's folder."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("_mutants_tool", ROOT / "tools" / "mutants.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["_mutants_tool"] = mod
    try:
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.modules.pop("_mutants_tool", None)


SOURCE = """\
def f(x):
    if (x > 1
            and x < 5):
        return g(x,
                 x + 1)
    for i in range(x):
        pass
    return 0
"""


@pytest.mark.parametrize(("line", "want"), [
    (1, [1]),          # a def: its header line only (the body is other statements)
    (2, [2, 3]),       # an if over two lines: the whole header, not its body
    (3, [2, 3]),
    (4, [4, 5]),       # a return spanning two lines
    (5, [4, 5]),
    (6, [6]),          # a for header
    (8, [8]),
])
def test_statement_lines(tool, line, want):
    assert list(tool._statement_lines(SOURCE, line)) == want


def _setup(tool, tmp_path, lines, sha=None):
    rel = "dynamo_schema/x.py"
    (tmp_path / "dynamo_schema").mkdir()
    (tmp_path / rel).write_text(SOURCE, encoding="utf-8")
    tool.COVMAP.clear()
    tool.COVMAP.update({"tests": ["tests/a.py::t1", "tests/b.py::t2[1]", "tests/c.py::t3"],
                        "files": {rel: {"sha": sha or hashlib.sha256(SOURCE.encode()).hexdigest(),
                                        "lines": lines}}})
    return tool.Mutant(id="", package="<top>", path=rel, line=3, operator="op", occurrence=0)


def test_covering_tests_union_over_the_statement(tool, tmp_path):
    m = _setup(tool, tmp_path, {"2": [0], "3": [2], "4": [1]})
    assert tool.covering_tests(tmp_path, m) == ["tests/a.py::t1", "tests/c.py::t3"]


def test_a_changed_module_runs_every_test_that_reached_it(tool, tmp_path):
    """The map's line numbers do not hold for a module changed since it was made: the selection is every
    test that executed any line of the module (from any folder), not the module's own folder alone."""
    m = _setup(tool, tmp_path, {"1": [-1], "2": [0], "7": [2], "9": [1]}, sha="0" * 64)
    assert tool.covering_tests(tmp_path, m) == ["tests/a.py::t1", "tests/b.py::t2[1]", "tests/c.py::t3"]


@pytest.mark.parametrize("case", ["import-time", "uncovered", "unmapped"])
def test_covering_tests_falls_back_to_the_folder(tool, tmp_path, case):
    lines = {"2": [0, -1]} if case == "import-time" else {"7": [0]} if case == "uncovered" else {"2": [0]}
    m = _setup(tool, tmp_path, lines)
    if case == "unmapped":
        m.path = "dynamo_schema/other.py"
    assert tool.covering_tests(tmp_path, m) is None


def test_tests_newer_than_the_map_run_first(tool, tmp_path):
    """A test written after the map was made (to kill a survivor) is not in the map: it runs after the
    covering tests (its own package's folder before others), each once."""
    m = _setup(tool, tmp_path, {"2": [0], "3": [2]})
    m.package = "_merge"  # folder tests/merge
    tool.NEW_TESTS[:] = ["tests/render/test_x.py::t9", "tests/merge/test_new.py::t8[a]"]
    try:
        assert tool.covering_tests(tmp_path, m) == [
            "tests/a.py::t1", "tests/c.py::t3", "tests/merge/test_new.py::t8[a]", "tests/render/test_x.py::t9"]
        (tmp_path / "b").mkdir()
        # an import-time line still falls back to the folder (which holds the new tests)
        m = _setup(tool, tmp_path / "b", {"2": [0, -1]})
        assert tool.covering_tests(tmp_path / "b", m) is None
    finally:
        tool.NEW_TESTS.clear()


def test_frozen_sample_file_reads_back(tool, tmp_path):
    path = tmp_path / "sample.tsv"
    path.write_text(f"{tool.FROZEN_HEADER}\n# drawn by: x\nabc123\tdynamo_schema/_merge/_engine.py\t12\t"
                    "core/NumberReplacer\t3\n", encoding="utf-8")
    (m,) = tool.read_frozen(path)
    assert (m.id, m.package, m.path, m.line, m.operator, m.occurrence) == (
        "abc123", "_merge", "dynamo_schema/_merge/_engine.py", 12, "core/NumberReplacer", 3)


def test_two_frozen_files_run_each_mutant_once(tool, tmp_path):
    """``--ids A --ids B``: a sample topped up by a second draw; a mutant frozen in both is run once, in A's order."""
    row = "{}\tdynamo_schema/_merge/_engine.py\t{}\tcore/NumberReplacer\t{}\n"
    first, second = tmp_path / "a.tsv", tmp_path / "b.tsv"
    first.write_text(f"{tool.FROZEN_HEADER}\n" + row.format("aaa", 1, 0) + row.format("bbb", 2, 0), encoding="utf-8")
    second.write_text(f"{tool.FROZEN_HEADER}\n" + row.format("bbb", 9, 9) + row.format("ccc", 3, 0), encoding="utf-8")
    got = tool.read_frozen_all([first, second])
    assert [(m.id, m.line) for m in got] == [("aaa", 1), ("bbb", 2), ("ccc", 3)]
    help_text = subprocess_help()
    assert "--ids FILE" in help_text and "repeatable" in help_text


def subprocess_help() -> str:
    import subprocess

    return subprocess.run([sys.executable, str(ROOT / "tools" / "mutants.py"), "--help"], capture_output=True,
                          text=True, check=True).stdout


def test_the_committed_sample_is_the_drawn_sample():
    """docs/mutation/sample.tsv: the seeded sample issue 24's figures are measured on (`--sample 1500` draws
    1,501: each package's share is rounded), distinct ids."""
    rows = [r.split("\t") for r in (ROOT / "docs" / "mutation" / "sample.tsv").read_text().splitlines()
            if r and not r.startswith("#")]
    assert len(rows) == 1501
    assert len({r[0] for r in rows}) == 1501
    assert all(len(r) == 5 and r[1].startswith("dynamo_schema/") for r in rows)


def test_the_committed_top_up_draw():
    """docs/mutation/sample-extra.tsv: a second seeded draw (`--sample 20 --seed 2`, 25 rows) that tops the sample
    up after 7 of its mutants were gone (their lines changed); 2 of its ids are in the first draw already."""
    def ids(name: str) -> list[str]:
        return [r.split("\t")[0] for r in (ROOT / "docs" / "mutation" / name).read_text().splitlines()
                if r and not r.startswith("#")]

    extra = ids("sample-extra.tsv")
    assert len(extra) == len(set(extra)) == 25
    assert len(set(extra) & set(ids("sample.tsv"))) == 2


def test_the_mutation_extra_installs_what_the_tool_needs():
    """``nox -s mutants`` installs ``.[mutation]`` only: the tool's own imports (cosmic-ray's operators, coverage's
    data API) and the pytest plugin its coverage map runs under (``--cov``: pytest-cov) must all be declared there
    (a fresh machine without pytest-cov could not build the map)."""
    import ast

    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    declared = {re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0].lower() for req in extras["mutation"]}
    tree = ast.parse((ROOT / "tools" / "mutants.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    third_party = imported - set(sys.stdlib_module_names) - {"__future__"}
    assert third_party == {"cosmic_ray", "coverage"}
    assert "cosmic-ray" in declared
    assert "pytest-cov" in declared  # brings coverage with it
    assert "--cov-context=test" in (ROOT / "tools" / "mutants.py").read_text()
