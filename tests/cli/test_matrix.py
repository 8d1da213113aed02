"""Every command × every kind the package knows, through the command line (docs/decisions.md D50).

The kinds: DGD, DCD, DGDR, DGDSA in both served versions, DynamoModel, DynamoCheckpoint and
DynamoWorkerMetadata (v1alpha1, the only version their CRDs serve), DeploymentSpec, PodCliqueSet,
LeaderWorkerSet, a built-in kind (ConfigMap) and a YAML file that is no Kubernetes object. Every cell
of :data:`EXPECTED` states its outcome: the exit code and a substring of stdout + stderr that tells
the outcome apart (a refusal's message, a default only admission writes, the skip reason…). No cell
is skipped; a cell a command does not apply to states the refusal the user gets.

The cells run in one subprocess (the CLI's ``main``, argparse included, each cell with its own
stdout/stderr: a subprocess per cell would cost ~150 interpreter starts); one more subprocess runs
``python -m dynamo_schema validate -o json`` over every file, and its per-kind verdicts must equal
the cells'. The library (``dynamo_schema.validate``) must give the same verdict and the same
errors as the CLI for each file, valid and invalid.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests._yaml import dump

ROOT = Path(__file__).resolve().parents[2]
IMG = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.0"


def _main(**kw: Any) -> dict[str, Any]:
    return {"name": "main", "image": IMG, **kw}


WORKER = _main(command=["python3", "-m", "dynamo.vllm"], args=["--model", "Qwen/Qwen3-0.6B"],
               resources={"limits": {"nvidia.com/gpu": "1"}})

# kind id -> a small valid object of that kind (the DeploymentSpec is the repository's example)
OBJECTS: dict[str, Any] = {
    "dgd-v1beta1": {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "mx"},
                    "spec": {"backendFramework": "vllm", "components": [
                        {"name": "Frontend", "type": "frontend", "replicas": 1,
                         "podTemplate": {"spec": {"containers": [_main()]}}},
                        {"name": "VllmWorker", "type": "worker", "replicas": 1,
                         "podTemplate": {"spec": {"containers": [WORKER]}}}]}},
    "dgd-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "mx"},
                     "spec": {"backendFramework": "vllm", "services": {
                         "Frontend": {"componentType": "frontend", "replicas": 1,
                                      "extraPodSpec": {"mainContainer": {"image": IMG}}},
                         "VllmWorker": {"componentType": "worker", "replicas": 1,
                                        "resources": {"limits": {"gpu": "1"}},
                                        "extraPodSpec": {"mainContainer": {
                                            "image": IMG, "command": ["python3", "-m", "dynamo.vllm"],
                                            "args": ["--model", "Qwen/Qwen3-0.6B"]}}}}}},
    "dcd-v1beta1": {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment", "metadata": {"name": "fe"},
                    "spec": {"backendFramework": "vllm", "name": "Frontend", "type": "frontend", "replicas": 1,
                             "podTemplate": {"spec": {"containers": [_main()]}}}},
    "dcd-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                     "metadata": {"name": "fe"},
                     "spec": {"backendFramework": "vllm", "serviceName": "Frontend", "componentType": "frontend",
                              "replicas": 1, "extraPodSpec": {"mainContainer": {"image": IMG}}}},
    "dgdr-v1beta1": {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest",
                     "metadata": {"name": "rq"},
                     "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "vllm",
                              "image": "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0",
                              "hardware": {"numGpusPerNode": 8, "gpuSku": "h200_sxm", "vramMb": 141557}}},
    "dgdr-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentRequest",
                      "metadata": {"name": "rq"},
                      "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "vllm",
                               "profilingConfig": {"profilerImage": "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0"}}},
    "dgdsa-v1beta1": {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentScalingAdapter",
                      "metadata": {"name": "mx-worker"},
                      "spec": {"replicas": 2, "dgdRef": {"name": "mx", "componentName": "VllmWorker"}}},
    "dgdsa-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentScalingAdapter",
                       "metadata": {"name": "mx-worker"},
                       "spec": {"replicas": 2, "dgdRef": {"name": "mx", "serviceName": "VllmWorker"}}},
    "dm-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoModel", "metadata": {"name": "base"},
                    "spec": {"modelName": "Qwen/Qwen3-0.6B", "baseModelName": "Qwen/Qwen3-0.6B"}},
    "dckpt-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoCheckpoint", "metadata": {"name": "ck"},
                       "spec": {"identity": {"backendFramework": "vllm", "model": "Qwen/Qwen3-0.6B"},
                                "job": {"podTemplateSpec": {"spec": {"containers": [_main()]}}}}},
    "dwm-v1alpha1": {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoWorkerMetadata", "metadata": {"name": "w"},
                     "spec": {"data": {"endpoints": {}}}},
    "deploymentspec": None,  # examples/deploymentspec.yaml
    "pcs": {"apiVersion": "grove.io/v1alpha1", "kind": "PodCliqueSet", "metadata": {"name": "p"},
            "spec": {"replicas": 1, "template": {"cliques": [
                {"name": "fe", "spec": {"roleName": "fe", "replicas": 1, "podSpec": {"containers": [_main()]}}}]}}},
    "lws": {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "metadata": {"name": "l"},
            "spec": {"replicas": 1, "leaderWorkerTemplate": {"size": 2,
                                                             "workerTemplate": {"spec": {"containers": [_main()]}}}}},
    "configmap": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "b"}},
    "values": {"replicaCount": 1, "image": {"repository": "nginx"}},  # a Helm values.yaml
}
KINDS = tuple(OBJECTS)

# what `explain` is asked for each kind id (a kind name and the version of the file)
EXPLAIN: dict[str, list[str]] = {
    "dgd-v1beta1": ["dgd", "--api-version", "v1beta1"], "dgd-v1alpha1": ["dgd", "--api-version", "v1alpha1"],
    "dcd-v1beta1": ["dcd", "--api-version", "v1beta1"], "dcd-v1alpha1": ["dcd", "--api-version", "v1alpha1"],
    "dgdr-v1beta1": ["dgdr", "--api-version", "v1beta1"], "dgdr-v1alpha1": ["dgdr", "--api-version", "v1alpha1"],
    "dgdsa-v1beta1": ["dgdsa.spec.dgdRef", "--api-version", "v1beta1"],
    "dgdsa-v1alpha1": ["dgdsa.spec.dgdRef", "--api-version", "nvidia.com/v1alpha1"],
    "dm-v1alpha1": ["DynamoModel", "--api-version", "v1alpha1"], "dckpt-v1alpha1": ["dckpt"],
    "dwm-v1alpha1": ["DynamoWorkerMetadata"], "deploymentspec": ["deploymentspec"], "pcs": ["pcs"], "lws": ["lws"],
    "configmap": ["ConfigMap"], "values": ["values"],
}
# the file `schema --out DIR` writes for each kind id (None: no schema of ours)
SCHEMA_FILE: dict[str, str | None] = {
    "dgd-v1beta1": "nvidia.com/dynamographdeployment_v1beta1.json",
    "dgd-v1alpha1": "nvidia.com/dynamographdeployment_v1alpha1.json",
    "dcd-v1beta1": "nvidia.com/dynamocomponentdeployment_v1beta1.json",
    "dcd-v1alpha1": "nvidia.com/dynamocomponentdeployment_v1alpha1.json",
    "dgdr-v1beta1": "nvidia.com/dynamographdeploymentrequest_v1beta1.json",
    "dgdr-v1alpha1": "nvidia.com/dynamographdeploymentrequest_v1alpha1.json",
    "dgdsa-v1beta1": "nvidia.com/dynamographdeploymentscalingadapter_v1beta1.json",
    "dgdsa-v1alpha1": "nvidia.com/dynamographdeploymentscalingadapter_v1alpha1.json",
    "dm-v1alpha1": "nvidia.com/dynamomodel_v1alpha1.json",
    "dckpt-v1alpha1": "nvidia.com/dynamocheckpoint_v1alpha1.json",
    "dwm-v1alpha1": "nvidia.com/dynamoworkermetadata_v1alpha1.json",
    "deploymentspec": "infercrane.dev/deployment_v1.json",
    "pcs": "grove.io/podcliqueset_v1alpha1.json",
    "lws": "leaderworkerset.x-k8s.io/leaderworkerset_v1.json",
    "configmap": None, "values": None,
}

COMMANDS = ("validate", "validate-bogus", "default", "default-bogus", "render-kubernetes", "render-grove",
            "convert-v1beta1", "convert-v1alpha1", "diff", "diff-changed", "merge-blueprint", "merge-override",
            "explain")

VALID = "resource is valid"
SKIPPED_NOT_K8S = "resource is skipped (not a Kubernetes object (no apiVersion/kind))"
UNKNOWN = 'unknown field "spec.bogusField"'
UNCHANGED = "no changes in the rendered objects"
NOT_DGD_BLUEPRINT = "error: blueprint must be nvidia.com/v1alpha1 or nvidia.com/v1beta1, got apiVersion"
NOT_DGD_OVERRIDE = "error: override must be nvidia.com/v1alpha1 or nvidia.com/v1beta1, got apiVersion"
NO_GROVE_DCD = "unknown target 'grove' for a DynamoComponentDeployment (kubernetes) [render.failed]"
PASSED = "passed through"  # marker: the output is the input document unchanged (checked below)


def _served_only(kind: str, version: str) -> str:
    return (f"apiVersion: warning: {kind} has no version 'nvidia.com/{version}' (served: nvidia.com/v1alpha1): "
            "kept as nvidia.com/v1alpha1 [convert.not-served]")


# (kind id, command) -> (exit code, substring of stdout + stderr)
EXPECTED: dict[tuple[str, str], tuple[int, str]] = {}


def _row(kind: str, **cells: tuple[int, str]) -> None:
    for cmd, outcome in cells.items():
        EXPECTED[(kind, cmd.replace("_", "-"))] = outcome


for _v in ("v1beta1", "v1alpha1"):
    _row(f"dgd-{_v}", validate=(0, VALID), validate_bogus=(1, UNKNOWN),
         default=(0, "nvidia.com/dynamo-operator-origin-version: 1.5.0"), default_bogus=(1, UNKNOWN),
         render_kubernetes=(0, "kind: DynamoComponentDeployment"), render_grove=(0, "kind: PodCliqueSet"),
         convert_v1beta1=(0, "components:"), convert_v1alpha1=(0, "services:"),
         # a label on the DGD's own metadata reaches none of the objects it renders: kubectl diff's 0
         diff=(0, UNCHANGED), diff_changed=(0, "no changes in the rendered objects"), merge_blueprint=(0, "replicas: 3"),
         merge_override=(0, "kind: DynamoGraphDeployment"),
         explain=(0, f"VERSION:  nvidia.com/{_v}"))
    _row(f"dcd-{_v}", validate=(0, VALID), validate_bogus=(1, UNKNOWN),
         default=(0, "apiVersion: nvidia.com/v1beta1"), default_bogus=(1, UNKNOWN),
         render_kubernetes=(0, "kind: Deployment"), render_grove=(1, NO_GROVE_DCD),
         convert_v1beta1=(0, "type: frontend"), convert_v1alpha1=(0, "componentType: frontend"),
         diff=(0, UNCHANGED), diff_changed=(1, "changed"), merge_blueprint=(1, NOT_DGD_BLUEPRINT),
         merge_override=(1, NOT_DGD_OVERRIDE), explain=(0, f"VERSION:  nvidia.com/{_v}"))
    _row(f"dgdr-{_v}", validate=(0, VALID), validate_bogus=(1, UNKNOWN),
         default=(0, "searchStrategy: rapid"), default_bogus=(1, UNKNOWN),
         render_kubernetes=(0, "kind: DynamoComponentDeployment"), render_grove=(0, "kind: PodCliqueSet"),
         convert_v1beta1=(0, "apiVersion: nvidia.com/v1beta1"), convert_v1alpha1=(0, "profilingConfig:"),
         diff=(0, UNCHANGED), diff_changed=(0, "no changes in the rendered objects"), merge_blueprint=(1, NOT_DGD_BLUEPRINT),
         # a DGDR as the override: its spec.overrides.dgd (none here) over the blueprint
         merge_override=(0, "name: VllmWorker"), explain=(0, f"VERSION:  nvidia.com/{_v}"))
    _row(f"dgdsa-{_v}", validate=(0, VALID), validate_bogus=(1, UNKNOWN),
         # stored as v1beta1, the storage version
         default=(0, "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymentScalingAdapter"),
         default_bogus=(1, UNKNOWN),
         render_kubernetes=(0, PASSED), render_grove=(0, PASSED),
         convert_v1beta1=(0, "componentName: VllmWorker"), convert_v1alpha1=(0, "serviceName: VllmWorker"),
         diff=(0, UNCHANGED), diff_changed=(1, "changed DynamoGraphDeploymentScalingAdapter/mx-worker"),
         merge_blueprint=(1, NOT_DGD_BLUEPRINT), merge_override=(1, NOT_DGD_OVERRIDE),
         explain=(0, "componentName" if _v == "v1beta1" else "serviceName"))
for _k, _kind, _default in (("dm", "DynamoModel", "modelType: base"),
                            ("dckpt", "DynamoCheckpoint", "activeDeadlineSeconds: 3600"),
                            ("dwm", "DynamoWorkerMetadata", "kind: DynamoWorkerMetadata")):
    _row(f"{_k}-v1alpha1", validate=(0, VALID), validate_bogus=(1, UNKNOWN), default=(0, _default),
         default_bogus=(1, UNKNOWN), render_kubernetes=(0, PASSED), render_grove=(0, PASSED),
         # kept as written (the CRD serves v1alpha1 only), with a warning; the output is checked to be the input
         convert_v1beta1=(0, _served_only(_kind, "v1beta1")), convert_v1alpha1=(0, PASSED),
         diff=(0, UNCHANGED), diff_changed=(1, f"changed {_kind}/"), merge_blueprint=(1, NOT_DGD_BLUEPRINT),
         merge_override=(1, NOT_DGD_OVERRIDE), explain=(0, f"KIND:     {_kind}\nVERSION:  nvidia.com/v1alpha1"))
_row("deploymentspec", validate=(0, VALID), validate_bogus=(1, "bogusField"), default=(0, PASSED),
     default_bogus=(1, "bogusField"),
     # with --provider-config examples/provider-settings.yaml: the Kubernetes adapter's manifests
     render_kubernetes=(0, "kind: Deployment\nmetadata:\n  name: infercrane-"),
     render_grove=(0, "kind: Deployment\nmetadata:\n  name: infercrane-"),
     convert_v1beta1=(0, PASSED), convert_v1alpha1=(0, PASSED), diff=(0, UNCHANGED), diff_changed=(1, "changed"),
     merge_blueprint=(1, NOT_DGD_BLUEPRINT), merge_override=(1, NOT_DGD_OVERRIDE),
     explain=(0, "VERSION:  infercrane.dev/v1"))
_row("pcs", validate=(0, VALID), validate_bogus=(1, UNKNOWN),
     default=(0, "cliqueStartupType: CliqueStartupTypeAnyOrder"),  # Grove's CRD defaults and defaulting webhook
     default_bogus=(1, UNKNOWN), render_kubernetes=(0, PASSED), render_grove=(0, PASSED),
     convert_v1beta1=(0, PASSED), convert_v1alpha1=(0, PASSED), diff=(0, UNCHANGED),
     diff_changed=(1, "changed PodCliqueSet/p"), merge_blueprint=(1, NOT_DGD_BLUEPRINT),
     merge_override=(1, NOT_DGD_OVERRIDE), explain=(0, "VERSION:  grove.io/v1alpha1"))
_row("lws", validate=(0, VALID), validate_bogus=(1, UNKNOWN),
     default=(0, "startupPolicy: LeaderCreated"),  # the LWS webhook's defaults
     default_bogus=(1, UNKNOWN), render_kubernetes=(0, PASSED), render_grove=(0, PASSED),
     convert_v1beta1=(0, PASSED), convert_v1alpha1=(0, PASSED), diff=(0, UNCHANGED),
     diff_changed=(1, "changed LeaderWorkerSet/l"), merge_blueprint=(1, NOT_DGD_BLUEPRINT),
     merge_override=(1, NOT_DGD_OVERRIDE), explain=(0, "VERSION:  leaderworkerset.x-k8s.io/v1"))
_row("configmap", validate=(0, VALID),
     # the API server's wording, as for a custom resource (not Python jsonschema's)
     validate_bogus=(1, 'data.a: Invalid value: "integer": data.a in body must be of type string: "integer" '
                        "[k8s-schema.type]"),
     default=(0, PASSED), default_bogus=(1, 'Invalid value: "integer"'), render_kubernetes=(0, PASSED),
     render_grove=(0, PASSED), convert_v1beta1=(0, PASSED), convert_v1alpha1=(0, PASSED), diff=(0, UNCHANGED),
     diff_changed=(1, "changed ConfigMap/c"), merge_blueprint=(1, NOT_DGD_BLUEPRINT),
     merge_override=(1, NOT_DGD_OVERRIDE), explain=(1, "error: unknown kind 'ConfigMap'"))
_row("values", validate=(0, SKIPPED_NOT_K8S), validate_bogus=(0, SKIPPED_NOT_K8S), default=(0, PASSED),
     default_bogus=(0, PASSED),
     render_kubernetes=(0, "note: VALUES: document 1 is not a Kubernetes object: not passed through"),
     render_grove=(0, "not a Kubernetes object: not passed through"), convert_v1beta1=(0, PASSED),
     convert_v1alpha1=(0, PASSED), diff=(0, UNCHANGED), diff_changed=(1, "== document: changed"),
     merge_blueprint=(1, NOT_DGD_BLUEPRINT),
     merge_override=(1, "DGD override is missing apiVersion and kind"), explain=(1, "error: unknown kind 'values'"))


def _bogus(kind: str, obj: Any) -> Any:
    """The object with one field its schema does not have (a ConfigMap: a wrong type instead)."""
    obj = json.loads(json.dumps(obj))
    if kind == "configmap":
        obj["data"]["a"] = 1
    elif kind == "values":
        obj["bogusField"] = 1
    elif kind == "deploymentspec":
        obj["bogusField"] = 1
    else:
        obj["spec"]["bogusField"] = 1
    return obj


def _changed(kind: str, obj: Any) -> Any:
    obj = json.loads(json.dumps(obj))
    if kind == "configmap":
        obj["data"]["a"] = "c"
    elif kind == "values":
        obj["replicaCount"] = 2
    elif kind == "deploymentspec":
        obj["scaling"]["max_replicas"] = 2
    elif kind.startswith("dgdsa") or kind in ("pcs", "lws"):
        obj["spec"]["replicas"] = 3
    else:
        obj["metadata"]["labels"] = {"team": "a"}
    return obj


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    import yaml

    d = tmp_path_factory.mktemp("matrix")
    example = yaml.safe_load((ROOT / "examples" / "deploymentspec.yaml").read_text())
    out: dict[str, dict[str, Path]] = {}
    for kind, obj in OBJECTS.items():
        obj = example if obj is None else obj
        name = "values.yaml" if kind == "values" else f"{kind}.yaml"
        paths = {}
        for variant, data in (("ok", obj), ("bogus", _bogus(kind, obj)), ("changed", _changed(kind, obj))):
            sub = d / variant
            sub.mkdir(exist_ok=True)
            p = sub / name
            p.write_text(dump(data))
            paths[variant] = p
        out[kind] = paths
    override = d / "override.yaml"
    override.write_text(dump({"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
                              "metadata": {"name": "mx"},
                              "spec": {"components": [{"name": "VllmWorker", "replicas": 3}]}}))
    out["_override"] = {"ok": override}
    return out


def _argv(kind: str, cmd: str, f: dict[str, Path], override: Path, dgd: Path) -> list[str]:
    ok, bogus = str(f["ok"]), str(f["bogus"])
    provider = ["--provider-config", str(ROOT / "examples" / "provider-settings.yaml")] \
        if kind == "deploymentspec" else []
    return {
        "validate": ["validate", "-v", ok],
        "validate-bogus": ["validate", "-v", bogus],
        "default": ["default", ok],
        "default-bogus": ["default", bogus],
        "render-kubernetes": ["render", "--target", "kubernetes", *provider, ok],
        "render-grove": ["render", "--target", "grove", *provider, ok],
        "convert-v1beta1": ["convert", "--to", "nvidia.com/v1beta1", ok],
        "convert-v1alpha1": ["convert", "--to", "v1alpha1", ok],
        "diff": ["diff", ok, ok],
        "diff-changed": ["diff", ok, str(f["changed"])],
        "merge-blueprint": ["merge", "--blueprint", ok, "--override", str(override)],
        "merge-override": ["merge", "--blueprint", str(dgd), "--override", ok],
        "explain": ["explain", *EXPLAIN[kind]],
    }[cmd]


DRIVER = """
import io, json, sys
from dynamo_schema._cli._main import main
out = []
for argv in json.load(sys.stdin):
    o, e = io.StringIO(), io.StringIO()
    try:
        rc = main(argv, stdout=o, stderr=e)
    except SystemExit as exc:  # argparse
        rc = exc.code
    out.append([rc, o.getvalue(), e.getvalue()])
