"""The structural walk's fast path (``_schema/_fastcheck.clean``) against the detailed walk.

``clean`` may only answer True where the walk reports nothing (no error, warning or note); then
``validate`` returns ``[]`` without walking. Checked on every (object, schema) pair the validate
pipeline walks for the upstream corpus (DGD/DCD/DGDR of both versions, the rendered PodCliqueSets),
on the CRDs' own inline schemas, and on generated invalid documents (mutations of those objects).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._schema import _fastcheck as F
from dynamo_schema._schema import _structural as S
from dynamo_schema._schema._nodes import child_node, compile_schema

from ._crds import FILES, SHARED, crd_schema

CORPUS = SHARED / "reference" / "dynamo" / "corpus"


def _walk_full(data: Any, schema: dict[str, Any], **kw: Any) -> list[Any]:
    saved = S.FAST_PATH
    S.FAST_PATH = False
    try:
        return S.validate(data, schema, **kw)
    finally:
        S.FAST_PATH = saved


def _pairs() -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    """(object, schema, options) for every structural walk of the pipeline over the corpus."""
    if not CORPUS.is_dir():
        return []
    from dynamo_schema._io._load import load_path
    from dynamo_schema._pipeline._validate import ValidateOptions, validate_document

    seen: list[tuple[Any, dict[str, Any], dict[str, Any]]] = []
    real = S.validate

    def record(data: Any, schema: dict[str, Any], **kw: Any) -> list[Any]:
        seen.append((copy.deepcopy(data), schema, dict(kw)))
        return real(data, schema, **kw)

    real_decoding = S.decoding_findings

    def record_decoding(data: Any, schema: dict[str, Any], **kw: Any) -> list[Any]:
        seen.append((copy.deepcopy(data), schema, dict(kw)))
        saved = S.validate
        S.validate = real  # type: ignore[assignment]
        try:
            return real_decoding(data, schema, **kw)
        finally:
            S.validate = saved  # type: ignore[assignment]

    S.validate = record  # type: ignore[assignment]
    S.decoding_findings = record_decoding  # type: ignore[assignment]
    try:
        for f in sorted(CORPUS.glob("*/*.yaml")):
            for doc in load_path(str(f)):
                validate_document(doc, ValidateOptions())
    finally:
        S.validate = real  # type: ignore[assignment]
        S.decoding_findings = real_decoding  # type: ignore[assignment]
    if (SHARED / "reference" / "dynamo" / "crds").is_dir():  # the CRDs' inline schemas too
        for data, _schema, kw in list(seen):
            if isinstance(data, dict) and data.get("apiVersion") == "nvidia.com/v1beta1" and data.get("kind") in FILES:
                seen.append((data, crd_schema(str(data["kind"])), kw))
    return seen


PAIRS = _pairs()


def _need_corpus() -> None:
    if not PAIRS:
        pytest.skip("../shared corpus is not available")


def _clean(data: Any, schema: dict[str, Any], kw: dict[str, Any]) -> bool:
    node = compile_schema(schema)
    if kw.get("status_subresource") and isinstance(data, dict) and "status" in data:
        return False  # validate() does not take the fast path then
    return F.clean(data, node, isinstance(data, dict) and S._root_meta_is_opaque(node))


def test_corpus_same_findings_and_the_fast_path_is_taken() -> None:
    _need_corpus()
    kinds = set()
    clean_valid = valid = 0
    for data, schema, kw in PAIRS:
        full = _walk_full(data, schema, **kw)
        assert S.validate(data, schema, **kw) == full
        is_clean = _clean(data, schema, kw)
        assert not (is_clean and full), (data.get("kind"), full[:3])
        if not full:
            valid += 1
            clean_valid += is_clean
            kinds.add(data.get("kind"))
    # not vacuous: the corpus's valid objects nearly all take the fast path (PodCliqueSets included)
    assert {"DynamoGraphDeployment", "PodCliqueSet"} <= kinds
    assert valid > 50 and clean_valid >= 0.9 * valid, (clean_valid, valid)


def test_fast_path_refuses_what_the_walk_reports() -> None:
    _need_corpus()
    data, schema, kw = next(p for p in PAIRS if p[0].get("kind") == "PodCliqueSet" and _clean(*p))
    for mutate in (
        lambda d: d["spec"].__setitem__("replicas", "1"),  # type
        lambda d: d["spec"].__setitem__("bogus", 1),  # unknown field
        lambda d: d["spec"].__setitem__("replicas", None),  # pruned null: a note
        lambda d: d["metadata"].__setitem__("bogus", 1),  # not an ObjectMeta field
        lambda d: d["spec"]["template"]["cliques"].append(copy.deepcopy(d["spec"]["template"]["cliques"][0])),
    ):
        d = copy.deepcopy(data)
        mutate(d)
        assert _walk_full(d, schema, **kw)
        assert not _clean(d, schema, kw)
        assert S.validate(d, schema, **kw) == _walk_full(d, schema, **kw)


_SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**64), 2**64), st.floats(allow_nan=False),
    st.sampled_from(["", "a", "x" * 64, "x" * 254, "x" * 1100, "1Gi", "-1", "2026-01-01T00:00:00Z", "auto", "vllm", "Always",
                     "ABC_def", "a.b/c", "10.5", "set", "TCP", "main"]),
)
_VALUE = st.recursive(_SCALAR, lambda c: st.one_of(st.lists(c, max_size=3),
                                                   st.dictionaries(st.sampled_from(["name", "bogus", "value", "x"]), c,
                                                                   max_size=3)), max_leaves=6)


def _locations(x: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _locations(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _locations(v, path + (i,))
    return out


def _node_at(schema: dict[str, Any], path: tuple[Any, ...]) -> Any:
    node = compile_schema(schema)
    for p in path:
        node = child_node(node, p)
        if node is None:
            return None
    return node


def _breaking(node: Any) -> list[Any]:
    """Values aimed at the constraints of ``node`` (some break them, some do not)."""
    out: list[Any] = []
    if node.max_length is not None:
        out += ["x" * (node.max_length + 1), "x" * node.max_length]
    if node.min_length is not None:
        out += ["x" * max(0, node.min_length - 1)]
    if node.pattern is not None:
        out += ["", "-", "A_B", "a b", "a\n", "0", "a.b", "x" * 300]
    for bound in (node.maximum, node.minimum):
        if bound is not None:
            out += [bound, bound + 1, bound - 1, float(bound) + 0.5]
    if node.enum is not None:
        out += ["nope", *node.enum[:2]]
    if node.format:
        out += ["2026-13-01", "2026-01-01", "not base64!", 2**40]
    if node.max_items is not None or node.min_items is not None:
        out += [[], ["a"] * ((node.max_items or 0) + 1)]
    return out


@st.composite
def _constrained(draw: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A corpus object with a value aimed at a constraint (maxLength, pattern, bounds, enum...)."""
    data, schema, kw = draw(st.sampled_from(PAIRS))
    data = copy.deepcopy(data)
    targets = [(p, _breaking(n)) for p in _locations(data)[1:] if (n := _node_at(schema, p)) is not None]
    targets = [t for t in targets if t[1]]
    if targets:
        path, values = draw(st.sampled_from(targets))
        parent: Any = data
        for p in path[:-1]:
            parent = parent[p]
        parent[path[-1]] = draw(st.sampled_from(values))
    return data, schema, kw


