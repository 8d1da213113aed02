"""YAML that tests write: through the project's Kubernetes-safe emitter, so a generated string such as
``n``, ``on`` or ``0x1`` stays a string when a Kubernetes-style loader (ours, kubectl's) reads it back.
``yaml.safe_dump`` would write ``a: n`` unquoted, a boolean to sigs.k8s.io/yaml; tests/test_static.py
keeps ``safe_dump`` out of the tests. Also: the corpus read as v1beta1 documents (``v1beta1_documents``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def dump(obj: Any) -> str:
    from dynamo_schema._io._emit import dump as _dump

    return _dump(obj)


def dump_all(objs: list[Any]) -> str:
    from dynamo_schema._io._emit import dump_all as _dump_all

    return _dump_all(objs)


def v1beta1_documents(files: Iterable[Path], kinds: Iterable[str],
                      extra: Callable[[dict[str, Any]], list[Any]] | None = None) -> list[dict[str, Any]]:
    """Every document of ``kinds`` in ``files`` (read with libyaml; an unreadable file is skipped) as
    v1beta1: a v1alpha1 one converted, or left out when it does not convert. ``extra(doc)``: documents a
    v1alpha1 one brings along, read in turn after the file's own."""
    import yaml

    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    wanted = set(kinds)
    out: list[dict[str, Any]] = []
    for f in files:
        try:
            docs = list(yaml.load_all(Path(f).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
        except yaml.YAMLError:
            continue
        for d in docs:  # grows with what ``extra`` brings
            if not (isinstance(d, dict) and d.get("kind") in wanted):
                continue
            if d.get("apiVersion") == "nvidia.com/v1alpha1":
                if extra is not None:
                    docs += extra(d)
                try:
                    d = to_v1beta1(d)
                except Exception:
                    continue
            if d.get("apiVersion") == "nvidia.com/v1beta1":
                out.append(d)
    return out
