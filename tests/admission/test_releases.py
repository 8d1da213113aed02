"""Release profiles of admission: the rule table (docs/releases.md) against the registry
(``dynamo_schema._admission._releases.HISTORY``) and the upstream history, and verdicts of the corpus under
releases 1.1 and 1.4.

Evidence: the commits of each rule row are checked in upstream's history (the mirror named by
``DYNAMO_SCHEMA_UPSTREAM_GIT``, default ``/work/.mirror/wxsms+dynamo/repo``): a rule's commit lies on main
after the release before its first one and before its first one. The 1.1 expectations are the issue's
facts checked in the 1.1 webhook (3b8a3845: no runtime-version or main-image rule; the DGD name + service
name limited to 45 characters on the Grove pathway); 1.4 differs from the reference webhook only by the
provider overrides (``git diff e147ceea 2a6da14c -- deploy/operator/internal/webhook``), which no corpus
document uses.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

import dynamo_schema
from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._admission._releases import DEFAULTS, HISTORY, rule_active
from dynamo_schema._schema import _releases
from tests import _yaml as k8s_yaml
from tests.admission._admission_helpers import SHARED

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "releases.md"
CORPUS = SHARED / "reference" / "dynamo" / "corpus"
UPSTREAM = Path(os.environ.get("DYNAMO_SCHEMA_UPSTREAM_GIT", "/work/.mirror/wxsms+dynamo/repo"))
ORDER = list(_releases.RELEASES) + ["1.5"]


def _doc_rows() -> dict[str, tuple[str, str, str, str, str]]:
    text = DOC.read_text(encoding="utf-8").split("## Rule table", 1)[1]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `([a-z0-9.-]+)` \| ([0-9.]+) \| ([0-9a-f]+) \| ([0-9.]+|—) \| ([0-9a-f]+|—) \| (.*) \|$", line)
        if m:
            last, gone = (m.group(4), m.group(5))
            rows[m.group(1)] = (m.group(2), m.group(3), "" if last == "—" else last, "" if gone == "—" else gone,
                                m.group(6))
    return rows


def test_the_rule_table_in_the_docs_is_the_registry() -> None:
    assert _doc_rows() == HISTORY


def test_the_defaults_table_in_the_docs_is_the_registry() -> None:
    text = DOC.read_text(encoding="utf-8").split("## Defaults by release", 1)[1].split("## Rule table", 1)[0]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| ([^|]+?) \| ([0-9.]+) \| ([0-9a-f]+) \| ?(.*?) ?\|$", line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    assert rows == DEFAULTS


def test_the_release_table_in_the_docs_names_the_commits() -> None:
    text = DOC.read_text(encoding="utf-8")
    for release in _releases.RELEASES:
        assert f"| {release} | {_releases.commit(release)} |" in text
    assert f"| 1.5 | {_releases.REFERENCE_COMMIT} (the reference revision" in text


def _documented_rule_ids() -> list[str]:
    """The rule ids of the reference admission's catalogue (the table of ``_admission/__init__.py``)."""
    import dynamo_schema._admission as adm

    table = (adm.__doc__ or "").split("rule id", 1)[1]
    return re.findall(r"^((?:<kind>|dgd|dcd|dgdr)\.[a-z0-9-]+)", table, flags=re.M)


def test_every_webhook_rule_of_the_reference_has_its_first_release() -> None:
    ids = _documented_rule_ids()
    assert len(ids) > 80
    for rid in ids:
        if rid.startswith("<kind>."):
            name = rid.split(".", 1)[1]
            assert f"dgd.{name}" in HISTORY or f"dcd.{name}" in HISTORY, rid
        else:
            assert rid in HISTORY, rid
    model = ("model-name-required", "base-model-name-required", "source-required", "source-uri-required",
             "source-uri-scheme", "model-type-immutable", "base-model-name-immutable")
    for name in model:  # the DynamoModel webhook (_schema/_extra_kinds.py)
        assert f"dynamomodel.{name}" in HISTORY


