"""Waivers through the CLI: line comments, document comments, --ignore-rule, stale waivers, summary, --verbose."""

from __future__ import annotations

import io
import json
from pathlib import Path

from dynamo_schema._cli._main import main

TWO = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  labels:
    bad: 5   # dynamo-schema: ignore[k8s-schema.type]
data:
  a: b  # dynamo-schema: ignore[schema.unknown-field]
---
# dynamo-schema: ignore[schema.*]
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm2
data: 7
spec: {}
"""


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def test_line_and_document_waivers_and_stale_waiver(tmp_path: Path) -> None:
    p = tmp_path / "w.yaml"
    p.write_text(TWO)
    rc, out, _ = run("validate", "--summary", str(p))
    assert rc == 1
    lines = out.splitlines()
    assert lines == [
        f"{p}:8:9: ConfigMap/cm: warning: waiver ignore[schema.unknown-field] matches no diagnostic [waiver.unused]",
        # the API server's wording for a built-in kind, as for a custom resource (D50)
        f'{p}:15:1: ConfigMap/cm2: data: Invalid value: "integer": data in body must be of type object: "integer" '
        "[k8s-schema.type]",
        "Summary: 2 resources found in 1 file - Valid: 1, Invalid: 1, Errors: 0, Skipped: 0, Waived: 2",
    ]
    _, verbose, _ = run("validate", "-v", str(p))
    assert f'waived: {p}:6:5: ConfigMap/cm: metadata.labels.bad: Invalid value: "integer": metadata.labels.bad in ' \
           'body must be of type string: "integer" [k8s-schema.type]' in verbose
    assert 'unknown field "spec" [schema.unknown-field]' in verbose and "waived: " in verbose
    doc = json.loads(run("validate", "-o", "json", str(p))[1])
    assert doc["summary"]["waived"] == 2
    assert [r["status"] for r in doc["resources"]] == ["valid", "invalid"]
    assert doc["resources"][0]["waived"][0]["rule"] == "k8s-schema.type"


def test_waiver_without_it_the_same_file_fails(tmp_path: Path) -> None:
    p = tmp_path / "w.yaml"
    p.write_text(TWO.replace("# dynamo-schema: ignore[k8s-schema.type]", ""))
    rc, out, _ = run("validate", str(p))
    assert rc == 1 and 'metadata.labels.bad: Invalid value: "integer"' in out


def test_ignore_rule_option(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata: 7\n")
    assert run("validate", str(p))[0] == 1
    rc, out, _ = run("validate", "--ignore-rule", "k8s-schema.type", "--summary", str(p))
    assert rc == 0 and out.endswith("Skipped: 0, Waived: 1\n")
    assert run("validate", "--ignore-rule", "k8s-schema.*", str(p))[0] == 0
    assert run("validate", "--ignore-rule", "schema.type", str(p))[0] == 1


def test_waiver_inside_a_quoted_value_is_not_a_waiver(tmp_path: Path) -> None:
    p = tmp_path / "q.yaml"
    p.write_text('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n'
                 '  a: "x # dynamo-schema: ignore[k8s-schema.type]"\n  b: 5\n')
    rc, out, _ = run("validate", str(p))
    assert rc == 1 and "waiver.unused" not in out


def test_dynamo_placeholder_image_waiver(tmp_path: Path) -> None:
    """The common case: a template repository waives one rule on one DGD line."""
    p = tmp_path / "dgd.yaml"
    p.write_text("""\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: t
spec:
  components:
  - name: frontend
    type: bogus  # dynamo-schema: ignore[schema.enum]
""")
    rc, out, _ = run("validate", "--summary", str(p))
    # the type error is waived; CEL stays unchecked, which is said as a warning
    assert rc == 0, out
    assert out.splitlines() == [
        f"{p}:1:1: DynamoGraphDeployment/t: warning: CEL rules were not checked because of waived errors "
        "(the API server would not check them either) [cel.not-checked]",
        "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0, Waived: 1"]
    rc, out, _ = run("validate", str(p).replace("dgd.yaml", "dgd.yaml"))
    p.write_text(p.read_text().replace("  # dynamo-schema: ignore[schema.enum]", ""))
    assert run("validate", str(p))[0] == 1


def test_a_comment_waiver_of_a_rule_ignore_rule_also_waives_is_used(tmp_path: Path) -> None:
    """`--ignore-rule 'dgd.*'` and `# dynamo-schema: ignore[dgd.min-available-grove]` on the finding's line:
    both cover the diagnostic, so the comment is not stale (it was reported `waiver.unused` before, the CLI
    glob taking the diagnostic first). A comment whose rule matches nothing stays stale under the glob."""
    example = Path(__file__).resolve().parents[2] / "examples" / "rejected-admission.yaml"
    text = example.read_text().replace("      minAvailable: 1\n",
                                       "      minAvailable: 1  # dynamo-schema: ignore[dgd.min-available-grove]\n")
    p = tmp_path / "w.yaml"
    p.write_text(text)
    rc, out, _ = run("validate", "--summary", "--ignore-rule", "dgd.*", str(p))
    assert rc == 0, out
    assert out.splitlines() == [
        "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0, Waived: 2"]
    waived = json.loads(run("validate", "-o", "json", "--ignore-rule", "dgd.*", str(p))[1])["resources"][0]["waived"]
    assert sorted(w["rule"] for w in waived) == [
        "dgd.min-available-grove", "dgd.runtime-version-override-required"]
    stale = text.replace("ignore[dgd.min-available-grove]", "ignore[dgd.min-available-grove, dgd.no-such-rule]")
    p.write_text(stale)
    rc, out, _ = run("validate", "--ignore-rule", "dgd.*", str(p))
    assert rc == 0
    assert out == (f"{p}:14:24: DynamoGraphDeployment/demo: warning: waiver ignore[dgd.no-such-rule] matches no "
                   "diagnostic [waiver.unused]\n")


LIST_FLOW = """\
--- {apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: 5}, \
# dynamo-schema: ignore[k8s-schema.type]
  {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: 7}]}
