"""Server handlers called in process (no client): the hover range and where a waiver comment goes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T
from pygls.workspace import Workspace

from dynamo_schema._lsp import _server as S

_DGD = ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: x\nspec:\n"
        "  components:\n    - name: a\n      replicas: 2\n")


def _hover(text: str, line: int, char: int) -> T.Hover | None:
    ws = Workspace(None)
    ws.put_text_document(T.TextDocumentItem(uri="file:///h.yaml", language_id="yaml", version=1, text=text))
    return S.hover(SimpleNamespace(workspace=ws), T.HoverParams(  # type: ignore[arg-type]
        text_document=T.TextDocumentIdentifier(uri="file:///h.yaml"), position=T.Position(line=line, character=char)))


@pytest.mark.parametrize("char", [6, 7, 13, 16])
def test_hover_range_is_the_key_from_its_first_character(char: int) -> None:
    """docs/cli.md (Hover on a key or its value): the hover's range is the key (``replicas`` at columns
    6-14 of line 7), with the cursor on its first character too."""  # mutant 00eed8b53a08
    hover = _hover(_DGD, 7, char)
    assert hover is not None and hover.range == T.Range(T.Position(7, 6), T.Position(7, 14))


@pytest.mark.parametrize(("line", "col"), [
    ("a: b#c # d", 7),  # YAML 1.2: a '#' not preceded by white space is part of the scalar
    ("ab: c#d #e", 8),
    ("a: b#c", None),
    ("# x", 0),
    ("a: 'x # y'", None),
])
def test_waiver_goes_before_the_yaml_comment(line: str, col: int | None) -> None:
    """docs/cli.md (Code actions): the waiver is added before the line's comment; YAML 1.2 (comments, 6.6)
    starts one only at a '#' after white space, so ``b#c`` is a scalar."""  # mutant 21de4b2ed706
    edit = S.waiver_edit(line, 3, "R-1")
    if col is None:
        assert edit.range.start == T.Position(3, len(line)) and edit.new_text == "  # dynamo-schema: ignore[R-1]"
    else:
        assert edit.range.start == T.Position(3, col) and edit.new_text == "# dynamo-schema: ignore[R-1] "
