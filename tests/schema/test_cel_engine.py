"""The CEL engine (``_cel_engine``): CEL semantics, the Kubernetes library shim, every CRD rule, a rule
added to a CRD in the test, and the hand-written fast path proven equal to the engine."""

from __future__ import annotations

import copy
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._schema import _cel as C
from dynamo_schema._schema import _cel_engine as E
from dynamo_schema._schema._structural import compile_schema
from tests import _yaml as k8s_yaml

from ._crds import CRDS, SHARED, crd_schema, dgd

GROVE = SHARED / "reference" / "grove" / "crds"


@pytest.fixture(autouse=True)
def _engine() -> None:
    if E.available():
        return
    if sys.version_info >= (3, 11) and os.environ.get("CI"):
        pytest.fail("cel-expr-python is a dependency on Python >= 3.11 but cannot be imported")
    pytest.skip("no CEL engine on this Python (cel-expr-python has no wheels for 3.10)")


def ev(rule: str, s: Any = None, old: Any = None, *, optional: bool = False) -> Any:
    try:
        return E.evaluate(rule, s, old, optional_old_self=optional)
    except E.CelRuntimeError as e:
        return f"error: {e}"


# --- CEL semantics ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "self_", "expected"),
    [
        # commutative error absorption: `||` is true if any side is, `&&` false if any side is
        ('self.name == "main" || (has(self.image) && self.image != "")', {"image": "x"}, True),
        ('(has(self.image) && self.image != "") || self.name == "main"', {"image": "x"}, True),
        ('self.name == "main" || (has(self.image) && self.image != "")', {"image": ""}, "error: no such key: name"),
        ("self.a.b == 1 && false", {"a": {}}, False),
        ("self.a.b == 1 && true", {"a": {}}, "error: no such key: b"),
        ("has(self.x)", {}, False),
        ("has(self.x)", {"x": 0}, True),
        ("self.x", {}, "error: no such key: x"),
        # heterogeneous equality; typed overloads
        ("self.x == 1", {"x": 1.0}, True),
        ("self.x == 'a'", {"x": 1}, False),
        ("self.x.startsWith('a')", {"x": 1}, "error: no such overload"),
        ("self.x + 1 > 0", {"x": 2**63 - 1}, "error: integer overflow"),
        # Kubernetes' list library sum(): int64 arithmetic, overflow at either end is an error
        ("self.sum() == 3", [1, 2], True),
        ("self.sum() > 0", [2**63 - 2, 1], True),
        ("self.sum() > 0", [2**63 - 1, 1], "error: integer overflow"),
        ("self.sum() < 0", [-(2**63) + 1, -1], True),
        ("self.sum() < 0", [-(2**63), -1], "error: integer overflow"),
        ("self[3] == 1", [1], "error: index '3' out of range in list size '1'"),
        ("1 / self == 1", 0, "error: division by zero"),
        ("self.a[1] == 2", {"a": {"1": 2}}, "error: no such key: 1"),
        # macros
        ("self.all(x, x > 0)", [1, 2], True),
        ("self.exists(x, x > 1)", [1, 2], True),
        ("self.exists_one(x, x > 0)", [1, 2], False),
        ("self.map(x, x * 2) == [2, 4]", [1, 2], True),
        ("self.filter(x, x > 1).size() == 1", [1, 2], True),
        ("size(self) == 2 && self.size() == 2", "ab", True),
        ("self.matches('^[a-z]+$')", "abc", True),
        # optionals
        ("self.?a.orValue(3) == 3", {}, True),
        ("self[?'a'].orValue(3) == 1", {"a": 1}, True),
        ("optional.of(1).hasValue() && !optional.none().hasValue()", None, True),
    ],
)
def test_cel_semantics(rule: str, self_: Any, expected: Any) -> None:
    assert ev(rule, self_) == expected


def test_optional_old_self() -> None:
    rule = "oldSelf.hasValue() || !has(self.restart)"
    assert ev(rule, {"restart": {}}, E.ABSENT, optional=True) is False
    assert ev(rule, {"restart": {}}, {}, optional=True) is True
    assert ev(rule, {}, E.ABSENT, optional=True) is True
    assert ev("oldSelf.orValue({'a': 0}).a == self.a", {"a": 0}, E.ABSENT, optional=True) is True
    assert ev("self.a == oldSelf.a", {"a": 1}, {"a": 2}) is False


