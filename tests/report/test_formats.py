"""Reporters: exact text lines (cli.md contract; kubeconform's summary wording from
yannh/kubeconform pkg/output/text.go), JSON keys (cli.md), JUnit structure, GitHub escaping
(actions/toolkit: data escapes %, CR, LF; properties also ':' and ',')."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from dynamo_schema._core._diagnostics import Diagnostic
from dynamo_schema._report import FORMATS, REPORTERS, Reporter, ResourceResult, make, summary_line


def render_text(results: list[ResourceResult], summary: bool = False, files_count: int = 0,
                stdin: bool = False) -> str:
    return make("text", summary=summary, files_count=files_count, stdin=stdin).render(results)


def render_json(results: list[ResourceResult]) -> str:
    return make("json").render(results)


def render_junit(results: list[ResourceResult]) -> str:
    return make("junit").render(results)


def render_github(results: list[ResourceResult]) -> str:
    return make("github").render(results)

E1 = Diagnostic("cel.replicas", ("spec", "components", 0, "replicas"),
                "Invalid value: 3: minAvailable must be less than or equal to replicas unless replicas is 0",
                "error", "dgd.yaml", 12, 7)
W1 = Diagnostic("load.duplicate-key", ("metadata", "labels", "app.kubernetes.io/name"),
                'key "app.kubernetes.io/name" already set in map', "warning", "dgd.yaml", 5, 5)
N1 = Diagnostic("schema.pruned", ("spec", "x"), "pruned null", "note", "dgd.yaml", 20, 3)
L1 = Diagnostic("load.syntax", (), "did not find expected ',' or ']'", "error", "bad.yaml", 3, 2)


def results() -> list[ResourceResult]:
    return [
        ResourceResult("dgd.yaml", "DynamoGraphDeployment", "vllm-agg", "nvidia.com/v1beta1", "invalid",
                       [W1, E1, N1]),
        ResourceResult("dgd.yaml", "ConfigMap", "cfg", "v1", "valid", []),
        ResourceResult("bad.yaml", "", "", "", "error", [L1]),
        ResourceResult("other.yaml", "Widget", "w", "example.com/v1", "skipped", []),
    ]


def test_text_lines_exact() -> None:
    assert render_text(results(), summary=False, files_count=3) == (
        "dgd.yaml:5:5: DynamoGraphDeployment/vllm-agg: metadata.labels[app.kubernetes.io/name]: "
        'warning: key "app.kubernetes.io/name" already set in map [load.duplicate-key]\n'
        "dgd.yaml:12:7: DynamoGraphDeployment/vllm-agg: spec.components[0].replicas: Invalid value: 3: "
        "minAvailable must be less than or equal to replicas unless replicas is 0 [cel.replicas]\n"
        "bad.yaml:3:2: did not find expected ',' or ']' [load.syntax]\n"
    )


def test_text_summary_plural() -> None:
    last = render_text(results(), summary=True, files_count=3).splitlines()[-1]
    assert last == "Summary: 4 resources found in 3 files - Valid: 1, Invalid: 1, Errors: 1, Skipped: 1"


def test_text_summary_singular_only_for_one() -> None:
    # kubeconform says "0 resource found in 0 file"; we pluralise every count but 1 (D50)
    one = [ResourceResult("a.yaml", "ConfigMap", "c", "v1", "valid", [])]
    assert render_text(one, summary=True, files_count=1) == (
        "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n")
    assert render_text([], summary=True, files_count=0) == (
        "Summary: 0 resources found in 0 files - Valid: 0, Invalid: 0, Errors: 0, Skipped: 0\n")
    assert render_text(one, summary=True, files_count=1, stdin=True) == (
        "Summary: 1 resource found parsing stdin - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n")


def test_text_failure_without_diagnostics_is_not_silent() -> None:
    r = [ResourceResult("a.yaml", "X", "y", "v1", "invalid", [])]
    assert render_text(r) == "a.yaml: X/y: resource is invalid\n"


def test_json_structure() -> None:
    doc = json.loads(render_json(results()))
    assert list(doc) == ["resources", "summary"]
    assert doc["summary"] == {"valid": 1, "invalid": 1, "errors": 1, "skipped": 1, "waived": 0}
    first = doc["resources"][0]
    assert list(first) == ["filename", "kind", "name", "version", "apiVersion", "status", "errors"]
    assert first["status"] == "invalid"
    assert first["errors"][1] == {
        "rule": "cel.replicas", "path": "spec.components[0].replicas", "line": 12, "column": 7,
        "message": E1.message, "severity": "error"}
    assert [e["severity"] for e in first["errors"]] == ["warning", "error", "note"]
    assert [r["status"] for r in doc["resources"]] == ["invalid", "valid", "error", "skipped"]
    assert doc["resources"][3]["reason"] == "no schema for this kind"


def test_junit_structure() -> None:
    root = ET.fromstring(render_junit(results()))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "4", "1", "1", "1")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["dgd.yaml", "bad.yaml", "other.yaml"]
    cases = suites[0].findall("testcase")
    assert [c.get("name") for c in cases] == ["DynamoGraphDeployment/vllm-agg", "ConfigMap/cfg"]
    failure = cases[0].find("failure")
    assert failure is not None and failure.get("message") == E1.message
    assert "[cel.replicas]" in (failure.text or "")
    assert cases[1].find("failure") is None and cases[1].find("error") is None
    err = suites[1].find("testcase/error")
    assert err is not None and err.get("message") == "did not find expected ',' or ']'"
    assert suites[2].find("testcase/skipped") is not None


def test_junit_escapes_markup() -> None:
    d = Diagnostic("x.y", ("a",), 'bad <value> & "quotes"', "error", "f.yaml", 1, 1)
    out = render_junit([ResourceResult("f.yaml", "K", "n", "v1", "invalid", [d])])
    case = ET.fromstring(out).find("testsuite/testcase/failure")
    assert case is not None and case.get("message") == 'bad <value> & "quotes"'


def test_github_commands_and_escaping() -> None:
    assert render_github(results()) == (
        "::warning file=dgd.yaml,line=5,col=5::DynamoGraphDeployment/vllm-agg: "
        'metadata.labels[app.kubernetes.io/name]: key "app.kubernetes.io/name" already set in map '
        "[load.duplicate-key]\n"
        "::error file=dgd.yaml,line=12,col=7::DynamoGraphDeployment/vllm-agg: spec.components[0].replicas: "
        "Invalid value: 3: minAvailable must be less than or equal to replicas unless replicas is 0 "
        "[cel.replicas]\n"
        "::error file=bad.yaml,line=3,col=2::did not find expected ',' or ']' [load.syntax]\n"
    )
    d = Diagnostic("r", (), "100% bad\r\nnext", "error", "dir,x/a:b.yaml", 1, 2)
    assert render_github([ResourceResult("dir,x/a:b.yaml", "", "", "", "error", [d])]) == (
        "::error file=dir%2Cx/a%3Ab.yaml,line=1,col=2::100%25 bad%0D%0Anext [r]\n")


def test_one_registry_one_shape() -> None:
    """Every ``--output`` choice is a module of ``_report/`` with one Reporter subclass, named after it."""
    assert FORMATS == ("text", "json", "junit", "github", "sarif", "tap")
    for fmt in FORMATS:
        reporter = make(fmt)
        assert isinstance(reporter, Reporter) and type(reporter) is not Reporter and reporter.name == fmt
        assert REPORTERS[fmt][0] == f"._{fmt}"
        assert reporter.streams == (fmt in ("text", "github", "tap"))


def test_one_summary_line_in_every_format() -> None:
    """The summary line is written once (``_report/_summary.py``) and every format carries that text."""
    rs = results()
    line = summary_line(rs, 3)
    assert line == "Summary: 4 resources found in 3 files - Valid: 1, Invalid: 1, Errors: 1, Skipped: 1"
    waived = [rs[0]._replace(waived=[E1]), *rs[1:]]
    assert summary_line(waived, 3).endswith(", Skipped: 1, Waived: 1")
    for fmt in FORMATS:
        if fmt == "json":  # its summary is the counts object, always there (cli.md)
            continue
        out = make(fmt, summary=True, files_count=3).render(rs)
        assert out.count(line) == 1, fmt
        assert line not in make(fmt, summary=False, files_count=3).render(rs), fmt


def test_diff_words_every_impact() -> None:
    """``diff``'s text names every impact ``_pipeline/_diff_impact`` decides, and only those."""
    from dynamo_schema._pipeline import _diff_impact
    from dynamo_schema._report._diff import IMPACT_TEXT

    impacts = {v for k, v in vars(_diff_impact).items() if k.startswith("IMPACT_")}
    assert set(IMPACT_TEXT) == impacts


