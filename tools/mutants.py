"""Mutation testing of dynamo_schema (issue 24, docs/decisions.md D54).

Mutants come from cosmic-ray's operators (``cosmic_ray.plugins``: comparison, boolean, arithmetic, number,
``break``/``continue``, ``not``, exception, decorator and zero-iteration-loop mutations); this script picks
them, runs each against the *focused* tests of its package, and reports. It never mutates the work tree: every
run copies the repository's files into ``.mutants/tree`` (gitignored) and mutates the copy, with
``.mutants/shared`` linked to ``../shared`` so the tests' ``ROOT/../shared`` still finds the reference data.

    python tools/mutants.py --sample 200 --seed 1        # stratified sample (routine)
    python tools/mutants.py --package _merge              # every mutant of one package
    python tools/mutants.py                               # the full set (hours)
    nox -s mutants -- --sample 200 --seed 1

Outcomes: *killed* (the focused tests fail), *survived* (they pass), *timeout* (counted as killed, as
cosmic-ray and mutmut do: the mutant made the tests hang), *equivalent* (listed with a reason in
``tests/mutation/equivalent.txt``: no test can tell it from the original). Score = (killed + timeout) /
(mutants - equivalent). Survivors go to ``.mutants/report.md`` (file:line, operator, diff, id) and
``.mutants/report.json``.

A long sample can be run in parts (``--resume FILE``): the killed and timed-out outcomes recorded in FILE
(``docs/mutation/outcomes.tsv``: id, outcome, seconds, place, operator) are taken over for mutants with the same
id (the id changes when the mutated line or its neighbours change), survivors are run again, and every new
outcome is appended to FILE as it is decided, so a stopped run loses nothing.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import functools
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "dynamo_schema"
EXCLUDED = ("models", "_data")  # generated models and packaged data are not ours to mutate
WORK = ROOT / ".mutants"
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.txt"
PYTEST = ["-x", "-q", "-p", "no:cacheprovider", "--no-header", "-W", "ignore"]

# package (first folder under dynamo_schema, or "<top>" for the top-level modules) -> its focused tests
TESTS: dict[str, list[str]] = {
    "_admission": ["tests/admission"],
    "_api": ["tests/test_public_api.py", "tests/test_public_types.py"],
    "_cli": ["tests/cli"],
    "_convert": ["tests/convert"],
    "_core": ["tests/io", "tests/pipeline"],
    "_dgdr": ["tests/dgdr"],
    "_grove": ["tests/grove", "tests/pipeline/test_diff.py"],  # the in-place update checks: diff's tests
    "_infercrane": ["tests/infercrane"],
    "_io": ["tests/io"],
    "_k8s": ["tests/k8s"],
    "_lsp": ["tests/lsp"],
    "_merge": ["tests/merge"],
    "_pipeline": ["tests/pipeline", "tests/cli"],
    "_render": ["tests/render"],
    "_report": ["tests/report", "tests/cli/test_reporters.py"],
    "_schema": ["tests/schema"],
    "<top>": ["tests/test_public_api.py", "tests/cli"],
}
# modules whose behaviour is tested outside their package's folder: their own selection
MODULE_TESTS: dict[str, list[str]] = {
    "dynamo_schema/_schema/_explain.py": ["tests/cli/test_explain.py", "tests/schema"],
    # the value classes' base: its dataclass behaviour is pinned by tests/test_records.py (in no folder)
    "dynamo_schema/_core/_record.py": ["tests/test_records.py", "tests/io", "tests/pipeline"],
    # the lsp command's exit code: its server runs in a subprocess (not in the coverage map)
    "dynamo_schema/_cli/commands/lsp.py": ["tests/cli", "tests/lsp/test_command.py"],
}


def tests_for(m: Mutant) -> list[str]:
    return MODULE_TESTS.get(m.path, TESTS[m.package])


# --- test selection by coverage (``--select coverage``, the default) -------------------------------------
# One run of every focused folder under coverage.py with pytest-cov's per-test contexts records which tests
# execute each line (.mutants/coverage.json, per module with its content hash). A mutant then runs only the
# tests that execute its statement, from any folder. Where that selection cannot speak for the folder run it
# falls back to the folder: the statement runs at import time (module level, ``def`` lines, class bodies), no
# test executes it in-process, or pytest refuses the node ids; a module changed since the map was made runs
# every test that executed any line of it.
# A mutant the selected tests do not kill is run against its folder too (tests that run the CLI in a
# subprocess are not in the map), so an outcome is never weaker than the folder run's.
COVERAGE_MAP = WORK / "coverage.json"
COVMAP: dict[str, dict] = {}  # rel path -> {"sha": ..., "lines": {line: [test index]}}; "tests": [node ids]


def build_coverage_map(tree: Path) -> None:
    folders = sorted({t for sel in [*TESTS.values(), *MODULE_TESTS.values()] for t in sel})
    folders = [f for f in folders if not any(f != g and f.startswith(g.rstrip("/") + "/") for g in folders)]
    data_file = tree / ".coverage.mutants"
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header",
                           "-W", "ignore", f"--cov={PACKAGE}", "--cov-context=test", "--cov-report=",
                           f"--junitxml={WORK / 'durations.xml'}", *folders], cwd=tree, capture_output=True, text=True,
                          env={**_env(tree), "COVERAGE_FILE": str(data_file)})
    if proc.returncode != 0:
        raise SystemExit(f"coverage map: the focused tests do not pass unmutated:\n{proc.stdout[-3000:]}")
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    tests: dict[str, int] = {}
    files: dict[str, dict] = {}
    for measured in data.measured_files():
        path = Path(measured)
        try:
            rel = path.relative_to(tree).as_posix()
        except ValueError:
            continue
        lines: dict[str, list[int]] = {}
        for line, contexts in sorted(data.contexts_by_lineno(measured).items()):
            ids = set()
            for ctx in contexts:
                node = ctx.rsplit("|", 1)[0] if "|" in ctx else ctx
                ids.add(tests.setdefault(node, len(tests)) if node else -1)  # -1: run outside any test
            lines[str(line)] = sorted(ids)
        files[rel] = {"sha": hashlib.sha256(path.read_bytes()).hexdigest(), "lines": lines}
    names = sorted(tests, key=tests.get)  # type: ignore[arg-type]
    # the tests that ran but executed no line in-process (a CLI in a subprocess, docs checks) are known too:
    # only tests written after the map join every selection (collect_new_tests)
    known = sorted(set(_collect(tree)) - set(names))
    # the run's test durations (under coverage: an upper bound) give each folder selection its baseline
    import xml.etree.ElementTree as ET

    cases = [(c.get("classname", "").replace(".", "/"), float(c.get("time") or 0))
             for c in ET.parse(WORK / "durations.xml").iter("testcase")]
    baseline_file = WORK / "baseline.json"
    baseline = json.loads(baseline_file.read_text()) if baseline_file.is_file() else {}
    for sel in sorted({" ".join(v) for v in [*TESTS.values(), *MODULE_TESTS.values()]}):
        prefixes = [t.removesuffix(".py") for t in sel.split()]
        baseline.setdefault(sel, 5.0 + sum(secs for cls, secs in cases
                                           if any(cls == q or cls.startswith(q + "/") for q in prefixes)))
    baseline_file.write_text(json.dumps(baseline, indent=1))
    COVERAGE_MAP.write_text(json.dumps({"tests": names, "files": files, "uncovered_tests": known}), encoding="utf-8")
    print(f"coverage map: {len(names)} tests, {len(files)} modules, {time.monotonic() - start:.0f} s", flush=True)


def load_coverage_map() -> None:
    if COVERAGE_MAP.is_file():
        COVMAP.update(json.loads(COVERAGE_MAP.read_text(encoding="utf-8")))


def _statement_lines(source: str, line: int) -> range:
    """The lines of the innermost statement at ``line`` (a compound statement: its header only)."""
    best: ast.stmt | None = None
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno and (node.end_lineno or 0) <= (best.end_lineno or 0):
                best = node
    if best is None:
        return range(line, line + 1)
    end = best.end_lineno or best.lineno
    body = getattr(best, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.AST):
        first = min([body[0].lineno, *[d.lineno for d in getattr(best, "decorator_list", [])]])
        end = max(best.lineno, first - 1) if first > best.lineno else best.lineno
    return range(best.lineno, end + 1)


def covering_tests(tree: Path, m: Mutant) -> list[str] | None:
    """The node ids of the tests that execute ``m``'s statement, or None (fall back to the folder)."""
    entry = COVMAP.get("files", {}).get(m.path)
    if entry is None:
        return None
    original = (tree / m.path).read_bytes()
    lines = entry["lines"]
    picked: set[int] = set()
    if hashlib.sha256(original).hexdigest() != entry["sha"]:
        # the module changed since the map: its line numbers no longer hold, but the tests that executed any
        # of its lines still reach it (from every folder, not only the module's own)
        for ids in lines.values():
            picked.update(ids)
        picked.discard(-1)  # its import-time lines: the folder run that follows a survivor covers those
    else:
        for ln in _statement_lines(original.decode("utf-8"), m.line):
            picked.update(lines.get(str(ln), ()))
    if not picked or -1 in picked:
        return None
    names = COVMAP["tests"]
    covering = [names[i] for i in sorted(picked)]
    if not NEW_TESTS:
        return covering
    # tests written since the map was made (e.g. to kill this mutant) are not in it: they run after the
    # covering tests (which decide most mutants), those of the mutant's own folders before the others
    own = tuple(t.rstrip("/") for t in tests_for(m))
    mine = [t for t in NEW_TESTS if t.split("::", 1)[0] in own or t.startswith(tuple(f"{o}/" for o in own))]
    return list(dict.fromkeys([*covering, *mine, *NEW_TESTS]))


