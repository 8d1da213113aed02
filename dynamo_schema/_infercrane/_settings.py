"""Provider settings the InferCrane adapters (compilers) read, as an explicit validated input.

Upstream reads them from ``INFERCRANE_*`` environment variables in ``internal/config/config.go``
(newest revision known, with ``AWSGPUCount``, artifact caches and SkyPilot manifests) and hands them to
the adapter structs (``internal/provision/*.go``). Here they are one immutable object built from an
environment mapping, from a YAML mapping keyed by the same variable names, or from both (the file wins).

Validation messages and order follow ``config.load``: integer parsing, JSON maps, then
``RunPod container disk``, ``validateRunPod``, ``validateSkyPilot``, ``validateAWS``, ``validateGCP``,
``validateKubernetes``, ``validateDynamo``. Settings that are not read by any compiler (database,
TLS, hosted auth, Stripe, pricing) are out of scope and ignored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._core._diagnostics import Diagnostic, DynamoSchemaError
from .._k8s._gofmt import go_quote
from ._contracts import valid_immutable_model_identity, validate_image

# env var -> (Config field, kind, default). Kinds: str, int, csv, map, providers.
SETTINGS: dict[str, tuple[str, str, Any]] = {
    # RunPod (native Pods, Serverless) and SkyPilot
    "RUNPOD_API_KEY": ("RunPodAPIKey", "str", ""),
    "INFERCRANE_WORKER_API_KEY": ("WorkerAPIKey", "str", ""),
    "INFERCRANE_RUNPOD_SERVERLESS_TEMPLATE_ID": ("RunPodServerlessTemplateID", "str", ""),
    "INFERCRANE_RUNPOD_REST_URL": ("RunPodRESTURL", "str", "https://rest.runpod.io/v1"),
    "INFERCRANE_RUNPOD_CONTAINER_DISK_GIB": ("RunPodContainerDiskGiB", "int", 100),
    "INFERCRANE_RUNPOD_ARTIFACT_CACHE_POLICY": ("RunPodArtifactCachePolicy", "str", "prefer"),
    "INFERCRANE_RUNPOD_NETWORK_VOLUMES_JSON": ("RunPodNetworkVolumes", "map", None),
    "INFERCRANE_RUNPOD_HF_TOKEN_SECRET": ("RunPodHFTokenSecret", "str", ""),
    "INFERCRANE_SKYPILOT_API": ("SkyPilotAPI", "str", "auto"),
    "INFERCRANE_SKYPILOT_PROVIDERS_JSON": ("SkyPilotProviders", "providers", None),
    # AWS EC2
    "INFERCRANE_AWS_ROLE_ARN": ("AWSRoleARN", "str", ""),
    "INFERCRANE_AWS_EXTERNAL_ID": ("AWSExternalID", "str", ""),
    "INFERCRANE_AWS_REGION": ("AWSRegion", "str", ""),
    "INFERCRANE_AWS_SUBNET_ID": ("AWSSubnetID", "str", ""),
    "INFERCRANE_AWS_SUBNET_IDS": ("AWSSubnetIDs", "csv", None),
    "INFERCRANE_AWS_SECURITY_GROUP_IDS": ("AWSSecurityGroupIDs", "csv", None),
    "INFERCRANE_AWS_AMI_ID": ("AWSAMIID", "str", ""),
    "INFERCRANE_AWS_INSTANCE_TYPE": ("AWSInstanceType", "str", ""),
    "INFERCRANE_AWS_GPU": ("AWSGPU", "str", ""),
    "INFERCRANE_AWS_GPU_COUNT": ("AWSGPUCount", "int", 1),
    "INFERCRANE_AWS_INSTANCE_PROFILE_ARN": ("AWSInstanceProfileARN", "str", ""),
    "INFERCRANE_AWS_WORKER_SECRET_ARN": ("AWSWorkerSecretARN", "str", ""),
    "INFERCRANE_AWS_IMAGE_DIGEST": ("AWSImageDigest", "str", ""),
    "INFERCRANE_AWS_IMAGE_CACHE_POLICY": ("AWSImageCachePolicy", "str", "prefer"),
    "INFERCRANE_AWS_ARTIFACT_CACHE_POLICY": ("AWSArtifactCachePolicy", "str", "prefer"),
    "INFERCRANE_AWS_ARTIFACT_SNAPSHOTS_JSON": ("AWSArtifactSnapshots", "map", None),
    "INFERCRANE_AWS_ARTIFACT_VOLUME_INITIALIZATION_RATE_MIBPS": ("AWSArtifactVolumeInitializationRate", "int", 0),
    "INFERCRANE_AWS_ROOT_VOLUME_GIB": ("AWSRootVolumeGiB", "int", 200),
    # GCP Compute
    "INFERCRANE_GCP_PROJECT": ("GCPProject", "str", ""),
    "INFERCRANE_GCP_ZONE": ("GCPZone", "str", ""),
    "INFERCRANE_GCP_SUBNET": ("GCPSubnet", "str", ""),
    "INFERCRANE_GCP_MACHINE_TYPE": ("GCPMachineType", "str", ""),
    "INFERCRANE_GCP_GPU": ("GCPGPU", "str", ""),
    "INFERCRANE_GCP_SERVICE_ACCOUNT": ("GCPServiceAccount", "str", ""),
    "INFERCRANE_GCP_VM_IMAGE": ("GCPVMImage", "str", ""),
    "INFERCRANE_GCP_CONTAINER_IMAGE": ("GCPContainerImage", "str", ""),
    "INFERCRANE_GCP_WORKER_SECRET": ("GCPWorkerSecret", "str", ""),
    "INFERCRANE_GCP_BOOT_DISK_GIB": ("GCPBootDiskGiB", "int", 200),
    "INFERCRANE_GCP_ARTIFACT_CACHE_POLICY": ("GCPArtifactCachePolicy", "str", "prefer"),
    "INFERCRANE_GCP_ARTIFACT_DISKS_JSON": ("GCPArtifactDisks", "map", None),
    # Kubernetes
    "INFERCRANE_KUBERNETES_CONTEXT": ("KubernetesContext", "str", ""),
    "INFERCRANE_KUBERNETES_NAMESPACE": ("KubernetesNamespace", "str", "infercrane-system"),
    "INFERCRANE_KUBERNETES_WORKLOAD_API": ("KubernetesWorkloadAPI", "str", "deployment"),
    "INFERCRANE_KUBERNETES_SERVICE_ACCOUNT": ("KubernetesServiceAccount", "str", "infercrane-runtime"),
    "INFERCRANE_KUBERNETES_WORKER_SECRET_NAME": ("KubernetesWorkerSecretName", "str", "infercrane-worker"),
    "INFERCRANE_KUBERNETES_WORKER_SECRET_KEY": ("KubernetesWorkerSecretKey", "str", "api-key"),
    "INFERCRANE_KUBERNETES_IMAGE_DIGEST": ("KubernetesImageDigest", "str", ""),
    "INFERCRANE_KUBERNETES_GPU_RESOURCE": ("KubernetesGPUResource", "str", "nvidia.com/gpu"),
    "INFERCRANE_KUBERNETES_GPU_PRODUCT_LABEL": ("KubernetesGPUProductLabel", "str", "nvidia.com/gpu.product"),
    "INFERCRANE_KUBERNETES_IMAGE_CACHE_POLICY": ("KubernetesImageCachePolicy", "str", "prefer"),
    "INFERCRANE_KUBERNETES_ARTIFACT_CACHE_POLICY": ("KubernetesArtifactCachePolicy", "str", "prefer"),
    "INFERCRANE_KUBERNETES_ARTIFACT_PVCS_JSON": ("KubernetesArtifactPVCs", "map", None),
    # Dynamo (kubernetes-dynamo)
    "INFERCRANE_DYNAMO_VLLM_IMAGE_DIGEST": ("DynamoVLLMImageDigest", "str", ""),
    "INFERCRANE_DYNAMO_VLLM_RUNTIME_VERSION": ("DynamoVLLMRuntimeVersion", "str", ""),
    "INFERCRANE_DYNAMO_SGLANG_IMAGE_DIGEST": ("DynamoSGLangImageDigest", "str", ""),
    "INFERCRANE_DYNAMO_SGLANG_RUNTIME_VERSION": ("DynamoSGLangRuntimeVersion", "str", ""),
    "INFERCRANE_DYNAMO_MODEL_SECRET_NAME": ("DynamoModelSecretName", "str", ""),
}

_CONFIG_TO_ENV = {cfg: env for env, (cfg, _, _) in SETTINGS.items()}

#: Adapter struct field -> Config field (``cmd/infercrane`` composition).
ADAPTER_FIELDS: dict[str, dict[str, str]] = {
    "skypilot": {"APIKey": "WorkerAPIKey"},
    "aws-ec2": {
        "RoleARN": "AWSRoleARN", "ExternalID": "AWSExternalID", "Region": "AWSRegion", "SubnetID": "AWSSubnetID",
        "SubnetIDs": "AWSSubnetIDs", "SecurityGroupIDs": "AWSSecurityGroupIDs", "AMIID": "AWSAMIID",
        "InstanceType": "AWSInstanceType", "GPU": "AWSGPU", "GPUCount": "AWSGPUCount",
        "InstanceProfileARN": "AWSInstanceProfileARN", "WorkerSecretARN": "AWSWorkerSecretARN",
        "ImageDigest": "AWSImageDigest", "RootVolumeGiB": "AWSRootVolumeGiB",
        "ImageCachePolicy": "AWSImageCachePolicy", "ArtifactCachePolicy": "AWSArtifactCachePolicy",
        "ArtifactSnapshots": "AWSArtifactSnapshots",
        "ArtifactVolumeInitializationRate": "AWSArtifactVolumeInitializationRate",
    },
    "gcp-compute": {
        "Project": "GCPProject", "Zone": "GCPZone", "Subnet": "GCPSubnet", "MachineType": "GCPMachineType",
        "GPUType": "GCPGPU", "ServiceAccount": "GCPServiceAccount", "VMImage": "GCPVMImage",
        "ContainerImage": "GCPContainerImage", "WorkerSecret": "GCPWorkerSecret", "BootDiskGiB": "GCPBootDiskGiB",
        "ArtifactCachePolicy": "GCPArtifactCachePolicy", "ArtifactDisks": "GCPArtifactDisks",
    },
    "kubernetes": {
        "Context": "KubernetesContext", "Namespace": "KubernetesNamespace", "WorkloadAPI": "KubernetesWorkloadAPI",
        "ServiceAccount": "KubernetesServiceAccount", "WorkerSecretName": "KubernetesWorkerSecretName",
        "WorkerSecretKey": "KubernetesWorkerSecretKey", "ImageDigest": "KubernetesImageDigest",
        "GPUResource": "KubernetesGPUResource", "GPUProductLabel": "KubernetesGPUProductLabel",
        "ArtifactCachePolicy": "KubernetesArtifactCachePolicy", "ArtifactPVCs": "KubernetesArtifactPVCs",
    },
    "kubernetes-dynamo": {
        "Context": "KubernetesContext", "Namespace": "KubernetesNamespace",
        "ServiceAccount": "KubernetesServiceAccount", "VLLMImageDigest": "DynamoVLLMImageDigest",
        "VLLMRuntimeVersion": "DynamoVLLMRuntimeVersion", "SGLangImageDigest": "DynamoSGLangImageDigest",
        "SGLangRuntimeVersion": "DynamoSGLangRuntimeVersion", "ModelSecretName": "DynamoModelSecretName",
        "GPUResource": "KubernetesGPUResource", "GPUProductLabel": "KubernetesGPUProductLabel",
    },
    "runpod-pods": {
        "APIKey": "RunPodAPIKey", "WorkerAPIKey": "WorkerAPIKey", "BaseURL": "RunPodRESTURL",
        "ContainerDiskGiB": "RunPodContainerDiskGiB", "ArtifactCachePolicy": "RunPodArtifactCachePolicy",
        "HFTokenSecret": "RunPodHFTokenSecret", "NetworkVolumes": "RunPodNetworkVolumes",
    },
    "runpod-serverless": {"APIKey": "RunPodAPIKey", "BaseURL": "RunPodRESTURL", "TemplateID": "RunPodServerlessTemplateID"},
}


class SettingsError(DynamoSchemaError):
    """Provider settings are invalid; the diagnostic path names the environment variable."""


def _fail(var: str, message: str, rule: str = "infercrane.settings") -> SettingsError:
    return SettingsError(message, [Diagnostic(rule, (var,), message)])


def _split_csv(raw: str) -> list[str]:
    return [v.strip() for v in raw.split(",") if v.strip()]


def _parse_int(key: str, raw: str, default: int) -> int:
    if raw == "":
        return default
    try:
        if raw.strip() != raw or raw.startswith("+") and False:
            raise ValueError
        return int(raw, 10)
    except ValueError:
        raise _fail(key, f"{key} must be an integer: strconv.Atoi: parsing {go_quote(raw)}: invalid syntax") from None


def _parse_json(key: str, raw: str, expect: type) -> Any:
    """``envStringMap`` / ``envSkyPilotProviders``: a strict Go ``json.Decoder`` (unknown fields and
    wrong kinds refused with the decoder's own error text), then exactly one value."""
    from . import _gojson as gj

    raw = raw.strip()
    if not raw:
        return None
    noun = "object" if expect is dict else "array"
    what = "a JSON object of string keys and values" if expect is dict else "a JSON array of SkyPilot provider manifests"
    try:
        value, rest = gj.parse_first(raw)
        decoded: Any = (gj.decode_string_map(value) if expect is dict
                        else gj.decode_struct_slice(value, gj.SKYPILOT_PROVIDER_FIELDS, gj.SKYPILOT_PROVIDER_TYPE))
    except gj.GoJSONError as exc:
        raise _fail(key, f"{key} must be {what}: {exc}") from None
    if rest.strip():
        raise _fail(key, f"{key} must contain exactly one JSON {noun}")
    if expect is list and len(decoded) > 32:
        raise _fail(key, f"{key} supports at most 32 provider manifests")
    return decoded


def _valid_manifest_id(value: str) -> bool:
    alnum = set("abcdefghijklmnopqrstuvwxyz0123456789")
    return (
        0 < len(value) <= 64 and value[0] in alnum and value[-1] in alnum and all(ch in alnum or ch == "-" for ch in value)
    )


def _valid_env_name(value: str) -> bool:
    return 0 < len(value) <= 128 and "A" <= value[0] <= "Z" and all(ch.isupper() or ch.isdigit() or ch == "_" for ch in value)


def _valid_runpod_id(value: str) -> bool:
    """``validRunPodResourceID`` (config.go): 4 to 128 ASCII letters, digits, ``-`` or ``_``. Stricter than
    the RunPod Pods adapter's ``validRunPodIdentifier`` (1 to 128, ``adapters/_runpod_pods._valid_id``)."""
    return 4 <= len(value) <= 128 and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value)


