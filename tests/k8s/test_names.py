"""Rendered-object name checks quote the bad value as apimachinery's ``field.Invalid`` does: a string value
is printed after the error type in Go's quoted form, ``strconv.Quote`` (``field.Error.ErrorBody``)."""

from __future__ import annotations

from dynamo_schema._k8s._names import check_names


def _messages(obj: dict[str, object]) -> list[str]:
    return [d.message for d in check_names([obj])]


def test_invalid_name_is_quoted_like_go() -> None:
    msgs = _messages({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a\x07\u200bb"}})
    assert msgs and all(m.startswith('rendered ConfigMap/a\x07\u200bb: metadata.name: Invalid value: "a\\a\\u200bb": ')
                        for m in msgs)


def test_invalid_namespace_and_label_value_are_quoted_like_go() -> None:
    obj = {"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": "ok", "namespace": "ns\x00", "labels": {"k": "v\x7f"}}}
    msgs = _messages(obj)
    assert any('metadata.namespace: Invalid value: "ns\\x00": ' in m for m in msgs), msgs
    assert any('(label k): metadata.labels: Invalid value: "v\\x7f": ' in m for m in msgs), msgs
