"""Differential test: our schema + CEL layer against ``kubectl-validate --local-crds`` (upstream CRDs).

Cases: the upstream corpus (v1beta1 and v1alpha1 Dynamo kinds) and Grove's samples as written, plus
Hypothesis-generated mutations of them, guided by our compiled schema: wrong types, unknown fields,
enum / pattern / bound violations, CEL-rule breakers (properties of an object that carries
``x-kubernetes-validations`` removed or changed), explicit nulls, list-map / set duplicates, removed
fields, and same-type changes. For every case both sides must give the same verdict and the same set of
error field paths. Webhook rules are ours alone and stay out.

``DYNAMO_SCHEMA_DIFF_CASES`` sets the number of generated cases (default 2000, derandomized under CI);
``DYNAMO_SCHEMA_DIFF_CASES=50000`` is the long local run. There is no list of known differences: every
difference fails the test.

The same runs for every operator release profile (docs/releases.md): the corpus documents the release
serves, and ``DYNAMO_SCHEMA_DIFF_RELEASE_CASES`` (default 200) mutations of them, against kubectl-validate
with that release's CRDs (``crds-history/X.Y``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from . import _differential as dv
from ._tools import require

pytestmark = [pytest.mark.shared, pytest.mark.oracle]

CASES = int(os.environ.get("DYNAMO_SCHEMA_DIFF_CASES", "2000"))
RELEASE_CASES = int(os.environ.get("DYNAMO_SCHEMA_DIFF_RELEASE_CASES", "200"))
BATCH = 1000

_BASES = dv.base_documents()
_RENDERED = dv.rendered_documents()


def _root(doc: dict[str, Any], release: str = "") -> Any:
    from dynamo_schema._schema import _releases, _schemas
    from dynamo_schema._schema._structural import compile_schema

    if release and doc["apiVersion"].startswith("nvidia.com/"):
        return compile_schema(_releases.schema(release, doc["apiVersion"], doc["kind"]))
    return compile_schema(_schemas.for_object(doc["apiVersion"], doc["kind"]))


def _served(release: str) -> list[tuple[str, dict[str, Any]]]:
    """The corpus documents (and Grove samples) an operator release could serve."""
    from dynamo_schema._schema._releases import served_versions

    return [(label, d) for label, d in _BASES if not d["apiVersion"].startswith("nvidia.com/")
            or d["apiVersion"].rpartition("/")[2] in served_versions(release, d["kind"])]


_SCALARS = st.sampled_from([0, 1, -1, 2, 7, 65536, 2**31, 1.5, "", "x", "frontend", "worker", "decode", "prefill",
                            "main", "Always", "100m", "1Gi", "8", "nvidia.com/gpu", "UPPER", "has space",
                            "-bad-", "a" * 70, "a.b", True, False])
# fresh containers on every draw: a later mutation must not change a shared value
_VALUES = st.one_of(_SCALARS, st.sampled_from(['[]', '{}', '["x"]', '{"a": "b"}', '[{"name": "x"}]']).map(json.loads))


def _jtype(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "null"


_TYPED = {
    "integer": st.sampled_from([-1, 0, 1, 2, 3, 8, 100, 65536]),
    "number": st.sampled_from([-1, 0, 0.5, 2]),
    "string": st.sampled_from(["", "x", "frontend", "worker", "decode", "prefill", "planner", "epp", "main", "0",
                               "1Gi", "100m", "8Gi", "nvidia.com/gpu", "zone", "rack", "block"]),
    "boolean": st.booleans(),
    "object": st.sampled_from(['{}', '{"name": "x"}']).map(json.loads),
    "array": st.sampled_from(['[]', '[{"name": "x"}]', '["x"]']).map(json.loads),
}
_OPS = st.sampled_from(["constraint"] * 3 + ["cel"] * 4 + ["duplicate"] * 2 + ["same"] * 2
                       + ["type", "null", "unknown", "remove", "meta"])
# ObjectMeta values (strings only: a non-string label is a decoding error kubectl-validate reports as an
# internal error)
_META = st.one_of(
    st.tuples(st.just("name"), st.sampled_from(["Bad_Name", "a" * 254, "ok-name", "a.b", "-x", "x" * 253])),
    st.tuples(st.just("namespace"), st.sampled_from(["a.b", "A", "a" * 64, "ok", "-x", "x" * 63])),
    st.tuples(st.just("labels"), st.dictionaries(
        st.sampled_from(["ok", "bad key!", "a/b/c", "UPPER.com/x", "/x", "example.com/", "x" * 64,
                         "nvidia.com/ok"]),
        st.sampled_from(["", "v", "bad value!", "y" * 64, "-v", "v.v"]), max_size=3)),
    st.tuples(st.just("annotations"), st.dictionaries(
        st.sampled_from(["ok", "bad key!", "Ok/X", "a/b/c", "x" * 64]), st.just("v"), max_size=3)),
    st.tuples(st.just("finalizers"), st.lists(st.sampled_from(["ok", "bad finalizer", "example.com/f"]),
                                              max_size=2)),
)


def _typed_value(draw: Any, node: Any) -> Any:
    """A value of the node's own type (so the structural check passes and CEL runs)."""
    types = [t for t in (node.types if node is not None else ()) if t in _TYPED]
    if node is not None and node.enum:
        return draw(st.sampled_from(list(node.enum)))
    if not types:
        return draw(_VALUES)
    return draw(_TYPED[draw(st.sampled_from(types))])


