"""Grove's own samples and every PodCliqueSet our renderer produces for the Dynamo corpus pass
Grove's create admission."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._grove._create import GroveSettings, validate_pcs
from tests import _yaml as k8s_yaml

SHARED = (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()
SAMPLES = SHARED / "reference" / "grove" / "samples"
CORPUS = SHARED / "reference" / "dynamo" / "corpus" / "v1beta1"


def _docs(path: Path) -> list[Any]:
    with path.open() as f:
        return [d for d in yaml.load_all(f, Loader=yaml.CSafeLoader) if isinstance(d, dict)]


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def _errors(pcs: dict[str, Any], settings: GroveSettings | None = None) -> list[str]:
    return [f"{d.rule} {d.field}: {d.message}" for d in validate_pcs(pcs, settings) if d.severity == "error"]


# tas-pcs-multi-pcsg.yaml needs topology-aware scheduling and its ClusterTopologyBinding
# ("grove-topology"); the sample's README-level setup creates one with these levels
TAS = GroveSettings(tas_enabled=True, cluster_topologies={"grove-topology": ["zone", "block", "rack", "host"]})


@pytest.mark.parametrize("path", _files(SAMPLES), ids=lambda p: p.name)
def test_grove_samples_are_admitted(path: Path) -> None:
    pcss = [d for d in _docs(path) if d.get("kind") == "PodCliqueSet"]
    assert pcss, "every Grove sample holds a PodCliqueSet"
    for pcs in pcss:
        uses_topology = "topologyConstraint" in k8s_yaml.dump(pcs)
        assert _errors(pcs, TAS if uses_topology else None) == []


def test_tas_sample_rejected_with_helm_defaults() -> None:
    path = SAMPLES / "tas-pcs-multi-pcsg.yaml"
    if not path.is_file():
        pytest.skip("../shared (reference data) is not available")
    (pcs,) = [d for d in _docs(path) if d.get("kind") == "PodCliqueSet"]
    got = [d.rule for d in validate_pcs(pcs) if d.severity == "error"]
    assert got and set(got) == {"grove.topology-disabled"}


# Documents the operator really refuses (or that need a feature we do not render), see
# tests/pipeline/test_corpus_validate.py and docs/decisions.md; every other corpus DGD must render.
REFUSED = {
    "examples__backends__trtllm__deploy__snapshot-restore.yaml": "needs the checkpoint gate",
    "examples__power-aware-budget__dgd.yaml": "main containers without image",
}
# a cluster with DRA: the GPU Memory Service samples (intra- and inter-pod) are meant for one; without it
# the operator's reconcile refuses them (tests/pipeline/test_corpus_validate.py::test_gms_example_needs_dra)
def _dra_settings() -> Any:
    from dynamo_schema._admission import AdmissionSettings

    return AdmissionSettings(dra_enabled=True)


def _dgds() -> list[tuple[str, dict[str, Any]]]:
    from tests.pipeline.test_corpus_validate import fill_placeholders

    out = []
    for path in _files(CORPUS):
        docs = [d for d in yaml.load_all(fill_placeholders(path.read_text()), Loader=yaml.CSafeLoader)
                if isinstance(d, dict)]
        for i, d in enumerate(docs):
            if d.get("kind") == "DynamoGraphDeployment" and d.get("apiVersion") == "nvidia.com/v1beta1":
                out.append((f"{path.name}#{i}", d))
    return out


DGDS = _dgds()


@pytest.mark.parametrize("name,dgd", DGDS, ids=[n for n, _ in DGDS])
def test_rendered_corpus_pcs_is_admitted(name: str, dgd: dict[str, Any]) -> None:
    from dynamo_schema._core._diagnostics import DynamoSchemaError
    from dynamo_schema._pipeline._render_object import render_object

    if name.split("#")[0] in REFUSED:
        with pytest.raises(DynamoSchemaError):
            render_object(dgd, target="grove", settings=_dra_settings())
        return
    objs = render_object(dgd, target="grove", settings=_dra_settings())
    pcss = [o for o in objs if o.get("kind") == "PodCliqueSet"]
    assert len(pcss) == 1
    assert _errors(pcss[0]) == []


@pytest.mark.parametrize("name,dgd", DGDS, ids=[n for n, _ in DGDS])
def test_rendered_corpus_pcs_with_kai_is_admitted(name: str, dgd: dict[str, Any],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The same with the operator's KAI integration on (``kai-scheduler`` on every clique plus the
    ``kai.scheduler/queue`` label): exercises Grove's scheduler-name and KAI queue checks."""
    import dataclasses

    from dynamo_schema._core._diagnostics import DynamoSchemaError
    from dynamo_schema._pipeline import _render_object

    plain = _render_object.render_options
    monkeypatch.setattr(_render_object, "render_options",
                        lambda *a, **k: dataclasses.replace(plain(*a, **k), kai_scheduler_enabled=True))
    if name.split("#")[0] in REFUSED:
        with pytest.raises(DynamoSchemaError):
            _render_object.render_object(dgd, target="grove", settings=_dra_settings())
        return
    objs = _render_object.render_object(dgd, target="grove", settings=_dra_settings())
    (pcs,) = [o for o in objs if o.get("kind") == "PodCliqueSet"]
    # a component may name its own scheduler (the renderer keeps it, as Dynamo does)
    assert "kai-scheduler" in {c["spec"]["podSpec"].get("schedulerName") for c in pcs["spec"]["template"]["cliques"]} \
        or any(c["spec"]["podSpec"].get("schedulerName") for c in pcs["spec"]["template"]["cliques"])
    assert _errors(pcs) == []


def test_corpus_present_and_mostly_rendered() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared (reference data) is not available")
    assert len(DGDS) == 121