def valid_dns_label_strict(value: str) -> bool:
    """``validKubernetesConfigName`` / ``validGCPResourceName``: starts with a letter."""
    if not value or len(value) > 63 or not ("a" <= value[0] <= "z"):
        return False
    return all(
        ("a" <= ch <= "z") or ch.isdigit() or (ch == "-" and 0 < i < len(value) - 1) for i, ch in enumerate(value)
    )


def _valid_dns_label(value: str) -> bool:
    if not value or len(value) > 63 or value[0] == "-" or value[-1] == "-":
        return False
    return all(("a" <= ch <= "z") or ch.isdigit() or ch == "-" for ch in value)


def valid_dynamo_runtime_version(value: str) -> bool:
    parts = value.split(".")
    if len(parts) != 3:
        return False
    for part in parts:
        if not part or (len(part) > 1 and part[0] == "0") or not part.isdigit() or int(part) > 65535:
            return False
    return True


_Check = tuple[bool, str, str]  # (failed, environment variable, message)


def _raise_first(checks: list[_Check]) -> None:
    for bad, var, message in checks:
        if bad:
            raise _fail(var, message)


def _require_all(cfg: Mapping[str, Any], names: list[str], message: str) -> None:
    """A partial provider configuration: the first unset field's variable carries ``message``."""
    for n in names:
        if not cfg[n]:
            raise _fail(_CONFIG_TO_ENV[n], message)


