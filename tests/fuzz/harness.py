"""Structured-mutation fuzzer for every entry point (issue 13).

Seeds: the upstream corpus (``../shared/reference/dynamo/corpus``), the repository's examples and the
InferCrane golden specs. A *structured* mutant is a seed document with one or two edits at random
paths (key deleted, duplicated, renamed; scalar type swapped; list and map swapped; deep nesting; huge
numbers and quantities; odd unicode; long strings; field-value bombs such as ``nodeCount``), written as
YAML or JSON. A *raw* mutant is a seed file's bytes truncated, re-encoded, with NUL or control bytes,
merge keys, anchors or huge scalars spliced in.

Each mutant goes through one or more entry points, in this process, through the command line's
``main`` (``load`` goes through the library): validate, validate --old, default, render (each DGD
target, DGDR, DCD, DeploymentSpec), convert both ways, diff, merge, explain. A run is *bad* when the
command prints ``internal error``, an exception escapes ``main``, it takes longer than ``MAX_SECONDS``
or the process grows past ``MAX_MB``.

Bounded (CI): ``tests/fuzz/test_fuzz.py`` (derandomized under ``CI=1``). Long local run::

    python -m tests.fuzz.harness --mutants 200000 --jobs 2 --out /tmp/fuzz-findings

prints counts per entry point and writes every bad case (input, entry point, output) under ``--out``.
Minimized findings belong in ``tests/fuzz/corpus/`` (replayed by ``test_fuzz.py``).
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from tests import _yaml as k8s_yaml
from tests.fuzz._driver import _peak_mb

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()
CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
MAX_SECONDS = 10.0
MAX_MB = 500.0

ENTRY_POINTS = ("load", "validate", "validate-old", "default", "render", "render-kubernetes", "render-grove",
                "render-dcd", "convert-beta", "convert-alpha", "diff", "merge", "explain")


# ------------------------------------------------------------------------------------------------
# seeds


@dataclass
class Seed:
    name: str
    text: str
    data: dict[str, Any]


def seeds() -> list[Seed]:
    import yaml

    files: list[Path] = []
    corpus = SHARED / "reference" / "dynamo" / "corpus"
    if corpus.is_dir():
        files += sorted(corpus.rglob("*.yaml"))
    files += sorted((ROOT / "examples").glob("*.yaml"))
    files += sorted((ROOT / "golden" / "infercrane").glob("*/spec.yaml"))
    # rendered built-in objects (Deployment, Service, ConfigMap, PodCliqueSet …): the built-in schema path
    files += sorted((ROOT / "golden").glob("*-kubernetes/expected.yaml"))[:3]
    files += sorted((ROOT / "golden").glob("*-grove/expected.yaml"))[:2]
    out: list[Seed] = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        try:
            docs = [d for d in yaml.safe_load_all(text) if isinstance(d, dict)]
        except yaml.YAMLError:
            continue
        for i, d in enumerate(docs):
            out.append(Seed(f"{f.name}#{i}", k8s_yaml.dump(d), d))
    return out


# ------------------------------------------------------------------------------------------------
# structured mutations

ODD_STRINGS = ["", " ", "\u202eevil", "a\u200bb", "\U0001f600", "e\u0301", "\u0085", "\u2028x", "ǅ",
               "x" * 250, "y" * 70_000, "A" * 64, "-", "0", "1e30", "99999999999999999999", "1e400",
               "NaN", "-Infinity", "null", "~", "yes", "0x1F", "2147483648", "1Ei", "1.5Gi", "500m", "-1",
               ".inf", "\\ud800", "nvidia.com/v1/beta1", "${VAR}", "$(GROVE_PCSG_NAME)", "../../etc/passwd",
               "a/b/c", "UPPER", "with space", "tab\there", "new\nline", "quote\"'", "{{ template }}"]
HUGE_NUMBERS: list[Any] = [2**31, 2**31 - 1, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**20, 10**30, -2**63 - 1,
                           10_000_000, 2_147_483_648, 1e308, -1e308, 1e-308, 0.1, -0.0, 10**400, 1e30]
DEEP_LEVELS = [20, 60, 95, 99, 100, 101, 150, 400, 1_000, 5_000]

#: Placeholders that the writer replaces with raw text (deep nesting, JSON escapes, huge numerals).
RAW = "\x00RAW{}\x00"


@dataclass
class Mutant:
    seed: str
    ops: list[str]
    data: Any
    raws: dict[str, str] = field(default_factory=dict)
    fmt: str = "yaml"

    def text(self) -> str:

        if self.fmt == "json":
            body = json.dumps(self.data, ensure_ascii=True)
        else:
            body = k8s_yaml.dump(self.data)
        for key, raw in self.raws.items():
            for quoted in (json.dumps(key), f"'{key}'", key):
                if quoted in body:
                    body = body.replace(quoted, raw)
                    break
        return body


def _paths(data: Any, prefix: tuple[Any, ...] = (), out: list[tuple[Any, ...]] | None = None,
           depth: int = 0) -> list[tuple[Any, ...]]:
    out = [] if out is None else out
    out.append(prefix)
    if depth > 40:
        return out
    if isinstance(data, dict):
        for k, v in data.items():
            _paths(v, prefix + (k,), out, depth + 1)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _paths(v, prefix + (i,), out, depth + 1)
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(data, path[:-1])[path[-1]] = value
    return data


def _nest_text(levels: int, leaf: str, rng: random.Random) -> str:
    text = leaf
    for i in range(levels):
        text = f'{{"k{i}": {text}}}' if rng.random() < 0.5 else f"[{text}]"
    return text


def _raw_key(m: Mutant) -> str:
    return f"__RAW{len(m.raws)}__"


def mutate(seed: Seed, rng: random.Random) -> Mutant:
    m = Mutant(seed.name, [], copy.deepcopy(seed.data))
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        paths = _paths(m.data)
        path = rng.choice(paths)
        parent_path = path[:-1]
        op = rng.choice(("delete", "rename", "duplicate", "type", "swap", "deep", "number", "unicode",
                         "long", "bomb", "quantity", "container", "identity"))
        m.ops.append(f"{op}@{'.'.join(map(str, path))}")
        try:
            target = _get(m.data, path)
            if op == "delete" and path:
                parent = _get(m.data, parent_path)
                del parent[path[-1]]
            elif op == "rename" and path and isinstance(path[-1], str):
                parent = _get(m.data, parent_path)
                new = rng.choice([path[-1].upper(), path[-1] + "x", path[-1][:-1], "apiVersion", "kind", "name",
                                  "spec", "<<", "", "1", "true", path[-1] + "\u200b"])
                parent[new] = parent.pop(path[-1])
            elif op == "duplicate" and path:
                parent = _get(m.data, parent_path)
                if isinstance(parent, list):
                    parent.extend([copy.deepcopy(target)] * rng.choice((1, 2, 50)))
                elif isinstance(parent, dict):
                    parent[f"{path[-1]}"] = copy.deepcopy(target)
                    m.fmt = "yaml"
                    key = _raw_key(m)
                    parent[key] = "dup"
                    m.raws[key + ": dup"] = f"{path[-1]}: dup"
            elif op == "type":
                m.data = _set(m.data, path, rng.choice([None, True, 0, -1, 1.5, "s", [], {}, [target], {"x": target},
                                                        str(target)]))
            elif op == "swap":
                if isinstance(target, list):
                    m.data = _set(m.data, path, {str(i): v for i, v in enumerate(target)})
                elif isinstance(target, dict):
                    m.data = _set(m.data, path, list(target.values()) or [list(target)])
                else:
                    m.data = _set(m.data, path, [target])
            elif op == "deep":
                key = _raw_key(m)
                m.raws[key] = _nest_text(rng.choice(DEEP_LEVELS), rng.choice(['"x"', "{}", "1", "[]"]), rng)
                m.data = _set(m.data, path, key)
            elif op == "number":
                n = rng.choice(HUGE_NUMBERS)
                if isinstance(n, int) and abs(n) > 10**30 or rng.random() < 0.2:
                    key = _raw_key(m)
                    m.raws[key] = rng.choice([str(n), "9" * rng.choice((19, 20, 400, 4_301, 5_000)),
                                              "1e400", "-1e400", "0x" + "f" * 17, "1" + "0" * 310 + ".5"])
                    m.data = _set(m.data, path, key)
                else:
                    m.data = _set(m.data, path, n)
            elif op in ("unicode", "long"):
                s = rng.choice(ODD_STRINGS) if op == "unicode" else rng.choice(("k" * 250, "v" * 300_000))
                if s == "\\ud800":
                    m.fmt = "json"
                    key = _raw_key(m)
                    m.raws[key] = '"\\ud800"'
                    s = key
                if isinstance(target, str) and rng.random() < 0.5 and path:
                    parent = _get(m.data, parent_path)
                    if isinstance(parent, dict) and isinstance(path[-1], str):
                        parent[s if not s.startswith("__RAW") else "odd"] = parent.pop(path[-1])
                        continue
                m.data = _set(m.data, path, s)
            elif op == "bomb":
                comp = _first_component(m.data)
                if comp is not None:
                    comp["multinode"] = {"nodeCount": rng.choice((2_147_483_648, 10_000_000, 4_096, 1_025, 1_024, 64))}
                    if rng.random() < 0.6:
                        comp.setdefault("experimental", {})["gpuMemoryService"] = {"mode": "InterPod"}
                    if rng.random() < 0.3:
                        comp["replicas"] = rng.choice((2**31 - 1, 10_000_000))
            elif op == "quantity":
                comp = _first_component(m.data)
                if comp is not None:
                    res = (comp.setdefault("podTemplate", {}).setdefault("spec", {}).setdefault("containers", [{}])
                           or [{}])
                    if isinstance(res, list) and res and isinstance(res[0], dict):
                        lim = res[0].setdefault("resources", {}).setdefault("limits", {})
                        if isinstance(lim, dict):
                            lim[rng.choice(("nvidia.com/gpu", "memory", "cpu", "ephemeral-storage"))] = rng.choice(
                                ["99999999999999999999", "1e30", "1e-30", "9" * 400 + "Ei", "1e999999999", "0.0000000001",
                                 "-1", "1E3", "1.5Gi", " 1Gi", "1Gi ", "+1", ".5", "5.", 10**20, 1e300])
            elif op == "identity" and isinstance(m.data, dict):
                key = rng.choice(("kind", "apiVersion"))
                m.data[key] = rng.choice(("K" * 250, "v1", "apps/v1", "g" * 250 + "/v1", "apps/" + "v" * 250,
                                          "nvidia.com/v1alpha1", "nvidia.com/v1beta1", "nvidia.com/v1/beta1",
                                          "infercrane.dev/v1", "DynamoGraphDeployment", "Deployment", "List",
                                          "DynamoGraphDeploymentRequest", "", None, 1))
            elif op == "container" and isinstance(target, (dict, list)):
                m.data = _set(m.data, path, rng.choice(([target, target], {"a": target, "b": target}, [[target]])))
        except (KeyError, IndexError, TypeError, AttributeError):
            continue
    if m.fmt == "yaml" and rng.random() < 0.2 and not any(k.endswith(": dup") for k in m.raws):
        m.fmt = "json"
    return m


def _first_component(data: Any) -> dict[str, Any] | None:
    spec = data.get("spec") if isinstance(data, dict) else None
    comps = spec.get("components") if isinstance(spec, dict) else None
    if isinstance(comps, list) and comps and isinstance(comps[0], dict):
        return comps[0]
    svcs = spec.get("services") if isinstance(spec, dict) else None
    if isinstance(svcs, dict) and svcs:
        first = next(iter(svcs.values()))
        return first if isinstance(first, dict) else None
    return None


# ------------------------------------------------------------------------------------------------
# raw-byte mutations


def raw_mutant(seed: Seed, rng: random.Random) -> tuple[str, bytes, str]:
    data = seed.text.encode("utf-8")
    op = rng.choice(("truncate", "utf16", "latin1", "nul", "control", "merge", "merge-bomb", "anchor-bomb",
                     "huge-scalar", "flip", "bom", "tabs", "deep-flow", "docs", "crlf"))
    ext = ".yaml"
    if op == "truncate":
        data = data[:rng.randrange(max(1, len(data)))]
    elif op == "utf16":
        data = seed.text.encode(rng.choice(("utf-16", "utf-16-le", "utf-16-be", "utf-32")))
    elif op == "latin1":
        data = seed.text.replace("a", "\xe9", 3).encode("latin-1", "replace")
    elif op == "nul":
        i = rng.randrange(len(data) + 1)
        data = data[:i] + b"\x00" + data[i:]
    elif op == "control":
        i = rng.randrange(len(data) + 1)
        data = data[:i] + bytes([rng.choice((1, 7, 8, 0x0B, 0x0C, 0x1B, 0x7F, 0x85, 0xC0, 0xFF, 0xED))]) + data[i:]
    elif op == "merge":
        n = rng.choice((10, 1_000, 4_000, 12_000))
        data += b"\nextra:\n" + b"".join(b"  m%d:\n    <<: *b\n    z: %d\n" % (i, i) for i in range(n))
        data = b"base: &b {x: 1, y: 2}\n" + data
    elif op == "merge-bomb":
        lines = [b"a0: &a0 {" + b", ".join(b"k%d: %d" % (j, j) for j in range(20)) + b"}"]
        for i in range(1, rng.choice((10, 30, 60))):
            lines.append(b"a%d: &a%d\n  <<: [*a%d]\n" % (i, i, i - 1) + b"".join(b"  m%d: *a%d\n" % (j, i - 1)
                                                                               for j in range(6)))
        data = b"\n".join(lines) + b"\n" + data
    elif op == "anchor-bomb":
        lines = [b'l0: &l0 ["lol"]']
        for i in range(1, 12):
            lines.append(b"l%d: &l%d [" % (i, i) + b", ".join([b"*l%d" % (i - 1)] * 9) + b"]")
        data = data + b"\n" + b"\n".join(lines) + b"\n"
    elif op == "huge-scalar":
        data = data.replace(b"replicas: 1", b"replicas: " + b"9" * rng.choice((20, 4_400, 100_000)), 1) + \
            b"\nbig: " + b"x" * rng.choice((1_000, 1_100_000)) + b"\n"
    elif op == "flip":
        b = bytearray(data)
        for _ in range(rng.choice((1, 5, 20))):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
        data = bytes(b)
    elif op == "bom":
        data = b"\xef\xbb\xbf" + data
    elif op == "tabs":
        data = data.replace(b"  ", b"\t", rng.choice((1, 10)))
    elif op == "deep-flow":
        n = rng.choice((99, 101, 999, 1_001, 100_000))
        data = data + b"\ndeep: " + b"[" * n + (b"]" * n if rng.random() < 0.7 else b"") + b"\n"
    elif op == "docs":
        data = b"---\n" * rng.choice((10, 10_001, 50_000)) + data
    elif op == "crlf":
        data = data.replace(b"\n", b"\r\n")
    if rng.random() < 0.15:
        ext = ".json"
    return op, data, ext


# ------------------------------------------------------------------------------------------------
# entry points


class Timeout(BaseException):
    """Raised by the alarm: a BaseException, so ``main``'s ``except Exception`` does not swallow it."""


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout()


