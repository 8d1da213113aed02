"""Validation of built-in Kubernetes kinds against the schemas bundled by ``kubernetes-validate``.

kubeconform's behaviour, offline: the strict (``additionalProperties: false``) standalone schemas of one
Kubernetes release, chosen as the newest bundled release not newer than the requested one. A kind with no
schema is reported as skipped. Validators are compiled once per (version, kind) and reused.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache

from .._core._diagnostics import Diagnostic
from .._core._lazyre import lazy

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:  # pathlib (with urllib.parse, ipaddress: ~3 ms) only where a schema is read, not in a cold validate
    from pathlib import Path
    from typing import Any

DEFAULT_KUBERNETES_VERSION = "1.32.0"

_VERSION_RE = re.compile(r"v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
# kind, group and version become part of a file name: only these characters may reach it
_SAFE_PART = lazy(r"[A-Za-z0-9.-]+")


def parse_version(version: str) -> tuple[int, int, int]:
    """``X.Y.Z`` (an optional leading ``v``) as integers; ``ValueError`` for anything else."""
    m = _VERSION_RE.fullmatch(str(version).strip())
    if m is None:
        raise ValueError(f"invalid Kubernetes version {version!r}: expected X.Y.Z, e.g. {DEFAULT_KUBERNETES_VERSION}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


@cache
def _base_dir() -> str | None:
    """The schema folder of ``kubernetes-validate``, found without importing it (it imports jsonschema)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("kubernetes_validate")
    except (ImportError, ValueError):  # pragma: no cover
        return None
    if spec is None or not spec.origin:  # pragma: no cover - dependency is declared
        return None
    base = os.path.join(os.path.dirname(spec.origin), "kubernetes-json-schema")
    return base if os.path.isdir(base) else None


@cache
def bundled_versions() -> tuple[str, ...]:
    """The Kubernetes releases whose schemas are bundled (``X.Y.Z``), oldest first."""
    base = _base_dir()
    if base is None:  # pragma: no cover - dependency is declared
        return ()
    found = []
    for name in os.listdir(base):
        if name.startswith("v") and name.endswith("-local-strict"):
            try:
                found.append(parse_version(name[1:].split("-")[0]))
            except ValueError:
                continue
    return tuple(".".join(map(str, v)) for v in sorted(set(found)))


def check_version(version: str) -> str:
    """``version`` normalised to ``X.Y.Z``; ``ValueError`` when malformed or older than every bundled
    release (every built-in kind would silently be skipped)."""
    want = parse_version(version)
    bundled = bundled_versions()
    if bundled and want[:2] < parse_version(bundled[0])[:2]:
        raise ValueError(f"no bundled Kubernetes schemas for {version}: the oldest bundled release is "
                         f"{bundled[0]} (bundled: {', '.join(bundled)})")
    return ".".join(map(str, want))


@cache
def _schema_dir(version: str, strict: bool) -> Path | None:
    from pathlib import Path

    found = _base_dir()
    if found is None:  # pragma: no cover - dependency is declared
        return None
    base = Path(found)
    try:
        want = parse_version(version)[:2]
    except ValueError:
        return None
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


def _kind_file(api_version: str, kind: str) -> str | None:
    """File name of the schema of (apiVersion, kind), or None when either holds characters that have
    no place in a file name (a manifest must not be able to point validation at an arbitrary file)."""
    group, _, version = api_version.rpartition("/")
    if not _SAFE_PART.fullmatch(kind) or not _SAFE_PART.fullmatch(version):
        return None
    if group and not _SAFE_PART.fullmatch(group):
        return None
    if ".." in kind or ".." in group or ".." in version:
        return None
    name = f"{kind.lower()}-{version}.json" if not group else f"{kind.lower()}-{group.split('.')[0]}-{version}.json"
    if len(name) > 200:  # no bundled schema has such a name (and the OS would refuse it: ENAMETOOLONG)
        return None
    return name


@cache
def _validator(api_version: str, kind: str, version: str, strict: bool) -> Any:
    d = _schema_dir(version, strict)
    if d is None:
        return None
    fname = _kind_file(api_version, kind)
    if fname is None:
        return None
    path = d / fname
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

    with open(os.path.join(d, "_definitions.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    data.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    return Registry().with_resource("_definitions.json", Resource.from_contents(data)).crawl()


_DEFS_REF = "/api/_definitions.json#/$defs/"
# the two ``oneOf`` of the Kubernetes definitions, as a structural schema says them (docs/decisions.md D50)
_ONE_OF = {"io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"x-kubernetes-int-or-string": True, "nullable": True},
           "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": ["string", "number", "null"]}}


@cache
def _defs(d: str) -> dict[str, Any]:
    with open(os.path.join(d, "_definitions.json"), encoding="utf-8") as fh:
        defs: dict[str, Any] = json.load(fh)["$defs"]
    return {**defs, **_ONE_OF}


def _local_refs(x: Any) -> Any:
    if isinstance(x, dict):
        ref = x.get("$ref")
        if isinstance(ref, str) and ref.startswith(_DEFS_REF):
            x = {**x, "$ref": "#/$defs/" + ref[len(_DEFS_REF):]}
        return {k: _local_refs(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_local_refs(v) for v in x]
    return x


@cache
def structural_schema(api_version: str, kind: str, version: str = DEFAULT_KUBERNETES_VERSION,
                      strict: bool = True) -> dict[str, Any] | None:
    """The bundled schema of a built-in kind as one self-contained document (``$ref: #/$defs/…``), for the
    structural checker that words errors as the API server does (``_schema/_builtin.py``); None: no schema."""
    d = _schema_dir(version, strict)
    fname = _kind_file(api_version, kind)
    if d is None or fname is None or not (d / fname).is_file():
        return None
    schema = _local_refs(json.loads((d / fname).read_text()))
    return {**schema, "$defs": _defs(str(d))}


def has_schema(api_version: str, kind: str, version: str = DEFAULT_KUBERNETES_VERSION) -> bool:
    d = _schema_dir(version, True)
    fname = _kind_file(api_version, kind)
    return d is not None and fname is not None and (d / fname).is_file()


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
