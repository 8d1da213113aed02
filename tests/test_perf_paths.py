"""Shortcuts taken for speed give what the plain way gives (issue 11, performance): the JSON-data
``deepcopy``, ``validate -j N`` (ordered results, the first file checked in the parent, chunks) and
the imports of a cold ``validate`` (nothing it does not use), ``validate``'s reconcile check with a worker hash of
the right shape only (the findings of the full render)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._cli._main import main
from dynamo_schema._core import _datacopy
from dynamo_schema._pipeline import _parallel
from tests import _yaml as k8s_yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()
CORPUS = SHARED / "reference" / "dynamo" / "corpus"

_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=30,
)


def _structure(x: Any, seen: dict[int, tuple[int, Any]]) -> Any:
    """``x`` as a comparable tree that also records which containers are the same object (every container
    seen is kept alive in ``seen``: the id of a freed temporary, e.g. an ``items()`` pair, is reused)."""
    if isinstance(x, (dict, list, tuple, set)):
        if id(x) in seen:
            return ("ref", seen[id(x)][0])
        seen[id(x)] = (len(seen), x)
        items = list(x.items()) if isinstance(x, dict) else list(x)
        return (type(x).__name__, [_structure(i, seen) for i in items])
    return (type(x).__name__, repr(x))


@settings(max_examples=300)
@given(_JSON)
def test_deepcopy_equals_copy_deepcopy(value: Any) -> None:
    theirs = copy.deepcopy(value)
    for mine in (_datacopy.deepcopy(value), _datacopy.walk_copy(value)):  # by marshal, by the walk
        assert _structure(mine, {}) == _structure(theirs, {})
        if isinstance(value, (dict, list)):
            assert mine is not value


@pytest.mark.parametrize("value", [
    pytest.param(lambda: {"x": (shared := {"a": [1, 2]}), "y": shared, "t": (shared, "s")}, id="shared"),
    pytest.param(lambda: (lambda c: (c.append(c), {"c": c})[1])([1]), id="cyclic"),
    pytest.param(lambda: {"s": "\ud800x", "n": float("inf"), "z": -0.0, "big": 2**100, "k": {1: None}}, id="scalars"),
])
def test_the_marshal_copy_keeps_sharing_cycles_and_types(value: Any) -> None:
    # the fast way (marshal) of a plain tree: shared and cyclic containers stay so, scalar types exact
    original = value()
    mine, theirs = _datacopy.deepcopy(original), copy.deepcopy(original)
    assert _structure(mine, {}) == _structure(theirs, {})
    assert _structure(_datacopy.walk_copy(original), {}) == _structure(theirs, {})


def test_a_tree_marshal_cannot_write_is_copied_by_the_walk() -> None:
    deep: list[Any] = []
    node = deep
    for _ in range(2500):  # deeper than marshal's limit (2,000), within the walk's recursion limit
        node.append([])
        node = node[0]
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        mine = _datacopy.deepcopy(deep)
    finally:
        sys.setrecursionlimit(limit)
    depth, node = 0, mine
    while node:
        node, depth = node[0], depth + 1
    assert depth == 2500 and mine is not deep


def test_deepcopy_keeps_sharing_cycles_and_types() -> None:
    shared = {"a": [1, 2]}
    cyclic: list[Any] = [1]
    cyclic.append(cyclic)
    value = {"x": shared, "y": shared, "c": cyclic, "o": OrderedDict(k=[shared]), "t": (shared, 1), "s": {1, 2}}
    mine, theirs = _datacopy.deepcopy(value), copy.deepcopy(value)
    assert _structure(mine, {}) == _structure(theirs, {})
    assert mine["x"] is mine["y"] and mine["x"] is not shared
    assert mine["c"][1] is mine["c"]
    assert type(mine["o"]) is OrderedDict and mine["o"]["k"][0] is mine["x"]  # handed to copy.deepcopy, same memo
    mine["x"]["a"].append(3)
    assert shared == {"a": [1, 2]}


def _square(x: int) -> int:
    if x == 13:
        raise ValueError("thirteen")
    return x * x


def test_parallel_map_keeps_order_and_first_error() -> None:
    items = list(range(100))
    assert _parallel.map_ordered(_square, [i for i in items if i != 13], 2) == [i * i for i in items if i != 13]
    with pytest.raises(ValueError, match="thirteen"):
        _parallel.map_ordered(_square, items, 2)
    assert _parallel.map_ordered(_square, [3], 2) == [9]
    assert _parallel.map_ordered(_square, [], 2) == []


def test_chunks_balance_the_workers() -> None:
    assert _parallel.chunk_size(1, 2) == 1
    assert _parallel.chunk_size(2000, 2) == 32
    assert 1 <= _parallel.chunk_size(100, 2) <= 100 // 2


def test_bulk_gc_restores_the_collector() -> None:
    import gc

    before = gc.get_threshold()
    with _parallel.bulk_gc():
        assert gc.get_threshold()[0] == _parallel.GC_THRESHOLD
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def _corpus_files(n: int) -> list[str]:
    files = sorted((CORPUS / "v1beta1").glob("*.yaml"))[: n // 2] + sorted((CORPUS / "v1alpha1").glob("*.yaml"))[: n // 2]
    return [str(f) for f in files]


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_jobs_2_reports_what_jobs_1_reports(fmt: str, shared: Path) -> None:
    import io

    files = _corpus_files(60)
    assert len(files) >= 40
    outs = []
    for jobs in ("1", "2"):
        out = io.StringIO()
        rc = main(["validate", "-o", fmt, "-j", jobs, *files], stdout=out, stderr=io.StringIO())
        outs.append((rc, out.getvalue()))
    assert outs[0] == outs[1]
    if fmt == "json":
        names = [r["filename"] for r in json.loads(outs[0][1])["resources"]]
        assert sorted(set(names), key=files.index) == [f for f in files if f in names]  # input order


#: What a cold ``validate`` of a v1beta1 file needs none of: the models, HTTP/TLS, jsonschema (built-in kinds only),
#: the pool (``-j``), difflib (unknown-field suggestions), shutil (argparse asks it for the terminal width
#: only to print help), importlib.resources (package data is read
#: from the package directory).
NOT_FOR_A_COLD_VALIDATE = [
    "dynamo_schema._io._roundtrip", "dynamo_schema.models", "dynamo_schema._pipeline._render_object", "pydantic", "jsonschema", "referencing", "certifi",
    "ruamel", "jinja2", "urllib.request", "ssl", "concurrent.futures", "multiprocessing", "difflib", "shutil",
    "importlib.resources",
    # the worker hash (and OpenSSL through hashlib): reconcile renders with a hash of the right shape only
    "dynamo_schema._render._workerhash", "hashlib",
    # the converter: Grove's clique labels read the v1alpha1 view only under a nvidia.com/dgd-spec payload (D26)
    "dynamo_schema._convert._v1alpha1", "dynamo_schema._convert._dgd_from_hub",
    # the other pathways' render targets: reconcile imports its own target's module only (D26)
    "dynamo_schema._render.targets.kubernetes", "dynamo_schema._render.targets.dcd",
    # dataclasses and what it imports (inspect, ast, dis): the value classes are written out (D32)
    "dataclasses", "inspect", "ast", "dis",
    # the language server and its framework: only the lsp command imports them (D47)
    "dynamo_schema._lsp", "pygls", "lsprotocol", "cattrs",
    # typing (~12 M instructions): the modules of this path import its names for the type checker only, and
    # copy with weakref (~6 M): plain trees are copied by marshal (D56)
    "typing", "copy", "weakref",
]


def test_cold_validate_imports_only_what_it_uses() -> None:
    # (the renderer is loaded: the reconcile-time check renders an admitted DGD, docs/decisions.md D14;
    # modules the interpreter loaded at start-up, e.g. through a .pth file of site-packages, are not ours)
    code = (
        "import io, json, sys\n"
        "before = set(sys.modules)\n"
        "from dynamo_schema._cli._main import main\n"
        f"rc = main(['validate', {str(ROOT / 'examples' / 'vllm-disagg.yaml')!r}], stdout=io.StringIO())\n"
        f"print(json.dumps([rc, [m for m in {NOT_FOR_A_COLD_VALIDATE!r} if m in sys.modules and m not in before]]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, []]


VALIDATE_LINES = [
    ["validate", "a.yaml"],
    ["--debug", "validate", "-o", "json", "--summary", "-j", "2", "a.yaml", "b.yaml"],
    ["validate", "--no-strict", "--old", "o.yaml", "--kubernetes-version", "1.31.0", "--set", "a=1", "-"],
    ["validate", "--settings", "s.yaml", "--output=junit", "--jobs=3", "x"],
    ["validate", "--sum", "a.yaml"],  # an abbreviation argparse accepts
]
BAD_LINES = [
    ["validate", "-o", "xml", "a"], ["validate", "-j", "two", "a"], ["validate", "--bogus", "a"],
    ["validate", "--strict", "--no-strict", "a"], ["--debug"], ["validate", "--s", "a"],
]


@pytest.mark.parametrize("argv", VALIDATE_LINES)
def test_validate_parses_as_with_the_full_parser(argv: list[str]) -> None:
    from dynamo_schema._cli._main import _parse_validate, build_parser

    fast = _parse_validate(argv)
    assert fast is not None
    assert vars(fast) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", BAD_LINES + [["validate", "-h"], ["validate", "--help"], ["render", "x"]])
def test_anything_else_goes_to_the_full_parser(argv: list[str]) -> None:
    from dynamo_schema._cli._main import _parse_validate

    assert _parse_validate(argv) is None


@pytest.mark.parametrize("argv", BAD_LINES)
def test_usage_errors_are_the_full_parsers(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from dynamo_schema._cli._parser import parse_command_line

    assert main(argv) == 2
    ours = capsys.readouterr()
    with pytest.raises(SystemExit):
        parse_command_line(argv)  # the full parser (an unknown option: the subcommand's usage, issue 20)
    assert capsys.readouterr() == ours


# ---------------------------------------------------------------- reconcile: the shape-only worker hash


def _admitted(paths: list[Path], settings: Any) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(document as written, as admission stored it) for every admitted DGD/DCD of ``paths``."""
    from dynamo_schema._io._load import load_path_result
    from dynamo_schema._pipeline._validate import ValidateOptions, check_nvidia

    out = []
    for p in paths:
        for doc in load_path_result(str(p)).documents:
            data = doc.data
            if not isinstance(data, dict) or data.get("kind") not in (
                    "DynamoGraphDeployment", "DynamoComponentDeployment"):
                continue
            diags, stored = check_nvidia(data, ValidateOptions(settings=settings))
            if stored is not None and not any(d.severity == "error" for d in diags):
                out.append((data, stored))
    return out