NEW_TESTS: list[str] = []  # node ids collected today that the coverage map does not know (new tests)


def _collect(tree: Path) -> list[str]:
    """The node ids of the focused tests in ``tree``."""
    folders = sorted({t for sel in [*TESTS.values(), *MODULE_TESTS.values()] for t in sel})
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "--no-header", "-W", "ignore", *folders], cwd=tree, env=_env(tree),
                          capture_output=True, text=True)
    return [ln.strip() for ln in proc.stdout.splitlines() if "::" in ln and not ln.startswith(" ")]


def collect_new_tests(tree: Path) -> None:
    """The node ids of the focused tests that are not in the coverage map (written after it was made)."""
    known = set(COVMAP.get("tests", ())) | set(COVMAP.get("uncovered_tests", ()))
    NEW_TESTS[:] = [t for t in dict.fromkeys(_collect(tree)) if t not in known]
    if NEW_TESTS:
        print(f"coverage map: {len(NEW_TESTS)} tests are newer than the map; they join every selection", flush=True)


@dataclass
class Mutant:
    id: str
    package: str
    path: str  # relative to ROOT
    line: int
    operator: str
    occurrence: int
    outcome: str = "pending"
    seconds: float = 0.0
    diff: str = ""
    selection: str = ""  # which tests decided it: "<n> covering tests", "folder", or both