json.dump(out, sys.stdout)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DYNAMO_SCHEMA_RULES_URL", None)
    env["DYNAMO_SCHEMA_NO_PROGRESS"] = "1"
    return env


@pytest.fixture(scope="module")
def cells(files: dict[str, dict[str, Path]], tmp_path_factory: pytest.TempPathFactory
          ) -> dict[tuple[str, str], tuple[int, str, str]]:
    keys = [(k, c) for k in KINDS for c in COMMANDS]
    override, dgd = files["_override"]["ok"], files["dgd-v1beta1"]["ok"]
    argvs = [_argv(k, c, files[k], override, dgd) for k, c in keys]
    schema_dir = tmp_path_factory.mktemp("schemas")
    keys.append(("*", "schema"))
    argvs.append(["schema", "--out", str(schema_dir)])
    proc = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(argvs), capture_output=True, text=True,
                          env=_env(), cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = {key: (int(rc), out, err) for key, (rc, out, err) in zip(keys, json.loads(proc.stdout))}
    results[("*", "schema-dir")] = (0, str(schema_dir), "")
    return results


def test_every_cell_is_stated() -> None:
    assert set(EXPECTED) == {(k, c) for k in KINDS for c in COMMANDS}


@pytest.mark.parametrize("kind", KINDS)
def test_command_kind_matrix(kind: str, cells: dict[tuple[str, str], tuple[int, str, str]],
                             files: dict[str, dict[str, Path]]) -> None:
    failures = []
    for cmd in COMMANDS:
        rc, out, err = cells[(kind, cmd)]
        want_rc, want = EXPECTED[(kind, cmd)]
        want = want.replace("VALUES", str(files[kind]["ok"]))
        if want == PASSED:  # the document comes out as it went in
            import yaml

            given = files[kind]["bogus" if cmd.endswith("-bogus") else "ok"]
            ok = rc == want_rc and yaml.safe_load(out) == yaml.safe_load(given.read_text())
        else:
            ok = rc == want_rc and want in out + err
            if cmd == "convert-v1beta1" and kind in ("dm-v1alpha1", "dckpt-v1alpha1", "dwm-v1alpha1"):
                ok = ok and out == files[kind]["ok"].read_text()
        if not ok:
            failures.append(f"{cmd}: exit {rc} (want {want_rc}, {want!r})\n  stdout: {out[:600]!r}\n"
                            f"  stderr: {err[:600]!r}")
    assert not failures, "\n".join(failures)