"""
LIST_BLOCK = """\
--- # dynamo-schema: ignore[k8s-schema.type]
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: 5}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: 7}
"""


def test_a_list_document_waiver_covers_every_item_in_flow_style_as_in_block_style(tmp_path: Path) -> None:
    """YAML style does not change data: a waiver on a List's ``---`` line covers the same items (all of them:
    it covered only the first before) either way."""
    for name, text in (("flow.yaml", LIST_FLOW), ("block.yaml", LIST_BLOCK)):
        p = tmp_path / name
        p.write_text(text)
        doc = json.loads(run("validate", "-o", "json", str(p))[1])
        assert [(r["name"], r["status"]) for r in doc["resources"]] == [("a", "valid"), ("b", "valid")], name
        assert doc["summary"]["waived"] == 2, name


def _cm_list(header: str = "", items: tuple[str, ...] = ("", "", ""), above: tuple[str, ...] = ("", "", ""),
             data: tuple[str, ...] = ("", "", "")) -> str:
    """A List of three ConfigMaps a, b, c whose ``data`` is an integer (``k8s-schema.type``); ``header``
    is the List's ``---`` line comment, ``items`` a comment on each item's first line, ``above`` a comment
    line above each item, ``data`` a comment on each ``data:`` line."""
    out = f"---{header}\napiVersion: v1\nkind: List\nitems:\n"
    for name, first, line_above, on_data in zip("abc", items, above, data):
        out += (f"{line_above}\n" if line_above else "") + f"- apiVersion: v1{first}\n  kind: ConfigMap\n" \
               f"  metadata:\n    name: {name}\n  data: 5{on_data}\n"
    return out


def _statuses(p: Path) -> list[tuple[str, str]]:
    return [(r["name"], r["status"]) for r in json.loads(run("validate", "-o", "json", str(p))[1])["resources"]]


W = "  # dynamo-schema: ignore[k8s-schema.type]"


def test_list_waivers_on_the_list_cover_every_item_and_on_an_item_that_item(tmp_path: Path) -> None:
    """A waiver on the List document's first line (``---``, a comment line before its first key, its first
    key's line) covers every item; one on an item's first line, or on a comment line right above it, covers
    that item; one on a field's line, that line only (it covered the whole next item before)."""
    p = tmp_path / "l.yaml"
    every = [("a", "valid"), ("b", "valid"), ("c", "valid")]
    for text in (_cm_list(header=W),
                 _cm_list().replace("---\n", f"---\n{W.strip()}\n"),
                 _cm_list().replace("apiVersion: v1\nkind: List", f"apiVersion: v1{W}\nkind: List")):
        p.write_text(text)
        assert _statuses(p) == every, text
    p.write_text(_cm_list(items=("", W, "")))
    assert _statuses(p) == [("a", "invalid"), ("b", "valid"), ("c", "invalid")]
    p.write_text(_cm_list(above=("", W.strip(), "")))
    assert _statuses(p) == [("a", "invalid"), ("b", "valid"), ("c", "invalid")]
    p.write_text(_cm_list(data=(W, "", "")))
    assert _statuses(p) == [("a", "valid"), ("b", "invalid"), ("c", "invalid")]


def test_list_waivers_stay_in_their_document_and_a_stale_one_is_reported_at_its_list(tmp_path: Path) -> None:
    p = tmp_path / "l.yaml"
    after = "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\ndata: 5\n"
    p.write_text(_cm_list(header=W) + after)
    assert _statuses(p) == [("a", "valid"), ("b", "valid"), ("c", "valid"), ("d", "invalid")]
    p.write_text(_cm_list() + after.replace("---\n", f"---{W}\n"))
    assert _statuses(p) == [("a", "invalid"), ("b", "invalid"), ("c", "invalid"), ("d", "valid")]
    stale = "  # dynamo-schema: ignore[schema.unknown-field]"
    p.write_text(_cm_list(header=stale) + after)
    assert [ln for ln in run("validate", str(p))[1].splitlines() if "waiver.unused" in ln] == [
        f"{p}:1:6: ConfigMap/a: warning: waiver ignore[schema.unknown-field] matches no diagnostic [waiver.unused]"]
    p.write_text(_cm_list(above=("", "", stale.strip())) + after)
    assert [ln for ln in run("validate", str(p))[1].splitlines() if "waiver.unused" in ln] == [
        f"{p}:15:1: ConfigMap/c: warning: waiver ignore[schema.unknown-field] matches no diagnostic [waiver.unused]"]
