"""CEL engine candidates on the CRDs' rules (not a test; figures for docs/decisions.md D17).

Run in a scratch environment that has all three candidates::

    pip install common-expression-language cel-expr-python cel-python pyyaml
    python benchmarks/cel_candidates.py [--inputs N]

Per candidate: cold import (fresh interpreter, import only, median of 7), compile and evaluation cost
per rule (mean over the CRDs' distinct rules), and correctness: every distinct rule of the Dynamo and
Grove CRDs on N seeded schema-typed inputs each, outcome (true / false / error) compared with the
reference (``dynamo_schema._schema._cel_engine`` = cel-expr-python + our Kubernetes shim, which the test suite
proves equal to the hand-written fast path). Each candidate gets its own string library where it ships
one; the Kubernetes ``quantity`` library is shipped by none (those rules count as not evaluated).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = (ROOT / ".." / "shared").resolve()
CRD_DIRS = [SHARED / "reference" / "dynamo" / "crds", SHARED / "reference" / "grove" / "crds"]

IMPORTS = {
    "cel-expr-python": "from cel_expr_python import cel",
    "common-expression-language": "import cel",
    "cel-python": "import celpy",
}


def cold_import(stmt: str, runs: int = 7) -> float:
    code = f"import time; t = time.perf_counter(); {stmt}; print(time.perf_counter() - t)"
    return statistics.median(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    ) * 1000


def crd_rules() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    seen: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for d in CRD_DIRS:
        for f in sorted(d.glob("*.yaml")):
            doc = yaml.load(f.read_text(), Loader=yaml.CSafeLoader)
            for v in doc["spec"]["versions"]:
                stack = [v["schema"]["openAPIV3Schema"]]
                while stack:
                    n = stack.pop()
                    if isinstance(n, dict):
                        for r in n.get("x-kubernetes-validations") or []:
                            seen.setdefault(r["rule"], (r, n))
                        stack.extend(n.values())
                    elif isinstance(n, list):
                        stack.extend(n)
    return list(seen.values())


_LIT = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def sample(schema: dict[str, Any], idents: set[str], lits: list[str], rnd: random.Random, depth: int = 0) -> Any:
    pool = lits + ["", "a", "A", "main", "a/b", "x" * 254 + "/z", "0", "1Gi", "abc"]
    t = schema.get("type")
    if schema.get("x-kubernetes-int-or-string"):
        return rnd.choice([0, 1, rnd.choice(pool)])
    if t == "string":
        return rnd.choice(schema["enum"]) if schema.get("enum") else rnd.choice(pool)
    if t == "integer":
        return rnd.randint(-2, 5)
    if t == "number":
        return rnd.choice([0, 1, 0.5])
    if t == "boolean":
        return rnd.random() < 0.5
    if t == "array":
        return [sample(schema.get("items") or {}, idents, lits, rnd, depth + 1) for _ in range(rnd.randint(0, 3))]
    props = {k: v for k, v in (schema.get("properties") or {}).items() if k in idents}
    if props and depth < 4:
        return {k: sample(v, idents, lits, rnd, depth + 1) for k, v in props.items() if rnd.random() < 0.6}
    if isinstance(schema.get("additionalProperties"), dict):
        return {rnd.choice(lits + ["a"]): sample(schema["additionalProperties"], idents, lits, rnd, depth + 1)
                for _ in range(rnd.randint(0, 2))}
    return {}


class Reference:
    name = "reference"

    def __init__(self) -> None:
        from dynamo_schema._schema import _cel_engine as E

        self.E = E

    def compile(self, rule: str, optional: bool) -> Any:
        self.E.compile_rule(rule, optional)
        return (rule, optional)

    def run(self, prog: Any, s: Any, old: Any) -> Any:
        rule, optional = prog
        try:
            return self.E.evaluate(rule, s, self.E.ABSENT if old is None and optional else old,
                                   optional_old_self=optional) is True
        except self.E.CelRuntimeError:
            return "error"


class CelExprPython:
    """Google's cel-cpp as shipped: core + optional + its own strings extension (no k8s libraries)."""

    name = "cel-expr-python"

    def __init__(self) -> None:
        from cel_expr_python import cel
        from cel_expr_python.ext import ext_bindings, ext_optional, ext_strings

        self.cel = cel
        self.env = cel.NewEnv(variables={"self": cel.Type.DYN, "oldSelf": cel.Type.DYN, "__o": cel.Type.DYN},
                              extensions=[ext_strings.ExtStrings(), ext_optional.ExtOptional(),
                                          ext_bindings.ExtBindings()])

    def compile(self, rule: str, optional: bool) -> Any:
        if optional:
            rule = f"cel.bind(oldSelf, size(__o) == 0 ? optional.none() : optional.of(__o[0]), ({rule}))"
        return self.env.compile(rule), optional

    def run(self, prog: Any, s: Any, old: Any) -> Any:
        expr, optional = prog
        data = {"self": s, "__o": [] if old is None else [old]} if optional else {"self": s, "oldSelf": old}
        r = expr.eval(data=data)
        return "error" if r.type() == self.cel.Type.ERROR else r.value() is True


