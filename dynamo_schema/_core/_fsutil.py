"""Atomic writes confined to an output folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class UnsafePathError(ValueError):
    """A write that would land outside the output folder (``..``, an absolute name, a symlink)."""


def safe_join(root: Path, rel: str) -> Path:
    """``root / rel``, refusing any path that would land outside ``root`` (also through a symlink)."""
    base = Path(root).resolve()
    target = (base / rel).resolve()
    if target != base and base not in target.parents:
        link = base / rel
        why = " (through a symbolic link)" if os.path.islink(link) or any(
            os.path.islink(p) for p in link.parents if base in p.parents) else ""
        raise UnsafePathError(f"refusing to write outside {root}{why}: {rel}")
    return target


def _default_mode() -> int:
    """The mode ``open()`` gives a new file: 0666 minus the process umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(root: Path, rel: str, text: str) -> Path:
    """Write ``text`` to ``root/rel`` atomically (temporary file + rename), with the mode a plain
    ``open()`` would give (``mkstemp``'s 0600 is for secrets, not for manifests)."""
    target = safe_join(root, rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, _default_mode())
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


MANIFEST = ".dynamo-schema-render"
_MANIFEST_HEAD = "# files written by `python -m dynamo_schema render -o` (replaced by the next render)\n"


def _recorded(root: Path) -> list[str]:
    try:
        text = (Path(root) / MANIFEST).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def replace_output(root: Path, files: list[tuple[str, str]]) -> list[Path]:
    """Write ``files`` (relative name, text) under ``root`` and remove what the previous render into
    ``root`` wrote and this one does not: the names recorded in ``root/.dynamo-schema-render``. Files
    that no render recorded are never touched. The record first lists both sets (an interrupted run
    still knows every file it may have written), then only the new one."""
    root = Path(root)
    names = [rel for rel, _ in files]
    for rel in names:
        safe_join(root, rel)  # refuse before writing anything
    previous = _recorded(root)
    atomic_write(root, MANIFEST, _MANIFEST_HEAD + "".join(f"{n}\n" for n in dict.fromkeys(previous + names)))
    written = [atomic_write(root, rel, text) for rel, text in files]
    keep = set(names)
    for rel in previous:
        if rel in keep or rel == MANIFEST:
            continue
        try:
            target = safe_join(root, rel)
        except UnsafePathError:
            continue  # a record edited by hand to point outside: ignored
        if target.is_file() and not target.is_symlink():
            target.unlink()
    atomic_write(root, MANIFEST, _MANIFEST_HEAD + "".join(f"{n}\n" for n in names))
    return written
