"""Issue 9 part 1: move the flat root modules into the pipeline's packages and rewrite every import.

Usage (from the repository root, clean tree): ``python tools/arch_move.py STEP`` with STEP one of
core, k8s, io, schema, convert, grove, pipeline, cli, or ``all``; then ``ruff check --fix --select I .``.

After merging a branch that forked before the move: ``python tools/arch_move.py --rewrite FILE...``
rewrites the old module names in FILEs that have not moved themselves (tests, tools, new root modules,
pyproject.toml), e.g. ``from dynamo_schema._cli._main import main`` -> ``from dynamo_schema._cli._main._main import
main``; the new spellings are left alone. mypy (tests/test_static.py) reports any import it missed.
The same mapping the arch branch applied, so a branch that forked before the move can be moved the same
way and then merged with identical renames on both sides. Idempotent per step (a moved file is skipped).
Relative imports are re-derived from each file's old and new location; ``from . import _mod`` keeps its
local name (``as``); dotted ``dynamo_schema._mod`` strings (mock targets, importlib, ``-c`` snippets,
pyproject's import-linter layers) are rewritten too.
"""
import ast
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path.cwd()
P = "dynamo_schema"
STEPS = {
 "core": {"_diagnostics": "_core._diagnostics", "_document": "_core._document", "_consts": "_core._consts",
          "_fsutil": "_core._fsutil", "_version": "_core._version", "_datacopy": "_core._datacopy"},
 "k8s": {"_k8s_names": "_k8s._names", "_objectmeta": "_k8s._objectmeta", "_quantity": "_k8s._quantity",
         "_gofmt": "_k8s._gofmt", "_golayout": "_k8s._golayout", "_k8s_schemas": "_k8s._builtin_kinds"},
 "io": {"_load": "_io._load", "_jsonscan": "_io._jsonscan", "_emit": "_io._emit", "_roundtrip": "_io._roundtrip",
        "_report": "_io._report"},
 "schema": {"_schemas": "_schema._schemas", "_structural": "_schema._structural", "_cel": "_schema._cel",
            "_cel_engine": "_schema._cel_engine", "_explain": "_schema._explain", "_extra_kinds": "_schema._extra_kinds"},
 "convert": {"_convert": "_convert._v1alpha1"},
 "grove": {"_grove_webhook": "_grove._webhook"},
 "pipeline": {m: "_pipeline." + m for m in ["_validate", "_compile", "_diff", "_render_stream", "_reconcile",
              "_kustomize", "_merge_check", "_kindpolicy", "_waivers", "_stream", "_convert_check", "_schemagen",
              "_parallel"]},
 "cli": {"_cli": "_cli._main", "_cli_options": "_cli._options", "_kustomize_cli": "_cli._kustomize",
         "_reporters": "_cli._reporters", "_rules": "_cli._rules"},
}
DOCS = {
 "_core": "Shared types at the bottom of the pipeline: diagnostics and the error hierarchy, documents, constants, file writes, the version.",
 "_k8s": "Kubernetes and Go facts every stage needs: apimachinery name validators, ObjectMeta, quantities, Go value formatting and JSON layout, built-in kinds' schemas.",
 "_io": "Stage \"load\" and the output side: YAML/JSON loading with located errors, Go's JSON syntax check, Kubernetes-safe emit, comment-keeping round-trip, validate reports.",
 "_schema": "Schema checks: the bundled CRD schemas, the structural walk, CEL (fast paths and the engine), explain, the operator's other kinds.",
 "_convert": "nvidia.com/v1alpha1 <-> v1beta1 conversion of DGD and DCD.",
 "_grove": "Grove's admission of PodCliqueSets (the create webhook).",
 "_pipeline": "Orchestration of the stages per command: validate, compile/render, diff, reconcile, kustomize, merge checks, kind policy, waivers, streaming, schema generation.",
 "_cli": "The command line: argument parsing, commands, reporters, rule help.",
}
step = sys.argv[1]
REWRITE = step == "--rewrite"  # after a merge: rewrite old names in the given files, move nothing
if REWRITE:
    M = {f"{P}.{k}": f"{P}.{v}" for st in STEPS.values() for k, v in st.items()}
    # an old module whose name is now a package: leave the new spelling alone (dynamo_schema._cli._main._main)
    NEW_SUB = {old: "|".join(re.escape(v.rsplit(".", 1)[1]) for v in M.values() if v.startswith(old + "."))
               for old in M if (ROOT / old.replace(".", "/")).is_dir()}
if step == "all":
    for name in STEPS:
        subprocess.run([sys.executable, __file__, name], check=True)
    sys.exit(0)
if not REWRITE:
    M = {f"{P}.{k}": f"{P}.{v}" for k, v in STEPS[step].items()
         if (ROOT / (f"{P}.{k}".replace(".", "/") + ".py")).exists()}
    NEW_SUB = {}
if not M:
    sys.exit(0)

def modname(path):
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)

# 1. git mv
moved = {}  # new path -> old module name
for old, new in ({} if REWRITE else M).items():
    op = ROOT / (old.replace(".", "/") + ".py")
    np_ = ROOT / (new.replace(".", "/") + ".py")
    np_.parent.mkdir(exist_ok=True)
    init = np_.parent / "__init__.py"
    if not init.exists():
        init.write_text(f'"""{DOCS[np_.parent.name]}"""\n')
        subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    subprocess.run(["git", "mv", str(op), str(np_)], cwd=ROOT, check=True)
    moved[np_] = old