def package_of(rel: str) -> str:
    parts = Path(rel).parts  # dynamo_schema/<pkg>/...
    return parts[1] if len(parts) > 2 else "<top>"


def modules() -> list[Path]:
    out = []
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        rel = path.relative_to(ROOT / PACKAGE)
        if rel.parts[0] in EXCLUDED or "__pycache__" in rel.parts:
            continue
        out.append(path)
    return out


def _annotation_lines(source: str) -> set[int]:
    """Lines that are only type annotations (``x: int | None``, ``-> A | B``, ``TYPE_CHECKING`` blocks):
    with postponed evaluation a mutation there changes no behaviour, so it is not generated at all."""
    lines: set[int] = set()
    tree = ast.parse(source)

    def span(node: ast.AST | None) -> None:
        if node is not None and hasattr(node, "lineno"):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            span(node.returns)
            for a in [*node.args.args, *node.args.posonlyargs, *node.args.kwonlyargs, node.args.vararg,
                      node.args.kwarg]:
                if a is not None:
                    span(a.annotation)
        elif isinstance(node, ast.AnnAssign) and node.value is None:
            span(node.annotation)
        elif isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for n in node.body:
                span(n)
    return lines


def _mutant_id(rel: str, operator: str, before: str, after: str) -> str:
    """Stable while the mutated line and its neighbours do not change (line numbers may shift)."""
    diff = [ln for ln in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=1)
            if not ln.startswith(("@@", "---", "+++"))]
    return hashlib.sha256("\n".join([rel, operator, *diff]).encode()).hexdigest()[:12]