def test_every_rule_id_the_rule_modules_write_has_a_history() -> None:
    """Every id the reference rules spell out (literals, ``rid(...)`` of a kind prefix; ``_alpha.py`` prefixes
    its names with ``v1alpha1-``) has its row."""
    src = ROOT / "dynamo_schema"
    missing = []
    files = [*sorted((src / "_admission" / "rules").glob("*.py")), src / "_admission" / "_runtime_version.py",
             src / "_schema" / "_extra_kinds.py"]
    for path in files:
        text = path.read_text(encoding="utf-8")
        ids = set(re.findall(r'"((?:dgd|dcd|dgdr|dynamomodel)\.[a-z0-9-]+)"', text))
        prefix = "v1alpha1-" if path.name == "_alpha.py" else ""
        names = set(re.findall(r'rid\("([a-z0-9-]+)"\)', text)) | set(re.findall(r'f"\{prefix\}\.([a-z0-9-]+)"', text))
        missing += [i for i in ids if i not in HISTORY]
        missing += [n for n in names if f"dgd.{prefix}{n}" not in HISTORY and f"dcd.{prefix}{n}" not in HISTORY]
    assert sorted(missing) == []


@pytest.mark.shared
def test_every_rule_the_operator_cases_trigger_has_a_history() -> None:
    """The rule ids the reference admission gives over the 1,200 operator-verified cases."""
    from dynamo_schema._pipeline._validate import ValidateOptions, check_nvidia
    from tests.oracles._operator_cases import admission_settings, case_files, load_case

    files = case_files()
    if not files:
        pytest.skip("operator cases not available")
    seen: set[str] = set()
    for path in files:
        case = load_case(path)
        diags, _ = check_nvidia(case["input"], ValidateOptions(settings=admission_settings(case.get("settings") or {})))
        seen |= {d.rule for d in diags if d.rule.split(".", 1)[0] in ("dgd", "dcd", "dgdr")}
    assert len(seen) > 30
    assert sorted(seen - set(HISTORY)) == []


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(UPSTREAM), *args], capture_output=True, text=True, check=False)


def test_each_rule_commit_lies_in_its_release() -> None:
    if not (UPSTREAM / "HEAD").exists():
        pytest.skip(f"upstream history not available at {UPSTREAM} (DYNAMO_SCHEMA_UPSTREAM_GIT)")
    commits = {r: _releases.commit(r) for r in _releases.RELEASES} | {"1.5": _releases.REFERENCE_COMMIT}

    def contains(release: str, commit: str) -> bool:
        return _git("merge-base", "--is-ancestor", commit, commits[release]).returncode == 0

    wrong = []
    for what, (first, commit, _) in DEFAULTS.items():
        i = ORDER.index(first)
        if not contains(first, commit) or (i > 0 and contains(ORDER[i - 1], commit)):
            wrong.append(f"default {what}: {commit} is not in {first} only")
    for rid, (first, commit, last, gone, _) in HISTORY.items():
        i = ORDER.index(first)
        if not contains(first, commit) or (i > 0 and contains(ORDER[i - 1], commit)):
            wrong.append(f"{rid}: {commit} is not in {first} only")
        if last:
            nxt = ORDER[ORDER.index(last) + 1]
            if not contains(nxt, gone) or contains(last, gone):
                wrong.append(f"{rid}: {gone} is not between {last} and {nxt}")
    assert wrong == []


def test_rule_activity_follows_the_table() -> None:
    assert rule_active("dgd.runtime-version-override-required", "1.4")
    assert not rule_active("dgd.runtime-version-override-required", "1.3")
    assert not rule_active("dgd.provider-override-context", "1.4")
    assert rule_active("dgd.provider-override-context", "")
    assert rule_active("dgd.v1alpha1-restart-id", "1.2") and not rule_active("dgd.v1alpha1-restart-id", "1.3")
    assert not rule_active("dgd.v1alpha1-restart-id", "")
    assert rule_active("schema.type", "0.8")  # not a webhook rule


# --- the corpus under 1.1 and 1.4 ---------------------------------------------------------------------------


def _corpus(version: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted((CORPUS / version).glob("*.yaml")):
        for i, doc in enumerate(yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader)):
            if isinstance(doc, dict) and str(doc.get("apiVersion", "")).startswith("nvidia.com/"):
                out.append((f"{path.name}#{i}", doc))
    return out


