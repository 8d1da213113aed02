"""Every override-merge conformance case under ../shared/reference/dynamo/overrides, run through the
library function and through the ``merge`` command body, honouring every key the README defines."""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import _yaml as k8s_yaml
from tests.merge._support import CASES, MISSING, case_files, crd_schema_for, lookup

KNOWN_KEYS = {
    "description",
    "source",
    "note",
    "blueprint",
    "override",
    "expected",
    "error_contains",
    "warnings_count",
    "warnings_contain",
    "expect_fields",
    "expect_contains",
    "expect_unordered",
    "expect_len",
    "expect_present",
    "expect_absent",
    "expect_empty",
    "expect_not_equal",
    "inputs_unmutated",
}

FILES = case_files()
pytestmark = pytest.mark.skipif(not FILES, reason="../shared override cases are not available")


def _load(path: Path) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=yaml.CSafeLoader)


def _num_eq(a: Any, b: Any) -> bool:
    """Deep equality where 7 == 7.0 (the Go tests decode through JSON) but True != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_num_eq(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_num_eq(x, y) for x, y in zip(a, b))
    return bool(a == b)


def check_case(case: dict, result: Any, warnings: list[str], error: str | None) -> None:
    if "error_contains" in case:
        assert error is not None, f"expected an error containing {case['error_contains']!r}"
        assert case["error_contains"] in error
        return
    assert error is None, f"unexpected error: {error}"
    if "expected" in case:
        assert _num_eq(result, case["expected"]), k8s_yaml.dump(result)
    if "warnings_count" in case:
        assert len(warnings) == case["warnings_count"], warnings
    for w in case.get("warnings_contain") or []:
        assert w in warnings, (w, warnings)
    for path, want in (case.get("expect_fields") or {}).items():
        got = lookup(result, path)
        assert got is not MISSING, f"{path} missing"
        assert _num_eq(got, want), (path, got, want)
    for path, items in (case.get("expect_contains") or {}).items():
        got = lookup(result, path)
        assert isinstance(got, list), (path, got)
        for item in items:
            assert any(_num_eq(item, g) for g in got), (path, item, got)
    for path, items in (case.get("expect_unordered") or {}).items():
        got = lookup(result, path)
        assert isinstance(got, list), (path, got)
        assert sorted(map(repr, got)) == sorted(map(repr, items)), (path, got, items)
    for path, n in (case.get("expect_len") or {}).items():
        got = lookup(result, path)
        assert isinstance(got, (list, dict)) and len(got) == n, (path, got, n)
    for path in case.get("expect_present") or []:
        assert lookup(result, path) is not MISSING, path
    for path in case.get("expect_absent") or []:
        assert lookup(result, path) is MISSING, path
    for path in case.get("expect_empty") or []:
        got = lookup(result, path)
        assert got is MISSING or got in (None, [], {}), (path, got)
    for path, value in (case.get("expect_not_equal") or {}).items():
        assert not _num_eq(lookup(result, path), value), path


def _package_has(api_version: str) -> bool:
    try:
        from dynamo_schema._schema import _schemas

        _schemas.load("nvidia.com", "DynamoGraphDeployment", api_version.split("/")[1])
    except (OSError, KeyError, ValueError, ImportError):
        return False
    return True


@pytest.mark.parametrize("source", ["crd", "package"])
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_case_library(path: Path, source: str) -> None:
    """``crd``: list semantics from the upstream CRD; ``package``: from the schemas the package ships."""
    from dynamo_schema._merge import MergeError, apply_overrides

    case = _load(path)
    schema_for = crd_schema_for if source == "crd" else None
    if source == "package":
        versions = {
            (x or {}).get("apiVersion") or "nvidia.com/v1alpha1" for x in (case.get("blueprint"), case.get("override"))
        }
        missing = sorted(
            v for v in versions if v in ("nvidia.com/v1alpha1", "nvidia.com/v1beta1") and not _package_has(v)
        )
        if missing:
            pytest.skip(f"dynamo_schema._schema._schemas ships no DGD schema for {', '.join(missing)}")
    assert set(case) <= KNOWN_KEYS, set(case) - KNOWN_KEYS
    blueprint, override = case.get("blueprint"), case.get("override")
    before = (copy.deepcopy(blueprint), copy.deepcopy(override))
    result: Any = None
    warnings: list[str] = []
    error = None
    try:
        merged = apply_overrides(blueprint, override, schema_for=schema_for)
        result, warnings = merged.dgd, merged.warnings
    except MergeError as exc:
        error = str(exc)
    check_case(case, result, warnings, error)
    for role in case.get("inputs_unmutated") or []:
        assert {"blueprint": blueprint, "override": override}[role] == before[0 if role == "blueprint" else 1]
    # never mutated, whether listed or not
    assert (blueprint, override) == before
    if result is not None:
        assert "$patch" not in k8s_yaml.dump(result)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_case_cli(path: Path, tmp_path: Path) -> None:
    from dynamo_schema._cli.commands.merge import run_merge

    case = _load(path)
    bp, ov = tmp_path / "bp.yaml", tmp_path / "ov.yaml"
    # a nil input is an empty file (or a lone ``null``: both read as upstream's nil object)
    bp.write_text("" if case.get("blueprint") is None else k8s_yaml.dump(case["blueprint"]))
    ov.write_text("null\n" if case.get("override") is None else k8s_yaml.dump(case["override"]))
    out, err = io.StringIO(), io.StringIO()
    # the upstream cases' blueprints are merge fixtures (no images…): merge semantics only (no validator)
    rc = run_merge(str(bp), str(ov), out, err, schema_for=crd_schema_for)
    lines = err.getvalue().splitlines()
    warnings = [ln[len("warning: ") :] for ln in lines if ln.startswith("warning: ")]
    errors = [ln[len("error: ") :] for ln in lines if ln.startswith("error: ")]
    if "error_contains" in case:
        assert rc == 1 and out.getvalue() == ""
        check_case(case, None, warnings, "\n".join(errors))
        return
    assert rc == 0, err.getvalue()
    result = yaml.load(out.getvalue(), Loader=yaml.CSafeLoader)
    check_case(case, result, warnings, None)


def test_cli_accepts_dgdr_manifest(tmp_path: Path) -> None:
    """``--override`` may be a DGDR: its spec.overrides.dgd is applied (case 06 wrapped in a DGDR)."""
    from dynamo_schema._cli.commands.merge import run_merge

    case = _load(CASES / "06-args-append-beta-main.yaml")
    dgdr = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeploymentRequest",
        "metadata": {"name": "r"},
        "spec": {"model": "m", "overrides": {"dgd": case["override"]}},
    }
    bp, ov = tmp_path / "bp.yaml", tmp_path / "dgdr.yaml"
    bp.write_text(k8s_yaml.dump(case["blueprint"]))
    ov.write_text(k8s_yaml.dump(dgdr))
    out, err = io.StringIO(), io.StringIO()
    assert run_merge(str(bp), str(ov), out, err, schema_for=crd_schema_for) == 0, err.getvalue()
    check_case(case, yaml.safe_load(out.getvalue()), [], None)
    # a DGDR without overrides normalises the blueprint (upstream TestRunWithoutOverrideNormalizesBlueprint)
    ov.write_text(k8s_yaml.dump({**dgdr, "spec": {"model": "m"}}))
    out = io.StringIO()
    assert run_merge(str(bp), str(ov), out, io.StringIO(), schema_for=crd_schema_for) == 0
    assert yaml.safe_load(out.getvalue()) == case["blueprint"]


def test_cli_error_wording(tmp_path: Path) -> None:
    from dynamo_schema._cli.commands.merge import run_merge

    bp, ov = tmp_path / "bp.yaml", tmp_path / "ov.yaml"
    bp.write_text("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nspec: {components: []}\n")
    ov.write_text("apiVersion: nvidia.com/v2\nkind: DynamoGraphDeployment\n")
    out, err = io.StringIO(), io.StringIO()
    assert run_merge(str(bp), str(ov), out, err, schema_for=crd_schema_for) == 1
    assert err.getvalue() == (
        'error: override must be nvidia.com/v1alpha1 or nvidia.com/v1beta1, got apiVersion "nvidia.com/v2" '
        'kind "DynamoGraphDeployment"\n'
    )
    assert out.getvalue() == ""
    assert run_merge(str(tmp_path / "nope.yaml"), str(ov), out, io.StringIO()) == 2
