"""Project goldens: golden/<case>/{input.yaml, options.yaml, expected.yaml}.

Each expected.yaml is the complete rendered output, compared exactly (no directives). Evidence for
every case is listed in golden/README.md. Rewrite switch (never used by CI):
``DYNAMO_SCHEMA_REGEN_GOLDEN=1 python -m pytest tests/render/test_project_goldens.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from dynamo_schema._render import RenderOptions, render

from .matcher import load_yaml12_documents, match_manifests

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
TARGETS = {"kubernetes", "grove", "dcd"}


def _cases() -> list[Path]:
    out = []
    for opt in sorted(GOLDEN.glob("*/options.yaml")):
        data = yaml.load(opt.read_text(), Loader=yaml.CSafeLoader) or {}
        if data.get("target") in TARGETS:
            out.append(opt.parent)
    return out


def _options(folder: Path) -> tuple[str, RenderOptions]:
    data = yaml.load((folder / "options.yaml").read_text(), Loader=yaml.CSafeLoader)
    target = data.pop("target")
    return target, RenderOptions(**{k: v for k, v in data.items()})


def _dump(objs: list[dict]) -> str:
    """Expected files are written Kubernetes-safe (``value: 'n'``, not ``value: n``), as render prints."""
    from dynamo_schema._emit import dump_all

    return dump_all(objs)


CASES = _cases()


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_project_golden(folder: Path) -> None:
    target, options = _options(folder)
    obj = yaml.load((folder / "input.yaml").read_text(), Loader=yaml.CSafeLoader)
    rendered = render(obj, target, options)
    expected_path = folder / "expected.yaml"
    if os.environ.get("DYNAMO_SCHEMA_REGEN_GOLDEN") == "1":
        expected_path.write_text(_dump(rendered), encoding="utf-8")
    expected = load_yaml12_documents(expected_path.read_text(encoding="utf-8"))
    assert [(o["kind"], o["metadata"]["name"]) for o in rendered] == [(o["kind"], o["metadata"]["name"]) for o in expected]
    assert match_manifests(expected, rendered) == []


def test_cases_present() -> None:
    assert len(CASES) >= 12
