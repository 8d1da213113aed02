"""Differential harness: our schema + CEL layer against ``kubectl-validate --local-crds``.

kubectl-validate runs kube-apiserver's own code offline (decoding with strict field validation, null
pruning, structural schema, CEL, ObjectMeta) with the upstream CRDs. Both sides give a verdict and the
set of error field paths; our webhook rules are not part of this comparison.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import yaml

from ._tools import SHARED

CRD_DIRS = [SHARED / "reference" / "dynamo" / "crds", SHARED / "reference" / "grove" / "crds"]
HISTORY = SHARED / "reference" / "dynamo" / "crds-history"


def release_crd_dirs(release: str) -> list[Path]:
    """kubectl-validate's ``--local-crds`` for an operator release: that release's Dynamo CRDs (crds-history)."""
    return [HISTORY / release, SHARED / "reference" / "grove" / "crds"]
# kubectl-validate v0.0.4 embeds built-in schemas up to 1.30; CRD validation does not depend on it.
K8S_VERSION = "1.30"
NVIDIA = ("DynamoGraphDeployment", "DynamoComponentDeployment", "DynamoGraphDeploymentRequest")


def base_documents() -> list[tuple[str, dict[str, Any]]]:
    """The corpus (v1beta1, v1alpha1 Dynamo kinds) and the Grove samples, as (label, object)."""
    from .test_kubeconform import fill_structured_placeholders

    out = []
    for version in ("v1beta1", "v1alpha1"):
        for path in sorted((SHARED / "reference" / "dynamo" / "corpus" / version).glob("*.yaml")):
            text = fill_structured_placeholders(path.read_text())
            for i, doc in enumerate(yaml.load_all(text, Loader=yaml.CSafeLoader)):
                if isinstance(doc, dict) and doc.get("apiVersion") == f"nvidia.com/{version}" and doc.get("kind") in NVIDIA:
                    out.append((f"{version}/{path.name}#{i}", doc))
    for path in sorted((SHARED / "reference" / "grove" / "samples").glob("*.yaml")):
        for i, doc in enumerate(yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader)):
            if isinstance(doc, dict) and doc.get("kind") == "PodCliqueSet":
                out.append((f"grove/{path.name}#{i}", doc))
    return out


def rendered_documents(limit: int = 40) -> list[tuple[str, dict[str, Any]]]:
    """v1beta1 DCDs and PodCliqueSets as the operator writes them (our ``render`` of the first corpus
    DGDs): the corpus has few of either. Only their verdicts matter here, the oracle judges them."""
    from dynamo_schema._render import RenderError, RenderOptions, render

    out = []
    dgds = [(label, d) for label, d in base_documents()
            if d["apiVersion"] == "nvidia.com/v1beta1" and d["kind"] == "DynamoGraphDeployment"][:limit]
    for label, dgd in dgds:
        for target, kind in (("dcd", "DynamoComponentDeployment"), ("grove", "PodCliqueSet")):
            try:
                objs = render(copy.deepcopy(dgd), target, RenderOptions(namespace="corpus"))
            except RenderError:
                continue
            out += [(f"render/{target}/{label}", o) for o in objs if o["kind"] == kind]
    return out


def dot_path(path: tuple[Any, ...]) -> str:
    """The API server's CRD validation path: ``a.b[0].c``, map keys joined with a dot as they are."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def normal_path(field: str) -> str:
    """A server field path with ``[key]`` map keys written ``.key``: list-type and CEL errors write map
    keys in brackets (``spec.services[Frontend]``), schema errors with a dot; we write a dot unless the
    key holds ``.`` or ``/`` (docs/decisions.md, "Independent oracles")."""
    import re

    return re.sub(r"\[([^\]0-9][^\]]*|[0-9]+[^\]0-9][^\]]*)\]", r".\1", field)


def ours(doc: dict[str, Any], release: str = "") -> tuple[bool, set[str]]:
    """(rejected?, error field paths) from our structural schema + CEL layer, as the API server runs it
    (``release``: with that operator release's schemas)."""
    from dynamo_schema._schema import _cel, _releases, _schemas, _structural
    from dynamo_schema._schema._apiserver import meta_errors

    api, kind = str(doc.get("apiVersion")), str(doc.get("kind"))
    if release and api.startswith("nvidia.com/"):
        schema = _releases.schema(release, api, kind)
    else:
        schema = _schemas.for_object(api, kind)
    assert schema is not None, doc.get("kind")
    pruned, _ = _structural.prune_nulls(doc, schema)
    structural = _structural.validate(pruned, schema, strict=True, status_subresource=True)
    diags = structural + meta_errors(pruned, structural)
    diags += _cel.validate_cel(pruned, schema, structural=structural, status_subresource=True)
    errors = [d for d in diags if d.severity == "error"]
    unknown = [d for d in errors if d.rule == "schema.unknown-field"]
    if unknown:  # strict decoding fails first: the server reports the unknown fields only
        errors = unknown
    # kube-apiserver names the "some validation rules were not checked" error with a nil path
    return bool(errors), {"<nil>" if d.rule in ("cel.not-checked", "schema.all-of") else dot_path(d.path)
                          for d in errors}


