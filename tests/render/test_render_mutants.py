"""Render details pinned against the upstream operator (reference revision 2a6da14c); written to kill
surviving mutants (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dynamo_schema._render import RenderOptions
from dynamo_schema._render import _checkpoint as ck
from dynamo_schema._render._alphacompat import dgd_alpha_component


def test_dgd_alpha_component_of_a_v1alpha1_dgd() -> None:
    """upstream ``getDGDAlphaComponent``: a v1alpha1 DGD's own ``spec.services[name]``, nil when absent.
    # mutant 0c691fe43a24"""
    dgd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
           "spec": {"services": {"Worker": {"replicas": 2}}}}
    assert dgd_alpha_component(dgd, "Worker") == {"replicas": 2}
    assert dgd_alpha_component(dgd, "Other") is None


def test_restore_candidate_drops_user_snapshot_labels() -> None:
    """upstream checkpoint/podspec.go ``ApplyRestoreCandidateMetadata``: the checkpoint-id, restore-target
    and checkpoint-source labels are deleted before the candidate annotations are set. # mutant ccd26ad91a93"""
    labels = {ck.LABEL_CHECKPOINT_ID: "x", ck.LABEL_RESTORE_TARGET: "true", ck.LABEL_CHECKPOINT_SOURCE: "true",
              "keep": "1"}
    annotations: dict[str, str] = {}
    info = ck.CheckpointInfo(name="checkpoint-abc", checkpoint_id="abc", startup_policy="", targets=(), ready=True)
    ck.apply_clique_metadata(labels, annotations, info, True)
    assert labels == {"keep": "1"}
    assert annotations[ck.ANN_CHECKPOINT_NAME] == "checkpoint-abc"


def test_vllm_failover_nnodes_only_when_multinode() -> None:
    """upstream failover_vllm.go ``applyVLLMOverrides``: ``NNODES`` only when ``numberOfNodes > 1`` (a
    node count of 0 is not multinode). # mutant b87102bc420f"""
    from dynamo_schema._render._failover import _vllm_overrides

    for nodes, expect in ((0, False), (1, False), (2, True)):
        pod = {"containers": [{"name": "engine-0"}, {"name": "engine-1"}]}
        _vllm_overrides(pod, nodes)
        for c in pod["containers"]:
            assert any(e["name"] == "NNODES" for e in c["env"]) is expect, (nodes, c)


def test_gms_server_sidecar_added_next_to_other_init_containers() -> None:
    """upstream ``EnsureServerSidecar``: the ``gms-server`` init container is appended unless one of that
    name exists; an unrelated init container does not stop it. # mutant d43eef4a7c47"""
    from dynamo_schema._render._gms import SERVER_CONTAINER, ensure_server_sidecar

    main = {"name": "main", "image": "img"}
    pod = {"containers": [main], "initContainers": [{"name": "aaa-init"}]}
    ensure_server_sidecar(pod, main)
    assert [c["name"] for c in pod["initContainers"]] == ["aaa-init", SERVER_CONTAINER]
    ensure_server_sidecar(pod, main)  # once
    assert [c["name"] for c in pod["initContainers"]] == ["aaa-init", SERVER_CONTAINER]


def test_gms_extra_client_error_located_at_the_field() -> None:
    """upstream ``gmsExtraClientContainersError``: a missing reference is refused; we locate it at
    ``experimental.gpuMemoryService.extraClientContainers`` of the component (docs/cli.md: diagnostics
    name their field). # mutant c88da3d03748"""
    import pytest

    from dynamo_schema._render import RenderError
    from dynamo_schema._render._gms import check_extra_clients

    comp = {"experimental": {"gpuMemoryService": {"extraClientContainers": ["nope"]}},
            "podTemplate": {"spec": {"containers": [{"name": "main"}]}}}
    with pytest.raises(RenderError) as err:
        check_extra_clients(comp, "W", ("spec", "components", 0))
    assert [d.path for d in err.value.diagnostics] == [
        ("spec", "components", 0, "experimental", "gpuMemoryService", "extraClientContainers")]


