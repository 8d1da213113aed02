"""Conversion behaviours pinned against upstream's conversion code (reference revision 2a6da14c,
``deploy/operator/api/v1alpha1/*_conversion.go``); each test names the surviving mutant it kills."""

from __future__ import annotations

import json
from typing import Any

from dynamo_schema._convert._v1alpha1 import DGD_SPEC_ANNOTATION, to_v1alpha1, to_v1beta1


def _alpha(services: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "g", "namespace": "ns"}, "spec": {"services": services}}


def _hub(components: list[dict[str, Any]], annotations: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "g", "namespace": "ns"}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": meta,
            "spec": {"components": components}}


def test_saved_frontend_sidecar_is_restored_only_under_the_default_name() -> None:
    """Upstream shared_spec_conversion.go restoredDefaultFrontendSidecar: the saved v1alpha1 FrontendSidecarSpec
    comes back only when the hub's ``frontendSidecar`` is exactly ``sidecar-frontend``; renamed (here to a name
    sorting before it) the sidecar is an ordinary extra container and no FrontendSidecarSpec is written."""
    # mutant 48990f876325
    svc = {"componentType": "frontend",
           "frontendSidecar": {"image": "fe:1", "args": ["-m", "dynamo.frontend"], "envFromSecret": "s"}}
    hub = to_v1beta1(_alpha({"w": svc}))
    comp = hub["spec"]["components"][0]
    assert comp["frontendSidecar"] == "sidecar-frontend"
    comp["frontendSidecar"] = "aaa"
    for ctr in comp["podTemplate"]["spec"]["containers"]:
        if ctr["name"] == "sidecar-frontend":
            ctr["name"] = "aaa"
    back = to_v1alpha1(hub)["spec"]["services"]["w"]
    assert "frontendSidecar" not in back
    assert [c["name"] for c in back["extraPodSpec"]["containers"]] == ["aaa"]


def test_dcd_empty_hub_name_restored_only_while_the_name_is_the_object_name() -> None:
    """Upstream dynamocomponentdeployment_conversion.go ConvertFromDynamoComponentDeploymentSpec: a saved empty
    ``spec.name`` comes back only when the converted name equals ``metadata.name``; a serviceName set on the
    v1alpha1 side since (here sorting after the object name) is kept."""
    # mutant 1ff91321246b
    hub = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "dcd", "namespace": "ns"},
           "spec": {"name": "", "type": "worker", "backendFramework": "vllm"}}
    alpha = to_v1alpha1(hub)
    assert to_v1beta1(alpha)["spec"]["name"] == ""
    alpha["spec"]["serviceName"] = "zzz"
    assert to_v1beta1(alpha)["spec"]["name"] == "zzz"


def test_strip_typed_profiling_config_drops_a_container_emptied_by_stripping() -> None:
    """Upstream dynamographdeploymentrequest_conversion_test.go (stripDGDRTypedProfilingConfig, "removes empty
    containers only when projected leaves were stripped"): an SLA holding only ``ttft`` is stripped away whole,
    as is a modelCache holding only ``pvcName``; a map empty from the start stays."""
    # mutant eeebd532ffd6
    from dynamo_schema._convert._dgdr_fields import strip_typed_profiling_config

    blob = {"sla": {"ttft": 10.0}, "deployment": {"modelCache": {"pvcName": "cache-pvc"}}, "planner": {"enabled": True}}
    assert strip_typed_profiling_config(blob) == {}
    assert strip_typed_profiling_config({"sla": {"itl": 5.0}}) == {}
    assert strip_typed_profiling_config({"sla": {}}) == {"sla": {}}


def _hub_dgdr(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest",
            "metadata": {"name": "r", "namespace": "default"}, "spec": {"model": "m", **spec}}


