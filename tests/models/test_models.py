"""The models against the upstream CRDs and corpus; the generated schemas against the models."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from dynamo_schema._pipeline import _schemagen
from dynamo_schema.models import _generated as g

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()
CRDS = SHARED / "reference" / "dynamo" / "crds"
CORPUS = SHARED / "reference" / "dynamo" / "corpus" / "v1beta1"
MODELS = {
    "DynamoGraphDeployment": g.DynamoGraphDeployment,
    "DynamoComponentDeployment": g.DynamoComponentDeployment,
    "DynamoGraphDeploymentRequest": g.DynamoGraphDeploymentRequest,
}
CRD_FILES = {
    "DynamoGraphDeployment": "nvidia.com_dynamographdeployments.yaml",
    "DynamoComponentDeployment": "nvidia.com_dynamocomponentdeployments.yaml",
    "DynamoGraphDeploymentRequest": "nvidia.com_dynamographdeploymentrequests.yaml",
}

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared not available")


def corpus_docs(folder: Path = CORPUS, api: str = "nvidia.com/v1beta1") -> list[tuple[str, int, dict]]:
    out = []
    if not folder.is_dir():
        return out
    for f in sorted(folder.iterdir()):
        for i, d in enumerate(yaml.load_all(f.read_text(), Loader=yaml.CSafeLoader)):
            if isinstance(d, dict) and d.get("apiVersion") == api and d.get("kind") in MODELS:
                out.append((f.name, i, d))
    return out


def crd_schema(kind: str, version: str = "v1beta1") -> dict:
    if not (CRDS / CRD_FILES[kind]).is_file():
        pytest.skip("../shared reference CRDs are not available")
    crd = yaml.load((CRDS / CRD_FILES[kind]).read_text(), Loader=yaml.CSafeLoader)
    return next(v for v in crd["spec"]["versions"] if v["name"] == version)["schema"]["openAPIV3Schema"]


def crd_paths(node: dict, prefix: str = "") -> set[str]:
    out = set()
    for k, v in (node.get("properties") or {}).items():
        p = f"{prefix}.{k}" if prefix else k
        out.add(p)
        out |= crd_paths(v, p)
    if isinstance(node.get("items"), dict):
        out |= crd_paths(node["items"], prefix + "[]")
    if isinstance(node.get("additionalProperties"), dict):
        out |= crd_paths(node["additionalProperties"], prefix + "{}")
    return out


def gen_paths(root: dict, node: dict, prefix: str = "", depth: int = 0) -> set[str]:
    from dynamo_schema._schema._schemas import resolve

    node = resolve(root, node)
    out = set()
    assert depth < 40
    for k, v in (node.get("properties") or {}).items():
        p = f"{prefix}.{k}" if prefix else k
        out.add(p)
        out |= gen_paths(root, v, p, depth + 1)
    if isinstance(node.get("items"), dict):
        out |= gen_paths(root, node["items"], prefix + "[]", depth + 1)
    if isinstance(node.get("additionalProperties"), dict):
        out |= gen_paths(root, node["additionalProperties"], prefix + "{}", depth + 1)
    for alt in node.get("anyOf", []) or []:
        out |= gen_paths(root, alt, prefix, depth + 1)
    return out


CORPUS_DOCS = corpus_docs()


@needs_shared
def test_corpus_is_not_empty() -> None:
    assert len(CORPUS_DOCS) == 128


@needs_shared
@pytest.mark.parametrize("fname,index,doc", CORPUS_DOCS, ids=[f"{f}#{i}" for f, i, _ in CORPUS_DOCS])
def test_corpus_document_validates_with_models(fname: str, index: int, doc: dict) -> None:
    obj = MODELS[doc["kind"]].model_validate(doc)
    # round trip: what we dump is what we read, minus explicit nulls (pruned as the API server does)
    again = MODELS[doc["kind"]].model_validate(obj.to_dict())
    assert again == obj


@needs_shared
@pytest.mark.parametrize("kind", sorted(MODELS))
def test_every_crd_property_path_exists_in_generated_schema(kind: str) -> None:
    crd = crd_schema(kind)
    schema = _schemagen.schema_for(MODELS[kind])
    want = crd_paths(crd)
    have = gen_paths(schema, schema)
    missing = sorted(want - have)
    assert not missing, f"{len(missing)} of {len(want)} CRD paths missing, e.g. {missing[:10]}"
    assert any(p.startswith("spec.components[].podTemplate.spec.containers[].env[]") for p in have) or kind != "DynamoGraphDeployment"


@needs_shared
@pytest.mark.parametrize("kind", sorted(MODELS))
def test_generated_schema_keeps_crd_constraints(kind: str) -> None:
    """Enums, patterns, bounds, list semantics and CEL rules of the CRD are all in the generated schema."""
    from dynamo_schema._schema._schemas import resolve

    crd = crd_schema(kind)
    schema = _schemagen.schema_for(MODELS[kind])
    keys = ("enum", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
            "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type",
            "x-kubernetes-validations", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
            "default", "required")

    def walk(c: dict, n: dict, path: str) -> None:
        n = resolve(schema, n)
        for part in c.get("allOf", []):  # controller-gen's repeated markers: every part must hold
            for k, v in part.items():
                assert k in keys, f"{path}: allOf {k}"
                if k == "enum":
                    assert n.get("enum") and set(n["enum"]) <= set(v), f"{path}: allOf enum"
                else:
                    assert n.get(k) == v, f"{path}: allOf {k}"
        for k in keys:
            if k not in c:
                continue
            if k == "required":
                assert set(c[k]) <= set(n.get("required", [])), path
                continue
            if k == "x-kubernetes-int-or-string":
                assert n.get(k) is True or any(a.get("type") == "integer" for a in n.get("anyOf", [])), path
                continue
            if k == "pattern" and c.get("x-kubernetes-int-or-string"):
                alts = [resolve(schema, a) for a in n.get("anyOf", [])]
                assert any(a.get("pattern") == c[k] for a in alts), path
                continue
            assert n.get(k) == c[k], f"{path}: {k}: {n.get(k)!r} != {c[k]!r}"
        for k, v in (c.get("properties") or {}).items():
            assert k in (n.get("properties") or {}), f"{path}.{k}"
            walk(v, n["properties"][k], f"{path}.{k}")
        if isinstance(c.get("items"), dict):
            walk(c["items"], n["items"], path + "[]")
        if isinstance(c.get("additionalProperties"), dict):
            walk(c["additionalProperties"], n["additionalProperties"], path + "{}")

    walk(crd["properties"]["spec"], schema["properties"]["spec"], "spec")


def test_committed_schemas_are_current() -> None:
    """The package's schemas are exactly what the models generate; ``schemas/`` is that one copy (a link)."""
    generated = _schemagen.generate_all()
    top = ROOT / "schemas"
    assert top.is_symlink() and top.resolve() == (ROOT / "dynamo_schema" / "_data" / "schemas").resolve(), \
        "schemas/ must be the link to dynamo_schema/_data/schemas (one committed copy, docs/decisions.md)"
    for base in (ROOT / "dynamo_schema" / "_data" / "schemas",):
        for rel, schema in generated.items():
            path = base / rel
            assert path.is_file(), f"{path} missing: run python -m dynamo_schema schema --out {base}"
            assert path.read_text(encoding="utf-8") == _schemagen.dumps(schema), f"{path} is stale"
        on_disk = {p.relative_to(base).as_posix() for p in base.rglob("*.json")}
        assert on_disk == set(generated), f"extra files under {base}: {on_disk - set(generated)}"


