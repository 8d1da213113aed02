"""Go ``encoding/json``'s syntax check (``checkValid``), character by character.

Used by the loader to word and locate a JSON syntax error exactly as Go reports it, whatever the
Python version's :mod:`json` says (CPython 3.13 changed its messages). Only run on input that
:mod:`json` rejected (or that holds ``NaN``/``Infinity``, which Python accepts and Go does not), so
speed matters little; string bodies and blanks are skipped with regular expressions.
"""

from __future__ import annotations

import re

__all__ = ["syntax_error"]

_SPACE = " \t\r\n"
_HEX = frozenset("0123456789abcdefABCDEF")
_STRING_BODY = re.compile(r'[^"\\\x00-\x1f]*')
_BLANKS = re.compile(r"[ \t\r\n]*")
_DIGITS = re.compile(r"[0-9]*")


def _quote_char(c: str) -> str:
    """encoding/json ``quoteChar`` of the *byte* Go stopped at (the first UTF-8 byte of ``c``)."""
    if c == "'":
        return "'\\''"
    if c == '"':
        return "'\"'"
    if c == "\\":
        return "'\\\\'"
    b = c.encode("utf-8", "surrogatepass")[0]
    if b < 0x20 or b == 0x7F:
        return "'" + {0x07: "\\a", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t",
                      0x0B: "\\v"}.get(b, f"\\x{b:02x}") + "'"
    if b >= 0x80:
        ch = chr(b)  # Go converts the byte to the rune U+00XX
        return "'" + (ch if b > 0xA0 and b != 0xAD else f"\\u{b:04x}") + "'"
    return "'" + c + "'"


class _Stop(Exception):
    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def syntax_error(text: str) -> tuple[str, int] | None:
    """``(message, index)`` of Go's first syntax error in ``text`` (``index`` is the offending
    character's index, ``len(text)`` for "unexpected end of JSON input"), or None when Go accepts it."""
    try:
        _check(text)
    except _Stop as stop:
        return stop.message, stop.index
    return None


def _err(text: str, i: int, context: str) -> _Stop:
    if i >= len(text):  # Go's scan.eof() steps a space through the state it stopped in
        return _Stop(f"invalid character ' ' {context}", len(text))
    return _Stop(f"invalid character {_quote_char(text[i])} {context}", i)


def _check(text: str) -> None:
    n = len(text)
    stack: list[str] = []  # "k" object expecting ':', "v" object value, "a" array
    begin = True  # stateBeginValue (else stateEndValue)
    i = 0
    while True:
        i = _BLANKS.match(text, i).end()  # type: ignore[union-attr]
        if begin:
            if i >= n:
                raise _Stop("unexpected end of JSON input", n)
            c = text[i]
            if c == "{":
                i = _BLANKS.match(text, i + 1).end()  # type: ignore[union-attr]
                if i >= n:
                    raise _Stop("unexpected end of JSON input", n)
                if text[i] == "}":
                    i += 1
                else:
                    stack.append("k")
                    i = _key(text, i)
            elif c == "[":
                i = _BLANKS.match(text, i + 1).end()  # type: ignore[union-attr]
                if i >= n:
                    raise _Stop("unexpected end of JSON input", n)
                if text[i] == "]":
                    i += 1
                else:
                    stack.append("a")
                    continue
            elif c == '"':
                i = _string(text, i + 1)
            elif c == "-" or "0" <= c <= "9":
                i = _number(text, i)
            elif c in "tfn":
                word = {"t": "true", "f": "false", "n": "null"}[c]
                for j, want in enumerate(word[1:], 1):
                    if i + j >= n or text[i + j] != want:
                        raise _err(text, i + j, f"in literal {word} (expecting '{want}')")
                i += len(word)
            else:
                raise _err(text, i, "looking for beginning of value")
            begin = False
            continue
        # stateEndValue
        if not stack:
            if i < n:
                raise _err(text, i, "after top-level value")
            return
        if i >= n:
            raise _Stop("unexpected end of JSON input", n)
        c = text[i]
        top = stack[-1]
        if top == "k":
            if c != ":":
                raise _err(text, i, "after object key")
            stack[-1] = "v"
            i += 1
            begin = True
        elif top == "v":
            if c == ",":
                stack[-1] = "k"
                i = _BLANKS.match(text, i + 1).end()  # type: ignore[union-attr]
                if i >= n:
                    raise _Stop("unexpected end of JSON input", n)
                i = _key(text, i)
            elif c == "}":
                stack.pop()
                i += 1
            else:
                raise _err(text, i, "after object key:value pair")
        elif c == ",":
            i += 1
            begin = True
        elif c == "]":
            stack.pop()
            i += 1
        else:
            raise _err(text, i, "after array element")


def _key(text: str, i: int) -> int:
    if text[i] != '"':
        raise _err(text, i, "looking for beginning of object key string")
    return _string(text, i + 1)


def _string(text: str, i: int) -> int:
    """``i`` is just after the opening quote; returns the index after the closing quote."""
    n = len(text)
    while True:
        i = _STRING_BODY.match(text, i).end()  # type: ignore[union-attr]
        if i >= n:
            raise _Stop("unexpected end of JSON input", n)
        c = text[i]
        if c == '"':
            return i + 1
        if c == "\\":
            i += 1
            if i >= n:
                raise _err(text, i, "in string escape code")
            e = text[i]
            if e in 'bfnrt\\/"':
                i += 1
            elif e == "u":
                for j in range(1, 5):
                    if i + j >= n or text[i + j] not in _HEX:
                        raise _err(text, i + j, "in \\u hexadecimal character escape")
                i += 5
            else:
                raise _err(text, i, "in string escape code")
            continue
        raise _err(text, i, "in string literal")  # a control character


def _number(text: str, i: int) -> int:
    n = len(text)

    def eof(j: int) -> bool:
        return j >= n

    if text[i] == "-":
        i += 1
        if eof(i) or not ("0" <= text[i] <= "9"):
            raise _err(text, i, "in numeric literal")
    if text[i] == "0":
        i += 1
    else:
        i = _DIGITS.match(text, i).end()  # type: ignore[union-attr]
    if not eof(i) and text[i] == ".":
        i += 1
        if eof(i) or not ("0" <= text[i] <= "9"):
            raise _err(text, i, "after decimal point in numeric literal")
        i = _DIGITS.match(text, i).end()  # type: ignore[union-attr]
    if not eof(i) and text[i] in "eE":
        i += 1
        if not eof(i) and text[i] in "+-":
            i += 1
        if eof(i) or not ("0" <= text[i] <= "9"):
            raise _err(text, i, "in exponent of numeric literal")
        i = _DIGITS.match(text, i).end()  # type: ignore[union-attr]
    return i
