"""``sigs.k8s.io/yaml.Marshal`` of JSON-like data: the YAML text a Go operator writes into a ConfigMap.

``Marshal`` encodes the value with ``encoding/json`` and hands the JSON to go-yaml v2 (``JSONToYAML``):
the JSON is decoded as YAML (numbers become ints or floats, maps ``map[interface{}]interface{}``) and
encoded again. What that encoder does, and this module follows (go-yaml v2's ``encode.go``,
``sorter.go``, ``resolve.go`` and its libyaml ``emitterc.go``):

* map keys in go-yaml's order (``keyList.Less``: runs of digits compare as numbers, a non-letter
  sorts before a letter), block style with two-space indentation, sequences in a mapping not
  indented (``key:`` then ``- item``), ``{}`` / ``[]`` for empty ones;
* a string that would read back as something else (``""``, ``"true"``, ``"n"``, ``"1.5"``, a
  timestamp, a base-60 float) double-quoted; one a plain scalar cannot hold (leading or trailing
  space, ``: ``, `` #``, an indicator first…) single-quoted, or double-quoted when a single-quoted
  scalar cannot hold it either; a multi-line string as a literal block (``|``, ``|-``, ``|+``);
* floats with ``strconv.FormatFloat(f, 'g', -1, 64)``; ``null``, ``true``, ``false``;
* lines folded at go-yaml v2's default width (80) where a plain or quoted scalar has a space.

Not modelled (never produced by the callers): keys longer than 128 characters (go-yaml writes them
as ``? key``), non-string keys, invalid UTF-8 (``!!binary``).
"""

from __future__ import annotations

import math
import re
from typing import Any

from ._gofmt import go_float

__all__ = ["marshal"]

_WIDTH = 80  # go-yaml v2's best_width (no yaml.FutureLineWrap())
_INDENT = 2

# resolve.go: the plain scalars that resolve to a bool, null, float or merge key
_RESOLVE_MAP = frozenset(
    "y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF "
    "~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<".split()
) | {""}
_YAML_STYLE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_BASE60_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")
_GO_INT = re.compile(r"[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\Z")
_GO_FLOAT = re.compile(
    r"[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
    r"[pP][-+]?[0-9]+|inf|infinity|nan)\Z", re.IGNORECASE)
_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
    r"(?:(?:[Tt]| )([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\.[0-9]{1,9})?"
    r"(?:Z|[-+][0-9]{2}:[0-9]{2})?)?\Z")


def _is_timestamp(s: str) -> bool:
    """``parseTimestamp``: four digits and ``-``, then one of go-yaml's ``allowedTimestampFormats``
    (``time.Parse`` checks the ranges; the time zone is required with ``T``/``t``, absent with a space)."""
    m = _TIMESTAMP.match(s)
    if not m:
        return False
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if day > (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]:
        return False
    if m.group(4) is not None:
        sep = s[len(m.group(1)) + len(m.group(2)) + len(m.group(3)) + 2]
        zoned = s.endswith("Z") or bool(re.search(r"[-+][0-9]{2}:[0-9]{2}\Z", s))
        if (sep in "Tt") != zoned:
            return False
        if int(m.group(4)) > 23 or int(m.group(5)) > 59 or int(m.group(6)) > 59:
            return False
    return True


def _resolves_to_non_string(s: str) -> bool:
    """``resolve("", s)`` gives another tag than ``!!str`` (or ``isBase60Float``): the encoder quotes it."""
    if s in _RESOLVE_MAP or _BASE60_FLOAT.match(s):
        return True
    first = s[0]
    if first == ".":
        return bool(_GO_FLOAT.match(s))
    if first not in "+-0123456789":
        return False
    if _is_timestamp(s):
        return True
    plain = s.replace("_", "")
    if _GO_INT.match(plain) or _YAML_STYLE_FLOAT.match(plain):
        return True
    return bool(re.match(r"-?0b[01]+\Z", plain))


def _printable(c: str) -> bool:
    """go-yaml v2 ``is_printable`` (yamlprivateh.go), which reads UTF-8 bytes: neither U+0085 nor any
    character above U+FFFF (a four-byte sequence) is printable, so both are escaped in double quotes."""
    o = ord(c)
    return o == 0x0A or 0x20 <= o <= 0x7E or 0xA0 <= o <= 0xD7FF or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)


_BREAKS = "\r\n\x85\u2028\u2029"