def _has_rules_below(node: Any, depth: int) -> bool:
    if node is None:
        return False
    if node.validations:
        return True
    if depth == 0:
        return False
    kids = [dv.child(node, k) for k in (node.props_raw or {})]
    if node.items() is not None:
        kids.append(node.items())
    return any(_has_rules_below(k, depth - 1) for k in kids)


def _ruled_absent(node: Any, value: dict[str, Any]) -> list[str]:
    """Declared properties absent from ``value`` whose schema (or a child's) carries CEL rules."""
    return [k for k in sorted(node.props_raw or {}) if k not in value and _has_rules_below(dv.child(node, k), 1)]


def _seed(draw: Any, node: Any, depth: int) -> Any:
    """A made-up value of the node's type: objects get a random subset of their declared properties."""
    if node is None:
        return draw(_VALUES)
    if "object" in node.types and node.props_raw and depth > 0:
        names = draw(st.lists(st.sampled_from(sorted(node.props_raw)), unique=True, max_size=4))
        return {k: _seed(draw, dv.child(node, k), depth - 1) for k in names}
    if "array" in node.types and node.items() is not None and depth > 0:
        return [_seed(draw, node.items(), depth - 1) for _ in range(draw(st.integers(0, 2)))]
    return _typed_value(draw, node)


def _has_constraint(node: Any) -> bool:
    return node is not None and any(x is not None and x is not False for x in (
        node.enum, node.pattern, node.minimum, node.maximum, node.max_length, node.max_items,
        node.min_items if node.min_items else None, node.min_length if node.min_length else None))


