"""The v1alpha1 webhooks of releases 0.8 – 1.2 (``dynamo_schema._admission.legacy``) against upstream's own
test tables at those releases: ``internal/webhook/validation/dynamographdeployment_test.go``,
``shared_test.go`` and ``dynamocomponentdeployment_test.go`` at the release commits of
crds-history/SOURCE.md (1.1 = 3b8a3845, 1.2 = 788d3ccd, 1.0 = 6d4d0a61). Each row names the upstream test
case; the input is that case's object as v1alpha1 JSON, the expectation its ``errMsg`` (whole message, or
a substring where upstream checks ``errContains``). Joined errors are compared joined with a newline, as
Go's ``errors.Join`` prints them.
"""

from __future__ import annotations

from typing import Any

import pytest

from dynamo_schema._admission import AdmissionSettings
from dynamo_schema._admission.legacy import validate
from dynamo_schema._admission.legacy._shared import go_atoi


def _dgd(services: dict[str, Any], name: str = "test-graph", **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": name, "namespace": "default"}, "spec": {"services": services, **spec}}


def _errors(obj: dict[str, Any], release: str, *, grove: bool = True, old: dict[str, Any] | None = None) -> str:
    diags = validate(obj["kind"], obj, AdmissionSettings(grove_enabled=grove, cluster_topologies=None), release, old)
    return "\n".join(d.message for d in diags if d.severity == "error")


_PVC = {"name": "test-pvc", "create": True, "storageClass": "standard", "size": "10Gi",
        "volumeAccessMode": "ReadWriteOnce"}

# (upstream case, release, object, expected message or "" for admitted, substring?)
DGD_CASES: list[tuple[str, str, dict[str, Any], str, bool]] = [
    ("valid deployment with services", "1.1", _dgd({"main": {"replicas": 3}}, backendFramework="sglang"), "", False),
    ("no services", "1.1", _dgd({}), "spec.services must have at least one service", False),
    ("service with invalid replicas", "1.1", _dgd({"main": {"replicas": -1}}),
     "spec.services[main].replicas must be non-negative", False),
    ("service with invalid ingress", "1.1", _dgd({"gateway": {"ingress": {"enabled": True, "host": ""}}}),
     "spec.services[gateway].ingress.host is required when ingress is enabled", False),
    ("pvc with create=true and missing storageClass", "1.1",
     _dgd({"main": {}}, pvcs=[{**_PVC, "storageClass": ""}]),
     "spec.pvcs[0].storageClass is required when create is true", False),
    ("pvc with create=true and missing size", "1.1", _dgd({"main": {}}, pvcs=[{k: v for k, v in _PVC.items() if k != "size"}]),
     "spec.pvcs[0].size is required when create is true", False),
    ("pvc with create=false and missing fields", "1.1", _dgd({"main": {}}, pvcs=[{"name": "test-pvc", "create": False}]),
     "", False),
    ("pvc with missing name", "1.1", _dgd({"main": {}}, pvcs=[{"create": False}]), "spec.pvcs[0].name is required", False),
    ("pvc with multiple errors (name, storageClass, size, volumeAccessMode all missing)", "1.1",
     _dgd({"main": {}}, pvcs=[{"create": True}]),
     "spec.pvcs[0].name is required\nspec.pvcs[0].storageClass is required when create is true\n"
     "spec.pvcs[0].size is required when create is true\nspec.pvcs[0].volumeAccessMode is required when create is true",
     True),
    ("service with invalid volume mount", "1.1", _dgd({"main": {"volumeMounts": [{"name": "v"}]}}),
     "spec.services[main].volumeMounts[0].mountPoint is required when useAsCompilationCache is false", False),
    ("service with invalid shared memory", "1.1", _dgd({"main": {"sharedMemory": {"disabled": False}}}),
     "spec.services[main].sharedMemory.size is required when disabled is false", False),
    ("restart with nil at", "1.1", _dgd({"main": {}}, restart={}), "spec.restart.id is required", False),
    ("restart with parallel strategy and order specified", "1.1",
     _dgd({"main": {}}, restart={"id": "r1", "strategy": {"type": "Parallel", "order": ["main"]}}),
     "spec.restart.strategy.order cannot be specified when strategy is parallel", False),
    ("restart with sequential strategy and duplicate services in order", "1.1",
     _dgd({"main": {}, "other": {}}, restart={"id": "r1", "strategy": {"type": "Sequential",
                                                                         "order": ["main", "main", "other"]}}),
     "spec.restart.strategy.order must be unique", True),
    ("restart with sequential strategy and unknown service in order", "1.1",
     _dgd({"main": {}}, restart={"id": "r1", "strategy": {"type": "Sequential", "order": ["unknown"]}}),
     "spec.restart.strategy.order contains unknown service: unknown", True),
    ("restart with sequential strategy and missing service in order", "1.1",
     _dgd({"main": {}, "other": {}}, restart={"id": "r1", "strategy": {"type": "Sequential", "order": ["main"]}}),
     "spec.restart.strategy.order must have the same number of unique services as the deployment", True),
    ("restart with sequential strategy and empty order is valid", "1.1",
     _dgd({"main": {}}, restart={"id": "r1", "strategy": {"type": "Sequential", "order": []}}), "", False),
    ("boundary case - exactly at 45 char limit for single-node", "1.1", _dgd({"s" * 25: {}}, name="d" * 20), "", False),
    ("boundary case - one char over limit for single-node", "1.1", _dgd({"s" * 26: {}}, name="d" * 20),
     "combined resource name length 46 exceeds 45-character limit", True),
    ("service name too long for multinode deployment", "1.1",
     _dgd({"verylongservicename": {"multinode": {"nodeCount": 2}}}, name="vllm-agg"),
     "combined resource name length", True),
    ("long service name allowed when Grove disabled via annotation", "1.1",
     {**_dgd({"s" * 40: {}}, name="d" * 20), "metadata": {"name": "d" * 20, "namespace": "default",
                                                           "annotations": {"nvidia.com/enable-grove": "false"}}},
     "", False),
    ("Grove annotation case insensitive - FALSE", "1.1",
     {**_dgd({"s" * 40: {}}, name="d" * 20), "metadata": {"name": "d" * 20, "namespace": "default",
                                                           "annotations": {"nvidia.com/enable-grove": "FALSE"}}},
     "", False),
    ("GMS failover without GPU", "1.1",
     _dgd({"worker": {"componentType": "worker", "gpuMemoryService": {"enabled": True, "mode": "interPod"},
                      "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}}, backendFramework="vllm"),
     "requires resources.limits.gpu", True),
    ("inter-pod GMS on frontend component rejected", "1.1",
     _dgd({"frontend": {"componentType": "frontend", "gpuMemoryService": {"enabled": True, "mode": "interPod"},
                        "resources": {"limits": {"gpu": "1"}}}}, backendFramework="vllm"),
     "GPU memory service is only supported for worker components", True),
    ("inter-pod GMS rejected on non-vLLM backend", "1.1",
     _dgd({"worker": {"componentType": "worker", "gpuMemoryService": {"enabled": True, "mode": "interPod"},
                      "resources": {"limits": {"gpu": "1"}}}}, backendFramework="sglang"),
     "currently supported only for vLLM", True),
    ("inter-pod GMS rejected when backendFramework is unset", "1.1",
     _dgd({"worker": {"componentType": "worker", "gpuMemoryService": {"enabled": True, "mode": "interPod"},
                      "resources": {"limits": {"gpu": "1"}}}}),
     "currently supported only for vLLM", True),
    ("invalid annotation vllm-distributed-executor-backend", "1.1",
     {**_dgd({"main": {}}), "metadata": {"name": "test-graph", "namespace": "default",
                                         "annotations": {"nvidia.com/vllm-distributed-executor-backend": "invalid"}}},
     'annotation nvidia.com/vllm-distributed-executor-backend has invalid value "invalid": must be "mp" or "ray"',
     False),
    ("invalid annotation dynamo-operator-origin-version not semver", "1.1",
     {**_dgd({"main": {}}), "metadata": {"name": "test-graph", "namespace": "default",
                                         "annotations": {"nvidia.com/dynamo-operator-origin-version": "not-a-version"}}},
     'annotation nvidia.com/dynamo-operator-origin-version has invalid value "not-a-version": must be valid semver',
     False),
    ("valid annotation dynamo-operator-origin-version fallback version", "1.1",
     {**_dgd({"main": {}}), "metadata": {"name": "test-graph", "namespace": "default",
                                         "annotations": {"nvidia.com/dynamo-operator-origin-version": "0.0.0-unknown"}}},
     "", False),
    ("spec-level with topologyProfile only (no packDomain) is rejected when service lacks constraint", "1.1",
     _dgd({"Frontend": {}}, topologyConstraint={"topologyProfile": "p"}),
     "spec.services[Frontend].topologyConstraint is required because spec.topologyConstraint.packDomain is not set",
     True),
    ("invalid packDomain format at spec level", "1.1",
     _dgd({"Frontend": {}}, topologyConstraint={"topologyProfile": "p", "packDomain": "Bad_Domain"}),
     "is not a valid topology domain", True),
    ("topologyProfile missing at spec level when service has constraint", "1.1",
     _dgd({"Frontend": {"topologyConstraint": {"packDomain": "rack"}}}),
     "spec.topologyConstraint with topologyProfile is required", True),
    ("topologyProfile empty at spec level when service has constraint", "1.1",
     _dgd({"Frontend": {"topologyConstraint": {"packDomain": "rack"}}}, topologyConstraint={"packDomain": "zone"}),
     "topologyProfile is required", True),
    ("service-level topologyConstraint without packDomain is rejected", "1.1",
     _dgd({"Frontend": {"topologyConstraint": {}}}, topologyConstraint={"topologyProfile": "p", "packDomain": "zone"}),
     "packDomain is required", True),
    ("both annotations invalid", "1.1",
     {**_dgd({"main": {}}), "metadata": {"name": "test-graph", "namespace": "default", "annotations": {
         "nvidia.com/dynamo-operator-origin-version": "bad",
         "nvidia.com/vllm-distributed-executor-backend": "invalid"}}},
     'annotation nvidia.com/dynamo-operator-origin-version has invalid value "bad": must be valid semver\n'
     'annotation nvidia.com/vllm-distributed-executor-backend has invalid value "invalid": must be "mp" or "ray"', True),
    # 1.2 (788d3ccd)
    ("long DGD name auto-truncated for single-node - no error", "1.2",
     _dgd({"VeryLongServiceNameThatExceedsLimit": {}}, name="verylongdynamographdeploymentname"), "", False),
    ("service name so long that even truncated PCS name exceeds limit", "1.2",
     _dgd({"VeryVeryExtremelyLongServiceNameXXXXXX": {}}, name="my-long-dgd-name"),
     "combined resource name length", True),
    ("experimental kvTransferPolicy missing labelKey", "1.2",
     _dgd({"frontend": {"componentType": "frontend"}}, experimental={"kvTransferPolicy": {"domain": "zone"}}),
     "spec.experimental.kvTransferPolicy.labelKey is required", False),
    ("experimental kvTransferPolicy rejects invalid labelKey characters", "1.2",
     _dgd({"frontend": {}}, experimental={"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/bad key",
                                                                "domain": "zone"}}),
     'spec.experimental.kvTransferPolicy.labelKey "topology.kubernetes.io/bad key" is not a valid Kubernetes label key',
     True),
    ("experimental kvTransferPolicy invalid domain format", "1.2",
     _dgd({"frontend": {}}, experimental={"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone",
                                                                "domain": "INVALID_DOMAIN"}}),
     'spec.experimental.kvTransferPolicy.domain "INVALID_DOMAIN" is not a valid topology domain', True),
    ("experimental kvTransferPolicy invalid enforcement", "1.2",
     _dgd({"frontend": {}}, experimental={"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone",
                                                                "domain": "zone", "enforcement": "invalid-policy"}}),
     'spec.experimental.kvTransferPolicy.enforcement "invalid-policy" is invalid', True),
    ("experimental kvTransferPolicy rejects preferred without preferredWeight", "1.2",
     _dgd({"frontend": {}}, experimental={"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone",
                                                                "domain": "zone", "enforcement": "preferred"}}),
     'spec.experimental.kvTransferPolicy.preferredWeight is required when enforcement is "preferred"', False),
    ("experimental kvTransferPolicy rejects preferredWeight with required enforcement", "1.2",
     _dgd({"frontend": {}}, experimental={"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone",
                                                                "domain": "zone", "enforcement": "required",
                                                                "preferredWeight": 0.5}}),
     'spec.experimental.kvTransferPolicy.preferredWeight must not be set when enforcement is "required"', False),
    ("experimental kvTransferPolicy rejects preferredWeight above one", "1.2",
     _dgd({"frontend": {}}, experimental={"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone",
                                                                "domain": "zone", "enforcement": "preferred",
                                                                "preferredWeight": 1.25}}),
     "spec.experimental.kvTransferPolicy.preferredWeight 1.25 is invalid", True),
]


