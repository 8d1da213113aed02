"""The hand-written CEL fast paths (``_schema/_cel_rules.py``) on explicit edge inputs, decided by the
engine, and the shadow check (tests/_cel_shadow.py, D40) catching a seeded case-sensitivity bug.

Each translated rule has edge inputs (``EDGES``): values that differ only by case, non-ASCII text
(which ``lowerAscii`` leaves alone), empty lists, absent and explicit-null fields, and for transition
rules an absent old field and, with ``optionalOldSelf``, ``optional.none()``. Every one is a Hypothesis
``@example`` of a test that asserts fast path == engine: the engine decides, no expected value is
written here. The random inputs are tests/schema/test_cel_engine.py's."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _cel_engine as E
from dynamo_schema._schema import _cel_rules as R
from dynamo_schema._schema._defaulting import prune_nulls
from dynamo_schema._schema._nodes import compile_schema

from .._cel_shadow import Shadow
from ._crds import CRDS, dgd
from .test_cel_engine import _fast_path_cases, _outcome

NONE = C.NONE
BACKEND = "nvidia.com/vllm-distributed-executor-backend"
KELVIN = "\u212a"  # KELVIN SIGN: Python's str.lower() makes it "k", CEL's lowerAscii leaves it
LONG = "a" * 253


def _twins(field: str, *values: Any, **rest: Any) -> list[dict[str, Any]]:
    return [{field: v, **rest} for v in values]


def _mode_edges(field: str, mode: str) -> list[Any]:
    return [{}, {field: []}, {field: None, "mode": mode}, {field: [], "mode": mode.upper()},
            *_twins("mode", mode, mode.lower(), mode.upper(), mode[0].swapcase() + mode[1:], "\u0130" + mode[1:],
                    **{field: ["c"] if "Containers" in field else [{}]}),
            {field: ["c"] if "Containers" in field else [{}]}]  # no mode: a runtime error


def _old(rule_field: str, *values: Any) -> list[tuple[Any, Any]]:
    """Transition edges on ``rule_field``: every (new, old) pair of the values, absent included."""
    objs = [{}] + [{rule_field: v} for v in values]
    return [(a, b) for a in objs for b in objs]


# rule short name -> [(self, oldSelf)] (oldSelf None for a rule that does not use it)
EDGES: dict[str, list[tuple[Any, Any]]] = {
    "topology-pack": [(s, None) for s in [{}, {"pack": {}}, {"pack": None}, {"packDomain": ""}, {"packDomain": "Zone"},
                                          {"packDomain": "zone"}, {"packDomain": "\u00e9"}]],
    "topology-pack-domain-conflict": [(s, None) for s in [
        {}, {"packDomain": "z"}, {"packDomain": "Z", "pack": {}}, {"packDomain": "z", "pack": {"required": "Zone"}},
        {"packDomain": "z", "pack": {"required": "zone"}}, {"packDomain": None, "pack": {"required": None}},
        {"pack": {"required": "\u00e9"}}, {"packDomain": "z", "pack": None}]],
    "topology-pack-required-or-preferred": [(s, None) for s in [
        {}, {"required": "Host"}, {"required": "host"}, {"preferred": "\u00e9"}, {"preferred": None},
        {"required": "", "preferred": ""}]],
    "pack-domain-deprecated": [
        (s, o)
        for s in [{"spec": {"template": {}}}, {"spec": {"template": {"topologyConstraint": {}}}},
                  {"spec": {"template": {"topologyConstraint": {"packDomain": "Zone"}}}},
                  {"spec": {"template": {"topologyConstraint": {"packDomain": "zone"}}}},
                  {"spec": {"template": {"topologyConstraint": {"packDomain": "\u00e9"}}}},
                  {"spec": {"template": {"topologyConstraint": None}}}, {"spec": {}}, {}]
        for o in [NONE, {}, {"spec": {"template": {"topologyConstraint": {"packDomain": "zone"}}}}]],
    **{
        short: [
            (s, o)
            for s in [{"spec": {"template": {}}}, {"spec": {"template": {field: []}}},
                      {"spec": {"template": {field: [{}, {"topologyConstraint": {}}]}}},
                      {"spec": {"template": {field: [{"topologyConstraint": {"packDomain": "Zone"}}]}}},
                      {"spec": {"template": {field: [{"topologyConstraint": {"packDomain": "zone"}}]}}},
                      {"spec": {"template": {field: [{"topologyConstraint": {"packDomain": "\u00e9"}}]}}},
                      {"spec": {"template": {field: [{"topologyConstraint": None}]}}},
                      {"spec": {"template": {field: None}}}, {"spec": {}}, {}]
            for o in [NONE, {}, {"spec": {"template": {}}}]]
        for short, field in [("pack-domain-deprecated-cliques", "cliques"),
                             ("pack-domain-deprecated-groups", "podCliqueScalingGroups")]
    },
    "restart-unset-on-create": [(s, o) for s in [{}, {"restart": {}}, {"restart": {"id": "ID"}},
                                                 {"restart": {"id": "id"}}, {"restart": {"id": "\u00e9"}},
                                                 {"restart": None}]
                                for o in [NONE, {}, {"restart": {"id": "id"}}]],
    "single-epp": [(s, None) for s in [
        [], [{}], [{"type": None}], [{"type": "epp"}], [{"type": "epp"}, {"type": "epp"}], [{"type": "epp"}, {"type": "EPP"}],
        [{"type": "Epp"}, {"type": "ePP"}], [{"type": "epp"}, {"type": "\u00e9pp"}], [{"type": "epp"}, {}, {"type": "worker"}]]],
    "unique-component-names": [(s, None) for s in [
        [], [{}], [{}, {}], [{"name": None}, {"name": None}], [{"name": "a"}], [{"name": "a"}, {"name": "a"}],
        [{"name": "a"}, {"name": "A"}], [{"name": "Decode"}, {"name": "dECODE"}], [{"name": "decode"}, {"name": "prefill"}],
        [{"name": "k"}, {"name": KELVIN}], [{"name": "\u00e9"}, {"name": "\u00c9"}], [{"name": "ss"}, {"name": "\u00df"}],
        [{"name": "i"}, {"name": "\u0130"}], [{"name": ""}, {"name": ""}], [{"name": "a"}, {}, {"name": "b"}, {"name": "B"}]]],
    "epp-config-type": [(s, None) for s in [
        {}, {"eppConfig": {}}, {"eppConfig": None}, {"eppConfig": {}, "type": None}, *_twins("type", "epp", "EPP", "Epp", "\u00e9pp",
                                                                                           eppConfig={}),
        {"type": "epp"}, {"eppConfig": {}, "type": "worker"}]],
    "min-available": [(s, None) for s in [
        {}, {"minAvailable": 0}, {"minAvailable": 1}, {"minAvailable": 2}, {"minAvailable": 2, "replicas": 0},
        {"minAvailable": 2, "replicas": 1}, {"minAvailable": 1, "replicas": 1}, {"minAvailable": 3, "replicas": 5},
        {"minAvailable": None}, {"minAvailable": 2, "replicas": None}, {"replicas": 0}]],
    "min-available-immutable": _old("minAvailable", 1, 2, None),
    "type-immutable": _old("type", "worker", "Worker", "WORKER", "w\u00f6rker", None),
    "checkpoint-identity-immutable": [
        (s, o)
        for s in [{}, {"spec": {}}, {"spec": None}, {"spec": {"identity": {}}}, {"spec": {"identity": None}},
                  {"spec": {"identity": {"model": "Qwen/Qwen3-0.6B"}}}, {"spec": {"identity": {"model": "qwen/qwen3-0.6b"}}},
                  {"spec": {"identity": {"model": "\u00e9"}}}, {"spec": {"identity": {"model": "\u00c9"}}},
                  {"spec": {"identity": {"extraParameters": []}}}]
        for o in [{}, {"spec": {}}, {"spec": {"identity": {}}}, {"spec": {"identity": {"model": "Qwen/Qwen3-0.6B"}}},
                  {"spec": {"identity": {"model": "\u00e9"}}}, {"spec": {"identity": {"extraParameters": []}}}]],
    "epp-config-source": [(s, None) for s in [{}, {"config": {}}, {"configMapRef": {}}, {"config": {}, "configMapRef": {}},
                                              {"config": None}, {"configMapRef": None, "config": {}}]],
    "checkpoint-job": [(s, None) for s in [
        {}, {"job": {}}, {"job": None, "checkpointRef": "x"}, {"job": {}, "checkpointRef": ""}, {"job": {}, "checkpointRef": None},
        *_twins("checkpointRef", "ckpt", "CKPT", "\u00e9", job={}), {"checkpointRef": "X"}]],
    "gms-extra-client-containers": [(s, None) for s in _mode_edges("extraClientContainers", "IntraPod")
                                    + _mode_edges("extraClientContainers", "intraPod")],
    "gms-extra-client-pods-mode": [(s, None) for s in _mode_edges("extraClientPods", "InterPod")
                                   + _mode_edges("extraClientPods", "interPod")],
    "gms-extra-client-pods": [(s, None) for s in [{}, {"extraClientPods": []}, {"extraClientPods": [{}]},
                                                  {"extraClientPods": None}, {"extraClientPods": [{}], "mode": "InterPod"},
                                                  {"extraClientPods": [{}], "mode": "interpod"},
                                                  {"extraClientPods": [], "mode": "\u00cdnterPod"}]],
    "vllm-backend-annotation": [(s, None) for s in [
        {}, {"other": "x"}, {BACKEND.upper(): "x"}, {BACKEND: ""}, {BACKEND: None},
        *_twins(BACKEND, "mp", "MP", "Mp", "ray", "RAY", "rAy", "\uff4d\uff50", "r\u00e0y", "mp ", "x")]],
    "sidecar-image": [(s, None) for s in [
        {}, {"name": "main"}, {"name": "Main"}, {"name": "MAIN", "image": ""}, {"name": "m\u00e0in"}, {"image": ""},
        {"image": "x"}, {"name": "main", "image": ""}, {"name": "envoy", "image": "Envoy"}, {"name": None, "image": "x"},
        {"name": "main", "image": None}]],
    "init-container-image": [(s, None) for s in [{}, {"image": ""}, {"image": "x"}, {"image": "X"}, {"image": "\u00e9"},
                                                 {"image": None}]],
    "kv-transfer-target": [(s, None) for s in [{}, {"labelKey": "a"}, {"clusterTopologyName": "b"},
                                               {"labelKey": "a", "clusterTopologyName": "b"}, {"labelKey": None}]],
    "preferred-weight-required": [(s, None) for s in [
        {}, *_twins("enforcement", "preferred", "Preferred", "PREFERRED", "pr\u00e9ferred", "required"),
        {"enforcement": "preferred", "preferredWeight": 1}, {"enforcement": "Preferred", "preferredWeight": 1},
        {"enforcement": None}, {"enforcement": "preferred", "preferredWeight": None}]],
    "preferred-weight-forbidden": [(s, None) for s in [
        {}, {"preferredWeight": 1}, *_twins("enforcement", "preferred", "Preferred", "PREFERRED", "pr\u00e9ferred", preferredWeight=1),
        {"preferredWeight": 1, "enforcement": None}, {"preferredWeight": None}, {"enforcement": "required"}]],
    "label-key-prefix": [(s, None) for s in [
        "", "a", "A", "/", "a/b", "A/B", "\u00e9/x", LONG + "/x", LONG.upper() + "/x", LONG + "a/x", LONG + "A/x",
        "\u00e9" * 253 + "/x", "\u00e9" * 254 + "/x", "\U0001f600" * 254 + "/x", "a" * 300]],
    "pvc-create-fields": [(s, None) for s in [
        {}, {"create": False}, {"create": True}, {"create": None},
        {"create": True, "size": "1Gi", "storageClass": "s", "volumeAccessMode": "ReadWriteOnce"},
        {"create": True, "size": "1Gi", "storageClass": "S"}, {"create": True, "size": None, "storageClass": "s",
                                                               "volumeAccessMode": "x"}]],
    "shared-memory-size": [(s, None) for s in [
        {}, {"disabled": True}, {"disabled": False}, {"disabled": None}, {"disabled": True, "size": "x"}, {"size": None},
        {"size": "0"}, {"size": "1Gi"}, {"size": "1gi"}, {"size": "1GI"}, {"size": "1M"}, {"size": "1m"}, {"size": "1e3"},
        {"size": "1E3"}, {"size": "-1M"}, {"size": ""}, {"size": "\u0661"}, {"size": 1}, {"size": 0}]],
}


@pytest.fixture(autouse=True)
def _engine() -> None:
    if not E.available():
        pytest.skip("no CEL engine on this Python (cel-expr-python has no wheels for 3.10)")


def _cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return _fast_path_cases() if CRDS.is_dir() else []


def _short(text: str) -> str:
    return R.BY_NORM[R.norm(text)][0]


def _edge_examples() -> Iterator[tuple[str, Any, Any]]:
    """(case id, self, oldSelf) of every edge input of every (rule, schema node) case."""
    for cid, rule, _node in _cases():
        text = rule["rule"]
        for s, old in EDGES.get(_short(text), []):
            if "oldSelf" not in text:
                old = None
            elif old is NONE and not rule.get("optionalOldSelf"):
                continue  # never evaluated: a transition rule without optionalOldSelf needs an old value
            yield cid, s, old


def _with_edges(test: Callable[..., None]) -> Callable[..., None]:
    for cid, s, old in _edge_examples():
        test = example(cid=cid, s=s, old=old)(test)
    return test


_BY_ID = {cid: (rule, node) for cid, rule, node in _cases()}


# cel-cpp's text for a field selected on a null (``null.f``, ``has(null.f)``), which _cel_engine does not
# map: cel-go (the API server) has no such error there (interpreter/attributes.go refQualify: a presence
# test on a value that is no map, list or object is false, a selection is ``no such key: f``). Only a
# null on a nullable field reaches CEL, and the shipped CRDs have none (D41).
SELECT_ON_NULL = ("error", "Applying SELECT to non-message type")


def _pruned(v: Any, node_schema: dict[str, Any]) -> Any:
    return v if v is NONE or v is None else prune_nulls(v, node_schema)[0]


@settings(phases=[Phase.explicit], database=None, deadline=None)
@_with_edges
@given(cid=st.sampled_from(sorted(_BY_ID) or ["-"]), s=st.none(), old=st.none())
def test_fast_path_edges_are_decided_by_the_engine(cid: str, s: Any, old: Any) -> None:
    """As the API server hands the value to CEL (explicit nulls pruned: no field here is nullable), and
    as given, nulls included."""
    rule, node_schema = _BY_ID[cid]
    text, optional = rule["rule"], bool(rule.get("optionalOldSelf"))
    fast = R.BY_NORM[R.norm(text)][1]
    engine = C._engine_rule(text, optional, compile_schema(node_schema))
    ps, pold = _pruned(s, node_schema), _pruned(old, node_schema)
    assert _outcome(fast, ps, pold) == _outcome(engine, ps, pold), (cid, text, "pruned")
    want = _outcome(engine, s, old)
    if want != SELECT_ON_NULL:
        assert _outcome(fast, s, old) == want, (cid, text, "as given")


def test_select_on_null_is_the_only_gap() -> None:
    """The raw-null edges left out above are exactly the selections through a null (and they are few)."""
    gaps = []
    for cid, s, old in _edge_examples():
        rule, node_schema = _BY_ID[cid]
        engine = C._engine_rule(rule["rule"], bool(rule.get("optionalOldSelf")), compile_schema(node_schema))
        if _outcome(engine, s, old) == SELECT_ON_NULL:
            gaps.append((cid, s, old))
    assert 0 < len(gaps) <= 10
    assert all(_has_value(s, lambda v: isinstance(v, dict) and None in v.values()) for _, s, _ in gaps)


def _strings(v: Any) -> Iterator[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def _fold(v: Any) -> Any:
    if isinstance(v, str):
        return v.lower()
    if isinstance(v, dict):
        return {k: _fold(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_fold(x) for x in v]
    return v


def _has_value(v: Any, pred: Callable[[Any], bool]) -> bool:
    if pred(v):
        return True
    if isinstance(v, dict):
        return any(_has_value(x, pred) for x in v.values())
    if isinstance(v, list):
        return any(_has_value(x, pred) for x in v)
    return False


def test_every_translated_rule_has_its_edge_inputs() -> None:
    """The edge kinds each rule needs are there: case twins and non-ASCII text where the rule compares
    strings; an empty list (string) where it sizes or iterates one; absent and null fields on an object;
    ``optional.none()`` and an absent old field for transition rules."""
    shorts = {short for short, _fn in R.RULES.values()}
    assert set(EDGES) == shorts
    for text in R.RULES:
        short = _short(text)
        edges = EDGES[short]
        selves = [s for s, _ in edges]
        if re.search(r"'[^']+'|\"[^\"]+\"|lowerAscii|self\.type == oldSelf", text):
            pairs = [(a, b) for a, b in edges]
            assert any(a != b and _fold(a) == _fold(b) for a in pairs for b in pairs), (short, "case twins")
            assert any(ord(c) > 127 for s, o in edges for x in (s, o) for t in _strings(x) for c in t), (short, "unicode")
        if re.search(r"size\(|\.all\(|\.filter\(", text) and short != "label-key-prefix":
            assert any(_has_value(s, lambda v: v in ([], "")) for s in selves), (short, "empty list / string")
        if all(isinstance(s, dict) for s in selves):
            assert {} in selves or any(o == {} for _, o in edges), (short, "absent fields")
            assert any(_has_value(x, lambda v: v is None) for s, o in edges for x in (s, o)), (short, "null field")
        if "oldSelf" in text:
            olds = [o for _, o in edges]
            if "hasValue" in text:  # the optionalOldSelf rules
                assert NONE in olds and any(o is not NONE for o in olds), (short, "optional oldSelf")
            else:
                assert {} in olds, (short, "absent old field")


# --- the shadow check catches a seeded case-sensitivity bug ---------------------------------------


def _case_sensitive_unique(s: Any, old: Any) -> bool:  # unique-component-names without lowerAscii
    names = [c["name"] for c in s if "name" in c]
    return all(names.count(n) == 1 for n in names)


def _case_sensitive_backend(s: Any, old: Any) -> bool:  # vllm-backend-annotation without lowerAscii
    return BACKEND not in s or s[BACKEND] in ("mp", "ray")


def _case_insensitive_mode(s: Any, old: Any) -> bool:  # gms mode compared case-insensitively
    field = "extraClientContainers"
    return field not in s or len(s[field]) == 0 or str(R._get(s, "mode")).lower() == "intrapod"


MUTATIONS = [
    ("unique-component-names", _case_sensitive_unique),
    ("vllm-backend-annotation", _case_sensitive_backend),
    ("gms-extra-client-containers", _case_insensitive_mode),
]


@pytest.mark.parametrize(("short", "mutant"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_shadow_check_catches_a_case_bug_in_a_translation(short: str, mutant: Callable[[Any, Any], bool],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rule's edges, evaluated through ``_cel.py`` (``_eval_rules``) under a shadow of their own:
    the real translations agree with the engine; the mutant (swapped into the fast-path table) does not."""
    cases = [(cid, rule, node) for cid, rule, node in _cases() if _short(rule["rule"]) == short]
    assert cases

    def run() -> Shadow:
        shadow = Shadow()
        with shadow.installed():
            for _cid, rule, node_schema in cases:
                node = compile_schema({**node_schema, "x-kubernetes-validations": [rule]})
                for s, _old in EDGES[short]:  # as the API server hands them to CEL (nulls pruned)
                    C._eval_rules(C._Walk(), node, _pruned(s, node_schema), None, ("x",))
        return shadow

    clean = run()
    assert clean.checked >= len(EDGES[short]) and clean.disagreements == []
    for text, (name, _fn) in R.RULES.items():
        if name == short:
            monkeypatch.setitem(R.BY_NORM, R.norm(text), (name, mutant))
    caught = run()
    assert caught.disagreements, short
    assert all(d.startswith(f"cel.{short} at x: fast path ") for d in caught.disagreements)
    assert "engine" in caught.disagreements[0] and "self: " in caught.disagreements[0]


def test_shadow_check_sees_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the public ``validate``: a DGD whose component names differ only by case is denied by the
    CRD rule; a case-sensitive translation would admit it, and the shadow names the rule and the input."""
    import dynamo_schema

    doc = dgd()
    comps = doc["spec"]["components"]
    comps[1]["name"] = comps[0]["name"].upper()
    shadow = Shadow()
    with shadow.installed():
        got = [d.rule for r in dynamo_schema.validate(doc) for d in r.diagnostics]
    assert "cel.unique-component-names" in got and shadow.disagreements == [] and shadow.checked > 0
    text = next(t for t, (n, _) in R.RULES.items() if n == "unique-component-names")
    monkeypatch.setitem(R.BY_NORM, R.norm(text), ("unique-component-names", _case_sensitive_unique))
    shadow = Shadow()
    with shadow.installed():
        got = [d.rule for r in dynamo_schema.validate(doc) for d in r.diagnostics]
    assert "cel.unique-component-names" not in got  # the mutant decided ...
    assert len(shadow.disagreements) == 1  # ... and the shadow saw it
    d = shadow.disagreements[0]
    assert d.startswith("cel.unique-component-names at spec.components: fast path true, engine false")
    assert repr(comps[0]["name"].upper()) in d