@dataclass
class Outcome:
    entry: str
    exit: int
    output: str
    seconds: float
    bad: str | None = None  # "internal", "escaped", "timeout", "memory"


def argv_for(entry: str, path: str, seed_path: str, data: Any) -> list[str] | None:
    if entry == "validate":
        return ["validate", path]
    if entry == "validate-old":
        return ["validate", "--old", seed_path, path]
    if entry == "default":
        return ["default", path]
    if entry == "render":
        return ["render", path]
    if entry.startswith("render-"):
        return ["render", "--target", entry[len("render-"):], path]
    if entry == "convert-beta":
        return ["convert", "--to", "nvidia.com/v1beta1", path]
    if entry == "convert-alpha":
        return ["convert", "--to", "nvidia.com/v1alpha1", path]
    if entry == "diff":
        return ["diff", seed_path, path]
    if entry == "merge":
        return ["merge", "--blueprint", seed_path, "--override", path]
    if entry == "explain":
        kind = data.get("kind") if isinstance(data, dict) else None
        keys = []
        node = data
        while isinstance(node, dict) and node and len(keys) < 6:
            k = sorted(map(str, node))[len(keys) % len(node)]
            keys.append(k)
            node = node.get(k)
        return ["explain", ".".join([str(kind or "dgd")] + keys)[:2000]]
    return None


