"""``_k8s._builtin_kinds``: the bundled Kubernetes schema chosen for a release, the file name of a kind and
the self-contained structural schema (``$ref`` made local) the built-in structural checker reads."""

from __future__ import annotations

from typing import Any

from dynamo_schema._k8s import _builtin_kinds as B


def test_an_exactly_bundled_release_uses_its_own_schemas() -> None:  # mutant 8e4a30ce59d3
    """docs/cli.md (``--kubernetes-version``): the newest bundled release *not newer* than the target is used,
    so a bundled release itself is chosen, not the one before it."""
    for version in ("1.33.0", "1.25.0"):
        d = B._schema_dir(version, True)
        assert d is not None and d.name == f"v{version}-local-strict"
        assert B._schema_dir(version, False).name == f"v{version}-local"  # type: ignore[union-attr]
    assert B._schema_dir("1.33.7", True).name == "v1.33.0-local-strict"  # type: ignore[union-attr]


def test_kind_file_name_length_cap() -> None:  # mutant 454f305ae7a5
    """The cap of ``_kind_file`` (ours, its comment): a name of more than 200 characters is no bundled schema."""
    # "<kind>-v1.json" is len(kind) + 8 characters
    assert B._kind_file("v1", "K" * 192) == "k" * 192 + "-v1.json"  # 200 characters: kept
    assert B._kind_file("v1", "K" * 193) is None  # 201: refused
    assert B._kind_file("v1", "Pod") == "pod-v1.json"
    assert B._kind_file("apps/v1", "Deployment") == "deployment-apps-v1.json"


def _refs(x: Any) -> list[str]:
    if isinstance(x, dict):
        return [*([x["$ref"]] if isinstance(x.get("$ref"), str) else []), *(r for v in x.values() for r in _refs(v))]
    if isinstance(x, list):
        return [r for v in x for r in _refs(v)]
    return []


def test_structural_schema_is_self_contained() -> None:  # mutants 04d9cfddc06b d2e376135ecf 8c9ad03143cd
    """The schema keeps the kind's own keys, every ``$ref`` into the bundled definitions file points into its
    own ``$defs`` (``#/$defs/<name>``) and each of them resolves there."""
    B.structural_schema.cache_clear()
    schema = B.structural_schema("apps/v1", "Deployment", "1.32.0")
    assert schema is not None
    assert schema["properties"]["metadata"]["$ref"] == "#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    assert {"properties", "type", "$defs"} <= set(schema)
    refs = _refs(schema)
    assert refs and all(r.startswith("#/$defs/") for r in refs)
    assert all(r[len("#/$defs/"):] in schema["$defs"] for r in refs)
    assert B.structural_schema("v1", "NoSuchKind", "1.32.0") is None


def test_a_dotted_group_is_named_by_its_first_label() -> None:  # mutant 383877a161fe
    """kubernetes-json-schema (the layout kubeconform reads: ``{{.ResourceKind}}{{.KindSuffix}}``, the suffix
    ``-`` + the group's first dot-separated label): networking.k8s.io/v1 Ingress is ``ingress-networking-v1.json``,
    so the bundled schema is found and a bad Ingress is refused."""
    assert B._kind_file("networking.k8s.io/v1", "Ingress") == "ingress-networking-v1.json"
    assert B.has_schema("networking.k8s.io/v1", "Ingress")
    bad = {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "i"},
           "spec": {"rules": "not-a-list"}}
    assert B.validate(bad)