# --- the Kubernetes library shim -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # quantity (k8s.io/apiserver/pkg/cel/library/quantity.go)
        ("quantity('1Gi').isGreaterThan(quantity('1G'))", True),
        ("quantity('500m').isLessThan(quantity('1'))", True),
        # strict comparisons: equal quantities (any spelling) are neither less nor greater
        ("quantity('1').isLessThan(quantity('1000m'))", False),
        ("quantity('1Ki').isGreaterThan(quantity('1024'))", False),
        ("quantity('2').isLessThan(quantity('1'))", False),
        ("quantity('1') == quantity('1000m')", True),
        ("quantity('1.5').compareTo(quantity('1500m')) == 0", True),
        ("quantity('2Ki').compareTo(quantity('2k'))", 1),
        ("quantity('1Gi').add(quantity('1Gi')) == quantity('2Gi')", True),
        ("quantity('1k').sub(1).asInteger()", 999),
        ("quantity('-3').sign()", -1),
        ("quantity('1.5').isInteger()", False),
        ("quantity('1.5').asApproximateFloat()", 1.5),
        ("quantity('1.5').asInteger()", "error: cannot convert value to integer"),
        ("isQuantity('1Gi') && !isQuantity('1 Gi') && !isQuantity('abc')", True),
        (
            "quantity('abc') == quantity('1')",
            "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        ),
        # lists (lists.go)
        ("[1, 2, 2].isSorted() && !['b', 'a'].isSorted()", True),
        ("[1, 2, 3].sum()", 6),
        ("[1.5, 2.5].sum()", 4.0),
        ("[].sum()", 0),
        ("[3, 1, 2].min()", 1),
        ("['b', 'c', 'a'].max()", "c"),
        ("[].min()", "error: min called on empty list"),
        ("[1, 2, 1].indexOf(1)", 0),
        ("[1, 2, 1].lastIndexOf(1)", 2),
        ("['a'].indexOf('b')", -1),
        ("['a'].lastIndexOf('b')", -1),
        # sets (cel-go ext/sets.go)
        ("sets.contains([1, 2, 3], [3, 1.0]) && !sets.contains([1], [2])", True),
        ("sets.equivalent([1, 1, 2], [2, 1]) && sets.intersects(['a'], ['b', 'a'])", True),
        # strings extension (cel-go ext/strings.go v2)
        ("'abcabc'.indexOf('c')", 2),
        ("'abcabc'.indexOf('c', 3)", 5),
        ("'abcabc'.lastIndexOf('b')", 4),
        ("'hello mellow'.lastIndexOf('ello', 6)", 1),  # the examples of ext/strings.go's doc comment
        ("'hello mellow'.lastIndexOf('ello', -1)", "error: index out of range: -1"),
        ("'AbC'.lowerAscii() + 'aBc'.upperAscii()", "abcABC"),
        ("'a/b/c'.split('/')", ["a", "b", "c"]),
        ("'a/b/c'.split('/', 2)", ["a", "b/c"]),
        ("'hello'.substring(1, 3) + 'hello'.substring(3)", "ello"),
        ("'hello'.charAt(1)", "e"),
        # cel-go v0.22.0 ext/strings_test.go rows
        ("'tacocat'.charAt(3) == 'o'", True),
        ("'tacocat'.charAt(7) == ''", True),
        ("'©αT'.charAt(0) == '©' && '©αT'.charAt(1) == 'α' && '©αT'.charAt(2) == 'T'", True),
        ("''.charAt(0) == ''", True),
        ("'hello'.charAt(9)", "error: index out of range: 9"),
        ("'a-b-c'.replace('-', '+', 1)", "a+b-c"),
        # Go strings.Replace with an empty old: an insertion before every rune and at the end, at most n of them
        ("'ab'.replace('', '-')", "-a-b-"),
        ("'ab'.replace('', '-', 3)", "-a-b-"),
        ("'ab'.replace('', '-', 9)", "-a-b-"),
        ("'ab'.replace('', '-', 2)", "-a-b"),
        ("' \\t x \\n'.trim()", "x"),
        ("['a', 'b'].join(', ')", "a, b"),
        ("strings.quote('a\"b')", '"a\\"b"'),
    ],
)
def test_kubernetes_library(rule: str, expected: Any) -> None:
    assert ev(rule) == expected


