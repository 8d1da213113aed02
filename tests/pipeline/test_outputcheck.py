"""The compiled output check (``_pipeline._outputcheck``, decisions.md D28) never calls an object valid
that ``jsonschema`` with the bundled Kubernetes schemas refuses, and proves the corpus renders valid.

Inputs: every built-in object the corpus renders to (both targets; DGD, DCD and the upstream golden
inputs), and mutations of them that must fail (unknown fields, wrong types, missing required fields,
values outside an enum, nulls) or may pass (values of the other IntOrString type), generated.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dynamo_schema._k8s import _builtin_kinds
from dynamo_schema._pipeline._children import output_schema_version
from dynamo_schema._pipeline._outputcheck import proven_valid
from dynamo_schema._pipeline._render_object import check_rendered
from dynamo_schema._render import RenderError, RenderOptions, render
from dynamo_schema._schema import _schemas
from dynamo_schema._schema._builtin import validate_builtin

V = "1.32.0"


def _full(obj: dict[str, Any]) -> list[Any]:
    version = output_schema_version(str(obj.get("apiVersion", "")), str(obj.get("kind", "")), V)
    return _builtin_kinds.validate(obj, version=version, strict=True) or []


def _builtin_objects(shared: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    paths = sorted((shared / "reference" / "dynamo" / "corpus" / "v1beta1").glob("*.yaml"))
    for path in paths:
        for doc in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader):
            if not (isinstance(doc, dict) and doc.get("kind") in ("DynamoGraphDeployment", "DynamoComponentDeployment")):
                continue
            for target in (("kubernetes", "grove") if doc["kind"] == "DynamoGraphDeployment" else ("kubernetes",)):
                try:
                    # a cluster with DRA and the checkpoint gate: the GMS and checkpoint samples render too
                    objs = render(doc, target, RenderOptions(namespace="corpus", dra_enabled=True,
                                                             checkpoint_enabled=True))
                except RenderError:
                    continue
                out += [o for o in objs if _schemas.for_object(o["apiVersion"], o["kind"]) is None]
    # the upstream golden inputs, as rendered and as the API server stores them (defaults, live status)
    golden = shared / "reference" / "dynamo" / "golden"
    for case, target in (("dgd/components", "kubernetes"), ("dgd/grove", "grove"), ("dcd/deployment", "kubernetes"),
                         ("dcd/lws", "kubernetes"), ("dcd/vllm-multinode-tp-args", "kubernetes")):
        doc = yaml.load((golden / case / "input.yaml").read_text(), Loader=yaml.CSafeLoader)
        for stored in (False, True):
            objs = render(doc, target, RenderOptions(namespace="clusterenv-test", operator_version="1.4.0",
                                                     apiserver_defaults=stored))
            for o in objs:
                if _schemas.for_object(o["apiVersion"], o["kind"]) is None:
                    out.append(o)
                    if o["kind"] == "Deployment":
                        out.append({**o, "status": {}})
    return out


_CACHE: dict[str, list[dict[str, Any]]] = {}


def _objects(shared: Path) -> list[dict[str, Any]]:
    if "objs" not in _CACHE:
        _CACHE["objs"] = _builtin_objects(shared)
    return _CACHE["objs"]


@pytest.mark.slow
def test_corpus_renders_proven_as_jsonschema_says(shared: Path) -> None:
    objs = _objects(shared)
    kinds = {o["kind"] for o in objs}
    assert {"Service", "Deployment", "ServiceAccount", "Role", "RoleBinding", "ConfigMap"} <= kinds
    proven = 0
    for obj in objs:
        has_schema = _builtin_kinds._validator(obj["apiVersion"], obj["kind"], V, True) is not None
        ok = proven_valid(obj, V)
        if ok:
            assert _full(obj) == [], obj["kind"]
            proven += 1
        elif has_schema:  # every valid render with a bundled schema takes the fast path
            assert _full(obj) != [], (obj["kind"], obj["metadata"]["name"])
    assert proven > 500


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*path, i))
    return out


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        obj = obj[p]
    return obj


# no "to-none": a null is where the oracles part ways (kubeconform's schemas make every field nullable and
# refuse a null IntOrString, as both of its oneOf branches take null; the API server decodes a null as
# absent and defaults or refuses it); the xfail below records the gap
_MUTATIONS = ["unknown-field", "to-int", "to-str", "to-float", "to-bool", "to-list", "to-dict",
              "drop", "bad-enum", "int-float"]


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_mutated_renders_same_verdict(shared: Path, data: st.DataObject) -> None:
    objs = _objects(shared)
    obj = copy.deepcopy(data.draw(st.sampled_from(objs)))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(obj)))
        how = data.draw(st.sampled_from(_MUTATIONS))
        target = _get(obj, path)
        parent = _get(obj, path[:-1]) if path else None
        if how == "unknown-field" and isinstance(target, dict):
            target["notAField"] = "x"
        elif how == "drop" and parent is not None and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "bad-enum" and parent is not None and isinstance(target, str):
            parent[path[-1]] = target + "-not-in-enum"
        elif parent is not None:
            new = {"to-int": 7, "to-str": "7", "to-float": 7.5, "to-bool": True, "to-list": [target],
                   "to-dict": {"k": target}, "to-none": None, "int-float": 8.0,
                   "unknown-field": target, "drop": target, "bad-enum": target}[how]
            parent[path[-1]] = new
    if proven_valid(obj, output_schema_version(str(obj.get("apiVersion", "")), str(obj.get("kind", "")), V)):
        assert _full(obj) == [], obj
    # check_rendered (fast path first) reports what the structural walk over the bundled schema reports, in
    # the API server's words (D50; it reads the name from a mapping), and refuses what jsonschema refuses
    if isinstance(obj.get("metadata"), dict):
        prefix = f"rendered {obj.get('kind', '')}/{obj['metadata'].get('name', '')}: "  # the name may hold ": "
        version = output_schema_version(str(obj.get("apiVersion", "")), str(obj.get("kind", "")), V)
        walk = [f"{d.field}: {d.message}" for d in validate_builtin(obj, version=version) or []
                if d.severity == "error"]
        # two items of a list-map given the same key (two env names made "7"): the structural walk refuses the
        # duplicate (x-kubernetes-list-map-keys); kubeconform's JSON Schemas, and with them the compiled proof
        # check_rendered tries first, cannot express it; the API server's own validation of built-in kinds only
        # warns about a duplicate env name. The renderer never emits one (env and ports are merged by key), so
        # such a draw is no evidence either way (the note of stop 30 asks which verdict built-ins should get)
        assume(not any("Duplicate value" in m for m in walk))
        got = [d.message.removeprefix(prefix) for d in check_rendered([obj])]
        assert got == walk
        assert bool(got) == bool([d for d in _full(obj) if d.severity == "error"]), obj


def test_fails_are_not_proven() -> None:
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"},
           "spec": {"ports": [{"port": 80, "targetPort": "http"}], "selector": {"a": "b"}}}
    assert proven_valid(svc, V) and _full(svc) == []
    for bad in ({"port": "80"}, {"port": 80, "targetPort": None}, {"port": 80, "targetPort": 1.5},
                {"port": 80, "extra": 1}, {"targetPort": 80}, {"port": True}):
        obj = copy.deepcopy(svc)
        obj["spec"]["ports"] = [bad]
        assert not proven_valid(obj, V)
        assert _full(obj) != [], bad
    good = copy.deepcopy(svc)
    good["spec"]["ports"][0]["targetPort"] = 8080
    assert proven_valid(good, V) and _full(good) == []
    floaty = copy.deepcopy(svc)
    floaty["spec"]["ports"][0]["port"] = 80.0  # jsonschema: an integer; not proven here (the walk decides)
    assert not proven_valid(floaty, V) and _full(floaty) == []
    lower = {**svc, "kind": "service"}  # the same schema file (names are lower-cased), outside its kind enum
    assert _builtin_kinds._validator("v1", "service", V, True) is not None
    assert not proven_valid(lower, V) and _full(lower) != []
    sub = dict  # a kind without a bundled schema is never proven
    assert not proven_valid(sub(apiVersion="example.com/v1", kind="Nothing"), V)


@pytest.mark.xfail(strict=True, reason="a built-in kind's null is accepted (kubeconform's schemas make every field "
                   "nullable); the API server decodes it as absent and refuses a required one (D55)")
def test_a_null_required_field_of_a_built_in_kind_is_refused() -> None:
    """``httpGet.port: null`` decodes to a zero IntOrString, which the API server refuses (port 0)."""
    from dynamo_schema._schema._builtin import validate_builtin

    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"},
           "spec": {"containers": [{"name": "main", "image": "x",
                                    "readinessProbe": {"httpGet": {"path": "/h", "port": None}}}]}}
    assert validate_builtin(pod, version=V)



def test_a_malformed_required_is_never_proven_and_compiles() -> None:
    """``required`` is understood only as a list of strings (the meta-schema's form): a node with another
    ``required`` is never proven, and compiling it does not fail, so the rest of the schema is still proven
    where ``jsonschema`` agrees (``{}``: no property, valid for both)."""
    # mutant 502d399ad67d
    from jsonschema import Draft202012Validator

    from dynamo_schema._pipeline._outputcheck import _Compiler

    schema = {"type": "object", "properties": {"x": {"required": 5}, "y": {"required": ["a", 1]}}}
    v = Draft202012Validator(schema)
    check = _Compiler(v).compile(v.schema, v._resolver)
    assert check({}) is True and v.is_valid({})
    assert check({"x": 3}) is False
    assert check({"y": 5}) is False


def test_a_one_of_with_an_unknown_type_name_is_never_proven() -> None:
    """The module docstring: ``oneOf`` is understood only when its branches name types (of the seven JSON
    Schema type names); a branch naming another type is never proven, and neither compiling nor checking fails
    (``jsonschema`` itself raises UnknownType, or TypeError for a non-string name: the full walk decides)."""
    # mutant 53371f1394d4 (isinstance(n, str) and n in _TYPES -> or: an unknown name reached _TYPES[name])
    from jsonschema import Draft202012Validator

    from dynamo_schema._pipeline._outputcheck import _Compiler

    for branch in ({"type": "nope"}, {"type": ["string", "nope"]}, {"type": [["string"]]}):
        v = Draft202012Validator({"oneOf": [{"type": "integer"}, branch]})
        check = _Compiler(v).compile(v.schema, v._resolver)
        assert check("a") is False and check(1) is False, branch
