"""Tests written to kill surviving mutants of the CLI modules (issue 24)."""

from __future__ import annotations

import io

import pytest

from dynamo_schema._cli import _main
from dynamo_schema._cli._main import main
from dynamo_schema._cli._options import UsageError, _set_value
from dynamo_schema._core._diagnostics import DynamoSchemaError


def _raising(exc: Exception):
    def run(ns, stdout, stderr):
        raise exc
    return run


def test_error_without_diagnostics_prints_its_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library error that carries no diagnostic is still reported, as ``error: MESSAGE`` (exit 1); one
    with diagnostics prints only the diagnostic lines (docs/cli.md: errors on standard error). # mutant 62584a3b8a67"""
    monkeypatch.setitem(_main.COMMANDS, "explain", _raising(DynamoSchemaError("no such thing")))
    err = io.StringIO()
    assert main(["explain", "DynamoGraphDeployment"], stdout=io.StringIO(), stderr=err) == 1
    assert err.getvalue() == "error: no such thing\n"


def test_set_value_yaml_error_column_is_one_based() -> None:
    """In ``a: b: c`` the offending second ``:`` is the 5th character; columns are 1-based as everywhere
    in our messages (file:line:column). # mutant 02ddd5a7cba1"""
    with pytest.raises(UsageError, match=r"\(column 5\)"):
        _set_value("k", "a: b: c")


def test_summary_counts_every_kustomize_and_helm_input(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """``Summary: … found in M files`` (docs/cli.md): each --kustomize DIR and each --helm CHART is one
    input of M, added to the paths and patches. Builds are stubbed out: only the count is checked.
    # mutant 499bcf38d788"""
    from dynamo_schema._cli.commands import validate

    seen: list[int] = []
    monkeypatch.setattr(validate, "_check_helm", lambda ns: None)
    monkeypatch.setattr(validate, "_run_validate", lambda work, jobs, ns, count, *a: seen.append(count) or 0)
    (tmp_path / "k").mkdir()
    (tmp_path / "c").mkdir()
    assert main(["validate", "--kustomize", str(tmp_path / "k"), "--helm", str(tmp_path / "c")],
                stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert seen == [2]


def test_load_documents_passes_no_strict_through(tmp_path) -> None:
    """docs/cli.md ``--no-strict``: duplicate keys are warnings (last value wins), not load errors; under
    ``--strict`` (the default) they are errors. ``load_documents`` must hand ``strict=False`` on."""
    # mutant 956491cc4a1e
    from dynamo_schema._cli._common import load_documents
    from dynamo_schema._io._load import LoadError

    f = tmp_path / "dup.yaml"
    f.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n")
    [doc] = load_documents(str(f), strict=False)
    assert doc.data["metadata"]["name"] == "b"
    with pytest.raises(LoadError):
        load_documents(str(f))