@pytest.mark.parametrize(("case", "release", "obj", "want", "substring"), DGD_CASES, ids=[c[0] for c in DGD_CASES])
def test_dgd_webhook_matches_upstream_rows(case: str, release: str, obj: dict[str, Any], want: str,
                                           substring: bool) -> None:
    got = _errors(obj, release)
    if not want:
        assert got == ""
    elif substring:
        assert want in got
    else:
        assert got == want


# shared_test.go at 1.1: the DCD path (``spec``) of SharedSpecValidator
SHARED_CASES = [
    ("negative replicas", {"replicas": -1}, "spec.replicas must be non-negative"),
    ("ingress enabled without host", {"ingress": {"enabled": True}}, "spec.ingress.host is required when ingress is enabled"),
    ("ingress disabled - no validation", {"ingress": {"enabled": False}}, ""),
    ("volume mount without mountPoint and not compilation cache", {"volumeMounts": [{"name": "v"}]},
     "spec.volumeMounts[0].mountPoint is required when useAsCompilationCache is false"),
    ("volume mount as compilation cache without mountPoint",
     {"volumeMounts": [{"name": "v", "useAsCompilationCache": True}]}, ""),
    ("shared memory enabled without size", {"sharedMemory": {"disabled": False}},
     "spec.sharedMemory.size is required when disabled is false"),
    ("shared memory disabled without size", {"sharedMemory": {"disabled": True}}, ""),
    ("frontendSidecar rejects duplicate container name in extraPodSpec",
     {"frontendSidecar": {"image": "x"}, "extraPodSpec": {"containers": [{"name": "sidecar-frontend"}]}},
     'spec: cannot inject frontend sidecar: a container named "sidecar-frontend" already exists in '
     "extraPodSpec.containers"),
    ("inter-pod failover requires gpuMemoryService.enabled",
     {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
      "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}, "gpuMemoryService.enabled=true"),
    ("inter-pod failover requires gpuMemoryService.mode=interPod",
     {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
      "gpuMemoryService": {"enabled": True, "mode": "intraPod"},
      "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}, "requires gpuMemoryService.mode"),
    ("inter-pod failover with matching gpuMemoryService.mode=interPod is accepted",
     {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
      "gpuMemoryService": {"enabled": True, "mode": "interPod"},
      "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}, ""),
    ("intraPod failover with numShadows=2 is rejected",
     {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
      "gpuMemoryService": {"enabled": True, "mode": "intraPod"},
      "failover": {"enabled": True, "mode": "intraPod", "numShadows": 2}}, "numShadows"),
    # validateEPPConfig (0.9 - 1.2): IsMultinode (nodeCount > 1) is refused before replicas and eppConfig
    ("EPP cannot be multinode", {"componentType": "epp", "multinode": {"nodeCount": 2}},
     "spec: EPP component cannot be multinode (multinode field must be nil or nodeCount must be 1)"),
]


@pytest.mark.parametrize(("case", "spec", "want"), SHARED_CASES, ids=[c[0] for c in SHARED_CASES])
def test_shared_spec_matches_upstream_rows(case: str, spec: dict[str, Any], want: str) -> None:
    dcd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "c", "namespace": "default"}, "spec": spec}
    got = _errors(dcd, "1.1")
    assert (want in got) if want else got == ""
    if want and " " in want and want.startswith("spec"):
        assert got == want  # the whole message where upstream compares it whole


def test_epp_multinode_error_points_at_the_multinode_field() -> None:
    """validateEPPConfig (0.9 - 1.2) refuses a multinode EPP; the error belongs to the service's multinode."""
    dcd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "c", "namespace": "default"},
           "spec": {"componentType": "epp", "multinode": {"nodeCount": 3}}}
    diags = validate(dcd["kind"], dcd, AdmissionSettings(cluster_topologies=None), "0.9", None)
    assert [(d.path, d.severity) for d in diags if "multinode" in d.message] == [(("spec", "multinode"), "error")]


def test_dynamo_namespace_warning_quotes_as_upstream() -> None:
    """shared_test.go (1.1) "warning for deprecated dynamoNamespace field shows calculated namespace"."""
    dgd = _dgd({"Frontend": {"replicas": 1, "dynamoNamespace": "my-custom-namespace"}}, name="trtllm-disagg")
    dgd["metadata"]["namespace"] = "hannahz"
    diags = validate("DynamoGraphDeployment", dgd, AdmissionSettings(), "1.1")
    assert [d.severity for d in diags] == ["warning"]
    assert "Value 'my-custom-namespace' will be replaced with 'hannahz-trtllm-disagg'" in diags[0].message


def _gms_worker(mode: str) -> dict[str, Any]:
    return {"w": {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
                  "gpuMemoryService": {"enabled": True, "mode": mode}}}


UPDATE_CASES = [
    ("changing backend framework", {"main": {}}, {"main": {}}, {"backendFramework": "vllm"}, {"backendFramework": "sglang"},
     "spec.backendFramework is immutable and cannot be changed after creation"),
    ("adding multiple services is prohibited", {"main": {}, "cache": {}, "frontend": {}}, {"main": {}}, {}, {},
     "service topology is immutable and cannot be modified after creation: services added: [cache frontend]"),
    ("adding and removing services simultaneously is prohibited", {"main": {}, "frontend": {}},
     {"main": {}, "cache": {}}, {}, {},
     "service topology is immutable and cannot be modified after creation: services added: [frontend], services "
     "removed: [cache]"),
    ("changing service from single-node to multi-node", {"main": {"multinode": {"nodeCount": 2}}}, {"main": {}}, {}, {},
     "spec.services[main] cannot change node topology (between single-node and multi-node) after creation"),
    ("changing multinode NodeCount within multi-node range is allowed", {"main": {"multinode": {"nodeCount": 4}}},
     {"main": {"multinode": {"nodeCount": 2}}}, {}, {}, ""),
    ("toggling inter-pod GMS layout is immutable", _gms_worker("interPod"), _gms_worker("intraPod"),
     {"backendFramework": "vllm"}, {"backendFramework": "vllm"}, "inter-pod GMS layout cannot be toggled after creation"),
    # the other direction (mutant df9f11550e67): dynamographdeployment.go (1.1, 3b8a3845) refuses
    # `oldInterPodGMS != newInterPodGMS`, so turning the inter-pod layout off is refused too
    ("toggling inter-pod GMS layout off is immutable", _gms_worker("intraPod"), _gms_worker("interPod"),
     {"backendFramework": "vllm"}, {"backendFramework": "vllm"}, "inter-pod GMS layout cannot be toggled after creation"),
]


@pytest.mark.parametrize(("case", "new", "old", "new_spec", "old_spec", "want"), UPDATE_CASES,
                         ids=[c[0] for c in UPDATE_CASES])
def test_dgd_update_matches_upstream_rows(case: str, new: dict[str, Any], old: dict[str, Any],
                                          new_spec: dict[str, Any], old_spec: dict[str, Any], want: str) -> None:
    got = _errors(_dgd(new, **new_spec), "1.1", old=_dgd(old, **old_spec))
    assert (want in got) if want else got == ""


def test_restart_id_frozen_during_rolling_update() -> None:
    """dynamographdeployment_test.go (1.1) "restart.id change while rolling update Pending - rejected"."""
    old = {**_dgd({"main": {}}, restart={"id": "a"}), "status": {"rollingUpdate": {"phase": "Pending"}}}
    assert _errors(_dgd({"main": {}}, restart={"id": "b"}), "1.1", old=old) == \
        "spec.restart.id cannot be changed while a rolling update is Pending"
    old["status"]["rollingUpdate"]["phase"] = "Completed"
    assert _errors(_dgd({"main": {}}, restart={"id": "b"}), "1.1", old=old) == ""


def test_release_differences_of_the_v1alpha1_webhooks() -> None:
    """What the v1alpha1 webhooks of 0.8 – 1.2 did differently (their source at each release commit)."""
    long_multinode = _dgd({"VllmDecodeWorker": {"multinode": {"nodeCount": 2}}}, name="dsv4-pro-agg")
    # 1.0: DGD name + service name + service name with the leader suffix
    assert _errors(long_multinode, "1.0") == (
        "spec.services[VllmDecodeWorker]: combined resource name length 48 exceeds 45-character limit required for "
        "pod naming. Consider shortening the DynamoGraphDeployment name 'dsv4-pro-agg' (length 12) or service name "
        "'VllmDecodeWorker' (length 16). For multinode services, the combined length of DGD name + service name + "
        "service name with role suffix (e.g., 'vllmdecodeworker-ldr') must not exceed 45 characters")
    # 0.9 had no name-length rule (a3f1e7ec6 is 1.0); 1.2 truncates the PodCliqueSet name (cce641360)
    assert _errors(long_multinode, "0.9") == ""
    assert _errors(long_multinode, "1.2") == ""
    # 1.0 refused the inter-pod layouts outright; 1.1 (a48672f5b) admits them on Grove with vLLM
    gms = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
           "gpuMemoryService": {"enabled": True, "mode": "interPod"}}
    assert _errors(_dgd({"w": gms}, backendFramework="vllm"), "1.0") == \
        'spec.services[w].gpuMemoryService: mode "interPod" is not yet supported'
    assert _errors(_dgd({"w": gms}, backendFramework="vllm"), "1.1") == ""
    # 0.8 had no annotation validation (validateAnnotations is 1.0)
    bad = {**_dgd({"main": {}}), "metadata": {"name": "g", "annotations": {
        "nvidia.com/dynamo-operator-origin-version": "bad"}}}
    assert _errors(bad, "0.8") == ""
    assert "must be valid semver" in _errors(bad, "1.0")
    # 1.0 asked for container discovery with any failover, 1.1 with intra-pod failover only
    inter = {**gms, "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}
    assert "failover requires per-container K8s discovery" in _errors(_dgd({"w": inter}, backendFramework="vllm"), "1.0")
    assert _errors(_dgd({"w": inter}, backendFramework="vllm"), "1.1") == ""


def test_dgdr_webhooks_of_early_releases() -> None:
    """dynamographdeploymentrequest.go: v1alpha1 (0.8, 0.9) and v1beta1 (1.0 – 1.2)."""
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentRequest",
             "metadata": {"name": "r"}, "spec": {"backend": "vllm", "model": "m", "profilingConfig": {}}}
    assert _errors(alpha, "0.9") == ("spec.profilingConfig.profilerImage is required\n"
                                     "spec.profilingConfig.config is required and must not be empty")
    beta = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest", "metadata": {"name": "r"},
            "spec": {"model": "m", "backend": "auto", "searchStrategy": "thorough"}}
    assert _errors(beta, "1.1") == ('spec.searchStrategy "thorough" is incompatible with spec.backend "auto": set '
                                   "spec.backend to a specific backend (sglang, trtllm, or vllm)")
    # without GPU discovery a namespace-restricted operator asked for hardware; the cluster-wide one never did
    assert validate("DynamoGraphDeploymentRequest", {**beta, "spec": {"model": "m"}},
                    AdmissionSettings(gpu_discovery_enabled=False), "1.1") == []


