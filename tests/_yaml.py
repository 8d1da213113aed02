"""YAML that tests write: through the project's Kubernetes-safe emitter, so a generated string such as
``n``, ``on`` or ``0x1`` stays a string when a Kubernetes-style loader (ours, kubectl's) reads it back.
``yaml.safe_dump`` would write ``a: n`` unquoted, a boolean to sigs.k8s.io/yaml; tests/test_static.py
keeps ``safe_dump`` out of the tests."""

from __future__ import annotations

from typing import Any


def dump(obj: Any) -> str:
    from dynamo_schema._io._emit import dump as _dump

    return _dump(obj)


def dump_all(objs: list[Any]) -> str:
    from dynamo_schema._io._emit import dump_all as _dump_all

    return _dump_all(objs)
