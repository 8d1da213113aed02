"""Where the cursor is, read from the lines of a buffer that may not parse (``_lsp/_text.py``).

Where the buffer parses, the path the text gives must be the one the loader gives (``Document.positions``:
the path of every key, by its line and column); the half-typed cases are checked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dynamo_schema._io._load import load
from dynamo_schema._lsp._text import Token, context_at, path_at, tokens

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"

TEXT = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: x
spec:
  components:
    - name: w
      type: worker
      podTemplate:
        spec:
          containers:
            - name: main
              args:
                - --a
              command: |
                python -m x
                foo: bar

    - name: f
      rep
  backendFramework: vllm
---
# a second document
kind: DynamoComponentDeployment
apiVersion: nvidia.com/v1beta1
spec:
  envs:
  - name: A
    value: "1"
  - name: B
"""
LINES = TEXT.splitlines()


def _at(needle: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(LINES) if i >= after and needle in line)


def test_key_being_typed_in_a_list_item() -> None:
    line = _at("      rep")
    ctx = context_at(TEXT, line, len(LINES[line]))
    assert ctx is not None
    assert (ctx.path, ctx.mode, ctx.prefix, ctx.start) == (("spec", "components", 1), "key", "rep", 6)
    assert ctx.siblings == {"name"}
    assert (ctx.api_version, ctx.kind) == ("nvidia.com/v1beta1", "DynamoGraphDeployment")


def test_blank_line_after_a_block_scalar_is_a_key_of_the_container() -> None:
    line = _at("foo: bar") + 1
    assert LINES[line] == ""
    ctx = context_at(TEXT, line, 14)
    assert ctx is not None and ctx.path == ("spec", "components", 0, "podTemplate", "spec", "containers", 0)
    assert ctx.siblings == {"name", "args", "command"}


def test_inside_a_block_scalar_nothing_is_offered() -> None:
    line = _at("foo: bar")
    assert context_at(TEXT, line, len(LINES[line])) is None
    assert path_at(TEXT, line, 17) is None


def test_value_after_a_colon() -> None:
    line = _at("type: worker")
    ctx = context_at(TEXT, line, len("      type: "))
    assert ctx is not None and (ctx.path, ctx.mode, ctx.key, ctx.start) == (("spec", "components", 0), "value", "type", 12)


def test_second_document_has_its_own_header_and_compact_sequences() -> None:
    line = _at("  - name: B")
    ctx = context_at(TEXT + "    \n", line + 1, 4)
    assert ctx is not None
    assert ctx.path == ("spec", "envs", 1)
    assert (ctx.api_version, ctx.kind) == ("nvidia.com/v1beta1", "DynamoComponentDeployment")
    assert ctx.siblings == {"name"}


def test_comment_and_separator_lines_offer_nothing() -> None:
    assert context_at(TEXT, _at("---"), 0) is None
    assert context_at(TEXT, _at("# a second"), 5) is None


def _key_paths(text: str) -> list[tuple[tuple[object, ...], int, int]]:
    result = load(text, "x.yaml")
    out = []
    for doc in result.documents:
        for path, (line, col) in doc.positions.items():
            if path and isinstance(path[-1], str):
                out.append((path, line - 1, col - 1))
    return out


def test_hover_paths_agree_with_the_loader_on_the_sample() -> None:
    text = TEXT.replace("      rep\n", "")
    paths = _key_paths(text)
    assert len(paths) > 20
    for path, line, col in paths:
        found = path_at(text, line, col + 1)
        assert found is not None and found[0] == path, (path, line, col)


