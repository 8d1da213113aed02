"""Adapter behaviour beyond the case files: resolution, shell safety (``sh -n``), names and hashes as
upstream computes them, settings precedence, and the golden outputs."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from dynamo_schema._infercrane import (
    AdapterError,
    ProviderSettings,
    Replica,
    SettingsError,
    compile_spec,
    load_spec,
    render_part,
    resolve_adapter,
)
from dynamo_schema._infercrane import _contracts as c
from dynamo_schema._infercrane.adapters import _gcp_compute, _kubernetes, _runpod_pods

from . import _goldens
from .conftest import sh_syntax_ok

HOSTILE = "acme/model'; touch /tmp/pwned; echo \"$(id)\" `id` \\"
REV = "0123456789abcdef0123456789abcdef01234567"


def _spec(cloud: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": "qwen", "model": {"id": "Qwen/Qwen3-8B", "revision": REV},
                           "resources": {"gpu": "L40S"}, "provider": {"cloud": cloud}}
    out.update(extra)
    return out


# ------------------------------------------------------------------------------------------ resolution
@pytest.mark.parametrize(
    "data,expected",
    [
        (_spec("aws", provider={"cloud": "aws", "region": "eu-central-1"}), "aws-ec2"),
        (_spec("gcp", provider={"cloud": "gcp", "region": "europe-west4"}), "gcp-compute"),
        (_spec("kubernetes"), "kubernetes"),
        (_spec("runpod"), "skypilot"),
        (_spec("runpod", compute={"mode": "serverless"}, scaling={"min_replicas": 0, "max_replicas": 2}), "runpod-serverless"),
    ],
)
def test_default_adapter(data: dict[str, Any], expected: str) -> None:
    assert resolve_adapter(load_spec(data)) == expected


def test_ambiguous_and_deferred_adapters_fail_clearly() -> None:
    workload = {"image": "r.example/x@sha256:" + "a" * 64, "command": ["serve"], "protocol": "openai", "port": 8000,
                "readiness_path": "/health", "models_path": "/v1/models", "metrics_path": "/metrics",
                "cancellation": "http-disconnect", "drain": "connection", "shutdown_grace_seconds": 30}
    custom = load_spec(_spec("runpod", runtime={"engine": "custom-oci", "workload": workload}))
    with pytest.raises(AdapterError, match="ambiguous without provider.adapter"):
        resolve_adapter(custom)
    assert resolve_adapter(custom, "runpod-pods") == "runpod-pods"
    deferred = load_spec(_spec("aws", provider={"cloud": "aws", "region": "eu-central-1", "adapter": "aws-eks"}))
    with pytest.raises(AdapterError, match="registered but not executable") as info:
        resolve_adapter(deferred)
    assert info.value.diagnostics[0].path == ("provider", "adapter")
    with pytest.raises(AdapterError, match="serves cloud"):
        resolve_adapter(load_spec(_spec("aws", provider={"cloud": "aws", "region": "x", "adapter": "gcp-compute"})))


# ------------------------------------------------------------------------------------------ shell safety
GCP = {"Project": "project", "Zone": "europe-west4-a", "Subnet": "s", "MachineType": "g2-standard-4",
       "GPUType": "nvidia-l4", "ServiceAccount": "sa@p.iam.gserviceaccount.com",
       "VMImage": "projects/cos-cloud/global/images/cos", "ContainerImage": "vllm/vllm-openai@sha256:" + "a" * 64,
       "WorkerSecret": "infercrane-worker", "BootDiskGiB": 200}
AWS = {"RoleARN": "arn", "Region": "eu-central-1", "SubnetID": "subnet-a", "SecurityGroupIDs": ["sg"], "AMIID": "ami",
       "InstanceType": "g6e.xlarge", "GPU": "L40S", "InstanceProfileARN": "arn:p", "WorkerSecretARN": "arn:s",
       "ImageDigest": "vllm/vllm-openai@sha256:" + "a" * 64}


@pytest.mark.parametrize("with_workload", [False, True])
@pytest.mark.parametrize("adapter,part,settings", [("gcp-compute", "startup-script", GCP), ("aws-ec2", "user-data", AWS),
                                                   ("skypilot", "run-command", {})])
def test_scripts_pass_sh_n_with_hostile_values(adapter: str, part: str, settings: dict[str, Any], with_workload: bool) -> None:
    runtime: dict[str, Any] = {"args": [HOSTILE, "--x"]}
    if with_workload:
        runtime["workload"] = {"image": "r.example/x@sha256:" + "b" * 64, "command": ["serve", "${MODEL}", HOSTILE],
                               "protocol": "openai", "port": 9000}
    replica = Replica.from_spec({"model": {"id": HOSTILE, "revision": HOSTILE}, "runtime": runtime}, {"port": 8000})
    text = render_part(part, replica, ProviderSettings.for_adapter(adapter, settings), adapter)
    ok, err = sh_syntax_ok(text)
    assert ok, err
    assert "touch /tmp/pwned" in text and "'\"'\"'" in text  # the quote is escaped, never closed early


def test_skypilot_run_command_parses_to_exact_argv() -> None:
    import shlex

    replica = Replica.from_spec({"model": {"id": HOSTILE, "revision": "r"}, "runtime": {"args": [HOSTILE]}}, {"port": 8000})
    text = render_part("run-command", replica, ProviderSettings.for_adapter("skypilot", {}), "skypilot")
    words = shlex.split(text.split("exec ", 1)[1])
    assert words == ["vllm", "serve", HOSTILE, "--host", "0.0.0.0", "--port", "8000", "--served-model-name", HOSTILE,
                     "--revision", "r", HOSTILE]


# ------------------------------------------------------------------------------------------ names/hashes
def test_identity_digests_from_reference_readme() -> None:
    identity = c.model_identity("Qwen/Qwen3-8B", REV)
    assert c.model_identity_digest(identity).startswith("sha256:b89562e9")
    # runpod-05: the mapped network volume is named after the identity digest.
    assert _runpod_pods.volume_name("org/model@" + REV) == "infercrane-artifact-a5d33b0cefe277aeeb41"


def test_cluster_name_rules() -> None:
    assert c.cluster_name("prod-r0") == "infercrane-prod-r0"
    assert c.cluster_name("Deployment_1/Rev 2") == "infercrane-deployment-1-rev-2"
    key = "a" * 80
    name = c.cluster_name(key)
    assert len(name) <= 63
    assert name.endswith("-" + hashlib.sha256(key.encode()).hexdigest()[:12])
    assert name.startswith("infercrane-aaa") and len(name) == 63


def test_provider_resource_names() -> None:
    key = "deployment-revision-r0"
    assert _kubernetes.resource_name(key) == "infercrane-" + hashlib.sha256(key.encode()).hexdigest()[:24]
    assert _gcp_compute.instance_name(key) == "infercrane-" + hashlib.sha256(key.encode()).hexdigest()[:20]


def test_topology_digest_matches_go_json() -> None:
    t = {"backend": "dynamo", "mode": "aggregated", "worker": {"replicas": 1, "tensor_parallelism": 1}}
    body = ('{"schema_version":"infercrane.serving/v1","backend":"dynamo","profile":"custom","mode":"aggregated",'
            '"routing":"direct","worker":{"replicas":1,"tensor_parallelism":1},"autoscaling":{"owner":"disabled"},'
            '"cache":{"backend":"none"}}')
    assert c.topology_digest(t) == "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    assert c.topology_digest({}) == ""


# ------------------------------------------------------------------------------------------ settings
def test_settings_file_wins_and_unknown_keys_fail_closed() -> None:
    env = {"INFERCRANE_KUBERNETES_CONTEXT": "env-ctx", "INFERCRANE_KUBERNETES_IMAGE_DIGEST": "x@sha256:" + "a" * 64}
    merged = ProviderSettings.resolve(env, {"INFERCRANE_KUBERNETES_CONTEXT": "file-ctx"})
    assert merged.adapter_settings("kubernetes")["Context"] == "file-ctx"
    assert merged.adapter_settings("kubernetes")["Namespace"] == "infercrane-system"
    with pytest.raises(SettingsError) as info:
        ProviderSettings.resolve(env, {"INFERCRANE_KUBERNETES_CONTEXTT": "typo"})
    assert info.value.diagnostics[0].path == ("INFERCRANE_KUBERNETES_CONTEXTT",)
    with pytest.raises(SettingsError, match="must be an integer"):
        ProviderSettings.from_env({"INFERCRANE_AWS_GPU_COUNT": "four"})


def test_settings_mapping_accepts_yaml_values() -> None:
    settings = ProviderSettings.from_mapping(
        {"INFERCRANE_RUNPOD_CONTAINER_DISK_GIB": 500,
         "INFERCRANE_RUNPOD_NETWORK_VOLUMES_JSON": {"org/model@" + REV: "volume_1234"}}
    )
    assert settings.adapter_settings("runpod-pods")["ContainerDiskGiB"] == 500
    assert settings.adapter_settings("runpod-pods")["NetworkVolumes"] == {"org/model@" + REV: "volume_1234"}


def test_compile_spec_refuses_bad_spec_before_adapter() -> None:
    from dynamo_schema._infercrane import SpecError

    with pytest.raises(SpecError):
        compile_spec(_spec("aws"), ProviderSettings())


def test_dynamo_sglang_builtin_profile_is_not_a_workload_override() -> None:
    settings = ProviderSettings.from_mapping({
        "INFERCRANE_KUBERNETES_CONTEXT": "ctx", "INFERCRANE_KUBERNETES_IMAGE_DIGEST": "x@sha256:" + "a" * 64,
        "INFERCRANE_DYNAMO_SGLANG_IMAGE_DIGEST": "nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0@sha256:" + "b" * 64,
        "INFERCRANE_DYNAMO_SGLANG_RUNTIME_VERSION": "1.4.0"})
    data = _spec("kubernetes", runtime={"engine": "sglang"}, provider={"cloud": "kubernetes", "adapter": "kubernetes-dynamo"},
                 serving={"backend": "dynamo", "worker": {"replicas": 1, "tensor_parallelism": 2}})
    dgd = next(a for a in compile_spec(data, settings) if a.name.startswith("DynamoGraphDeployment/")).content
    worker = dgd["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]
    assert worker["command"] == ["python3", "-m", "dynamo.sglang"]
    assert worker["resources"]["limits"]["nvidia.com/gpu"] == "2"


# ------------------------------------------------------------------------------------------ goldens
GOLDENS = sorted(p for p in _goldens.GOLDEN.iterdir() if p.is_dir()) if _goldens.GOLDEN.is_dir() else []


def test_every_adapter_has_single_and_multi_gpu_goldens() -> None:
    from dynamo_schema._infercrane.adapters import MODULES

    names = {p.name for p in GOLDENS}
    for adapter in MODULES:
        assert {f"{adapter}-single-gpu", f"{adapter}-multi-gpu"} <= names, adapter


@pytest.mark.parametrize("directory", GOLDENS, ids=[p.name for p in GOLDENS])
def test_golden(directory: Path) -> None:
    expected_dir = directory / "expected"
    expected = {p.name: p.read_text() for p in expected_dir.iterdir()}
    actual = _goldens.render(directory)
    assert sorted(actual) == sorted(expected)
    for name, text in expected.items():
        assert actual[name] == text, name
        if name.endswith(".sh"):
            ok, err = sh_syntax_ok(text)
            assert ok, err


def _golden_text(directory: Path, name: str) -> str:
    text = (directory / "expected" / name).read_text()
    if name.endswith(".json"):
        body = json.loads(text)
        if isinstance(body, dict) and "args" in body:
            return " ".join(body["args"])
        if isinstance(body, dict) and "requests" in body:
            return " ".join(body["requests"][0]["args"])
        if isinstance(body, dict) and "body" in body:
            return json.dumps(body["body"], separators=(",", ":"), sort_keys=True)
        return json.dumps(body, separators=(",", ":"), sort_keys=True)
    return text


#: Upstream-evidenced facts each golden must carry (source in golden/infercrane/README.md).
EVIDENCE: dict[str, list[tuple[str, str]]] = {
    "skypilot-single-gpu": [
        ("task.yaml", "image_id: docker:ghcr.io/infercrane/vllm-runpod@sha256:c9d8303ad7c36e3b25a160c892626be8b0dde8f5954b11095c33d2bca31a9711"),
        ("task.yaml", "--revision '0123456789abcdef0123456789abcdef01234567'"),
        ("task.yaml", "accelerators: L40S\n"),
        ("replica.json", '"resource_id":"infercrane-qwen-runpod-r0"'),
    ],
    "skypilot-multi-gpu": [("task.yaml", "accelerators: L40S:4")],
    "aws-ec2-single-gpu": [
        ("run-instances.json", '"VolumeSize":200'), ("run-instances.json", '"AssociatePublicIpAddress":false'),
        ("run-instances.json", "--count 1"), ("run-instances.json", '"VolumeType":"gp3"'),
        ("run-instances.json", '"Encrypted":true'), ("user-data.sh", "'Qwen/Qwen3-8B' '--port' '8000'"),
        ("user-data.sh", '-eq 1 ]'),
    ],
    "aws-ec2-multi-gpu": [("user-data.sh", '[ "$actual_gpu_count" -eq 4 ]'), ("run-instances.json", "g6e.12xlarge")],
    "gcp-compute-single-gpu": [
        ("instances-create.json", "type=nvidia-l4,count=1"), ("instances-create.json", "--no-address"),
        ("instances-create.json", "--boot-disk-size 200GB"), ("instances-create.json", "--boot-disk-type pd-balanced"),
        ("instances-create.json", "--labels infercrane-managed=true"), ("startup-script.sh", "'Qwen/Qwen3-8B' '--port' '8000'"),
    ],
    "gcp-compute-multi-gpu": [("instances-create.json", "type=nvidia-l4,count=4"),
                              ("startup-script.sh", '[ "$actual_gpu_count" -eq 4 ]')],
    "kubernetes-single-gpu": [
        ("manifest.json", '"args":["serve","Qwen/Qwen3-8B"'), ("manifest.json", '"name":"VLLM_API_KEY"'),
        ("manifest.json", '"nvidia.com/gpu":"1"'), ("manifest.json", '"strategy":{"type":"Recreate"}'),
        ("replica.json", '.infercrane-system.svc:8000'),
    ],
    "kubernetes-multi-gpu": [
        ("manifest.json", '"nvidia.com/gpu":"4"'), ("manifest.json", '"command":["vllm"]'),
        ("manifest.json", '"terminationGracePeriodSeconds":120'),
    ],
    "kubernetes-dynamo-single-gpu": [
        ("manifest.json", '"kind":"DynamoGraphDeployment"'), ("manifest.json", '"backendFramework":"vllm"'),
        ("manifest.json", '"runtimeVersionOverride":"1.4.0"'), ("manifest.json", '"DYN_ROUTER_MODE","value":"kv"'),
        ("manifest.json", '"secretRef":{"name":"huggingface-models"}'), ("manifest.json", '"nvidia.com/gpu":"1"'),
    ],
    "kubernetes-dynamo-multi-gpu": [("manifest.json", '"--tensor-parallel-size","2"'), ("manifest.json", '"nvidia.com/gpu":"2"')],
    "runpod-serverless-single-gpu": [
        ("create-endpoint.json", '"workersMin":0'), ("create-endpoint.json", '"workersMax":4'),
        ("create-endpoint.json", '"minCudaVersion":"13.0"'), ("create-endpoint.json", '"gpuTypeIds":["NVIDIA L40S"]'),
    ],
    "runpod-serverless-multi-gpu": [("error.json", "serverless compute currently requires resources.gpu_count 1")],
    "runpod-pods-single-gpu": [("create-pod.json", '"gpuCount":1'), ("create-pod.json", '"dockerEntrypoint":["vllm"]')],
    "runpod-pods-multi-gpu": [
        ("create-pod.json", '"gpuCount":4'), ("create-pod.json", '"gpuTypeIds":["NVIDIA H200"]'),
        ("create-pod.json", '"VLLM_API_KEY":"worker-secret"'), ("replica.json", '"resource_id":"infercrane-custom-runpod-r0"'),
    ],
}


@pytest.mark.parametrize("name", sorted(EVIDENCE))
def test_golden_carries_upstream_evidence(name: str) -> None:
    directory = _goldens.GOLDEN / name
    for filename, needle in EVIDENCE[name]:
        text = _golden_text(directory, filename)
        assert needle in text, (filename, needle)


@pytest.mark.parametrize(("secret", "ok"), [("x", True), ("hf_T-1", True), ("a" * 128, True), ("a" * 129, False),
                                            ("bad.name", False), ("é", False)])
def test_runpod_pods_hf_secret_name_bounds(reference: Path, secret: str, ok: bool) -> None:
    """Upstream ``validRunPodIdentifier`` (runpod_pods.go): 1 to 128 ASCII letters, digits, ``-`` or ``_``;
    the secret is referenced as ``{{ RUNPOD_SECRET_<name> }}``, anything else is an invalid replica spec."""
    import yaml

    from dynamo_schema._infercrane import compile_replica

    case = yaml.safe_load((reference / "cases" / "runpod-04-pods-create-request.yaml").read_text())
    replica = Replica.from_spec(yaml.safe_load(case["spec"]), case["replica"])
    settings = ProviderSettings.for_adapter("runpod-pods", {**case["provider_config"], "HFTokenSecret": secret})
    if not ok:
        with pytest.raises(AdapterError, match="RunPod Hugging Face secret name is invalid"):
            compile_replica(replica, settings, "runpod-pods", None)
        return
    body = next(a for a in compile_replica(replica, settings, "runpod-pods", None) if a.name == "create-pod-body.json")
    assert json.loads(body.content)["env"]["HF_TOKEN"] == "{{ RUNPOD_SECRET_" + secret + " }}"


# Expected values: infercrane/infercrane internal/config/config.go, ``validateRunPod`` (the HF token secret and
# every network volume ID must pass ``validRunPodResourceID``, with the message "INFERCRANE_RUNPOD_HF_TOKEN_SECRET
# must be a valid RunPod secret name" / "RunPod network volume mappings require immutable model identities and
# valid volume IDs") and ``validRunPodResourceID`` (4 to 128 ASCII letters, digits, ``-`` or ``_``). The
# control-plane settings are stricter than the RunPod Pods adapter's ``validRunPodIdentifier`` (1 to 128, the
# test above): upstream has the two rules, and so do we.
_RUNPOD_IDS = [("a", False), ("abc", False), ("abcd", True), ("a" * 128, True), ("a" * 129, False),
               ("hf_T-1", True), ("AZaz09-_", True), ("bad.name", False), ("has space", False),
               ("éabc", False), ("abc/", False), ("{{unsafe}}", False)]


@pytest.mark.parametrize(("value", "ok"), _RUNPOD_IDS)
def test_settings_runpod_hf_secret_name_bounds(value: str, ok: bool) -> None:
    env = {"INFERCRANE_RUNPOD_HF_TOKEN_SECRET": value}
    if ok:
        assert ProviderSettings.from_env(env).config["RunPodHFTokenSecret"] == value
        return
    with pytest.raises(SettingsError, match="^INFERCRANE_RUNPOD_HF_TOKEN_SECRET must be a valid RunPod secret name$"):
        ProviderSettings.from_env(env)


@pytest.mark.parametrize(("value", "ok"), _RUNPOD_IDS)
def test_settings_runpod_network_volume_id_bounds(value: str, ok: bool) -> None:
    identity = "org/model@" + "0123456789abcdef" * 2 + "01234567"
    env = {"INFERCRANE_RUNPOD_NETWORK_VOLUMES_JSON": json.dumps({identity: value})}
    if ok:
        assert ProviderSettings.from_env(env).config["RunPodNetworkVolumes"] == {identity: value}
        return
    with pytest.raises(SettingsError, match="^RunPod network volume mappings require immutable model identities"):
        ProviderSettings.from_env(env)


def test_gcp_zone_letter_runs_from_a_to_z() -> None:  # mutant ca9799bc1031
    """A GCP zone is ``<region>-<letter>`` with one lowercase letter a..z (Compute Engine zone names); the
    region is what precedes the last '-'."""
    from dynamo_schema._infercrane.adapters._gcp_compute import _region_from_zone

    assert _region_from_zone("europe-west4-a") == "europe-west4"
    assert _region_from_zone("us-central1-z") == "us-central1"
    assert _region_from_zone("us-central1-{") is None and _region_from_zone("us-central1-A") is None
    assert _region_from_zone("us-central1-ab") is None