# cel-go v0.22.0 (the CEL of Kubernetes 1.32, the default --kubernetes-version) ext/strings_test.go rows
CEL_GO_STRINGS = [
    "'tacocat'.indexOf('') == 0", "'tacocat'.indexOf('ac') == 1", "'tacocat'.indexOf('none') == -1",
    "'tacocat'.indexOf('', 3) == 3", "'tacocat'.indexOf('a', 3) == 5", "'tacocat'.indexOf('at', 3) == 5",
    "'ta©o©αT'.indexOf('©') == 2", "'ta©o©αT'.indexOf('©', 3) == 4", "'ta©o©αT'.indexOf('©αT', 3) == 4",
    "'ta©o©αT'.indexOf('©α', 5) == -1", "'ijk'.indexOf('k') == 2", "'hello wello'.indexOf('hello wello') == 0",
    "'hello wello'.indexOf('ello', 6) == 7", "'hello wello'.indexOf('elbo room!!') == -1",
    "'hello wello'.indexOf('elbo room!!!') == -1", "'tacocat'.lastIndexOf('') == 7",
    "'tacocat'.lastIndexOf('at') == 5", "'tacocat'.lastIndexOf('none') == -1", "'tacocat'.lastIndexOf('', 3) == 3",
    "'tacocat'.lastIndexOf('a', 3) == 1", "'ta©o©αT'.lastIndexOf('©') == 4", "'ta©o©αT'.lastIndexOf('©', 3) == 2",
    "'ta©o©αT'.lastIndexOf('©α', 4) == 4", "'hello wello'.lastIndexOf('ello', 6) == 1",
    "'hello wello'.lastIndexOf('low') == -1", "'hello wello'.lastIndexOf('elbo room!!') == -1",
    "'hello wello'.lastIndexOf('elbo room!!!') == -1", "'hello wello'.lastIndexOf('hello wello') == 0",
    "'bananananana'.lastIndexOf('nana', 7) == 6",
    "'tacocat'.indexOf('a', 30) == -1", "'tacocat'.lastIndexOf('a', 30) == -1",  # past the end: not found
]


@pytest.mark.parametrize("rule", CEL_GO_STRINGS)
def test_cel_go_string_index_rows(rule: str) -> None:
    assert ev(rule) is True


@pytest.mark.parametrize(("rule", "expected"), [
    ("'tacocat'.lastIndexOf('a', -1) == -1", "error: index out of range: -1"),  # cel-go's error row
    # read off indexOfOffset / lastIndexOfOffset (v0.22.0): the empty needle returns the offset unchecked, the
    # search without an offset starts at the last character (offset -1 for the empty string)
    ("'abc'.indexOf('', 9)", 9),
    ("'abc'.indexOf('', -2)", -2),
    ("'abc'.indexOf('a', -1)", "error: index out of range: -1"),
    ("'abc'.indexOf('c', 3)", -1),
    ("''.indexOf('a')", -1),
    ("''.lastIndexOf('a')", "error: index out of range: -1"),
    ("''.lastIndexOf('')", 0),
    ("'abc'.lastIndexOf('', 9)", 9),
    ("'ab'.lastIndexOf('abc', 1)", -1),
])
def test_cel_go_string_index_edges(rule: str, expected: Any) -> None:
    assert ev(rule) == expected


# --- every rule of the CRDs ------------------------------------------------------------------------


def _crd_files() -> list[Path]:
    files = sorted(CRDS.glob("*.yaml")) + sorted(GROVE.glob("*.yaml"))
    if not files:
        pytest.skip("../shared reference CRDs are not available")
    return files


def _rules_of(schema: Any) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(rule, schema node) pairs of a CRD version's openAPIV3Schema."""
    out = []
    stack = [schema]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            out.extend((r, n) for r in n.get("x-kubernetes-validations") or [])
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return out


