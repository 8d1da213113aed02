"""Where a diagnostic's range ends on its line (``_lsp/_analysis.token_end``): the token that starts at the
reported column - a key up to its colon (returned as written), a quoted scalar to its closing quote, else
the rest of the line without a YAML comment (`` #`` after blanks starts one; ``#`` inside a token does not)."""

from __future__ import annotations

import pytest

from dynamo_schema._lsp._analysis import token_end


@pytest.mark.parametrize(
    ("line", "col", "expected"),
    [
        ("name: x", 0, (4, "name")),
        ("  ab: 1", 2, (4, "ab")),
        ("    name: x\n", 4, (8, "name")),
        ("      containers:", 6, (16, "containers")),
        ('  "ab": 1', 2, (6, None)),
        ("  image: 'a''b' # c", 9, (15, None)),
        ('  - "abc" # c', 4, (9, None)),
        ('"a\\"b"', 0, (6, None)),
        ("'x'", 0, (3, None)),
        ("  image: foo  # c", 9, (12, None)),
        ("  image: a#b # c # d", 9, (12, None)),
        ("  x: y", 40, (40, None)),
    ],
)
def test_token_end(line: str, col: int, expected: tuple[int, str | None]) -> None:
    """The end column (0-based, exclusive) of the key or scalar at ``col``."""
    assert token_end(line, col) == expected
