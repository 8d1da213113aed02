"""``gcp-compute`` adapter: ``gcloud compute instances create`` argv with the startup script.

Upstream: ``internal/provision/gcp_compute.go@64491a4`` (``Check``, ``validate``,
``validateArtifactConfig``, ``startup``, ``name``, ``requestID``, ``intentDigest``). A verified artifact
disk comes from ``provider_state["disk"]`` (``gcloud compute disks describe``: one disk or a list); a
provider state without the mapped disk fails closed (``Check`` verifies every mapped disk); without any
provider state a mapped disk is trusted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .. import _contracts as c
from .._common import (
    INVALID_REPLICA,
    AdapterError,
    RenderedArtifact,
    Replica,
    adapter_error,
    artifact_cache_policy,
    artifact_runtime_supported,
    expand,
    mapped_artifact,
    render_template,
    replica_artifact,
)
from .._settings import valid_dns_label_strict

name = "gcp-compute"
cloud = "gcp"


def validate_artifact_config(s: Mapping[str, Any]) -> None:
    policy = s.get("ArtifactCachePolicy") or "prefer"
    disks = s.get("ArtifactDisks") or {}
    if policy not in ("disabled", "prefer", "required"):
        raise adapter_error(name, "GCP artifact cache policy must be disabled, prefer, or required", wrap=None)
    if policy == "required" and not disks:
        raise adapter_error(name, "required GCP artifact caching needs an immutable model-to-disk mapping", wrap=None)
    if policy == "disabled" and disks:
        raise adapter_error(name, "disabled GCP artifact caching cannot configure persistent disks", wrap=None)
    for identity, disk in disks.items():
        if not c.valid_immutable_model_identity(identity) or not valid_dns_label_strict(str(disk)):
            raise adapter_error(name, "GCP artifact disk mappings require immutable model identities and valid zonal "
                                      "disk names", wrap=None)


_REQUIRED = ("Project", "Zone", "Subnet", "MachineType", "GPUType", "ServiceAccount", "VMImage", "ContainerImage",
             "WorkerSecret")
_REQUIRED_MESSAGE = ("GCP project, zone, subnet, machine type, GPU, service account, VM image, container digest, and "
                     "worker secret are required")


def _region_from_zone(zone: str) -> str | None:
    last = zone.rfind("-")
    if last < 1 or last != len(zone) - 2 or not ("a" <= zone[last + 1] <= "z"):
        return None
    return zone[:last]


def _image_identity(value: str) -> bool:
    parts = value.split("/")
    return (len(parts) == 5 and parts[0] == "projects" and parts[1] != "" and parts[2] == "global"
            and parts[3] == "images" and parts[4] not in ("", "family"))


def check(s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> None:
    """``GCPCompute.Check`` up to its first network call."""
    if not all(s.get(k) for k in _REQUIRED):
        raise adapter_error(name, _REQUIRED_MESSAGE, wrap=None)
    if "@sha256:" not in str(s.get("ContainerImage")):
        raise adapter_error(name, "GCP container image must be pinned by sha256 digest", wrap=None)
    if not (50 <= int(s.get("BootDiskGiB") or 0) <= 65536):
        raise adapter_error(name, "GCP boot disk must be between 50 and 65536 GiB", wrap=None)
    validate_artifact_config(s)
    if _region_from_zone(str(s.get("Zone"))) is None:
        raise adapter_error(name, "GCP zone must end in a single-letter zone suffix", wrap=None)
    if not _image_identity(str(s.get("VMImage"))):
        raise adapter_error(name, "GCP VM image must use projects/PROJECT/global/images/IMAGE immutable identity", wrap=None)
    if state is not None:
        # after the read-only dependency probes: every mapped artifact disk, in identity order
        disks = s.get("ArtifactDisks") or {}
        for identity in sorted(disks):
            verify_artifact_disk(identity, str(disks[identity]), s, state, None)


def validate(r: Replica, s: Mapping[str, Any]) -> None:
    zone = str(s.get("Zone") or "")
    if not r.external_key or not r.model or r.cloud != "gcp" or not r.region or not zone.startswith(r.region + "-"):
        raise adapter_error(name, "GCP replica requires external key, model, cloud gcp, and configured region/zone",
                            ("provider", "region"))
    if not all(s.get(k) for k in _REQUIRED if k != "Zone"):
        raise adapter_error(name, _REQUIRED_MESSAGE)
    if r.gpu != s.get("GPUType"):
        raise adapter_error(name, f"configured machine is qualified for GPU {s.get('GPUType')}, not {r.gpu}",
                            ("resources", "gpu"))
    if r.gpu_count < 0 or r.gpu_count > 1024:
        raise adapter_error(name, "GCP GPU count must be between 1 and 1024", ("resources", "gpu_count"))
    if "@sha256:" not in str(s.get("ContainerImage")):
        raise adapter_error(name, "GCP container image must be pinned by sha256 digest")
    if not (50 <= int(s.get("BootDiskGiB") or 0) <= 65536):
        raise adapter_error(name, "GCP boot disk must be between 50 and 65536 GiB")
    try:
        validate_artifact_config(s)
    except AdapterError as exc:  # re-wrap as an invalid replica spec like upstream
        raise adapter_error(name, str(exc)) from None
    if artifact_cache_policy(s) == "required" and not artifact_runtime_supported(r):
        raise adapter_error(name, "GCP artifact cache is qualified only for vLLM and SGLang workloads", ("runtime", "engine"))
    if r.has_workload:
        problem = c.workload_validate(r.workload)
        if problem:
            raise adapter_error(name, problem[0], ("runtime", "workload") + problem[1])


def _port(r: Replica) -> int:
    return (int(r.workload["port"]) if r.has_workload else r.port) or 8000


def startup(r: Replica, s: Mapping[str, Any], port: int | None = None) -> str:
    port = port or _port(r)
    if r.has_workload:
        image = str(r.workload["image"])
        items = list(r.workload["command"]) + list(r.runtime_args)
    else:
        image = str(s.get("ContainerImage") or "")
        items = [r.model, "--port", str(port)] + (["--revision", r.model_revision] if r.model_revision else [])
        items += list(r.runtime_args)
    argv = [a if a == "${WORKER_API_KEY}" else expand(a, r.model, r.model_revision, port) for a in items]
    safe = "$&+,;=:@"
    secret_url = ("https://secretmanager.googleapis.com/v1/projects/" + quote(str(s.get("Project") or ""), safe=safe)
                  + "/secrets/" + quote(str(s.get("WorkerSecret") or ""), safe=safe) + "/versions/latest:access")
    return render_template(
        "gcp-startup.sh.j2",
        secret_url=secret_url,
        gpu_count=r.gpu_count or 1,
        image=image,
        artifact_disk=(s.get("ArtifactDisks") or {}).get(r.identity, ""),
        workload=r.has_workload,
        port=port,
        argv=argv,
    )


def instance_name(key: str) -> str:
    return "infercrane-" + hashlib.sha256(key.encode()).hexdigest()[:20]


def request_id(key: str) -> str:
    return hashlib.sha256(("gcp-compute\x00" + key).encode()).hexdigest()[:32]


def intent_digest(r: Replica, s: Mapping[str, Any]) -> str:
    parts = [str(s.get(k) or "") for k in ("Project", "Zone", "Subnet", "MachineType", "GPUType", "ServiceAccount",
                                           "VMImage")]
    parts += [str(int(s.get("BootDiskGiB") or 0)), startup(r, s, _port(r))]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def verify_artifact_disk(identity: str, disk: str, s: Mapping[str, Any], state: Mapping[str, Any],
                         wrap: str | None) -> None:
    """``verifyArtifactDisk`` against ``provider_state["disk"]`` (the ``gcloud compute disks describe``
    answer: one disk or a list; a disk absent from it is not found)."""
    observed = state.get("disk")
    items = observed if isinstance(observed, list) else [observed] if isinstance(observed, Mapping) else []
    found = next((o for o in items if isinstance(o, Mapping) and o.get("name") == disk), None)
    if found is None:
        raise adapter_error(name, "verify GCP artifact disk: GCP resource not found", wrap=wrap)
    digest = c.model_identity_digest(identity)
    expected = "infercrane-model-identity-digest=" + digest
    if (found.get("status") != "READY" or not found.get("size_gb")
            or not str(found.get("zone", "")).endswith("/zones/" + str(s.get("Zone")))
            or found.get("description") != expected):
        raise adapter_error(name, f"GCP artifact disk {disk} is not ready, zonal, and bound to immutable model "
                                  f"identity digest {digest}", wrap=wrap)


def _artifact_disk(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None) -> str:
    disk = mapped_artifact(name, r, s, artifact_cache_policy(s), "ArtifactDisks",
                           "GCP artifact cache requires a verified persistent disk for immutable model")
    if not disk:
        return ""
    if state is not None:
        verify_artifact_disk(r.identity, str(disk), s, state, INVALID_REPLICA)
    return str(disk)


def render(r: Replica, s: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> list[RenderedArtifact]:
    validate(r, s)
    disk = _artifact_disk(r, s, state)
    port = _port(r)
    script = startup(r, s, port)
    key = r.external_key
    resource = instance_name(key)
    metadata = f"^|||^infercrane-external-key={key}|||infercrane-intent-digest={intent_digest(r, s)}|||startup-script={script}"
    args = ["compute", "instances", "create", resource, "--project", str(s.get("Project")), "--zone", str(s.get("Zone")),
            "--machine-type", str(s.get("MachineType")),
            "--accelerator", f"type={s.get('GPUType')},count={r.gpu_count or 1}",
            "--subnet", str(s.get("Subnet")), "--no-address", "--service-account", str(s.get("ServiceAccount")),
            "--scopes", "cloud-platform", "--image", str(s.get("VMImage")),
            "--boot-disk-size", f"{int(s.get('BootDiskGiB') or 0)}GB", "--boot-disk-type", "pd-balanced",
            "--boot-disk-auto-delete", "--maintenance-policy", "TERMINATE", "--metadata", metadata,
            "--labels", "infercrane-managed=true", "--format", "json", "--quiet"]
    if disk:
        args += ["--disk", f"name={disk},device-name=infercrane-model-cache,mode=ro,auto-delete=no"]
    return [
        RenderedArtifact("instances-create", "object", {"binary": "gcloud", "args": args},
                         description="gcloud compute instances create argv"),
        RenderedArtifact("startup-script.sh", "text", script, "text/x-shellscript", "startup script"),
        replica_artifact(resource, key, request_id=request_id(key), endpoint=f"http://<private-ip>:{port}",
                         extra={"intent_digest": intent_digest(r, s)}),
    ]


#: ``startup(spec, port)`` called directly, as upstream tests do: the replica port is the explicit port.
PARTS = {"startup-script": lambda r, s: startup(r, s, r.port or _port(r))}