def test_main_container_resources_is_the_main_containers() -> None:
    """upstream ``GetMainContainerResources``: the container named ``main``, not another one listed
    before it. # mutant 35904a8dde84"""
    from dynamo_schema._render._dra import main_container_resources

    comp = {"podTemplate": {"spec": {"containers": [
        {"name": "sidecar", "resources": {"limits": {"cpu": "1"}}},
        {"name": "main", "resources": {"limits": {"nvidia.com/gpu": "2"}}}]}}}
    assert main_container_resources(comp) == {"limits": {"nvidia.com/gpu": "2"}}


def test_dyn_deployment_config_without_a_frontend_entry_is_unchanged() -> None:
    """upstream graph.go ``updateDynDeploymentConfigBytes``: with neither the component's entry nor a
    ``frontend`` one (EqualFold), the config is marshalled back unchanged. # mutant 6a46b684e84e"""
    from dynamo_schema._render._depconfig import update_config_bytes

    assert update_config_bytes('{"Backend": {"a": 1}}', "Frontend", 8000) == '{"Backend":{"a":1}}'


def test_dyn_deployment_config_null_entry_is_reported_whichever_key_matched() -> None:
    """upstream graph.go ``updateDynDeploymentConfigBytes`` assigns ``port`` into the matched entry, the
    component's own (``config[serviceName]``) or else the first ``frontend`` one (EqualFold): a JSON null
    there is a nil Go map, and the assignment panics. Either match is reported, not only when both keys
    exist. # mutant e1c05d734997"""
    import pytest

    from dynamo_schema._render import RenderError
    from dynamo_schema._render._depconfig import update_config_bytes

    for raw in ('{"router": null}', '{"FRONTEND": null}'):
        with pytest.raises(RenderError, match="the frontend entry is null"):
            update_config_bytes(raw, "router", 8000)


def test_gms_gpu_count_errors_carry_the_callers_context() -> None:
    """upstream graph.go: ``failed to get GPU count for GMS weight server: %w`` and ``failed to build GMS
    ResourceClaimTemplate configs for component %s: %w`` wrap a fractional GPU quantity's error.
    # mutants dcdb4104a7f1 3acf143c1e71"""
    import pytest

    from dynamo_schema._render import RenderError
    from dynamo_schema._render import _gmsinterpod as g

    comp = {"podTemplate": {"spec": {"containers": [
        {"name": "main", "resources": {"limits": {"nvidia.com/gpu": "1500m"}}}]}}}
    with pytest.raises(RenderError, match=r"^failed to get GPU count for GMS weight server: GPU resource "):
        g.weight_server_gpus(comp, ("spec",))
    with pytest.raises(RenderError, match=r"^failed to build GMS ResourceClaimTemplate configs for component Svc: "):
        g.claim_template_configs("Svc", comp, [], ("spec",))


def test_kv_topology_volume_replaces_its_name_only() -> None:
    """upstream graph.go ``appendTopologyLabelVolume``: the volume of the same name is dropped, every other
    volume kept, the topology volume appended. # mutant 27e07c053664"""
    from dynamo_schema._render._kvtransfer import TOPOLOGY_VOLUME_NAME, apply_volume

    pod = {"volumes": [{"name": "zzz", "emptyDir": {}}, {"name": TOPOLOGY_VOLUME_NAME, "emptyDir": {}}]}
    apply_volume(pod, {"labelKey": "rack", "domain": "rack"}, None)
    assert [v["name"] for v in pod["volumes"]] == ["zzz", TOPOLOGY_VOLUME_NAME]
    assert "downwardAPI" in pod["volumes"][1]


def test_frontend_sidecar_gets_every_missing_parent_mount() -> None:
    """upstream graph.go ``appendMissingVolumeMounts``: a parent mount whose name the sidecar already has
    is skipped, the later ones are still appended. # mutant 5a1197d1c82e"""
    from dynamo_schema._render import RenderOptions
    from dynamo_schema._render._pod import Ctx, _frontend_sidecar

    ctx = Ctx("ns-dgd", "worker", "dgd", "ns", "kubernetes", "", "", None)
    pod = {"containers": [{"name": "main"}, {"name": "fe", "volumeMounts": [{"name": "a", "mountPath": "/a"}]}]}
    _frontend_sidecar(pod, "fe", ctx, RenderOptions(), [{"name": "a", "mountPath": "/pa"},
                                                         {"name": "b", "mountPath": "/b"}], ())
    assert pod["containers"][1]["volumeMounts"] == [{"name": "a", "mountPath": "/a"}, {"name": "b", "mountPath": "/b"}]


