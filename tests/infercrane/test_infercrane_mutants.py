"""Behaviour the mutation run found unpinned (issue 24), one test per surviving mutant.

Expectations come from upstream ``infercrane/infercrane`` source or the shared reference data
(``/work/shared/reference/infercrane``), cited per test; mutant ids are named in comments.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._infercrane import (
    AdapterError,
    DeploymentSpec,
    NormalizedSpec,
    ProviderSettings,
    Replica,
    SettingsError,
    compile_replica,
    load_spec,
    preflight,
    render_part,
    resolve_adapter,
    validate_spec,
)
from dynamo_schema._infercrane._settings import valid_aws_snapshot_id, valid_dynamo_runtime_version

from .conftest import REFERENCE

# the specs of the rule-message tests (their WORKLOAD, BASE and DYNAMO)
from .test_rule_messages import BASE, DYNAMO, INVALID, REV, WORKLOAD


def _case(name: str) -> dict[str, Any]:
    path = Path(REFERENCE) / "cases" / name
    if not path.is_file():
        pytest.skip("shared InferCrane reference data is not available")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _compile(case: dict[str, Any], state: Any = "case", spec: dict[str, Any] | None = None) -> list[Any]:
    spec = spec if spec is not None else (yaml.safe_load(case["spec"]) if case.get("spec") else {})
    replica = Replica.from_spec(spec, case.get("replica") or {})
    settings = ProviderSettings.for_adapter(case["adapter"], case.get("provider_config") or {})
    return compile_replica(replica, settings, case["adapter"], case.get("provider_state") if state == "case" else state)


class _SubStr(str):
    """A ``str`` subclass: what a value's ``__str__`` may return (``str()`` keeps the subclass)."""


class _EnvValue:
    """An environment value whose text is ``text`` (``from_env`` reads ``str(value)``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return _SubStr(self.text)


# ================================================================================== _compile
def test_default_adapter_follows_the_cloud_for_a_hand_built_spec_with_serving() -> None:
    """mutant a220bded21f3. ``defaultProviderAdapter`` (planning.go, spec/deploymentspec.md §3): aws -> aws-ec2.
    A serving topology only selects kubernetes-dynamo on cloud kubernetes; a NormalizedSpec built by hand
    (public type, no loader) with serving on aws keeps the cloud's default."""
    data = copy.deepcopy(load_spec(BASE).data)
    data["serving"] = copy.deepcopy(load_spec(DYNAMO).data["serving"])
    assert resolve_adapter(NormalizedSpec(data)) == "aws-ec2"


# ================================================================================== _contracts
def test_one_gib_disk_cache_still_needs_a_storage_claim() -> None:
    """mutant cbfa170a4e4a. topology.go@b8118009 ``Cache.validate``: ``DiskGiB > 0 && StorageClaim == ""``."""
    data = copy.deepcopy(DYNAMO)
    data["serving"]["cache"] = {"backend": "kvbm", "host_gib": 1, "disk_gib": 1, "memory_gib": 2}
    diags = validate_spec(data)
    assert [(d.path, d.message) for d in diags] == [
        (("serving", "cache", "storage_claim"), "serving: disk cache requires an explicit storage_claim")]
    data["serving"]["cache"]["storage_claim"] = "kv"
    assert validate_spec(data) == []


# ================================================================================== _loader
def test_null_int_field_decodes_to_go_zero_value() -> None:
    """mutant 4e4045ff7372. yaml.v3 leaves a Go int at its zero value for ``null``; a serverless spec with
    ``min_replicas: null`` then satisfies spec.go's ``serverless compute requires scaling.min_replicas 0``
    (reference case spec-01: serverless keeps a zero minimum)."""
    data = copy.deepcopy(BASE)
    data.update(compute={"mode": "serverless"}, provider={"cloud": "runpod", "adapter": "runpod-serverless"},
                scaling={"min_replicas": None, "max_replicas": 4})
    spec = load_spec(data)
    assert spec.get("scaling.min_replicas") == 0
    assert spec.get("scaling.max_replicas") == 4


