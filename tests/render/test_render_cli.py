"""``python -m dynamo_schema render`` end to end: DGD, DCD, DGDR and DeploymentSpec inputs."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dynamo_schema._cli._main import main
from tests import _yaml as k8s_yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus" / "v1beta1").resolve()
IC_GOLDEN = ROOT / "golden" / "infercrane"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def test_readme_main_job_renders_the_bundled_example() -> None:
    rc, out, err = run("render", "--target", "kubernetes", str(ROOT / "examples" / "vllm-disagg.yaml"))
    assert rc == 0, err
    docs = list(yaml.safe_load_all(out))
    kinds = [d["kind"] for d in docs]
    # one child DCD and one Deployment per component (rendering.md: Grove off)
    assert kinds.count("DynamoComponentDeployment") == 3
    assert kinds.count("Deployment") == 3
    names = {d["metadata"]["name"] for d in docs if d["kind"] == "DynamoComponentDeployment"}
    assert "llama-disagg-frontend" in names


def test_render_refuses_what_admission_refuses() -> None:
    rc, out, err = run("render", str(ROOT / "examples" / "rejected-dgd.yaml"))
    assert rc == 1 and out == ""
    assert "rejected-dgd.yaml:8:3:" in err and "at most one component may have type epp" in err


def test_render_output_is_identical_across_hash_seeds(tmp_path: Path) -> None:
    outs = set()
    for seed in ("0", "1", "12345"):
        proc = subprocess.run([sys.executable, "-m", "dynamo_schema", "render", "--target", "grove",
                               str(ROOT / "examples" / "vllm-disagg.yaml")],
                              capture_output=True, text=True, env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
                              cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        outs.add(proc.stdout)
    assert len(outs) == 1


def test_render_to_directory_writes_one_file_per_object(tmp_path: Path) -> None:
    rc, _, err = run("render", "--target", "kubernetes", "-o", str(tmp_path / "out"),
                     str(ROOT / "examples" / "vllm-disagg.yaml"))
    assert rc == 0, err
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files[0] == ".dynamo-schema-render"  # the record of what this render wrote (cli.md)
    assert files[1].startswith("000-dynamocomponentdeployment-")
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".tmp-")]


def test_atomic_write_refuses_paths_outside_the_folder(tmp_path: Path) -> None:
    from dynamo_schema._core._fsutil import atomic_write

    with pytest.raises(ValueError):
        atomic_write(tmp_path, "../escape.yaml", "x")
    assert not (tmp_path.parent / "escape.yaml").exists()


def _dgdr_files() -> list[Path]:
    return sorted(CORPUS.glob("*dgdr*")) if CORPUS.is_dir() else []


@pytest.mark.parametrize("path", _dgdr_files(), ids=lambda p: p.name)
def test_render_of_corpus_dgdr_prints_a_valid_dgd_then_its_objects(path: Path) -> None:
    from dynamo_schema._pipeline._validate import ValidateOptions, check_nvidia

    rc, out, err = run("render", str(path))
    assert rc == 0, err
    docs = list(yaml.safe_load_all(out))
    dgds = [d for d in docs if d["kind"] == "DynamoGraphDeployment"]
    assert len(dgds) == 1
    diags, stored = check_nvidia(dgds[0], ValidateOptions())
    assert stored is not None, [d.message for d in diags if d.severity == "error"]
    # the DGD comes before what it renders to
    assert docs.index(dgds[0]) < len(docs) - 1


def _ic_goldens() -> list[Path]:
    return sorted(p for p in IC_GOLDEN.iterdir() if p.is_dir() and not (p / "expected" / "error.json").exists())


@pytest.mark.parametrize("case", _ic_goldens(), ids=lambda p: p.name)
def test_deploymentspec_render_to_directory_matches_goldens(case: Path, tmp_path: Path) -> None:
    adapter = case.name.rsplit("-", 2)[0]
    spec = yaml.safe_load((case / "spec.yaml").read_text())
    spec.setdefault("provider", {})["adapter"] = adapter
    (tmp_path / "spec.yaml").write_text(k8s_yaml.dump(spec))
    rc, _, err = run("render", "--provider-config", str(case / "settings.yaml"), "-o", str(tmp_path / "out"),
                     str(tmp_path / "spec.yaml"))
    assert rc == 0, err
    expected = {p.name: p.read_text() for p in (case / "expected").iterdir()}
    # the record of what the render wrote (cli.md: `render -o` replaces its previous output) aside
    got = {p.name: p.read_text() for p in (tmp_path / "out").iterdir() if p.name != ".dynamo-schema-render"}
    assert set(got) == set(expected)
    for name, text in expected.items():
        if name.endswith(".json"):
            assert json.loads(got[name]) == json.loads(text), name
        else:
            assert got[name] == text, name


def test_grove_topology_needs_the_tas_gate() -> None:
    """Grove's webhook refuses topology constraints unless topology-aware scheduling is on (grove.md §3)."""
    path = str(ROOT / "golden" / "topology-grove" / "input.yaml")
    rc, _, err = run("render", "--target", "grove", path)
    assert rc == 1
    assert "topology constraints are not allowed when Topology Aware Scheduling is disabled" in err
    rc, out, err = run("render", "--target", "grove", "--set", "grove_tas_enabled=true", path)
    assert rc == 0, err
    assert any(d["kind"] == "PodCliqueSet" for d in yaml.safe_load_all(out))


