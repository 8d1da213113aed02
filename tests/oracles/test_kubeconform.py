"""The real kubeconform (``-strict``, offline) against what we emit and what upstream ships.

1. Every object ``render`` emits, for every project golden, every upstream golden input and every
   corpus document (v1beta1, and v1alpha1 converted to v1beta1), on both targets (``kubernetes``,
   ``grove``; a DCD renders on ``kubernetes`` only), is valid for kubeconform with our ``schemas/``
   (Dynamo, Grove, LWS) and the bundled Kubernetes schemas (built-in kinds), and for our own output
   validation (``check_rendered``): they must agree, object by object.
2. Every Dynamo document of the upstream corpus (v1beta1 and v1alpha1) is valid for kubeconform with our
   exported schemas, explicit nulls included (the API server prunes them), and for our schema + CEL layer.
3. The harness can fail: broken copies of rendered objects are refused by kubeconform and by us.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._io._emit import dump_all
from dynamo_schema._pipeline._render_object import check_rendered
from dynamo_schema._render import RenderError, RenderOptions, render

from . import _kubeconform as kc
from ._tools import ROOT, SHARED, require

pytestmark = [pytest.mark.shared, pytest.mark.oracle]

CORPUS = SHARED / "reference" / "dynamo" / "corpus"
UPSTREAM_GOLDEN = SHARED / "reference" / "dynamo" / "golden"
NVIDIA = ("DynamoGraphDeployment", "DynamoComponentDeployment", "DynamoGraphDeploymentRequest")
# Grove inputs whose render without Grove the operator itself refuses: a multinode component whose main
# container has no args takes the LeaderWorkerSet path, and checkMainContainer fails its reconcile
# (internal/controller/dynamocomponentdeployment_controller.go; operator cases LWS-ARGS-REQUIRED, D43).
LWS_ARGS_REFUSED = {"golden/scheduler-grove", "golden/topology-grove", "golden/vllm-multinode-grove", "upstream/dgd/grove"}
# the corpus renders for a cluster with DRA and the checkpoint gate (the GMS and checkpoint samples need
# them); DGD-managed checkpoints are not rendered on the component pathway (render.unsupported)
UNSUPPORTED = {("examples__backends__trtllm__deploy__snapshot-restore.yaml", "kubernetes")}
CORPUS_OPTIONS = RenderOptions(namespace="corpus", dra_enabled=True, checkpoint_enabled=True)
OPERATOR_FAILURES = {"render.lws-main-container", "render.no-multinode-orchestrator"}


def fill_structured_placeholders(text: str) -> str:
    """Placeholders that stand for a whole map or list (``nodeSelector: ${HW_NODE_SELECTOR}``, filled in
    by the recipe's env file) become an empty one; string placeholders stay (they are valid strings)."""
    text = re.sub(r"(nodeSelector:\s*)\$\{[A-Z_]+\}", r"\1{}", text)
    return re.sub(r"(tolerations:\s*)\$\{[A-Z_]+\}", r"\1[]", text)


def _corpus_docs(version: str) -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for path in sorted((CORPUS / version).glob("*.yaml")):
        docs = yaml.load_all(fill_structured_placeholders(path.read_text()), Loader=yaml.CSafeLoader)
        for i, doc in enumerate(docs):
            if isinstance(doc, dict) and doc.get("apiVersion") == f"nvidia.com/{version}" and doc.get("kind") in NVIDIA:
                out.append((path.name, i, doc))
    return out


def _render_sources() -> list[tuple[str, dict[str, Any], list[str], RenderOptions]]:
    """(label, v1beta1 object, targets, options) for every source we render."""
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    out: list[tuple[str, dict[str, Any], list[str], RenderOptions]] = []
    for opt in sorted((ROOT / "golden").glob("*/options.yaml")):
        data = yaml.load(opt.read_text(), Loader=yaml.CSafeLoader) or {}
        target = data.pop("target", None)
        if target not in ("kubernetes", "grove", "dcd") or (opt.parent / "expected-refusal.yaml").exists():
            continue  # a refusal golden renders nothing
        obj = yaml.load((opt.parent / "input.yaml").read_text(), Loader=yaml.CSafeLoader)
        targets = ["kubernetes", "grove"] if obj["kind"] == "DynamoGraphDeployment" else ["kubernetes"]
        # options.yaml also holds admission settings (golden/README.md); only RenderOptions fields here
        fields = {k: v for k, v in data.items() if k in RenderOptions._FIELDS}
        out.append((f"golden/{opt.parent.name}", obj, targets, RenderOptions(**fields)))
    for inp in sorted(UPSTREAM_GOLDEN.glob("*/*/input.yaml")):
        obj = yaml.load(inp.read_text(), Loader=yaml.CSafeLoader)
        targets = ["kubernetes", "grove"] if obj["kind"] == "DynamoGraphDeployment" else ["kubernetes"]
        out.append((f"upstream/{inp.parent.parent.name}/{inp.parent.name}", obj, targets, RenderOptions()))
    for version in ("v1beta1", "v1alpha1"):
        for name, i, doc in _corpus_docs(version):
            if doc["kind"] == "DynamoGraphDeploymentRequest":
                continue
            if version == "v1alpha1":
                doc = to_v1beta1(doc)
            targets = ["kubernetes", "grove"] if doc["kind"] == "DynamoGraphDeployment" else ["kubernetes"]
            out.append((f"corpus/{version}/{name}#{i}", doc, targets, CORPUS_OPTIONS))
    return out


def _render_all(tmp: Path) -> tuple[list[Path], dict[str, list[dict[str, Any]]], list[str]]:
    files: list[Path] = []
    rendered: dict[str, list[dict[str, Any]]] = {}
    failures: list[str] = []
    tmp.mkdir(parents=True, exist_ok=True)
    for n, (label, obj, targets, options) in enumerate(_render_sources()):
        for target in targets:
            refused_by_operator = target == "kubernetes" and label in LWS_ARGS_REFUSED
            try:
                objs = render(copy.deepcopy(obj), target, options)
            except RenderError as exc:
                base = label.split("/")[-1].split("#")[0]
                rules = {d.rule for d in exc.diagnostics}
                # the operator's own reconcile failures on this pathway (a LeaderWorkerSet main container
                # without arguments: dynamocomponentdeployment_controller.go checkMainContainer) render nothing
                if (base, target) not in UNSUPPORTED and not (refused_by_operator and rules & OPERATOR_FAILURES):
                    failures.append(f"{label} {target}: {exc}")
                continue
            if refused_by_operator:
                failures.append(f"{label} {target}: rendered, but the operator refuses it (LWS_ARGS_REFUSED)")
            path = tmp / f"{n:04d}-{target}.yaml"
            path.write_text(dump_all(objs), encoding="utf-8")
            files.append(path)
            rendered[str(path)] = objs
    return files, rendered, failures


def _kinds(objs: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(str(o.get("apiVersion")), str(o.get("kind"))) for o in objs}


# Kinds we render that have no schema here (other projects' CRDs): kubeconform cannot find one, and our
# output validation skips them too (``_k8s_schemas.validate`` returns None).
NO_SCHEMA = {"InferencePool", "VirtualService"}  # the scaling adapter is modelled (schemas/), like the other CRD-bundle kinds
# DRA's resource.k8s.io/v1 kinds: no schema in the default release's bundle (served from 1.34 on), so
# kubeconform finds none there; our output check validates them with the 1.34 schemas (test below)
DRA_KINDS = {"ResourceClaimTemplate"}


def _known_refusal(obj: dict[str, Any]) -> bool:
    """v1alpha1 ``componentType: main`` converts to a v1beta1 ``type: main`` (upstream converts the
    string as is): the operator's DCD for it is refused by the v1beta1 enum, by the API server, by
    kubeconform and by our output check (the CLI's ``render`` refuses to write it)."""
    return obj.get("kind") == "DynamoComponentDeployment" and (obj.get("spec") or {}).get("type") == "main"


def test_rendered_objects_are_valid_for_kubeconform_and_for_us(tmp_path: Path) -> None:
    from dynamo_schema._k8s import _builtin_kinds as _k8s_schemas
    from dynamo_schema._schema import _schemas

    binary = require("kubeconform")
    files, rendered, failures = _render_all(tmp_path / "out")
    assert failures == []
    all_objs = [o for objs in rendered.values() for o in objs]
    k8s = kc.k8s_schema_dir(tmp_path / "k8s", _kinds(all_objs))
    summary, results = kc.split(kc.run(binary, files, k8s))
    assert len(results) == len(all_objs), summary
    theirs = {(r["filename"], r.get("kind"), r.get("name")): r for r in results}
    disagree, unexpected, checked = [], [], 0
    for path, objs in rendered.items():
        for obj in objs:
            key = (path, obj["kind"], obj["metadata"]["name"])
            r = theirs[key]
            if obj["kind"] in NO_SCHEMA | DRA_KINDS:
                assert r["status"] == "statusError" and "could not find schema" in r.get("msg", ""), r
                assert _schemas.for_object(obj["apiVersion"], obj["kind"]) is None
                assert not _k8s_schemas.has_schema(obj["apiVersion"], obj["kind"])
                if obj["kind"] in DRA_KINDS:
                    assert _k8s_schemas.validate(obj, version="1.34.0", strict=True) == []
                continue
            checked += 1
            # schema verdicts only: Grove's webhook (run by check_rendered on a PodCliqueSet) is no schema
            ours = [d for d in check_rendered([obj]) if d.rule.startswith(("schema.", "k8s-schema."))]
            if (r["status"] == "statusValid") != (not ours):
                disagree.append(f"{key}: kubeconform {r['status']} {r.get('msg', '')[-300:]}; ours {[d.message for d in ours]}")
            elif ours and not _known_refusal(obj):
                unexpected.append(f"{key}: {[d.message for d in ours]}")
    assert disagree == []
    assert unexpected == []
    kinds = {k for _, k in _kinds(all_objs)}
    assert {"Deployment", "Service", "LeaderWorkerSet", "PodCliqueSet", "DynamoComponentDeployment"} <= kinds
    assert checked == 3607  # every rendered object of the corpus renders (429), each checked by both
    print(f"kubeconform: {checked} rendered objects checked from {len(files)} renders; summary {summary}")


# A change that makes a rendered object invalid, per kind: (path to a mapping, key, value).
_BREAKERS: list[tuple[str, tuple[Any, ...], str, Any]] = [
    ("Deployment", ("spec",), "replicas", "two"),
    ("Deployment", ("spec", "template", "spec"), "unknownField", 1),
    ("Service", ("spec",), "ports", {"port": 80}),
    ("PodCliqueSet", ("spec",), "replicas", "two"),
    ("PodCliqueSet", ("spec", "template"), "unknownField", True),
    ("LeaderWorkerSet", ("spec",), "leaderWorkerTemplate", []),
    ("DynamoComponentDeployment", ("spec",), "replicas", "one"),
    ("DynamoComponentDeployment", ("spec",), "unknownField", 1),
]


def test_kubeconform_and_we_refuse_broken_rendered_objects(tmp_path: Path) -> None:
    binary = require("kubeconform")
    sources = {label: (obj, options) for label, obj, _, options in _render_sources() if label.startswith("golden/")}
    pool: list[dict[str, Any]] = []
    for label in ("golden/vllm-single-kubernetes", "golden/vllm-multinode-grove", "golden/vllm-multinode-mp-kubernetes"):
        obj, options = sources[label]
        pool += render(copy.deepcopy(obj), "grove" if "grove" in label else "kubernetes", options)
    broken = []
    for kind, path, key, value in _BREAKERS:
        obj = copy.deepcopy(next(o for o in pool if o["kind"] == kind))
        node = obj
        for p in path:
            node = node[p]
        node[key] = value
        broken.append(obj)
    files = []
    tmp_path.mkdir(exist_ok=True)
    for i, obj in enumerate(broken):
        files.append(tmp_path / f"{i:02d}.yaml")
        files[-1].write_text(dump_all([obj]), encoding="utf-8")
    k8s = kc.k8s_schema_dir(tmp_path / "k8s", _kinds(broken))
    _, results = kc.split(kc.run(binary, files, k8s))
    assert [r["status"] for r in sorted(results, key=lambda r: r["filename"])] == ["statusInvalid"] * len(broken)
    assert all(check_rendered([obj]) for obj in broken)


def test_corpus_is_valid_for_kubeconform_with_our_schemas(tmp_path: Path) -> None:
    """0 false rejections on the shown corpus (v1beta1 and v1alpha1), explicit nulls included."""
    from dynamo_schema._schema import _cel, _schemas, _structural

    binary = require("kubeconform")
    docs = _corpus_docs("v1beta1") + _corpus_docs("v1alpha1")
    files = []
    for n, (name, _i, doc) in enumerate(docs):
        files.append(tmp_path / "docs" / f"{n:04d}-{name}")
        files[-1].parent.mkdir(exist_ok=True)
        files[-1].write_text(dump_all([doc]), encoding="utf-8")
    summary, results = kc.split(kc.run(binary, files, tmp_path / "k8s"))
    bad = [f"{Path(r['filename']).name}: {r['status']} {r.get('msg', '')[-600:]}" for r in results
           if r["status"] != "statusValid"]
    assert bad == []
    assert summary.get("valid") == len(docs) == len(results)
    assert len(docs) == 200  # the 119 + 72 corpus files' Dynamo documents (v1beta1 and v1alpha1)
    nulls = 0
    for name, i, doc in docs:
        schema = _schemas.for_object(doc["apiVersion"], doc["kind"])
        pruned, notes = _structural.prune_nulls(doc, schema)
        nulls += len(notes)
        diags = _structural.validate(pruned, schema, strict=True, status_subresource=True)
        diags += _cel.validate_cel(pruned, schema, structural=diags, status_subresource=True)
        assert [d for d in diags if d.severity == "error"] == [], (name, i)
    assert nulls > 0  # the corpus does carry explicit nulls (they pass both)


def test_exported_schemas_refuse_nulls_the_api_server_refuses(tmp_path: Path) -> None:
    """A null on a required field, or a null list item without a default, is still refused."""
    binary = require("kubeconform")
    name, _, doc = next(d for d in _corpus_docs("v1beta1") if d[2]["kind"] == "DynamoGraphDeployment")
    a = copy.deepcopy(doc)
    a["spec"]["components"][0]["name"] = None  # required (list-map key)
    b = copy.deepcopy(doc)
    b["spec"]["components"].append(None)  # a null item
    c = copy.deepcopy(doc)
    c["spec"]["components"][0]["replicas"] = None  # optional: pruned, accepted
    files = []
    for i, obj in enumerate((a, b, c)):
        files.append(tmp_path / f"{i}.yaml")
        files[-1].write_text(dump_all([obj]), encoding="utf-8")
    _, results = kc.split(kc.run(binary, files, tmp_path / "k8s"))
    assert [r["status"] for r in sorted(results, key=lambda r: r["filename"])] == [
        "statusInvalid", "statusInvalid", "statusValid"]


@pytest.mark.parametrize("release", ["0.8", "0.9", "1.0", "1.1", "1.2", "1.3", "1.4"])
def test_release_schemas_judge_the_corpus_as_the_release_does(release: str, tmp_path: Path) -> None:
    """``schema --out DIR --operator-version X.Y`` gives kubeconform the release's schemas: on the corpus
    documents the release serves, kubeconform's verdict is our structural verdict with that release's schemas
    (itself kubectl-validate's with crds-history/X.Y, tests/oracles/test_kubectl_validate.py; CEL and ObjectMeta
    are beyond a JSON Schema)."""
    from dynamo_schema._pipeline._schemagen import write_release
    from dynamo_schema._schema import _releases, _structural

    binary = require("kubeconform")
    schemas = tmp_path / "schemas"
    write_release(schemas, release)
    docs = [(n, i, d) for v in ("v1beta1", "v1alpha1") for n, i, d in _corpus_docs(v)
            if d["apiVersion"].rpartition("/")[2] in _releases.served_versions(release, d["kind"])]
    files, expected = [], {}
    for n, (name, _i, doc) in enumerate(docs):
        files.append(tmp_path / "docs" / f"{n:04d}-{name}")
        files[-1].parent.mkdir(exist_ok=True)
        files[-1].write_text(dump_all([doc]), encoding="utf-8")
        schema = _releases.schema(release, doc["apiVersion"], doc["kind"])
        pruned, _ = _structural.prune_nulls(doc, schema)
        errors = [d for d in _structural.validate(pruned, schema, strict=True, status_subresource=True)
                  if d.severity == "error"]
        expected[files[-1].name] = not errors
    _, results = kc.split(kc.run(binary, files, tmp_path / "k8s", schemas=schemas))
    got = {Path(r["filename"]).name: r["status"] == "statusValid" for r in results}
    assert got == expected
    assert len(docs) == {"0.8": 72, "0.9": 72, "1.0": 79, "1.1": 79}.get(release, 200) and sum(expected.values()) > 60
