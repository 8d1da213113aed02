"""Golden-manifest matcher with the upstream directive semantics (see shared/reference/dynamo/golden/MATCHERS.md).

``$strict``, ``$pattern:``, ``$glob:``, ``$var:``, ``$ignore``, ``$exists``, ``$notexists``;
expected files are decoded the YAML 1.2 way (ruamel.yaml safe loader).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

MAPPING_DIRECTIVES = ("$ignore", "$exists", "$notexists")


class MatcherError(Exception):
    """A malformed golden file (bad directive, unknown variable): a hard error, not a mismatch."""


def load_yaml12_documents(text: str) -> list[Any]:
    yaml = YAML(typ="safe", pure=True)
    return [d for d in yaml.load_all(io.StringIO(text)) if d is not None]


def load_expected(path: Path | str) -> list[dict[str, Any]]:
    docs = load_yaml12_documents(Path(path).read_text(encoding="utf-8"))
    if not docs:
        raise MatcherError(f"{path}: no objects")
    for d in docs:
        if not isinstance(d, dict) or "apiVersion" not in d or "kind" not in d:
            raise MatcherError(f"{path}: every document needs apiVersion and kind")
    return docs


def substitute_vars(node: Any, variables: Mapping[str, str]) -> Any:
    if isinstance(node, str) and node.startswith("$var:"):
        name = node[len("$var:"):]
        if name not in variables:
            raise MatcherError(f"unknown variable {name!r}")
        return variables[name]
    if isinstance(node, dict):
        return {k: substitute_vars(v, variables) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute_vars(v, variables) for v in node]
    return node


def glob_to_regex(pattern: str) -> str:
    """Go ``path.Match`` syntax as a Python regex matching the whole string."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "\\":
            i += 1
            if i >= n:
                raise MatcherError(f"bad glob {pattern!r}")
            out.append(re.escape(pattern[i]))
        elif ch == "[":
            j = i + 1
            negate = j < n and pattern[j] == "^"
            if negate:
                j += 1
            body: list[str] = []
            while j < n and pattern[j] != "]":
                c = pattern[j]
                if c == "\\" and j + 1 < n:
                    j += 1
                    c = pattern[j]
                    body.append(re.escape(c))
                elif c == "-":
                    body.append("-")
                else:
                    body.append(re.escape(c))
                j += 1
            if j >= n:
                raise MatcherError(f"bad glob {pattern!r}")
            out.append("[" + ("^" if negate else "") + "".join(body) + "]")
            i = j
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _is_scalar(v: Any) -> bool:
    return not isinstance(v, (dict, list))


def _directive_mapping(expected: Any) -> str | None:
    if isinstance(expected, dict) and len(expected) == 1:
        (key,) = expected.keys()
        if key in MAPPING_DIRECTIVES:
            if expected[key] is not True:
                raise MatcherError(f"directive {key} must be true")
            return key
    return None


def _is_notexists(expected: Any) -> bool:
    return expected == "$notexists" or _directive_mapping(expected) == "$notexists"


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if type(expected) is not type(actual):
        return False
    return bool(expected == actual)