@pytest.mark.parametrize(("text", "want"), [
    ("0", 0), ("+7", 7), ("-64", -64), ("-1000", -1000),
    ("9223372036854775807", 2**63 - 1), ("-9223372036854775808", -(2**63)),
    ("9223372036854775808", None), ("-9223372036854775809", None),  # out of int64: ErrRange
    ("1.5", None), ("", None), (" 1", None), ("0x10", None),
])
def test_go_atoi_accepts_the_whole_int64_range(text: str, want: int | None) -> None:
    """Go ``strconv.Atoi`` (64-bit int): an optional sign and decimal digits within [-2**63, 2**63 - 1]."""
    assert go_atoi(text) == want


def test_checkpoint_job_only_in_auto_mode_at_1_2() -> None:
    """The 1.2 CRD rule on ``checkpoint``: ``!has(self.job) || !has(self.mode) || self.mode == 'Auto'``, at
    ``spec.checkpoint.job`` with the message "checkpoint.job can only be set in Auto mode"."""
    def dcd(ck: dict[str, Any]) -> dict[str, Any]:
        return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                "metadata": {"name": "c", "namespace": "default"}, "spec": {"checkpoint": ck}}

    settings = AdmissionSettings(cluster_topologies=None)
    diags = validate("DynamoComponentDeployment", dcd({"enabled": True, "mode": "Manual", "job": {}}), settings, "1.2", None)
    assert [(d.path, d.message) for d in diags if d.severity == "error"] == [
        (("spec", "checkpoint", "job"), "spec.checkpoint.job can only be set in Auto mode")]
    for ok in ({"enabled": True, "mode": "Auto", "job": {}}, {"enabled": True, "job": {}}):
        assert [d.message for d in validate("DynamoComponentDeployment", dcd(ok), settings, "1.2", None)
                if d.severity == "error"] == []