@st.composite
def _mutated(draw: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    data, schema, kw = draw(st.sampled_from(PAIRS))
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        locs = _locations(data)
        path = draw(st.sampled_from(locs[1:] or locs))
        parent: Any = data
        for p in path[:-1]:
            parent = parent[p]
        if not path:
            break
        key = path[-1]
        op = draw(st.sampled_from(["replace", "delete", "add", "duplicate", "null"]))
        if op == "replace":
            parent[key] = draw(_VALUE)
        elif op == "null":
            parent[key] = None
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["bogus", "name", "replicas", "value", "image", "x-y"]))] = draw(_VALUE)
        elif op == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    return data, schema, kw


@pytest.mark.skipif(not PAIRS, reason="../shared corpus is not available")
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(_mutated(), _constrained()))
def test_generated_documents_same_findings(case: tuple[Any, dict[str, Any], dict[str, Any]]) -> None:
    data, schema, kw = case
    full = _walk_full(data, schema, **kw)
    if _clean(data, schema, kw):
        assert full == []
    assert S.validate(data, schema, **kw) == full
    assert S.decoding_findings(data, schema, **kw) == _decoding_full(data, schema, kw)


# ---------------------------------------------------------------- strict decoding alone (known_fields)


def _decoding_full(data: Any, schema: dict[str, Any], kw: dict[str, Any]) -> list[Any]:
    return [d for d in _walk_full(data, schema, **kw) if d.rule in S.DECODING_RULES]


