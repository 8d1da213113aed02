"""The published schemas' explicit nulls (``_schemagen.accept_pruned_nulls``) and Markdown descriptions
(``markdown_descriptions``).

kube-apiserver prunes an explicit null before validating unless the field is ``nullable`` or has a
``default`` (apiextensions-apiserver ``PruneNonNullableNullsWithoutDefaults``; a defaulted null is
defaulted): so a JSON Schema tool must accept the null of an optional property, and of a required one only
when nullable or defaulted (else the server reports the missing field). The resource root's ``metadata`` is
kept as is (our design, the function's docstring: a null there leaves the object without a name)."""

from __future__ import annotations

from typing import Any

import jsonschema

from dynamo_schema._pipeline._schemagen import accept_pruned_nulls, markdown_descriptions


def _accepts(schema: dict[str, Any], instance: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(instance)


OBJ = {"type": "object"}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["req", "dflt", "nl"],
    "properties": {
        "data": {"type": "string"},  # optional, sorts before "metadata"
        "metadata": {"$ref": "#/$defs/Meta"},
        "spec": {"$ref": "#/$defs/Spec"},  # optional, sorts after "metadata"
        "req": {"type": "string"},  # required, no default
        "dflt": {"type": "string", "default": "x"},  # required, defaulted
        "nl": {"type": "string", "nullable": True},  # required, nullable
    },
    "$defs": {
        "Meta": {"type": "object", "properties": {"name": {"type": "string"}}},
        "Spec": {"type": "object", "properties": {"metadata": {"$ref": "#/$defs/Meta"}, "x": {"type": "integer"}}},
    },
}
GOOD = {"req": "a", "dflt": "b", "nl": "c"}


def test_nulls_are_accepted_where_the_api_server_prunes_or_defaults_them() -> None:
    # mutants 58d34d7b0320 (nullable/default), 6e9054426b04 (optional vs required), 327a9bf4a802 and
    # 26d7ff594900 (only the root's metadata is kept), 83aafa54110b (the definitions are walked)
    out = accept_pruned_nulls(SCHEMA)
    assert _accepts(out, GOOD)
    for key in ("data", "spec", "dflt", "nl"):
        assert _accepts(out, {**GOOD, key: None}), key
    assert not _accepts(out, {**GOOD, "req": None})  # required, neither nullable nor defaulted
    assert not _accepts(out, {**GOOD, "metadata": None})  # the root's metadata
    assert _accepts(out, {**GOOD, "metadata": {"name": None}})  # inside it: an optional property
    assert _accepts(out, {**GOOD, "spec": {"metadata": None, "x": None}})  # metadata below the root
    assert not _accepts(SCHEMA, {**GOOD, "data": None})  # the input schema is left unchanged


def test_only_descriptions_become_markdown() -> None:
    """RST literals (````x````) become Markdown code spans in ``description`` values only; another string
    keyword (a ``default``, an ``enum`` value) keeps its text as the model gives it."""
    # mutant c8a3dbbcad7a
    node = {"description": "set ``a``", "default": "``a``", "$comment": "``b``",
            "properties": {"p": {"description": "``c``", "const": "``d``"}}}
    assert markdown_descriptions(node) == {"description": "set `a`", "default": "``a``", "$comment": "``b``",
                                           "properties": {"p": {"description": "`c`", "const": "``d``"}}}
