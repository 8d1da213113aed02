"""Validation of built-in Kubernetes kinds against the schemas bundled by ``kubernetes-validate``.

kubeconform's behaviour, offline: the strict (``additionalProperties: false``) standalone schemas of one
Kubernetes release, chosen as the newest bundled release not newer than the requested one. A kind with no
schema is reported as skipped. Validators are compiled once per (version, kind) and reused.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ._diagnostics import Diagnostic

DEFAULT_KUBERNETES_VERSION = "1.32.0"


@cache
def _schema_dir(version: str, strict: bool) -> Path | None:
    try:
        import kubernetes_validate
    except ImportError:  # pragma: no cover - dependency is declared
        return None
    base = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
    want = tuple(int(x) for x in version.lstrip("v").split(".")[:2])
    suffix = "-local-strict" if strict else "-local"
    best: tuple[tuple[int, int], Path] | None = None
    for d in base.iterdir():
        if not d.name.endswith(suffix) or not d.name.startswith("v"):
            continue
        try:
            ver = tuple(int(x) for x in d.name[1:].split("-")[0].split(".")[:2])
        except ValueError:
            continue
        if ver <= want and (best is None or ver > best[0]):
            best = (ver, d)  # type: ignore[assignment]
    return best[1] if best else None


def _kind_file(api_version: str, kind: str) -> str:
    group, _, version = api_version.rpartition("/")
    if not group:
        return f"{kind.lower()}-{version}.json"
    return f"{kind.lower()}-{group.split('.')[0]}-{version}.json"


@cache
def _validator(api_version: str, kind: str, version: str, strict: bool) -> Any:
    d = _schema_dir(version, strict)
    if d is None:
        return None
    path = d / _kind_file(api_version, kind)
    if not path.is_file():
        return None
    import jsonschema

    schema = json.loads(path.read_text())
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema, registry=_registry(str(d)))


@cache
def _registry(d: str) -> Any:
    """The definitions as a referencing registry, crawled once (not on every lookup)."""
    from referencing import Registry, Resource

    data = json.loads((Path(d) / "_definitions.json").read_text())
    data.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    return Registry().with_resource("_definitions.json", Resource.from_contents(data)).crawl()


def has_schema(api_version: str, kind: str, version: str = DEFAULT_KUBERNETES_VERSION) -> bool:
    d = _schema_dir(version, True)
    return d is not None and (d / _kind_file(api_version, kind)).is_file()


def validate(obj: dict[str, Any], *, version: str = DEFAULT_KUBERNETES_VERSION, strict: bool = True) -> list[Diagnostic] | None:
    """Diagnostics for a built-in kind, or ``None`` when no bundled schema knows it (skipped)."""
    v = _validator(str(obj.get("apiVersion", "")), str(obj.get("kind", "")), version, strict)
    if v is None:
        return None
    out = []
    for err in sorted(v.iter_errors(obj), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        rule = "k8s-schema." + str(err.validator)
        if err.validator == "additionalProperties" and strict:
            rule = "schema.unknown-field"
        out.append(Diagnostic(rule=rule, path=tuple(err.absolute_path), message=err.message))
    return out