def relativize(from_pkg, target):
    a, b = from_pkg.split("."), target.split(".")
    if a[0] != b[0]:
        return None
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    level = len(a) - n + 1
    return "." * level + ".".join(b[n:])

RX = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(M, key=len, reverse=True)) + r")(?![\w])")


def _sub(m):
    k = m.group(1)
    rest = m.string[m.end():]
    if k in NEW_SUB and re.match(rf"\.({NEW_SUB[k]})\b", rest):
        return k  # already the new spelling
    return M[k]


def rewrite(path):
    src = path.read_text()
    new_mod = modname(path)
    old_mod = moved.get(path, new_mod)
    is_pkg = path.name == "__init__.py"
    old_pkg = old_mod if is_pkg else old_mod.rsplit(".", 1)[0]
    new_pkg = new_mod if is_pkg else new_mod.rsplit(".", 1)[0]
    tree = ast.parse(src)
    lines = src.splitlines(keepends=True)
    edits = {}
    fresh = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = old_pkg.split(".")
            if node.level > 1:
                base = base[: len(base) - (node.level - 1)]
            abs_mod = ".".join(base + ([node.module] if node.module else []))
            relative = True
        else:
            abs_mod = node.module or ""
            relative = False
            if not abs_mod.startswith(P):
                continue

        def fmt(mod, names, relative=relative):
            m = (relativize(new_pkg, mod) or mod) if relative else mod
            return f"from {m} import {', '.join(names)}"
        if abs_mod in NEW_SUB and all((ROOT / abs_mod.replace(".", "/") / f"{a.name}.py").exists()
                                      for a in node.names):
            fresh.extend(lines[node.lineno - 1:node.end_lineno])  # keep the regex off these lines too
            continue  # from dynamo_schema._cli._main import _main: the new spelling
        target = M.get(abs_mod, abs_mod)
        changed = target != abs_mod or (relative and old_pkg != new_pkg)
        groups = {}
        order = []
        for a in node.names:
            full = abs_mod + "." + a.name
            if full in M:
                nm = M[full]
                parent, base_ = nm.rsplit(".", 1)
                local = a.asname or a.name
                txt = base_ + (f" as {local}" if local != base_ else "")
                changed = True
            else:
                parent = target
                txt = a.name + (f" as {a.asname}" if a.asname else "")
            if parent not in groups:
                groups[parent] = []
                order.append(parent)
            groups[parent].append(txt)
        if not changed:
            continue
        if len(order) == 1 and target == abs_mod and order[0] == abs_mod and node.lineno != node.end_lineno:
            # only the module path changes (relative depth): keep the name list layout
            first = lines[node.lineno - 1]
            mm = re.match(r"(\s*from\s+)(\S+)(\s+import\b.*)", first, re.S)
            r = relativize(new_pkg, abs_mod) if relative else abs_mod
            lines[node.lineno - 1] = mm.group(1) + r + mm.group(3)
            fresh.append(lines[node.lineno - 1])
            continue
        if len(order) == 1 and node.lineno != node.end_lineno and order[0] == target:
            first = lines[node.lineno - 1]
            mm = re.match(r"(\s*from\s+)(\S+)(\s+import\b.*)", first, re.S)
            r = relativize(new_pkg, target) if relative else target
            lines[node.lineno - 1] = mm.group(1) + r + mm.group(3)
            fresh.append(lines[node.lineno - 1])
            continue
        indent = re.match(r"\s*", lines[node.lineno - 1]).group(0)
        text = "".join(indent + fmt(p, groups[p]) + "\n" for p in order)
        edits[(node.lineno, node.end_lineno)] = text
    # apply edits bottom-up
    for (s, e), text in sorted(edits.items(), reverse=True):
        lines[s - 1:e] = [text]
    # the regex on every other line (rewritten lines already hold new names)
    out = []
    for ln in lines:
        if any(ln is t for t in edits.values()) or any(ln is f for f in fresh):
            out.append(ln)
        else:
            out.append(RX.sub(_sub, ln))
    new = "".join(out)
    if new != src:
        path.write_text(new)
        return True
    return False

if REWRITE:
    files = [pathlib.Path(f).resolve() for f in sys.argv[2:] if f.endswith(".py")]
    texts = [pathlib.Path(f).resolve() for f in sys.argv[2:] if not f.endswith(".py")]
else:
    files = [p for p in (ROOT / P).rglob("*.py") if "_generated" not in p.name]
    for d in ["tests", "tools", "benchmarks"]:
        files += list((ROOT / d).rglob("*.py"))
    files += [ROOT / "noxfile.py"]
    texts = [ROOT / "pyproject.toml", ROOT / ".pre-commit-hooks.yaml"]
changed = [str(p) for p in files if p.exists() and rewrite(p)]
# non-python text: dotted names and slash paths
for f in texts:
    t = f.read_text()
    # a bare dynamo_schema._cli._main / ._convert in a config file may already be the new package: left alone
    n = RX.sub(lambda m: m.group(1) if REWRITE and m.group(1) in NEW_SUB and not m.string[m.end():].startswith(":")
               else _sub(m), t)
    if n != t:
        f.write_text(n)
        print("text", f)
print("\n".join(changed))