def _known(data: Any, schema: dict[str, Any], kw: dict[str, Any]) -> bool:
    node = compile_schema(schema)
    return F.known_fields(data, node, isinstance(data, dict) and S._root_meta_is_opaque(node),
                          bool(kw.get("status_subresource")))


def test_corpus_same_decoding_findings_and_the_field_check_is_taken() -> None:
    _need_corpus()
    known = without = 0
    for data, schema, kw in PAIRS:
        full = _decoding_full(data, schema, kw)
        assert S.decoding_findings(data, schema, **kw) == full
        is_known = _known(data, schema, kw)
        assert not (is_known and full), (data.get("kind"), full[:3])
        if not full:
            without += 1
            known += is_known
    assert without > 50 and known >= 0.95 * without, (known, without)  # not vacuous


@pytest.mark.skipif(not PAIRS, reason="../shared corpus is not available")
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_mutated(), st.booleans())
def test_generated_documents_same_decoding_findings(case: tuple[Any, dict[str, Any], dict[str, Any]],
                                                    with_status: bool) -> None:
    data, schema, kw = case
    if with_status and isinstance(data, dict):  # a status subresource: its field names are decoded too
        data = {**data, "status": {"conditions": [{"type": "Ready", "bogus": 1}], "state": "x"}}
        kw = {**kw, "status_subresource": True}
    full = _decoding_full(data, schema, kw)
    if _known(data, schema, kw):
        assert full == []
    assert S.decoding_findings(data, schema, **kw) == full


_STATUSED = {"type": "object", "properties": {
    "metadata": {"type": "object"},
    "spec": {"type": "object", "properties": {"a": {"type": "integer"}, "l": {"type": "array", "items": {
        "type": "object", "properties": {"n": {"type": "string"}}}},
        "p": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        "e": {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"x": {"type": "string"}}}}},
    "status": {"type": "object", "properties": {"s": {"type": "string"}, "o": {"type": "object", "properties": {
        "k": {"type": "string"}}}}},
}}


@pytest.mark.parametrize("doc", [
    {}, {"spec": {"a": 1}}, {"spec": {"b": 1}}, {"spec": {"a": {"x": 1}}}, {"spec": {"a": [{"x": 1}]}},
    {"spec": {"l": [{"n": "1"}, {"m": 2}]}}, {"spec": {"l": {"n": "1"}}}, {"spec": {"l": [None, {"n": None}]}},
    {"spec": {"p": {"any": {"thing": [1]}}}}, {"spec": {"e": {"apiVersion": "v1", "kind": "K", "x": "1"}}},
    {"spec": {"e": {"y": 1}}}, {"metadata": {"name": "n"}}, {"metadata": {"nam": "n"}}, {"metadata": ["x"]},
    {"metadata": None}, {"status": {"s": "1"}}, {"status": {"t": "1"}}, {"status": {"o": {"k": "1", "j": 2}}},
    {"status": {"s": {"x": 1}}}, {"status": [1]}, {"status": None}, {"nope": 1, "status": {"s": "1"}},
    {"spec": None}, {"spec": "x"}, {"spec": {"a": 1.0}}, {"spec": {"l": [[{"n": 1}]]}},
])
@pytest.mark.parametrize("status_subresource", [False, True])
def test_small_schema_same_decoding_findings(doc: dict[str, Any], status_subresource: bool) -> None:
    kw = {"status_subresource": status_subresource}
    full = _decoding_full(doc, _STATUSED, kw)
    assert S.decoding_findings(doc, _STATUSED, **kw) == full
    if _known(doc, _STATUSED, kw):
        assert full == []
    elif not full and doc in ({}, {"spec": {"a": 1}}, {"metadata": {"name": "n"}}, {"status": {"s": "1"}}):
        pytest.fail("a document without unknown fields missed the field check")  # not vacuous



