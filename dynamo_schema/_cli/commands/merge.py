"""The ``merge`` command body: blueprint + override files -> effective DGD YAML on stdout.

Warnings go to stderr as ``warning: PATH: MESSAGE`` (upstream ``dgd-apply-overrides`` wording),
failures as ``error: MESSAGE`` with exit status 1; unreadable input is a usage/I-O error (2).
``override_path`` may hold a partial DGD or a whole DGDR manifest (its ``spec.overrides.dgd`` is used;
a DGDR without an override normalises the blueprint).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import IO, Any, TextIO


def _read_one(path: str) -> Any:
    """The one document of ``path`` (``-``: stdin), read like kubectl reads it (``_load``: duplicate
    keys are errors, keys are strings, problems carry ``file:line:col``). Raises ``LoadError``,
    ``OSError`` or ``ValueError``."""
    from dynamo_schema._io._load import load_path

    docs = [d.data for d in load_path(path) if d.data is not None]
    if not docs:  # an empty file or a lone ``null``: upstream's nil object (checked by the merge)
        return None
    if len(docs) != 1:
        raise ValueError(f"{path}: expected exactly one YAML document, found {len(docs)}")
    return docs[0]


def _dump(obj: Any) -> str:
    from dynamo_schema._io._emit import dump_all

    return dump_all([obj])


def run_merge(
    blueprint_path: str,
    override_path: str,
    stdout: IO[str],
    stderr: IO[str],
    schema_for: Callable[[str, str], dict[str, Any]] | None = None,
    validator: Callable[[Any], list[str]] | None = None,
) -> int:
    from dynamo_schema._core._diagnostics import DynamoSchemaError
    from dynamo_schema._merge._override import MergeError, apply_overrides
    from dynamo_schema._pipeline._merge_check import override_from_document

    try:
        blueprint = _read_one(blueprint_path)
        override_doc = _read_one(override_path)
    except (OSError, ValueError, DynamoSchemaError) as exc:
        stderr.write(f"error: {exc}\n")
        return 2
    if blueprint is None or override_doc is None:
        role = "blueprint" if blueprint is None else "override"
        stderr.write(f"error: {role} must not be nil\n")  # upstream dgdoverride wording
        return 1
    try:
        override = override_from_document(override_doc)
    except MergeError as exc:
        stderr.write(f"error: {exc}\n")
        return 1
    if override is None:
        # a DGDR without spec.overrides.dgd: the blueprint, normalised (upstream --dgdr-spec protocol)
        api = blueprint.get("apiVersion") if isinstance(blueprint, dict) else None
        override = {"apiVersion": api, "kind": "DynamoGraphDeployment"}
    try:
        result = apply_overrides(blueprint, override, schema_for=schema_for)
    except MergeError as exc:
        for w in exc.warnings:
            stderr.write(f"warning: {w}\n")
        stderr.write(f"error: {exc}\n")
        return 1
    for w in result.warnings:
        stderr.write(f"warning: {w}\n")
    if validator is not None:
        problems = validator(result.dgd)
        if problems:  # the effective DGD is one the API server would refuse: not printed
            for line in problems:
                stderr.write(f"error: {line}\n")
            return 1
    stdout.write(_dump(result.dgd))
    return 0


def run(ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..._pipeline._merge_check import result_errors

    return int(run_merge(ns.blueprint, ns.override, stdout, stderr,
                         validator=result_errors if ns.validate else None))