@st.composite
def mutated(draw: Any, release: str = "") -> dict[str, Any]:
    _, base = draw(st.sampled_from(_served(release) if release else _BASES + _RENDERED))
    doc = dv.copy_doc(base)
    root = _root(doc, release)
    # one case in three changes CEL-ruled objects only (values of their own types), so that no
    # structural error keeps the rules from running
    cel_only = draw(st.integers(0, 2)) == 0
    for _ in range(draw(st.integers(1, 3))):
        locs = dv.locations(doc, root)
        if not locs:
            break
        op = "cel" if cel_only else draw(_OPS)
        if op == "constraint":
            pool = [loc for loc in locs if _has_constraint(loc[1])]
        elif op == "cel":
            pool = [loc for loc in locs if loc[1] is not None and isinstance(dv.get(doc, loc[0]), dict)
                    and (loc[1].validations or _ruled_absent(loc[1], dv.get(doc, loc[0])))]
        elif op == "duplicate":
            pool = [loc for loc in locs if loc[1] is not None and loc[1].list_type in ("map", "set")
                    and isinstance(dv.get(doc, loc[0]), list) and dv.get(doc, loc[0])]
        else:
            pool = locs
        if not pool:
            pool, op = locs, "type"
        path, node = draw(st.sampled_from(pool))
        value = dv.get(doc, path)
        if op == "type":
            dv.put(doc, path, draw(_VALUES.filter(lambda v, t=_jtype(value): _jtype(v) != t)))
        elif op == "null":
            dv.put(doc, path, None)
        elif op == "unknown":
            target = value if isinstance(value, dict) else dv.get(doc, path[:-1])
            if isinstance(target, dict):
                target[draw(st.sampled_from(["unknownField", "Name", "replica", "podtemplate"]))] = draw(_VALUES)
        elif op == "constraint":
            dv.put(doc, path, _violation(draw, node, value))
        elif op == "duplicate":
            item = json.loads(json.dumps(draw(st.sampled_from(value))))
            if isinstance(item, dict) and item and draw(st.booleans()):
                k = draw(st.sampled_from(sorted(item)))
                item[k] = _typed_value(draw, dv.child(node.items(), k))  # same key, other content (or key)
            value.append(item)
        elif op == "cel":
            # a property of an object that carries CEL rules: removed, set to a value of its own type,
            # or a declared but absent one added; or an absent object that carries rules, made up
            names = sorted(node.props_raw or {})
            absent = _ruled_absent(node, value)
            if absent and (not node.validations or draw(st.booleans())):
                k = draw(st.sampled_from(absent))
                value[k] = _seed(draw, dv.child(node, k), 3)
            elif value and draw(st.booleans()):
                del value[draw(st.sampled_from(sorted(value)))]
            elif names:
                k = draw(st.sampled_from(names))
                value[k] = _typed_value(draw, dv.child(node, k))
        elif op == "remove":
            dv.remove(doc, path)
        elif op == "meta":
            key, meta_value = draw(_META)
            doc.setdefault("metadata", {})[key] = meta_value
        elif op == "same":
            if isinstance(value, (str, int, bool)) and not isinstance(value, float):
                dv.put(doc, path, _typed_value(draw, node) if node is not None
                       else draw(_SCALARS.filter(lambda v, t=_jtype(value): _jtype(v) == t)))
    return doc


def _violation(draw: Any, node: Any, value: Any) -> Any:
    choices: list[Any] = []
    if node.enum:
        choices += ["notAnEnumValue", str(node.enum[0]).upper() + "x"]
    if node.pattern is not None:
        choices += ["", "UPPER_CASE", "has space", "a" * 300, "-x-"]
    if node.minimum is not None:
        choices.append(node.minimum - 1)
    if node.maximum is not None:
        choices.append(node.maximum + 1)
    if node.max_length is not None:
        choices.append("a" * (node.max_length + 1))
    if node.min_length is not None and node.min_length > 0:
        choices.append("")
    if node.max_items is not None and isinstance(value, list) and value:
        choices.append(value * (node.max_items + 1))
    if node.min_items is not None and node.min_items > 0:
        choices.append([])
    if not choices:
        return draw(_VALUES)
    return draw(st.sampled_from(choices))


