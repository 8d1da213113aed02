"""The emitter's fast representer (decisions.md D28) writes the same bytes as the dumper without it.

The reference is the Kubernetes-safe dumper's own base class (``_emit._reference_dumper``): PyYAML's
representers and resolver, untouched. Inputs: every render of the upstream corpus (both targets) and
generated plain data full of strings that need quoting, literal blocks, subclasses and tuples.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._io import _emit
from dynamo_schema._io._emit import dump, dump_all
from dynamo_schema._render import RenderError, RenderOptions, render

from .test_emit_kubesafe import TRICKY


def _reference_all(objs: list[Any]) -> str:
    return yaml.dump_all(list(objs), Dumper=_emit._reference_dumper(), default_flow_style=False, sort_keys=False,
                         allow_unicode=True, width=_emit._WIDTH, explicit_start=False)


def _reference_one(obj: Any) -> str:
    return yaml.dump(obj, Dumper=_emit._reference_dumper(), default_flow_style=False, sort_keys=False,
                     allow_unicode=True, width=_emit._WIDTH)


def test_reference_is_not_the_fast_dumper() -> None:
    fast, ref = _emit._dumper(), _emit._reference_dumper()
    assert fast is not ref and issubclass(fast, ref)
    assert "represent_data" in vars(fast) and "represent_data" not in vars(ref)


@pytest.mark.slow
def test_corpus_renders_same_bytes(shared: Path) -> None:
    n = 0
    for path in sorted((shared / "reference" / "dynamo" / "corpus" / "v1beta1").glob("*.yaml")):
        for doc in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader):
            if not (isinstance(doc, dict) and doc.get("kind") in ("DynamoGraphDeployment", "DynamoComponentDeployment")):
                continue
            for target in (("kubernetes", "grove") if doc["kind"] == "DynamoGraphDeployment" else ("kubernetes",)):
                try:
                    # a cluster with DRA and the checkpoint gate: the GMS and checkpoint samples render too
                    objs = render(doc, target, RenderOptions(namespace="corpus", dra_enabled=True,
                                                             checkpoint_enabled=True))
                except RenderError:
                    continue
                assert dump_all(objs) == _reference_all(objs), (path.name, target)
                n += 1
        # the inputs themselves: other shapes (and key orders) than the renders
        docs = [d for d in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader) if d is not None]
        assert dump_all(docs) == _reference_all(docs)
    assert n > 200


class _Str(str):
    pass


class _Int(int):
    pass


_scalars = st.one_of(
    st.sampled_from(TRICKY),
    st.text(max_size=12),
    st.text(alphabet="ab:-#'\" \n\t0123456789.eE+_xo~!&*|>%@`[]{},?", max_size=10),
    st.integers(), st.booleans(), st.none(), st.floats(allow_nan=True),
    st.builds(_Str, st.sampled_from(TRICKY)), st.builds(_Int, st.integers()),
)
_keys = st.one_of(st.sampled_from(TRICKY), st.text(max_size=8), st.integers(), st.booleans())
_data = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4),
                            st.lists(inner, max_size=3).map(tuple)),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_data, min_size=1, max_size=3))
def test_generated_data_same_bytes(objs: list[Any]) -> None:
    assert dump_all(objs) == _reference_all(objs)
    assert dump(objs[0]) == _reference_one(objs[0])


def test_shared_subobjects_and_repeated_strings() -> None:
    shared_list = ["y", "x", "1.0"]
    obj = {"a": shared_list, "b": shared_list, "c": {"d": shared_list}, "y": "y", "multi": "a\nb\n"}
    for _ in range(2):  # the second pass reads the memoized styles and tags
        assert dump_all([obj, obj]) == _reference_all([obj, obj])
