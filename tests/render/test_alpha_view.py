"""The cached v1alpha1 view used while rendering equals a direct conversion, whatever happens between calls
(the view: ``alpha_spec_view``, the conversion without the hub save, whose spec and status are
``to_v1alpha1``'s: tests/convert/test_alpha_view.py)."""

from __future__ import annotations

import copy

from dynamo_schema._convert._v1alpha1 import alpha_spec_view, to_v1alpha1
from dynamo_schema._render._alphacompat import alpha_view

DGD = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "x"},
       "spec": {"components": [{"name": "w", "type": "worker", "replicas": 1,
                                "podTemplate": {"spec": {"containers": [{"name": "main", "image": "i:1.5.0"}]}}}]}}


def test_equals_direct_conversion() -> None:
    assert alpha_view(DGD) == alpha_spec_view(copy.deepcopy(DGD))
    assert alpha_view(DGD)["spec"] == to_v1alpha1(copy.deepcopy(DGD))["spec"]


def test_mutated_object_is_converted_again() -> None:
    dgd = copy.deepcopy(DGD)
    first = alpha_view(dgd)
    dgd["spec"]["components"][0]["replicas"] = 3
    second = alpha_view(dgd)
    assert second != first
    assert second == alpha_spec_view(copy.deepcopy(dgd))


def test_true_and_one_are_different_content() -> None:
    """``True == 1`` in Python: compare exact serializations, so a cache mix-up would show."""
    import marshal

    a = copy.deepcopy(DGD)
    b = copy.deepcopy(DGD)
    a["spec"]["components"][0]["replicas"] = True
    b["spec"]["components"][0]["replicas"] = 1
    for obj in (a, b):
        assert marshal.dumps(alpha_view(obj), 2) == marshal.dumps(alpha_spec_view(copy.deepcopy(obj)), 2)
    assert marshal.dumps(alpha_view(a), 2) != marshal.dumps(alpha_view(b), 2)


def test_each_call_returns_an_independent_copy() -> None:
    one = alpha_view(DGD)
    one["spec"]["services"].clear()
    assert alpha_view(DGD) == alpha_spec_view(copy.deepcopy(DGD))


def test_admission_and_render_share_one_conversion() -> None:
    """The webhook rules' view of an admitted object and its render's view are one cache entry: the
    second asker does not convert again (and still gets its own copy)."""
    from dynamo_schema._admission.rules._alpha import _alpha_view
    from dynamo_schema._convert import _v1alpha1

    dgd = copy.deepcopy(DGD)
    dgd["metadata"]["name"] = "shared-once"  # content no other test uses
    before = _v1alpha1._alpha_bytes.cache_info()
    admitted = _alpha_view(dgd)
    rendered = alpha_view(dgd)
    after = _v1alpha1._alpha_bytes.cache_info()
    assert (after.misses - before.misses, after.hits - before.hits) == (1, 1)
    assert admitted == rendered == alpha_spec_view(copy.deepcopy(dgd)) and admitted is not rendered


def test_content_marshal_cannot_write_is_converted_directly() -> None:
    class Text(str):
        pass

    dgd = copy.deepcopy(DGD)
    dgd["metadata"]["name"] = Text("x")
    assert alpha_view(dgd) == alpha_spec_view(copy.deepcopy(DGD))
