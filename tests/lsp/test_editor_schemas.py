"""The exported schemas as editors read them (docs/decisions.md D46).

* shape: every pruned-null wrapper is ``anyOf: [X, PrunedNull]`` with X's description on the wrapper, no
  ``{"type": "null"}`` branch, descriptions in Markdown (no RST double backticks);
* ``schema --with-core-descriptions`` adds the Kubernetes core types' descriptions of the installed
  kubernetes-validate, which the committed schemas never carry;
* yaml-language-server (pinned, .ci/install-oracles.sh) over LSP with our schemas: completion items of the
  Dynamo-specific fields are documented (goal: at least 95 %), ``null`` is never offered as a value, and
  a type error is not worded "integer | null".
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._core._consts import NULL_DEF, NULL_DEF_NAME, NULL_REF
from dynamo_schema._pipeline import _schemagen

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "dynamo_schema" / "_data" / "schemas"
FILES = sorted(SCHEMAS.rglob("*.json"))
MARK = _schemagen.PRUNED_NULL


def _walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def _descriptions(node: Any) -> Any:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "description" and isinstance(v, str):
                yield v
            else:
                yield from _descriptions(v)
    elif isinstance(node, list):
        for v in node:
            yield from _descriptions(v)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_wrappers_carry_the_description_and_no_null_type(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    defs = schema.get("$defs") or {}
    wrappers = [n for n in _walk(schema) if n.get(MARK)]
    for w in wrappers:
        assert w["anyOf"][1] == NULL_REF and len(w["anyOf"]) == 2, w
        inner = w["anyOf"][0]
        want = inner.get("description")
        if want is None and set(inner) == {"$ref"}:
            want = defs.get(inner["$ref"].rpartition("/")[2], {}).get("description")
        assert w.get("description") == want, w
    if wrappers:
        assert defs[NULL_DEF_NAME] == NULL_DEF
    assert not [n for n in _walk(schema) if n.get("type") == "null" or (isinstance(n.get("type"), list) and "null" in n["type"])]
    assert not [d for d in _descriptions(schema) if "``" in d]


def test_enum_members_carry_our_descriptions() -> None:
    """tools/enum_descriptions.yaml reaches the schema of every kind it names, in the enum's order."""
    import yaml

    from . import _yls

    data = yaml.safe_load((ROOT / "tools" / "enum_descriptions.yaml").read_text(encoding="utf-8"))
    assert data
    for kv, fields in data.items():
        kind, version = kv.split("/")
        root = json.loads(_yls.schema_file(kind, version).read_text(encoding="utf-8"))
        for dotted, members in fields.items():
            node = _walk_to(root, dotted.split("."))
            assert node.get("enum") and set(node["enum"]) == set(members), (kv, dotted)
            assert node.get("markdownEnumDescriptions") == [" ".join(members[v].split()) for v in node["enum"]], (kv, dotted)


def test_the_pruned_null_definition_accepts_null_only() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(NULL_DEF)
    assert v.is_valid(None)
    assert not [x for x in (0, 1.5, "", "null", [], {}, True, False) if v.is_valid(x)]



def test_a_null_is_accepted_inside_a_definition_as_at_the_root() -> None:
    """kube-apiserver prunes a non-nullable, non-defaulted null at every depth (apiextensions-apiserver
    ``defaulting.PruneNonNullableNullsWithoutDefaults`` recurses into every map and list), so the nested
    types, which the generated schema keeps in ``$defs``, accept it as the root's properties do."""
    jsonschema = pytest.importorskip("jsonschema")
    from dynamo_schema.models import _generated as g

    v = jsonschema.Draft202012Validator(_schemagen.schema_for(g.DynamoGraphDeployment, pruned_nulls=True))
    doc = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"backendFramework": None, "components": [{"name": "w", "replicas": None}]}}
    assert [e.message for e in v.iter_errors(doc)] == []
    doc["spec"]["components"][0]["replicas"] = "two"  # the wrapper adds null, nothing else
    assert not v.is_valid(doc)
    replicas = _schemagen.schema_for(g.DynamoGraphDeployment, pruned_nulls=True)["$defs"][
        "DynamoComponentDeploymentSharedSpec"]["properties"]["replicas"]
    assert replicas.get(MARK) == "pruned" and replicas["anyOf"][1] == NULL_REF


def test_markdown_descriptions_rewrite_descriptions_only() -> None:
    """The RST literals become Markdown code spans in ``description`` texts only (D46): a string under another
    key is data (a default the API server writes, an enum value, a pattern) and is kept byte for byte, also
    when it sorts before "description" or contains double backticks."""
    node = {"description": "set ``replicas``", "default": "``a``", "const": "``b``", "$comment": "``c``",
            "properties": {"x": {"description": "``y`` too", "enum": ["``e``"], "pattern": "``p``"}}}
    assert _schemagen.markdown_descriptions(node) == {
        "description": "set `replicas`", "default": "``a``", "const": "``b``", "$comment": "``c``",
        "properties": {"x": {"description": "`y` too", "enum": ["``e``"], "pattern": "``p``"}}}