def _errors(doc: dict[str, Any], release: str = "") -> list[tuple[str, str]]:
    settings = AdmissionSettings(operator_release=release) if release else None
    return sorted((d.rule, d.message) for r in dynamo_schema.validate(doc, settings=settings) for d in r.diagnostics if d.severity == "error")


_NEW_IN_1_2_OR_LATER = {"dgd.runtime-version-override-required", "dgd.main-image-required", "dcd.main-image-required"}


def _name_limit_1_1(doc: dict[str, Any]) -> list[str]:
    """The 1.1 webhook's message for the first service (in name order) over the 45-character budget of
    ``validateServiceNameLength`` (3b8a3845): DGD name + service name, + the leader clique name when multinode."""
    name = doc["metadata"]["name"]
    ann = (doc["metadata"].get("annotations") or {})
    if str(ann.get("nvidia.com/enable-grove", "")).lower() == "false":
        return []
    head = ("spec.services[{s}]: combined resource name length {n} exceeds 45-character limit required for pod "
            "naming. Consider shortening the DynamoGraphDeployment name '{d}' (length {dl}) or service name '{s}' "
            "(length {sl}). ")
    for svc in sorted(doc["spec"].get("services") or {}):
        spec = doc["spec"]["services"][svc] or {}
        nodes = ((spec.get("multinode") or {}).get("nodeCount") or 0) if spec.get("multinode") else 1
        low = svc.lower()
        if nodes > 1:
            n = len(name) + len(low) + len(low + "-ldr")
            tail = (f"The combined length of DGD name + PCSG name + longest PodClique name ('{low}-ldr') must not "
                    "exceed 45 characters")
        else:
            n = len(name) + len(low)
            tail = "The combined length of DGD name + service name must not exceed 45 characters"
        if n > 45:
            return [head.format(s=svc, n=n, d=name, dl=len(name), sl=len(svc)) + tail]
    return []


@pytest.mark.shared
def test_release_1_1_verdicts_on_the_corpus() -> None:
    docs = _corpus("v1alpha1") + _corpus("v1beta1")
    assert len(docs) > 180
    refused_by_name = 0
    for label, doc in docs:
        api, kind = doc["apiVersion"], doc["kind"]
        got = _errors(doc, "1.1")
        if api == "nvidia.com/v1beta1" and kind in ("DynamoGraphDeployment", "DynamoComponentDeployment"):
            assert got == [("schema.unknown-kind", f'no matches for kind "{kind}" in version "nvidia.com/v1beta1": '
                            'operator release 1.1 serves "nvidia.com/v1alpha1"')], label
            continue
        if kind != "DynamoGraphDeployment" or api != "nvidia.com/v1alpha1":
            # DCD, DGDR: the reference's verdict and messages, less the rules 1.1 did not have
            assert got == [e for e in _errors(doc) if e[0] not in _NEW_IN_1_2_OR_LATER], label
            continue
        reference = [e for e in _errors(doc) if e[0] not in _NEW_IN_1_2_OR_LATER | {"dgd.grove-name-length",
                                                                                    "dgd.components-required"}]
        if reference:  # refused before admission (schema, metadata): as the reference refuses it
            assert got == reference, label
            continue
        if not (doc.get("spec") or {}).get("services"):
            assert got == [("dgd.components-required", "spec.services must have at least one service")], label
            continue
        expected = _name_limit_1_1(doc)
        refused_by_name += bool(expected)
        assert [m for _, m in got] == expected, label
    assert refused_by_name >= 3


@pytest.mark.shared
def test_release_1_1_admits_what_only_newer_rules_refuse() -> None:
    """The issue's held-out finding on the corpus: documents the reference refuses only for
    runtime-version-override-required / main-image-required are admitted by 1.1."""
    count = 0
    for label, doc in _corpus("v1alpha1"):
        reference = _errors(doc)
        if reference and {r for r, _ in reference} <= _NEW_IN_1_2_OR_LATER and not (
                doc["kind"] == "DynamoGraphDeployment" and _name_limit_1_1(doc)):
            count += 1
            assert _errors(doc, "1.1") == [], label
    assert count >= 20