def test_schema_writes_a_schema_per_modelled_kind(cells: dict[tuple[str, str], tuple[int, str, str]]) -> None:
    rc, _, err = cells[("*", "schema")]
    assert rc == 0, err
    out = Path(cells[("*", "schema-dir")][1])
    written = {str(p.relative_to(out)) for p in out.rglob("*.json")}
    assert written == {f for f in SCHEMA_FILE.values() if f is not None}


def test_written_schemas_accept_the_valid_objects(cells: dict[tuple[str, str], tuple[int, str, str]],
                                                  files: dict[str, dict[str, Path]]) -> None:
    """Each kind's valid object against the schema `schema` wrote for it (jsonschema: independent of
    our structural checker); its bogus field refused."""
    import jsonschema
    import yaml

    out = Path(cells[("*", "schema-dir")][1])
    for kind, rel in SCHEMA_FILE.items():
        if rel is None:
            continue
        schema = json.loads((out / rel).read_text())
        v = jsonschema.validators.validator_for(schema)(schema)
        assert not list(v.iter_errors(yaml.safe_load(files[kind]["ok"].read_text()))), kind
        if kind != "deploymentspec":
            assert list(v.iter_errors(yaml.safe_load(files[kind]["bogus"].read_text()))), kind


@pytest.fixture(scope="module")
def cli_json(files: dict[str, dict[str, Path]]) -> tuple[int, dict[str, Any]]:
    """``python -m dynamo_schema validate -o json`` over every file at once: (exit code, resource by file)."""
    paths = [str(files[k][v]) for k in KINDS for v in ("ok", "bogus")]
    proc = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", "-o", "json", *paths],
                          capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=300)
    return proc.returncode, {r["filename"]: r for r in json.loads(proc.stdout)["resources"]}


