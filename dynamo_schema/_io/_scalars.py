"""Loader internals: bytes -> text and go-yaml v2 scalar resolution (as ``sigs.k8s.io/yaml`` decodes)."""

from __future__ import annotations

import math
import re
from functools import cached_property

from .._core._diagnostics import Diagnostic
from .._k8s._gofmt import go_float, go_sharp_v

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

#: Maximum number of nodes aliases may add to one document ...
NODE_BUDGET = 1_000_000
#: ... and, above ALIAS_FLOOR added nodes, at most ALIAS_FACTOR times the document's own node count
#: (billion-laughs documents are rejected after building ~10,000 nodes).
ALIAS_FLOOR = 10_000
ALIAS_FACTOR = 100
#: Nesting limit (the root collection is level 1), checked on the document as built (aliases
#: expanded). Far below go-yaml's 10,000 and libyaml 0.2.6's 1,000 so that every later stage
#: (recursive walks, deepcopy, pydantic, formatting) stays far from Python's recursion limit.
MAX_DEPTH = 100
#: Input size limit per file: the API server's request-size limit (3 MiB).
MAX_BYTES = 3 * 1024 * 1024
#: Longest scalar (characters), key or value: the API server's limit on one object (1.5 MiB) is
#: larger than any field it admits (a ConfigMap's data totals 1 MiB).
MAX_SCALAR = 1024 * 1024
#: Documents (``---``-separated, empty ones included) per input.
MAX_DOCUMENTS = 10_000
#: ``<<`` merge keys per document.
MAX_MERGES = 10_000

_EXTENSIONS = (".yaml", ".yml", ".json")
_PLAIN = "tag:dynamo-schema.invalid,2026:plain"
_Y = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = _Y + "str", _Y + "int", _Y + "float", _Y + "bool", _Y + "null"
_MAP, _SEQ, _BINARY, _TIMESTAMP = _Y + "map", _Y + "seq", _Y + "binary", _Y + "timestamp"
_SCALAR_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL, _BINARY, _TIMESTAMP, _PLAIN})
_SHORT = {_STR: "!!str", _INT: "!!int", _FLOAT: "!!float", _BOOL: "!!bool", _NULL: "!!null",
          _TIMESTAMP: "!!timestamp", _BINARY: "!!binary", _MAP: "!!map", _SEQ: "!!seq"}



# --------------------------------------------------------------------------------------------------
# bytes -> text