def run_entry(entry: str, argv: list[str] | None, text: bytes | None = None, file: str = "") -> Outcome:
    from dynamo_schema._cli._main import main

    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, MAX_SECONDS * 3)  # a hang is stopped; > MAX_SECONDS is bad anyway
    code = 0
    bad: str | None = None
    try:
        if entry == "load":
            from dynamo_schema._io._load import load

            assert text is not None
            load(text, file)
        else:
            assert argv is not None
            code = main(argv, out, err)
    except Timeout:
        bad, code = "timeout", -1
    except BaseException as exc:
        bad, code = "escaped", -1
        err.write(f"escaped: {type(exc).__name__}: {exc}"[:2000])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - start
    output = err.getvalue()
    if bad is None and "internal error" in output:
        bad = "internal"
    if bad is None and seconds > MAX_SECONDS:
        bad = "slow"
    text = output + out.getvalue()[:2000]
    return Outcome(entry, code, text if len(text) <= 3000 else text[:1500] + " ... " + text[-1500:], seconds, bad)


def entries_for(data: Any) -> list[str]:
    kind = data.get("kind") if isinstance(data, dict) else None
    api = data.get("apiVersion") if isinstance(data, dict) else None
    out = ["load", "validate", "validate-old", "default", "convert-beta", "convert-alpha", "diff", "explain"]
    if kind == "DynamoGraphDeployment":
        out += ["render-kubernetes", "render-grove", "render-dcd", "merge"]
    else:
        out += ["render"]
    if api == "nvidia.com/v1beta1" and kind == "DynamoGraphDeploymentRequest":
        out += ["merge"]
    return out


