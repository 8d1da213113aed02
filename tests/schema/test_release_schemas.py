"""The release schema store (``dynamo_schema/_data/releases/``, tools/gen_release_schemas.py) and the schemas of
each operator release: current with crds-history, compact (shared fragments, only the selected release
read), the same validator input as the bundled schemas, and each release's fields."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import dynamo_schema
from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._schema import _releases

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()
HISTORY = SHARED / "reference" / "dynamo" / "crds-history"
STORE = ROOT / "dynamo_schema" / "_data" / "releases"
needs_history = pytest.mark.skipif(not HISTORY.is_dir(), reason="../shared crds-history not available")


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("gen_release_schemas", ROOT / "tools" / "gen_release_schemas.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.shared
@needs_history
def test_the_store_is_generated_from_crds_history() -> None:
    """Regenerate with ``python tools/gen_release_schemas.py`` when this fails."""
    tool = _tool()
    assert tool.stale(tool.build(HISTORY), STORE) == []


@needs_history
def test_the_releases_are_those_of_crds_history() -> None:
    folders = sorted((p.name for p in HISTORY.iterdir() if p.is_dir()), key=lambda r: tuple(map(int, r.split("."))))
    assert list(_releases.RELEASES) == folders
    source = (HISTORY / "SOURCE.md").read_text()
    for release in _releases.RELEASES:
        assert f"| {release} |" in source and _releases.commit(release) in source


@needs_history
def test_served_versions_are_the_crds() -> None:
    for release in _releases.RELEASES:
        for path in (HISTORY / release).glob("*.yaml"):
            crd = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
            kind = crd["spec"]["names"]["kind"]
            served = tuple(v["name"] for v in crd["spec"]["versions"] if v.get("served"))
            assert _releases.served_versions(release, kind) == served, (release, kind)
    dgd, dgdr = "DynamoGraphDeployment", "DynamoGraphDeploymentRequest"
    assert [r for r in _releases.RELEASES if "v1beta1" in _releases.served_versions(r, dgd)] == ["1.2", "1.3", "1.4"]
    assert "v1beta1" in _releases.served_versions("1.1", dgdr) and "v1beta1" in _releases.served_versions("1.0", dgdr)


def test_the_store_is_compact_and_shared() -> None:
    """No copy per release: the store is a fraction of what the releases' schemas are once expanded (each kind
    and version standalone, as ``schema --out`` writes them), and much smaller than one reference CRD folder
    (4.3 MB)."""
    store = sum(p.stat().st_size for p in STORE.rglob("*.json"))
    assert store < 600_000
    expanded = sum(len(json.dumps(s)) for r in _releases.RELEASES for s in _releases.export(r).values())
    assert expanded > 5 * store
    index = json.loads((STORE / "index.json").read_text())["releases"]
    packs = {p.stem: p.stat().st_size for p in (STORE / "packs").glob("*.json")}
    assert set(packs) == {p for r in index.values() for p in r["packs"]}
    shared = [p for p in packs if len(p.split("_")) == len(_releases.RELEASES)]
    assert shared and packs[shared[0]] > 10_000  # one pack read by every release (the pod spec and its kin)


def test_only_the_selected_release_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real = _releases._read
    monkeypatch.setattr(_releases, "_read", lambda rel: read.append(rel) or real(rel))
    _releases._defs.cache_clear()
    _releases.schema.cache_clear()
    try:
        assert _releases.schema("1.1", "nvidia.com/v1alpha1", "DynamoGraphDeployment") is not None
    finally:
        _releases._defs.cache_clear()
        _releases.schema.cache_clear()
    packs = [r for r in read if r.startswith("packs/")]
    assert packs and all("1.1" in p.split("/")[1].removesuffix(".json").split("_") for p in packs)


def test_a_release_schema_reaches_only_its_own_fragments() -> None:
    full = _releases.schema("1.0", "nvidia.com/v1beta1", "DynamoGraphDeploymentRequest")
    assert full is not None
    text = json.dumps({k: v for k, v in full.items() if k != "$defs"}) + json.dumps(full["$defs"])
    assert all(f'"#/$defs/{key}"' in text for key in full["$defs"])
    assert "x-kubernetes-validations" not in text  # the DGD's CEL rules are not the 1.0 DGDR's


@pytest.mark.shared
@needs_history
def test_the_reduced_reference_crds_validate_as_the_bundled_schemas() -> None:
    """The store's form (a CRD's openAPIV3Schema without descriptions, allOf folded) is what the validators
    read: for the reference CRDs it gives the diagnostics of the bundled schemas, on the corpus and on
    mutations of it."""
    from dynamo_schema._schema import _cel, _schemas, _structural
    from tests.oracles import _differential as dv
    from tests.oracles.test_kubectl_validate import _generate

    tool = _tool()
    crds = {}
    for path in (SHARED / "reference" / "dynamo" / "crds").glob("*.yaml"):
        crd = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
        for v in crd["spec"]["versions"]:
            crds[(f"nvidia.com/{v['name']}", crd["spec"]["names"]["kind"])] = tool.reduce_schema(
                v["schema"]["openAPIV3Schema"])

    def run(doc: dict[str, Any], schema: dict[str, Any]) -> list[tuple[Any, ...]]:
        pruned, notes = _structural.prune_nulls(doc, schema)
        st = _structural.validate(pruned, schema, strict=True, status_subresource=True)
        diags = list(notes) + st + _cel.validate_cel(pruned, schema, structural=st, status_subresource=True)
        return sorted((d.rule, d.path, d.message, d.severity) for d in diags)

    docs = [d for _, d in dv.base_documents()] + _generate(300)
    checked = 0
    for doc in docs:
        key = (doc["apiVersion"], doc["kind"])
        if key in crds:
            checked += 1
            assert run(doc, crds[key]) == run(doc, _schemas.for_object(*key)), key
    assert checked > 300


def _errors(doc: dict[str, Any], release: str) -> list[str]:
    return [d.rule for r in dynamo_schema.validate(doc, settings=AdmissionSettings(operator_release=release))
            for d in r.diagnostics if d.severity == "error"]


_ALPHA = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"}}


@pytest.mark.parametrize(("field", "value", "where", "before", "added"), [
    ("checkpoint", {"enabled": False}, "service", "0.8", "0.9"),  # DynamoCheckpoint came with 0.9
    ("topologyConstraint", {"packDomain": "rack", "topologyProfile": "p"}, "spec", "0.9", "1.0"),  # de6e4f30b
    ("gpuMemoryService", {"enabled": False}, "service", "0.9", "1.0"),  # 47897f364
    ("experimental", {}, "spec", "1.1", "1.2"),  # a68c04c7b
    ("priorityClassName", "high", "spec", "1.2", "1.3"),  # 4691c5cc2
    ("minAvailable", 1, "service", "1.2", "1.3"),  # 5d3bb78df
    ("runtimeVersionOverride", "1.4.0", "service", "1.3", "1.4"),  # d7bb84ef0
])
def test_a_field_is_refused_before_the_release_that_added_it(field: str, value: Any, where: str, before: str,
                                                             added: str) -> None:
    svc: dict[str, Any] = {"componentType": "frontend",
                           "extraPodSpec": {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}}}
    spec: dict[str, Any] = {"services": {"Frontend": svc}}
    (svc if where == "service" else spec)[field] = value
    doc = {**_ALPHA, "spec": spec}
    assert _errors(doc, before) == ["schema.unknown-field"]
    assert _errors(doc, added) == []


def test_a_corpus_document_with_a_newer_field() -> None:
    """The corpus' GAIE recipe: 0.8 has neither eppConfig nor frontendSidecar (unknown fields); 0.9 has
    eppConfig with string plugin parameters and no frontendSidecar; from 1.0 on it is admitted (kubectl-validate
    with each release's CRDs says the same: tests/oracles/test_kubectl_validate.py)."""
    path = SHARED / "reference" / "dynamo" / "corpus" / "v1alpha1" / "recipes__qwen3-0.6b__vllm__agg__gaie__deploy.yaml"
    if not path.is_file():
        pytest.skip("corpus not available")
    from tests.oracles.test_kubeconform import fill_structured_placeholders

    docs = [d for d in yaml.load_all(fill_structured_placeholders(path.read_text()), Loader=yaml.CSafeLoader)
            if isinstance(d, dict) and d.get("kind") == "DynamoGraphDeployment"]
    assert set(_errors(docs[0], "0.8")) == {"schema.unknown-field"}
    assert "schema.unknown-field" in _errors(docs[0], "0.9") and "schema.type" in _errors(docs[0], "0.9")
    assert _errors(docs[0], "1.0") == []


def test_rules_without_a_fast_path_and_no_engine_are_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the CEL engine (Python 3.10: no wheels) a release's rule without a hand-written fast path is
    not evaluated: a ``cel.untranslated`` warning, not a refusal (docs/decisions.md D49)."""
    from dynamo_schema._schema import _cel_engine
    from dynamo_schema._schema._cel_rules import BY_NORM, norm

    rules: set[str] = set()
    for release in _releases.RELEASES:
        for schema in _releases.export(release).values():
            stack: list[Any] = [schema]
            while stack:
                x = stack.pop()
                if isinstance(x, dict):
                    rules |= {r["rule"] for r in x.get("x-kubernetes-validations") or () if norm(r["rule"]) not in BY_NORM}
                    stack.extend(x.values())
                elif isinstance(x, list):
                    stack.extend(x)
    monkeypatch.setattr(_cel_engine, "available", lambda: False)
    # 1.2's checkpoint rule (when it has no fast path): a DGD with a checkpoint and neither ref nor identity
    doc = {**_ALPHA, "spec": {"services": {"W": {"componentType": "worker", "checkpoint": {"enabled": True}}}}}
    diags = [d for r in dynamo_schema.validate(doc, settings=AdmissionSettings(operator_release="1.2"))
             for d in r.diagnostics]
    checkpoint_rule = next((r for r in rules if "checkpointRef" in r and "identity" in r and "enabled" in r), None)
    if checkpoint_rule is None:
        assert not any(d.rule == "cel.untranslated" for d in diags)
    else:
        assert any(d.rule == "cel.untranslated" and d.severity == "warning" for d in diags)
        assert not any(d.rule.startswith("cel.") and d.severity == "error" for d in diags)