def test_dgdr_workload_alone_is_written_into_the_profiling_blob() -> None:
    """Upstream ConvertFrom (dynamographdeploymentrequest_conversion.go): ``if src.SLA != nil || src.Workload !=
    nil`` projects the workload's isl/osl into ``profilingConfig.config.sla`` even without an SLA."""
    # mutant e685e07562d5
    alpha = to_v1alpha1(_hub_dgdr({"workload": {"isl": 1000, "osl": 200}}))
    assert alpha["spec"]["profilingConfig"]["config"] == {"sla": {"isl": 1000, "osl": 200}}


def test_dgdr_sole_profiler_with_only_resources_is_not_saved() -> None:
    """Upstream dgdrHubOnlyProfilingJob: a sole profiler container whose only field was its (projected)
    resources is omitted from the hub-only save, so no annotation is written; with a second container the
    name-only profiler stays in the saved list."""
    # mutant 609968e05908
    profiler = {"name": "profiler", "resources": {"limits": {"cpu": "1"}}}
    one = _hub_dgdr({"overrides": {"profilingJob": {"template": {"spec": {"containers": [profiler]}}}}})
    alpha = to_v1alpha1(one)
    assert alpha["spec"]["profilingConfig"] == {"resources": {"limits": {"cpu": "1"}}}
    assert "annotations" not in alpha["metadata"]
    assert to_v1beta1(alpha)["spec"]["overrides"] == one["spec"]["overrides"]
    two = _hub_dgdr({"overrides": {"profilingJob": {"template": {"spec": {
        "containers": [profiler, {"name": "side", "image": "s:1"}]}}}}})
    raw = json.loads(to_v1alpha1(two)["metadata"]["annotations"]["nvidia.com/dgdr-spec"])
    saved = raw["spec"]["overrides"]["profilingJob"]["template"]["spec"]["containers"]
    assert [c["name"] for c in saved] == ["profiler", "side"] and not saved[0].get("resources")


def _hub_main(container: dict[str, Any], **comp: Any) -> dict[str, Any]:
    return _hub([{"name": "w", "type": "worker", **comp,
                  "podTemplate": {"spec": {"containers": [{"name": "main", "image": "i", **container}]}}}])


def test_hub_only_mount_fields_come_back_on_the_mount_of_the_same_name_and_path() -> None:
    """Upstream findPreservedVolumeMount (shared_spec_conversion.go): the preserved mount is the one of the same
    name *and* path, else the only one of that name; hub-only fields (``readOnly``) so return to the right mount
    when one volume is mounted twice or two volumes share a path (hub -> v1alpha1 -> hub is lossless)."""
    # mutant 9cd48003ef7e
    for mounts in ([{"name": "a", "mountPath": "/x"}, {"name": "a", "mountPath": "/y", "readOnly": True}],
                   [{"name": "a", "mountPath": "/x"}, {"name": "b", "mountPath": "/x", "readOnly": True}]):
        hub = _hub_main({"volumeMounts": mounts})
        back = to_v1beta1(to_v1alpha1(hub))
        assert back["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["volumeMounts"] == mounts


def test_fill_matches_list_items_by_the_first_key_every_item_has() -> None:
    """``_fill.fill`` (our restore of this module's own earlier saves, by design: live wins, preserved leaves
    fill only what is absent) matches list items by the first key tuple that every item carries: ports have
    no ``name``, so they pair by containerPort/protocol."""
    # mutant 68c389366e97
    from dynamo_schema._convert._fill import fill

    live: dict[str, Any] = {"ports": [{"containerPort": 1, "protocol": "TCP"}, {"containerPort": 2, "protocol": "UDP"}]}
    fill(live, {"ports": [{"containerPort": 2, "protocol": "UDP", "hostPort": 7},
                          {"containerPort": 1, "protocol": "TCP", "hostPort": 5}]})
    assert live == {"ports": [{"containerPort": 2, "protocol": "UDP", "hostPort": 7},
                              {"containerPort": 1, "protocol": "TCP", "hostPort": 5}]}


def test_legacy_component_save_without_the_no_main_marker_keeps_the_generated_main() -> None:
    """Upstream buildPodTemplateToHub always emits a ``main`` container (shared_spec_conversion.go, the comment in
    the podTemplate decomposition); our earlier ``component`` save drops it only under its explicit
    ``mainContainerAbsent`` marker, so a save without the marker leaves the generated main in place."""
    # mutant 93ca0bdbe06e
    from dynamo_schema._convert._v1alpha1 import DCD_SPEC_ANNOTATION

    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
             "metadata": {"name": "d", "namespace": "ns",
                          "annotations": {DCD_SPEC_ANNOTATION: '{"spec":{"component":{"replicas":2}},"version":1}'}},
             "spec": {"serviceName": "d", "componentType": "frontend", "frontendSidecar": {"image": "fe:1"}}}
    spec = to_v1beta1(alpha)["spec"]
    assert spec["replicas"] == 2
    assert [c["name"] for c in spec["podTemplate"]["spec"]["containers"]] == ["main", "sidecar-frontend"]


