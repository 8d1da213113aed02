"""``validate_cel(..., defaulted=True)`` reads the object as it is (docs/decisions.md D59): the v1beta1 object the
mutating webhook patched already carries every schema default, so its defaulted view is the object itself.

Checked where it matters: every call that takes the shortcut, while the v1beta1 corpus, the v1alpha1 corpus
(converted, then patched) and every operator-verified case go through ``validate``, computes the view it
skips and finds it to be the very object; and the diagnostics are those of the plain way (no shortcut)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import dynamo_schema
from dynamo_schema._schema import _cel
from dynamo_schema._schema._defaulting import defaulted_view
from dynamo_schema._schema._nodes import compile_schema
from tests.oracles import _operator_cases as cases

SHARED = (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()
CORPUS = SHARED / "reference" / "dynamo" / "corpus"


def _inputs() -> list[tuple[str, Any, Any]]:
    """(id, document or file, settings) for the corpus files and the operator-verified cases."""
    out: list[tuple[str, Any, Any]] = []
    for version in ("v1beta1", "v1alpha1"):
        for path in sorted((CORPUS / version).glob("*.yaml")):
            out.append((f"{version}/{path.name}", path, None))
    for path in cases.case_files():
        case = cases.load_case(path)
        out.append((f"case/{path.name}", case["input"], cases.admission_settings(case.get("settings") or {})))
    return out


INPUTS = _inputs()


def _diagnostics(item: Any, settings: Any) -> list[tuple[str, tuple[Any, ...], str, str]]:
    target = item if isinstance(item, Path) else copy.deepcopy(item)
    kwargs = {"settings": settings} if settings is not None else {}
    return [(d.rule, tuple(d.path), d.message, d.severity)
            for r in dynamo_schema.validate(target, **kwargs) for d in r.diagnostics]


def test_inputs_found() -> None:
    assert sum(1 for i, _, _ in INPUTS if i.startswith("case/")) >= 50
    assert sum(1 for i, _, _ in INPUTS if i.startswith("v1beta1/")) >= 100


@pytest.mark.parametrize(("item", "settings"), [pytest.param(x, s, id=i) for i, x, s in INPUTS])
def test_defaulted_shortcut_is_the_defaulted_view(item: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    real = _cel.validate_cel
    taken: list[bool] = []

    def checked(data: Any, schema: dict[str, Any], **kw: Any) -> list[Any]:
        if kw.get("defaulted"):
            view_data = data
            if kw.get("status_subresource") and isinstance(data, dict) and "status" in data:
                view_data = {k: v for k, v in data.items() if k != "status"}
            assert defaulted_view(view_data, compile_schema(schema)) is view_data
            taken.append(True)
        return real(data, schema, **kw)

    monkeypatch.setattr(_cel, "validate_cel", checked)
    fast = _diagnostics(item, settings)

    def plain(data: Any, schema: dict[str, Any], **kw: Any) -> list[Any]:
        kw["defaulted"] = False
        return real(data, schema, **kw)

    monkeypatch.setattr(_cel, "validate_cel", plain)
    assert fast == _diagnostics(item, settings)


def test_shortcut_is_taken_on_an_admitted_v1beta1_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above is not vacuous: the shortcut runs for a v1beta1 DGD (and the view it skips would be
    a copy for the document as written, which lacks the defaults)."""
    real = _cel.validate_cel
    seen: list[Any] = []

    def spy(data: Any, schema: dict[str, Any], **kw: Any) -> list[Any]:
        seen.append((data, schema, bool(kw.get("defaulted"))))
        return real(data, schema, **kw)

    monkeypatch.setattr(_cel, "validate_cel", spy)
    written = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
               "spec": {"components": [{"name": "frontend", "type": "frontend", "podTemplate": {"spec": {
                   "containers": [{"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.0",
                                   "ports": [{"containerPort": 8000}]}]}}}]}}
    dynamo_schema.validate(copy.deepcopy(written))
    assert any(flag for _, _, flag in seen)
    schema = next(s for _, s, flag in seen if flag)
    assert defaulted_view(written, compile_schema(schema)) != written  # e.g. the port's protocol, the replicas
