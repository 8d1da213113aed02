"""The language server through a real LSP client over stdio (pytest-lsp): diagnostics, hover, completion,
code actions and settings, on corpus files and operator-verified cases.

Expectations come from outside the server: the operator-verified cases (causes of a refusal), the CRDs of
the reference revision (a component's fields, enum values), the project's own descriptions
(tools/descriptions.yaml) and ``validate``'s output for the same file (the server must report what the
command line reports, with the same rule ids and positions).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import _yaml as k8s_yaml

from ..oracles import _operator_cases as oc
from ._client import (
    ROOT,
    SERVER,
    ClientServerConfig,
    LanguageClient,
    T,
    apply_edits,
    capabilities,
    new_uri,
    open_doc,
    pytest_lsp,
    replace_text,
    server_env,
)

pytestmark = [pytest.mark.shared, pytest.mark.asyncio(loop_scope="module")]

SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "reference" / "dynamo" / "corpus"
CRDS = SHARED / "reference" / "dynamo" / "crds"
DISAGG = CORPUS / "v1beta1" / "examples__backends__vllm__deploy__disagg.yaml"
MULTI = CORPUS / "v1beta1" / "examples__global_planner__global-planner-vllm-test.yaml"
ALPHA = CORPUS / "v1alpha1" / "deploy__utils__tests__fixtures__v1alpha1__disagg.yaml"
RULES_URL = "https://example.invalid/your-mirror/dynamo-schema/docs/rules.md"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=server_env()), scope="module")
async def client(lsp_client: LanguageClient) -> Any:
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=capabilities(), root_uri=ROOT.as_uri(),
        initialization_options={"dynamo-schema": {"debounceMs": 10}}))
    yield
    await lsp_client.shutdown_session()


def _crd_schema(kind_file: str, version: str) -> dict[str, Any]:
    crd = yaml.load((CRDS / kind_file).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return next(v for v in crd["spec"]["versions"] if v["name"] == version)["schema"]["openAPIV3Schema"]


def _descriptions() -> dict[str, dict[str, str]]:
    return yaml.safe_load((ROOT / "tools" / "descriptions.yaml").read_text(encoding="utf-8"))


def _line_of(text: str, needle: str, start: int = 0) -> int:
    for i, line in enumerate(text.splitlines()):
        if i >= start and needle in line:
            return i
    raise AssertionError(f"{needle!r} not in the text")


def _validate_json(path: Path, *args: str) -> list[tuple[int, int, str]]:
    out = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", "-o", "json", *args, str(path)],
                         capture_output=True, text=True, env=server_env(), check=False)
    report = json.loads(out.stdout)
    return sorted((e["line"] - 1, e["column"] - 1, e["rule"]) for r in report["resources"] for e in r["errors"])


def _located(diags: list[Any]) -> list[tuple[int, int, str]]:
    return sorted((d.range.start.line, d.range.start.character, d.code) for d in diags)


def _webhook_case(kind: str, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The first operator case refused by the webhook for ``kind`` (under ``settings``), where the project
    agreed with the operator when the cases were made."""
    for path in oc.case_files():
        case = oc.load_case(path)
        exp = case["expected"]
        if (path.name.endswith("-denied.yaml") and exp.get("stage") == "webhook" and case["input"]["kind"] == kind
                and not case.get("about", {}).get("knownDifferences")
                and (settings is None or case["settings"] == settings)):
            return case
    raise AssertionError(f"no webhook-refused {kind} case")


def _init_options(case_settings: dict[str, Any]) -> dict[str, Any]:
    """The case's settings (operator-cases README) as the server's settings (AdmissionSettings keys)."""
    s = oc.admission_settings(case_settings)
    return {"dynamo-schema": {"debounceMs": 10, "settings": {
        "grove_enabled": s.grove_enabled, "lws_enabled": s.lws_enabled, "checkpoint_enabled": s.checkpoint_enabled,
        "gpu_discovery_enabled": s.gpu_discovery_enabled, "inference_pool_available": s.inference_pool_available,
        "dra_enabled": s.dra_enabled, "cluster_topologies": {}}, "operatorVersion": s.operator_version}}


# -- diagnostics ------------------------------------------------------------------------------------------

