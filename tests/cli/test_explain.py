"""explain: descriptions (ours for Dynamo fields, kubernetes-validate's for core fields read at run time),
both API versions, every modelled kind, --recursive, did-you-mean; description coverage of schemas/."""

from __future__ import annotations

import difflib
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._cli._main import main

ROOT = Path(__file__).resolve().parents[2]
CRDS = ROOT.parent / "shared" / "reference" / "dynamo" / "crds"

# properties whose values are core Kubernetes types (not Dynamo-specific)
CORE = {"podTemplate", "extraPodSpec", "extraPodMetadata", "mainContainer", "affinity", "tolerations", "env",
        "envFrom", "volumeMounts", "livenessProbe", "readinessProbe", "startupProbe", "securityContext",
        "imagePullSecrets", "volumes", "topologySpreadConstraints", "conditions", "lifecycle", "labelSelector",
        "resourceClaims", "metadata", "containers", "initContainers", "ephemeralContainers", "claims",
        "profilingJob", "behavior", "metrics", "envs", "podTemplateSpec"}


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def description_of(text: str) -> str:
    lines = text.splitlines()
    i = lines.index("DESCRIPTION:")
    body = []
    for line in lines[i + 1:]:
        if not line.startswith("    "):
            break
        body.append(line.strip())
    return " ".join(body)


def test_explain_replicas_prints_a_description() -> None:
    rc, out, _ = run("explain", "dgd.spec.components.replicas")
    assert rc == 0
    assert out.startswith("KIND:     DynamoGraphDeployment\nVERSION:  nvidia.com/v1beta1\n")
    assert "FIELD:    replicas <integer>" in out
    desc = description_of(out)
    assert "pods" in desc and "scalingAdapter" in desc


def _k8s_description(definition: str, prop: str) -> str:
    import kubernetes_validate

    base = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema" / "v1.32.0-local"
    defs = json.loads((base / "_definitions.json").read_text())["$defs"]
    return " ".join(defs[definition]["properties"][prop]["description"].split())


def test_core_fields_are_described_from_kubernetes_validate_at_run_time() -> None:
    want = _k8s_description("io.k8s.api.core.v1.Container", "image")
    rc, out, _ = run("explain", "dgd.spec.components.podTemplate.spec.containers.image")
    assert rc == 0 and description_of(out) == want
    # never copied into our files
    for f in list((ROOT / "schemas").rglob("*.json")) + [ROOT / "tools" / "descriptions.yaml"]:
        assert want[:60] not in f.read_text(), f
    want = _k8s_description("io.k8s.api.batch.v1.JobSpec", "backoffLimit")
    rc, out, _ = run("explain", "dgdr.spec.overrides.profilingJob.backoffLimit")
    assert rc == 0 and description_of(out) == want
    rc, out, _ = run("explain", "--api-version", "nvidia.com/v1alpha1", "dgd.spec.services.extraPodSpec.mainContainer.image")
    assert rc == 0 and description_of(out) == _k8s_description("io.k8s.api.core.v1.Container", "image")


def test_both_versions() -> None:
    rc, out, _ = run("explain", "--api-version", "nvidia.com/v1alpha1", "dgd.spec.services.replicas")
    assert rc == 0 and "VERSION:  nvidia.com/v1alpha1" in out and description_of(out)
    rc, _, err = run("explain", "dgd.spec.services")
    assert rc == 1 and "does not exist in DynamoGraphDeployment.spec" in err
    rc, _, err = run("explain", "--api-version", "nvidia.com/v2", "dgd")
    assert rc == 1 and "served: nvidia.com/v1beta1, nvidia.com/v1alpha1" in err
    assert run("explain", "--api-version", "v1alpha1", "dcd.spec.serviceName")[0] == 0