class _Analysis:
    """``yaml_emitter_analyze_scalar``: which styles can hold the scalar."""

    def __init__(self, s: str) -> None:
        self.multiline = False
        if not s:
            self.block_plain = self.single = True
            self.block = False
            return
        flow_ind = block_ind = False
        if s.startswith(("---", "...")) and (len(s) == 3 or s[3] in " \t" + _BREAKS):
            flow_ind = block_ind = True
        line_breaks = special = False
        leading_space = leading_break = trailing_space = trailing_break = False
        break_space = space_break = previous_space = previous_break = False
        preceded_by_ws = True
        n = len(s)
        for i, c in enumerate(s):
            followed_by_ws = i + 1 >= n or s[i + 1] in " \t" + _BREAKS
            if i == 0:
                if c in "#,[]{}&*!|>'\"%@`":
                    flow_ind = block_ind = True
                if c in "?:":
                    flow_ind = True
                    if followed_by_ws:
                        block_ind = True
                if c == "-" and followed_by_ws:
                    flow_ind = block_ind = True
            else:
                if c in ",?[]{}":
                    flow_ind = True
                if c == ":":
                    flow_ind = True
                    if followed_by_ws:
                        block_ind = True
                if c == "#" and preceded_by_ws:
                    flow_ind = block_ind = True
            if not _printable(c):
                special = True
            if c in _BREAKS:
                line_breaks = True
            if c == " ":
                if i == 0:
                    leading_space = True
                if i == n - 1:
                    trailing_space = True
                if previous_break:
                    break_space = True
                previous_space, previous_break = True, False
            elif c in _BREAKS:
                if i == 0:
                    leading_break = True
                if i == n - 1:
                    trailing_break = True
                if previous_space:
                    space_break = True
                previous_space, previous_break = False, True
            else:
                previous_space = previous_break = False
            preceded_by_ws = c in " \t" + _BREAKS
        self.multiline = line_breaks
        block_plain = single = block = True
        if leading_space or leading_break or trailing_space or trailing_break:
            block_plain = False
        if trailing_space:
            block = False
        if break_space:
            block_plain = single = False
        if space_break or special:
            block_plain = single = block = False
        if line_breaks or block_ind:
            block_plain = False
        del flow_ind  # block context only: flow indicators do not matter there
        self.block_plain, self.single, self.block = block_plain, single, block


def _style(s: str, key: bool) -> str:
    """``encoder.stringv`` then ``yaml_emitter_select_scalar_style`` (block context)."""
    if "\n" in s:
        wanted = "literal"
    elif not _resolves_to_non_string(s):
        wanted = "plain"
    else:
        wanted = "double"
    a = _Analysis(s)
    if wanted == "plain" and (not a.block_plain or (not s and key)):
        wanted = "single"
    if wanted == "single" and not a.single:
        wanted = "double"
    if wanted == "literal" and (not a.block or key):
        wanted = "double"
    return wanted


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.column = 0

    def write(self, text: str) -> None:
        self.out.append(text)
        nl = text.rfind("\n")
        self.column = len(text) - nl - 1 if nl >= 0 else self.column + len(text)

    def indent(self, indent: int) -> None:
        """``yaml_emitter_write_indent``: a line break unless the line is still empty, then the indentation."""
        if self.column or not self.out or not self.out[-1].endswith("\n"):
            self.write("\n")
        self.write(" " * indent)

    # libyaml yaml_emitter_write_plain_scalar / write_single_quoted / write_double_quoted
    def plain(self, s: str, indent: int, allow_breaks: bool) -> None:
        spaces = False
        for i, c in enumerate(s):
            if c == " ":
                if allow_breaks and not spaces and self.column > _WIDTH and i + 1 < len(s) and s[i + 1] != " ":
                    self.indent(indent)
                else:
                    self.write(c)
                spaces = True
            else:
                self.write(c)
                spaces = False

    def single(self, s: str, indent: int, allow_breaks: bool) -> None:
        self.write("'")
        spaces = False
        for i, c in enumerate(s):
            if c == " ":
                if (allow_breaks and not spaces and self.column > _WIDTH and 0 < i < len(s) - 1
                        and s[i + 1] != " "):
                    self.indent(indent)
                else:
                    self.write(c)
                spaces = True
            else:
                self.write("''" if c == "'" else c)
                spaces = False
        self.write("'")

    _ESCAPES = {"\0": "0", "\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r",
                "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\xa0": "_", "\u2028": "L", "\u2029": "P"}

    def double(self, s: str, indent: int, allow_breaks: bool) -> None:
        self.write('"')
        spaces = False
        for i, c in enumerate(s):
            if not _printable(c) or c == "\ufeff" or c in _BREAKS or c in '"\\':
                esc = self._ESCAPES.get(c)
                if esc is None:
                    o = ord(c)
                    esc = f"x{o:02X}" if o <= 0xFF else (f"u{o:04X}" if o <= 0xFFFF else f"U{o:08X}")
                self.write("\\" + esc)
                spaces = False
            elif c == " ":
                if allow_breaks and not spaces and self.column > _WIDTH and 0 < i < len(s) - 1:
                    self.indent(indent)
                    if s[i + 1] == " ":
                        self.write("\\")
                else:
                    self.write(c)
                spaces = True
            else:
                self.write(c)
                spaces = False
        self.write('"')

    def literal(self, s: str, indent: int) -> None:
        """``yaml_emitter_write_literal_scalar`` with its block scalar hints (indentation, chomping)."""
        hints = str(_INDENT) if s[0] in " " + _BREAKS else ""
        if s[-1] not in _BREAKS:
            hints += "-"
        elif len(s) == 1 or s[-2] in _BREAKS:
            hints += "+"
        self.write("|" + hints + "\n")
        breaks = True
        for c in s:
            if c in _BREAKS:
                self.write("\n")
                breaks = True
            else:
                if breaks:
                    self.write(" " * indent)
                self.write(c)
                breaks = False

    def scalar(self, s: str, indent: int, key: bool = False) -> None:
        style = _style(s, key)
        if style == "plain":
            self.plain(s, indent, not key)
        elif style == "single":
            self.single(s, indent, not key)
        elif style == "double":
            self.double(s, indent, not key)
        else:
            self.literal(s, indent)


