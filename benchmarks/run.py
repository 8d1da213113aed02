"""Benchmarks (not tests): ``nox -s bench`` or ``python benchmarks/run.py [validate|render] [--runs N]``.

validate: a cold ``python -m dynamo_schema validate FILE`` against ``check-jsonschema --schemafile``
          with the DGD CRD's v1beta1 schema as JSON Schema, same file, runs interleaved; medians.
          Goal: ours takes at most half the time.
walk:     schema + CEL check of a 5-10 KB corpus DGD once the schema is compiled, best of N (goal < 5 ms;
          this was a timed assertion in the tests before, moved here: tests never time).
render:   documents rendered per second over the v1beta1 corpus (kubernetes and grove targets), against
          the YAML floor: a bare CSafeLoader load + CSafeDumper dump of the same files.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()
CRD = SHARED / "reference" / "dynamo" / "crds" / "nvidia.com_dynamographdeployments.yaml"
SAMPLE = ROOT / "examples" / "vllm-disagg.yaml"
CORPUS = SHARED / "reference" / "dynamo" / "corpus" / "v1beta1"


def _crd_as_jsonschema(out: Path) -> Path:
    import yaml

    crd = yaml.load(CRD.read_text(), Loader=yaml.CSafeLoader)
    schema = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta1")["schema"]["openAPIV3Schema"]
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
    path = out / "dgd_v1beta1.json"
    path.write_text(json.dumps(schema))
    return path


def _time(cmd: list[str]) -> tuple[float, int]:
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True)
    return time.perf_counter() - t, proc.returncode


def bench_validate(runs: int) -> dict[str, float]:
    cj = shutil.which("check-jsonschema")
    if cj is None:
        sys.exit("check-jsonschema is not installed (pip install check-jsonschema)")
    with tempfile.TemporaryDirectory() as tmp:
        schema = _crd_as_jsonschema(Path(tmp))
        sample = Path(tmp) / "dgd.yaml"
        sample.write_text(SAMPLE.read_text())
        ours_cmd = [sys.executable, "-m", "dynamo_schema", "validate", str(sample)]
        theirs_cmd = [cj, "--schemafile", str(schema), str(sample)]
        ours, theirs = [], []
        for cmd in (ours_cmd, theirs_cmd):  # warm the file-system cache
            _time(cmd)
        for _ in range(runs):
            t, rc = _time(ours_cmd)
            assert rc == 0, f"dynamo_schema exited {rc}"
            ours.append(t)
            t, rc = _time(theirs_cmd)
            theirs.append(t)
    res = {
        "runs": runs,
        "dynamo_schema_median_s": statistics.median(ours),
        "check_jsonschema_median_s": statistics.median(theirs),
    }
    res["ratio"] = res["dynamo_schema_median_s"] / res["check_jsonschema_median_s"]
    return res


def bench_render(rounds: int) -> dict[str, float]:
    import yaml

    from dynamo_schema._compile import render_object
    from dynamo_schema._emit import dump_all

    docs = []
    texts = []
    for f in sorted(CORPUS.iterdir()):
        text = f.read_text()
        for d in yaml.load_all(text, Loader=yaml.CSafeLoader):
            if isinstance(d, dict) and d.get("apiVersion") == "nvidia.com/v1beta1" and d.get("kind") in (
                "DynamoGraphDeployment", "DynamoComponentDeployment"):
                docs.append(d)
                texts.append(yaml.dump(d, Dumper=yaml.CSafeDumper))
    ok = []
    for d in docs:
        try:
            render_object(d, target="kubernetes" if d["kind"] != "DynamoGraphDeployment" else "grove")
            ok.append(d)
        except Exception as exc:  # documents the renderer refuses are left out of the timing
            print(f"skipped {d.get('metadata', {}).get('name')}: {exc}", file=sys.stderr)
    t = time.perf_counter()
    n = 0
    for _ in range(rounds):
        for d in ok:
            target = "grove" if d["kind"] == "DynamoGraphDeployment" else "kubernetes"
            dump_all(render_object(d, target=target))
            n += 1
    ours = n / (time.perf_counter() - t)
    t = time.perf_counter()
    m = 0
    for _ in range(rounds):
        for text in texts:
            yaml.dump_all(list(yaml.load_all(text, Loader=yaml.CSafeLoader)), Dumper=yaml.CSafeDumper)
            m += 1
    floor = m / (time.perf_counter() - t)
    return {"documents": len(ok), "rendered_docs_per_s": ours, "yaml_floor_docs_per_s": floor,
            "ratio_floor_over_ours": floor / ours}


def bench_walk(runs: int) -> dict[str, float]:
    import yaml

    from dynamo_schema import _cel as C
    from dynamo_schema import _structural as S

    crd = yaml.load(CRD.read_text(), Loader=yaml.CSafeLoader)
    schema = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta1")["schema"]["openAPIV3Schema"]
    sized = []
    for f in sorted(CORPUS.glob("*.yaml")):
        for d in yaml.load_all(f.read_text(), Loader=yaml.CSafeLoader):
            if isinstance(d, dict) and d.get("kind") == "DynamoGraphDeployment" and 5000 <= len(json.dumps(d)) <= 10000:
                sized.append(d)
    if not sized:
        sys.exit("no 5-10 KB DGD in the corpus")
    doc = sized[0]
    S.validate(doc, schema)  # compile
    C.validate_cel(doc, schema)
    best = float("inf")
    for _ in range(max(20, runs)):
        t = time.perf_counter()
        S.validate(doc, schema)
        C.validate_cel(doc, schema)
        best = min(best, time.perf_counter() - t)
    return {"document_bytes": len(json.dumps(doc)), "best_ms": best * 1000, "goal_ms": 5.0}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("which", nargs="*", default=["validate", "walk", "render"])
    ap.add_argument("--runs", type=int, default=15)
    ns = ap.parse_args()
    if not SHARED.is_dir():
        sys.exit("../shared (reference data) is needed for the benchmarks")
    out = {}
    if "validate" in ns.which:
        out["validate"] = bench_validate(ns.runs)
    if "walk" in ns.which:
        out["walk"] = bench_walk(ns.runs)
    if "render" in ns.which:
        out["render"] = bench_render(max(1, ns.runs // 5))
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
