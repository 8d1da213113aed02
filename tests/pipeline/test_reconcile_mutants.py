"""Reconcile-time failures located at the component that causes them (``_pipeline._reconcile``; docs/cli.md:
``reconcile.*``, "located at the causing component")."""

from __future__ import annotations

from pathlib import Path

import yaml

import dynamo_schema

ROOT = Path(__file__).resolve().parents[2]


def test_a_clique_refusal_is_located_at_the_cliques_component() -> None:
    """The PodCliqueSet holds one clique per component; Grove's webhook refuses a clique whose label value
    (``<DGD name>-<component>``, apimachinery's label values: at most 63 characters) is too long. Each
    refusal names one clique, so it is located at that clique's component, not at the DGD's name."""
    # mutant ad9e6426beea
    text = (ROOT / "examples" / "vllm-disagg.yaml").read_text()
    dgd = yaml.safe_load(text.replace("name: llama-disagg", "name: llama-disagg-" + "x" * 40, 1))
    names = [c["name"] for c in dgd["spec"]["components"]]
    got = [(d.path, d.message) for r in dynamo_schema.validate(dgd) for d in r.diagnostics
           if d.rule == "reconcile.grove.clique-labels"]
    assert got
    for path, message in got:
        assert path[:2] == ("spec", "components") and len(path) == 3, path
        assert message.endswith(f"(component {names[path[2]]})")
        assert f"-{names[path[2]].lower()}\": must be no more than 63 characters" in message


ALPHA_GMS = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: vllm-agg-gms
spec:
  services:
    Frontend:
      componentType: frontend
      replicas: 1
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
    VllmWorker:
      componentType: worker
      replicas: 1
      gpuMemoryService:
        enabled: true
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
          command: [python3, -m, dynamo.vllm]
          args: [--model, Qwen/Qwen3-0.6B, --load-format, gms]
      resources:
        limits:
          gpu: "1"
"""


def test_a_v1alpha1_reconcile_failure_is_located_at_its_service() -> None:
    """docs/cli.md (``reconcile.*``, located at the causing component): operator case 0234 (admitted, then
    the reconcile fails: gpuMemoryService requires DRA) written as v1alpha1 is located at the service that
    has gpuMemoryService, ``spec.services.VllmWorker``, not at the DGD's name."""
    # mutant 29a14169da09 (the component's name passed as None when it is a str)
    got = [(d.rule, d.path) for r in dynamo_schema.validate(yaml.safe_load(ALPHA_GMS)) for d in r.diagnostics
           if d.rule.startswith("reconcile.")]
    assert got == [("reconcile.dra-unavailable", ("spec", "services", "VllmWorker"))]


def test_a_path_that_is_not_in_the_object_belongs_to_no_clique() -> None:
    """Grove's webhook puts a duplicate clique name at ``spec.template.cliques.name`` (``fldPath.Child("name")``
    on the list, ``_grove/_create.py`` ``clique_templates``) and a path may index past a list: neither is in
    the object, so the component is decided by the enclosing nodes (here two cliques: none)."""
    # mutant 80300ac4d19b (_at: isinstance(node, list) and ... -> or: a str or out-of-range index on a list)
    from dynamo_schema._pipeline._reconcile import COMPONENT_LABEL, _at, _component_of

    pcs = {"spec": {"template": {"cliques": [{"name": "a", "labels": {COMPONENT_LABEL: "A"}},
                                             {"name": "b", "labels": {COMPONENT_LABEL: "B"}}]}}}
    assert _component_of(pcs, ("spec", "template", "cliques", "name")) is None
    assert _at(pcs, ("spec", "template", "cliques", 2)) is None
    assert _component_of(pcs, ("spec", "template", "cliques", 1, "labels")) == "B"