class _Rx:
    """Regular expressions, each compiled on first use (keeps the module import and a cold start cheap)."""

    @cached_property
    def bad_char(self) -> re.Pattern[str]:
        # libyaml accepts #x9 #xA #xD [#x20-#x7E] #x85 [#xA0-#xD7FF] [#xE000-#xFFFD] [#x10000-#x10FFFF]
        return re.compile(
            "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")

    @cached_property
    def go_int(self) -> re.Pattern[str]:
        # strconv.ParseInt(s, 0, 64) syntax once go-yaml removed every "_"
        return re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)\Z")

    @cached_property
    def go_float(self) -> re.Pattern[str]:
        # go-yaml v2 yamlStyleFloat
        return re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")

    @cached_property
    def dot_float(self) -> re.Pattern[str]:
        # strconv.ParseFloat of a Go decimal literal that starts with ".": one "_" may separate two
        # digits, in the fraction and in the exponent (kubectl decodes ".0_0" to 0, ".5e1_0" to 5e9)
        return re.compile(r"\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?\Z")

    @cached_property
    def timestamp(self) -> re.Pattern[str]:
        return re.compile(
            r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
            r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?\Z")

    @cached_property
    def bang(self) -> re.Pattern[str]:
        return re.compile(r"&[^\s,\[\]{}]+[ \t\r\n]+!(?=[ \t\r\n])")

    @cached_property
    def anchor(self) -> re.Pattern[str]:
        return re.compile(r"(?:!\S*\s+)?&([^\s,\[\]{}]+)")

    @cached_property
    def surrogate(self) -> re.Pattern[str]:
        return re.compile("[\ud800-\udfff]")

    @cached_property
    def _long(self) -> dict[int, tuple[re.Pattern[str], re.Pattern[str]]]:
        return {}

    def long_prefix(self, text: str, n: int) -> bool:
        """Whether a line of ``text`` has a block-structure prefix (indentation and "- ", "? ", ": "
        indicators) of at least ``n`` characters (a line: at the start or after a ``\\n``, as ``^`` in
        ``re.M``). ``n`` is rounded down to a multiple of 4 (few patterns compiled; the caller only needs
        an upper bound)."""
        n = max(n - n % 4, 1)
        found = self._long.get(n)
        if found is None:
            run = "[ \\t?:-]{" + str(n) + "}"
            found = self._long[n] = (re.compile(run), re.compile("\\n" + run))
        return found[0].match(text) is not None or found[1].search(text) is not None

    @cached_property
    def json_token(self) -> re.Pattern[str]:
        # JSON tokens: strings (possibly unterminated), numbers, brackets
        return re.compile(r'"(?:[^"\\]|\\.)*"?|-?[0-9][0-9.eE+-]*|[\[\]{}]')


_RX: _Rx | None = None


def _rx() -> _Rx:
    global _RX
    if _RX is None:
        _RX = _Rx()
    return _RX


def _decode(data: bytes, file: str) -> tuple[str | None, Diagnostic | None]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError as exc:
            # where the bad code unit is, counted as the UTF-8 case does: characters of its line, the
            # byte order mark (which only picks the byte order) not one of them
            good = data[:exc.start].decode("utf-16", "replace")
            line_start = good.rfind("\n") + 1
            return None, Diagnostic("load.encoding", (), "invalid UTF-16 byte sequence", file=file,
                                    line=good.count("\n") + 1, column=len(good) - line_start + 1)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        start = exc.start
        reason = _utf8_problem(data, start)
        line_start = data.rfind(b"\n", 0, start) + 1
        line = data.count(b"\n", 0, start) + 1
        col = len(data[line_start:start].decode("utf-8", "replace")) + 1
        return None, Diagnostic("load.encoding", (), reason, file=file, line=line, column=col)


def _utf8_problem(data: bytes, start: int) -> str:
    """libyaml's reader message (yaml_parser_update_buffer) for the bad sequence at ``start``."""
    lead = data[start]
    width = (1 if lead < 0x80 else 2 if lead & 0xE0 == 0xC0 else 3 if lead & 0xF0 == 0xE0
             else 4 if lead & 0xF8 == 0xF0 else 0)
    if width == 0:
        return "invalid leading UTF-8 octet"
    if start + width > len(data):
        return "incomplete UTF-8 octet sequence"
    value = lead & (0x7F, 0x1F, 0x0F, 0x07)[width - 1]
    for b in data[start + 1: start + width]:
        if b & 0xC0 != 0x80:
            return "invalid trailing UTF-8 octet"
        value = (value << 6) | (b & 0x3F)
    if not (width == 1 or (width == 2 and value >= 0x80) or (width == 3 and value >= 0x800)
            or (width == 4 and value >= 0x10000)):
        return "invalid length of a UTF-8 sequence"
    return "invalid Unicode character"


def _char_position(text: str, index: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


# --------------------------------------------------------------------------------------------------
# scalar resolution (go-yaml v2, as used by sigs.k8s.io/yaml)

_BOOL_NULL: dict[str, Any] = {}
for _words, _val in ((("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
                     (("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
                     (("", "~", "null", "Null", "NULL"), None)):
    for _w in _words:
        _BOOL_NULL[_w] = _val
_SPECIAL_FLOATS = {".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan")}
for _sign, _v in (("", float("inf")), ("+", float("inf")), ("-", float("-inf"))):
    for _w in (".inf", ".Inf", ".INF"):
        _SPECIAL_FLOATS[_sign + _w] = _v
_YAML11_ONLY_BOOLS = frozenset({"y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
                                "n", "N", "no", "No", "NO", "off", "Off", "OFF"})
_HINT_CHARS = frozenset("yYnNtTfFoO~+-0123456789.")
_NO_VALUE = object()


def _go_int(plain: str) -> int | None:
    if plain.isascii() and plain.isdigit() and len(plain) < 20 and (plain[0] != "0" or len(plain) == 1):
        return int(plain)  # a plain decimal (the common case): below 10**19, so in ParseUint's range
    if not _rx().go_int.match(plain):
        return None
    sign = -1 if plain[0] == "-" else 1
    digits = plain.lstrip("+-")
    # more significant digits than a 64-bit value has: out of range (and never int() of a long text)
    body = digits[2:] if digits[1:2] in ("x", "X", "o", "O", "b", "B") else digits
    width = (16 if digits[1:2] in ("x", "X") else 64 if digits[1:2] in ("b", "B")
             else 22 if digits[:1] == "0" else 20)
    if len(body.lstrip("0")) > width:
        return None
    if len(digits) > 1 and digits[0] == "0":
        # 0x / 0o / 0b prefixes as Python reads them; a bare leading 0 is octal in Go
        v = int(digits, 0) if digits[1] in "xXoObB" else int(digits[1:], 8)
    else:
        v = int(digits)
    v *= sign
    if -(1 << 63) <= v < (1 << 64):  # ParseInt, then ParseUint
        return v
    return None


def _resolve_plain(value: str) -> Any:
    """The Python value go-yaml v2 gives an untagged plain scalar (before the JSON round trip)."""
    if value and value[0] not in _HINT_CHARS:
        return value
    if value in _BOOL_NULL:
        return _BOOL_NULL[value]
    if value in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS[value]
    c = value[0]
    if c == ".":
        if _rx().dot_float.match(value):
            f = float(value.replace("_", ""))
            if f not in (float("inf"), float("-inf")):
                return f
        return value
    if c in "+-0123456789":
        plain = value.replace("_", "") if "_" in value else value
        if not plain:
            return value
        iv = _go_int(plain)
        if iv is not None:
            return iv
        if _rx().go_float.match(plain):
            f = float(plain)
            if f not in (float("inf"), float("-inf")):  # ParseFloat range error -> string
                return f
    return value


def _json_number(value: Any) -> Any:
    """What the API server receives after sigs.k8s.io/yaml's JSON round trip."""
    if type(value) is float:
        if math.isnan(value) or value in (float("inf"), float("-inf")):
            return _NO_VALUE
        if value.is_integer() and abs(value) < 1e21:
            iv = int(value)
            if -(1 << 63) <= iv < (1 << 63):
                return iv
        return value
    if type(value) is int and value >= (1 << 63):
        return float(value)
    return value


def _go_float_key(f: float) -> str:
    """strconv.FormatFloat(f, 'g', -1, 32) with go-yaml's .inf/.nan spelling."""
    if math.isnan(f):
        return ".nan"
    try:
        out = go_float(f, 32)
    except OverflowError:
        out = "+Inf" if f > 0 else "-Inf"
    return {"+Inf": ".inf", "-Inf": "-.inf"}.get(out, out)


def _go_repr(v: Any) -> str:
    """Go's ``%#v`` of a value go-yaml v2 decoded (maps are ``map[interface {}]interface {}``)."""
    return go_sharp_v(v, "map[interface {}]interface {}")


# --------------------------------------------------------------------------------------------------
# limits

_TOO_DEEP = f"exceeded max depth of {MAX_DEPTH}"


def _string_problem(value: str) -> tuple[str, str] | None:
    """``(rule, message)`` when a string scalar or key breaks a limit or cannot be encoded."""
    if len(value) > MAX_SCALAR:
        return "load.too-long", f"scalar of {len(value)} characters is longer than the limit of {MAX_SCALAR}"
    if not value.isascii():
        m = _rx().surrogate.search(value)
        if m is not None:
            return ("load.encoding",
                    f"string contains the lone surrogate \\u{ord(m.group()):04x}, which is not valid Unicode")
    return None


def _float_range(literal: str) -> str:
    """kubectl's error for a JSON number outside float64 (observed with kubectl v1.32:
    ``unable to decode "x.json": json: cannot unmarshal number 1e400 into Go value of type float64``)."""
    return f"json: cannot unmarshal number {literal} into Go value of type float64"