async def test_typo_gets_did_you_mean_and_a_code_action_that_fixes_it(client: LanguageClient) -> None:
    text = DISAGG.read_text(encoding="utf-8")
    line = _line_of(text, "replicas:")
    typo = text.splitlines(True)
    typo[line] = typo[line].replace("replicas:", "replicaz:")
    typo_text = "".join(typo)
    uri = new_uri("typo.yaml")
    diags = await open_doc(client, uri, typo_text)
    unknown = [d for d in diags if d.code == "schema.unknown-field" and d.severity == T.DiagnosticSeverity.Error]
    assert len(unknown) == 1, [(d.code, d.message) for d in diags]
    d = unknown[0]
    col = typo[line].index("replicaz")
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (line, col, col + len("replicaz"))
    assert d.severity == T.DiagnosticSeverity.Error
    assert d.code_description.href == RULES_URL + "#schema"
    assert "replicaz" in d.message
    # the did-you-mean, in this diagnostic's message or in a note at the same key
    assert any('did you mean "replicas"' in x.message for x in diags if x.range.start == d.range.start)
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range, context=T.CodeActionContext(diagnostics=[d])))
    fixes = [a for a in actions if a.title.startswith("Replace")]
    assert [a.title for a in fixes] == ['Replace "replicaz" with "replicas"']
    fixed = apply_edits(typo_text, fixes[0].edit.changes[uri])
    assert fixed == text
    after = await replace_text(client, uri, 2, fixed)
    assert not [x for x in after if x.code == "schema.unknown-field"]


async def test_webhook_rule_violation_is_a_diagnostic_with_its_rule_id(client: LanguageClient) -> None:
    case = _webhook_case("DynamoGraphDeployment", {"grove": True})
    text = k8s_yaml.dump(case["input"])
    diags = await open_doc(client, new_uri("webhook.yaml"), text)
    errors = [d for d in diags if d.severity == T.DiagnosticSeverity.Error]
    expected = {f"{c['field']}: {c['message']}" for c in case["expected"]["causes"]}
    assert {d.message for d in errors} == expected
    for d in errors:
        family = d.code.split(".")[0]
        assert family == "dgd", d.code  # a webhook rule of the DGD webhook (docs/rules.md)
        assert d.code_description.href == f"{RULES_URL}#{family}"
        assert d.source == "dynamo-schema"


def _key_position(text: str, path: tuple[Any, ...]) -> tuple[int, int]:
    """0-based (line, column) of a key, as the loader places it."""
    from dynamo_schema._io._load import load

    doc = load(text, "x.yaml").documents[0]
    line, col = doc.positions[path]
    return line - 1, col - 1


async def test_dgdr_webhook_rule_violation_and_hover(client: LanguageClient) -> None:
    case = _webhook_case("DynamoGraphDeploymentRequest", {"grove": True})
    text = k8s_yaml.dump(case["input"])
    uri = new_uri("dgdr.yaml")
    diags = await open_doc(client, uri, text)
    expected = {f"{c['field']}: {c['message']}" for c in case["expected"]["causes"]}
    assert {d.message for d in diags if d.severity == T.DiagnosticSeverity.Error} == expected
    assert all(d.code.startswith("dgdr.") for d in diags if d.severity == T.DiagnosticSeverity.Error)
    described = _descriptions()["DynamoGraphDeploymentRequest/v1beta1"]
    spec = case["input"]["spec"]
    key = next(k for k in spec if f"spec.{k}" in described)
    line, col = _key_position(text, ("spec", key))
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col)))
    assert hover is not None and " ".join(described[f"spec.{key}"].split()) in hover.contents.value


async def test_multi_document_file_reports_what_validate_reports(client: LanguageClient) -> None:
    text = MULTI.read_text(encoding="utf-8")
    assert text.count("\n---") >= 3
    diags = await open_doc(client, new_uri("multi.yaml"), text)
    assert diags
    assert _located(diags) == _validate_json(MULTI)


async def test_v1alpha1_file_reports_what_validate_reports(client: LanguageClient) -> None:
    text = ALPHA.read_text(encoding="utf-8")
    diags = await open_doc(client, new_uri("alpha.yaml"), text)
    assert _located(diags) == _validate_json(ALPHA)


async def test_syntax_error_is_located(client: LanguageClient) -> None:
    text = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: [x\n"
    diags = await open_doc(client, new_uri("broken.yaml"), text)
    assert [d.code for d in diags] == ["load.syntax"]
    path = ROOT / ".no-such-folder-broken.yaml"
    try:
        path.write_text(text, encoding="utf-8")
        assert _located(diags) == _validate_json(path)
    finally:
        path.unlink()


async def test_deploymentspec(client: LanguageClient) -> None:
    from dynamo_schema._infercrane import _model

    example = ROOT / "examples" / "deploymentspec.yaml"
    text = example.read_text(encoding="utf-8")
    uri = new_uri("deploymentspec.yaml")
    assert await open_doc(client, uri, text) == []
    line, col = _key_position(text, ("resources", "gpu_count"))
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col + 2)))
    field = _model.Resources.model_fields["gpu_count"]
    assert hover is not None and field.description in hover.contents.value
    assert f"default `{field.default}`" in hover.contents.value
    bad = text.replace("gpu_count:", "gpu_cnt:")
    diags = await replace_text(client, uri, 2, bad)
    broken = ROOT / ".no-such-folder-ds.yaml"
    try:
        broken.write_text(bad, encoding="utf-8")
        assert diags and _located(diags) == _validate_json(broken)
    finally:
        broken.unlink()