@cache
def _all_rules() -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    out = []
    for f in _crd_files():
        doc = yaml.load(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        for v in doc["spec"]["versions"]:
            for rule, node in _rules_of(v["schema"]["openAPIV3Schema"]):
                out.append((f.name, v["name"], rule, node))
    return out


def test_every_crd_rule_compiles_in_the_engine() -> None:
    rules = {r["rule"]: r for _, _, r, _ in _all_rules()}
    assert len(rules) >= 28  # 22 Dynamo (v1beta1 + v1alpha1), 6 Grove PodCliqueSet
    for text, r in rules.items():
        E.compile_rule(text, bool(r.get("optionalOldSelf")))  # raises CelCompileError otherwise
        if r.get("messageExpression"):
            E.compile_rule(r["messageExpression"])


def test_grove_podcliqueset_rules_run_in_validate() -> None:
    import dynamo_schema

    pcs = {
        "apiVersion": "grove.io/v1alpha1",
        "kind": "PodCliqueSet",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {
            "replicas": 1,
            "template": {
                "cliques": [{"name": "c", "spec": {"roleName": "r", "replicas": 1,
                                                   "podSpec": {"containers": [{"name": "m", "image": "i"}]}}}],
                "topologyConstraint": {"packDomain": "zone"},
            },
        },
    }
    got = [(d.rule, d.field, d.message) for r in dynamo_schema.validate(pcs) for d in r.diagnostics if d.rule.startswith("cel.")]
    assert got == [
        (
            "cel.pack-domain-deprecated",  # the Grove rules have a fast path too (proven equal below)
            "spec.template.topologyConstraint.packDomain",
            "Forbidden: packDomain is deprecated and cannot be used on new workloads; use pack.required",
        )
    ]


# --- a rule that is not in today's CRDs ------------------------------------------------------------

NEW_RULES = [
    {"rule": "!has(self.replicas) || self.replicas <= 8", "message": "replicas must be at most 8"},
    {"rule": "self.name.size() <= 12"},  # no message: the API server's default text
    {
        "rule": "!has(self.envs) || self.envs.all(e, e.name.upperAscii() == e.name)",
        "messageExpression": "'env names must be upper case: ' + self.envs.map(e, e.name).join(', ')",
        "fieldPath": ".envs",
        "reason": "FieldValueForbidden",
    },
    {"rule": "quantity(self.name.size() > 0 ? '1Gi' : '0').isGreaterThan(quantity('1G'))",
     "messageExpression": "self.missing", "message": "fallback message"},
]


def _modified_crd_schema() -> dict[str, Any]:
    schema = copy.deepcopy(crd_schema("DynamoGraphDeployment"))
    item = schema["properties"]["spec"]["properties"]["components"]["items"]
    item["x-kubernetes-validations"] = list(item.get("x-kubernetes-validations") or []) + NEW_RULES
    # the v1beta1 component has no ``envs``: declared here, as the API server would need it to accept the
    # ``fieldPath: .envs`` above (``ValidFieldPath`` resolves each step against the schema)
    item["properties"]["envs"] = {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "value": {"type": "string"}}}}
    return schema