def enumerate_mutants(paths: list[Path]) -> list[Mutant]:
    """Every (module, operator, occurrence) cosmic-ray would generate, less annotation-only lines; cached
    per module by content hash in .mutants/positions.json."""
    import cosmic_ray.plugins
    from cosmic_ray.ast import ast_nodes, get_ast

    cache_file = WORK / "positions.json"
    cache = json.loads(cache_file.read_text()) if cache_file.is_file() else {}
    operators = [(name, cosmic_ray.plugins.get_operator(name)) for name in sorted(cosmic_ray.plugins.operator_names())]
    operators = [(name, cls()) for name, cls in operators if not cls.arguments()]
    out: list[Mutant] = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        digest = hashlib.sha256(source.encode()).hexdigest()
        entry = cache.get(rel)
        if entry is None or entry["sha"] != digest:
            skip = _annotation_lines(source)
            module_ast = get_ast(source)
            nodes = list(ast_nodes(module_ast))
            found = []
            for name, op in operators:
                occurrence = 0
                for node in nodes:
                    for start, _end in op.mutation_positions(node):
                        if start[0] not in skip:
                            found.append([name, occurrence, start[0]])
                        occurrence += 1
            entry = cache[rel] = {"sha": digest, "mutants": found}
        for name, occurrence, line in entry["mutants"]:
            out.append(Mutant(id="", package=package_of(rel), path=rel, line=line, operator=name,
                              occurrence=occurrence))
    WORK.mkdir(exist_ok=True)
    cache_file.write_text(json.dumps(cache))
    return out


def stratified_sample(mutants: list[Mutant], n: int, seed: int) -> list[Mutant]:
    """n mutants, each package's share proportional to its size (at least one per package), seeded."""
    rng = random.Random(seed)
    by_pkg: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_pkg.setdefault(m.package, []).append(m)
    total = len(mutants)
    quota = {p: max(1, round(n * len(ms) / total)) for p, ms in by_pkg.items()}
    chosen = {p: rng.sample(ms, min(quota[p], len(ms))) for p, ms in sorted(by_pkg.items())}
    # interleaved (one package after another), so a run stopped early has covered every package
    picked: list[Mutant] = []
    while any(chosen.values()):
        for p in sorted(chosen):
            if chosen[p]:
                picked.append(chosen[p].pop(0))
    return picked


def load_equivalent() -> dict[str, str]:
    """``<id>  <path>:<line>  <reason>`` per line; ``#`` starts a comment line."""
    out: dict[str, str] = {}
    if EQUIVALENT.is_file():
        for raw in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                ident, _where, reason = (line.split(None, 2) + ["", ""])[:3]
                if not reason:
                    raise SystemExit(f"{EQUIVALENT}: {ident} has no reason")
                out[ident] = reason
    return out


TREE = ["tree"]  # the copy's folder under .mutants (--tree: a second run beside a running one)


def make_tree(name: str | None = None) -> Path:
    """A copy of the repository's files (tracked and untracked-not-ignored) to mutate."""
    tree = WORK / (name or TREE[0])
    if tree.exists():
        shutil.rmtree(tree)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    for rel in filter(None, files):
        src, dst = ROOT / rel, tree / rel
        if rel.startswith(".mutants/") or not (src.is_file() or src.is_symlink()):
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():  # schemas -> dynamo_schema/_data/schemas: a link in the copy too
            dst.symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, dst)
    link = WORK / "shared"
    shared = (ROOT / ".." / "shared").resolve()
    if link.is_symlink() or link.exists():
        link.unlink()
    if shared.is_dir():
        link.symlink_to(shared)
    return tree


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", CI="1", DYNAMO_SCHEMA_CEL_SHADOW="0")
    return env


