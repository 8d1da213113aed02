"""Patterns ported from Go keep Go's anchors: RE2's ``$`` (without the ``m`` flag) is the end of the text, where
Python's ``$`` also matches before a final newline, and Go's ``\\d`` is ASCII. So a value with a trailing newline
(a YAML ``|`` block scalar ends in one) is refused or quoted where the operator refuses or quotes it."""

from __future__ import annotations

import pytest

from dynamo_schema._admission._runtime_version import RuntimeVersionError, parse_image_version, parse_runtime_version
from dynamo_schema._render._backends import is_python_command, shell_quote_posix
from dynamo_schema._render._workerhash import _LOOSE_VERSION, _STRICT_SEMVER
from dynamo_schema._schema._values import _is_date


def test_runtime_version_override_with_a_trailing_newline_is_no_semantic_version() -> None:
    assert str(parse_runtime_version("1.5.0")) == "1.5.0"
    with pytest.raises(RuntimeVersionError):
        parse_runtime_version("1.5.0\n")
    # the image tag is trimmed first (strings.TrimSpace), as upstream does
    assert str(parse_image_version("nvcr.io/x/vllm-runtime:1.5.0\n")) == "1.5.0"


def test_worker_hash_version_patterns() -> None:
    assert _STRICT_SEMVER.match("1.5.0") and not _STRICT_SEMVER.match("1.5.0\n")
    assert _LOOSE_VERSION.match("1.5") and not _LOOSE_VERSION.match("1.5\n")
    assert not _LOOSE_VERSION.match("\u0661.5")  # an Arabic-Indic digit is no Go \d


def test_shell_quoting_and_python_detection() -> None:
    assert shell_quote_posix("abc") == "abc"
    assert shell_quote_posix("abc\n") == "'abc\n'"  # not safe as is: quoted
    assert is_python_command("/usr/bin/python3.12")
    assert not is_python_command("python3\n")
    assert not is_python_command("python\u0663")


def test_openapi_date_format() -> None:
    assert _is_date("2024-01-31")
    assert not _is_date("2024-01-31\n")