def test_python_m_dynamo_schema_gives_the_cells_verdicts(files: dict[str, dict[str, Path]],
                                                         cli_json: tuple[int, dict[str, Any]]) -> None:
    """The real entry point over every file at once: the per-kind statuses the cells found."""
    rc, got = cli_json
    assert rc == 1
    for k in KINDS:
        for v, cmd in (("ok", "validate"), ("bogus", "validate-bogus")):
            r = got[str(files[k][v])]
            status = {0: "skipped" if k == "values" else "valid", 1: "invalid"}[EXPECTED[(k, cmd)][0]]
            assert r["status"] == status, (k, v, r)
            if status == "skipped":
                assert r["reason"] == "not a Kubernetes object (no apiVersion/kind)"


@pytest.mark.parametrize("kind", KINDS)
def test_library_validate_agrees_with_the_cli(kind: str, files: dict[str, dict[str, Path]],
                                              cli_json: tuple[int, dict[str, Any]]) -> None:
    """``dynamo_schema.validate`` and the CLI: the same errors (rule, line, column), so the same verdict."""
    import dynamo_schema

    for variant in ("ok", "bogus"):
        p = files[kind][variant]
        lib = sorted((d.rule, d.line, d.column) for r in dynamo_schema.validate(p) for d in r.errors)
        r = cli_json[1][str(p)]
        cli = sorted((e["rule"], e["line"], e["column"]) for e in r["errors"] if e["severity"] == "error")
        assert lib == cli, (kind, variant)
        assert r["status"] == ("invalid" if lib else ("skipped" if kind == "values" else "valid")), (kind, variant)
