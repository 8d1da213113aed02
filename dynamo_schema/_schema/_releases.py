"""Release profiles: which operator release a manifest is judged for, and that release's CRD schemas.

The reference revision (ai-dynamo/dynamo@2a6da14c, the 1.5 line) is the default; its schemas are the
bundled ones (``_schemas.py``). The earlier releases 0.8 – 1.4 are the operator as it stood on main when
each release line was cut (``../shared/reference/dynamo/crds-history/SOURCE.md``). Their schemas come from a
generated store, ``dynamo_schema/_data/releases/`` (tools/gen_release_schemas.py; docs/decisions.md D48):
``index.json`` (per release: commit, served versions per kind, storage version, status subresource, the
packs to read) and ``packs/*.json`` (content-addressed schema fragments, each stored once for every
release that shares it). Only the selected release's packs are read, on first use.

A release schema is the CRD's ``openAPIV3Schema`` without descriptions, the fragments linked with
``{"$ref": "#/$defs/<hash>"}``: the validators read it as they read the bundled schemas.

``release_of("1.1.3") == "1.1"``; the reference line (``1.5``, ``1.5.0``…) and ``""`` are ``""``.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Any

from .._core._diagnostics import DynamoSchemaError

__all__ = [
    "REFERENCE",
    "REFERENCE_COMMIT",
    "RELEASES",
    "UnknownRelease",
    "commit",
    "export",
    "has_cel_rules",
    "known_text",
    "release_of",
    "schema",
    "served_versions",
    "status_subresource",
    "storage_version",
]

#: The release line of the reference revision (the default profile; its schemas are the bundled ones).
REFERENCE = "1.5"
REFERENCE_COMMIT = "2a6da14c83617f5412caba5777dbf0e2399e9c5f"
#: The earlier releases with a profile, oldest first (tests/schema/test_release_schemas.py: the store's).
RELEASES: tuple[str, ...] = ("0.8", "0.9", "1.0", "1.1", "1.2", "1.3", "1.4")

_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_data", "releases")


class UnknownRelease(DynamoSchemaError, ValueError):
    """An operator version that is neither one of :data:`RELEASES` nor the reference line (still a
    ``ValueError`` for callers that catch that)."""


def known_text() -> str:
    return ", ".join(RELEASES) + f", {REFERENCE} (the reference revision {REFERENCE_COMMIT[:8]}, the default)"


def release_of(version: str | None) -> str:
    """The profile of an operator version: ``"X.Y"`` of :data:`RELEASES`, or ``""`` for the reference line.

    Accepts ``X.Y`` and ``X.Y.Z`` (a leading ``v``, a pre-release or build suffix allowed); raises
    :class:`UnknownRelease` (a ``ValueError``) for anything else, naming the known releases."""
    text = (version or "").strip()
    if not text:
        return ""
    import re

    m = re.fullmatch(r"v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*)([-+][0-9A-Za-z.+-]+)?)?", text)
    if m is None:
        raise UnknownRelease(f"expected X.Y or X.Y.Z (e.g. 1.1), got {version!r}; known releases: {known_text()}")
    line = f"{m.group(1)}.{m.group(2)}"
    if line == REFERENCE:
        return ""
    if line not in RELEASES:
        raise UnknownRelease(f"no profile for operator release {line} ({version!r}); known releases: {known_text()}")
    return line


def _read(rel: str) -> Any:
    path = os.path.join(_DIR, *rel.split("/"))
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read())
    except FileNotFoundError:  # zipped or otherwise virtual: the resource API
        from importlib import resources

        ref = resources.files("dynamo_schema").joinpath("_data").joinpath("releases")
        for part in rel.split("/"):
            ref = ref.joinpath(part)
        return json.loads(ref.read_text(encoding="utf-8"))


@cache
def _index() -> dict[str, Any]:
    data = _read("index.json")
    return data["releases"]  # type: ignore[no-any-return]


def _entry(release: str) -> dict[str, Any]:
    entry = _index().get(release)
    if entry is None:
        raise UnknownRelease(f"no profile for operator release {release!r}; known releases: {known_text()}")
    return entry  # type: ignore[no-any-return]


@cache
def _defs(release: str) -> dict[str, Any]:
    """Every fragment of ``release`` (its packs merged; read once)."""
    out: dict[str, Any] = {}
    for pack in _entry(release)["packs"]:
        out.update(_read(f"packs/{pack}.json"))
    return out


def commit(release: str) -> str:
    """The upstream commit of a release profile (the reference revision's for ``""``)."""
    return REFERENCE_COMMIT if not release else str(_entry(release)["commit"])


def served_versions(release: str, kind: str) -> tuple[str, ...]:
    """The ``nvidia.com`` versions of ``kind`` that ``release`` serves (``()``: the kind did not exist)."""
    k = _entry(release)["kinds"].get(kind)
    return tuple(k["versions"]) if k else ()


def kinds(release: str) -> tuple[str, ...]:
    return tuple(_entry(release)["kinds"])


def status_subresource(release: str, api_version: str, kind: str) -> bool:
    k = _entry(release)["kinds"].get(kind) or {}
    v = (k.get("versions") or {}).get(api_version.rpartition("/")[2]) or {}
    return bool(v.get("status", True))


@cache
def schema(release: str, api_version: str, kind: str) -> dict[str, Any] | None:
    """The schema of ``kind`` in ``api_version`` at ``release`` (shared, do not mutate); None when the release
    does not serve it."""
    group, _, version = api_version.rpartition("/")
    k = _entry(release)["kinds"].get(kind)
    if not k or k.get("group") != group or version not in k["versions"]:
        return None
    every = _defs(release)
    root = every[k["versions"][version]["schema"]]
    # only the fragments this schema reaches: a walk over its whole ``$defs`` (CEL's "has rules" check, an
    # export) must not see the other kinds' fragments
    return {"$defs": {key: every[key] for key in _reachable(every, root)}, **root}


def storage_version(release: str, kind: str) -> str:
    k = _entry(release)["kinds"].get(kind) or {}
    return str(k.get("storage") or "")


def _reachable(defs: dict[str, Any], root: Any) -> list[str]:
    """The fragments ``root`` reaches through ``$ref``, in first-reached order."""
    seen: dict[str, None] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo.extend(reversed(node))
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                key = ref[len("#/$defs/"):]
                if key not in seen:
                    seen[key] = None
                    todo.append(defs[key])
            todo.extend(reversed(list(node.values())))
    return list(seen)


@cache
def has_cel_rules(release: str, api_version: str, kind: str) -> bool:
    """Whether the schema (what its root reaches) carries any ``x-kubernetes-validations``."""
    root = schema(release, api_version, kind)
    return root is not None and "x-kubernetes-validations" in json.dumps(root)


def export(release: str) -> dict[str, dict[str, Any]]:
    """``{group/kind_version.json: standalone schema}`` of every kind and version ``release`` serves: the root
    with the fragments it reaches as ``$defs`` (the layout of ``schema --out``)."""
    out: dict[str, dict[str, Any]] = {}
    for kind, k in _entry(release)["kinds"].items():
        for version in k["versions"]:
            full = schema(release, f"{k['group']}/{version}", kind)
            assert full is not None
            root = {key: v for key, v in full.items() if key != "$defs"}
            out[f"{k['group']}/{kind.lower()}_{version}.json"] = {"$defs": dict(sorted(full["$defs"].items())), **root}
    return dict(sorted(out.items()))
