"""``dynamo-schema lsp``: the language server (stdio, pygls; docs/editors.md, docs/decisions.md D47).

* diagnostics on open, save and change (debounced: ``debounceMs`` after the last change) from
  ``validate``'s pipeline (``_analysis``), each with its rule id as ``code`` and a link to the rule's
  family in docs/rules.md as ``codeDescription``;
* hover: the field's description, type, bounds, default and the release that added it (``_schemainfo``);
* completion of keys and enum values, documented;
* code actions: the did-you-mean fix of an unknown field, a waiver comment for a diagnostic's rule;
* settings from ``initializationOptions`` and ``workspace/didChangeConfiguration`` (``_settings``).

Only the ``lsp`` command imports this module (and pygls): the other commands' start-up is unchanged.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from ._analysis import UNKNOWN_FIELD, Finding, analyse
from ._settings import ServerSettings, SettingsError, read_settings

logger = logging.getLogger(__name__)

_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
             "note": T.DiagnosticSeverity.Information}
_WAIVER = "dynamo-schema: ignore"


class DynamoSchemaServer(LanguageServer):  # type: ignore[misc, unused-ignore]  # Any without pygls installed
    """The server's state: the settings, the last findings per document, the pending checks."""

    def __init__(self) -> None:
        from .._core._version import __version__

        super().__init__("dynamo-schema", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.config: ServerSettings = read_settings(None)
        self.findings: dict[str, list[Finding]] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.shut_down = False  # a shutdown request was answered
        self.exit_code = 0  # LSP exit notification: 0 after shutdown, 1 without it

    # -- settings --------------------------------------------------------------------------------
    def configure(self, raw: Any) -> bool:
        """Use the client's settings; keep the previous ones (and say why) when they are not usable."""
        try:
            self.config = read_settings(raw)
        except SettingsError as exc:
            self.window_show_message(T.ShowMessageParams(T.MessageType.Error, f"dynamo-schema: {exc}"))
            return False
        return True

    # -- diagnostics -----------------------------------------------------------------------------
    def check(self, uri: str) -> None:
        """Check the document now and publish its diagnostics."""
        try:
            doc = self.workspace.get_text_document(uri)
        except Exception:  # noqa: BLE001 - closed meanwhile
            return
        path = doc.path if uri.startswith("file:") and doc.path else "-"
        try:
            found = analyse(doc.source, path, self.config)
        except Exception as exc:
            logger.exception("checking %s failed", uri)
            self.window_log_message(T.LogMessageParams(T.MessageType.Error, f"checking {uri} failed: {exc!r}"))
            return
        self.findings[uri] = found
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, version=doc.version, diagnostics=[self.lsp_diagnostic(doc, f) for f in found]))

    def schedule(self, uri: str) -> None:
        """Check the document once no change has come for the debounce delay."""
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.pending[uri] = asyncio.ensure_future(self._later(uri))

    async def _later(self, uri: str) -> None:
        await asyncio.sleep(self.config.debounce)
        self.pending.pop(uri, None)
        self.check(uri)

    def lsp_diagnostic(self, doc: TextDocument, f: Finding) -> T.Diagnostic:
        d = f.diagnostic
        family = d.rule.split(".", 1)[0]
        data = {"suggestion": f.suggestion, "key": f.key} if f.suggestion else None
        return T.Diagnostic(
            range=_range(doc, f.start, f.end),
            message=f"{d.field}: {d.message}" if d.path else d.message,
            severity=_SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
            code=d.rule,
            code_description=T.CodeDescription(href=f"{self.config.rules_url}#{family}"),
            source="dynamo-schema",
            data=data,
        )


def _client(doc: TextDocument, pos: T.Position) -> T.Position:
    """A position in code points as the client counts it (UTF-16 units unless negotiated otherwise)."""
    return doc.position_codec.position_to_client_units(doc.lines, pos)


def _server(doc: TextDocument, pos: T.Position) -> tuple[int, int]:
    """A client's position as (line, code point) (the codec's API, the same in every pygls 2 release)."""
    p = doc.position_codec.position_from_client_units(doc.lines, pos)
    return p.line, p.character