def _settings_variants() -> list[Any]:
    from dynamo_schema._admission import AdmissionSettings

    return [AdmissionSettings(), AdmissionSettings(grove_enabled=False), AdmissionSettings(lws_enabled=False)]


def test_reconcile_shape_only_hash_equals_the_full_render(shared: Path) -> None:
    # validate's reconcile check renders with a worker hash of the right shape only, and renders again with
    # the real hash only when a child is refused: the same findings as rendering with the real hash, on the
    # corpus and the upstream golden inputs, with Grove on and off
    from dynamo_schema._pipeline import _reconcile as R

    golden = sorted((shared / "reference" / "dynamo" / "golden").glob("*/*/input.yaml"))
    files = sorted((CORPUS / "v1beta1").glob("*.yaml")) + sorted((CORPUS / "v1alpha1").glob("*.yaml")) + golden
    assert len(golden) >= 5
    checked = 0
    for settings_ in _settings_variants():
        for data, stored in _admitted(files, settings_):
            assert R.reconcile_errors(data, stored, settings_) == R.reconcile_errors_full(data, stored, settings_)
            checked += 1
    assert checked >= 300


def _renamed(text: str, name: str) -> str:
    import re

    return re.sub(r"(?m)^(  name: ).*$", lambda m: m.group(1) + name, text, count=1)


