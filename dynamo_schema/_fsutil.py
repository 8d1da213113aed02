"""Atomic writes confined to an output folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def safe_join(root: Path, rel: str) -> Path:
    """``root / rel``, refusing any path that would land outside ``root``."""
    base = root.resolve()
    target = (base / rel).resolve()
    if target != base and base not in target.parents:
        raise ValueError(f"refusing to write outside {root}: {rel}")
    return target


def atomic_write(root: Path, rel: str, text: str) -> Path:
    target = safe_join(root, rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target