def test_frontend_sidecar_keeps_hub_only_secret_ref_fields_of_the_same_secret() -> None:
    """Upstream restoreSharedHubOnlyFrontendSidecarEnvFrom (shared_spec_conversion.go): when the live sidecar's
    envFrom and the saved one are each the single secretRef of ``envFromSecret``, the saved entry (with its
    hub-only ``optional``) is merged back; hub -> v1alpha1 -> hub is lossless."""
    # mutants b57ef5adecb0, 101c3ea7a91d
    alpha = _alpha({"f": {"componentType": "frontend", "frontendSidecar": {"image": "fe:1", "envFromSecret": "s"}}})
    hub = to_v1beta1(alpha)
    sidecar = hub["spec"]["components"][0]["podTemplate"]["spec"]["containers"][1]
    assert sidecar["name"] == "sidecar-frontend"
    sidecar["envFrom"] = [{"secretRef": {"name": "s", "optional": True}}]
    spoke = to_v1alpha1(hub)
    assert spoke["spec"]["services"]["f"]["frontendSidecar"] == {"image": "fe:1", "envFromSecret": "s"}
    assert to_v1beta1(spoke)["spec"] == hub["spec"]


def test_hub_container_order_survives_the_round_trip() -> None:
    """Upstream restoreSharedPodTemplateContainerOrder: the saved container names give the order back, each live
    container placed by its exact name (here a sidecar before ``main``, whose name sorts after it)."""
    # mutant a01fc8beee1a
    hub = _hub([{"name": "w", "type": "worker", "podTemplate": {"spec": {"containers": [
        {"name": "aux", "image": "a:1"}, {"name": "main", "image": "i"}, {"name": "log", "image": "l:1"}]}}}])
    back = to_v1beta1(to_v1alpha1(hub))
    assert [c["name"] for c in back["spec"]["components"][0]["podTemplate"]["spec"]["containers"]] == [
        "aux", "main", "log"]
    assert back["spec"] == hub["spec"]


def _saved_components(spoke: dict[str, Any]) -> list[dict[str, Any]]:
    return json.loads(spoke["metadata"]["annotations"]["nvidia.com/dgd-spec"])["spec"]["components"]


def test_hub_containers_equal_to_their_projection_save_no_pod_template() -> None:
    """Upstream sharedHubOnlyPodTemplateContainerFieldsNeedSave: with a projection the containers need a save only
    when they differ from it; a name-only ``main`` plus a sidecar v1alpha1 holds verbatim needs none."""
    # mutant 2829cfaa9142
    spoke = to_v1alpha1(_hub([{"name": "w", "type": "worker", "podTemplate": {"spec": {"containers": [
        {"name": "main"}, {"name": "side", "image": "s:1"}]}}}]))
    assert _saved_components(spoke) == [{"name": "w"}]


