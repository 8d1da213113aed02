"""Helpers of the language-server tests: a pytest-lsp client talking to ``python -m dynamo_schema lsp`` over
stdio, and the waits for the server's diagnostics."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
IN_CI = bool(os.environ.get("CI"))
SERVER = [sys.executable, "-m", "dynamo_schema", "lsp"]

try:  # the test extra installs them; the test modules import them from here, after this check
    import pytest_lsp
    from lsprotocol import types as T
    from pytest_lsp import ClientServerConfig, LanguageClient
except ImportError:  # pragma: no cover - a developer without the test extra
    if IN_CI:
        raise
    pytest.skip("pytest-lsp is not installed (pip install -e '.[test]')", allow_module_level=True)

__all__ = ["ClientServerConfig", "LanguageClient", "T", "pytest_lsp"]


def server_env() -> dict[str, str]:
    """The server runs this checkout's package, whatever the installed one is."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def capabilities() -> Any:
    from pytest_lsp import client_capabilities

    return client_capabilities("visual-studio-code")


_counter = [0]


def new_uri(name: str = "doc.yaml") -> str:
    """A fresh document URI (each test its own document), under a folder that does not exist on disk."""
    _counter[0] += 1
    return (ROOT / ".no-such-folder" / f"{_counter[0]:03d}-{name}").as_uri()


async def wait_diagnostics(client: Any, uri: str, timeout: float = 30.0) -> list[Any]:
    """The diagnostics the server publishes next for ``uri`` (call after clearing them)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while uri not in client.diagnostics:
        if loop.time() > deadline:
            raise AssertionError(f"no diagnostics for {uri} within {timeout} s")
        await asyncio.sleep(0.02)
    return list(client.diagnostics[uri])


async def open_doc(client: Any, uri: str, text: str) -> list[Any]:
    from lsprotocol import types as T

    client.diagnostics.pop(uri, None)
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    return await wait_diagnostics(client, uri)


async def replace_text(client: Any, uri: str, version: int, text: str) -> list[Any]:
    """The whole buffer replaced (one change), then the diagnostics published for it."""
    from lsprotocol import types as T

    client.diagnostics.pop(uri, None)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
    return await wait_diagnostics(client, uri)


def apply_edits(text: str, edits: list[Any]) -> str:
    """``text`` with LSP ``TextEdit``s applied (positions in UTF-16 units; the tests' texts are ASCII)."""
    lines = text.splitlines(True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(p: Any) -> int:
        return offsets[p.line] + p.character if p.line < len(lines) else len(text)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text