def maxrss_mb() -> float:
    return _peak_mb()  # VmHWM: ru_maxrss starts at the parent's peak


# ------------------------------------------------------------------------------------------------
# a run


@dataclass
class Stats:
    mutants: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    bad: Counter[str] = field(default_factory=Counter)
    slowest: dict[str, float] = field(default_factory=dict)
    findings: list[dict[str, Any]] = field(default_factory=list)
    peak_mb: float = 0.0

    def merge(self, other: Stats) -> None:
        self.mutants += other.mutants
        self.calls.update(other.calls)
        self.bad.update(other.bad)
        for k, v in other.slowest.items():
            self.slowest[k] = max(self.slowest.get(k, 0.0), v)
        self.findings += other.findings
        self.peak_mb = max(self.peak_mb, other.peak_mb)


def fuzz(n: int, seed: int, work: Path, all_entries: bool = False, raw_share: float = 0.25,
         on_bad: Callable[[dict[str, Any]], None] | None = None) -> Stats:
    """``n`` mutants from ``random.Random(seed)``; each through one entry point (all with
    ``all_entries``). Raw mutants go through load and validate/render/diff."""
    rng = random.Random(seed)
    pool = seeds()
    stats = Stats()
    seed_files: dict[str, str] = {}
    work.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        s = rng.choice(pool)
        sp = seed_files.get(s.name)
        if sp is None:
            sp = str(work / f"seed{len(seed_files)}.yaml")
            Path(sp).write_text(s.text, encoding="utf-8")
            seed_files[s.name] = sp
        if rng.random() < raw_share:
            op, body, ext = raw_mutant(s, rng)
            desc = f"raw:{op}"
            data: Any = s.data
            choices = ["load", "validate", "render", "diff", "default"]
        else:
            m = mutate(s, rng)
            try:
                body = m.text().encode("utf-8", "surrogatepass")
            except (RecursionError, ValueError):
                continue
            ext = "." + m.fmt
            desc = ";".join(m.ops)
            data = m.data
            choices = entries_for(data)
        path = str(work / f"m{i % 4}{ext}")
        Path(path).write_bytes(body)
        stats.mutants += 1
        for entry in (choices if all_entries else [rng.choice(choices)]):
            argv = argv_for(entry, path, sp, data)
            before = maxrss_mb()
            o = run_entry(entry, argv, body, path)
            grown = maxrss_mb()
            stats.peak_mb = max(stats.peak_mb, grown)
            if o.bad is None and grown > MAX_MB and grown - before > 50 and len(body) < 1_000_000:
                o.bad = "memory"
            stats.calls[entry] += 1
            stats.slowest[entry] = max(stats.slowest.get(entry, 0.0), o.seconds)
            if o.bad:
                stats.bad[f"{entry}:{o.bad}"] += 1
                finding = {"seed": s.name, "mutation": desc, "entry": entry, "argv": argv, "bad": o.bad,
                           "seconds": round(o.seconds, 2), "output": o.output[-1500:], "input": body.decode(
                               "utf-8", "backslashreplace")[:200_000], "ext": ext, "seed_text": s.text}
                stats.findings.append(finding)
                if on_bad:
                    on_bad(finding)
    return stats