def theirs(results: list[dict[str, Any]]) -> tuple[bool, set[str]]:
    bad = [r for r in results if r.get("status") != "Success"]
    paths: set[str] = set()
    for r in bad:
        causes = (r.get("details") or {}).get("causes") or []
        for c in causes:
            f = c.get("field")
            if f:
                paths.add(normal_path(f))
        if not causes:
            paths.add("<message> " + str(r.get("message")))
    return bool(bad), paths


def _run_folder(binary: str, folder: Path, crd_dirs: list[Path] | None = None) -> dict[str, Any]:
    cmd = [binary, "--version", K8S_VERSION, "-o", "json"]
    for d in crd_dirs or CRD_DIRS:
        cmd += ["--local-crds", str(d)]
    proc = subprocess.run([*cmd, str(folder)], capture_output=True, text=True, timeout=1800)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:  # pragma: no cover
        raise AssertionError(f"kubectl-validate printed no JSON (rc={proc.returncode}): {proc.stderr[:2000]}") from exc
    return {Path(k).name: v for k, v in report.items()}


def run_batch(binary: str, docs: list[dict[str, Any]], folder: Path,
              crd_dirs: list[Path] | None = None) -> list[tuple[bool, set[str]]]:
    """kubectl-validate over ``docs`` (one file each; one invocation per core, ~50-100 ms a document);
    verdicts in order."""
    from concurrent.futures import ThreadPoolExecutor

    jobs = max(1, min(2, os.cpu_count() or 1, len(docs)))
    names = []
    folders = [folder / f"part-{j}" for j in range(jobs)]
    for f in folders:
        f.mkdir(parents=True, exist_ok=True)
    for i, doc in enumerate(docs):
        name = folders[i % jobs] / f"case-{i:06d}.yaml"
        # JSON is YAML: no scalar ambiguity. The final newline matters: the pinned kubectl-validate reports
        # nothing for a file whose size is a multiple of 8,192 bytes and that ends without one (its reader's
        # buffer boundary; seen under random seeds, reproduced with a plain ConfigMap of 8,192 and 16,384 bytes)
        name.write_text(json.dumps(doc) + "\n", encoding="utf-8")
        names.append(name)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        reports = list(pool.map(lambda f: _run_folder(binary, f, crd_dirs), folders))
    by_name = {k: v for r in reports for k, v in r.items()}
    for n in names:
        if n.name not in by_name:  # a file left out of a folder's report (not seen since the final newline)
            alone = folder / f"alone-{n.stem}"
            alone.mkdir(parents=True, exist_ok=True)
            (alone / n.name).write_text(n.read_text(encoding="utf-8"), encoding="utf-8")
            report = _run_folder(binary, alone, crd_dirs)
            if n.name not in report:
                raise AssertionError(f"kubectl-validate reports nothing for {n.name}: {n.read_text()[:2000]}")
            print(f"kubectl-validate left {n.name} out of its folder's report; alone it gives a verdict",
                  flush=True)
            by_name[n.name] = report[n.name]
    return [theirs(by_name[n.name]) for n in names]


# ------------------------------------------------------------------------------------------------
# mutations, guided by our compiled schema


def locations(doc: Any, node: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """Every (path, schema node) of ``doc`` below the root (metadata and status excluded)."""
    from dynamo_schema._schema._structural import child_node

    out: list[tuple[tuple[Any, ...], Any]] = []

    def walk(v: Any, n: Any, path: tuple[Any, ...]) -> None:
        if path:
            out.append((path, n))
        if isinstance(v, dict):
            for k, x in v.items():
                if not path and k in ("apiVersion", "kind", "metadata", "status"):
                    continue
                walk(x, child_node(n, k) if n is not None else None, path + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, child_node(n, i) if n is not None else None, path + (i,))

    walk(doc, node, ())
    return out


def child(node: Any, key: Any) -> Any:
    from dynamo_schema._schema._structural import child_node

    return child_node(node, key) if node is not None else None


def get(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def put(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    get(doc, path[:-1])[path[-1]] = value


def remove(doc: Any, path: tuple[Any, ...]) -> None:
    parent = get(doc, path[:-1])
    del parent[path[-1]]


def copy_doc(doc: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(doc)