@pytest.mark.shared
@pytest.mark.parametrize("folder", ["v1beta1", "v1alpha1"])
def test_hover_paths_agree_with_the_loader_on_the_corpus(folder: str) -> None:
    files = sorted((SHARED / "reference" / "dynamo" / "corpus" / folder).glob("*.yaml"))
    assert files
    checked = 0
    for f in files:
        text = f.read_text(encoding="utf-8")
        # a key written once may stand at several paths (an alias repeats its anchor's node)
        at: dict[tuple[int, int], set[tuple[object, ...]]] = {}
        for path, line, col in _key_paths(text):
            at.setdefault((line, col), set()).add(path)
        for (line, col), paths in at.items():
            if "{" in text.splitlines()[line][:col]:
                continue  # a key inside a flow mapping: the text reader reads block structure only
            found = path_at(text, line, col + 1)
            assert found is not None and found[0] in paths, (f.name, sorted(map(str, paths)), line + 1, col + 1)
            checked += 1
    assert checked > 1000


def test_a_key_at_the_block_scalars_own_indentation_ends_it() -> None:
    """YAML 1.2 §8.1.1.1: a block scalar's content is indented more than its key; a line at the key's
    own column is the next key, not content."""
    text = ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nspec:\n  components:\n"
            "    - name: w\n      command: |\n        python -m x\n      rep\n")
    lines = text.splitlines()
    line = lines.index("      rep")
    ctx = context_at(text, line, len(lines[line]))
    assert ctx is not None
    assert (ctx.path, ctx.mode, ctx.prefix) == (("spec", "components", 0), "key", "rep")
    assert context_at(text, line - 1, len(lines[line - 1])) is None  # the content line itself


@pytest.mark.parametrize(("raw", "name"), [
    ('"a\\u0062"', "ab"),  # double-quoted: JSON-style escapes
    ("'it''s'", "it's"),  # single-quoted: '' is one quote
    ('"ab', '"ab'), ("'ab", "'ab"), ('"', '"'), ("ab\"", "ab\""),  # not closed: the text as typed
])
def test_quoted_key_names(raw: str, name: str) -> None:
    from dynamo_schema._lsp._text import _unquote

    assert _unquote(raw) == name


def test_cursor_on_the_line_after_the_final_newline() -> None:
    """LSP positions count the empty line after a final newline (and a client may ask past the end): a root key."""
    text = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
    for line in (2, 4):
        ctx = context_at(text, line, 0)
        assert ctx is not None
        assert (ctx.path, ctx.mode, ctx.prefix) == ((), "key", "")
        assert ctx.siblings == {"apiVersion", "kind"}
        assert (ctx.api_version, ctx.kind) == ("nvidia.com/v1beta1", "DynamoGraphDeployment")
        assert path_at(text, line, 0) is None


@pytest.mark.parametrize(("line", "want"), [
    ("-", [Token(0, "-", end=1)]),  # a dash that ends the line starts an item (YAML 1.2, 8.2.1)
    ("  -", [Token(2, "-", end=3)]),
    ("  - name: x", [Token(2, "-", end=3), Token(4, "key", "name", 10, 8)]),
    ("      -a: b", [Token(6, "key", "-a", 10, 8)]),  # '-' then a non-blank: a plain scalar key, no item
])
def test_dashes_and_keys_of_a_line(line: str, want: list[Token]) -> None:
    """A dash is an item only when a blank or the line's end follows it (YAML 1.2 block sequence entries;
    ``yaml.safe_load("-a: b")`` is the mapping ``{"-a": "b"}``); its ``end`` is col + 1 (Token's contract)."""
    # mutants 1abb0ce7ef21, 00a616c9aaee, 8979d6bd3c98
    assert yaml.safe_load("-a: b") == {"-a": "b"} and yaml.safe_load("-") == [None]
    assert tokens(line) == want


def test_key_completion_on_a_bare_dash_sees_the_item_keys_below() -> None:
    """Completing the first key of a list item (cursor after ``- ``) excludes the keys the same item already
    has on the lines below (docs/cli.md: the keys a mapping may still take)."""  # mutant 5af30824fe72
    text = ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nspec:\n  components:\n    - \n"
            "      replicas: 2\n      type: worker\n")
    ctx = context_at(text, 4, 6)
    assert ctx is not None and ctx.path == ("spec", "components", 0)
    assert ctx.siblings == {"replicas", "type"}