def test_rule_added_to_a_crd_is_evaluated_with_its_message(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = _modified_crd_schema()
    doc = dgd()
    comp = doc["spec"]["components"][1]
    comp.update({"replicas": 9, "name": "decode-worker-long", "envs": [{"name": "lower", "value": "1"}]})
    got = [(d.rule, d.path, d.message) for d in C.validate_cel(doc, schema)]
    at = ("spec", "components", 1)
    assert got == [
        ("cel.rule", at, 'Invalid value: replicas must be at most 8'),
        ("cel.rule", at, 'Invalid value: failed rule: self.name.size() <= 12'),
        ("cel.rule", (*at, "envs"), "Forbidden: env names must be upper case: lower"),
    ]
    comp.update({"replicas": 2, "name": "w", "envs": [{"name": "UP", "value": "1"}]})
    assert C.validate_cel(doc, schema) == []
    # the messageExpression errs (no such key): the API server falls back to message
    comp["name"] = ""
    assert [(d.path, d.message) for d in C.validate_cel(doc, schema)] == [
        (at, 'Invalid value: fallback message')
    ]

    # and through the public validate(), with the file position of the component
    from dynamo_schema._schema import _schemas

    real = _schemas.for_object

    def for_object(api: str, kind: str) -> Any:
        return schema if (api, kind) == ("nvidia.com/v1beta1", "DynamoGraphDeployment") else real(api, kind)

    monkeypatch.setattr(_schemas, "for_object", for_object)
    import dynamo_schema

    src = dgd()
    for c in src["spec"]["components"]:
        c["replicas"] = 12
    text = k8s_yaml.dump(src)
    diags = [d for r in dynamo_schema.validate(dynamo_schema.load_text(text, "dgd.yaml")) for d in r.diagnostics
             if d.rule == "cel.rule"]
    assert {(d.field, d.message) for d in diags} == {
        ("spec.components[0]", 'Invalid value: replicas must be at most 8'),
        ("spec.components[1]", 'Invalid value: replicas must be at most 8'),
    }
    lines = text.splitlines()
    for d in diags:
        assert d.file == "dgd.yaml"
        assert d.line is not None and lines[d.line - 1].lstrip().startswith("- name:")


# --- the fast path equals the engine ---------------------------------------------------------------

_LITERAL = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _literals(rule: str) -> list[str]:
    out = []
    for a, b in _LITERAL.findall(rule):
        s = a or b
        out += [s, s.upper(), s.lower(), s.capitalize()]
    return sorted(set(out))


def _strings(rule: str) -> st.SearchStrategy[str]:
    lits = _literals(rule) + ["", "a", "A", "main", "Main", "a/b", "x/y/z", "epp", "EPP", "\u00e9", "\u00c9", "\u212a"]
    return st.one_of(
        st.sampled_from(_literals(rule) or lits),
        st.sampled_from(lits),
        st.text(alphabet="aAbB/.-_ ", max_size=6),
        st.integers(250, 256).map(lambda n: "a" * n + "/zone"),  # the 253-character prefix bound
        st.sampled_from(["0", "1", "1Gi", "0.0", "-1", "500m", "1e3", "abc", "1 Gi"]),  # quantities
    )


def _values(schema: dict[str, Any], idents: set[str], rule: str, depth: int = 0) -> st.SearchStrategy[Any]:
    """Schema-typed values (what reaches CEL: type errors block it), limited to the fields the rule names."""
    if schema.get("x-kubernetes-int-or-string"):
        return st.one_of(st.integers(-1, 3), _strings(rule))
    t = schema.get("type")
    if t == "string" and schema.get("enum"):
        return st.sampled_from(schema["enum"])  # a value outside the enum blocks CEL
    if t == "string":
        return _strings(rule)
    if t == "integer":
        return st.integers(-2, 5)
    if t == "number":
        return st.one_of(st.integers(-1, 2), st.floats(-1, 2, allow_nan=False))
    if t == "boolean":
        return st.booleans()
    if t == "array":
        items = schema.get("items") or {}
        lists = st.lists(_values(items, idents, rule, depth + 1) if depth < 4 else st.just({}), max_size=4)
        # and a list with a case-swapped copy of one of its items (names, types that differ only by case)
        return st.one_of(lists, lists.filter(bool).flatmap(
            lambda xs: st.integers(0, len(xs) - 1).map(lambda i: [*xs, _swapcase(xs[i])])))
    if t == "object" or "properties" in schema:
        props = {k: v for k, v in (schema.get("properties") or {}).items() if k in idents}
        if props and depth < 4:
            return st.fixed_dictionaries({}, optional={k: _values(v, idents, rule, depth + 1) for k, v in props.items()})
        addl = schema.get("additionalProperties")
        keys = st.sampled_from(_literals(rule) + ["a", "b"])
        if isinstance(addl, dict):
            return st.dictionaries(keys, _values(addl, idents, rule, depth + 1), max_size=3)
        if schema.get("x-kubernetes-preserve-unknown-fields"):
            return st.dictionaries(keys, st.one_of(st.integers(0, 2), _strings(rule)), max_size=2)
        return st.just({})
    return st.one_of(st.integers(-1, 2), _strings(rule), st.booleans())


def _swapcase(v: Any) -> Any:
    if isinstance(v, str):
        return v.swapcase()
    if isinstance(v, dict):
        return {k: _swapcase(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_swapcase(x) for x in v]
    return v


@cache
def _fast_path_cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(id, rule, schema node) of every CRD rule with a hand-written translation, one node per
    distinct (rule, node schema)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for fname, version, rule, node in _all_rules():
        if C.rule_id(rule["rule"]) is None:
            continue
        key = (rule["rule"], repr(sorted(node.get("properties", {}))))
        if key in seen:
            continue
        seen.add(key)
        out.append((f"{fname.split('_')[1].split('.')[0]}-{version}-{C.rule_id(rule['rule'])}", rule, node))
    # translations of rules that today's CRDs do not carry: on an object with the fields they name
    covered = {C._norm(r["rule"]) for _, r, _ in out}
    for text in C.RULES:
        if C._norm(text) not in covered:
            fields = sorted(set(re.findall(r"(?:self|oldSelf)\.(\w+)", text)))
            node = {"type": "object", "properties": {f: {"type": "string"} for f in fields}}
            out.append((f"synthetic-{C.rule_id(text)}", {"rule": text}, node))
    return out


def _outcome(fn: Any, s: Any, old: Any) -> tuple[str, Any]:
    try:
        return ("value", fn(s, old) is True)
    except C.CelError as e:
        return ("error", str(e))


def test_fast_path_covers_every_dynamo_rule() -> None:
    ids = {c[0] for c in _fast_path_cases()}
    assert len(ids) >= 30
    assert {C._norm(r["rule"]) for _, r, _ in _fast_path_cases()} == {C._norm(t) for t in C.RULES}
    texts = {r["rule"] for f, _, r, _ in _all_rules() if f.startswith("nvidia.com")}
    assert {t for t in texts if C.rule_id(t) is None} == set()


@pytest.mark.parametrize("case", range(len(_fast_path_cases()) if CRDS.is_dir() else 0))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_fast_path_equals_the_engine(case: int, data: st.DataObject) -> None:
    _, rule, node_schema = _fast_path_cases()[case]
    text = rule["rule"]
    idents = set(_IDENT.findall(text))
    strat = _values(node_schema, idents, text)
    s = data.draw(strat, label="self")
    optional = bool(rule.get("optionalOldSelf"))
    old: Any = None
    if "oldSelf" in text:
        old = data.draw(st.one_of(st.just(C.NONE), strat) if optional else strat, label="oldSelf")
    short, fast = C._BY_NORM[C._norm(text)]
    node = compile_schema(node_schema)
    engine = C._engine_rule(text, optional, node)
    assert _outcome(fast, s, old) == _outcome(engine, s, old), short


# --- the engine loads only when a rule needs it ----------------------------------------------------

_PROBE = (
    "import io, json, sys\n"
    "from dynamo_schema._cli._main import main\n"
    "rc = main(['validate', sys.argv[1]], stdout=io.StringIO(), stderr=io.StringIO())\n"
    "print(json.dumps([rc, 'cel_expr_python' in sys.modules]))\n"
)

_PCS = ("apiVersion: grove.io/v1alpha1\nkind: PodCliqueSet\nmetadata:\n  name: p\nspec:\n  replicas: 1\n"
        "  template:\n    cliques:\n    - name: c\n      spec:\n        roleName: r\n        replicas: 1\n"
        "        podSpec:\n          containers:\n          - name: m\n            image: i\n")


@pytest.mark.parametrize(
    ("name", "loads"),
    [
        # every rule of the DGD CRD has a fast path: the one-file validate run does not load the engine
        ("vllm-disagg.yaml", False),
        # the PodCliqueSet CRD's rules have a fast path too (translated for the kubectl-validate differential);
        # a rule without one loads the engine: test_rule_added_to_a_crd_is_evaluated_with_its_message
        ("pcs.yaml", False),
    ],
)
def test_engine_is_imported_only_for_rules_without_fast_path(name: str, loads: bool, tmp_path: Path) -> None:
    import json
    import subprocess

    path = Path(__file__).resolve().parents[2] / "examples" / name
    if name == "pcs.yaml":
        path = tmp_path / name
        path.write_text(_PCS)
    out = subprocess.run([sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, loads]  # admitted: every rule ran


def test_sidecar_image_rule_absorbs_the_missing_name_error() -> None:
    # self.name == "main" || (has(self.image) && self.image != ""): the right side is true, so CEL's
    # `||` is true although `self.name` errs (the fast path used Python's left-to-right `or` before)
    schema = crd_schema("DynamoGraphDeployment")
    doc = dgd()
    containers = doc["spec"]["components"][1]["podTemplate"]["spec"]["containers"]
    containers.append({"image": "envoy:1"})
    assert C.validate_cel(doc, schema, check_blocking=False) == []
    containers[-1]["image"] = ""
    assert [d.message for d in C.validate_cel(doc, schema, check_blocking=False)] == [
        'Invalid value: no such key: name evaluating rule: sidecar containers must specify a non-empty image'
    ]


def test_message_expression_up_to_5_kib() -> None:
    """apiextensions-apiserver: a messageExpression result longer than
    ``celconfig.MaxEvaluatedMessageExpressionSizeBytes`` (5 * 1024 bytes) is not used; the rule's ``message``
    is reported instead. 5,120 bytes are still the message; 5,121 are not (counted in bytes: ``é`` is 2)."""
    schema = {"type": "object", "properties": {"spec": {
        "type": "object", "properties": {"msg": {"type": "string"}, "n": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self.n <= 8", "message": "fallback", "messageExpression": "self.msg"}],
    }}}

    def message(msg: str) -> str:
        (d,) = C.validate_cel({"spec": {"msg": msg, "n": 9}}, schema)
        return d.message

    assert message("x" * 5120) == "Invalid value: " + "x" * 5120
    assert message("x" * 5121) == "Invalid value: fallback"
    assert message("é" * 2560) == "Invalid value: " + "é" * 2560
    assert message("é" * 2560 + "x") == "Invalid value: fallback"
    assert message("x" * 2000) == "Invalid value: " + "x" * 2000