@pytest.mark.parametrize("kind,field,version", [
    ("pcs", "spec.template.cliques", "grove.io/v1alpha1"),
    ("PodCliqueSet", "spec.replicas", "grove.io/v1alpha1"),
    ("lws", "spec.leaderWorkerTemplate.size", "leaderworkerset.x-k8s.io/v1"),
    ("dgdr", "spec.sla.ttft", "nvidia.com/v1beta1"),
    ("dcd", "spec.replicas", "nvidia.com/v1beta1"),
    ("deploymentspec", "", "infercrane.dev/v1"),
])
def test_every_modelled_kind(kind: str, field: str, version: str) -> None:
    rc, out, err = run("explain", f"{kind}.{field}" if field else kind)
    assert rc == 0, err
    assert f"VERSION:  {version}" in out


@pytest.mark.parametrize("path", ["dgd", "dgd.spec", "dgd.spec.restart", "dgd.spec.components"])
def test_fields_heading_follows_exactly_one_blank_line(path: str) -> None:
    """kubectl explain (k8s.io/kubectl@v0.32.0 pkg/explain/model_printer.go, ``VisitKind``) writes the
    description and then ``Write("\\nFIELDS:")``: one blank line, never two and never none, before
    ``FIELDS:`` (model_printer_test.go: ``     OneKind has a short description\\n\\nFIELDS:``). That
    holds whatever precedes it here: the header alone (``dgd``), a rule line (``dgd.spec``), a
    description (``dgd.spec.restart``), several constraint lines (``dgd.spec.components``)."""
    # mutant f7afaea47423
    rc, out, _ = run("explain", path)
    assert rc == 0
    lines = out.splitlines()
    i = lines.index("FIELDS:")
    assert lines[i - 1] == "" and lines[i - 2] != "", lines[: i + 1]


@pytest.mark.parametrize("path", ["dgd", "dcd", "dgdr", "pcs"])
def test_a_node_without_a_description_prints_empty(path: str) -> None:
    """kubectl explain always prints the ``DESCRIPTION:`` block, ``<empty>`` when the schema has none
    (k8s.io/kubectl@v0.32.0 pkg/explain/v2/templates/plaintext.tmpl ``output``: ``or (include "description"
    ...) "<empty>" | wrap 76 | indent 4``; the older model_printer.go ``WriteWrapped("<empty>")``). The
    kind roots of the generated schemas carry no description."""
    rc, out, _ = run("explain", path)
    assert rc == 0
    lines = out.splitlines()
    assert lines[3:6] == ["DESCRIPTION:", "    <empty>", ""], lines[:8]


def test_recursive_lists_nested_fields_indented() -> None:
    _, flat, _ = run("explain", "dgd.spec.components")
    rc, deep, _ = run("explain", "dgd.spec.components", "--recursive")
    assert rc == 0
    assert "\n    packDomain\t<string> -required-" in deep  # topologyConstraint.packDomain, one level in
    assert "packDomain\t" not in flat
    assert "\n        image\t<string>" in deep  # podTemplate.spec.containers.image
    rc, pcs, _ = run("explain", "pcs.spec", "--recursive")
    assert rc == 0 and "\n    cliques\t<[]Object> -required-" in pcs


def test_did_you_mean() -> None:
    rc, out, err = run("explain", "dgd.spec.components.replics")
    assert (rc, out) == (1, "")
    assert err == "error: field 'replics' does not exist in DynamoGraphDeployment.spec.components; " \
                  "did you mean 'replicas'?\n"
    rc, _, err = run("explain", "dynamographdeploymnt")
    assert rc == 1 and "did you mean 'DynamoGraphDeployment'" in err