def test_reconcile_shape_only_hash_equals_the_full_render_near_the_name_limits(tmp_path: Path) -> None:
    # names one character apart across every length where a child name (worker DCDs, their Deployments and
    # Services carry the hash: ``<dgd>-<component>-<hash>``) or a Grove budget crosses its limit
    from dynamo_schema._pipeline import _reconcile as R

    examples = [ROOT / "examples" / n for n in ("vllm-disagg.yaml", "vllm-disagg-scaled.yaml", "legacy-v1alpha1.yaml")]
    with_findings = without = 0
    for settings_ in _settings_variants()[:2]:
        for ex in examples:
            text = ex.read_text()
            for n in range(20, 64):
                f = tmp_path / f"{ex.stem}-{n}.yaml"
                f.write_text(_renamed(text, ("d" + "x" * 62)[:n]))
                for data, stored in _admitted([f], settings_):
                    full = R.reconcile_errors_full(data, stored, settings_)
                    assert R.reconcile_errors(data, stored, settings_) == full, (ex.name, n)
                    with_findings += bool(full)
                    without += not full
    assert with_findings >= 20 and without >= 20  # both sides of the limits were reached


# ---------------------------------------------------------------- cold start: PyYAML's reader pattern


def test_yaml_reader_pattern_from_its_complement_matches_the_same_code_points() -> None:
    # every code point: the complement written out matches exactly where PyYAML's negated class matches
    import re

    from dynamo_schema._cli import _startup

    everything = "".join(map(chr, range(0x110000)))
    theirs = re.compile(_startup.YAML_NON_PRINTABLE)
    ours = re.compile(_startup.NON_PRINTABLE_COMPLEMENT)
    assert [m.span() for m in ours.finditer(everything)] == [m.span() for m in theirs.finditer(everything)]
    assert len(ours.findall(everything)) == 0x110000 - (3 + 0x5F + 1 + (0xD800 - 0xA0) + (0xFFFE - 0xE000) + 0x100000)


