"""``convert`` keeps comments and order (docs/cli.md), and its output decodes to exactly the converted data.

Expected values: the converted data is ``_convert.to_v1beta1``/``to_v1alpha1`` of the input (the
converter has its own upstream-evidenced tests); the comments are the ones written in the inputs below
and must reappear next to the field they annotate (or its counterpart after the move)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._cli import main
from dynamo_schema._convert import to_v1alpha1, to_v1beta1
from dynamo_schema._load import load_text
from dynamo_schema._roundtrip import dump_with_comments

ROOT = Path(__file__).resolve().parents[1]
SHARED = (ROOT / ".." / "shared").resolve()
CORPUS = SHARED / "reference" / "dynamo" / "corpus"
IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0"

ALPHA = f"""\
# header comment
# second header line
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: demo  # the name
spec:
  backendFramework: vllm
  services:
    # the frontend block
    Frontend:
      componentType: frontend
      replicas: 1
      envs:
        # env comment
        - name: LOG_LEVEL
          value: "yes"  # a YAML 1.1 boolean word
      extraPodSpec:
        mainContainer:
          image: {IMAGE}
    # the decode block
    VllmDecodeWorker:
      componentType: worker
      subComponentType: decode
      replicas: 2
      resources:
        limits:
          gpu: "1"
          custom:
            # scratch space
            ephemeral-storage: "2Gi"
      extraPodSpec:
        mainContainer:
          image: {IMAGE}
          args:
            - --model  # the model flag
            - "0o10"
            - Qwen/Qwen3-0.6B
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def data(text: str) -> list[Any]:
    return [d.data for d in load_text(text)]


def converted(text: str, fn: Any = to_v1beta1) -> list[Any]:
    return [fn(d) if isinstance(d, dict) and str(d.get("apiVersion", "")).startswith("nvidia.com/") else d
            for d in data(text)]


def line_index(lines: list[str], text: str) -> int:
    hits = [i for i, line in enumerate(lines) if line.strip() == text]
    assert len(hits) == 1, (text, hits)
    return hits[0]


# ---------------------------------------------------------------------------------------------- hand-made inputs
@pytest.fixture(scope="module")
def beta_out(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = write(tmp_path_factory.mktemp("c"), "alpha.yaml", ALPHA)
    rc, out, err = run("convert", path)
    assert rc == 0, err
    return out


def test_output_decodes_to_the_converted_data(beta_out: str) -> None:
    assert data(beta_out) == converted(ALPHA)
    assert data(beta_out)[0]["apiVersion"] == "nvidia.com/v1beta1"


def test_header_comments_stay_on_top(beta_out: str) -> None:
    assert beta_out.startswith("# header comment\n# second header line\napiVersion: nvidia.com/v1beta1\n")


def test_comment_on_metadata_name(beta_out: str) -> None:
    assert "\n  name: demo  # the name\n" in beta_out


def test_service_block_comments_precede_their_component(beta_out: str) -> None:
    lines = beta_out.splitlines()
    assert lines[line_index(lines, "# the frontend block") + 1].strip() == "- name: Frontend"
    assert lines[line_index(lines, "# the decode block") + 1].strip() == "- name: VllmDecodeWorker"


def test_comment_inside_envs_follows_the_env_into_the_main_container(beta_out: str) -> None:
    lines = beta_out.splitlines()
    i = line_index(lines, "# env comment")
    assert lines[i + 1].strip() == "- name: LOG_LEVEL"
    assert lines[i - 1].strip() == "env:"  # spec.components[Frontend].podTemplate.spec.containers[main].env
    assert "value: 'yes'  # a YAML 1.1 boolean word" in beta_out or 'value: "yes"  # a YAML 1.1 boolean word' in beta_out


def test_comment_on_a_container_arg(beta_out: str) -> None:
    lines = beta_out.splitlines()
    assert any(line.strip() == "- --model  # the model flag" for line in lines)
    args = line_index(lines, "args:")
    assert lines[args + 1].strip() == "- --model  # the model flag"


def test_comment_in_custom_resources_follows_the_moved_key(beta_out: str) -> None:
    lines = beta_out.splitlines()
    i = line_index(lines, "# scratch space")
    assert lines[i + 1].strip() in ("ephemeral-storage: 2Gi", 'ephemeral-storage: "2Gi"')


def test_strings_a_kubernetes_decoder_could_misread_stay_quoted(beta_out: str) -> None:
    # kubectl (go-yaml v2) reads plain yes as a boolean and 0o10 as the integer 8
    for line in beta_out.splitlines():
        s = line.strip()
        if s.startswith("- ") and "0o10" in s:
            assert s in ("- '0o10'", '- "0o10"')
        if s.startswith("value:") and "yes" in s:
            assert s.split("#")[0].strip() in ("value: 'yes'", 'value: "yes"')


def test_back_to_v1alpha1_keeps_the_comments(beta_out: str, tmp_path: Path) -> None:
    path = write(tmp_path, "beta.yaml", beta_out)
    rc, out, err = run("convert", "--to", "nvidia.com/v1alpha1", path)
    assert rc == 0, err
    assert data(out) == converted(beta_out, to_v1alpha1)
    lines = out.splitlines()
    assert lines[:2] == ["# header comment", "# second header line"]
    assert lines[line_index(lines, "# the frontend block") + 1].strip() == "Frontend:"
    assert lines[line_index(lines, "# the decode block") + 1].strip() == "VllmDecodeWorker:"
    assert lines[line_index(lines, "# env comment") + 1].strip() == "- name: LOG_LEVEL"
    assert any(line.strip() == "- --model  # the model flag" for line in lines)
    assert "  name: demo  # the name" in lines


def test_other_documents_keep_their_comments(tmp_path: Path) -> None:
    cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg  # config\ndata:\n  # the key\n  k: 'on'\n"
    text = cm + "---\n" + ALPHA
    rc, out, err = run("convert", write(tmp_path, "two.yaml", text))
    assert rc == 0, err
    assert data(out) == converted(text)
    assert "  name: cfg  # config\n" in out and "  # the key\n  k: 'on'\n" in out
    assert "  name: demo  # the name\n" in out


def test_a_directory_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = tmp_path / "dir"
    d.mkdir()
    write(d, "a.yaml", ALPHA)
    write(d, "b.yaml", ALPHA.replace("name: demo", "name: other"))
    rc, out, err = run("convert", str(d))
    assert rc == 0, err
    assert data(out) == converted(ALPHA) + converted(ALPHA.replace("name: demo", "name: other"))
    assert out.count("# header comment") == 2
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ALPHA.encode())))
    rc, out, err = run("convert", "-")
    assert rc == 0, err
    assert data(out) == converted(ALPHA) and "# the model flag" in out