def _dcd_diags(spec: dict[str, Any], release: str) -> list[Any]:
    dcd = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
           "metadata": {"name": "c", "namespace": "default"}, "spec": spec}
    diags = validate(dcd["kind"], dcd, AdmissionSettings(grove_enabled=True, cluster_topologies=None), release, None)
    return [d for d in diags if d.severity == "error"]


def test_inter_pod_failover_is_refused_at_1_0_on_the_mode_field() -> None:
    """shared.go validateFailover at 1.0 (6d4d0a61): with GMS enabled and no mode conflict, an interPod
    failover is refused as not yet supported."""
    # mutant 336ad0fd06a2
    spec = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
            "gpuMemoryService": {"enabled": True},
            "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}
    hits = [d for d in _dcd_diags(spec, "1.0") if 'mode "interPod" is not yet supported' in d.message]
    assert [(d.message, d.path) for d in hits] == [
        ('spec.failover: mode "interPod" is not yet supported', ("spec", "failover", "mode"))]


def test_inter_pod_failover_needs_a_shadow_at_1_1() -> None:
    """shared.go validateFailover at 1.1 (3b8a3845): interPod failover with numShadows < 1 is refused."""
    # mutant 432468495579
    spec = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
            "gpuMemoryService": {"enabled": True, "mode": "interPod"},
            "failover": {"enabled": True, "mode": "interPod", "numShadows": 0}}
    hits = [d for d in _dcd_diags(spec, "1.1") if "numShadows" in d.message]
    assert [(d.message, d.path) for d in hits] == [
        ("spec.failover.numShadows must be >= 1", ("spec", "failover", "numShadows"))]