def match_node(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Mismatches between one expected node and one actual node (empty list = match)."""
    where = path or "<root>"
    directive = _directive_mapping(expected)
    if directive in ("$ignore", "$exists"):
        return [] if isinstance(actual, dict) else [f"{where}: expected a mapping"]
    if directive == "$notexists":
        return [f"{where}: field exists"]
    if isinstance(expected, str):
        if expected in ("$ignore", "$exists"):
            return [] if _is_scalar(actual) else [f"{where}: expected a scalar"]
        if expected == "$notexists":
            return [f"{where}: field exists"]
        if expected.startswith("$pattern:"):
            if not isinstance(actual, str):
                return [f"{where}: pattern requires a string, got {actual!r}"]
            return [] if re.fullmatch(expected[len("$pattern:"):], actual) else [f"{where}: {actual!r} does not match {expected!r}"]
        if expected.startswith("$glob:"):
            if not isinstance(actual, str):
                return [f"{where}: glob requires a string, got {actual!r}"]
            return [] if re.fullmatch(glob_to_regex(expected[len("$glob:"):]), actual) else [f"{where}: {actual!r} does not match {expected!r}"]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected a mapping, got {type(actual).__name__}"]
        strict = True
        if "$strict" in expected:
            strict = expected["$strict"]
            if not isinstance(strict, bool):
                raise MatcherError("directive $strict must be a boolean")
        problems: list[str] = []
        wanted: set[str] = set()
        for raw_key, sub in expected.items():
            if raw_key == "$strict":
                continue
            key = raw_key[1:] if isinstance(raw_key, str) and raw_key.startswith("$$") else raw_key
            sub_path = f"{path}.{key}" if path else str(key)
            if _is_notexists(sub):
                if key in actual:
                    problems.append(f"{sub_path}: field exists")
                continue
            wanted.add(key)
            if key not in actual:
                problems.append(f"{sub_path}: missing")
                continue
            problems.extend(match_node(sub, actual[key], sub_path))
        if strict:
            absent = {k for k, v in expected.items() if _is_notexists(v)}
            for key in actual:
                if key not in wanted and key not in absent:
                    problems.append(f"{(path + '.') if path else ''}{key}: unexpected field")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{where}: expected a sequence, got {type(actual).__name__}"]
        if len(expected) != len(actual):
            return [f"{where}: sequence length {len(actual)}, want {len(expected)}"]
        problems = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            problems.extend(match_node(e, a, f"{path}[{i}]"))
        return problems
    if not _is_scalar(actual):
        return [f"{where}: expected a scalar, got {type(actual).__name__}"]
    return [] if _scalar_equal(expected, actual) else [f"{where}: {actual!r} != {expected!r}"]


def gvk(obj: Mapping[str, Any]) -> str:
    return f"{obj.get('apiVersion')}/{obj.get('kind')}"


def match_manifests(expected_docs: Iterable[Mapping[str, Any]], actual_objs: Iterable[Mapping[str, Any]], variables: Mapping[str, str] | None = None) -> list[str]:
    """Document-level comparison: each expected doc matches exactly one actual object of its kind;
    no two expected docs claim the same object; no actual objects of a checked kind are left over."""
    variables = variables or {}
    expected = [substitute_vars(dict(d), variables) for d in expected_docs]
    actual = list(actual_objs)
    failures: list[str] = []
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for obj in actual:
        by_kind.setdefault(gvk(obj), []).append(obj)
    for objs in by_kind.values():
        objs.sort(key=lambda o: str((o.get("metadata") or {}).get("name", "")))
    claimed: dict[str, set[int]] = {}
    for kind in sorted({gvk(d) for d in expected}):
        candidates = by_kind.get(kind, [])
        claimed[kind] = set()
        for doc in [d for d in expected if gvk(d) == kind]:
            name = (doc.get("metadata") or {}).get("name")
            hits = [i for i, obj in enumerate(candidates) if not match_node(doc, obj)]
            if not hits:
                if not candidates:
                    failures.append(f"{kind} {name}: has not appeared")
                else:
                    best = next((o for o in candidates if (o.get("metadata") or {}).get("name") == name), candidates[0])
                    failures.append(f"{kind} {name}: does not match: " + "; ".join(match_node(doc, best)[:20]))
                continue
            if len(hits) > 1:
                failures.append(f"{kind} {name}: matches {len(hits)} objects, want exactly one")
                continue
            if hits[0] in claimed[kind]:
                failures.append(f"{kind} {name}: object already claimed by another expected document")
                continue
            claimed[kind].add(hits[0])
        if all(not f.startswith(f"{kind} ") for f in failures):
            for i, obj in enumerate(candidates):
                if i not in claimed[kind]:
                    failures.append(f"{kind} {(obj.get('metadata') or {}).get('name')}: unexpected object is present")
    return failures