def _text_in(doc: TextDocument, rng: T.Range) -> str:
    (l0, c0), (l1, c1) = _server(doc, rng.start), _server(doc, rng.end)
    lines = doc.lines
    if l0 != l1 or l0 >= len(lines):
        return ""
    return lines[l0][c0:c1]


def _range(doc: TextDocument, start: tuple[int, int], end: tuple[int, int]) -> T.Range:
    return T.Range(start=_client(doc, T.Position(line=start[0], character=start[1])),
                   end=_client(doc, T.Position(line=end[0], character=end[1])))


def _schema(api_version: str, kind: str, text: str) -> dict[str, Any] | None:
    from ._schemainfo import schema_for

    if not api_version and not kind:
        import re

        # a header-less InferCrane DeploymentSpec names its model or provider at the top level
        if not re.search(r"(?m)^(model|provider):", text):
            return None
    return schema_for(api_version, kind)


def hover(ls: DynamoSchemaServer, params: T.HoverParams) -> T.Hover | None:
    from ._schemainfo import hover_markdown, walk
    from ._text import path_at, tokens

    doc = ls.workspace.get_text_document(params.text_document.uri)
    line, char = _server(doc, params.position)
    found = path_at(doc.source, line, char)
    if found is None:
        return None
    path, api, kind = found
    schema = _schema(api, kind, doc.source)
    if schema is None:
        return None
    field = walk(schema, path)
    if field is None:
        return None
    key = [t for t in tokens(doc.lines[line]) if t.kind == "key" and t.col <= char]
    rng = _range(doc, (line, key[-1].col), (line, key[-1].end)) if key else None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=hover_markdown(field, kind, api)),
                   range=rng)


def completion(ls: DynamoSchemaServer, params: T.CompletionParams) -> T.CompletionList:
    from ._schemainfo import key_candidates, value_candidates
    from ._text import context_at

    doc = ls.workspace.get_text_document(params.text_document.uri)
    line, char = _server(doc, params.position)
    ctx = context_at(doc.source, line, char)
    empty = T.CompletionList(is_incomplete=False, items=[])
    if ctx is None:
        return empty
    schema = _schema(ctx.api_version, ctx.kind, doc.source)
    if schema is None:
        return empty
    if ctx.mode == "value":
        found = value_candidates(schema, ctx.path + (ctx.key,))
    else:
        found = key_candidates(schema, ctx.path, ctx.siblings) or value_candidates(schema, ctx.path)
    rng = _range(doc, (line, ctx.start), (line, char))
    items = []
    for i, c in enumerate(found):
        items.append(T.CompletionItem(
            label=c.label,
            kind=T.CompletionItemKind.Property if c.kind == "key" else T.CompletionItemKind.EnumMember,
            detail=c.detail or None,
            documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=c.documentation) if c.documentation else None,
            sort_text=f"{i:04d}",
            filter_text=c.label,
            text_edit=T.TextEdit(range=rng, new_text=c.insert or c.label),
        ))
    return T.CompletionList(is_incomplete=False, items=items)


def _finding_for(server: DynamoSchemaServer, uri: str, d: T.Diagnostic, doc: TextDocument) -> Finding | None:
    start = _server(doc, d.range.start)
    for f in server.findings.get(uri, ()):
        if f.diagnostic.rule == d.code and f.start == start:
            return f
    return None


def waiver_edit(line: str, line_no: int, rule: str) -> T.TextEdit:
    """The edit that waives ``rule`` on a line: into its waiver comment, or a new one before any comment."""
    import re

    from .._pipeline._waivers import _COMMENT

    text = line.rstrip("\r\n")
    m = re.search(_COMMENT, text)
    if m is not None:
        rules = [r.strip() for r in m.group(1).split(",") if r.strip()]
        inner_start, inner_end = m.start(1), m.end(1)
        new = ",".join(rules + [rule])
        return T.TextEdit(range=T.Range(T.Position(line_no, inner_start), T.Position(line_no, inner_end)), new_text=new)
    comment = _comment_start(text)
    if comment is None:
        end = len(text)
        return T.TextEdit(range=T.Range(T.Position(line_no, end), T.Position(line_no, end)),
                          new_text=f"  # {_WAIVER}[{rule}]")
    return T.TextEdit(range=T.Range(T.Position(line_no, comment), T.Position(line_no, comment)),
                      new_text=f"# {_WAIVER}[{rule}] ")


