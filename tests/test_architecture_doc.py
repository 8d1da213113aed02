"""docs/architecture.md names only paths and modules that exist.

Checked: every ``dynamo_schema/...`` path, every back-quoted package path such as ``_io/_load.py`` or
``_render/`` (relative to ``dynamo_schema/``), every back-quoted bare ``_name.py`` (some module of that
name exists), and every dotted ``dynamo_schema._x._y[.attr]`` name (importable, attribute present).
Also: every package of ``dynamo_schema/`` has its paragraph.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "dynamo_schema"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")

SLASH_PATHS = sorted(set(re.findall(r"\bdynamo_schema/[\w./]*\w/?", DOC)))
PKG_PATHS = sorted(set(re.findall(r"`((?:_\w+/|models/)(?:[\w/]*\w(?:\.py)?)?/?)`", DOC)))
INLINE_PKG_PATHS = sorted(set(re.findall(r"(?<![\w/.])((?:_[a-z0-9]+/)+_\w+\.py)\b", DOC)))
BARE_MODULES = sorted(set(re.findall(r"`(_\w+\.py)`", DOC)))
DOTTED = sorted(set(re.findall(r"\bdynamo_schema(?:\.\w+)+", DOC)))


def test_the_doc_names_paths() -> None:
    """The patterns match (a test that checks nothing could not fail)."""
    assert len(SLASH_PATHS) >= 2 and len(PKG_PATHS) >= 30 and len(DOTTED) >= 5 and BARE_MODULES


@pytest.mark.parametrize("path", SLASH_PATHS)
def test_repository_path_exists(path: str) -> None:
    assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which does not exist"


@pytest.mark.parametrize("path", sorted(set(PKG_PATHS) | set(INLINE_PKG_PATHS)))
def test_package_path_exists(path: str) -> None:
    assert (PKG / path).exists(), f"docs/architecture.md names {path} (under dynamo_schema/), which does not exist"


@pytest.mark.parametrize("name", BARE_MODULES)
def test_bare_module_exists(name: str) -> None:
    assert any(PKG.rglob(name)), f"docs/architecture.md names {name}: no such module under dynamo_schema/"


@pytest.mark.parametrize("dotted", DOTTED)
def test_dotted_name_resolves(dotted: str) -> None:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            assert hasattr(obj, attr), f"docs/architecture.md names {dotted}: {attr!r} not found"
            obj = getattr(obj, attr)
        return
    pytest.fail(f"docs/architecture.md names {dotted}, which does not import")


def test_every_package_has_a_paragraph() -> None:
    packages = sorted(p.name for p in PKG.iterdir() if (p / "__init__.py").is_file())
    missing = [p for p in packages if f"**`{p}/`**" not in DOC and p != "_data"]
    assert not missing, f"docs/architecture.md has no paragraph for {missing}"
