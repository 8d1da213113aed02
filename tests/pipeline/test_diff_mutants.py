"""``_pipeline._diff``: mutants the suite left alive (issue 24)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._pipeline import _diff
from dynamo_schema._pipeline._diff import DiffInputError, diff_documents, diff_files
from tests.pipeline.test_diff import dgd, write


class _Refused(Exception):
    def __init__(self, n: int) -> None:
        super().__init__("refused")
        self.diagnostics = [Diagnostic("r", ("spec", f"f{i}"), f"bad {i}") for i in range(n)]


def test_a_render_failure_names_its_first_five_problems() -> None:
    """The same cut as the old object's problem line of ``diff_documents`` (its first five errors)."""
    # mutant 8d8e39b06154 (diags[:5] -> diags[:4])
    text = _diff._describe(_Refused(6))
    assert text.startswith("refused: ")
    assert [f"bad {i}" in text for i in range(6)] == [True] * 5 + [False]


def test_the_settings_given_decide_the_pathway_of_a_new_dgd() -> None:
    """``AdmissionSettings.grove_enabled`` is the operator's Grove gate: with it off the operator creates a
    DGD's components as DCDs/Deployments (upstream: the workload provider is chosen on create from the Grove
    gate); ``diff_documents`` must use the settings it is given, not the defaults."""
    # mutant ae036c254f98 (settings is None -> settings is not None)
    r = diff_documents(None, dgd(), settings=AdmissionSettings(grove_enabled=False))
    assert r.target == "kubernetes" and not r.problems
    kinds = {o.kind for o in r.objects}
    assert "PodCliqueSet" not in kinds and "Deployment" in kinds
    assert diff_documents(None, dgd()).target == "grove"


def test_an_old_object_the_webhook_refuses_is_reported() -> None:
    """An old DGD that passes the schema but not the operator's validating webhook (upstream
    dynamographdeployment webhook: the kube discovery-mode annotation is ``pod`` or ``container``) could not
    have been admitted: the diff says so instead of comparing renders."""
    # mutant 54a1874b3491 (old_stored is None or errors -> and)
    old = dgd()
    old["metadata"]["annotations"] = {"nvidia.com/dynamo-kube-discovery-mode": "bogus"}
    r = diff_documents(old, dgd())
    assert [d.rule for d in r.old_errors] == ["dgd.discovery-mode"]
    assert r.problems and r.problems[0].startswith("the old object is not valid")


def test_one_side_on_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: a path may be ``-`` for standard input; only both OLD and NEW on it is refused."""
    # mutant 6628fe64701b (old_path == "-" -> old_path > "-")
    a = write(tmp_path, "a.yaml", dgd())
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(Path(a).read_bytes())))
    reports = diff_files(a, "-")
    assert reports and all(not r.objects and not r.problems for r in reports)  # the same object: no change
    with pytest.raises(DiffInputError) as exc:
        diff_files("-", "-")
    assert exc.value.lines == ["error: OLD and NEW cannot both be standard input"]


def test_a_file_name_sorting_before_the_dash_is_no_standard_input(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: only the path ``-`` is standard input; a file named ``+old.yaml`` (``+`` sorts before
    ``-``) is read as a file, with NEW on standard input."""
    # mutant 8fb5b39e3feb (old_path == "-" -> old_path <= "-")
    a = write(tmp_path, "+old.yaml", dgd())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(Path(a).read_bytes())))
    reports = diff_files("+old.yaml", "-")
    assert reports and all(not r.objects and not r.problems for r in reports)
    assert {r.old_file for r in reports} == {"+old.yaml"}