def run_tests(tree: Path, tests: list[str], timeout: float) -> tuple[str, float, str]:
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", *PYTEST, *tests], cwd=tree, env=_env(tree),
                              capture_output=True, text=True, timeout=timeout, start_new_session=True)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start, ""
    # 4: pytest refused the arguments (a node id it cannot find), 5: no test collected: no verdict
    outcome = {0: "survived", 4: "refused", 5: "refused"}.get(proc.returncode, "killed")
    return outcome, time.monotonic() - start, proc.stdout[-2000:]


#: modules moved since a recorded run (old path -> new path): ``--rerun`` and ``--resume`` find their mutants there
RENAMED: dict[str, str] = {
    "dynamo_schema/_render/_merge.py": "dynamo_schema/_render/_envmerge.py",
    "dynamo_schema/_render/_grove.py": "dynamo_schema/_render/_podcliqueset.py",
    "dynamo_schema/_render/_gojson.py": "dynamo_schema/_render/_hashjson.py",
    "dynamo_schema/_render/_apiserver.py": "dynamo_schema/_render/_serverdefaults.py",
    "dynamo_schema/_admission/_gojson.py": "dynamo_schema/_schema/_godecode.py",
    "dynamo_schema/_admission/_godecode.py": "dynamo_schema/_schema/_godecode.py",
    "dynamo_schema/_admission/_gotypes.py": "dynamo_schema/_schema/_gotypes.py",
    "dynamo_schema/_pipeline/_compile.py": "dynamo_schema/_pipeline/_render_object.py",
    "dynamo_schema/_io/_report.py": "dynamo_schema/_report/_result.py",
    "dynamo_schema/_cli/_reporters.py": "dynamo_schema/_report/_base.py",
}


def relocate(tree: Path, m: Mutant) -> bool:
    """Point a recorded mutant (``m.id`` known) at the same mutation in today's code: its module (moved:
    :data:`RENAMED`; split modules are searched too) and the occurrence of its operator whose id, computed with
    the recorded path, is ``m.id``. False when the mutation no longer exists (the code changed)."""
    import cosmic_ray.plugins
    from cosmic_ray.mutating import use_mutation

    op = cosmic_ray.plugins.get_operator(m.operator)()
    want = m.id
    candidates = [m.path] if (tree / m.path).is_file() else []
    new = RENAMED.get(m.path)
    if new:
        candidates.append(new)
        candidates += [str(p.relative_to(tree).as_posix()) for p in sorted((tree / new).parent.glob("_*.py"))
                       if p.relative_to(tree).as_posix() not in candidates]
    for path in candidates:
        positions = [o for name, o, _line in _positions(tree, path) if name == m.operator]
        order = sorted(positions, key=lambda o: (o != m.occurrence, abs(o - m.occurrence)))
        for occ in order:
            with use_mutation(tree / path, op, occ) as (before, after):
                if after is not None and _mutant_id(m.path, m.operator, before, after) == want:
                    m.path, m.occurrence = path, occ
                    m.package = package_of(path)
                    return True
    return False


def _positions(tree: Path, rel: str) -> list[tuple[str, int, int]]:
    """Every (operator, occurrence, line) of the module; cached by its content (relocating a long recorded
    run asks for the same module hundreds of times)."""
    return list(_positions_of((tree / rel).read_text(encoding="utf-8")))


@functools.lru_cache(maxsize=64)
def _positions_of(source: str) -> tuple[tuple[str, int, int], ...]:
    import cosmic_ray.plugins
    from cosmic_ray.ast import ast_nodes, get_ast

    nodes = list(ast_nodes(get_ast(source)))
    out = []
    for name in sorted(cosmic_ray.plugins.operator_names()):
        cls = cosmic_ray.plugins.get_operator(name)
        if cls.arguments():
            continue
        op, occurrence = cls(), 0
        for node in nodes:
            for start, _end in op.mutation_positions(node):
                out.append((name, occurrence, start[0]))
                occurrence += 1
    return tuple(out)