def test_the_cli_gives_pyyaml_the_primed_reader_pattern() -> None:
    # the seeded pattern is the one PyYAML's Reader got (a PyYAML with another pattern text fails this), and
    # the command line still reports what the pure-Python reader refuses
    from dynamo_schema._cli import _startup

    code = (
        "import io, re, sys\n"
        "from dynamo_schema._cli._main import main\n"
        f"main(['validate', {str(ROOT / 'examples' / 'vllm-disagg.yaml')!r}], stdout=io.StringIO())\n"
        "import yaml.reader\n"
        f"print(yaml.reader.Reader.NON_PRINTABLE.pattern == {_startup.NON_PRINTABLE_COMPLEMENT!r})\n"
        "try:\n"
        "    yaml.load('a: \\x07', Loader=yaml.SafeLoader)\n"
        "except yaml.reader.ReaderError as e:\n"
        "    print(e.character == 7, e.position)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "3"]


_YAML_PROBE = (
    "import yaml, yaml.constructor\n"
    "text = 'a: yes\\nb: Off\\nc: 0777\\nd: 1_000\\ne: 12:30\\nf: .5\\ng: .inf\\nh: ~\\ni: 2024-01-15\\n"
    "j: 2024-01-15 10:00:00.5 +01:00\\nbase: &b {x: 1}\\nk: {<<: *b, y: 2}\\n"
    "m: !!timestamp 2001-12-14t21:59:43.10-05:00\\nn: 0x1F\\n'\n"
    "print(repr(yaml.safe_load(text)))\n"
    "try:\n"
    "    yaml.safe_load('l: =')\n"
    "except yaml.constructor.ConstructorError as e:\n"
    "    print(e.problem)\n"
    # negative control: PyYAML's own quoting (its resolver's patterns), compared with an unprimed process
    "print(yaml.safe_dump({'s': ['yes', 'null', '1e3', '1_0', '0b1', '12:30', '2024-01-15', '<<', '=', 'x']}))\n"  # negative control
)


def test_the_cli_defers_pyyamls_resolver_and_timestamp_patterns() -> None:
    # every seeded text is one PyYAML compiles (a PyYAML with other texts fails this: the seeding would do
    # nothing), none is compiled by a validate, and PyYAML resolves and quotes scalars as in a process where
    # it compiled its own patterns (YAML 1.1 booleans, octals, sexagesimals, timestamps, merge and value keys)
    from dynamo_schema._cli import _startup

    code = (
        "import io, re, sys\n"
        "from dynamo_schema._cli._main import main\n"
        f"main(['validate', {str(ROOT / 'examples' / 'vllm-disagg.yaml')!r}], stdout=io.StringIO())\n"
        "import yaml.constructor, yaml.resolver\n"
        "rxs = [rx for rs in yaml.resolver.Resolver.yaml_implicit_resolvers.values() for _, rx in rs]\n"
        "rxs.append(yaml.constructor.SafeConstructor.timestamp_regexp)\n"
        "print(all(type(rx).__name__ == '_LazyPattern' and rx._compiled is None for rx in rxs))\n"
        "print(sorted({(rx.pattern, rx.flags & ~re.UNICODE) for rx in rxs}) == "
        f"sorted({list(_startup.YAML_DEFERRED_PATTERNS)!r}))\n"
    ) + _YAML_PROBE
    primed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    plain = subprocess.run([sys.executable, "-c", _YAML_PROBE], capture_output=True, text=True, check=True).stdout
    head, _, rest = primed.partition("\n")
    second, _, rest = rest.partition("\n")
    assert (head, second) == ("True", "True")
    assert rest == plain and "datetime" in plain and "'yes'" in plain


# ---------------------------------------------------------------- render: the v1alpha1 view for Grove's labels


def _render_inputs(shared: Path) -> list[dict[str, Any]]:
    """v1beta1 DGDs: the corpus (v1alpha1 files converted, so they carry ``nvidia.com/dgd-spec``; and the
    same without that annotation) and the upstream golden inputs."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._io._load import load_path_result

    golden = sorted((shared / "reference" / "dynamo" / "golden" / "dgd").glob("*/input.yaml"))
    files = sorted((CORPUS / "v1beta1").glob("*.yaml")) + sorted((CORPUS / "v1alpha1").glob("*.yaml")) + golden
    out: list[dict[str, Any]] = []
    for p in files:
        for doc in load_path_result(str(p)).documents:
            data = doc.data
            if not isinstance(data, dict) or data.get("kind") != "DynamoGraphDeployment":
                continue
            beta = to_v1beta1(data) if data.get("apiVersion") == "nvidia.com/v1alpha1" else data
            out.append(beta)
            anns = (beta.get("metadata") or {}).get("annotations") or {}
            if "nvidia.com/dgd-spec" in anns:
                stripped = copy.deepcopy(beta)
                del stripped["metadata"]["annotations"]["nvidia.com/dgd-spec"]
                out.append(stripped)
    return out


def _render_both_ways(obj: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    from dynamo_schema._render import RenderOptions, _alphacompat, render

    def one() -> Any:
        out = []
        for target, options in (("grove", RenderOptions()), ("kubernetes", RenderOptions()),
                                ("grove", RenderOptions(discovery_backend="kubernetes"))):
            try:
                out.append(render(copy.deepcopy(obj), target, options))
            except Exception as exc:  # a refusal must be the same refusal
                out.append(repr(exc))
        return out

    fast = one()
    with monkeypatch.context() as m:
        m.setattr(_alphacompat, "may_preserve_alpha_metadata", lambda dgd: True)  # always convert
        full = one()
    return fast, full


def test_grove_labels_without_the_alpha_view_equal_the_converted_view(shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Grove's clique labels, annotations and sub-component type read the DGD's v1alpha1 view only where a
    # nvidia.com/dgd-spec payload can put something there: the same objects as converting every DGD
    inputs = _render_inputs(shared)
    preserved = [o for o in inputs if "nvidia.com/dgd-spec" in ((o.get("metadata") or {}).get("annotations") or {})]
    assert len(inputs) >= 150 and len(preserved) >= 20
    for obj in inputs:
        fast, full = _render_both_ways(obj, monkeypatch)
        assert fast == full, (obj.get("metadata") or {}).get("name")


_LABEL = st.from_regex(r"[a-z]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(labels=st.dictionaries(_LABEL, _LABEL, max_size=3), annotations=st.dictionaries(_LABEL, _LABEL, max_size=3),
       sub=st.sampled_from([None, "prefill", "decode", "other"]), keep_payload=st.booleans(),
       extra=st.sampled_from([{}, {"nvidia.com/dgd-status": "{}"}, {"nvidia.com/enable-grove": "true"}]))
def test_grove_labels_of_generated_annotated_dgds(labels: dict[str, str], annotations: dict[str, str], sub: str | None,
                                                  keep_payload: bool, extra: dict[str, str]) -> None:
    # v1alpha1 services with labels, annotations and a sub-component type, converted to v1beta1 (the payload
    # carries them), rendered with and without the payload: the same as converting every DGD
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    svc: dict[str, Any] = {"componentType": "worker", "replicas": 1, "labels": labels, "annotations": annotations,
                           "extraPodSpec": {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0"}}}
    if sub is not None:
        svc["subComponentType"] = sub
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "gen", "annotations": dict(extra)},
             "spec": {"backendFramework": "vllm", "services": {
                 "Frontend": {"componentType": "frontend", "replicas": 1},
                 "VllmWorker": svc}}}
    beta = to_v1beta1(alpha)
    anns = beta["metadata"].get("annotations") or {}
    assert ("nvidia.com/dgd-spec" in anns) == bool(labels or annotations or sub == "other")
    if not keep_payload:
        anns.pop("nvidia.com/dgd-spec", None)
    with pytest.MonkeyPatch.context() as mp:
        fast, full = _render_both_ways(beta, mp)
    assert fast == full
    assert isinstance(fast[0], list)
    pcs = json.dumps(fast[0][0])
    for k, v in labels.items():  # the view's labels reached the cliques exactly when the payload was kept
        assert (f'"{k}": "{v}"' in pcs) == keep_payload or f'"{k}"' in json.dumps(beta["spec"])


_LABEL_VALUE = st.one_of(_LABEL, st.just("x" * 64), st.just("bad value"), st.just(""))


@settings(max_examples=40, deadline=None)
@given(labels=st.dictionaries(_LABEL, _LABEL_VALUE, max_size=3), grove=st.booleans(), keep_payload=st.booleans())
def test_reconcile_findings_of_generated_annotated_dgds(labels: dict[str, str], grove: bool, keep_payload: bool) -> None:
    # clique labels from the v1alpha1 view (some too long or malformed: reconcile findings), submitted as
    # v1alpha1 and as converted v1beta1 with and without the payload: the reconcile check's fast pass (no
    # alpha view without a payload, keys unsorted, shape-only hash) gives the findings of the full render,
    # and those of always converting

    from dynamo_schema._admission import AdmissionSettings
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._pipeline import _reconcile as R
    from dynamo_schema._render import _alphacompat

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "gen"},
             "spec": {"backendFramework": "vllm", "services": {
                 "Frontend": {"componentType": "frontend", "replicas": 1, "extraPodSpec": {
                     "mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0"}}},
                 "VllmWorker": {"componentType": "worker", "replicas": 1, "labels": labels,
                                "extraPodSpec": {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0"}}}}}}
    beta = to_v1beta1(alpha)
    if not keep_payload:
        (beta["metadata"].get("annotations") or {}).pop("nvidia.com/dgd-spec", None)
    settings_ = AdmissionSettings(grove_enabled=grove)
    seen = 0
    for doc in (alpha, beta):
        path = Path(f"/tmp/dynamo-schema-perf-{id(doc)}.yaml")
        try:
            path.write_text(k8s_yaml.dump(doc))
            admitted = _admitted([path], settings_)
        finally:
            path.unlink()
        for data, stored in admitted:
            fast, full = R.reconcile_errors(data, stored, settings_), R.reconcile_errors_full(data, stored, settings_)
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(_alphacompat, "may_preserve_alpha_metadata", lambda dgd: True)
                converted = R.reconcile_errors(data, stored, settings_)
            assert fast == full == converted
            seen += 1
    assert seen == 2


# ---------------------------------------------------------------- render: the worker hash without v1alpha1 views


def _hash_inputs(dgd: dict[str, Any], may_preserve: Any = None) -> list[Any]:
    """The DCD worker hash input (with and without the runtime version) and the hash, or the refusal;
    ``may_preserve``: replaces ``may_preserve_alpha_metadata`` (None: as it is); ``_always_convert``:
    upstream's way (each carrier converted to v1beta1 and each generated DCD back to v1alpha1)."""
    from dynamo_schema._render import _alphacompat
    from dynamo_schema._render import _workerhash as W

    out: list[Any] = []
    with pytest.MonkeyPatch.context() as mp:
        if may_preserve is _always_convert:
            mp.setattr(W, "ALWAYS_CONVERT", True)
            mp.setattr(_alphacompat, "may_preserve_alpha_metadata", may_preserve)
        elif may_preserve is not None:
            mp.setattr(_alphacompat, "may_preserve_alpha_metadata", may_preserve)
        for rv in (True, False):
            try:
                out.append(W.dcd_worker_hash_input(copy.deepcopy(dgd), None, rv))
                out.append(W.compute_dcd_worker_hash(copy.deepcopy(dgd), None, rv))
            except Exception as exc:  # a refusal must be the same refusal
                out.append(repr(exc))
    return out


def _always_convert(dgd: Any) -> bool:
    return True


def test_worker_hash_without_the_alpha_view_equals_the_converted_view(shared: Path) -> None:
    # the hash input's DCDs are generated without the v1alpha1 carrier payload, their v1alpha1 metadata
    # read from the DGD's view (none without a nvidia.com/dgd-spec payload): the same input (and hash)
    # as converting the DGD, every carrier and every DCD; the corpus, its v1alpha1 files converted (with
    # and without the payload), the golden inputs
    inputs = _render_inputs(shared)
    fast_paths = [o for o in inputs if "nvidia.com/dgd-spec" not in ((o.get("metadata") or {}).get("annotations") or {})]
    assert len(inputs) >= 150 and len(fast_paths) >= 100
    for obj in inputs:
        assert _hash_inputs(obj) == _hash_inputs(obj, _always_convert), (obj.get("metadata") or {}).get("name")


def test_upstream_fixed_hashes_take_the_fast_path(shared: Path) -> None:
    # the golden inputs whose stored objects carry upstream's fixed hashes (1b69c0d3, cabcd5c9) have no
    # payload, so the shortcut is what computes them (tests/render: the hashes themselves)
    from dynamo_schema._render import _alphacompat

    golden = sorted((shared / "reference" / "dynamo" / "golden" / "dgd").glob("*/input.yaml"))
    assert golden
    import yaml

    plain = [d for p in golden for d in yaml.safe_load_all(p.read_text())
             if isinstance(d, dict) and not _alphacompat.may_preserve_alpha_metadata(d)]
    assert len(plain) >= len(golden) // 2


_NS = st.one_of(st.none(), _LABEL)


@settings(max_examples=60, deadline=None)
@given(labels=st.dictionaries(_LABEL, _LABEL, max_size=3), annotations=st.dictionaries(_LABEL, _LABEL, max_size=3),
       sub=st.sampled_from([None, "prefill", "decode", "other"]), dyn_ns=_NS, keep_payload=st.booleans(),
       prefill=st.booleans(),
       extra=st.sampled_from([{}, {"nvidia.com/dgd-status": "{}"}, {"nvidia.com/enable-grove": "true"}]))
def test_worker_hash_of_generated_annotated_dgds(labels: dict[str, str], annotations: dict[str, str], sub: str | None,
                                                 dyn_ns: str | None, keep_payload: bool, prefill: bool,
                                                 extra: dict[str, str]) -> None:
    # v1alpha1 workers with labels, annotations, a sub-component type and a dynamoNamespace (which the
    # hash input reads from each DCD's v1alpha1 view), converted to v1beta1, with and without the
    # payload: the hash input of always converting. Forcing the shortcut (never converting) fails here.
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    image = {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0"}}
    svc: dict[str, Any] = {"componentType": "worker", "replicas": 1, "labels": labels, "annotations": annotations,
                           "extraPodSpec": image}
    if sub is not None:
        svc["subComponentType"] = sub
    if dyn_ns is not None:
        svc["dynamoNamespace"] = dyn_ns
    services: dict[str, Any] = {"Frontend": {"componentType": "frontend", "replicas": 1}, "VllmWorker": svc}
    if prefill:
        services["PrefillWorker"] = {"componentType": "worker", "subComponentType": "prefill", "replicas": 2,
                                     "extraPodSpec": copy.deepcopy(image)}
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
             "metadata": {"name": "gen", "annotations": dict(extra)},
             "spec": {"backendFramework": "vllm", "services": services}}
    beta = to_v1beta1(alpha)
    if not keep_payload:
        (beta["metadata"].get("annotations") or {}).pop("nvidia.com/dgd-spec", None)
    fast = _hash_inputs(beta)
    assert fast == _hash_inputs(beta, _always_convert)
    assert isinstance(fast[0], dict)


def test_forcing_the_worker_hash_shortcut_fails_the_generated_test() -> None:
    # sabotage: with the shortcut taken everywhere, the generated test above finds a difference
    with pytest.MonkeyPatch.context() as mp:
        import dynamo_schema._render._alphacompat as A

        real = A.may_preserve_alpha_metadata

        def sabotaged(dgd: Any) -> bool:
            return False

        def hash_inputs(dgd: dict[str, Any], may_preserve: Any = None) -> list[Any]:
            return _HASH_INPUTS(dgd, may_preserve if may_preserve is not None else sabotaged)

        mp.setitem(globals(), "_hash_inputs", hash_inputs)
        with pytest.raises(AssertionError):
            test_worker_hash_of_generated_annotated_dgds()
        assert A.may_preserve_alpha_metadata is real


_HASH_INPUTS = _hash_inputs