@pytest.mark.parametrize("target", ["kubernetes", "grove"])
def test_a_frontend_sidecar_naming_no_container_is_a_located_render_error(target: str) -> None:
    """graph.go: ``frontendSidecar %q does not match any podTemplate container`` (admission refuses it first; a
    library render of an unadmitted DGD meets it), located at the component's ``frontendSidecar``."""
    # mutant c3b9f1ef4f8e
    from dynamo_schema._render import RenderError, render

    from ._grove_fixtures import _dgd

    fe = {"name": "Frontend", "type": "frontend", "frontendSidecar": "missing",
          "podTemplate": {"spec": {"containers": [{"name": "main", "image": "x:1.5.0"}]}}}
    worker = {"name": "worker", "type": "worker",
              "podTemplate": {"spec": {"containers": [{"name": "main", "image": "vllm-runtime:1.5.0"}]}}}
    with pytest.raises(RenderError) as err:
        render(_dgd([worker, fe]), target, RenderOptions())
    assert str(err.value) == 'frontendSidecar "missing" does not match any podTemplate container'
    assert [d.path for d in err.value.diagnostics] == [("spec", "components", 1, "frontendSidecar")]


def _frontend_dcd(**extra: object) -> dict:
    main: dict = {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}
    main.update(extra)
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
            "metadata": {"name": "frontend", "namespace": "default"},
            "spec": {"backendFramework": "vllm", "type": "frontend", "podTemplate": {"spec": {"containers": [main]}}}}


def test_stored_view_probe_defaults_period_seconds_10() -> None:
    """Kubernetes ``SetDefaults_Probe`` (k8s.io/kubernetes pkg/apis/core/v1/defaults.go): an unset
    ``periodSeconds`` is stored as 10 (``timeoutSeconds`` 1, ``successThreshold`` 1, ``failureThreshold``
    3, ``httpGet.scheme`` HTTP); the user's readiness probe reaches the Deployment unchanged and the API
    server fills those in. # mutant ccd67cb6c02b"""
    import dynamo_schema

    dcd = _frontend_dcd(readinessProbe={"httpGet": {"path": "/ready", "port": 8000}})
    (dep,) = [o for o in dynamo_schema.render(dcd, stored_view=True) if o["kind"] == "Deployment"]
    (main,) = [c for c in dep["spec"]["template"]["spec"]["containers"] if c["name"] == "main"]
    assert main["readinessProbe"] == {"httpGet": {"path": "/ready", "port": 8000, "scheme": "HTTP"},
                                      "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1,
                                      "failureThreshold": 3}


