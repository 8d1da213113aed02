"""``dynamo_schema/_data/releases.json`` (the release that first served each field, for hover) is what
tools/gen_releases.py derives from the CRDs of ../shared/reference/dynamo/crds-history, and its facts agree
with those CRDs read directly."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._lsp import _schemainfo

ROOT = Path(__file__).resolve().parents[2]
HISTORY = ROOT.parent / "shared" / "reference" / "dynamo" / "crds-history"
DATA = ROOT / "dynamo_schema" / "_data" / "releases.json"

pytestmark = pytest.mark.shared


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("gen_releases", ROOT / "tools" / "gen_releases.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_table_is_current() -> None:
    tool = _tool()
    assert DATA.read_text(encoding="utf-8") == tool.dumps(tool.generate()), \
        "dynamo_schema/_data/releases.json is stale: run python tools/gen_releases.py"


def _served(release: str, crd_file: str) -> dict[str, Any]:
    path = HISTORY / release / crd_file
    if not path.is_file():
        return {}
    crd = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return {v["name"]: v["schema"]["openAPIV3Schema"] for v in crd["spec"]["versions"] if v.get("served", True)}


def _component_fields(release: str) -> set[str]:
    beta = _served(release, "nvidia.com_dynamographdeployments.yaml").get("v1beta1")
    if beta is None:
        return set()
    return set(beta["properties"]["spec"]["properties"]["components"]["items"]["properties"])


def _first(fields_by_release: dict[str, set[str]], name: str) -> str:
    return next(r for r, fields in fields_by_release.items() if name in fields)


def test_facts_agree_with_the_crds() -> None:
    releases = sorted((d.name for d in HISTORY.iterdir() if d.is_dir()), key=lambda r: tuple(map(int, r.split("."))))
    table = json.loads(DATA.read_text(encoding="utf-8"))
    assert table["releases"] == releases
    kinds = table["kinds"]
    # the first release that served each kind/version
    first_beta = next(r for r in releases if "v1beta1" in _served(r, "nvidia.com_dynamographdeployments.yaml"))
    first_alpha = next(r for r in releases if "v1alpha1" in _served(r, "nvidia.com_dynamographdeployments.yaml"))
    assert kinds["DynamoGraphDeployment/v1beta1"][""] == first_beta
    assert kinds["DynamoGraphDeployment/v1alpha1"][""] == first_alpha
    first_meta = next(r for r in releases if (HISTORY / r / "nvidia.com_dynamoworkermetadatas.yaml").is_file())
    assert kinds["DynamoWorkerMetadata/v1alpha1"][""] == first_meta
    # a component field that came after v1beta1 itself: recorded, and what hover says
    by_release = {r: _component_fields(r) for r in releases}
    later = sorted(f for f in by_release[releases[-1]] if _first(by_release, f) != first_beta)
    assert later, "no v1beta1 component field newer than v1beta1"
    for name in later:
        want = _first(by_release, name)
        assert kinds["DynamoGraphDeployment/v1beta1"].get(f"spec.components.{name}") == want, name
        assert _schemainfo.release("DynamoGraphDeployment", "nvidia.com/v1beta1", f"spec.components.{name}") == want
    # a field as old as v1beta1: inherited from the root, not recorded on its own
    old = sorted(f for f in by_release[first_beta])[0]
    assert f"spec.components.{old}" not in kinds["DynamoGraphDeployment/v1beta1"]
    assert _schemainfo.release("DynamoGraphDeployment", "nvidia.com/v1beta1", f"spec.components.{old}") == first_beta


def test_fields_of_the_development_line_are_worded_as_unreleased() -> None:
    table = json.loads(DATA.read_text(encoding="utf-8"))
    dev = table["development"]
    found = [(kv, path) for kv, fields in table["kinds"].items() for path, r in fields.items() if r == dev]
    if not found:
        pytest.skip("no field is newer than the newest release folder")
    kv, path = found[0]
    kind, version = kv.split("/")
    assert _schemainfo.release(kind, f"nvidia.com/{version}", path) == f"{dev} (in development; no release serves it yet)"


def test_a_field_of_the_oldest_release_folder_is_worded_or_earlier() -> None:
    """docs/cli.md (Hover): a field the oldest recorded release already served reads "<oldest> or earlier"
    (the crds-history folders start there, so earlier releases are not known not to have it)."""  # mutant 91750e884b1d
    oldest = min((d.name for d in HISTORY.iterdir() if d.is_dir()), key=lambda r: tuple(map(int, r.split("."))))
    assert "v1alpha1" in _served(oldest, "nvidia.com_dynamographdeployments.yaml")
    assert _schemainfo.release("DynamoGraphDeployment", "nvidia.com/v1alpha1", "spec.services") == f"{oldest} or earlier"
