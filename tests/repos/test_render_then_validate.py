"""``render X | validate -`` is clean (issue 14, item 5): the kubernetes target admits with Grove off,
v1alpha1 objects render after conversion as the API server stores them, ``convert`` warns for legacy
values that are not valid v1beta1 input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml

from dynamo_schema._cli._main import main
from dynamo_schema._io._emit import dump_all
from dynamo_schema._io._load import load_path, load_text
from dynamo_schema._pipeline._render_stream import render_stream
from dynamo_schema._pipeline._validate import validate_document

pytestmark = pytest.mark.shared  # reads ../shared (upstream reference data)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "reference" / "dynamo" / "corpus").resolve()
CORPUS_FILES = sorted(CORPUS.glob("*/*.yaml"))
MAIN_TYPE = CORPUS / "v1alpha1" / "components__src__dynamo__planner__tests__manual__perf_test_configs__agg_8b.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def _render_validate_problems(files: list[Path], target: str) -> tuple[int, list[str]]:
    rendered, problems = 0, []
    for f in files:
        r = render_stream(load_path(str(f)), target=target, namespace="default", operator_version=None,
                          settings=None)
        if r.errors:  # refused input (placeholders, missing images…): nothing to feed to validate
            continue
        rendered += 1
        for d in load_text(dump_all(r.objects), f"{f.name}|render"):
            out = validate_document(d)
            problems += [f"{f.name}: {d.kind}/{d.name}: {x.field}: {x.message} [{x.rule}]"
                         for x in out.diagnostics if x.severity == "error"]
    return rendered, problems


PLANNER = "examples__deployments__dgdr__planner.yaml"  # renders a DynamoGraphDeploymentScalingAdapter (a kind of the operator's CRD bundle)


@pytest.mark.parametrize("target", ["kubernetes", "grove"])
def test_render_then_validate_is_clean_over_the_corpus(target: str) -> None:
    rendered, problems = _render_validate_problems(CORPUS_FILES, target)
    assert rendered >= 100
    assert problems == []


def test_render_then_validate_of_a_planner_dgdr() -> None:
    assert _render_validate_problems([f for f in CORPUS_FILES if f.name == PLANNER], "grove") == (1, [])


def test_kubernetes_target_of_the_bundled_example_validates() -> None:
    rc, out, err = run("render", "--target", "kubernetes", str(ROOT / "examples" / "vllm-disagg.yaml"))
    assert rc == 0, err
    docs = list(load_text(out))
    dcds = [d for d in docs if d.kind == "DynamoComponentDeployment"]
    assert dcds and all("minAvailable" not in d.data["spec"] for d in dcds)  # no Grove-only defaults
    assert all(validate_document(d).status in ("valid", "skipped") for d in docs)


def _tagged(tmp_path: Path) -> Path:
    """The corpus's ``componentType: main`` DGD with a tagged image (its own placeholder image has no
    semantic-version tag, which admission refuses for other reasons)."""
    f = tmp_path / "main-type.yaml"
    text = MAIN_TYPE.read_text()
    assert "componentType: main" in text
    f.write_text("\n".join(line.split("image:")[0] + "image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"
                           if "image:" in line else line for line in text.splitlines()) + "\n")
    return f


def test_legacy_component_type_main_is_admitted_and_renders_with_grove(tmp_path: Path) -> None:
    f = _tagged(tmp_path)
    rc, _, err = run("validate", str(f))
    assert rc == 0, err
    rc, out, err = run("render", "--target", "grove", str(f))
    assert rc == 0, err
    pcs = next(d for d in yaml.safe_load_all(out) if d["kind"] == "PodCliqueSet")
    assert len(pcs["spec"]["template"]["cliques"]) == 2


def test_convert_warns_for_a_legacy_value_at_its_line(tmp_path: Path) -> None:
    f = _tagged(tmp_path)
    rc, out, err = run("convert", str(f))
    assert rc == 0, err
    line = next(i for i, t in enumerate(f.read_text().splitlines(), 1) if "componentType: main" in t)
    warnings = [w for w in err.splitlines() if "[convert.legacy-value]" in w]
    assert len(warnings) == 1 and warnings[0].startswith(f"{f}:{line}:"), err
    assert 'Unsupported value: "main"' in warnings[0]
    assert yaml.safe_load(out)["spec"]["components"][0]["type"] == "main"  # copied verbatim
