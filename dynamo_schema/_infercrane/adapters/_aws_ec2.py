"""``aws-ec2`` adapter: ``aws ec2 run-instances`` requests (one per configured subnet, tried in order
on capacity errors only) and the user-data script.

Upstream: ``internal/provision/aws_ec2.go@64491a4`` (``validate``, ``resolveImage``,
``resolveArtifactSnapshot``, ``userData``, ``placementClientToken``, ``clientToken``) and
``container_bootstrap.go``. Live AWS answers (AMI root device, snapshot state) come from the optional
``provider_state`` mapping (``ec2_describe_images``, ``ec2_describe_snapshots``: one object or a list); a
provider state that lacks the configured AMI or mapped snapshot fails closed as the describe call would;
without any provider state the AMI root device defaults to ``/dev/xvda`` and a mapped snapshot is trusted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..._k8s._gofmt import go_json
from .. import _contracts as c
from .._common import (
    RenderedArtifact,
    Replica,
    adapter_error,
    artifact_runtime_supported,
    expand,
    mapped_artifact,
    render_template,
    replica_artifact,
)

name = "aws-ec2"
cloud = "aws"

_ARTIFACT_DEVICES = ("/dev/sdf", "/dev/sdg", "/dev/sdh", "/dev/sdi", "/dev/sdj", "/dev/sdk", "/dev/sdl", "/dev/sdm",
                     "/dev/sdn", "/dev/sdo", "/dev/sdp")


def _subnets(s: Mapping[str, Any]) -> list[str]:
    values = list(s.get("SubnetIDs") or [])
    if not values and s.get("SubnetID"):
        values = [s["SubnetID"]]
    out: list[str] = []
    for v in values:
        v = str(v).strip()
        if v and v not in out:
            out.append(v)
    return out


def _root_volume(s: Mapping[str, Any]) -> int:
    return int(s.get("RootVolumeGiB") or 0) or 200


def _artifact_policy(s: Mapping[str, Any]) -> str:
    p = s.get("ArtifactCachePolicy") or ""
    return p if p in ("disabled", "required") else ("prefer" if p in ("", "prefer") else p)


def validate(r: Replica, s: Mapping[str, Any]) -> None:
    region = s.get("Region") or ""
    if not r.external_key or not r.model or r.cloud != "aws" or not r.region or r.region != region:
        raise adapter_error(name, "AWS replica requires external key, model, cloud aws, and configured region",
                            ("provider", "region"))
    if not (s.get("RoleARN") and _subnets(s) and s.get("SecurityGroupIDs") and s.get("AMIID") and s.get("InstanceType")
            and s.get("GPU") and s.get("InstanceProfileARN") and s.get("WorkerSecretARN")):
        raise adapter_error(name, "AWS role, region, subnet, security groups, AMI, instance type, GPU, instance profile, "
                                  "and worker secret ARN are required")
    if r.gpu != s.get("GPU"):
        raise adapter_error(name, f"configured AWS instance type {s.get('InstanceType')} is qualified for GPU "
                                  f"{s.get('GPU')}, not {r.gpu}", ("resources", "gpu"))
    configured = int(s.get("GPUCount") or 0) or 1
    requested = r.gpu_count or 1
    if configured < 1 or configured > 1024:
        raise adapter_error(name, "configured AWS GPU count must be between 1 and 1024")
    if requested != configured:
        raise adapter_error(name, f"configured AWS instance type {s.get('InstanceType')} is qualified for {configured} "
                                  f"GPUs, not {requested}", ("resources", "gpu_count"))
    if not (50 <= _root_volume(s) <= 16384):
        raise adapter_error(name, "AWS root volume must be between 50 and 16384 GiB")
    if _artifact_policy(s) not in ("disabled", "prefer", "required"):
        raise adapter_error(name, "AWS artifact cache policy must be disabled, prefer, or required")
    rate = int(s.get("ArtifactVolumeInitializationRate") or 0)
    if rate != 0 and not (100 <= rate <= 300):
        raise adapter_error(name, "AWS artifact volume initialization rate must be 0 or between 100 and 300 MiB/s")
    if _artifact_policy(s) == "required" and not artifact_runtime_supported(r):
        raise adapter_error(name, "AWS artifact cache is qualified only for vLLM and SGLang workloads", ("runtime", "engine"))
    if r.has_workload:
        problem = c.workload_validate(r.workload)
        if problem:
            raise adapter_error(name, "portable workload: " + problem[0], ("runtime", "workload") + problem[1])
    elif "@sha256:" not in str(s.get("ImageDigest") or ""):
        raise adapter_error(name, "AWS workload image must be pinned by sha256 digest")


def _described(state: Mapping[str, Any], key: str, id_key: str, wanted: str) -> Mapping[str, Any] | None:
    """The object ``aws ec2 describe-*`` answers for ``wanted``: ``provider_state[key]`` is one object or a
    list; an answer for a different ID is returned as is (upstream then reports invalid output)."""
    raw = state.get(key)
    items = raw if isinstance(raw, list) else [raw] if isinstance(raw, Mapping) else []
    items = [i for i in items if isinstance(i, Mapping)]
    return next((i for i in items if i.get(id_key) == wanted), items[0] if len(items) == 1 else None)


def _image(s: Mapping[str, Any], state: Mapping[str, Any] | None) -> dict[str, Any]:
    if state is None:
        return {"root": "/dev/xvda", "occupied": {"/dev/xvda"}}
    raw = _described(state, "ec2_describe_images", "ImageId", str(s.get("AMIID") or ""))
    if raw is None:
        # describe-images of an unknown AMI fails (InvalidAMIID.NotFound), which normalizeAWSAPIError
        # classifies as a rejected launch configuration
        raise adapter_error(name, "inspect AWS AMI root device: invalid provider replica specification: AWS rejected "
                                  "the EC2 launch configuration", wrap=None)
    if raw.get("ImageId") != s.get("AMIID"):
        raise adapter_error(name, "AWS AMI inspection returned invalid output", wrap=None)
    root = str(raw.get("RootDeviceName") or "")
    if not root.startswith("/dev/"):
        raise adapter_error(name, "AWS AMI does not declare a valid root device", wrap=None)
    occupied, size = set(), 0
    for mapping in raw.get("BlockDeviceMappings") or []:
        if mapping.get("DeviceName"):
            occupied.add(mapping["DeviceName"])
        if mapping.get("DeviceName") == root and mapping.get("Ebs"):
            size = int(mapping["Ebs"].get("VolumeSize") or 0)
    if size < 1:
        raise adapter_error(name, "AWS AMI root device is not backed by a valid EBS volume", wrap=None)
    if _root_volume(s) < size:
        raise adapter_error(name, f"AWS root volume {_root_volume(s)} GiB is smaller than AMI root snapshot {size} GiB",
                            wrap=None)
    return {"root": root, "occupied": occupied}


def _artifact_snapshot(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None) -> str:
    identity = r.identity
    snapshot = mapped_artifact(name, r, s, _artifact_policy(s), "ArtifactSnapshots",
                               "AWS artifact cache requires a verified snapshot for immutable model", wrap=None)
    if not snapshot:
        return ""
    if state is not None:
        observed = _described(state, "ec2_describe_snapshots", "SnapshotId", str(snapshot))
        if observed is None:
            # describe-snapshots of an unknown snapshot fails (InvalidSnapshot.NotFound): an unclassified
            # AWS error
            raise adapter_error(name, "verify AWS artifact snapshot: AWS API request failed", wrap=None)
        if observed.get("SnapshotId") != snapshot:
            raise adapter_error(name, "AWS artifact snapshot verification returned invalid output", wrap=None)
        tags = {t.get("Key"): t.get("Value") for t in observed.get("Tags") or []}
        digest = c.model_identity_digest(identity)
        if (observed.get("State") != "completed" or not observed.get("Encrypted")
                or int(observed.get("VolumeSize") or 0) < 1 or tags.get("infercrane:artifact-cache") != "true"
                or tags.get("infercrane:model-identity-digest") != digest):
            raise adapter_error(name, f"AWS artifact snapshot {snapshot} is not completed, encrypted, and tagged for "
                                      f"immutable model identity digest {digest}", wrap=None)
    return str(snapshot)


def user_data(r: Replica, s: Mapping[str, Any], port: int, snapshot: str) -> str:
    if r.has_workload:
        image = str(r.workload["image"])
        items = list(r.workload["command"]) + list(r.runtime_args)
    else:
        image = str(s.get("ImageDigest") or "")
        items = [r.model, "--port", str(port)]
        if r.model_revision:
            items += ["--revision", r.model_revision]
        items += list(r.runtime_args)
    argv = [a if (r.has_workload and a == "${WORKER_API_KEY}") else (expand(a, r.model, r.model_revision, port)
            if r.has_workload else a) for a in items]
    return render_template(
        "aws-user-data.sh.j2",
        region=s.get("Region") or "",
        worker_secret_arn=s.get("WorkerSecretARN") or "",
        gpu_count=r.gpu_count or 1,
        image=image,
        image_policy="required" if s.get("ImageCachePolicy") == "required" else "prefer",
        artifact_snapshot=snapshot,
        workload=r.has_workload,
        port=port,
        argv=argv,
    )


def placement_client_token(s: Mapping[str, Any], key: str, subnet: str) -> str:
    raw = f"{s.get('Region') or ''}\x00{key}\x00{subnet}\x00{s.get('InstanceType') or ''}"
    return "infercrane-" + hashlib.sha256(raw.encode()).digest()[:16].hex()


def client_token(s: Mapping[str, Any], key: str) -> str:
    return hashlib.sha256(f"{s.get('Region') or ''}\x00{s.get('SubnetID') or ''}\x00{key}".encode()).hexdigest()


def check(settings: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    if not settings.get("RoleARN") or not settings.get("Region"):
        raise adapter_error(name, "AWS role ARN and region are required", wrap=None)
    if settings.get("AMIID") and state is not None:
        _image(settings, state)


def render(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    if r.has_workload:
        r.port = int(r.workload["port"])
    validate(r, s)
    image = _image(s, state)
    port = r.port or 8000
    snapshot = _artifact_snapshot(r, s, state)
    script = user_data(r, s, port, snapshot)
    root_gib = _root_volume(s)
    key = r.external_key
    instance_tags = [
        {"Key": "infercrane:managed", "Value": "true"}, {"Key": "infercrane:external-key", "Value": key},
        {"Key": "infercrane:root-device-name", "Value": image["root"]},
        {"Key": "infercrane:root-volume-gib", "Value": str(root_gib)},
        {"Key": "infercrane:root-volume-encrypted", "Value": "true"}, {"Key": "Name", "Value": "infercrane-" + key},
    ]
    volume_tags = [{"Key": "infercrane:managed", "Value": "true"}, {"Key": "infercrane:external-key", "Value": key},
                   {"Key": "Name", "Value": "infercrane-" + key}]
    if snapshot:
        cache_tags = [{"Key": "infercrane:artifact-snapshot-id", "Value": snapshot},
                      {"Key": "infercrane:artifact-identity-digest", "Value": c.model_identity_digest(r.identity)}]
        instance_tags += cache_tags
        volume_tags += cache_tags
    tags = [{"ResourceType": "instance", "Tags": instance_tags}, {"ResourceType": "volume", "Tags": volume_tags}]
    devices: list[dict[str, Any]] = [{"DeviceName": image["root"], "Ebs": {"VolumeSize": root_gib, "VolumeType": "gp3",
                                                                          "Encrypted": True, "DeleteOnTermination": True}}]
    if snapshot:
        device = next((d for d in _ARTIFACT_DEVICES if d not in image["occupied"] and d != image["root"]), "")
        if not device:
            raise adapter_error(name, "AWS AMI leaves no supported device name for the artifact-cache volume", wrap=None)
        ebs: dict[str, Any] = {"SnapshotId": snapshot, "VolumeType": "gp3", "Encrypted": True, "DeleteOnTermination": True}
        rate = int(s.get("ArtifactVolumeInitializationRate") or 0)
        if rate > 0:
            ebs["VolumeInitializationRate"] = rate
        devices.append({"DeviceName": device, "Ebs": ebs})
    # Go marshals these maps with sorted keys.
    tags_json, devices_json = go_json(tags, sort_keys=True), go_json(devices, sort_keys=True)
    requests = []
    for subnet in _subnets(s):
        network = [{"DeviceIndex": 0, "SubnetId": subnet, "Groups": list(s.get("SecurityGroupIDs") or []),
                    "AssociatePublicIpAddress": False}]
        args = ["ec2", "run-instances", "--region", str(s.get("Region")), "--image-id", str(s.get("AMIID")),
                "--instance-type", str(s.get("InstanceType")), "--count", "1",
                "--client-token", placement_client_token(s, key, subnet),
                "--iam-instance-profile", "Arn=" + str(s.get("InstanceProfileARN")),
                "--network-interfaces", go_json(network, sort_keys=True), "--block-device-mappings", devices_json,
                "--tag-specifications", tags_json, "--user-data", script, "--output", "json", "--no-cli-pager"]
        requests.append({"subnet": subnet, "args": args})
    return [
        RenderedArtifact("run-instances", "object", {"binary": "aws", "requests": requests},
                         description="aws ec2 run-instances argv per subnet, in order"),
        RenderedArtifact("user-data.sh", "text", script, "text/x-shellscript", "user data script (--user-data argument)"),
        replica_artifact("", key, request_id=client_token(s, key),
                         endpoint=f"http://<private-ip>:{port}"),
    ]


PARTS = {"user-data": lambda r, s: user_data(r, s, (r.workload["port"] if r.has_workload else r.port) or 8000, "")}