def test_models_are_strict_about_types_and_unknown_fields() -> None:
    doc = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "x"},
           "spec": {"components": [{"name": "w", "replicas": "2"}]}}
    with pytest.raises(ValidationError) as e:
        g.DynamoGraphDeployment.model_validate(doc)
    assert e.value.errors()[0]["loc"] == ("spec", "components", 0, "replicas")
    doc["spec"]["components"][0] = {"name": "w", "podTemplate": {"spec": {"containers": [{"name": "main", "imag": "x"}]}}}
    with pytest.raises(ValidationError) as e:
        g.DynamoGraphDeployment.model_validate(doc)
    assert e.value.errors()[0]["loc"] == ("spec", "components", 0, "podTemplate", "spec", "containers", 0, "imag")


# ---- generated schema and models agree, over the corpus and over rejected inputs -----------------

MUTATIONS = [
    ("replicas as string", ("spec", "components", 0, "replicas"), "2"),
    ("unknown field", ("spec", "components", 0, "replicaz"), 1),
    ("bad enum", ("spec", "components", 0, "type"), "gateway"),
    ("bad pattern", ("spec", "components", 0, "name"), "Bad_Name!"),
    ("negative replicas", ("spec", "components", 0, "replicas"), -1),
    ("unknown podTemplate key", ("spec", "components", 0, "podTemplate", "spec", "containerz"), []),
    ("env value int", ("spec", "env"), [{"name": "A", "value": 1}]),
    ("bool as string", ("spec", "components", 0, "globalDynamoNamespace"), "true"),
    ("too many components", ("spec", "components"), [{"name": f"c{i}"} for i in range(26)]),
]


