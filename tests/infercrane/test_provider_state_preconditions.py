"""Provider-state preconditions fail closed before anything is applied, with upstream's message.

Each case starts from an upstream reference case whose compile succeeds with its ``provider_state``
(the PVC, disk, AMI, snapshot, network volume or template the fake provider reports) and removes that
resource from the state. Upstream checks the resource before any mutating call; the expected text is what
its adapter returns then (infercrane/infercrane ``internal/provision``):

* ``gcp_compute.go@64491a4`` ``verifyArtifactDisk``: ``gcloud compute disks describe`` of a missing disk is
  ``errGCPResourceNotFound`` ("GCP resource not found"), wrapped ``verify GCP artifact disk: %w`` and by
  ``EnsureReplica`` with ``ErrInvalidReplicaSpec``; ``Check`` verifies every mapped disk (unwrapped);
* ``aws_ec2.go@64491a4`` ``resolveImage`` / ``verifyArtifactSnapshot``: the AWS CLI fails for an unknown AMI
  (``InvalidAMIID.NotFound``, classified by ``normalizeAWSAPIError`` as a rejected launch configuration) or
  snapshot (unclassified: "AWS API request failed"); an answer for another ID is "invalid output";
* ``runpod_pods.go@11890ae`` ``verifyNetworkVolume``: ``configured RunPod network volume %s was not found``;
* ``runpod_serverless.go@c2c2bb7`` ``validateTemplate`` / ``Check``: RunPod answers 404
  (``providerHTTPError``: "RunPod API returned HTTP 404: " and the body, here empty);
* Kubernetes: upstream's test ``kubernetes_test.go@64491a4``
  ``TestKubernetesArtifactPVCFailsClosedBeforeWorkloadMutation`` requires an error and no apply; the
  adapter source of that revision is not available, so the text follows ``Kubernetes.run`` (every kubectl
  failure is "kubectl request failed") and the GCP/AWS ``verify ...: %w`` pattern - an inference.

Without any provider state (``None``) nothing can be observed and the mapped resource is trusted.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._infercrane import AdapterError, ProviderSettings, Replica, compile_replica, preflight

from .conftest import REFERENCE

INVALID = "invalid provider replica specification: "

CASES = [
    # (reference case, state key to drop, exact error)
    ("k8s-06-artifact-pvc-mounted.yaml", "persistentvolumeclaim",
     INVALID + "verify Kubernetes artifact PVC: kubectl request failed"),
    ("gcp-03-artifact-disk-read-only.yaml", "disk", INVALID + "verify GCP artifact disk: GCP resource not found"),
    ("aws-03-artifact-volume-launch.yaml", "ec2_describe_snapshots",
     "verify AWS artifact snapshot: AWS API request failed"),
    ("aws-03-artifact-volume-launch.yaml", "ec2_describe_images",
     "inspect AWS AMI root device: invalid provider replica specification: AWS rejected the EC2 launch configuration"),
    ("runpod-05-pods-persistent-model-volume.yaml", "network_volume",
     INVALID + "configured RunPod network volume volume_1234 was not found"),
    ("runpod-01-serverless-create-request.yaml", "template",
     "validate RunPod Serverless template: RunPod API returned HTTP 404: "),
]


def _load(name: str) -> dict[str, Any]:
    path = Path(REFERENCE) / "cases" / name
    if not path.is_file():
        pytest.skip("shared InferCrane reference data is not available")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _compile(case: dict[str, Any], state: Any) -> list[Any]:
    spec = yaml.safe_load(case["spec"]) if case.get("spec") else {}
    replica = Replica.from_spec(spec, case.get("replica") or {})
    settings = ProviderSettings.for_adapter(case["adapter"], case.get("provider_config") or {})
    return compile_replica(replica, settings, case["adapter"], state)


@pytest.mark.parametrize("name,key,message", CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_missing_resource_fails_closed(name: str, key: str, message: str) -> None:
    case = _load(name)
    assert _compile(case, case["provider_state"])  # the reference state compiles
    state = copy.deepcopy(case["provider_state"])
    del state[key]
    with pytest.raises(AdapterError) as exc:
        _compile(case, state)
    assert str(exc.value) == message
    # a null answer is the same as no answer
    state[key] = None
    with pytest.raises(AdapterError) as exc:
        _compile(case, state)
    assert str(exc.value) == message


@pytest.mark.parametrize("name,key,message", CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_without_provider_state_the_mapping_is_trusted(name: str, key: str, message: str) -> None:
    assert _compile(_load(name), None)


def test_answers_for_another_id_are_invalid_output() -> None:
    case = _load("aws-03-artifact-volume-launch.yaml")
    state = copy.deepcopy(case["provider_state"])
    state["ec2_describe_images"]["ImageId"] = "ami-other"
    with pytest.raises(AdapterError) as exc:
        _compile(case, state)
    assert str(exc.value) == "AWS AMI inspection returned invalid output"
    state = copy.deepcopy(case["provider_state"])
    state["ec2_describe_snapshots"]["SnapshotId"] = "snap-ffffffffffffffff0"
    with pytest.raises(AdapterError) as exc:
        _compile(case, state)
    assert str(exc.value) == "AWS artifact snapshot verification returned invalid output"


def test_a_listed_resource_is_found_among_others() -> None:
    case = _load("k8s-06-artifact-pvc-mounted.yaml")
    state = copy.deepcopy(case["provider_state"])
    other = dict(state["persistentvolumeclaim"], name="other-claim")
    state["persistentvolumeclaim"] = [other, state["persistentvolumeclaim"]]
    assert _compile(case, state)
    state["persistentvolumeclaim"] = [other]
    with pytest.raises(AdapterError):
        _compile(case, state)


def test_preflight_checks_fail_closed() -> None:
    gcp = _load("gcp-03-artifact-disk-read-only.yaml")
    settings = ProviderSettings.for_adapter("gcp-compute", gcp["provider_config"])
    preflight("gcp-compute", settings, gcp["provider_state"])
    with pytest.raises(AdapterError) as exc:
        preflight("gcp-compute", settings, {})
    assert str(exc.value) == "verify GCP artifact disk: GCP resource not found"

    serverless = _load("runpod-01-serverless-create-request.yaml")
    settings = ProviderSettings.for_adapter("runpod-serverless", serverless["provider_config"])
    with pytest.raises(AdapterError) as exc:
        preflight("runpod-serverless", settings, {})
    assert str(exc.value) == "RunPod API returned HTTP 404: "

    aws = _load("aws-03-artifact-volume-launch.yaml")
    settings = ProviderSettings.for_adapter("aws-ec2", aws["provider_config"])
    with pytest.raises(AdapterError) as exc:
        preflight("aws-ec2", settings, {})
    assert str(exc.value).startswith("inspect AWS AMI root device: ")

    kserve = _load("k8s-03-kserve-one-owner.yaml")
    settings = ProviderSettings.for_adapter("kubernetes", kserve["provider_config"])
    preflight("kubernetes", settings, kserve["provider_state"])
    with pytest.raises(AdapterError) as exc:
        preflight("kubernetes", settings, {"kserve_crd_installed": False})
    # TestKubernetesKServeModeRequiresCRDAndUsesOneOwner: the error names the KServe API discovery
    assert "discover KServe API" in str(exc.value)


def _block_devices(artifacts: list[Any]) -> list[dict[str, Any]]:
    import json

    args = artifacts[0].content["requests"][0]["args"]
    return json.loads(args[args.index("--block-device-mappings") + 1])


def test_artifact_volume_takes_the_first_device_the_ami_leaves_free() -> None:
    """``aws_ec2.go`` ``artifactDeviceName``: the first of /dev/sdf../dev/sdp that the AMI's block device
    mappings do not occupy and that is not its root device; none left is an error."""
    case = _load("aws-03-artifact-volume-launch.yaml")
    state = copy.deepcopy(case["provider_state"])
    image = state["ec2_describe_images"]
    image["BlockDeviceMappings"].append({"DeviceName": "/dev/sdf", "VirtualName": "ephemeral0"})
    assert [d["DeviceName"] for d in _block_devices(_compile(case, state))] == ["/dev/xvda", "/dev/sdg"]
    image["RootDeviceName"] = "/dev/sdg"
    image["BlockDeviceMappings"].append({"DeviceName": "/dev/sdg", "Ebs": {"VolumeSize": 30}})
    assert [d["DeviceName"] for d in _block_devices(_compile(case, state))] == ["/dev/sdg", "/dev/sdh"]
    image["BlockDeviceMappings"] += [{"DeviceName": f"/dev/sd{c}"} for c in "hijklmnop"]
    with pytest.raises(AdapterError) as exc:
        _compile(case, state)
    assert str(exc.value) == "AWS AMI leaves no supported device name for the artifact-cache volume"