def test_gms_with_a_checkpoint_is_refused_at_1_2() -> None:
    """1.2 (788d3ccd) shared.go validateSnapshotWithGPUMemoryService -> checkpoint.ValidateGMSSnapshotGate: checkpoint
    enabled with an enabled GMS is refused at ``<fieldPath>.checkpoint`` ("GMS + Snapshot is temporarily disabled;
    …"); not before 1.2, and not with GMS off."""
    # mutant ffab0ed2dd84
    spec = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
            "gpuMemoryService": {"enabled": True}, "checkpoint": {"enabled": True}}
    message = ("spec.checkpoint: GMS + Snapshot is temporarily disabled; disable gpuMemoryService or enable the "
               "internal GMS + Snapshot gate")
    hits = [(d.rule, d.path, d.message) for d in _dcd_diags(spec, "1.2") if "GMS + Snapshot" in d.message]
    assert hits == [("dcd.checkpoint-compatibility", ("spec", "checkpoint"), message)]
    assert not [d for d in _dcd_diags(spec, "1.1") if "GMS + Snapshot" in d.message]
    off = {**spec, "gpuMemoryService": {"enabled": False}}
    assert not [d for d in _dcd_diags(off, "1.2") if "GMS + Snapshot" in d.message]


def _model(base_model: str, model_name: str = "llama-3-8b") -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoModel", "metadata": {"name": "m", "namespace": "default"},
            "spec": {"modelName": model_name, "baseModelName": base_model, "modelType": "base"}}


def test_dynamo_model_base_model_name_is_immutable_at_1_2() -> None:
    """dynamomodel.go ValidateUpdate (1.2, 788d3ccd): ``v.model.Spec.BaseModelName != old.Spec.BaseModelName``
    warns and refuses; dynamomodel_test.go rows "changing baseModelName" and "changing modelName is allowed"."""
    # mutant 6a899796000c
    settings = AdmissionSettings(cluster_topologies=None)
    diags = validate("DynamoModel", _model("llama-3-70b"), settings, "1.2", _model("llama-3-8b"))
    assert [(d.severity, d.message) for d in diags] == [
        ("warning", "Changing spec.baseModelName will break endpoint discovery"),
        ("error", "spec.baseModelName is immutable and cannot be changed after creation")]
    renamed = _model("llama-3-8b", model_name="llama-3-8b-renamed")
    assert validate("DynamoModel", renamed, settings, "1.2", _model("llama-3-8b")) == []