def test_stored_view_leaves_a_virtual_service_alone() -> None:
    """The Service defaults (``SetDefaults_Service``: ``type`` ClusterIP, ``sessionAffinity`` None,
    ``internalTrafficPolicy`` Cluster) are for core/v1 Services only; an Istio ``VirtualService``
    (``GenerateComponentVirtualService``, from a v1alpha1 DCD's ``ingress.useVirtualService``) is a custom
    resource whose CRD defines none of those fields, so it is stored as the operator sends it, while
    the component's Service does get ``type: ClusterIP``. # mutant c204a9ae8deb"""
    import dynamo_schema

    dcd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "frontend", "namespace": "default"},
           "spec": {"backendFramework": "vllm", "serviceName": "frontend", "componentType": "frontend",
                    "extraPodSpec": {"mainContainer": {"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}},
                    "ingress": {"enabled": True, "host": "fe", "useVirtualService": True,
                                "virtualServiceGateway": "istio-system/gw"}}}
    sent = {o["kind"]: o for o in dynamo_schema.render(dcd)}
    stored = {o["kind"]: o for o in dynamo_schema.render(dcd, stored_view=True)}
    assert stored["VirtualService"] == sent["VirtualService"]
    assert not {"type", "sessionAffinity", "internalTrafficPolicy"} & set(stored["VirtualService"]["spec"])
    assert stored["Service"]["spec"]["type"] == "ClusterIP"


@pytest.mark.parametrize(("sub", "want"), [("", "worker"), (None, "worker"), ("prefill", "worker"),
                                           ("decode", "prefill")])
def test_legacy_workload_type_treats_an_empty_sub_type_label_as_absent(sub: str | None, want: str) -> None:
    """internal/dynamo/v1beta1_helpers.go ``legacyAlphaWorkloadComponentType``: a DCD of a DGD with a worker hash,
    labelled component-type ``worker`` and of type prefill/decode keeps the legacy ``worker`` workload type unless
    its sub-component-type label is set (non-empty) to something else."""
    from dynamo_schema._render._workloads import dcd_workload_type

    labels = {"nvidia.com/dynamo-graph-deployment-name": "g", "nvidia.com/dynamo-worker-hash": "abcd1234",
              "nvidia.com/dynamo-component-type": "worker"}
    if sub is not None:
        labels["nvidia.com/dynamo-sub-component-type"] = sub
    dcd = {"metadata": {"labels": labels}, "spec": {"type": "prefill"}}
    assert dcd_workload_type(dcd) == want


def test_a_legacy_component_type_after_planner_gets_no_planner_defaults(tmp_path: Path) -> None:
    """internal/dynamo/component_common.go ``ComponentDefaultsFactory``: only ``planner`` gets the planner
    defaults; any other type falls to ``BaseComponentDefaults`` (no ports, probes or planner env). A v1alpha1
    ``componentType`` is any string (no enum) and is converted verbatim, so ``router`` is admitted and rendered.
    # mutant e52bbc7d9502"""
    import io

    import yaml

    from dynamo_schema._cli._main import main

    f = tmp_path / "router.yaml"
    f.write_text("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\nspec:\n"
                 "  services:\n    Router:\n      componentType: router\n      replicas: 1\n      extraPodSpec:\n"
                 "        mainContainer:\n          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["render", "--target", "grove", str(f)], stdout=out, stderr=err) == 0, err.getvalue()
    pcs = next(d for d in yaml.safe_load_all(out.getvalue()) if d["kind"] == "PodCliqueSet")
    (clique,) = pcs["spec"]["template"]["cliques"]
    main_c = next(c for c in clique["spec"]["podSpec"]["containers"] if c["name"] == "main")
    assert not {"ports", "livenessProbe", "readinessProbe", "startupProbe"} & set(main_c)
    assert not {"PLANNER_PROMETHEUS_PORT", "DYN_SYSTEM_PORT"} & {e["name"] for e in main_c.get("env") or []}


def test_grove_target_admits_with_the_grove_webhook_defaults() -> None:
    """The grove target renders what the operator stores on the Grove pathway: the defaulting webhook
    (internal/webhook/defaulting/dynamographdeployment_handler.go) sets a nil ``minAvailable`` to 1 there,
    and the legacy-v1 worker hash (api/v1alpha1/legacy_worker_hash.go) keeps ``minAvailable``. So a
    component without it renders exactly as one with ``minAvailable: 1``. # mutant 87cf206e3c20"""
    from dynamo_schema._render import render

    def dgd(min_available: int | None) -> dict[str, object]:
        worker: dict[str, object] = {"name": "decode", "type": "decode",
                                     "podTemplate": {"spec": {"containers": [{"name": "main", "image": "w:1.4.0"}]}}}
        if min_available is not None:
            worker["minAvailable"] = min_available
        return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
                "spec": {"backendFramework": "vllm", "components": [worker]}}

    options = RenderOptions(namespace="ns", worker_hash_algorithm="legacy-v1")
    assert render(dgd(None), "grove", options) == render(dgd(1), "grove", options)


def test_vllm_failover_staggers_a_master_port_in_the_command() -> None:
    """upstream failover_vllm.go ``staggerFlagValue``: when no argument holds ``--master-port <v>``, the
    command is searched next (``["sh", "-c", "... --master-port 29500"]``); engine-1 gets 29500 + 100.
    # mutant 4357dd280250"""
    from dynamo_schema._render._failover import _vllm_overrides

    pod = {"containers": [{"name": f"engine-{i}", "command": ["sh", "-c", "python -m dynamo.vllm --master-port 29500"],
                           "args": ["--model", "m"]} for i in (0, 1)]}
    _vllm_overrides(pod, 1)
    assert [c["command"][2] for c in pod["containers"]] == [
        "python -m dynamo.vllm --master-port 29500", "python -m dynamo.vllm --master-port 29600"]
    assert [c["args"] for c in pod["containers"]] == [["--model", "m"], ["--model", "m"]]
