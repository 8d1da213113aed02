"""``_golayout.go_marshal``'s fast writer (decisions.md D28) gives ``_gofmt.go_json``'s text, byte for byte.

``go_json`` is the generic walk the worker hashes were proven with (upstream fixed hashes 1b69c0d3,
cabcd5c9: tests/render/test_workerhash_main.py). Inputs: every worker-hash input of the upstream
corpus (all four algorithms) and generated values full of the characters Go escapes (HTML
characters, U+2028/2029, lone surrogates, control characters), floats, non-string keys and
subclasses, which the fast writer hands to ``go_json``.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._k8s import _golayout
from dynamo_schema._k8s._gofmt import go_json


def _same(value: Any) -> None:
    try:
        expected = go_json(value)
    except ValueError:
        with pytest.raises(ValueError):
            _golayout.go_marshal(value)
        return
    assert _golayout.go_marshal(value) == expected


@pytest.mark.slow
def test_corpus_hash_inputs(shared: Path) -> None:
    from dynamo_schema._admission import AdmissionSettings
    from dynamo_schema._pipeline._render_object import _admit
    from dynamo_schema._render import RenderError
    from dynamo_schema._render import _workerhash as W
    from dynamo_schema._render._alphacompat import alpha_view

    n = 0
    for path in sorted((shared / "reference" / "dynamo" / "corpus" / "v1beta1").glob("*.yaml")):
        for doc in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader):
            if not (isinstance(doc, dict) and doc.get("kind") == "DynamoGraphDeployment"):
                continue
            try:
                stored = _admit(doc, AdmissionSettings())
                inputs = [W.dcd_worker_hash_input(stored, "corpus", rv) for rv in (True, False)]
            except RenderError:
                continue
            inputs.append(W.worker_hash_input(stored))
            inputs.append(W.legacy_v1_hash_input(alpha_view(stored)))
            for value in inputs:
                _same(value)
            n += 1
    assert n > 50


class _S(str):
    pass


class _E(enum.IntEnum):
    A = 3


_chars = "ab<>&\u2028\u2029\ud800\udfff\x00\x01\x1f\x7f\"\\\n\r\t\b\f é✓\U0001f600"
_scalars = st.one_of(
    st.text(alphabet=_chars, max_size=10), st.text(max_size=10), st.integers(), st.booleans(), st.none(),
    st.floats(allow_nan=True, allow_infinity=True), st.builds(_S, st.text(alphabet=_chars, max_size=5)),
    st.just(_E.A),
)
_keys = st.one_of(st.text(alphabet=_chars, max_size=6), st.integers(), st.booleans(), st.builds(_S, st.text(max_size=3)))
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4),
                            st.lists(inner, max_size=3).map(tuple)),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(_values)
def test_generated_values(value: Any) -> None:
    _same(value)


def test_escapes_and_numbers() -> None:
    for value in ("<a href='x'>&</a>", "\u2028\u2029", "\ud800x", "\x00\x1f\x7f", "é✓", 1.0, -0.0, 1e21, 1e-7,
                  2**70, -5, True, None, [], {}, {1: "x", False: "y", 2.5: "z"}, float("nan")):
        _same(value)
    assert _golayout.go_marshal({"a<": ["&", 1, True, None]}) == '{"a\\u003c":["\\u0026",1,true,null]}'


def test_the_special_character_check_is_the_regular_expression_on_every_code_point() -> None:
    # the fast writer's test for "Go writes this string differently" (ASCII strings without the regular
    # expression): the same answer for each code point, alone and next to ASCII text
    import re

    rx = re.compile("[<>&\u2028\u2029\ud800-\udfff]")
    for cp in range(0x110000):
        c = chr(cp)
        for s in (c, "ab" + c, c + "-x"):
            assert _golayout._go_special(s) is (rx.search(s) is not None), hex(cp)
    assert not _golayout._go_special("") and not _golayout._go_special("plain-ascii.text/x")