# ================================================================================== _model
def _pydantic_spec(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data.update(changes)
    return data


def test_model_id_must_not_be_empty() -> None:
    """mutant 4343773466ec. deployment-v1.schema.json: ``model.id`` ``minLength: 1``."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        DeploymentSpec.model_validate(_pydantic_spec(model={"id": ""}))
    DeploymentSpec.model_validate(_pydantic_spec(model={"id": "a"}))


def test_shutdown_grace_of_one_second_is_allowed() -> None:
    """mutant 07d28d92b2a4. deployment-v1.schema.json: workload ``shutdown_grace_seconds`` ``minimum: 1``."""
    from pydantic import ValidationError

    runtime = {"engine": "custom-oci", "workload": dict(WORKLOAD, shutdown_grace_seconds=1)}
    DeploymentSpec.model_validate(_pydantic_spec(runtime=runtime))
    with pytest.raises(ValidationError):
        DeploymentSpec.model_validate(_pydantic_spec(runtime=dict(runtime, workload=dict(WORKLOAD, shutdown_grace_seconds=0))))


def test_autoscaling_bounds_default_to_zero() -> None:
    """mutants 356e2529af6d, 46e9d103ee76. topology.go@b8118009 ``Autoscaling{Min, Max int}``: unset is the Go
    zero value, and ``disabled serving autoscaling cannot declare min or max`` (non-zero) - a default of 1
    would be a declared bound."""
    spec = DeploymentSpec.model_validate(_pydantic_spec(serving={"backend": "dynamo", "autoscaling": {"owner": "disabled"}}))
    assert spec.serving is not None and spec.serving.autoscaling is not None
    assert (spec.serving.autoscaling.min, spec.serving.autoscaling.max) == (0, 0)


# ================================================================================== _settings
def test_int_setting_is_parsed_from_the_values_text() -> None:
    """mutant f0390539b5d3. config.go ``envInt``: ``strconv.Atoi(raw)`` of the variable's text; a value whose
    text is ``"300"`` is 300 whatever ``str`` subclass carries it."""
    settings = ProviderSettings.from_env({"INFERCRANE_AWS_ROOT_VOLUME_GIB": _EnvValue("300")})
    assert settings.config["AWSRootVolumeGiB"] == 300


def test_empty_string_setting_falls_back_to_the_default() -> None:
    """mutant 4113befdb317. config.go ``env(key, fallback)``: an empty value gives the fallback
    (``INFERCRANE_RUNPOD_REST_URL`` defaults to ``https://rest.runpod.io/v1``), whatever carries the text."""
    settings = ProviderSettings.from_env({"INFERCRANE_RUNPOD_REST_URL": _EnvValue("")})
    assert settings.config["RunPodRESTURL"] == "https://rest.runpod.io/v1"


@pytest.mark.parametrize("cloud,ok", [("lambda", True), ("a-b", True), ("-lambda", False), ("lambda-", False)])
def test_skypilot_manifest_cloud_id_starts_and_ends_alphanumeric(cloud: str, ok: bool) -> None:
    """mutants 5978a05b4251, 1f34ce0794b7. config.go@37d681c ``validManifestID``: the first and the last byte
    must be ``[a-z0-9]``."""
    raw = f'[{{"cloud":"{cloud}","runtimes":["vllm"],"credential_env":["LAMBDA_API_KEY"]}}]'
    env = {"INFERCRANE_SKYPILOT_PROVIDERS_JSON": raw}
    if ok:
        ProviderSettings.from_env(env)
        return
    with pytest.raises(SettingsError, match="safe cloud ID"):
        ProviderSettings.from_env(env)


@pytest.mark.parametrize("version,ok", [("1.10.0", True), ("10.20.30", True), ("1.01.0", False), ("01.1.0", False),
                                        ("0.0.0", True)])
def test_dynamo_runtime_version_refuses_only_leading_zeros(version: str, ok: bool) -> None:
    """mutant 6b7dfdc2c33d. config.go@37d681c ``validDynamoRuntimeVersion``: a part longer than one digit must
    not start with ``0``; other multi-digit parts are fine."""
    assert valid_dynamo_runtime_version(version) is ok


@pytest.mark.parametrize("value,ok", [("snap-1234567", False), ("snap-12345678", True), ("snap-", False)])
def test_aws_snapshot_id_needs_eight_hex_characters(value: str, ok: bool) -> None:
    """mutant 2aedea02227e. config.go@37d681c ``validAWSSnapshotID``: ``len(value) < len("snap-")+8`` is invalid."""
    assert valid_aws_snapshot_id(value) is ok


@pytest.mark.parametrize("missing", ["INFERCRANE_DYNAMO_VLLM_RUNTIME_VERSION", "INFERCRANE_DYNAMO_VLLM_IMAGE_DIGEST"])
def test_dynamo_half_of_a_vllm_pair_is_not_a_complete_pair(missing: str) -> None:
    """mutant 19c4366a550a. config.go ``DynamoRuntimeEnabled("vllm")``: image digest ``&&`` runtime version;
    with only one of them ``DynamoEnabled()`` is false, so ``validateDynamo`` fails with its "at least one
    complete ... pair" error (before the per-runtime "requires both" check). The environment is the reference
    case config-18-dynamo-complete without one half of the pair."""
    env = dict(_case("config-18-dynamo-complete.yaml")["provider_config"])
    ProviderSettings.from_env(env)  # the complete configuration loads
    del env[missing]
    with pytest.raises(SettingsError) as err:
        ProviderSettings.from_env(env)
    assert str(err.value) == ("Dynamo configuration requires at least one complete vLLM or SGLang image digest and "
                              "matching runtime version pair")


# ================================================================================== aws-ec2
def test_only_the_root_device_mapping_sizes_the_root_volume() -> None:
    """mutant 324ad95eb8e2. aws_ec2.go@64491a4 ``resolveImage``: ``RootVolumeGiB`` comes from the mapping whose
    ``DeviceName == RootDeviceName``; a bigger non-root EBS mapping does not count."""
    case = _case("aws-03-artifact-volume-launch.yaml")
    state = copy.deepcopy(case["provider_state"])
    state["ec2_describe_images"]["BlockDeviceMappings"].append({"DeviceName": "/dev/xvdb", "Ebs": {"VolumeSize": 500}})
    assert _compile(case, state)  # the root volume (200 GiB default) only has to hold the 30 GiB root


def test_snapshot_tagged_for_another_identity_is_refused() -> None:
    """mutant 7a8a69227038. aws_ec2.go@64491a4 ``verifyArtifactSnapshot``: the
    ``infercrane:model-identity-digest`` tag must equal the model identity digest."""
    case = _case("aws-03-artifact-volume-launch.yaml")
    state = copy.deepcopy(case["provider_state"])
    for tag in state["ec2_describe_snapshots"]["Tags"]:
        if tag["Key"] == "infercrane:model-identity-digest":
            tag["Value"] = "sha256:" + "0" * 64
    with pytest.raises(AdapterError, match="is not completed, encrypted, and tagged for immutable model identity digest"):
        _compile(case, state)


# ================================================================================== gcp-compute
GCP = {"Project": "project", "Zone": "europe-west4-a", "Subnet": "s", "MachineType": "g2-standard-4",
       "GPUType": "nvidia-l4", "ServiceAccount": "sa@p.iam.gserviceaccount.com",
       "VMImage": "projects/cos-cloud/global/images/cos", "ContainerImage": "vllm/vllm-openai@sha256:" + "a" * 64,
       "WorkerSecret": "infercrane-worker", "BootDiskGiB": 200}


@pytest.mark.parametrize("image", ["a/b/c/d/e", "projects/p/global/images/x/y", "projects/p/global/family/x"])
def test_vm_image_must_be_a_global_image_path(image: str) -> None:
    """mutant 06dc6aebb4a1. gcp_compute.go@64491a4 ``gcpImageIdentity``: exactly five parts
    ``projects/P/global/images/I``."""
    preflight("gcp-compute", ProviderSettings.for_adapter("gcp-compute", GCP))
    with pytest.raises(AdapterError) as exc:
        preflight("gcp-compute", ProviderSettings.for_adapter("gcp-compute", dict(GCP, VMImage=image)))
    assert str(exc.value) == "GCP VM image must use projects/PROJECT/global/images/IMAGE immutable identity"


def test_gcp_startup_expands_placeholders_inside_arguments() -> None:
    """mutant 666cab101ab0. gcp_compute.go@64491a4 ``startup``: every argument other than exactly
    ``${WORKER_API_KEY}`` gets ``strings.ReplaceAll`` of ``${MODEL}``, ``${MODEL_REVISION}``, ``${PORT}``."""
    workload = {"image": "r.example/x@sha256:" + "b" * 64, "command": ["serve", "--model=${MODEL}", "--port=${PORT}"],
                "protocol": "openai", "port": 9000}
    replica = Replica.from_spec({"model": {"id": "org/m", "revision": REV}, "runtime": {"workload": workload}}, {"port": 9000})
    text = render_part("startup-script", replica, ProviderSettings.for_adapter("gcp-compute", GCP), "gcp-compute")
    assert "--model=org/m" in text and "--port=9000" in text
    assert "${MODEL}" not in text and "${PORT}" not in text


# ================================================================================== kubernetes
@pytest.mark.parametrize("key,ok", [("api.k", True), ("a_b-c", True), ("api.", False), ("api-", False)])
def test_worker_secret_key_separator_may_not_be_last(key: str, ok: bool) -> None:
    """mutant 8ec4378a1e5a. kubernetes.go ``validKubernetesSecretKey``: ``.``, ``-``, ``_`` are allowed at any
    index before the last one (so the second-to-last too)."""
    case = _case("k8s-03-kserve-one-owner.yaml")
    settings = ProviderSettings.for_adapter("kubernetes", dict(case["provider_config"], WorkerSecretKey=key))
    if ok:
        preflight("kubernetes", settings)
        return
    with pytest.raises(AdapterError) as exc:
        preflight("kubernetes", settings)
    assert f'invalid Kubernetes Secret key "{key}"' in str(exc.value)


def test_kserve_predictor_is_pinned_to_one_replica() -> None:
    """mutant ccb9e53f0b64. kubernetes.go ``manifest``: the KServe predictor has ``minReplicas: 1`` and
    ``maxReplicas: 1`` (one owner per replica)."""
    artifacts = _compile(_case("k8s-03-kserve-one-owner.yaml"))
    service = next(a.content for a in artifacts if a.kind == "object" and a.content.get("kind") == "InferenceService")
    predictor = service["spec"]["predictor"]
    assert (predictor["minReplicas"], predictor["maxReplicas"]) == (1, 1)


# ================================================================================== kubernetes-dynamo
def test_dynamo_graph_refuses_a_non_kubernetes_cloud_first() -> None:
    """mutant 083ba2139651. kubernetes_dynamo.go@11890ae ``validate``: ``spec.Cloud != "kubernetes"`` fails the
    bounded-input check before the topology is validated."""
    case = _case("dynamo-01-one-parent-graph.yaml")
    spec = yaml.safe_load(case["spec"])
    spec["provider"] = {"cloud": "aws"}
    with pytest.raises(AdapterError) as exc:
        _compile(case, spec=spec)
    assert str(exc.value) == INVALID + "Dynamo graph requires bounded external key, model, cloud kubernetes, and GPU"


# ================================================================================== runpod-pods
def test_network_volume_without_a_data_center_is_refused() -> None:
    """mutant 0ae5ee7e4fa0. runpod_pods.go ``verifyNetworkVolume``: ``Name != expected || Size < 1 ||
    DataCenterID == ""`` each refuse the volume."""
    case = _case("runpod-05-pods-persistent-model-volume.yaml")
    spec = yaml.safe_load(case["spec"])
    del spec["provider"]["region"]  # no region to compare the data center with
    state = copy.deepcopy(case["provider_state"])
    del state["network_volume"]["dataCenterId"]
    with pytest.raises(AdapterError) as exc:
        _compile(case, state, spec)
    assert str(exc.value) == (INVALID + 'RunPod network volume volume_1234 must be named '
                              '"infercrane-artifact-a5d33b0cefe277aeeb41", have positive size, and declare a data center')


# ================================================================================== skypilot
def test_skypilot_workload_command_expands_placeholders() -> None:
    """mutant b94b4915c96c. skypilot.go@64491a4 ``workloadCommand``: every value but ``${WORKER_API_KEY}`` gets
    ``${MODEL}``, ``${MODEL_REVISION}`` and ``${PORT}`` replaced."""
    workload = {"image": "r.example/x@sha256:" + "b" * 64, "command": ["serve", "${MODEL}", "--revision",
                                                                      "${MODEL_REVISION}", "--port", "${PORT}"],
                "protocol": "openai", "port": 9000}
    replica = Replica.from_spec({"model": {"id": "org/m", "revision": REV}, "runtime": {"workload": workload}})
    text = render_part("run-command", replica, ProviderSettings.for_adapter("skypilot", {}), "skypilot")
    assert "'org/m'" in text and f"'{REV}'" in text and "'8000'" in text
    assert "${" not in text


@pytest.mark.parametrize("version,image", [
    ("0.10.2", "docker:vllm/vllm-openai:v0.10.2"),
    ("", "docker:vllm/vllm-openai@sha256:953d3a06d5e64ab582985cd7401289d3abf2a2c14ef2158e9a84313daeec77d7"),
])
def test_skypilot_image_for_other_clouds(version: str, image: str) -> None:
    """mutant 0745863a53d4. Reference README (skypilot.go@64491a4 image constants): other clouds than RunPod use
    ``vllm/vllm-openai@sha256:953d…`` and an explicit ``runtime.version`` V selects ``vllm/vllm-openai:vV``."""
    spec = {"model": {"id": "org/m"}, "runtime": {"version": version}, "resources": {"gpu": "A100"},
            "provider": {"cloud": "lambda"}}
    artifacts = compile_replica(Replica.from_spec(spec, {"external_key": "k-r0"}),
                                ProviderSettings.for_adapter("skypilot", {}), "skypilot")
    task = next(a.content for a in artifacts if a.name == "task")
    assert task["resources"]["image_id"] == image


def test_skypilot_invalid_workload_reports_its_path() -> None:
    """mutant 14a715e97c33. skypilot.go@64491a4 ``EnsureReplica`` refuses an invalid workload as an invalid
    replica specification; the path is the workload field (``runtime.workload.image``)."""
    workload = dict(WORKLOAD, image="registry.example/runtime:latest")
    spec = {"model": {"id": "org/m"}, "runtime": {"workload": workload}, "resources": {"gpu": "A100"},
            "provider": {"cloud": "runpod"}}
    with pytest.raises(AdapterError) as exc:
        compile_replica(Replica.from_spec(spec, {"external_key": "k-r0"}), ProviderSettings.for_adapter("skypilot", {}),
                        "skypilot")
    assert str(exc.value).startswith(INVALID + "workload.image")
    assert exc.value.diagnostics[0].path == ("runtime", "workload", "image")