def test_core_descriptions_only_when_asked(tmp_path: Path) -> None:
    from dynamo_schema._schema import _explain

    defs = _explain._k8s_defs()
    assert defs, "kubernetes-validate's schemas are a dependency"
    k8s_texts = {" ".join(d.split()) for d in _descriptions(defs) if len(d) > 40}
    committed = {" ".join(d.split()) for f in FILES for d in _descriptions(json.loads(f.read_text(encoding="utf-8")))}
    assert committed & k8s_texts == set()  # no copied text in the committed schemas
    rich = _schemagen.generate_all(core_descriptions=True)
    dgd = rich["nvidia.com/dynamographdeployment_v1beta1.json"]
    comp = dgd["$defs"]["DynamoComponentDeploymentSharedSpec"]["properties"]
    want = " ".join(defs["io.k8s.api.core.v1.PodTemplateSpec"]["description"].split())
    assert comp["podTemplate"]["description"] == want
    container = dgd["$defs"]["Container"]["properties"]["image"]
    assert container["description"] == " ".join(defs["io.k8s.api.core.v1.Container"]["properties"]["image"]["description"].split())
    # Dynamo's own descriptions are kept as they are
    assert comp["replicas"]["description"].startswith("Number of pods wanted for this component")


def test_schema_command_with_core_descriptions(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "dynamo_schema", "schema", "--out", str(tmp_path),
                          "--with-core-descriptions"], capture_output=True, text=True, env=env, check=True)
    written = out.stdout.split()
    assert len(written) == len(FILES)
    dgd = json.loads((tmp_path / "nvidia.com" / "dynamographdeployment_v1beta1.json").read_text(encoding="utf-8"))
    assert dgd["$defs"]["DynamoComponentDeploymentSharedSpec"]["properties"]["podTemplate"].get("description")


# -- yaml-language-server -------------------------------------------------------------------------

@pytest.mark.needs("node", "yaml-language-server")
def test_yaml_language_server_documents_dynamo_fields_and_offers_no_null() -> None:
    if not os.environ.get("CI"):  # the test extra installs pytest-lsp; CI must have it
        pytest.importorskip("pytest_lsp")
    import asyncio
    import shutil

    from . import _yls

    async def run() -> dict[str, Any]:
        fields: dict[tuple[str, str], bool] = {}
        values: dict[tuple[str, str], list[str]] = {}
        member_docs: dict[tuple[str, str], list[Any]] = {}
        async with _yls.Client([str(shutil.which("yaml-language-server")), "--stdio"]) as yls:
            for kv, paths in sorted(_yls.described_paths().items()):
                kind, version = kv.split("/")
                root = json.loads(_yls.schema_file(kind, version).read_text(encoding="utf-8"))
                by_container: dict[tuple[tuple[str, str], ...], list[str]] = {}
                leaf_shape: dict[str, str] = {}
                for dotted in paths:
                    steps = _yls._steps(root, dotted)
                    assert steps is not None, (kv, dotted)
                    by_container.setdefault(tuple(steps[:-1]), []).append(steps[-1][0])
                    leaf_shape[dotted] = steps[-1][1]
                for container, names in by_container.items():
                    text, line, col = _yls.document(kind, version, list(container))
                    uri = yls.open(text)
                    items = {i.label: i for i in await yls.complete(uri, line, col)}
                    prefix = ".".join(n for n, _ in container)
                    for name in names:
                        fields[(kv, f"{prefix}.{name}" if prefix else name)] = name in items and _yls.documented(items[name])
                        node = _walk_to(root, [n for n, _ in container] + [name])
                        if node.get("enum") or node.get("type") == "boolean":
                            vtext = text.rstrip("\n") + f"{name}: \n"  # the cursor after ``name: ``
                            vuri = yls.open(vtext)
                            offered = await yls.complete(vuri, line, col + len(name) + 2)
                            values[(kv, f"{prefix}.{name}")] = [i.label for i in offered]
                            if node.get("markdownEnumDescriptions"):
                                docs = {i.label: i.documentation for i in offered}
                                member_docs[(kv, f"{prefix}.{name}")] = [
                                    getattr(docs.get(v), "value", docs.get(v)) for v in node["enum"]]
            text, _, _ = _yls.document("DynamoGraphDeployment", "v1beta1", [("spec", "object"), ("components", "list")])
            uri = yls.open(text.rstrip("\n") + "name: w\n      replicas: abc\n")
            messages = [d.message for d in await yls.diagnostics(uri)]
        return {"fields": fields, "values": values, "messages": messages, "member_docs": member_docs}

    out = asyncio.run(run())
    fields, values = out["fields"], out["values"]
    assert len(fields) > 300
    documented = sum(fields.values())
    missing = sorted(k for k, ok in fields.items() if not ok)
    assert documented / len(fields) >= 0.95, (documented, len(fields), missing[:20])
    assert len(values) > 20
    assert not {k: v for k, v in values.items() if "null" in v}
    assert not {k: v for k, v in values.items() if not v}, "value completion offered nothing"
    assert any('Expected "integer"' in m for m in out["messages"]), out["messages"]
    assert not [m for m in out["messages"] if "null" in m]
    # the members upstream documents one by one: our description next to each value
    assert out["member_docs"]
    for (kv, dotted), docs in out["member_docs"].items():
        kind, version = kv.split("/")
        root = json.loads(_yls.schema_file(kind, version).read_text(encoding="utf-8"))
        assert docs == _walk_to(root, dotted.split("."))["markdownEnumDescriptions"], (kv, dotted)


def _walk_to(root: dict[str, Any], names: list[str]) -> dict[str, Any]:
    from dynamo_schema._schema._schemas import resolve

    node = resolve(root, root)
    for name in names:
        node = resolve(root, (node.get("properties") or {})[name])
        for _ in range(4):
            if node.get("type") == "array" and isinstance(node.get("items"), dict) and name != names[-1]:
                node = resolve(root, node["items"])
            elif "properties" not in node and isinstance(node.get("additionalProperties"), dict) and name != names[-1]:
                node = resolve(root, node["additionalProperties"])
            else:
                break
    return node