async def test_waiver_code_action_waives_the_rule_on_its_line(client: LanguageClient) -> None:
    case = _webhook_case("DynamoGraphDeployment", {"grove": True})
    text = k8s_yaml.dump(case["input"])
    uri = new_uri("waiver.yaml")
    diags = await open_doc(client, uri, text)
    target = next(d for d in diags if d.severity == T.DiagnosticSeverity.Error)
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=target.range,
        context=T.CodeActionContext(diagnostics=[target])))
    waive = [a for a in actions if a.title == f"Waive {target.code} on this line"]
    assert len(waive) == 1
    waived = apply_edits(text, waive[0].edit.changes[uri])
    assert f"# dynamo-schema: ignore[{target.code}]" in waived.splitlines()[target.range.start.line]
    after = await replace_text(client, uri, 2, waived)
    line = target.range.start.line
    assert not [d for d in after if d.code == target.code and d.range.start.line == line]
    assert not [d for d in after if d.code == "waiver.unused"]


async def test_changes_are_debounced_to_the_last_text(client: LanguageClient) -> None:
    import asyncio

    from ._client import wait_diagnostics

    text = DISAGG.read_text(encoding="utf-8")
    uri = new_uri("debounce.yaml")
    await open_doc(client, uri, text)
    # a debounce long enough for three changes sent back to back (the module's client uses 10 ms)
    client.diagnostics.pop(uri, None)
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
        settings={"dynamo-schema": {"debounceMs": 1500}}))
    await wait_diagnostics(client, uri)  # a settings change checks the open documents again
    client.diagnostics.pop(uri, None)
    try:
        for version, key in enumerate(("replicaa", "replicab", "replicac"), start=2):
            client.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=text.replace("replicas:", key + ":", 1))]))
        diags = await wait_diagnostics(client, uri)
        unknown = [d.message.split('"')[1].rsplit(".", 1)[-1] for d in diags if d.code == "schema.unknown-field"]
        assert unknown == ["replicac"]
        client.diagnostics.pop(uri, None)
        await asyncio.sleep(2.0)
        assert uri not in client.diagnostics  # one check for the three changes
    finally:
        client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
            settings={"dynamo-schema": {"debounceMs": 10}}))
        await wait_diagnostics(client, uri)


# -- hover ------------------------------------------------------------------------------------------------

async def test_hover_on_replicas_shows_the_description(client: LanguageClient) -> None:
    text = DISAGG.read_text(encoding="utf-8")
    uri = new_uri("hover.yaml")
    await open_doc(client, uri, text)
    line = _line_of(text, "replicas:")
    col = text.splitlines()[line].index("replicas") + 3
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col)))
    assert hover is not None and hover.contents.kind == T.MarkupKind.Markdown
    value = hover.contents.value
    want = " ".join(_descriptions()["DynamoGraphDeployment/v1beta1"]["spec.components.replicas"].split())
    assert value.startswith("**replicas** `integer`")
    assert want in value
    assert "minimum `0`" in value  # the CRD's bound
    assert "added in operator 1.2" in value  # v1beta1 is served from 1.2 (crds-history/SOURCE.md)


async def test_hover_on_a_core_type_reads_kubernetes_descriptions(client: LanguageClient) -> None:
    text = DISAGG.read_text(encoding="utf-8")
    uri = new_uri("hover-core.yaml")
    await open_doc(client, uri, text)
    line = _line_of(text, "image:")
    col = text.splitlines()[line].index("image") + 1
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col)))
    assert hover is not None and "Container image name" in hover.contents.value


async def test_hover_in_a_v1alpha1_service(client: LanguageClient) -> None:
    text = ALPHA.read_text(encoding="utf-8")
    uri = new_uri("hover-alpha.yaml")
    await open_doc(client, uri, text)
    line = _line_of(text, "replicas:")
    col = text.splitlines()[line].index("replicas") + 1
    hover = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col)))
    want = " ".join(_descriptions()["DynamoGraphDeployment/v1alpha1"]["spec.services.replicas"].split())
    assert hover is not None and want in hover.contents.value


# -- completion -------------------------------------------------------------------------------------------