def test_checkpoint_gms_clients_allowed_with_intra_pod_gms_at_1_2() -> None:
    """shared.go validateCheckpointConfig (1.2, 788d3ccd): gmsClientContainers is refused only for
    ``GPUMemoryService.Mode == GMSModeInterPod``; with intraPod the names are checked next. shared_test.go row
    "checkpoint job GMS client names must be Kubernetes container names" (errContains
    "checkpoint.job.gmsClientContainers[0]")."""
    # mutant 1e862590102f
    def spec(mode: str, names: list[str]) -> dict[str, Any]:
        return {"componentType": "worker", "gpuMemoryService": {"enabled": True, "mode": mode},
                "checkpoint": {"enabled": True, "identity": {"model": "model", "backendFramework": "vllm"},
                               "job": {"gmsClientContainers": names}}}

    [d] = _dcd_diags(spec("intraPod", ["Bad_Name"]), "1.2")
    assert d.message.startswith('spec.checkpoint.job.gmsClientContainers[0] "Bad_Name" is not a valid Kubernetes '
                                "container name: ")
    assert d.path == ("spec", "checkpoint", "job", "gmsClientContainers", 0)
    [d] = _dcd_diags(spec("interPod", ["gms-saver"]), "1.2")
    assert d.message == "spec.checkpoint.job.gmsClientContainers is only supported with gpuMemoryService.mode=IntraPod"


def test_grove_pathway_follows_the_operator_setting_from_1_1_only() -> None:
    """dynamographdeployment.go isGrovePathway: at 1.0 (6d4d0a61) only the enable-grove annotation counts, so the
    name-length rule runs whatever global.grove.enabled; from 1.1 (3b8a3845) ``!v.groveEnabled`` returns false
    first. dynamographdeployment_test.go (1.1) row "GMS failover requires Grove pathway - operator grove
    disabled"."""
    # mutant dad20d789846
    gms = {"componentType": "worker", "resources": {"limits": {"gpu": "8"}},
           "gpuMemoryService": {"enabled": True, "mode": "interPod"},
           "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}
    dgd = _dgd({"worker": gms}, name="test-gms", backendFramework="vllm")
    assert _errors(dgd, "1.1", grove=False) == (
        'spec.services[worker]: gpuMemoryService.mode="interPod" requires the Grove pathway, but Grove is disabled '
        "at the operator level (global.grove.enabled=false)")
    assert _errors(dgd, "1.1", grove=True) == ""
    long_multinode = _dgd({"VllmDecodeWorker": {"multinode": {"nodeCount": 2}}}, name="dsv4-pro-agg")
    assert "combined resource name length 48 exceeds 45-character limit" in _errors(long_multinode, "1.0", grove=False)
    assert _errors(long_multinode, "1.1", grove=False) == ""


def test_inter_pod_gms_name_length_counts_the_last_worker_rank() -> None:  # mutant b20ec73b1adc
    """dynamographdeployment.go validateServiceNameLength (1.1, 3b8a3845): for an inter-pod GMS service the
    longest PodClique is "<svc>-gms-0" unless "<svc>-wkr-<nodeCount-1>" is longer; with 11 nodes "w-wkr-10" (8)
    beats "w-gms-0" (7), so a 37-character DGD name makes 37 + 1 + 8 = 46 > 45."""
    gms = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}}, "multinode": {"nodeCount": 11},
           "gpuMemoryService": {"enabled": True, "mode": "interPod"}}
    name = "g" * 37
    assert _errors(_dgd({"w": gms}, name=name, backendFramework="vllm"), "1.1") == (
        f"spec.services[w]: combined resource name length 46 exceeds 45-character limit required for pod naming. "
        f"Consider shortening the DynamoGraphDeployment name '{name}' (length 37) or service name 'w' (length 1). "
        "The combined length of DGD name + PCSG name + longest PodClique name ('w-wkr-10') must not exceed 45 "
        "characters")
    assert _errors(_dgd({"w": gms}, name=name[:-1], backendFramework="vllm"), "1.1") == ""


def test_inter_pod_gms_name_length_keeps_gms_on_a_tie() -> None:  # mutant 6e6bb334e8e0
    """dynamographdeployment.go validateServiceNameLength (1.1, 3b8a3845): "<svc>-wkr-<N>" replaces
    "<svc>-gms-0" only when ``len(workerName) > len(longestPCLQName)``; with 2 nodes "-wkr-1" ties "-gms-0",
    so "-gms-0" is named. The service name has no length limit (a map key), and at 251 characters the two
    lengths (257) are past CPython's small-int cache, so identity of the lengths would not stand in for ``>``."""
    gms = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}}, "multinode": {"nodeCount": 2},
           "gpuMemoryService": {"enabled": True, "mode": "interPod"}}
    svc = "w" * 251
    assert _errors(_dgd({svc: gms}, name="g", backendFramework="vllm"), "1.1") == (
        f"spec.services[{svc}]: combined resource name length 509 exceeds 45-character limit required for pod "
        f"naming. Consider shortening the DynamoGraphDeployment name 'g' (length 1) or service name '{svc}' "
        f"(length 251). The combined length of DGD name + PCSG name + longest PodClique name ('{svc}-gms-0') "
        "must not exceed 45 characters")


def _dcd(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
            "metadata": {"name": "c", "namespace": "default"}, "spec": spec}


def test_dcd_update_with_a_create_error_skips_the_update_checks() -> None:  # mutant 3cb9331d0d17
    """dynamocomponentdeployment_handler.go ValidateUpdate (1.1, 3b8a3845): ``validator.Validate`` first and
    ``return warnings, err`` on an error, so the backendFramework immutability check does not run; with only
    warnings from Validate it goes on to ``validator.ValidateUpdate``."""
    old = _dcd({"backendFramework": "sglang"})
    assert _errors(_dcd({"backendFramework": "vllm", "replicas": -1}), "1.1", old=old) == \
        "spec.replicas must be non-negative"
    assert _errors(_dcd({"backendFramework": "vllm", "dynamoNamespace": "x"}), "1.1", old=old) == \
        "spec.backendFramework is immutable and cannot be changed after creation"