def _artifact_cache_checks(
    policy: str, mapping: Mapping[str, str], policy_var: str, mapping_var: str, required: str, disabled: str
) -> list[_Check]:
    """The artifact-cache policy rules every provider shares: a known policy, ``required`` needs a
    mapping, ``disabled`` forbids one (``required``/``disabled`` are the provider's messages)."""
    return [
        (policy not in ("disabled", "prefer", "required"), policy_var,
         f"{policy_var} must be disabled, prefer, or required"),
        (policy == "required" and not mapping, policy_var, required),
        (policy == "disabled" and bool(mapping), mapping_var, disabled),
    ]


def _check_artifact_mapping(
    mapping: Mapping[str, str], valid_target: Callable[[str], bool], var: str, message: str
) -> None:
    """Every model identity → cache target entry: an immutable identity and a valid target."""
    for identity, target in mapping.items():
        if not valid_immutable_model_identity(identity) or not valid_target(target):
            raise _fail(var, message)


@dataclass(frozen=True)
class ProviderSettings:
    """Validated adapter settings.

    ``config`` maps upstream ``Config`` field names to typed values; ``adapter_overrides`` holds adapter
    struct fields given directly (``for_adapter``), used as-is by that adapter.
    """

    config: Mapping[str, Any] = field(default_factory=dict)
    present_env: frozenset[str] = frozenset()
    adapter_overrides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    # ------------------------------------------------------------------------------- constructors
    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> ProviderSettings:
        """Read and validate the ``INFERCRANE_*`` (and ``RUNPOD_API_KEY``) settings compilers use."""
        raw = {k: str(v) for k, v in environ.items()}
        cfg: dict[str, Any] = {}
        for var, (name, kind, default) in SETTINGS.items():
            value = raw.get(var, "")
            if kind == "str":
                cfg[name] = value if value != "" else default
            elif kind == "int":
                cfg[name] = _parse_int(var, value, default)
            elif kind == "csv":
                cfg[name] = _split_csv(value)
            elif kind == "map":
                cfg[name] = _parse_json(var, value, dict) or {}
            elif kind == "providers":
                cfg[name] = _parse_json(var, value, list) or []
        if not cfg["SkyPilotProviders"] and cfg["RunPodAPIKey"]:
            cfg["SkyPilotProviders"] = [
                {"cloud": "runpod", "label": "RunPod", "runtimes": ["vllm", "sglang", "custom-oci"],
                 "credential_env": ["RUNPOD_API_KEY"]}
            ]
        present = frozenset(k for k, v in raw.items() if v.strip())
        settings = cls(config=cfg, present_env=present)
        settings._validate()
        return settings

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> ProviderSettings:
        """A YAML mapping whose keys are the environment variable names."""
        return cls.resolve({}, mapping)

    @classmethod
    def resolve(cls, environ: Mapping[str, str], file_mapping: Mapping[str, Any] | None = None) -> ProviderSettings:
        """Environment plus a settings file; the file wins. Unknown file keys fail closed."""
        merged = {k: str(v) for k, v in environ.items()}
        for key, value in (file_mapping or {}).items():
            if key not in SETTINGS:
                raise _fail(str(key), f"unknown provider setting {go_quote(str(key))}", "infercrane.settings.unknown")
            if isinstance(value, (dict, list)):
                merged[key] = json.dumps(value, separators=(",", ":"))
            elif isinstance(value, bool):
                merged[key] = "true" if value else "false"
            else:
                merged[key] = "" if value is None else str(value)
        return cls.from_env(merged)

    @classmethod
    def for_adapter(cls, adapter: str, fields: Mapping[str, Any]) -> ProviderSettings:
        """Adapter struct fields given directly by upstream name (as adapter tests do); not config-validated."""
        if adapter not in ADAPTER_FIELDS:
            raise _fail(adapter, f"unknown adapter {go_quote(adapter)}", "infercrane.adapter.unknown")
        return cls(config={}, adapter_overrides={adapter: dict(fields)})

    # -------------------------------------------------------------------------------------- views
    def adapter_settings(self, adapter: str) -> dict[str, Any]:
        """The adapter struct fields for ``adapter`` (upstream names)."""
        if adapter in self.adapter_overrides:
            return dict(self.adapter_overrides[adapter])
        out: dict[str, Any] = {}
        for fld, cfg in ADAPTER_FIELDS.get(adapter, {}).items():
            if cfg in self.config:
                out[fld] = self.config[cfg]
        return out

    def configured_skypilot_providers(self) -> list[dict[str, Any]]:
        out = []
        for provider in self.config.get("SkyPilotProviders", []):
            names = provider.get("credential_env") or []
            if names and all(n in self.present_env for n in names):
                out.append(provider)
        return out

    def flags(self) -> dict[str, bool]:
        cfg = self.config
        dynamo = bool(cfg.get("DynamoVLLMImageDigest") and cfg.get("DynamoVLLMRuntimeVersion")) or bool(
            cfg.get("DynamoSGLangImageDigest") and cfg.get("DynamoSGLangRuntimeVersion")
        )
        return {
            "AWSEnabled": bool(cfg.get("AWSRoleARN")),
            "GCPEnabled": bool(cfg.get("GCPProject")),
            "KubernetesEnabled": bool(cfg.get("KubernetesContext")),
            "DynamoEnabled": dynamo,
            "SkyPilotEnabled": cfg.get("SkyPilotAPI") != "disabled" and bool(self.configured_skypilot_providers()),
        }

    def config_view(self) -> dict[str, Any]:
        """Upstream ``Config`` field names (plus ``ConfiguredSkyPilotProviders``), for inspection."""
        view = dict(self.config)
        view["ConfiguredSkyPilotProviders"] = [
            {"Cloud": p.get("cloud", ""), "Label": p.get("label", ""), "Runtimes": p.get("runtimes", []),
             "CredentialEnv": p.get("credential_env", [])}
            for p in self.configured_skypilot_providers()
        ]
        return view

    # --------------------------------------------------------------------------------- validation
    def _validate(self) -> None:
        cfg = self.config
        if not (50 <= cfg["RunPodContainerDiskGiB"] <= 2048):
            raise _fail("INFERCRANE_RUNPOD_CONTAINER_DISK_GIB", "INFERCRANE_RUNPOD_CONTAINER_DISK_GIB must be between 50 and 2048")
        self._validate_runpod()
        self._validate_skypilot()
        self._validate_aws()
        self._validate_gcp()
        self._validate_kubernetes()
        self._validate_dynamo()

    def _validate_runpod(self) -> None:
        cfg = self.config
        policy, volumes = cfg["RunPodArtifactCachePolicy"], cfg["RunPodNetworkVolumes"]
        var = "INFERCRANE_RUNPOD_ARTIFACT_CACHE_POLICY"
        _raise_first(_artifact_cache_checks(
            policy, volumes, var, var,
            "required RunPod artifact caching needs INFERCRANE_RUNPOD_NETWORK_VOLUMES_JSON",
            "disabled RunPod artifact caching cannot configure network volume mappings",
        ))
        _check_artifact_mapping(
            volumes, _valid_runpod_id, "INFERCRANE_RUNPOD_NETWORK_VOLUMES_JSON",
            "RunPod network volume mappings require immutable model identities and valid volume IDs",
        )
        secret = cfg["RunPodHFTokenSecret"]
        if secret and not _valid_runpod_id(secret):
            raise _fail(
                "INFERCRANE_RUNPOD_HF_TOKEN_SECRET", "INFERCRANE_RUNPOD_HF_TOKEN_SECRET must be a valid RunPod secret name"
            )

    def _validate_skypilot(self) -> None:
        cfg = self.config
        if cfg["SkyPilotAPI"] not in ("auto", "enabled", "disabled"):
            raise _fail("INFERCRANE_SKYPILOT_API", "INFERCRANE_SKYPILOT_API must be auto, enabled, or disabled")
        var = "INFERCRANE_SKYPILOT_PROVIDERS_JSON"
        seen: set[str] = set()
        for provider in cfg["SkyPilotProviders"]:
            cloud = provider.get("cloud") or ""
            if not _valid_manifest_id(cloud) or not provider.get("runtimes") or not provider.get("credential_env"):
                raise _fail(
                    var,
                    "SkyPilot provider manifests require a safe cloud ID, at least one runtime, and credential_env references",
                )
            if cloud in seen:
                raise _fail(var, f"SkyPilot provider manifest {go_quote(cloud)} is duplicated")
            seen.add(cloud)
            runtimes: set[str] = set()
            for runtime in provider["runtimes"]:
                if runtime not in ("vllm", "sglang", "custom-oci"):
                    raise _fail(var, f"SkyPilot provider {go_quote(cloud)} runtime must be vllm, sglang, or custom-oci")
                if runtime in runtimes:
                    raise _fail(var, f"SkyPilot provider {go_quote(cloud)} runtime {go_quote(runtime)} is duplicated")
                runtimes.add(runtime)
            for name in provider["credential_env"]:
                if not _valid_env_name(name):
                    raise _fail(var, f"SkyPilot provider {go_quote(cloud)} has an invalid credential environment reference")
        if cfg["SkyPilotAPI"] == "enabled" and not self.configured_skypilot_providers():
            raise _fail(
                "INFERCRANE_SKYPILOT_API",
                "enabled SkyPilot API requires at least one manifest whose credential_env references are configured",
            )

    def _validate_aws(self) -> None:
        cfg = self.config
        subnets = list(cfg["AWSSubnetIDs"]) or ([cfg["AWSSubnetID"]] if cfg["AWSSubnetID"] else [])
        names = ["AWSRoleARN", "AWSRegion", "AWSAMIID", "AWSInstanceType", "AWSGPU", "AWSInstanceProfileARN",
                 "AWSWorkerSecretARN", "AWSImageDigest"]
        configured = (
            bool(cfg["AWSSecurityGroupIDs"]) or bool(cfg["AWSArtifactSnapshots"])
            or cfg["AWSArtifactCachePolicy"] == "required" or cfg["AWSArtifactVolumeInitializationRate"] != 0
            or bool(subnets) or any(cfg[n] for n in names)
        )
        if not configured:
            return
        _require_all(
            cfg, names,
            "AWS BYOC configuration is partial; role ARN, region, at least one subnet, security groups, AMI, "
            "instance type, GPU, instance profile, worker secret ARN, and immutable image digest are required",
        )
        if not subnets:
            raise _fail(
                "INFERCRANE_AWS_SUBNET_IDS",
                "AWS BYOC configuration requires at least one subnet through INFERCRANE_AWS_SUBNET_IDS or "
                "INFERCRANE_AWS_SUBNET_ID",
            )
        if not cfg["AWSSecurityGroupIDs"]:
            raise _fail("INFERCRANE_AWS_SECURITY_GROUP_IDS", "AWS BYOC configuration requires at least one security group")
        checks = [
            (not validate_image(cfg["AWSImageDigest"]), "INFERCRANE_AWS_IMAGE_DIGEST",
             "INFERCRANE_AWS_IMAGE_DIGEST must be pinned by sha256 digest"),
            (not (1 <= cfg["AWSGPUCount"] <= 1024), "INFERCRANE_AWS_GPU_COUNT",
             "INFERCRANE_AWS_GPU_COUNT must be between 1 and 1024"),
            (not (50 <= cfg["AWSRootVolumeGiB"] <= 16384), "INFERCRANE_AWS_ROOT_VOLUME_GIB",
             "INFERCRANE_AWS_ROOT_VOLUME_GIB must be between 50 and 16384"),
            (cfg["AWSImageCachePolicy"] not in ("prefer", "required"), "INFERCRANE_AWS_IMAGE_CACHE_POLICY",
             "INFERCRANE_AWS_IMAGE_CACHE_POLICY must be prefer or required"),
            *_artifact_cache_checks(
                cfg["AWSArtifactCachePolicy"], cfg["AWSArtifactSnapshots"],
                "INFERCRANE_AWS_ARTIFACT_CACHE_POLICY", "INFERCRANE_AWS_ARTIFACT_SNAPSHOTS_JSON",
                "INFERCRANE_AWS_ARTIFACT_CACHE_POLICY=required needs at least one immutable model-to-snapshot mapping",
                "INFERCRANE_AWS_ARTIFACT_SNAPSHOTS_JSON cannot be set while artifact caching is disabled",
            ),
        ]
        _raise_first(checks)
        _check_artifact_mapping(
            cfg["AWSArtifactSnapshots"], valid_aws_snapshot_id, "INFERCRANE_AWS_ARTIFACT_SNAPSHOTS_JSON",
            "INFERCRANE_AWS_ARTIFACT_SNAPSHOTS_JSON must map non-empty immutable model identities to AWS snapshot IDs",
        )
        rate = cfg["AWSArtifactVolumeInitializationRate"]
        if rate != 0 and not (100 <= rate <= 300):
            var = "INFERCRANE_AWS_ARTIFACT_VOLUME_INITIALIZATION_RATE_MIBPS"
            raise _fail(var, f"{var} must be 0 or between 100 and 300")

    def _validate_gcp(self) -> None:
        cfg = self.config
        names = ["GCPProject", "GCPZone", "GCPSubnet", "GCPMachineType", "GCPGPU", "GCPServiceAccount", "GCPVMImage",
                 "GCPContainerImage", "GCPWorkerSecret"]
        configured = bool(cfg["GCPArtifactDisks"]) or cfg["GCPArtifactCachePolicy"] == "required" or any(cfg[n] for n in names)
        if not configured:
            return
        _require_all(
            cfg, names,
            "GCP BYOC configuration is partial; project, zone, subnet, machine type, GPU, service account, "
            "VM image, worker secret, and immutable container image are required",
        )
        policy, disks = cfg["GCPArtifactCachePolicy"], cfg["GCPArtifactDisks"]
        checks = [
            (not validate_image(cfg["GCPContainerImage"]), "INFERCRANE_GCP_CONTAINER_IMAGE",
             "INFERCRANE_GCP_CONTAINER_IMAGE must be pinned by sha256 digest"),
            ("/family/" in cfg["GCPVMImage"], "INFERCRANE_GCP_VM_IMAGE",
             "INFERCRANE_GCP_VM_IMAGE must identify an immutable image, not an image family"),
            (not (50 <= cfg["GCPBootDiskGiB"] <= 65536), "INFERCRANE_GCP_BOOT_DISK_GIB",
             "INFERCRANE_GCP_BOOT_DISK_GIB must be between 50 and 65536"),
            *_artifact_cache_checks(
                policy, disks, "INFERCRANE_GCP_ARTIFACT_CACHE_POLICY", "INFERCRANE_GCP_ARTIFACT_DISKS_JSON",
                "required GCP artifact caching needs INFERCRANE_GCP_ARTIFACT_DISKS_JSON",
                "disabled GCP artifact caching cannot configure persistent disk mappings",
            ),
        ]
        _raise_first(checks)
        _check_artifact_mapping(
            disks, valid_dns_label_strict, "INFERCRANE_GCP_ARTIFACT_DISKS_JSON",
            "GCP artifact disk mappings require immutable model identities and valid zonal disk names",
        )

    def _validate_kubernetes(self) -> None:
        cfg = self.config
        configured = (
            bool(cfg["KubernetesContext"]) or bool(cfg["KubernetesImageDigest"]) or bool(cfg["KubernetesArtifactPVCs"])
            or cfg["KubernetesArtifactCachePolicy"] == "required"
        )
        if not configured:
            return
        names = ["KubernetesContext", "KubernetesNamespace", "KubernetesWorkloadAPI", "KubernetesServiceAccount",
                 "KubernetesWorkerSecretName", "KubernetesWorkerSecretKey", "KubernetesImageDigest",
                 "KubernetesGPUResource", "KubernetesGPUProductLabel"]
        _require_all(
            cfg, names,
            "Kubernetes configuration is partial; context, namespace, workload API, service account, worker "
            "Secret name/key, immutable image digest, GPU resource, and GPU product label are required",
        )
        policy, pvcs = cfg["KubernetesArtifactCachePolicy"], cfg["KubernetesArtifactPVCs"]
        checks = [
            (cfg["KubernetesWorkloadAPI"] not in ("deployment", "kserve"), "INFERCRANE_KUBERNETES_WORKLOAD_API",
             "INFERCRANE_KUBERNETES_WORKLOAD_API must be deployment or kserve"),
            (not validate_image(cfg["KubernetesImageDigest"]), "INFERCRANE_KUBERNETES_IMAGE_DIGEST",
             "INFERCRANE_KUBERNETES_IMAGE_DIGEST must be pinned by sha256 digest"),
            (cfg["KubernetesImageCachePolicy"] not in ("prefer", "required"), "INFERCRANE_KUBERNETES_IMAGE_CACHE_POLICY",
             "INFERCRANE_KUBERNETES_IMAGE_CACHE_POLICY must be prefer or required"),
            *_artifact_cache_checks(
                policy, pvcs, "INFERCRANE_KUBERNETES_ARTIFACT_CACHE_POLICY", "INFERCRANE_KUBERNETES_ARTIFACT_PVCS_JSON",
                "required Kubernetes artifact caching needs INFERCRANE_KUBERNETES_ARTIFACT_PVCS_JSON",
                "disabled Kubernetes artifact caching cannot configure PVC mappings",
            ),
        ]
        _raise_first(checks)
        _check_artifact_mapping(
            pvcs, valid_dns_label_strict, "INFERCRANE_KUBERNETES_ARTIFACT_PVCS_JSON",
            "Kubernetes artifact PVC mappings require immutable model identities and DNS-label claim names",
        )

    def _validate_dynamo(self) -> None:
        cfg = self.config
        names = ["DynamoVLLMImageDigest", "DynamoVLLMRuntimeVersion", "DynamoSGLangImageDigest",
                 "DynamoSGLangRuntimeVersion", "DynamoModelSecretName"]
        if not any(cfg[n] for n in names):
            return
        flags = self.flags()
        if not flags["KubernetesEnabled"]:
            raise _fail("INFERCRANE_KUBERNETES_CONTEXT", "Dynamo configuration requires the complete Kubernetes configuration")
        if not flags["DynamoEnabled"]:
            raise _fail(
                "INFERCRANE_DYNAMO_VLLM_IMAGE_DIGEST",
                "Dynamo configuration requires at least one complete vLLM or SGLang image digest and matching runtime "
                "version pair",
            )
        for label, image_f, version_f in (
            ("vLLM", "DynamoVLLMImageDigest", "DynamoVLLMRuntimeVersion"),
            ("SGLang", "DynamoSGLangImageDigest", "DynamoSGLangRuntimeVersion"),
        ):
            image, version = cfg[image_f], cfg[version_f]
            if bool(image) != bool(version):
                raise _fail(_CONFIG_TO_ENV[image_f], f"Dynamo {label} configuration requires both image digest and runtime version")
            if not image:
                continue
            if not validate_image(image):
                raise _fail(_CONFIG_TO_ENV[image_f], f"Dynamo {label} image must be pinned by sha256 digest")
            if not valid_dynamo_runtime_version(version):
                raise _fail(
                    _CONFIG_TO_ENV[version_f],
                    f"Dynamo {label} runtime version must be numeric MAJOR.MINOR.PATCH and match its image",
                )
        secret = cfg["DynamoModelSecretName"]
        if secret and not _valid_dns_label(secret):
            raise _fail(
                "INFERCRANE_DYNAMO_MODEL_SECRET_NAME", "INFERCRANE_DYNAMO_MODEL_SECRET_NAME must be a valid Kubernetes DNS label"
            )


def valid_aws_snapshot_id(value: str) -> bool:
    if not value.startswith("snap-") or len(value) < len("snap-") + 8:
        return False
    return all(ch in "0123456789abcdef" for ch in value[len("snap-"):])