def _comment_start(text: str) -> int | None:
    """Where a line's comment starts (a ``#`` after a blank, outside quotes), None without one."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'" and (i == 0 or text[i - 1] in " \t:[{,-"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return i
    return None


def code_action(ls: DynamoSchemaServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    out: list[T.CodeAction] = []
    waived: set[tuple[int, str]] = set()
    for d in params.context.diagnostics:
        if d.source != "dynamo-schema" or not isinstance(d.code, str):
            continue
        finding = _finding_for(ls, uri, d, doc)
        if d.code == UNKNOWN_FIELD:
            suggestion = finding.suggestion if finding is not None else (d.data or {}).get("suggestion")
            key = finding.key if finding is not None else (d.data or {}).get("key")
            if suggestion and key and _text_in(doc, d.range) == key:
                out.append(T.CodeAction(
                    title=f'Replace "{key}" with "{suggestion}"', kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                    is_preferred=True, edit=T.WorkspaceEdit(changes={uri: [T.TextEdit(range=d.range, new_text=suggestion)]})))
        if d.code.startswith("waiver."):
            continue
        line_no = d.range.start.line
        if (line_no, d.code) in waived or line_no >= len(doc.lines):
            continue
        waived.add((line_no, d.code))
        edit = waiver_edit(doc.lines[line_no], line_no, d.code)
        edit.range = T.Range(_client(doc, edit.range.start), _client(doc, edit.range.end))
        out.append(T.CodeAction(title=f"Waive {d.code} on this line", kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                                edit=T.WorkspaceEdit(changes={uri: [edit]})))
    return out


def _initialize(ls: DynamoSchemaServer, params: T.InitializeParams) -> None:
    if params.initialization_options is not None:
        ls.configure(params.initialization_options)


def _configuration(ls: DynamoSchemaServer, params: T.DidChangeConfigurationParams) -> None:
    if params.settings is not None and ls.configure(params.settings):
        for uri in list(ls.workspace.text_documents):
            ls.check(uri)


def _open(ls: DynamoSchemaServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


async def _change(ls: DynamoSchemaServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


def _cancel(ls: DynamoSchemaServer, uri: str) -> None:
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()


def _save(ls: DynamoSchemaServer, params: T.DidSaveTextDocumentParams) -> None:
    _cancel(ls, params.text_document.uri)
    ls.check(params.text_document.uri)


def _shutdown(ls: DynamoSchemaServer, params: None = None) -> None:
    ls.shut_down = True


def _exit(ls: DynamoSchemaServer, params: None = None) -> None:
    # LSP "exit": "The server should exit with success code 0 if the shutdown request has been received
    # before; otherwise with error code 1" (pygls computes the code but its stdio loop swallows SystemExit)
    ls.exit_code = 0 if ls.shut_down else 1


def _close(ls: DynamoSchemaServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    _cancel(ls, uri)
    ls.findings.pop(uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def build_server() -> DynamoSchemaServer:
    """A server with every feature registered (handlers take the server as ``ls``, pygls' convention)."""
    server = DynamoSchemaServer()
    features: list[tuple[str, Any, Any]] = [
        (T.INITIALIZE, _initialize, None),
        (T.WORKSPACE_DID_CHANGE_CONFIGURATION, _configuration, None),
        (T.TEXT_DOCUMENT_DID_OPEN, _open, None),
        (T.TEXT_DOCUMENT_DID_CHANGE, _change, None),
        (T.TEXT_DOCUMENT_DID_SAVE, _save, None),
        (T.TEXT_DOCUMENT_DID_CLOSE, _close, None),
        (T.TEXT_DOCUMENT_HOVER, hover, None),
        (T.TEXT_DOCUMENT_COMPLETION, completion, None),
        (T.TEXT_DOCUMENT_CODE_ACTION, code_action, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix])),
        (T.SHUTDOWN, _shutdown, None),
        (T.EXIT, _exit, None),
    ]
    for name, handler, options in features:
        server.feature(name, options)(handler)
    return server


def serve() -> int:
    """Serve one client over standard input and output until it exits; the exit code (LSP ``exit``)."""
    server = build_server()
    server.start_io()
    return server.exit_code