def test_epp_with_two_replicas_is_refused() -> None:  # mutant bf72eaba4ca2
    """shared.go validateEPPConfig (0.9, 5602dd2f): ``*v.spec.Replicas != 1`` gives
    "%s: EPP component must have exactly 1 replica (found %d replicas)"."""
    diags = validate("DynamoComponentDeployment", _dcd({"componentType": "epp", "replicas": 2}),
                     AdmissionSettings(cluster_topologies=None), "0.9", None)
    assert [(d.path, d.message) for d in diags if d.severity == "error"] == [
        (("spec", "replicas"), "spec: EPP component must have exactly 1 replica (found 2 replicas)")]


def test_v1alpha1_dgdr_config_overwritten_warnings() -> None:  # mutant 5b1ef6d4e138
    """0.9 (5602dd2f) internal/webhook/validation/dynamographdeploymentrequest.go, Validate: a config
    engine.backend / deployment.model that differs from spec.backend / spec.model is a warning (case
    "warning when engine.backend in config differs from spec.backend" of dynamographdeploymentrequest_test.go)."""
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentRequest", "metadata": {"name": "r"},
             "spec": {"backend": "vllm", "model": "llama-3-8b", "profilingConfig": {
                 "profilerImage": "p:1", "config": {"engine": {"backend": "sglang"},
                                                    "deployment": {"model": "different-model"}}}}}
    diags = validate(alpha["kind"], alpha, AdmissionSettings(cluster_topologies=None), "0.9", None)
    assert [(d.severity, d.field, d.message) for d in diags] == [
        ("warning", "spec.profilingConfig.config.engine.backend",
         "spec.profilingConfig.config.engine.backend (sglang) will be overwritten by spec.backend (vllm)"),
        ("warning", "spec.profilingConfig.config.deployment.model",
         "spec.profilingConfig.config.deployment.model (different-model) will be overwritten by spec.model "
         "(llama-3-8b)")]


def _all(obj: dict[str, Any], release: str, old: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    diags = validate(obj["kind"], obj, AdmissionSettings(grove_enabled=True, cluster_topologies=None), release, old)
    return [(d.severity, d.message) for d in diags]


IMMUTABLE = ("error", "spec.backendFramework is immutable and cannot be changed after creation")
CHANGING = ("warning", "Changing spec.backendFramework may cause unexpected behavior")


@pytest.mark.parametrize("release", ["0.8", "1.2"])
def test_an_update_error_comes_back_with_the_update_warnings_only(release: str) -> None:
    """dynamocomponentdeployment_handler.go / dynamographdeployment_handler.go ValidateUpdate (546f1bbc0 = 0.8,
    788d3ccdc = 1.2): ``warnings, err := validator.Validate()``, then ``updateWarnings, err :=
    validator.ValidateUpdate(old)``, and on its error ``return updateWarnings, err``: Validate's warnings
    (the deprecated dynamoNamespace) are dropped; without an update error both lists are returned."""
    dns = "spec.dynamoNamespace is deprecated and ignored"
    old = _dcd({"backendFramework": "sglang"})
    changed = _all(_dcd({"backendFramework": "vllm", "dynamoNamespace": "x"}), release, old=old)
    assert changed == [CHANGING, IMMUTABLE]
    same = _all(_dcd({"backendFramework": "sglang", "dynamoNamespace": "x"}), release, old=old)
    assert [s for s, _ in same] == ["warning"] and same[0][1].startswith(dns)
    old_dgd = _dgd({"main": {}}, backendFramework="sglang")
    new_dgd = _dgd({"main": {"dynamoNamespace": "x"}}, backendFramework="vllm")
    assert _all(new_dgd, release, old=old_dgd) == [CHANGING, IMMUTABLE]
    assert _all(new_dgd, release)[0][0] == "warning"  # on create the deprecation warning is there


def test_dgdr_updates_of_1_0_to_1_2_run_the_phase_rule_only() -> None:
    """dynamographdeploymentrequest_handler.go of 1.0 – 1.2 (6d4d0a61d, 788d3ccdc): ValidateUpdate returns
    ``validator.ValidateUpdate(oldRequest)`` without calling ``Validate``, so an update is refused only for a
    spec change in the Profiling, Deploying or Deployed phase; 0.9 (5602dd2f6) still ran ``Validate``."""
    beta = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest", "metadata": {"name": "r"},
            "spec": {"model": "m", "backend": "auto", "searchStrategy": "thorough"}}
    assert _errors(beta, "1.1") != ""  # Validate refuses it on create
    pending = {**beta, "spec": {"model": "m"}, "status": {"phase": "Pending"}}
    assert _all(beta, "1.1", old=pending) == []
    deployed = {**pending, "status": {"phase": "Deployed"}}
    assert _all(beta, "1.2", old=deployed) == [("error", (
        'spec updates are forbidden while the resource is in phase "Deployed"; delete and recreate the resource '
        "to change its spec"))]
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentRequest",
             "metadata": {"name": "r"}, "spec": {"backend": "vllm", "model": "m", "profilingConfig": {}}}
    assert len(_all(alpha, "0.9", old=alpha)) == 2  # 0.9: Validate on update too


def test_a_dgdr_being_deleted_is_not_validated_on_update() -> None:
    """dynamographdeploymentrequest_handler.go (0.8 – 1.2): ``if !newRequest.DeletionTimestamp.IsZero()
    { return nil, nil }`` before any validation (finalizer removal must go through)."""
    alpha = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeploymentRequest",
             "metadata": {"name": "r", "deletionTimestamp": "2026-01-01T00:00:00Z"},
             "spec": {"backend": "vllm", "model": "m", "profilingConfig": {}}}
    assert _all(alpha, "0.8", old=alpha) == []
    assert len(_all(alpha, "0.8")) == 2  # on create (no old object) the handler does not look


def test_epp_without_its_config_is_refused() -> None:  # mutant e29f3666a932
    """shared.go validateEPPConfig (0.9, 5602dd2f): ``if v.spec.EPPConfig == nil`` gives
    "%s.eppConfig is required for EPP components", at the service's eppConfig."""
    diags = validate("DynamoComponentDeployment", _dcd({"componentType": "epp", "replicas": 1}),
                     AdmissionSettings(cluster_topologies=None), "0.9", None)
    assert [(d.path, d.message) for d in diags if d.severity == "error"] == [
        (("spec", "eppConfig"), "spec.eppConfig is required for EPP components")]