def _worker(args: tuple[int, int, str, bool]) -> Stats:
    n, seed, work, all_entries = args
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    return fuzz(n, seed, Path(work), all_entries)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--mutants", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=500, help="mutants per worker task (a fresh process each)")
    ap.add_argument("--all-entries", action="store_true", help="every entry point for every mutant")
    ap.add_argument("--out", default=None, help="directory for findings (JSON, one per bad run)")
    ns = ap.parse_args(argv)
    seed = ns.seed if ns.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed}", flush=True)
    import multiprocessing as mp

    tasks = []
    left, k = ns.mutants, 0
    base = Path(tempfile.mkdtemp(prefix="dynamo-fuzz-"))
    while left > 0:
        size = min(ns.chunk, left)
        tasks.append((size, seed + k, str(base / f"w{k}"), ns.all_entries))
        left -= size
        k += 1
    total = Stats()
    start = time.time()
    if ns.out:
        Path(ns.out).mkdir(parents=True, exist_ok=True)
    ctx = mp.get_context("fork")
    with ctx.Pool(ns.jobs, maxtasksperchild=1) as pool:
        for i, st in enumerate(pool.imap_unordered(_worker, tasks)):
            total.merge(st)
            if ns.out:
                out = Path(ns.out)
                for j, f in enumerate(st.findings):
                    (out / f"finding-{i}-{j}.json").write_text(json.dumps(f, indent=1))
            print(f"[{time.time() - start:7.0f}s] mutants {total.mutants} calls {sum(total.calls.values())} "
                  f"bad {sum(total.bad.values())} peak {total.peak_mb:.0f} MB", flush=True)
            if ns.out:  # the totals so far (a run stopped early still reports per entry point)
                (Path(ns.out) / "stats.json").write_text(_summary(seed, total, time.time() - start))
    print(_summary(seed, total, time.time() - start))
    return 1 if total.bad else 0


def _summary(seed: int, total: Stats, seconds: float) -> str:
    return json.dumps({"seed": seed, "seconds": round(seconds), "mutants": total.mutants,
                       "calls": dict(sorted(total.calls.items())), "bad": dict(sorted(total.bad.items())),
                       "slowest_seconds": {k: round(v, 2) for k, v in sorted(total.slowest.items())},
                       "peak_worker_mb": round(total.peak_mb)}, indent=1)


if __name__ == "__main__":
    sys.exit(main())