def _set(doc: dict, path: tuple, value: object) -> dict:
    doc = copy.deepcopy(doc)
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


@needs_shared
def test_generated_schema_and_models_agree() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = _schemagen.schema_for(g.DynamoGraphDeployment)
    validator = jsonschema.Draft202012Validator(schema)
    dgds = [d for _, _, d in CORPUS_DOCS if d["kind"] == "DynamoGraphDeployment"]
    assert dgds
    for doc in dgds:
        # explicit nulls are pruned by the API server before validation
        doc = json.loads(json.dumps(doc), object_hook=lambda m: {k: v for k, v in m.items() if v is not None})
        errs = list(validator.iter_errors(doc))
        assert not errs, [e.message for e in errs][:3]
    base = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "x"},
            "spec": {"components": [{"name": "worker", "type": "worker", "replicas": 1,
                                     "podTemplate": {"spec": {"containers": [{"name": "main"}]}}}]}}
    assert not list(validator.iter_errors(base))
    g.DynamoGraphDeployment.model_validate(base)
    for label, path, value in MUTATIONS:
        bad = _set(base, path, value)
        schema_rejects = bool(list(validator.iter_errors(bad)))
        try:
            g.DynamoGraphDeployment.model_validate(bad)
            model_rejects = False
        except ValidationError:
            model_rejects = True
        assert schema_rejects and model_rejects, label


# ---- v1alpha1 (legacy, served and converted) ------------------------------------------------------

from dynamo_schema.models import _generated_v1alpha1 as ga  # noqa: E402

ALPHA_MODELS = {
    "DynamoGraphDeployment": ga.DynamoGraphDeployment,
    "DynamoComponentDeployment": ga.DynamoComponentDeployment,
    "DynamoGraphDeploymentRequest": ga.DynamoGraphDeploymentRequest,
}
ALPHA_DOCS = corpus_docs(CORPUS.parent / "v1alpha1", "nvidia.com/v1alpha1")


@needs_shared
@pytest.mark.parametrize("kind", sorted(ALPHA_MODELS))
def test_every_v1alpha1_crd_property_path_exists_in_generated_schema(kind: str) -> None:
    crd = crd_schema(kind, "v1alpha1")
    schema = _schemagen.schema_for(ALPHA_MODELS[kind])
    missing = sorted(crd_paths(crd) - gen_paths(schema, schema))
    assert not missing, missing[:10]


@needs_shared
def test_v1alpha1_corpus_validates_with_models() -> None:
    """Upstream v1alpha1 manifests fit the v1alpha1 models, except envsubst templates whose
    placeholders stand where the schema wants a map or a list (they are not manifests as written)."""
    assert len(ALPHA_DOCS) == 72
    failures = []
    for fname, _i, doc in ALPHA_DOCS:
        try:
            ALPHA_MODELS[doc["kind"]].model_validate(doc)
        except ValidationError as exc:
            failures.append((fname, [e["input"] for e in exc.errors()]))
    templated = [f for f, inputs in failures if all(isinstance(x, str) and x.startswith("${") for x in inputs)]
    assert [f for f, _ in failures] == templated, failures