def test_tap_failure_line_carries_the_first_error_not_a_warning() -> None:
    """kubeconform's TAP ``not ok`` line names the resource's error; a warning printed before it is only a ``#`` line."""
    lines = make("tap").render(results()[:1]).splitlines()
    assert lines[1].startswith("not ok 1 - dgd.yaml ") and lines[1].endswith(": " + E1.message), lines[1]
    assert lines[2].startswith("# ") and W1.message in lines[2]


def test_sarif_levels_follow_the_severity() -> None:
    """SARIF 2.1.0 ``result.level`` is ``error`` for an error, ``warning`` for a warning, ``note`` below (a waived note)."""
    run = json.loads(make("sarif").render(results()[:1]))["runs"][0]
    assert [(r["ruleId"], r["level"]) for r in run["results"]] == [
        ("load.duplicate-key", "warning"), ("cel.replicas", "error")]
    waived = json.loads(make("sarif").render([results()[0]._replace(diagnostics=[E1], waived=[W1, N1])]))
    assert [(r["ruleId"], r["level"], "suppressions" in r) for r in waived["runs"][0]["results"]] == [
        ("cel.replicas", "error", False), ("load.duplicate-key", "warning", True), ("schema.pruned", "note", True)]


def test_cel_not_checked_folds_into_the_first_error_only() -> None:
    """docs/cli.md "validate: output": the ``cel.not-checked`` note is appended to the first schema error of the
    resource and json keeps it with severity ``note``; the resource's other errors are printed as they are."""
    from dynamo_schema._report import CEL_NOTE, prepare

    first = Diagnostic("schema.enum", ("spec", "components", 0, "type"), 'Unsupported value: "bogus"', "error",
                       "dgd.yaml", 8, 11)
    second = Diagnostic("schema.type", ("spec", "components", 1, "replicas"), "Invalid value: \"x\"", "error",
                        "dgd.yaml", 11, 15)
    cel = Diagnostic("cel.not-checked", (), "CEL rules were not checked", "error", "dgd.yaml")
    r = ResourceResult("dgd.yaml", "DynamoGraphDeployment", "g", "nvidia.com/v1beta1", "invalid",
                       [first, second, W1, cel])
    got = prepare(r).diagnostics
    assert [(d.rule, d.severity) for d in got] == [
        ("load.duplicate-key", "warning"), ("schema.enum", "error"), ("schema.type", "error"), ("cel.not-checked", "note")]
    assert got[1].message == f'{first.message} (note: {CEL_NOTE})'
    assert got[2] == second and got[0] == W1


