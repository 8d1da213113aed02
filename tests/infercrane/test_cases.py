"""Walk every InferCrane reference case (``../shared/reference/infercrane/cases``) and honour its keys.

Stages: ``load`` (loader), ``validate`` (workload / serving topology alone), ``compile`` (adapter
request or manifests), ``render-part`` (one rendered piece), ``preflight`` (adapter configuration check)
and ``config`` (settings read from ``INFERCRANE_*`` variables). Expected values are the upstream test
assertions copied into the case files; nothing here is derived from our own output.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._infercrane import (
    AdapterError,
    ProviderSettings,
    Replica,
    SettingsError,
    SpecError,
    compile_replica,
    load_spec,
    preflight,
    render_part,
    validate_serving,
    validate_spec,
    validate_workload,
)
from dynamo_schema._infercrane import _contracts as c

from .conftest import REFERENCE, sh_syntax_ok

CASES = sorted((REFERENCE / "cases").glob("*.yaml")) if (REFERENCE / "cases").is_dir() else []

#: Cases that are out of scope, with the reason.
OUT_OF_SCOPE: dict[str, str] = {}

#: ``expect.artifact`` description -> rendered artifact name (compile) or part name (render-part).
ARTIFACTS = {
    "SkyPilot task YAML passed to sky launch": "task.yaml",
    "user data script (--user-data argument)": "user-data.sh",
    "JSON of the applied objects (Deployment and Service, or InferenceService)": "manifest.json",
    "JSON of the applied objects": "manifest.json",
}
PARTS = {
    "run command of the SkyPilot task (no runtime args)": "run-command",
    "startup script (workload not validated in this test)": "startup-script",
    "startup script": "startup-script",
}


def _load_case(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


def _spec(case: dict[str, Any]) -> Any:
    return None if case.get("spec") is None else yaml.safe_load(case["spec"])


def _get(node: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict):
            lowered = {str(k).lower(): k for k in node}
            key = part if part in node else lowered.get(part.lower(), part)
            node = node[key]
        else:
            raise KeyError(dotted)
    return node


def _check_error(case: dict[str, Any], messages: list[str]) -> None:
    assert messages, f"expected an error, got none ({case['source']})"
    if "error_contains" in case:
        assert any(case["error_contains"] in m for m in messages), (case["error_contains"], messages)


def _check_text(expect: dict[str, Any], text: str) -> None:
    for needle in expect.get("output_contains", []):
        assert needle in text, needle
    for needle in expect.get("output_not_contains", []):
        assert needle not in text, needle
    order = expect.get("output_order", [])
    positions = [text.index(n) for n in order]
    assert positions == sorted(positions), order
    if expect.get("output_valid_posix_sh"):
        ok, err = sh_syntax_ok(text)
        assert ok, err


# ----------------------------------------------------------------------------------------------- stages
def _stage_load(case: dict[str, Any]) -> None:
    data = _spec(case)
    expect = case.get("expect") or {}
    diags = validate_spec(data)
    if "error_contains" in case or case.get("expect_error"):
        _check_error(case, [d.message for d in diags])
        with pytest.raises(SpecError) as info:
            load_spec(data)
        normalized = info.value.partial
    else:
        assert not diags, [d.message for d in diags]
        normalized = load_spec(data)
    if expect.get("valid"):
        assert not diags
    assert normalized is not None
    for dotted, value in (expect.get("fields") or {}).items():
        assert normalized.get(dotted) == value, dotted
    for dotted in expect.get("fields_nonempty") or []:
        assert normalized.get(dotted), dotted
    for dotted, value in (expect.get("fields_not_equal") or {}).items():
        assert normalized.get(dotted) != value, dotted


def _stage_validate(case: dict[str, Any]) -> None:
    data = _spec(case)
    expect = case.get("expect") or {}
    if "serving" in data:
        serving = data["serving"]
        diags = validate_serving(
            serving,
            data["runtime"]["engine"],
            data["provider"]["cloud"],
            data["provider"].get("adapter", ""),
            data["scaling"]["min_replicas"],
            data["scaling"]["max_replicas"],
        )
    else:
        diags = validate_workload(data["runtime"]["workload"])
    if "error_contains" in case or case.get("expect_error"):
        _check_error(case, [d.message for d in diags])
        return
    assert not diags, [d.message for d in diags]
    if expect.get("digest_nonempty"):
        assert c.topology_digest(data["serving"]).startswith("sha256:")
    if expect.get("digest_stable_under_normalize"):
        assert c.topology_digest(data["serving"]) == c.topology_digest(c.topology_normalize(data["serving"]))


def _artifact(artifacts: list[Any], name: str) -> Any:
    for item in artifacts:
        if item.name == name:
            return item
    raise AssertionError(f"no artifact {name}: {[a.name for a in artifacts]}")


def _aws_args(artifacts: list[Any]) -> list[str]:
    return list(_artifact(artifacts, "run-instances").content["requests"][0]["args"])


def _arg_after(args: list[str], flag: str) -> str:
    return args[args.index(flag) + 1]


def _stage_compile(case: dict[str, Any]) -> None:
    adapter = case["adapter"]
    expect = case.get("expect") or {}
    replica = Replica.from_spec(_spec(case) or {}, case.get("replica") or {})
    settings = ProviderSettings.for_adapter(adapter, case.get("provider_config") or {})
    state = case.get("provider_state")
    if "error_contains" in case or case.get("expect_error"):
        with pytest.raises(AdapterError) as info:
            compile_replica(replica, settings, adapter, state)
        _check_error(case, [str(info.value)] + [d.message for d in info.value.diagnostics])
        # no_provider_mutation / no_provider_calls / object_count 0: compilation stopped with an error.
        return
    artifacts = compile_replica(replica, settings, adapter, state)
    if "artifact" in expect:
        text = _artifact(artifacts, ARTIFACTS[expect["artifact"]]).content
        _check_text(expect, text)
    if "object_count" in expect:
        objects = [a for a in artifacts if a.kind == "object" and "/" in a.name]
        assert len(objects) == expect["object_count"]
    ident = _artifact(artifacts, "replica").content
    if "resource_id" in expect:
        assert ident["resource_id"] == expect["resource_id"]
    if "resource_id_contains" in expect:
        assert expect["resource_id_contains"] in ident["resource_id"]
    if "endpoint_contains" in expect:
        assert expect["endpoint_contains"] in ident["endpoint_when_ready"]
    if "args_contain" in expect or "args_not_contain" in expect:
        if adapter == "gcp-compute":
            args = _artifact(artifacts, "instances-create").content["args"]
        else:
            args = _aws_args(artifacts)
        joined = ("\n" if expect.get("args_joined_with") == "newline" else " ").join(args)
        for needle in expect.get("args_contain", []):
            assert needle in joined, needle
        for needle in expect.get("args_not_contain", []):
            assert needle not in joined, needle
    if adapter == "aws-ec2" and ("tags" in expect or "tag_resource_types" in expect or "block_device_mappings_entry" in expect):
        args = _aws_args(artifacts)
        specs = json.loads(_arg_after(args, "--tag-specifications"))
        if "tag_resource_types" in expect:
            assert [s["ResourceType"] for s in specs] == expect["tag_resource_types"]
        for key, value in (expect.get("tags") or {}).items():
            instance = {t["Key"]: t["Value"] for t in specs[0]["Tags"]}
            assert instance.get(key) == value, key
        entry = expect.get("block_device_mappings_entry")
        if entry:
            devices = json.loads(_arg_after(args, "--block-device-mappings"))
            match = [d for d in devices if d["DeviceName"] == entry["DeviceName"]]
            assert match, devices
            for key, value in entry["Ebs"].items():
                assert match[0]["Ebs"][key] == value, key
    if "request" in expect:
        method, path = expect["request"].split(" ", 1)
        requests = [a.content for a in artifacts if a.kind == "object" and a.content.get("method") == method
                    and a.content.get("path") == path]
        assert requests, expect["request"]
        body = requests[0]["body"]
        for dotted, value in (expect.get("json_fields") or {}).items():
            assert _get(body, dotted) == value, dotted
        for dotted in expect.get("json_fields_empty") or []:
            try:
                assert not _get(body, dotted), dotted
            except KeyError:
                pass
    if "list_query" in expect:
        listing = _artifact(artifacts, "list-pods").content
        assert listing["query"] == expect["list_query"]


def _stage_render_part(case: dict[str, Any]) -> None:
    expect = case["expect"]
    replica = Replica.from_spec(_spec(case) or {}, case.get("replica") or {})
    settings = ProviderSettings.for_adapter(case["adapter"], case.get("provider_config") or {})
    text = render_part(PARTS[expect["artifact"]], replica, settings, case["adapter"])
    _check_text(expect, text)


def _stage_preflight(case: dict[str, Any]) -> None:
    settings = ProviderSettings.for_adapter(case["adapter"], case.get("provider_config") or {})
    if "error_contains" in case or case.get("expect_error"):
        with pytest.raises(AdapterError) as info:
            preflight(case["adapter"], settings, case.get("provider_state"))
        _check_error(case, [str(info.value)])
    else:
        preflight(case["adapter"], settings, case.get("provider_state"))


def _stage_config(case: dict[str, Any]) -> None:
    environ = {k: str(v) for k, v in (case.get("provider_config") or {}).items()}
    expect = case.get("expect") or {}
    if "error_contains" in case or case.get("expect_error"):
        with pytest.raises(SettingsError) as info:
            ProviderSettings.from_env(environ)
        _check_error(case, [str(info.value)])
        return
    settings = ProviderSettings.from_env(environ)
    view = settings.config_view()
    for dotted, value in (expect.get("config_fields") or {}).items():
        actual = _get(view, dotted)
        if isinstance(value, dict):
            for k, v in value.items():
                assert actual[k] == v, (dotted, k)
        else:
            assert actual == value, dotted
    for flag, value in (expect.get("config_flags") or {}).items():
        assert settings.flags()[flag] is value, flag
    for dotted, length in (expect.get("config_lengths") or {}).items():
        assert len(_get(view, dotted)) == length, dotted


STAGES = {
    "load": _stage_load,
    "validate": _stage_validate,
    "compile": _stage_compile,
    "render-part": _stage_render_part,
    "preflight": _stage_preflight,
    "config": _stage_config,
}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    if path.stem in OUT_OF_SCOPE:
        pytest.skip(OUT_OF_SCOPE[path.stem])
    case = _load_case(path)
    STAGES[case["stage"]](case)


def test_all_cases_present(reference: Path) -> None:
    assert len(CASES) >= 100, len(CASES)
    assert {(_load_case(p))["stage"] for p in CASES} <= set(STAGES)


def test_examples_validate(reference: Path) -> None:
    examples = sorted((reference / "examples").glob("*.yaml"))
    assert len(examples) == 7
    for path in examples:
        data = yaml.safe_load(path.read_text())
        assert validate_spec(data) == [], path.name
        load_spec(data)


def test_shlex_roundtrip_of_quoted_argv() -> None:
    """The single-quote filter keeps hostile values one argv item (gcp-08 expectation, generalised)."""
    from dynamo_schema._infercrane._common import shell_quote

    for value in ["acme/model; touch /tmp/pwned", "it's", "$(id)", "a b", "", "'\"'"]:
        assert shlex.split(shell_quote(value)) == [value]


def test_aws_root_volume_defaults_to_200_gib_in_the_adapter(reference: Path) -> None:
    # ../shared/reference/infercrane/README.md (docs vs code): the docs say 100 GiB, the code and the config
    # default say 200 ("VolumeSize":200). A provider config without RootVolumeGiB (the upstream portable-
    # workload case's) reaches the adapter's own fallback, not the settings table's default.
    case = _load_case(reference / "cases" / "aws-01-portable-workload-user-data.yaml")
    assert "RootVolumeGiB" not in case["provider_config"]
    replica = Replica.from_spec(_spec(case), case["replica"])
    for config in (case["provider_config"], {**case["provider_config"], "RootVolumeGiB": 0}):
        settings = ProviderSettings.for_adapter("aws-ec2", config)
        artifacts = compile_replica(replica, settings, "aws-ec2", case.get("provider_state"))
        devices = json.loads(_arg_after(_aws_args(artifacts), "--block-device-mappings"))
        assert devices[0]["Ebs"]["VolumeSize"] == 200, devices


@pytest.mark.parametrize("rate,ok", [("0", True), ("100", True), ("300", True), ("99", False), ("301", False)])
def test_aws_artifact_volume_initialization_rate_bounds(reference: Path, rate: str, ok: bool) -> None:
    # upstream TestAWSArtifactSnapshotConfigurationIsExactAndBounded (case config-10 is its rate-99 step):
    # the rate is 0 (off) or between 100 and 300 MiB/s, both ends included
    case = _load_case(reference / "cases" / "config-10-aws-artifact-rate-99.yaml")
    var = "INFERCRANE_AWS_ARTIFACT_VOLUME_INITIALIZATION_RATE_MIBPS"
    environ = {**{k: str(v) for k, v in case["provider_config"].items()}, var: rate}
    if ok:
        ProviderSettings.from_env(environ)
    else:
        with pytest.raises(SettingsError, match=f"{var} must be 0 or between 100 and 300"):
            ProviderSettings.from_env(environ)


@pytest.mark.parametrize("length,ok", [(63, True), (64, False)])
def test_dynamo_model_secret_name_length_bound(reference: Path, length: int, ok: bool) -> None:
    # mutant 51cbf780f22a. Upstream TestDynamoConfigurationIsOptionalCompleteAndImmutable (case config-19 is its
    # Bad_Secret step): the secret name must be a Kubernetes DNS label, whose limit is 63 characters
    # (apimachinery validation.IsDNS1123Label, DNS1123LabelMaxLength = 63), 63 still valid
    case = _load_case(reference / "cases" / "config-19-dynamo-bad-secret-name.yaml")
    var = "INFERCRANE_DYNAMO_MODEL_SECRET_NAME"
    environ = {**{k: str(v) for k, v in case["provider_config"].items()}, var: "s" * length}
    if ok:
        ProviderSettings.from_env(environ)
    else:
        with pytest.raises(SettingsError, match=f"{var} must be a valid Kubernetes DNS label"):
            ProviderSettings.from_env(environ)