def test_inter_pod_failover_on_a_frontend_joins_both_errors_at_1_1() -> None:  # mutant 4439c24a40b0
    """shared.go validateFailover (1.1, 3b8a3845): with mode interPod the GMS requirement and the component
    type are checked side by side (``errors.Join``): a frontend without GMS gets both errors, the second at the
    service's componentType."""
    spec = {"componentType": "frontend", "backendFramework": "vllm", "resources": {"limits": {"gpu": "1"}},
            "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}
    diags = validate("DynamoComponentDeployment", _dcd(spec), AdmissionSettings(cluster_topologies=None), "1.1", None)
    assert [(d.rule, d.path, d.message) for d in diags if d.severity == "error"][1:] == [
        ("dcd.failover-component-type", ("spec", "componentType"),
         'spec: GMS failover is not supported for componentType "frontend"')]


def test_matching_failover_and_gms_modes_are_admitted_at_1_0() -> None:
    """shared.go validateFailover at 1.0 (6d4d0a61): ``failover.mode`` and ``gpuMemoryService.mode`` are
    compared by value (Go ``!=`` on strings); equal modes read from YAML (distinct ``str`` objects) pass the
    mode-match check. # mutant e0c232e1042e"""
    import yaml

    spec = yaml.safe_load("componentType: worker\nresources: {limits: {gpu: '1'}}\n"
                          "gpuMemoryService: {enabled: true, mode: intraPod}\n"
                          "failover: {enabled: true, mode: intraPod, numShadows: 1}\n")
    assert spec["failover"]["mode"] == spec["gpuMemoryService"]["mode"]
    assert spec["failover"]["mode"] is not spec["gpuMemoryService"]["mode"]  # the YAML loader's own strings
    assert [d.message for d in _dcd_diags(spec, "1.0") if "must match" in d.message] == []


def test_topology_domains_are_checked_against_the_cluster_topology_at_1_1() -> None:  # mutant 281edfdc7d06
    """dynamographdeployment.go validateTopologyDomainsAgainstGroveClusterTopology (1.1, 3b8a3845), on
    create with the Grove pathway: every set packDomain (spec level first, then the services sorted by
    name) must be a level of the ClusterTopology (``%s: domain %q does not exist in ClusterTopology %q;
    available domains: %v``, domains sorted), and a service domain broader (lower level index) than the
    spec-level one is refused (``spec.services[%s]: topologyConstraint.packDomain %q is broader than
    spec-level %q; …``)."""
    dgd = _dgd({"a": {"topologyConstraint": {"packDomain": "host"}}, "b": {"topologyConstraint": {"packDomain": "zone"}},
                "c": {"topologyConstraint": {"packDomain": "rack"}}},
               topologyConstraint={"topologyProfile": "grove-topology", "packDomain": "rack"})
    settings = AdmissionSettings(grove_enabled=True, cluster_topologies={"grove-topology": ("zone", "rack")})
    diags = validate(dgd["kind"], dgd, settings, "1.1", None)
    assert [(d.path, d.message) for d in diags if d.severity == "error"] == [
        (("spec", "services", "a", "topologyConstraint", "packDomain"),
         'spec.services[a].topologyConstraint.packDomain: domain "host" does not exist in ClusterTopology '
         '"grove-topology"; available domains: [rack zone]'),
        (("spec", "services", "b", "topologyConstraint", "packDomain"),
         'spec.services[b]: topologyConstraint.packDomain "zone" is broader than spec-level "rack"; service '
         "constraints must be equal to or narrower than the deployment-level constraint")]


def test_failover_mode_must_match_the_gms_mode_at_1_0() -> None:  # mutant ef2a0c9be93d
    """shared.go validateFailover at 1.0 (6d4d0a61): with GMS enabled and both modes set,
    ``failover.mode %q must match gpuMemoryService.mode %q`` (checked before the interPod refusal)."""
    spec = {"componentType": "worker", "resources": {"limits": {"gpu": "1"}},
            "gpuMemoryService": {"enabled": True, "mode": "intraPod"},
            "failover": {"enabled": True, "mode": "interPod", "numShadows": 1}}
    assert [(d.message, d.path) for d in _dcd_diags(spec, "1.0")] == [
        ('spec.failover: failover.mode "interPod" must match gpuMemoryService.mode "intraPod"',
         ("spec", "failover", "mode"))]


def test_epp_config_map_ref_needs_a_name() -> None:  # mutant d34a76b7d3a6
    """shared.go validateEPPConfig (0.9, 5602dd2f): ``if v.spec.EPPConfig.ConfigMapRef.Name == ""`` gives
    "%s.eppConfig.configMapRef.name is required"."""
    spec = {"componentType": "epp", "replicas": 1, "eppConfig": {"configMapRef": {"name": ""}}}
    diags = validate("DynamoComponentDeployment", _dcd(spec), AdmissionSettings(cluster_topologies=None), "0.9", None)
    assert [(d.path, d.message) for d in diags if d.severity == "error"] == [
        (("spec", "eppConfig", "configMapRef", "name"), "spec.eppConfig.configMapRef.name is required")]


def test_replicas_of_a_scaling_adapter_service_are_frozen_for_users() -> None:  # mutant fe64a6fb4b44
    """dynamographdeployment.go validateReplicasChanges (1.1, 3b8a3845): without an authorized identity
    (operator or planner service account) a replicas change of a service with ``scalingAdapter.enabled``
    is refused (``spec.services[%s].replicas cannot be modified directly when scaling adapter is enabled;
    …``); a nil old replicas counts as 1."""
    sa = {"scalingAdapter": {"enabled": True}}
    got = _errors(_dgd({"main": {**sa, "replicas": 2}}), "1.1", old=_dgd({"main": sa}))
    assert got == ("spec.services[main].replicas cannot be modified directly when scaling adapter is enabled; "
                   "scale or update the related DynamoGraphDeploymentScalingAdapter instead")
    assert _errors(_dgd({"main": {**sa, "replicas": 1}}), "1.1", old=_dgd({"main": sa})) == ""