def test_invalid_input_keeps_todays_behaviour(tmp_path: Path) -> None:
    bad = ALPHA.replace("      replicas: 2\n", "      replicaz: 2\n")
    path = write(tmp_path, "bad.yaml", bad)
    rc, out, err = run("convert", path)
    assert rc == 1 and out == ""
    line = bad.splitlines().index("      replicaz: 2") + 1
    assert f"{path}:{line}:7: DynamoGraphDeployment/demo: " in err and "[schema.unknown-field]" in err


def test_a_failed_check_falls_back_to_the_plain_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dynamo_schema._roundtrip as rt

    monkeypatch.setattr(rt, "dump_with_comments", lambda *a, **k: "apiVersion: wrong\n")
    rc, out, err = run("convert", write(tmp_path, "alpha.yaml", ALPHA))
    assert rc == 0, err
    assert data(out) == converted(ALPHA) and "#" not in out


def test_import_stays_cheap() -> None:
    code = "import sys, dynamo_schema; import dynamo_schema._cli; assert 'ruamel' not in sys.modules, 'ruamel loaded'"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr


def test_cli_docs_promise_comments() -> None:
    cli = (ROOT / "docs" / "cli.md").read_text()
    assert "`convert PATH [--to nvidia.com/v1beta1]` — v1alpha1 → v1beta1 (and back), keeping comments and order." in cli


# ---------------------------------------------------------------------------------------------- upstream corpus
def _corpus(version: str) -> list[Path]:
    folder = CORPUS / version
    return sorted(folder.iterdir()) if folder.is_dir() else []


ALPHA_FILES = _corpus("v1alpha1")
BETA_FILES = _corpus("v1beta1")


def _convertible(path: Path, fn: Any) -> tuple[str, list[Any]]:
    text = path.read_text()
    try:
        return text, converted(text, fn)
    except Exception as exc:  # a corpus document our loader or converter refuses is not this test's subject
        pytest.skip(f"does not convert: {exc}")


@pytest.mark.skipif(not ALPHA_FILES, reason="../shared corpus not available")
@pytest.mark.parametrize("path", ALPHA_FILES, ids=lambda p: p.name)
def test_corpus_v1alpha1_decodes_to_the_converted_data_with_its_comments(path: Path) -> None:
    text, new = _convertible(path, to_v1beta1)
    out = dump_with_comments(text, new, True)
    assert out is not None
    assert data(out) == new
    comments = {line.strip() for line in text.splitlines() if line.strip().startswith("#")}
    missing = [c for c in comments if c not in out]
    assert not missing


@pytest.mark.skipif(not BETA_FILES, reason="../shared corpus not available")
@pytest.mark.parametrize("path", BETA_FILES, ids=lambda p: p.name)
def test_corpus_v1beta1_to_v1alpha1_decodes_to_the_converted_data(path: Path) -> None:
    text, new = _convertible(path, to_v1alpha1)
    out = dump_with_comments(text, new, False)
    assert out is not None
    assert data(out) == new


@pytest.mark.skipif(not ALPHA_FILES, reason="../shared corpus not available")
def test_corpus_through_the_cli() -> None:
    """Every corpus file the CLI accepts: the printed text is the converted data, with comments."""
    accepted = 0
    for path in ALPHA_FILES:
        rc, out, err = run("convert", str(path))
        if rc != 0:
            assert rc == 1 and out == "" and err, path  # refused by validation, with located errors
            continue
        accepted += 1
        assert data(out) == converted(path.read_text()), path
        if any(line.lstrip().startswith("#") for line in path.read_text().splitlines()):
            assert "#" in out, path
    assert accepted >= 30
