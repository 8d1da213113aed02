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