@pytest.mark.shared
def test_release_1_4_verdicts_equal_the_reference_on_the_corpus() -> None:
    docs = _corpus("v1alpha1") + _corpus("v1beta1")
    assert not any("providerOverride" in k8s_yaml.dump(d) for _, d in docs)
    for label, doc in docs:
        # admission only: a release profile does not run the reference revision's reconcile check
        # (_pipeline/_releases.py), whose findings are reconcile.* errors (D38)
        reference = [e for e in _errors(doc) if not e[0].startswith("reconcile.")]
        assert _errors(doc, "1.4") == reference, label


def test_a_manifest_breaking_a_newer_rule_passes_under_an_older_release() -> None:
    """dgd.runtime-version-override-required and dgd.main-image-required are d7bb84ef0 (1.4)."""
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"backendFramework": "vllm", "components": [
               {"name": "worker", "type": "worker",
                "podTemplate": {"spec": {"containers": [{"name": "main", "image": "repo/vllm-runtime:reap-nvfp4"}]}}}]}}
    for release in ("", "1.4"):
        assert [r for r, _ in _errors(dgd, release)] == ["dgd.runtime-version-override-required"], release
    assert _errors(dgd, "1.3") == []
    assert _errors(dgd, "1.2") == []  # served v1beta1 from 1.2, judged by the v1alpha1 webhook (converted)
    no_image = {**dgd, "spec": {**dgd["spec"], "components": [
        {"name": "worker", "type": "worker", "podTemplate": {"spec": {"containers": [{"name": "main"}]}}}]}}
    assert [r for r, _ in _errors(no_image, "1.4")] == ["dgd.main-image-required"]
    assert _errors(no_image, "1.3") == []
    # and one of the oldest: a component-level topology constraint under a spec one without packDomain
    topo = {**dgd, "spec": {**dgd["spec"], "components": [
        {"name": "worker", "podTemplate": {"spec": {"containers": [{"name": "main", "image": "x:1.0.0"}]}},
         "topologyConstraint": {"packDomain": "rack"}}, {"name": "frontend", "type": "frontend"}],
        "topologyConstraint": {"clusterTopologyName": "t"}}}
    assert ("dgd.topology-component-required", "Required value: is required because "
            "spec.topologyConstraint.packDomain is not set") in _errors(topo, "1.3")
    assert not any(r == "dgd.topology-component-required" for r, _ in _errors(topo, "1.4"))


def test_a_v1alpha1_webhook_finding_points_at_the_component_it_names() -> None:
    """Under 1.2 a v1beta1 DGD is judged by the v1alpha1 webhook, whose errors name the service
    (``spec.services[alpha]…``, de6e4f30b validateTopologyConstraint); the conversion keys services by the
    component's ``name``, so the finding is located at that component, whatever the order of the names."""
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"backendFramework": "vllm", "topologyConstraint": {"clusterTopologyName": "t"}, "components": [
               {"name": "zeta", "topologyConstraint": {"packDomain": "rack"},
                "podTemplate": {"spec": {"containers": [{"name": "main", "image": "x:1.0.0"}]}}},
               {"name": "alpha", "type": "frontend"}]}}
    got = [(d.rule, d.path, d.message) for r in dynamo_schema.validate(dgd, settings=AdmissionSettings(operator_release="1.2"))
           for d in r.diagnostics if d.severity == "error"]
    assert got == [("dgd.topology-component-required", ("spec", "components", 1, "topologyConstraint"),
                    "spec.services[alpha].topologyConstraint is required because spec.topologyConstraint.packDomain "
                    "is not set; either set a spec-level packDomain or provide a topologyConstraint for every service")]


def test_a_v1alpha1_webhook_finding_on_the_services_map_points_at_the_components() -> None:
    """Under 1.2 an update of a v1beta1 DGD that adds a component is refused by the v1alpha1 webhook's
    validateImmutableFields (788d3ccd dynamographdeployment.go: "service topology is immutable and cannot be
    modified after creation: services added: [...]"), a finding on the whole services map: for the v1beta1
    document sent, that is ``spec.components``, as the v1beta1 rule of later releases locates it."""
    def dgd(*names: str) -> dict[str, Any]:
        return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
                "metadata": {"name": "g", "namespace": "ns"},
                "spec": {"components": [{"name": n, "type": "frontend" if n == "Frontend" else "worker",
                                         "podTemplate": {"spec": {"containers": [{"name": "main", "image": "x:1.0.0"}]}}}
                                        for n in names]}}
    (result,) = dynamo_schema.validate(dgd("Frontend", "Worker"), old=dgd("Frontend"),
                                       settings=AdmissionSettings(operator_release="1.2"))
    assert [(d.rule, d.path, d.message) for d in result.diagnostics if d.severity == "error"] == [
        ("dgd.components-immutable", ("spec", "components"),
         "service topology is immutable and cannot be modified after creation: services added: [Worker]")]