@pytest.mark.shared
def test_render_of_a_grove_dgdr_prints_the_admitted_dgd() -> None:
    """The DGD a DGDR produces is created through the API server: the printed one carries what the DGD
    defaulting webhook adds (``minAvailable`` per component, the workload-provider and origin-version
    annotations; admission.md §2.2) and is exactly what admission stores."""
    from dynamo_schema._admission import AdmissionSettings
    from dynamo_schema._pipeline._validate import ValidateOptions, check_nvidia

    path = CORPUS / "examples__deployments__dgdr__mocker.yaml"
    rc, out, err = run("render", "--namespace", "team-a", "--operator-version", "1.4.0", str(path))
    assert rc == 0, err
    docs = list(yaml.safe_load_all(out))
    dgd = next(d for d in docs if d["kind"] == "DynamoGraphDeployment")
    assert docs[-1]["kind"] != "DynamoGraphDeployment" and any(d["kind"] == "PodCliqueSet" for d in docs)
    for component in dgd["spec"]["components"]:
        assert component["minAvailable"] == 1, component["name"]
    annotations = dgd["metadata"]["annotations"]
    assert annotations["nvidia.com/workload-provider"] == "grove"
    assert annotations["nvidia.com/dynamo-operator-origin-version"] == "1.4.0"
    assert dgd["metadata"]["namespace"] == "team-a"
    assert dgd["metadata"]["labels"]["dgdr.nvidia.com/namespace"] == "team-a"
    # admitting the printed DGD again changes nothing: it is the stored object
    _, again = check_nvidia(dgd, ValidateOptions(settings=AdmissionSettings(operator_version="1.4.0")))
    assert again == dgd


@pytest.mark.shared
def test_render_of_a_rapid_mocker_dgdr_carries_the_aic_arguments(tmp_path: Path) -> None:
    """End to end: the mocker workers of the printed DGD (and of the PodCliqueSet it renders to) carry the
    AI-Configurator arguments (tests/dgdr/test_mocker_aic.py holds the exact lists)."""
    doc = yaml.safe_load((CORPUS / "examples__deployments__dgdr__mocker.yaml").read_text())
    doc["spec"]["hardware"] = {"gpuSku": "h200_sxm", "numGpusPerNode": 8}
    path = tmp_path / "dgdr.yaml"
    path.write_text(k8s_yaml.dump(doc))
    rc, out, err = run("render", str(path))
    assert rc == 0, err
    docs = list(yaml.safe_load_all(out))
    dgd = next(d for d in docs if d["kind"] == "DynamoGraphDeployment")
    for comp in dgd["spec"]["components"]:
        if comp["type"] in ("prefill", "decode"):
            args = comp["podTemplate"]["spec"]["containers"][0]["args"]
            assert args[args.index("--aic-system") + 1] == "h200_sxm"
            assert args[-2:] == ["--engine-type", "vllm"]
    pcs = next(d for d in docs if d["kind"] == "PodCliqueSet")
    cliques = [c for c in pcs["spec"]["template"]["cliques"] if c["name"] in ("prefill", "decode")]
    assert cliques and all("--aic-perf-model" in c["spec"]["podSpec"]["containers"][0]["args"] for c in cliques)


def test_bad_namespace_is_quoted_like_go(tmp_path: Path) -> None:
    """``--namespace`` is refused as apimachinery's field.Invalid words it: the value as Go's %q (strconv.Quote)."""
    path = tmp_path / "dgd.yaml"
    path.write_text("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: g}\nspec: {}\n")
    rc, out, err = run("render", "--namespace", "a\x01b", str(path))
    assert rc != 0 and not out
    assert '--namespace: Invalid value: "a\\x01b": ' in err, err


def test_deploymentspec_render_on_stdout_is_one_yaml_stream_validate_reads(tmp_path: Path) -> None:
    # the artifacts (manifest.json, replica.json, scripts) follow the objects as comment blocks: the whole
    # stream loads as YAML, its documents are the adapter's objects, and `render | validate -` accepts it
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    argv = [sys.executable, "-m", "dynamo_schema", "render", "--provider-config",
            str(root / "examples" / "provider-settings.yaml"), str(root / "examples" / "deploymentspec.yaml")]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    docs = [d for d in yaml.safe_load_all(out) if d is not None]
    assert [d["kind"] for d in docs] == ["Deployment", "Service"]
    assert "# --- manifest.json (an adapter artifact, a file with --out DIR)\n# {" in out
    check = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", "-"], input=out,
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
