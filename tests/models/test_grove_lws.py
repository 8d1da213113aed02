"""Our typed models of the objects the operator creates: Grove PodCliqueSet and LeaderWorkerSet."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from dynamo_schema._pipeline import _schemagen
from dynamo_schema.models import _grove, _lws

from .test_models import crd_paths, gen_paths

ROOT = Path(__file__).resolve().parents[2]
GROVE = (ROOT / ".." / "shared" / "reference" / "grove").resolve()
GOLDEN = (ROOT / ".." / "shared" / "reference" / "dynamo" / "golden").resolve()

needs_shared = pytest.mark.skipif(not GROVE.is_dir(), reason="../shared not available")


@needs_shared
def test_every_podcliqueset_crd_path_is_in_the_generated_schema() -> None:
    crd = yaml.load((GROVE / "crds" / "grove.io_podcliquesets.yaml").read_text(), Loader=yaml.CSafeLoader)
    want = crd_paths(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"])
    schema = _schemagen.schema_for(_grove.PodCliqueSet)
    missing = sorted(want - gen_paths(schema, schema))
    assert not missing, missing[:10]


def _grove_samples() -> list[tuple[str, dict]]:
    if not GROVE.is_dir():
        return []
    out = []
    for f in sorted((GROVE / "samples").iterdir()):
        for d in yaml.load_all(f.read_text(), Loader=yaml.CSafeLoader):
            if isinstance(d, dict) and d.get("kind") == "PodCliqueSet":
                out.append((f.name, d))
    return out


@needs_shared
@pytest.mark.parametrize("name,doc", _grove_samples(), ids=[n for n, _ in _grove_samples()])
def test_grove_samples_validate(name: str, doc: dict) -> None:
    _grove.PodCliqueSet.model_validate(doc)


def test_podcliqueset_rejects_unknown_clique_field() -> None:
    doc = {"apiVersion": "grove.io/v1alpha1", "kind": "PodCliqueSet", "metadata": {"name": "x"},
           "spec": {"replicas": 1, "template": {"cliques": [{"name": "a", "spec": {"replicas": 1, "roleName": "a",
                                                                                      "podSpec": {"containers": []},
                                                                                      "minAvailabe": 1}}]}}}
    with pytest.raises(ValidationError) as e:
        _grove.PodCliqueSet.model_validate(doc)
    assert e.value.errors()[0]["loc"][-1] == "minAvailabe"


def _golden_lws() -> list[dict]:
    if not GOLDEN.is_dir():
        return []
    out = []
    for f in sorted(GOLDEN.rglob("output.yaml")):
        text = f.read_text()
        for d in yaml.load_all(text, Loader=yaml.CSafeLoader):
            if isinstance(d, dict) and d.get("kind") == "LeaderWorkerSet":
                out.append(d)
    return out


def _strip_directives(node: object) -> object:
    """Remove matcher directives so the expected object can be type-checked."""
    if isinstance(node, dict):
        return {k: _strip_directives(v) for k, v in node.items()
                if not str(k).startswith("$") and not (isinstance(v, str) and v.startswith("$"))}
    if isinstance(node, list):
        return [_strip_directives(x) for x in node]
    return node


@needs_shared
def test_upstream_expected_leaderworkersets_fit_our_model() -> None:
    docs = _golden_lws()
    assert docs
    for d in docs:
        _lws.LeaderWorkerSet.model_validate(_strip_directives(d))


def test_leaderworkerset_rejects_bad_startup_policy() -> None:
    doc = {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "metadata": {"name": "x"},
           "spec": {"startupPolicy": "Eventually", "leaderWorkerTemplate": {"workerTemplate": {"spec": {"containers": []}}}}}
    with pytest.raises(ValidationError):
        _lws.LeaderWorkerSet.model_validate(doc)