def _less(a: str, b: str) -> bool:
    """``keyList.Less`` for two string keys."""
    for i in range(min(len(a), len(b))):
        ca, cb = a[i], b[i]
        if ca == cb:
            continue
        al, bl = ca.isalpha(), cb.isalpha()
        if al and bl:
            return ca < cb
        if al or bl:
            return bl
        an = bn = 0
        if ca == "0" or cb == "0":
            j = i - 1
            while j >= 0 and a[j].isdigit():
                if a[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(a) and a[ai].isdigit():
            an = an * 10 + int(a[ai])
            ai += 1
        bi = i
        while bi < len(b) and b[bi].isdigit():
            bn = bn * 10 + int(b[bi])
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return ca < cb
    return len(a) < len(b)


def _compare(x: str, y: str) -> int:
    return -1 if _less(x, y) else (1 if _less(y, x) else 0)


def _sorted_keys(keys: list[str]) -> list[str]:
    import functools

    return sorted(keys, key=functools.cmp_to_key(_compare))


def _number(v: float) -> str:
    """A JSON number as go-yaml reads and writes it back: an integral value under 1e21 is written by
    ``encoding/json`` without a fraction and read back as an int; other floats ``FormatFloat('g')``."""
    if math.isfinite(v) and v == int(v) and abs(v) < 1e21:
        return str(int(v))
    return go_float(v)


def _scalar_text(v: Any) -> str | None:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _number(v)
    return None


def _node(w: _Writer, v: Any, indent: int) -> None:
    """A value after ``key:`` / ``- `` (the writer sits right after the indicator)."""
    if isinstance(v, dict) and v:
        w.indent(indent + _INDENT)
        _mapping(w, v, indent + _INDENT)
    elif isinstance(v, list) and v:
        w.indent(indent)  # a sequence in a mapping is not indented
        _sequence(w, v, indent)
    else:
        w.write(" ")
        _value(w, v, indent + _INDENT)


def _value(w: _Writer, v: Any, indent: int) -> None:
    if isinstance(v, dict):
        w.write("{}")
    elif isinstance(v, list):
        w.write("[]")
    elif isinstance(v, str):
        w.scalar(v, indent)
    else:
        text = _scalar_text(v)
        w.write(text if text is not None else str(v))


def _mapping(w: _Writer, m: dict[str, Any], indent: int) -> None:
    for i, k in enumerate(_sorted_keys([str(k) for k in m])):
        if i:
            w.indent(indent)
        w.scalar(k, indent, key=True)
        w.write(":")
        _node(w, m[k], indent)


def _sequence(w: _Writer, items: list[Any], indent: int) -> None:
    for i, item in enumerate(items):
        if i:
            w.indent(indent)
        w.write("-")
        if isinstance(item, dict) and item:
            w.write(" ")
            _mapping(w, item, indent + _INDENT)
        elif isinstance(item, list) and item:
            w.write(" ")
            _sequence(w, item, indent + _INDENT)
        else:
            w.write(" ")
            _value(w, item, indent + _INDENT)


def _json_reparsed(value: Any) -> Any:
    """``value`` as go-yaml reads it back from the JSON ``sigs.k8s.io/yaml.Marshal`` makes first: Go's
    ``encoding/json`` escapes every line break but U+0085 (NEL), which YAML reads as a line break inside the
    double-quoted JSON string and folds (spaces around the breaks dropped; one break is a space, n breaks
    n - 1 newlines), as real ``sigs.k8s.io/yaml`` v1.4.0 does (``"a\u0085b"`` is written ``a b``)."""
    if isinstance(value, str):
        if "\x85" not in value:
            return value
        return re.sub("[ \x85]*\x85[ \x85]*",
                      lambda m: " " if m.group().count("\x85") == 1 else "\n" * (m.group().count("\x85") - 1), value)
    if isinstance(value, dict):
        return {k: _json_reparsed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_reparsed(v) for v in value]
    return value


def marshal(value: Any) -> str:
    """The text ``sigs.k8s.io/yaml.Marshal`` writes for ``value`` (plain JSON-like data)."""
    value = _json_reparsed(value)
    w = _Writer()
    if isinstance(value, dict) and value:
        _mapping(w, value, 0)
    elif isinstance(value, list) and value:
        _sequence(w, value, 0)
    else:
        _value(w, value, 0)
    if w.column:  # the document end's yaml_emitter_write_indent (a literal block already ended its line)
        w.write("\n")
    return "".join(w.out)