_SMALL = {
    "type": "object",
    "required": ["a"],
    "properties": {
        "a": {"type": "integer", "format": "int32", "maximum": 10, "minimum": -3, "exclusiveMaximum": True},
        "n": {"type": "number", "minimum": 0.5},
        "m": {"type": "integer", "multipleOf": 2},
        "t": {"type": "string", "format": "date-time"},
        "d": {"type": "string", "format": "date"},
        "b": {"type": "string", "format": "byte"},
        "e": {"type": "string", "enum": ["x", "y"]},
        "s": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set", "maxItems": 3},
        "k": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
              "items": {"type": "object", "properties": {"name": {"type": "string", "default": "d"},
                                                         "v": {"type": "integer", "nullable": True}}}},
        "o": {"type": "object", "additionalProperties": {"type": "string", "minLength": 2}, "maxProperties": 2},
        "u": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True},
        "p": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        "f": {"type": "boolean"},
    },
}


@pytest.mark.parametrize("extra", [
    {}, {"a": 9}, {"a": 10}, {"a": -3}, {"a": -4}, {"a": 2**31}, {"a": 1.0}, {"a": 1.5}, {"a": True}, {"a": None},
    {"n": 0.5}, {"n": 0.4}, {"n": 1}, {"m": 4}, {"m": 3}, {"t": "2026-01-01T10:00:00Z"}, {"t": "2026-01-01"},
    {"t": "2026-02-30T10:00:00Z"}, {"d": "2026-02-28"}, {"d": "2026-02-30"}, {"b": "aGk="}, {"b": "a!"},
    {"e": "x"}, {"e": "z"}, {"e": None}, {"s": ["a", "b"]}, {"s": ["a", "a"]}, {"s": ["a"] * 4}, {"s": [None]},
    {"k": [{"name": "a"}, {"name": "b"}]}, {"k": [{"name": "a"}, {"name": "a"}]}, {"k": [{}, {"name": "d"}]},
    {"k": [{"name": "a", "v": None}]}, {"k": [1, 2]}, {"o": {"x": "ab"}}, {"o": {"x": "a"}},
    {"o": {"x": "ab", "y": "cd", "z": "ef"}}, {"u": 1}, {"u": "1"}, {"u": 1.5}, {"p": {"any": {"thing": [1]}}},
    {"f": False}, {"f": "false"}, {"zz": 1}, {"s": "a"}, {"o": []},
])
def test_small_schema_same_findings(extra: dict[str, Any]) -> None:
    data = {"a": 1, **extra}
    if extra.get("a", 0) is None:
        data["a"] = None
    full = _walk_full(data, _SMALL)
    assert S.validate(data, _SMALL) == full
    if F.clean(data, compile_schema(_SMALL), False):
        assert full == []
    elif not extra or extra in ({"a": 9}, {"n": 0.5}, {"e": "x"}, {"s": ["a", "b"]}, {"f": False}, {"u": "1"}):
        pytest.fail("a valid document missed the fast path")  # not vacuous