def test_a_failed_conversion_to_the_webhook_version_refuses_the_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """1.2 serves a v1beta1 DCD, defaults it in v1beta1 and validates it in v1alpha1 (its webhook's version):
    when that conversion fails, the API server refuses the request (a conversion webhook error), so the
    result is the failure, and nothing is stored."""
    from dynamo_schema import ConversionError
    from dynamo_schema._convert import _v1alpha1

    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "w", "namespace": "ns"}, "spec": {"backendFramework": "vllm", "name": "w", "type": "worker"}}
    settings = AdmissionSettings(operator_release="1.2")
    assert [r.status for r in dynamo_schema.validate(dcd, settings=settings)] == ["valid"]

    def refuse(obj: dict[str, Any]) -> dict[str, Any]:
        raise ConversionError("conversion refused")

    monkeypatch.setattr(_v1alpha1, "to_v1alpha1", refuse)
    (result,) = dynamo_schema.validate(dcd, settings=settings)
    assert result.status == "invalid"
    assert [(d.rule, d.severity, d.message) for d in result.diagnostics] == [("convert.failed", "error", "conversion refused")]


def test_v1beta1_documents_are_no_matches_for_kind_before_1_2() -> None:
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"components": [{"name": "w"}]}}
    assert _errors(dgd, "1.1") == [("schema.unknown-kind", 'no matches for kind "DynamoGraphDeployment" in version '
                                    '"nvidia.com/v1beta1": operator release 1.1 serves "nvidia.com/v1alpha1"')]
    dgdr = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest", "metadata": {"name": "r"},
            "spec": {"model": "Qwen/Qwen3-0.6B"}}
    assert _errors(dgdr, "1.0") == []  # DGDR served v1beta1 from 1.0
    assert [r for r, _ in _errors(dgdr, "0.9")] == ["schema.unknown-kind"]
    wm = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoWorkerMetadata", "metadata": {"name": "m"}}
    assert _errors(wm, "0.9") == [("schema.unknown-kind", 'no matches for kind "DynamoWorkerMetadata" in version '
                                   '"nvidia.com/v1alpha1": operator release 0.9 has no DynamoWorkerMetadata')]


def test_release_defaults() -> None:
    """The mutating webhooks by release: none for DGD in 0.9; replicas and the origin stamp from 1.0 (v1alpha1,
    4f686262d); the workload provider from 1.4 (73a3fd26f); the stored version is the release's storage one."""
    dgd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"services": {"worker": {"componentType": "worker"}}}}
    at_09 = dynamo_schema.default(dgd, AdmissionSettings(operator_release="0.9"))
    assert "annotations" not in at_09["metadata"] and "replicas" not in at_09["spec"]["services"]["worker"]
    at_11 = dynamo_schema.default(dgd, AdmissionSettings(operator_release="1.1"))
    assert at_11["apiVersion"] == "nvidia.com/v1alpha1"
    assert at_11["metadata"]["annotations"] == {"nvidia.com/dynamo-operator-origin-version": "1.1.0"}
    assert at_11["spec"]["services"]["worker"]["replicas"] == 1
    at_13 = dynamo_schema.default(dgd, AdmissionSettings(operator_release="1.3"))
    assert "nvidia.com/workload-provider" not in at_13["metadata"]["annotations"]
    at_14 = dynamo_schema.default(dgd, AdmissionSettings(operator_release="1.4"))
    assert at_14["apiVersion"] == "nvidia.com/v1beta1"  # storage moved to v1beta1 in 1.4 (1e0d8ef5d)
    assert at_14["metadata"]["annotations"]["nvidia.com/workload-provider"] == "grove"