class CommonExpressionLanguage:
    """The Rust-backed package, with its Python stdlib (lowerAscii, split ...)."""

    name = "common-expression-language"

    def __init__(self) -> None:
        import cel
        from cel import stdlib

        self.cel = cel
        self.ctx_extra = cel.Context()
        stdlib.add_stdlib_to_context(self.ctx_extra)

    def compile(self, rule: str, optional: bool) -> Any:
        return self.cel.compile(rule)

    def run(self, prog: Any, s: Any, old: Any) -> Any:
        ctx = self.cel.Context(variables={"self": s, "oldSelf": old}, functions=self.ctx_extra.functions)
        try:
            return prog.execute(ctx) is True
        except Exception:
            return "error"


class CelPython:
    """The pure-Python package (cel-python / celpy)."""

    name = "cel-python"

    def __init__(self) -> None:
        import celpy

        self.celpy = celpy
        self.env = celpy.Environment()

    def compile(self, rule: str, optional: bool) -> Any:
        return self.env.program(self.env.compile(rule))

    def run(self, prog: Any, s: Any, old: Any) -> Any:
        act = {"self": self.celpy.json_to_cel(s)}
        if old is not None:
            act["oldSelf"] = self.celpy.json_to_cel(old)
        try:
            r = prog.evaluate(act)
        except Exception:
            return "error"
        return "error" if isinstance(r, Exception) else bool(r) is True and r is not None and str(r) == "True"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", type=int, default=200)
    args = ap.parse_args()
    rules = crd_rules()
    rnd = random.Random(0)
    cases = []
    for r, node in rules:
        idents = set(_IDENT.findall(r["rule"]))
        lits = sorted({a or b for a, b in _LIT.findall(r["rule"])})
        for _ in range(args.inputs):
            s = sample(node, idents, lits, rnd)
            old = sample(node, idents, lits, rnd) if "oldSelf" in r["rule"] and rnd.random() < 0.7 else None
            cases.append((r, s, old))
    ref = Reference()
    ref_out = {}
    for i, (r, s, old) in enumerate(cases):
        ref_out[i] = ref.run(ref.compile(r["rule"], bool(r.get("optionalOldSelf"))), s, old)
    report: dict[str, Any] = {"rules": len(rules), "inputs_per_rule": args.inputs}
    for cls in (CelExprPython, CommonExpressionLanguage, CelPython):
        name = cls.name
        eng = cls()
        compiled: dict[str, Any] = {}
        t = time.perf_counter()
        for r, _ in rules:
            try:
                compiled[r["rule"]] = eng.compile(r["rule"], bool(r.get("optionalOldSelf")))
            except Exception:
                compiled[r["rule"]] = None
        compile_us = (time.perf_counter() - t) / len(rules) * 1e6
        diverge: dict[str, int] = {}
        t = time.perf_counter()
        n = 0
        for i, (r, s, old) in enumerate(cases):
            prog = compiled[r["rule"]]
            if prog is None:
                continue
            try:
                got = eng.run(prog, s, old)
            except Exception:
                got = "crash"
            n += 1
            if got != ref_out[i]:
                diverge[r["rule"]] = diverge.get(r["rule"], 0) + 1
        eval_us = (time.perf_counter() - t) / max(n, 1) * 1e6
        report[name] = {
            "cold_import_ms": round(cold_import(IMPORTS[name]), 1),
            "compile_us_per_rule": round(compile_us, 1),
            "eval_us_per_rule": round(eval_us, 1),
            "rules_compiled": sum(v is not None for v in compiled.values()),
            "rules_with_divergent_outcomes": len(diverge),
            "divergent_outcomes": sum(diverge.values()),
            "divergent_rules": sorted(diverge)[:8],
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