def _generate(n: int, sink: Any = None, release: str = "") -> list[dict[str, Any]]:
    """``n`` generated cases; with ``sink``, handed over in batches of ``BATCH`` (memory stays bounded
    for the long local run) and not kept."""
    out: list[dict[str, Any]] = []

    @settings(max_examples=n, phases=[Phase.generate], database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(mutated(release))
    def collect(doc: dict[str, Any]) -> None:
        out.append(doc)
        if sink is not None and len(out) >= BATCH:
            sink(out[:])
            out.clear()

    collect()
    if sink is not None and out:
        sink(out[:])
        out.clear()
    return out


def _compare(docs: list[dict[str, Any]], binary: str, tmp: Path, offset: int = 0, release: str = "") -> list[str]:
    import shutil

    diffs = []
    crds = dv.release_crd_dirs(release) if release else None
    for start in range(0, len(docs), BATCH):
        chunk = docs[start:start + BATCH]
        folder = tmp / f"batch-{offset + start:06d}"
        verdicts = dv.run_batch(binary, chunk, folder, crds)
        shutil.rmtree(folder, ignore_errors=True)
        for i, (doc, (t_rej, t_paths)) in enumerate(zip(chunk, verdicts)):
            o_rej, o_paths = dv.ours(doc, release)
            if (o_rej, o_paths) != (t_rej, t_paths):
                diffs.append(f"case {offset + start + i} {doc['apiVersion']} {doc['kind']}: kubectl-validate "
                             f"{'rejects' if t_rej else 'admits'} {sorted(t_paths)}; we "
                             f"{'reject' if o_rej else 'admit'} {sorted(o_paths)}")
    return diffs


def test_corpus_verdicts_agree(tmp_path: Path) -> None:
    binary = require("kubectl-validate")
    docs = [d for _, d in _BASES]
    assert len(docs) == 210  # the corpus's Dynamo documents and Grove's samples
    assert _compare(docs, binary, tmp_path) == []


def test_generated_mutations_agree(tmp_path: Path) -> None:
    binary = require("kubectl-validate")
    seen = {"cases": 0, "rejected": 0}
    diffs: list[str] = []

    def sink(batch: list[dict[str, Any]]) -> None:
        diffs.extend(_compare(batch, binary, tmp_path, offset=seen["cases"]))
        seen["cases"] += len(batch)
        seen["rejected"] += sum(1 for d in batch if dv.ours(d)[0])
        print(f"differential: {seen['cases']} cases so far, {len(diffs)} differences", flush=True)

    _generate(CASES, sink)
    print(f"differential: {seen['cases']} generated cases, {seen['rejected']} rejected, {len(diffs)} differences")
    assert seen["cases"] >= min(CASES, 2000)
    assert diffs[:50] == []


_RELEASES = ("0.8", "0.9", "1.0", "1.1", "1.2", "1.3", "1.4")


@pytest.mark.parametrize("release", _RELEASES)
def test_release_corpus_verdicts_agree(release: str, tmp_path: Path) -> None:
    """Every corpus document the release serves: its own CRDs decide as kubectl-validate with them does."""
    binary = require("kubectl-validate")
    docs = [d for _, d in _served(release)]
    assert len(docs) == {"0.8": 82, "0.9": 82, "1.0": 89, "1.1": 89}.get(release, 210)
    assert _compare(docs, binary, tmp_path, release=release) == []


@pytest.mark.parametrize("release", _RELEASES)
def test_release_mutations_agree(release: str, tmp_path: Path) -> None:
    binary = require("kubectl-validate")
    docs = _generate(RELEASE_CASES, release=release)
    assert len(docs) >= min(RELEASE_CASES, 200)
    rejected = sum(1 for d in docs if dv.ours(d, release)[0])
    assert 0 < rejected < len(docs)  # the mutations reach both verdicts
    assert _compare(docs, binary, tmp_path, release=release)[:50] == []


@pytest.mark.parametrize("size", [8192, 16384])
def test_a_document_of_a_buffer_size_gets_a_verdict(size: int, tmp_path: Path) -> None:
    # the pinned kubectl-validate reports nothing for a file of a multiple of 8,192 bytes without a final
    # newline: run_batch writes one, so such a case (once drawn by a random seed) is compared as any other
    binary = require("kubectl-validate")
    doc: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"k": ""}}
    doc["data"]["k"] = "a" * (size - len(json.dumps(doc)))
    assert len(json.dumps(doc)) == size
    assert dv.run_batch(binary, [doc], tmp_path) == [(False, set())]