def test_release_defaults_of_dgdr_and_updates() -> None:
    dgdr = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest", "metadata": {"name": "r"},
            "spec": {"model": "m"}}
    assert dynamo_schema.default(dgdr, AdmissionSettings(operator_release="1.0"))["spec"]["image"] == \
        "nvcr.io/nvidia/ai-dynamo/dynamo-frontend:1.0.0"
    assert dynamo_schema.default(dgdr, AdmissionSettings(operator_release="1.1"))["spec"]["image"] == \
        "nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.1.0"
    assert dynamo_schema.default(dgdr, AdmissionSettings(operator_release="0.9")) == dgdr  # not served by 0.9
    from dynamo_schema._admission._releases import mutate

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
             "spec": {"services": {"w": {}}}}
    assert mutate(alpha, AdmissionSettings(), "1.2", "UPDATE") == alpha  # CREATE only up to 1.2
    assert mutate(alpha, AdmissionSettings(), "1.2", "CREATE")["spec"]["services"]["w"]["replicas"] == 1


def test_unknown_release_is_a_value_error_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"known releases: 0\.8, 0\.9, 1\.0, 1\.1, 1\.2, 1\.3, 1\.4, 1\.5"):
        AdmissionSettings(operator_release="0.7")
    assert AdmissionSettings(operator_release="1.1.3").operator_release == "1.1"
    assert AdmissionSettings(operator_release="1.5.0").operator_release == ""
    with pytest.raises(ValueError):
        AdmissionSettings.from_mapping({"operator-release": "2.0"})


def test_release_1_0_profiler_image_fix_is_dgdr_only() -> None:  # mutant cd337cede5e1
    """1.0 (6d4d0a61) defaulted only DynamoGraphDeploymentRequest's image (dynamo-frontend until e8ecf6ff5,
    1.1; internal/webhook/defaulting/dynamographdeploymentrequest_handler.go): the fix-up of mutate() applies to that
    kind alone. An object of another kind, even one without a string kind (upstream registers each webhook
    for its kind, so nothing else reaches it), gets no image; a kindless one comes back unchanged."""
    from dynamo_schema._admission._defaults import default
    from dynamo_schema._admission._releases import mutate

    s = AdmissionSettings(operator_release="1.0")
    for kind in ("DynamoComponentDeployment", "DynamoGraphDeployment", None):
        obj = {"apiVersion": "nvidia.com/v1beta1", "kind": kind, "metadata": {"name": "x"}, "spec": {}}
        if kind is None:
            del obj["kind"]
        out = mutate(obj, s, "1.0", "CREATE")
        assert "image" not in out["spec"]
        if kind is None:
            assert out == default(obj, s) == obj


def test_release_1_3_refuses_a_checkpoint_with_a_gpu_memory_service() -> None:  # mutant 5d3c188a814a
    """1.3: the GMS + snapshot gate (8a269ab4d) was off, so a checkpoint with any gpuMemoryService is refused at
    the component's ``experimental.checkpoint``; from 1.4 (6a4b0747c: on by default) intra-pod GMS is admitted."""
    from tests.admission._admission_helpers import beta_dgd, with_gpu

    def gms_checkpoint(d: dict[str, Any]) -> None:
        for c in d["spec"]["components"]:
            c.pop("runtimeVersionOverride", None)  # a 1.4 field (d7bb84ef0)
        worker = d["spec"]["components"][-1]
        with_gpu(worker)
        worker["experimental"] = {"gpuMemoryService": {"mode": "IntraPod"}, "checkpoint": {"enabled": True}}

    dgd = beta_dgd(gms_checkpoint)
    got = [(d.rule, d.path, d.message) for r in dynamo_schema.validate(
        dgd, settings=AdmissionSettings(operator_release="1.3", checkpoint_enabled=True)) for d in r.diagnostics
        if d.severity == "error"]
    assert got == [("dgd.checkpoint-compatibility", ("spec", "components", 1, "experimental", "checkpoint"),
                    "Forbidden: GMS + Snapshot is temporarily disabled; disable gpuMemoryService or enable the "
                    "internal GMS + Snapshot gate")]
    assert [d for r in dynamo_schema.validate(dgd, settings=AdmissionSettings(operator_release="1.4",
            checkpoint_enabled=True)) for d in r.diagnostics if d.severity == "error"] == []