def test_order_save_keeps_an_unchanged_sidecar_as_its_name_only() -> None:
    """Upstream saveSharedHubOnlyContainerFields: a non-main container semantically equal to its projection is
    saved by name only (here kept for the container order, a sidecar whose name sorts before ``main``)."""
    # mutant 7fb2e87e74dd
    hub = _hub([{"name": "w", "type": "worker", "podTemplate": {"spec": {"containers": [
        {"name": "aux", "image": "s:1", "volumeMounts": [{"name": "v", "mountPath": "/v", "readOnly": True}]},
        {"name": "main", "image": "i"}]}}}])
    spoke = to_v1alpha1(hub)
    saved = _saved_components(spoke)[0]["podTemplate"]["spec"]["containers"]
    assert [{k: v for k, v in c.items() if k != "resources"} for c in saved] == [{"name": "aux"}, {"name": "main"}]
    assert to_v1beta1(spoke)["spec"] == hub["spec"]


def test_saved_disabled_shared_memory_with_go_zero_size_is_not_restored() -> None:
    """Upstream writes the value-typed SharedMemorySpec.size as ``"0"`` when unset; read back, ``{disabled: true,
    size: "0"}`` is a disabled spec of zero size, which sharedMemoryNeedsPreservation does not restore (the hub's
    absent sharedMemorySize stands), rather than an empty spec that would be."""
    # mutant a6ad24d699a7
    save = {"version": 1, "spec": {"services": {"w": {"sharedMemory": {"disabled": True, "size": "0"}}}}}
    hub = _hub([{"name": "w", "type": "worker"}], {DGD_SPEC_ANNOTATION: json.dumps(save)})
    assert to_v1alpha1(hub)["spec"]["services"]["w"] == {"componentType": "worker"}


def test_extra_pod_spec_with_pod_content_is_not_saved_whole() -> None:
    """Upstream extraPodSpecNeedsPreservation (podSpecIsZero): only a zero extraPodSpec (or one holding just the
    main container's name) is saved whole in the spoke annotation; one with pod content (``hostNetwork``, a field
    sorting before ``mainContainer``) goes to the hub podTemplate and needs no save."""
    # mutant 91da6a6b599c
    hub = to_v1beta1(_alpha({"w": {"componentType": "worker", "extraPodSpec": {"hostNetwork": True}}}))
    assert "annotations" not in hub["metadata"]
    assert hub["spec"]["components"][0]["podTemplate"]["spec"]["hostNetwork"] is True


def test_typed_dcd_spoke_save_restores_the_main_container_name_beside_other_pod_fields() -> None:
    """Upstream shared_spec_conversion.go (2a6da14c): after restoring field origins, an unnamed live
    ``extraPodSpec.mainContainer`` takes the preserved main container's name; the typed spoke save here
    (``nvidia.com/dcd-spec``, the envelope the operator writes) also holds another extraPodSpec field."""
    # mutant 957681414916
    save = {"version": 1, "spec": {"extraPodSpec": {"mainContainer": {"name": "custom", "resources": {}},
                                                     "terminationGracePeriodSeconds": 30}}}
    hub = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "w", "annotations": {"nvidia.com/dcd-spec": json.dumps(save)}},
           "spec": {"type": "worker", "podTemplate": {"spec": {"terminationGracePeriodSeconds": 30,
                                                               "containers": [{"name": "main", "image": "img:1"}]}}}}
    eps = to_v1alpha1(hub)["spec"]["extraPodSpec"]
    assert eps["mainContainer"] == {"name": "custom", "image": "img:1"}
    assert eps["terminationGracePeriodSeconds"] == 30


def test_the_rolling_update_status_renames_its_component_list() -> None:  # mutant e0f35633989a
    # upstream dynamographdeployment_conversion.go: RollingUpdateStatus.UpdatedComponents <-> UpdatedServices;
    # read from YAML (the keys are the loader's strings, as a manifest's are)
    from dynamo_schema._io._load import load_text

    beta = load_text("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: g, namespace: ns}\n"
                     "spec:\n  components:\n    - name: worker\n      type: worker\nstatus:\n  rollingUpdate:\n"
                     "    phase: InProgress\n    updatedComponents: [worker]\n")[0].data
    alpha = to_v1alpha1(beta)
    assert alpha["status"] == {"rollingUpdate": {"phase": "InProgress", "updatedServices": ["worker"]}}
    again = load_text(json.dumps(alpha))[0].data
    assert to_v1beta1(again)["status"] == beta["status"]