def test_prune_nulls_copies_only_what_changes() -> None:
    """``prune_nulls`` (copy at the first change only): untouched subtrees are the input's own objects,
    changed mappings keep their key order, the input is never modified."""
    schema = {"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "string", "default": "d"}, "c": {"type": "string"},
        "keep": {"type": "object", "properties": {"x": {"type": "string"}}},
        "items": {"type": "array", "items": {"type": "object", "properties": {"y": {"type": "string"}}}},
    }}
    keep, items = {"x": "1"}, [{"y": "1"}, {"y": None}, {"y": "2"}]
    doc = {"a": "1", "keep": keep, "b": None, "c": None, "items": items, "z": 1}
    pruned, notes = S.prune_nulls(doc, schema)
    assert list(pruned) == ["a", "keep", "b", "items", "z"]
    assert pruned["b"] == "d" and pruned["keep"] is keep
    assert pruned["items"] == [{"y": "1"}, {}, {"y": "2"}] and pruned["items"][0] is items[0]
    assert [n.path for n in notes] == [("b",), ("c",), ("items", 1, "y")]
    assert doc == {"a": "1", "keep": keep, "b": None, "c": None, "items": items, "z": 1}
    same = {"a": "1", "keep": keep, "items": [{"y": "1"}]}
    assert S.prune_nulls(same, schema) == (same, []) and S.prune_nulls(same, schema)[0] is same


def _frozen(x: Any) -> Any:
    return repr(x)


@pytest.mark.skipif(not PAIRS, reason="../shared corpus is not available")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(st.sampled_from(PAIRS), _mutated()))
def test_defaulted_view_equals_the_defaulted_copy(case: tuple[Any, dict[str, Any], dict[str, Any]]) -> None:
    """CEL reads ``defaulted_view`` (copies only where a default lands) instead of ``apply_defaults``:
    equal values, key order included, and the input is never modified."""
    from dynamo_schema._schema._defaulting import apply_defaults, defaulted_view

    data, schema, _kw = case
    node = compile_schema(schema)
    before = _frozen(data)
    view = defaulted_view(data, node)
    assert _frozen(view) == _frozen(apply_defaults(data, node))
    assert _frozen(data) == before


@pytest.mark.parametrize(("value", "ok"), [
    ("2026-01-01T23:59:59Z", True), ("2026-01-01T23:00:00.5+05:30", True), ("2026-01-01T00:00:00Z", True),
    ("2026-01-01T24:00:00Z", False), ("2026-01-01T23:60:00Z", False), ("2026-01-01T23:59:60Z", False),
])
def test_date_time_hour_23_is_in_range(value: str, ok: bool) -> None:
    """go-openapi strfmt ``IsDateTime``: ``hour <= "23" && minute <= "59" && second <= "59"`` (23 included)."""
    findings = S.validate({"a": 1, "t": value}, _SMALL)
    assert (findings == []) is ok, findings


@pytest.mark.parametrize(("fmt", "lo", "hi"), [("int32", -(2**31), 2**31 - 1), ("int64", -(2**63), 2**63 - 1)])
def test_integer_format_range_is_decided_by_the_fast_path(fmt: str, lo: int, hi: int) -> None:
    """kube-openapi checks an ``int32`` / ``int64`` integer against the whole two's-complement range: values at
    both bounds are valid and take the fast path; one past either bound is refused, as the walk reports it."""
    schema = {"type": "object", "properties": {"a": {"type": "integer", "format": fmt}}}
    node = compile_schema(schema)
    for v in (lo, -30, -1, 0, hi):
        assert _walk_full({"a": v}, schema) == []
        assert F.clean({"a": v}, node, False), v
    for v in (lo - 1, hi + 1):
        assert _walk_full({"a": v}, schema)
        assert not F.clean({"a": v}, node, False), v


def test_required_field_missing_takes_the_fast_path_only_when_defaulted() -> None:
    """A required field with a ``default`` is filled before validation (apiextensions defaulting runs
    first), so the walk reports nothing and ``clean`` takes the fast path; a required field the schema
    does not declare is left to the walk, which reports it (``Required value``)."""
    defaulted = {"type": "object", "required": ["a"],
                 "properties": {"a": {"type": "string", "default": "x"}, "b": {"type": "string"}}}
    assert _walk_full({"b": "y"}, defaulted) == []
    assert F.clean({"b": "y"}, compile_schema(defaulted), False)
    undeclared = {"type": "object", "required": ["a"], "properties": {"b": {"type": "string"}}}
    assert [d.rule for d in _walk_full({"b": "y"}, undeclared)] == ["schema.required"]
    assert not F.clean({"b": "y"}, compile_schema(undeclared), False)