# ----------------------------------------------------------------------------------------- coverage
def _resolve(root: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and ("$ref" in node or "x-dynamo-schema-null" in node):
        if "x-dynamo-schema-null" in node:  # the exported schema's pruned-null wrapper: {anyOf: [node, null]}
            node = node["anyOf"][0]
            continue
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def _paths(root: dict[str, Any], node: Any, prefix: str, out: dict[str, bool], depth: int = 0) -> None:
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > 30:
        return
    if node.get("type") == "array":
        _paths(root, node.get("items", {}), prefix, out, depth + 1)
        return
    if isinstance(node.get("additionalProperties"), dict) and "properties" not in node:
        _paths(root, node["additionalProperties"], prefix, out, depth + 1)
        return
    for name, sub in (node.get("properties") or {}).items():
        if name in CORE or (not prefix and name in ("apiVersion", "kind", "spec", "status")):
            if not prefix and name in ("spec", "status"):
                _paths(root, sub, name, out, depth + 1)
            continue
        path = f"{prefix}.{name}"
        described = bool(sub.get("description") or (sub.get("anyOf") or [{}])[0].get("description")
                         or _resolve(root, sub).get("description"))
        out[path] = described
        _paths(root, sub, path, out, depth + 1)


def _dynamo_paths() -> dict[str, bool]:
    out: dict[str, bool] = {}
    for f in sorted((ROOT / "schemas" / "nvidia.com").glob("*.json")):
        schema = json.loads(f.read_text())
        one: dict[str, bool] = {}
        _paths(schema, schema, "", one)
        out.update({f"{f.stem}:{k}": v for k, v in one.items()})
    return out


def test_at_least_95_percent_of_dynamo_property_paths_are_described() -> None:
    paths = _dynamo_paths()
    assert len(paths) > 500  # DGD, DCD and DGDR in both versions
    missing = sorted(p for p, ok in paths.items() if not ok)
    share = 1 - len(missing) / len(paths)
    assert share >= 0.95, (share, missing[:20])


@pytest.mark.shared
def test_descriptions_are_our_own_words() -> None:
    """No description repeats the upstream CRD's sentence for the same field."""
    ours = yaml.safe_load((ROOT / "tools" / "descriptions.yaml").read_text())
    files = {"DynamoGraphDeployment": "nvidia.com_dynamographdeployments.yaml",
             "DynamoComponentDeployment": "nvidia.com_dynamocomponentdeployments.yaml",
             "DynamoGraphDeploymentRequest": "nvidia.com_dynamographdeploymentrequests.yaml"}
    close = []
    for key, entries in ours.items():
        kind, version = key.split("/")
        if kind not in files:  # the CRDs of the other bundle kinds are not in ../shared/reference
            continue
        crd = yaml.load((CRDS / files[kind]).read_text(), Loader=yaml.CSafeLoader)
        node0 = next(v for v in crd["spec"]["versions"] if v["name"] == version)["schema"]["openAPIV3Schema"]
        for path, text in entries.items():
            node = node0
            for part in path.split("."):
                while "properties" not in node and ("items" in node or "additionalProperties" in node):
                    node = node.get("items") or node["additionalProperties"]
                node = (node.get("properties") or {}).get(part, {})
            upstream = " ".join(str(node.get("description", "")).split())
            if upstream and difflib.SequenceMatcher(None, text.lower(), upstream.lower()).ratio() > 0.8:
                close.append((key, path))
    assert close == []


def test_every_explained_schema_has_one_type_per_node() -> None:
    """explain names a node's type from its ``type`` string (a nullable field is an ``anyOf`` with a null
    branch, marked ``x-dynamo-schema-null``): no schema explain walks, ours or an earlier release's, has a
    ``type`` list (only ``$defs/PrunedNull``'s ``not``, which explain never reaches). A type list would print
    as ``<['string', 'null']>``."""
    from dynamo_schema._schema import _releases

    def lists(node: Any, path: str, out: list[str]) -> list[str]:
        if isinstance(node, dict):
            if isinstance(node.get("type"), list) and not path.endswith("$defs/PrunedNull/not"):
                out.append(path)
            for key, value in node.items():
                lists(value, f"{path}/{key}", out)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                lists(value, f"{path}/{i}", out)
        return out

    files = sorted((ROOT / "schemas").rglob("*.json"))
    assert len(files) == 14  # the generated set (tests/models/test_models.py keeps it current)
    found = [p for f in files for p in lists(json.loads(f.read_text()), f.name, [])]
    for release in _releases.RELEASES:
        for kind in _releases.kinds(release):
            for version in _releases.served_versions(release, kind):
                found += lists(_releases.schema(release, f"nvidia.com/{version}", kind), f"{release}/{kind}", [])
    assert found == []
    assert lists({"a": {"type": ["string", "null"]}}, "x", []) == ["x/a"]  # the walk finds one
