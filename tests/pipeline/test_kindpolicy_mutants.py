"""``_pipeline._kindpolicy``: mutants the suite left alive (issue 24)."""

from __future__ import annotations

import re
from pathlib import Path

from dynamo_schema._io._load import load_text
from dynamo_schema._pipeline._kindpolicy import KindPolicy, decide, filename_ignored

PDB = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {minAvailable: 1}\n"
FLOW = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: f}\n"


def _removed(text: str, version: str) -> bool:
    got = decide(load_text(text, "x.yaml")[0], KindPolicy(kubernetes_version=version))
    return got is not None and got[0] == "invalid" and [d.rule for d in got[1]] == ["schema.removed-api"]


def test_a_removed_api_is_refused_from_its_release_on() -> None:
    """Kubernetes' deprecated API migration guide: policy/v1beta1 PodDisruptionBudget was removed in v1.25,
    flowcontrol.apiserver.k8s.io/v1beta3 in v1.32; a cluster of an earlier minor still serves them."""
    # mutants 49d3bf47ec29 (the version's first two numbers -> the first only), 65dffa27bbf0 (>= -> is not)
    assert not _removed(PDB, "1.24.0")
    assert _removed(PDB, "1.25.0") and _removed(PDB, "1.32.0")
    assert not _removed(FLOW, "1.31.4")
    assert _removed(FLOW, "1.32.0")


def test_ignore_filename_pattern_applies_to_any_file_name() -> None:
    """kubeconform's ``-ignore-filename-pattern``: a regular expression searched in a file's path; standard
    input (``-``, docs/cli.md) is no file name and never ignored."""
    # mutant d5fa360afe0c (path != "-" -> path > "-")
    pats = [re.compile(r"x\.yaml$"), re.compile("^-$")]
    assert filename_ignored("+x.yaml", pats) and filename_ignored("#x.yaml", pats)
    assert filename_ignored("dir/x.yaml", pats)
    assert not filename_ignored("-", pats)


def test_default_location_first_wins_for_a_bundled_kind(tmp_path: Path) -> None:
    """docs/cli.md: ``--schema-location`` locations in order, the first that has a schema wins; ``default``
    names the bundled Kubernetes schemas. apps/v1 Deployment has one, so a later location is never read."""
    # mutant 6c81f7b07216 (loc == "default" -> loc > "default")
    refuse = tmp_path / "refuse.json"
    refuse.write_text('{"type": "object", "required": ["nope"]}')
    deploy = load_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n", "x.yaml")[0]
    assert decide(deploy, KindPolicy(locations=("default", str(refuse)))) is None  # the bundled schema
    got = decide(deploy, KindPolicy(locations=(str(refuse),)))
    assert got is not None and got[0] == "invalid"