def test_two_diagnostics_out_of_order_are_sorted_by_position() -> None:
    """docs/cli.md "validate: output": the lines of one resource are printed sorted by file, line and column;
    two diagnostics given line 12 before line 5 are swapped (the sortedness check compares neighbours).
    # mutant ad99c5d28a8f"""
    from dynamo_schema._report import prepare

    r = ResourceResult("dgd.yaml", "DynamoGraphDeployment", "g", "nvidia.com/v1beta1", "invalid", [E1, W1])
    assert prepare(r).diagnostics == [W1, E1]


def test_junit_failure_message_counts_the_other_errors() -> None:
    """The junit ``<failure message>`` is the first error's message, with `` (and N more)`` when the resource
    has N further errors (ours by design: the junit reporter; warnings do not count). # mutants 83ac95fc9fc9
    170513c81fd7"""
    e2 = E1._replace(rule="schema.type", message="second", line=13)
    e3 = E1._replace(rule="schema.type", message="third", line=14)
    r = ResourceResult("dgd.yaml", "DynamoGraphDeployment", "g", "nvidia.com/v1beta1", "invalid", [W1, E1, e2, e3])
    failure = ET.fromstring(render_junit([r])).find("testsuite/testcase/failure")
    assert failure is not None and failure.get("message") == f"{E1.message} (and 2 more)"
    one = ET.fromstring(render_junit([r._replace(diagnostics=[W1, E1])])).find("testsuite/testcase/failure")
    assert one is not None and one.get("message") == E1.message


def test_sarif_rule_default_level_by_family() -> None:
    """SARIF ``defaultConfiguration.level``: ``waiver.*`` is a warning (docs/rules.md "waiver", _waivers.py),
    ``policy.*`` a note (docs/rules.md: skipped kinds are notes), every other family an error.
    # mutant 5dea648d5552"""
    from dynamo_schema._report._rules import help_for

    assert [help_for(r).level for r in ("waiver.unused", "policy.skipped-kind", "cel.replicas", "schema.type",
                                        "load.syntax")] == ["warning", "note", "error", "error", "error"]