def _component_crd_properties() -> dict[str, Any]:
    spec = _crd_schema("nvidia.com_dynamographdeployments.yaml", "v1beta1")["properties"]["spec"]
    return spec["properties"]["components"]["items"]["properties"]


async def test_completion_in_a_component_lists_its_keys_with_documentation(client: LanguageClient) -> None:
    text = DISAGG.read_text(encoding="utf-8")
    lines = text.splitlines(True)
    comp = _line_of(text, "- name:")
    indent = lines[comp].index("-") + 2
    lines.insert(comp + 1, " " * indent + "\n")  # a new key of spec.components[0]
    typed = "".join(lines)
    uri = new_uri("complete.yaml")
    await open_doc(client, uri, typed)
    result = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=comp + 1, character=indent)))
    items = {i.label: i for i in result.items}
    written = set(yaml.safe_load(text)["spec"]["components"][0])
    assert set(items) == set(_component_crd_properties()) - written
    undocumented = [k for k, i in items.items() if not (i.documentation and i.documentation.value.strip())]
    assert undocumented == []
    assert all(i.kind == T.CompletionItemKind.Property for i in items.values())


async def test_completion_of_enum_values_offers_no_null(client: LanguageClient) -> None:
    text = DISAGG.read_text(encoding="utf-8")
    line = _line_of(text, "type:")
    lines = text.splitlines(True)
    head = lines[line][: lines[line].index("type:") + len("type: ")]
    lines[line] = head + "\n"
    uri = new_uri("enum.yaml")
    await open_doc(client, uri, "".join(lines))
    result = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=len(head))))
    crd = _component_crd_properties()["type"]["enum"]
    assert [i.label for i in result.items] == crd
    assert "null" not in [i.label for i in result.items]
    assert all(i.documentation for i in result.items)


async def test_enum_members_are_documented_one_by_one(client: LanguageClient) -> None:
    text = ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: x\nspec:\n"
            "  experimental:\n    kvTransferPolicy:\n      enforcement: \n")
    uri = new_uri("members.yaml")
    await open_doc(client, uri, text)
    result = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=7, character=19)))
    members = yaml.safe_load((ROOT / "tools" / "enum_descriptions.yaml").read_text(encoding="utf-8"))
    want = members["DynamoGraphDeployment/v1beta1"]["spec.experimental.kvTransferPolicy.enforcement"]
    assert {i.label: i.documentation.value for i in result.items} == {k: " ".join(v.split()) for k, v in want.items()}


# -- settings ---------------------------------------------------------------------------------------------

PRIORITY_CASE = "0032-dgd-k8s-priority-class-name-denied.yaml"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=server_env()), scope="module")
async def grove_off(lsp_client: LanguageClient) -> Any:
    case = oc.load_case(oc.CASES_DIR / PRIORITY_CASE)
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=capabilities(), root_uri=ROOT.as_uri(), initialization_options=_init_options(case["settings"])))
    yield
    await lsp_client.shutdown_session()


async def test_settings_from_initialization_options_and_configuration_changes(grove_off: LanguageClient) -> None:
    client = grove_off
    case = oc.load_case(oc.CASES_DIR / PRIORITY_CASE)
    assert case["settings"] == {"grove": False} and not case["about"].get("knownDifferences")
    text = k8s_yaml.dump(case["input"])
    uri = new_uri("settings.yaml")
    diags = await open_doc(client, uri, text)
    expected = {f"{c['field']}: {c['message']}" for c in case["expected"]["causes"]}
    assert {d.message for d in diags if d.severity == T.DiagnosticSeverity.Error} == expected
    rules = {d.code for d in diags if d.severity == T.DiagnosticSeverity.Error}

    # the rule waived everywhere, as --ignore-rule does
    client.diagnostics.pop(uri, None)
    options = _init_options(case["settings"])
    options["dynamo-schema"]["ignoreRules"] = sorted(rules)
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=options))
    from ._client import wait_diagnostics

    assert [d for d in await wait_diagnostics(client, uri) if d.severity == T.DiagnosticSeverity.Error] == []

    # settings the server cannot use: an error message, the previous settings kept
    client.messages.clear()
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
        settings={"dynamo-schema": {"set": ["no_such_setting=1"]}}))
    import asyncio

    for _ in range(500):
        if client.messages:
            break
        await asyncio.sleep(0.02)
    assert client.messages and client.messages[-1].type == T.MessageType.Error
    assert "no_such_setting" in client.messages[-1].message
    client.diagnostics.pop(uri, None)
    assert [d for d in await replace_text(client, uri, 2, text) if d.severity == T.DiagnosticSeverity.Error] == []
