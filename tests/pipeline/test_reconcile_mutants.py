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