def run_mutant(tree: Path, m: Mutant, timeout: float) -> None:
    import cosmic_ray.plugins
    from cosmic_ray.mutating import use_mutation

    if RELOCATE and m.id and not relocate(tree, m):
        m.outcome = "gone"
        return
    recorded = m.id
    op = cosmic_ray.plugins.get_operator(m.operator)()
    selected = covering_tests(tree, m) if SELECT[0] == "coverage" else None
    with use_mutation(tree / m.path, op, m.occurrence) as (before, after):
        if after is None:
            m.outcome = "no-mutation"
            return
        m.id = recorded or _mutant_id(m.path, m.operator, before, after)
        m.diff = m.diff or "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                              f"a/{m.path}", f"b/{m.path}", n=1))
        if m.id in EQUIV:
            m.outcome = "equivalent"
            return
        if m.id in RESUMED:
            m.outcome, m.seconds = RESUMED[m.id]
            return
        m.outcome, m.seconds, spent = "survived", 0.0, 0.0
        if selected:
            m.outcome, spent, _ = run_tests(tree, selected, timeout)
            m.selection = f"{len(selected)} covering tests"
        if m.outcome in ("survived", "refused"):  # no selection, or it did not kill: the folder decides
            m.outcome, m.seconds, _ = run_tests(tree, tests_for(m), timeout)
            m.selection = (m.selection + ", then " if m.selection else "") + "folder"
        m.seconds += spent
        if RESUME_FILE is not None:
            with LOCK:
                with RESUME_FILE.open("a", encoding="utf-8") as fh:
                    fh.write(f"{m.id}\t{m.outcome}\t{m.seconds:.1f}\t{m.path}:{m.line}\t{m.operator}\n")
    # the copy is restored by use_mutation; drop any stale bytecode of the mutated module
    for pyc in (tree / m.path).parent.glob(f"__pycache__/{Path(m.path).stem}.*.pyc"):
        pyc.unlink()


EQUIV: dict[str, str] = {}
SELECT = ["coverage"]  # --select
LOCK = threading.Lock()
RELOCATE: list[bool] = []  # non-empty: recorded mutants are located in today's code by id (--rerun)
RESUMED: dict[str, tuple[str, float]] = {}
RESUME_FILE: Path | None = None


def load_outcomes(path: Path) -> dict[str, tuple[str, float]]:
    """The decided (killed / timeout) outcomes of ``path``, by mutant id; survivors are run again."""
    out: dict[str, tuple[str, float]] = {}
    if path.is_file():
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.strip() and not raw.startswith("#"):
                ident, outcome, secs = raw.split("\t")[:3]
                if outcome in ("killed", "timeout"):
                    out[ident] = (outcome, float(secs))
                else:
                    out.pop(ident, None)
    return out


