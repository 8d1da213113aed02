"""Project goldens: golden/<case>/{input.yaml, options.yaml, expected.yaml | expected-refusal.yaml}.

Each input is rendered through the admission path the operator takes
(``dynamo_schema._pipeline._render_object.render_object``: admission with the case's settings, Grove on for
``target: grove`` and off otherwise, then the render target and the output checks). Two checks:

* ``test_project_golden``: our output equals expected.yaml exactly (no directive appears in any
  expected.yaml, so the matcher's defaults apply: strict mappings, exact ordered sequences, type-exact
  scalars, the exact set of objects, and the same (kind, name) sequence); a refusal golden's
  ``expected-refusal.yaml`` lists the (field, message) causes render refuses with;
* ``test_expected_is_the_operators``: for every golden whose provenance is ``operator-verified``,
  expected.yaml after the normalisation of ``../shared/reference/dynamo/operator-cases/README.md``
  equals the operator's ``objects`` for that input (its causes, for a refusal). Needs ``../shared``
  (skipped without it, a failure under ``CI``).

expected.yaml holds the complete objects, the fields the normalisation drops included, in render order
(docs/decisions.md D36). Rewrite switch, refused under ``CI``:
``DYNAMO_SCHEMA_REGEN_GOLDEN=1 python -m pytest tests/render/test_project_goldens.py``; an
operator-verified golden is only rewritten when our output equals the operator's objects under the
normalisation (otherwise the test fails: fix the code, not the expectation).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._render import RenderError
from tests import _yaml as k8s_yaml

from ..oracles import _operator_cases as oc
from .matcher import load_yaml12_documents, match_manifests

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
TARGETS = {"kubernetes", "grove", "dcd"}
EXPECTED, REFUSAL = "expected.yaml", "expected-refusal.yaml"


def _cases() -> list[Path]:
    out = []
    for opt in sorted(GOLDEN.glob("*/options.yaml")):
        data = yaml.load(opt.read_text(), Loader=yaml.CSafeLoader) or {}
        if data.get("target") in TARGETS:
            out.append(opt.parent)
    return out


def _load(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def golden_settings(folder: Path) -> tuple[str, str, str, Any, dict[str, Any]]:
    """(target, namespace, operator version, AdmissionSettings, further RenderOptions fields) of a golden:
    ``options.yaml`` keys that are ``AdmissionSettings`` fields go to the settings, the others are
    ``RenderOptions`` fields; Grove is on exactly for ``target: grove``; no ClusterTopologyBinding unless
    the options give ``cluster_topologies``."""
    from dynamo_schema._admission import AdmissionSettings

    data = dict(_load(folder / "options.yaml"))
    target = data.pop("target")
    namespace = str(data.pop("namespace", "default"))
    version = str(data.pop("operator_version", "1.5.0"))
    admission = {k: data.pop(k) for k in list(data) if k in AdmissionSettings._FIELDS}
    admission.setdefault("cluster_topologies", {})
    settings = AdmissionSettings.from_mapping({"grove_enabled": target == "grove", "operator_version": version,
                                               **admission})
    return target, namespace, version, settings, data


def render_golden(folder: Path) -> list[dict[str, Any]]:
    from dynamo_schema._pipeline._render_object import render_object

    target, namespace, version, settings, extra = golden_settings(folder)
    return render_object(_load(folder / "input.yaml"), target=target, namespace=namespace, operator_version=version,
                         settings=settings, options=extra)


def refusal_causes(exc: RenderError) -> list[dict[str, str]]:
    return sorted(({"field": d.field or "<nil>", "message": d.message} for d in exc.diagnostics
                   if d.severity == "error"), key=lambda c: (c["field"], c["message"]))


def _dump(objs: list[dict]) -> str:
    """Expected files are written Kubernetes-safe (``value: 'n'``, not ``value: n``), as render prints."""
    from dynamo_schema._io._emit import dump_all

    return dump_all(objs)


def provenance_of(folder: Path) -> dict[str, Any]:
    data = load_yaml12_documents((folder / "provenance.yaml").read_text(encoding="utf-8"))
    return data[0] if data and isinstance(data[0], dict) else {}


def operator_case(folder: Path) -> dict[str, Any] | None:
    """The operator's outputs for this golden (``provenance.yaml`` ``operator_case``), None when the
    golden is not operator-verified; raises when the file is missing from ../shared."""
    name = provenance_of(folder).get("operator_case")
    if name is None:
        return None
    path = oc.GOLDENS_DIR / str(name)
    assert path.is_file(), f"{folder.name}: {path} is missing"
    return oc.load_case(path)


CASES = _cases()
VERIFIED = [c for c in CASES if provenance_of(c).get("provenance") == "operator-verified"]


def regen_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """``DYNAMO_SCHEMA_REGEN_GOLDEN=1`` rewrites the expected files; under ``CI`` that is refused, loudly:
    a CI run that regenerated the goldens from our own output would compare the code with itself."""
    if environ.get("DYNAMO_SCHEMA_REGEN_GOLDEN") != "1":
        return False
    if environ.get("CI"):
        pytest.fail("DYNAMO_SCHEMA_REGEN_GOLDEN=1 is refused under CI: goldens are never regenerated by CI "
                    "(unset one of DYNAMO_SCHEMA_REGEN_GOLDEN / CI)", pytrace=False)
    return True


def _regenerate(folder: Path, rendered: list[dict[str, Any]] | None, refusal: list[dict[str, str]] | None) -> None:
    case = operator_case(folder) if folder in VERIFIED else None
    if case is not None:  # only the operator's objects (or causes) may be written
        expected = case["expected"]
        if refusal is not None:
            assert refusal == oc_causes(expected), f"{folder.name}: our refusal differs from the operator's"
        else:
            assert rendered is not None and oc.normalise(rendered) == operator_objects(folder, expected), (
                f"{folder.name}: our render differs from the operator's objects: fix the code, not the golden")
    if refusal is not None:
        (folder / REFUSAL).write_text(k8s_yaml.dump({"causes": refusal}), encoding="utf-8")
    elif rendered is not None:
        (folder / EXPECTED).write_text(_dump(rendered), encoding="utf-8")


def operator_objects(folder: Path, expected: dict[str, Any]) -> list[dict[str, Any]]:
    """The operator's objects under the normalisation; for target ``dcd`` only its child DCDs (what that
    target renders: the first objects the operator creates)."""
    objs = oc.expected_objects(expected)
    if golden_settings(folder)[0] == "dcd":
        objs = [o for o in objs if o.get("kind") == "DynamoComponentDeployment"]
    return objs


def oc_causes(expected: dict[str, Any]) -> list[dict[str, str]]:
    return sorted(({"field": str(c["field"]), "message": str(c["message"])} for c in expected.get("causes") or []),
                  key=lambda c: (c["field"], c["message"]))


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_project_golden(folder: Path) -> None:
    rendered: list[dict[str, Any]] | None = None
    refusal: list[dict[str, str]] | None = None
    try:
        rendered = render_golden(folder)
    except RenderError as exc:
        refusal = refusal_causes(exc)
    if regen_requested():
        _regenerate(folder, rendered, refusal)
    if (folder / REFUSAL).is_file():
        assert not (folder / EXPECTED).exists(), f"{folder.name}: a refusal golden has no {EXPECTED}"
        assert rendered is None, f"{folder.name}: render succeeded, {REFUSAL} expects a refusal"
        assert refusal == _load(folder / REFUSAL)["causes"]
        return
    assert refusal is None, f"{folder.name}: render refused: {refusal}"
    assert rendered is not None
    expected = load_yaml12_documents((folder / EXPECTED).read_text(encoding="utf-8"))
    assert [(o["kind"], o["metadata"]["name"]) for o in rendered] == [(o["kind"], o["metadata"]["name"]) for o in expected]
    assert match_manifests(expected, rendered) == []


@pytest.mark.shared
@pytest.mark.parametrize("folder", VERIFIED, ids=[c.name for c in VERIFIED])
def test_expected_is_the_operators(folder: Path) -> None:
    case = operator_case(folder)
    assert case is not None
    assert _load(folder / "input.yaml") == case["input"], f"{folder.name}: input.yaml is not the operator case's input"
    target, namespace, version, settings, _ = golden_settings(folder)
    op = case.get("settings") or {}
    assert (namespace, version, settings.grove_enabled) == (
        str(op.get("namespace", "default")), str(op.get("operatorVersion", "1.5.0")), bool(op.get("grove", True)))
    expected = case["expected"]
    if not expected["allowed"]:
        assert (folder / REFUSAL).is_file(), f"{folder.name}: the operator refuses this input; a refusal golden expected"
        assert _load(folder / REFUSAL)["causes"] == oc_causes(expected)
        return
    assert "renderError" not in expected, f"{folder.name}: the operator's reconcile fails: {expected['renderError']}"
    ours = load_yaml12_documents((folder / EXPECTED).read_text(encoding="utf-8"))
    assert oc.normalise(copy.deepcopy(ours)) == operator_objects(folder, expected)


def test_cases_present() -> None:
    assert len(CASES) == 23
    assert len(VERIFIED) == 20


@pytest.mark.parametrize("ci", ["1", "true"])
def test_regen_refused_under_ci(ci: str) -> None:
    with pytest.raises(pytest.fail.Exception, match="refused under CI"):
        regen_requested({"DYNAMO_SCHEMA_REGEN_GOLDEN": "1", "CI": ci})


def test_regen_switch_outside_ci() -> None:
    assert regen_requested({"DYNAMO_SCHEMA_REGEN_GOLDEN": "1"}) is True
    assert regen_requested({"CI": "1"}) is False
    assert regen_requested({}) is False
