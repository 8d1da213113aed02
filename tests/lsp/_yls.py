"""yaml-language-server (the YAML server of VS Code, Neovim, Helix…) over LSP against our exported schemas:
what an editor shows for the Dynamo fields. Used by tests/lsp/test_editor_schemas.py.

The Dynamo-specific fields are those tools/descriptions.yaml describes ("the Dynamo-specific fields, in this
project's own words"): for each, a document is written that reaches the mapping holding it (list items and
map values made up on the way), and completion is asked at a new key of that mapping; the value of each
enum or boolean field is completed too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "dynamo_schema" / "_data" / "schemas"


def described_paths() -> dict[str, list[str]]:
    """``{"Kind/version": [dotted paths]}`` of tools/descriptions.yaml, the nvidia.com kinds."""
    data = yaml.safe_load((ROOT / "tools" / "descriptions.yaml").read_text(encoding="utf-8"))
    from dynamo_schema._schema import _schemas

    out = {}
    for kv, fields in data.items():
        kind, version = kv.split("/")
        if ("nvidia.com/" + version, kind) in _schemas.KNOWN:
            out[kv] = list(fields)
    return out


def schema_file(kind: str, version: str) -> Path:
    from dynamo_schema._schema import _schemas

    return SCHEMAS / _schemas.KNOWN[("nvidia.com/" + version, kind)]


def _steps(root: dict[str, Any], dotted: str) -> list[tuple[str, str]] | None:
    """The path as written in a document: (key, what its value is: object | list | map | leaf)."""
    from dynamo_schema._schema._schemas import resolve

    node = resolve(root, root)
    out: list[tuple[str, str]] = []
    for name in dotted.split("."):
        props = node.get("properties") or {} if isinstance(node, dict) else {}
        if name not in props:
            return None
        node = resolve(root, props[name])
        shape = "leaf"
        for _ in range(4):
            if not isinstance(node, dict):
                break
            if node.get("type") == "array" and isinstance(node.get("items"), dict):
                shape = "list" if shape == "leaf" else shape + "+list"
                node = resolve(root, node["items"])
            elif "properties" not in node and isinstance(node.get("additionalProperties"), dict):
                shape = "map" if shape == "leaf" else shape + "+map"
                node = resolve(root, node["additionalProperties"])
            else:
                break
        if shape == "leaf" and isinstance(node, dict) and "properties" in node:
            shape = "object"
        out.append((name, shape))
    return out


def document(kind: str, version: str, steps: list[tuple[str, str]]) -> tuple[str, int, int]:
    """A document whose last line is an empty key position inside the mapping ``steps`` reach (the last
    step's value); returns (text, cursor line, cursor column)."""
    uri = schema_file(kind, version).as_uri()
    lines = [f"# yaml-language-server: $schema={uri}", f"apiVersion: nvidia.com/{version}", f"kind: {kind}",
             "metadata:", "  name: x"]
    indent = 0
    dash = False  # the next key opens a list item
    for name, shape in steps:
        lines.append((" " * (indent - 2) + "- " if dash else " " * indent) + f"{name}:")
        dash = False
        indent += 2
        for part in shape.split("+"):
            if part == "list":
                indent += 2
                dash = True
            elif part == "map":
                lines.append(" " * indent + "entry:")
                indent += 2
    lines.append(" " * (indent - 2) + "- " if dash else " " * indent)
    return "\n".join(lines) + "\n", len(lines) - 1, indent


class Client:
    """A pytest-lsp client driving ``yaml-language-server --stdio``."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.client: Any = None
        self.n = 0

    async def __aenter__(self) -> Client:
        from lsprotocol import types as T
        from pytest_lsp import client_capabilities
        from pytest_lsp.client import make_test_lsp_client

        self.client = make_test_lsp_client()
        await self.client.start_io(*self.command)
        settings = {"validate": True, "hover": True, "completion": True, "schemaStore": {"enable": False}}
        self.client.set_configuration(settings, section="yaml")
        await self.client.initialize_session(T.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
        self.client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings={"yaml": settings}))
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.client.shutdown_session()
        await self.client.stop()

    def open(self, text: str) -> str:
        from lsprotocol import types as T

        self.n += 1
        uri = (ROOT / ".no-such-folder" / f"yls-{self.n:04d}.yaml").as_uri()
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    async def complete(self, uri: str, line: int, col: int) -> list[Any]:
        from lsprotocol import types as T

        result = await self.client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col)))
        if result is None:
            return []
        return list(result.items if hasattr(result, "items") else result)

    async def diagnostics(self, uri: str, timeout: float = 20.0) -> list[Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while uri not in self.client.diagnostics and loop.time() < deadline:
            await asyncio.sleep(0.05)
        return list(self.client.diagnostics.get(uri, []))


def documented(item: Any) -> bool:
    doc = item.documentation
    value = doc.value if hasattr(doc, "value") else doc
    return bool(value and str(value).strip())


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=1, default=str)