def table(mutants: list[Mutant]) -> str:
    rows = ["| package | mutants | killed | survived | timeout | equivalent | score |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    groups: dict[str, list[Mutant]] = {}
    for m in mutants:
        groups.setdefault(m.package, []).append(m)
    for name, ms in [*sorted(groups.items()), ("total", mutants)]:
        c = {k: sum(1 for m in ms if m.outcome == k) for k in ("killed", "survived", "timeout", "equivalent")}
        n = len(ms)
        live = n - c["equivalent"]
        score = f"{100 * (c['killed'] + c['timeout']) / live:.1f} %" if live else "-"
        rows.append(f"| {name} | {n} | {c['killed']} | {c['survived']} | {c['timeout']} | {c['equivalent']} | {score} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, help="stratified sample of N mutants (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--package", action="append", help="only this package (repeatable), e.g. _merge, <top>")
    ap.add_argument("--path", action="append", help="only this module (repeatable), e.g. dynamo_schema/_merge/_engine.py")
    ap.add_argument("--timeout-factor", type=float, default=3.0, help="timeout = factor x baseline + 10 s")
    ap.add_argument("--list", action="store_true", help="print the mutant counts per package and stop")
    ap.add_argument("--reuse-baseline", action="store_true",
                    help="take a package's unmutated run time from .mutants/baseline.json when recorded there")
    ap.add_argument("--resume", type=Path, metavar="FILE",
                    help="take over the killed/timeout outcomes recorded in FILE (same mutant id) and append new ones")
    ap.add_argument("--tree", default="tree", help="the copy's folder under .mutants (a second run beside a running one)")
    ap.add_argument("--rerun", action="store_true",
                    help="run the survivors of the last report again (with today's tests): .mutants/rerun.md")
    ap.add_argument("--select", choices=("coverage", "folder"), default="coverage",
                    help="coverage: the tests that execute the mutated statement, then the folder if they "
                         "do not kill it (default); folder: the package's focused tests only")
    ap.add_argument("--new-map", action="store_true", help="make the coverage map again (.mutants/coverage.json)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="mutants run at once, each in its own copy")
    ap.add_argument("--freeze", type=Path, metavar="FILE",
                    help="write the chosen mutants (id, place, operator, occurrence) to FILE and stop")
    ap.add_argument("--ids", type=Path, metavar="FILE", action="append",
                    help="run the mutants frozen in FILE (found in today's code by id; a changed one is gone); "
                         "repeatable: a sample topped up by a second frozen draw (a mutant in both runs once)")
    args = ap.parse_args(argv)
    TREE[0] = args.tree
    SELECT[0] = args.select
    global REPORT
    if args.rerun:
        REPORT = "rerun"
        RELOCATE.append(True)
        last = json.loads((WORK / "report.json").read_text(encoding="utf-8"))
        todo = [Mutant(**{**d, "outcome": "pending", "seconds": 0.0}) for d in last if d["outcome"] == "survived"]
        return run(todo, args, argv)

    if args.ids:
        RELOCATE.append(True)
        return run(read_frozen_all(args.ids), args, argv)
    mutants = enumerate_mutants(modules())
    if args.package:
        mutants = [m for m in mutants if m.package in args.package]
    if args.path:
        mutants = [m for m in mutants if m.path in args.path]
    if args.list:
        counts: dict[str, int] = {}
        for m in mutants:
            counts[m.package] = counts.get(m.package, 0) + 1
        for p, c in sorted(counts.items()):
            print(f"{p:14} {c}")
        print(f"{'total':14} {len(mutants)}")
        return 0
    if args.sample:
        mutants = stratified_sample(mutants, args.sample, args.seed)
    if args.freeze:
        return freeze(mutants, args.freeze, " ".join(argv if argv is not None else sys.argv[1:]))
    return run(mutants, args, argv)


# --- a frozen sample (``--freeze`` / ``--ids``) ------------------------------------------------------------
# A drawn sample depends on every module's mutant count (one changed line in one package reshuffles the
# draw of all packages after it), so a sample run in parts across code changes is frozen once: its mutants'
# ids go to a file and later parts find each one in today's code by id (:func:`relocate`).
FROZEN_HEADER = "# id\tpath\tline\toperator\toccurrence (tools/mutants.py --freeze; run with --ids)"


def freeze(mutants: list[Mutant], path: Path, argv_text: str) -> int:
    """Compute each mutant's id (its mutation applied to a copy, no test run) and write ``path``."""
    import cosmic_ray.plugins
    from cosmic_ray.mutating import use_mutation

    tree = make_tree("freeze")
    rows = [FROZEN_HEADER, f"# drawn by: python tools/mutants.py {argv_text}"]
    for m in mutants:
        op = cosmic_ray.plugins.get_operator(m.operator)()
        with use_mutation(tree / m.path, op, m.occurrence) as (before, after):
            if after is None:
                continue
            m.id = _mutant_id(m.path, m.operator, before, after)
        rows.append(f"{m.id}\t{m.path}\t{m.line}\t{m.operator}\t{m.occurrence}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{len(rows) - 2} mutants frozen in {path}")
    return 0


def read_frozen(path: Path) -> list[Mutant]:
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.strip() and not raw.startswith("#"):
            ident, rel, line, operator, occurrence = raw.split("\t")
            out.append(Mutant(id=ident, package=package_of(rel), path=rel, line=int(line), operator=operator,
                              occurrence=int(occurrence)))
    return out


def read_frozen_all(paths: list[Path]) -> list[Mutant]:
    """The mutants frozen in ``paths``, in file order, each id once (the first file's row wins)."""
    seen: set[str] = set()
    out = []
    for path in paths:
        for m in read_frozen(path):
            if m.id not in seen:
                seen.add(m.id)
                out.append(m)
    return out


REPORT = "report"


def run(mutants: list[Mutant], args: argparse.Namespace, argv: list[str] | None) -> int:
    global RESUME_FILE
    EQUIV.update(load_equivalent())
    if getattr(args, "resume", None) is not None:
        RESUME_FILE = args.resume.resolve()
        RESUMED.update(load_outcomes(RESUME_FILE))
        if not RESUME_FILE.is_file():
            RESUME_FILE.parent.mkdir(parents=True, exist_ok=True)
            RESUME_FILE.write_text("# id\toutcome\tseconds\tplace\toperator (tools/mutants.py --resume)\n",
                                   encoding="utf-8")

    trees = [make_tree(args.tree if args.jobs == 1 else f"{args.tree}-{i}") for i in range(args.jobs)]
    tree = trees[0]
    baseline_file = WORK / "baseline.json"
    baseline: dict[str, float] = json.loads(baseline_file.read_text()) if baseline_file.is_file() else {}
    if args.select == "coverage":
        if args.new_map or not COVERAGE_MAP.is_file():
            build_coverage_map(tree)  # also records the folders' baselines from its durations
            baseline = json.loads(baseline_file.read_text())
        load_coverage_map()
        collect_new_tests(tree)
    for sel in sorted({" ".join(tests_for(m)) for m in mutants}):
        if (args.reuse_baseline or args.rerun or args.select == "coverage") and sel in baseline:
            continue
        outcome, secs, out = run_tests(tree, sel.split(), timeout=1800)
        if outcome != "survived":
            print(f"baseline: {sel} does not pass unmutated:\n{out}")
            return 2
        baseline[sel] = secs
        baseline_file.write_text(json.dumps(baseline, indent=1))
        print(f"baseline {sel}: {secs:.1f} s", flush=True)

    started = time.monotonic()
    argv_text = " ".join(argv if argv is not None else sys.argv[1:])
    queue = list(enumerate(mutants, 1))
    done: list[int] = []

    def worker(wtree: Path) -> None:
        while True:
            with LOCK:
                if not queue:
                    return
                i, m = queue.pop(0)
            run_mutant(wtree, m, args.timeout_factor * baseline[' '.join(tests_for(m))] + 10)
            with LOCK:
                done.append(i)
                print(f"[{len(done)}/{len(mutants)}] {m.outcome:10} {m.seconds:5.1f}s {m.path}:{m.line} "
                      f"{m.operator} {m.id} ({m.selection or 'recorded'})", flush=True)
                # a stopped run keeps its results
                write_report([mm for mm in mutants if mm.outcome != "pending"], argv_text,
                             time.monotonic() - started)

    threads = [threading.Thread(target=worker, args=(t,)) for t in trees]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    summary, survivors = write_report(mutants, argv_text, time.monotonic() - started)
    print(summary)
    print(f"survivors: {survivors} (see {(WORK / f'{REPORT}.md').relative_to(ROOT)})")
    return 0


def write_report(mutants: list[Mutant], argv_text: str, seconds: float) -> tuple[str, int]:
    gone = sum(1 for m in mutants if m.outcome == "gone")
    mutants = [m for m in mutants if m.outcome not in ("no-mutation", "gone")]

    survivors = [m for m in mutants if m.outcome == "survived"]
    summary = table(mutants)
    cmd = "python tools/mutants.py " + argv_text
    report = [f"# Mutation run: `{cmd.strip()}`", "",
              f"{len(mutants)} mutants in {seconds:.0f} s; equivalent list: "
              f"{len(EQUIV)} entries ({EQUIVALENT.relative_to(ROOT)})"
              + (f"; {gone} recorded mutants no longer exist (their code changed)" if gone else ""),
              "", summary, "", "## Survivors", ""]
    for m in survivors:
        report += [f"### {m.path}:{m.line} `{m.operator}` id `{m.id}`", "",
                   f"tests run: {m.selection or 'recorded'}", "", "```diff", m.diff.rstrip(), "```", ""]
    (WORK / f"{REPORT}.md").write_text("\n".join(report), encoding="utf-8")
    (WORK / f"{REPORT}.json").write_text(json.dumps([asdict(m) for m in mutants], indent=1), encoding="utf-8")
    return summary, len(survivors)


if __name__ == "__main__":
    sys.exit(main())
