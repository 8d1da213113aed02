"""The command line on bad input: exit codes of docs/cli.md (0 ok, 1 invalid input or refused operation,
2 usage or I/O error), located messages, never a traceback; and the review findings on settings, --old,
-j with stdin, default/convert, render names and output files."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._cli._main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-disagg.yaml"
REJECTED = ROOT / "examples" / "rejected-admission.yaml"
IC_CASE = ROOT / "golden" / "infercrane" / "kubernetes-single-gpu"

DGD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: NAME
spec:
  components:
    - name: worker
      type: TYPE
      replicas: 2
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""

# schema-valid v1alpha1, refused by the DGD webhook on the converted object (minAvailable needs Grove)
ALPHA_HOOK = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: demo
  annotations:
    nvidia.com/enable-grove: "false"
spec:
  backendFramework: vllm
  services:
    worker:
      componentType: worker
      minAvailable: 1
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""

ALPHA_MALFORMED = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: x
spec:
  services:
    a: 5
"""


def dgd(name: str = "upd", type_: str = "worker") -> str:
    return DGD.replace("NAME", name).replace("TYPE", type_)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    assert "Traceback" not in err.getvalue()
    return rc, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


# ---------------------------------------------------------------------------------------------- 1. crashes
@pytest.mark.parametrize("text, where", [("a: [\n", ":2:1: "), ("- a\n- b\n", ":1:1: "), ("hello\n", ":1:1: "),
                                         ("a: 1\na: 2\n", ":2:1: "),
                                         # two documents: located at the second one's first node (line 3,
                                         # column 3); mutant c891bda0274c (start[1] -> start[2])
                                         ("a: 1\n---\n  b: 2\n", ":3:3: ")])
def test_bad_settings_file_is_a_located_usage_error(tmp_path: Path, text: str, where: str) -> None:
    settings = write(tmp_path, "settings.yaml", text)
    rc, out, err = run("validate", "--settings", settings, str(EXAMPLE))
    assert rc == 2 and out == ""
    assert err.startswith("error: ") and settings + where in err


def test_bad_set_value_is_a_usage_error() -> None:
    rc, _, err = run("validate", "--set", "k=[", str(EXAMPLE))
    assert rc == 2 and err.startswith("error: --set k: ")


def test_unknown_setting_is_a_usage_error() -> None:
    rc, _, err = run("validate", "--set", "no_such_setting=1", str(EXAMPLE))
    assert rc == 2 and "unknown admission setting" in err


@pytest.mark.parametrize("text", ["a: [\n", "- a\n- b\n", "just a string\n"])
def test_bad_provider_config_is_a_usage_error(tmp_path: Path, text: str) -> None:
    config = write(tmp_path, "provider.yaml", text)
    rc, out, err = run("render", "--provider-config", config, str(IC_CASE / "spec.yaml"))
    assert rc == 2 and out == ""
    assert err.startswith("error: invalid provider config " + config)


def test_unknown_provider_setting_is_a_located_usage_error(tmp_path: Path) -> None:
    config = write(tmp_path, "provider.yaml", "# settings\nINFERCRANE_NOPE: 1\n")
    rc, out, err = run("render", "--provider-config", config, str(IC_CASE / "spec.yaml"))
    assert (rc, out) == (2, "")
    assert err == f'error: {config}:2:1: unknown provider setting "INFERCRANE_NOPE"\n'


@pytest.mark.parametrize("version", ["abc", "1.32", "1.32.0.1", "x1.2.3"])
def test_malformed_kubernetes_version_is_a_usage_error(version: str) -> None:
    rc, out, err = run("validate", "--kubernetes-version", version, str(EXAMPLE))
    assert rc == 2 and out == "" and "expected X.Y.Z" in err


def test_kubernetes_version_older_than_every_bundled_schema_is_a_usage_error(tmp_path: Path) -> None:
    # a ConfigMap with a wrong type: with schemas it is invalid, without them it would be "skipped"
    cm = write(tmp_path, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata: 5\n")
    assert run("validate", "--kubernetes-version", "1.30.0", cm)[0] == 1
    rc, out, err = run("validate", "--kubernetes-version", "1.1.0", cm)
    assert rc == 2 and out == "" and "oldest bundled release" in err


def test_duplicate_key_and_non_string_api_version_do_not_crash(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.yaml", "apiVersion: 5\nkind: Foo\nkind: Bar\n")
    rc, out, _ = run("validate", "-o", "json", path)
    assert rc == 1
    (res,) = json.loads(out)["resources"]
    assert res["status"] == "error" and res["version"] == ""
    assert [e["rule"] for e in res["errors"]] == ["load.duplicate-key"]


@pytest.mark.parametrize("value, go_type", [("5", "number"), ("[a]", "array"), ("true", "bool")])
def test_non_string_api_version_is_reported(tmp_path: Path, value: str, go_type: str) -> None:
    path = write(tmp_path, "x.yaml", f"apiVersion: {value}\nkind: Foo\nmetadata:\n  name: x\n")
    rc, out, _ = run("validate", path)
    assert rc == 1
    assert out == (f"{path}:1:1: Foo/x: apiVersion: json: cannot unmarshal {go_type} into Go struct field "
                   "TypeMeta.apiVersion of type string [load.type-meta]\n")


@pytest.mark.parametrize("command", ["render", "convert"])
def test_malformed_v1alpha1_is_refused_before_conversion(tmp_path: Path, command: str) -> None:
    path = write(tmp_path, "alpha.yaml", ALPHA_MALFORMED)
    rc, out, err = run(command, path)
    assert rc == 1 and out == ""
    assert f"{path}:7:5: " in err
    assert "spec.services.a in body must be of type object" in err and "[schema.type]" in err


def test_render_into_a_folder_holding_an_escaping_symlink_is_refused(tmp_path: Path) -> None:
    first = tmp_path / "first"
    assert run("render", "--target", "kubernetes", "-o", str(first), str(EXAMPLE))[0] == 0
    name = sorted(p.name for p in first.iterdir())[0]
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside.yaml"
    outside.write_text("untouched\n")
    (out / name).symlink_to(outside)
    rc, _, err = run("render", "--target", "kubernetes", "--out", str(out), str(EXAMPLE))
    assert rc == 2 and err.startswith("error: refusing to write outside")
    assert outside.read_text() == "untouched\n"


def test_unexpected_exception_is_an_internal_error_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from dynamo_schema._cli import _main as _cli

    def boom(*_: Any) -> int:
        raise RuntimeError("boom")

    monkeypatch.setitem(_cli.COMMANDS, "explain", boom)
    rc, out, err = run("explain", "DynamoGraphDeployment")
    assert (rc, out) == (2, "")
    assert err == "error: internal error: RuntimeError: boom (run with --debug for a traceback)\n"
    with pytest.raises(RuntimeError):
        main(["--debug", "explain", "DynamoGraphDeployment"], stdout=io.StringIO(), stderr=io.StringIO())


def test_broken_pipe_is_not_reported_as_an_io_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from dynamo_schema._cli import _main as _cli

    def closed(*_: Any) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setitem(_cli.COMMANDS, "explain", closed)
    rc, _, err = run("explain", "DynamoGraphDeployment")
    assert (rc, err) == (0, "")


# ---------------------------------------------------------------------------------------------- 2. -j and stdin
def test_parallel_validate_reads_stdin(tmp_path: Path) -> None:
    other = write(tmp_path, "ok.yaml", dgd("ok"))
    proc = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", "-j", "2", "-o", "json", "-", other],
                          input=dgd("bad", "nonsense"), capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    resources = json.loads(proc.stdout)["resources"]
    assert [(r["name"], r["status"]) for r in resources] == [("bad", "invalid"), ("ok", "valid")]


# ---------------------------------------------------------------------------------------------- 3. default
def test_default_of_a_refused_object_prints_nothing_and_fails() -> None:
    rc, out, err = run("default", str(REJECTED))
    assert rc == 1 and out == ""
    # the same lines as `validate` (one formatter), KIND/NAME included
    _, expected, _ = run("validate", str(REJECTED))
    assert err == expected
    assert (f"{REJECTED}:14:7: DynamoGraphDeployment/demo: spec.components[0].minAvailable: Forbidden: is "
            "currently supported only for Grove-backed DynamoGraphDeployment components [dgd.min-available-grove]\n"
            ) in err


def test_default_of_an_admitted_object_prints_it() -> None:
    rc, out, err = run("default", str(EXAMPLE))
    assert rc == 0, err
    (stored,) = [d for d in yaml.safe_load_all(out)]
    assert stored["metadata"]["annotations"]["nvidia.com/workload-provider"] == "grove"


# ---------------------------------------------------------------------------------------------- 4. convert
def test_convert_validates_its_input(tmp_path: Path) -> None:
    path = write(tmp_path, "alpha.yaml", ALPHA_HOOK.replace("      minAvailable: 1\n", "      replicaz: 1\n"))
    rc, out, err = run("convert", path)
    assert rc == 1 and out == ""
    assert f"{path}:12:7: DynamoGraphDeployment/demo: " in err and "[schema.unknown-field]" in err


def test_convert_keeps_key_order_as_documented(tmp_path: Path) -> None:
    path = write(tmp_path, "alpha.yaml", ALPHA_HOOK.replace('"false"', '"true"'))
    rc, out, err = run("convert", path)
    assert rc == 0, err
    (doc,) = yaml.safe_load_all(out)
    assert list(doc) == ["apiVersion", "kind", "metadata", "spec"]
    assert doc["apiVersion"] == "nvidia.com/v1beta1"
    assert [c["name"] for c in doc["spec"]["components"]] == ["worker"]
    cli = (ROOT / "docs" / "cli.md").read_text()
    assert "keeping comments and order" in cli


# ---------------------------------------------------------------------------------------------- 5. settings reach rendering
def _kinds(out: str) -> list[str]:
    return [d["kind"] for d in yaml.safe_load_all(out)]


def test_grove_off_renders_the_kubernetes_pathway() -> None:
    # admission.md §2.2: the workload provider is "component" when the Grove gate is off
    rc, out, err = run("render", "--set", "grove_enabled=false", str(EXAMPLE))
    assert rc == 0, err
    kinds = _kinds(out)
    assert "PodCliqueSet" not in kinds and kinds.count("Deployment") == 3
    rc, out, _ = run("render", str(EXAMPLE))
    assert rc == 0 and "PodCliqueSet" in _kinds(out)


def test_explicit_target_wins_over_the_grove_setting() -> None:
    rc, out, err = run("render", "--set", "grove_enabled=false", "--target", "grove", str(EXAMPLE))
    assert rc == 0, err
    assert "PodCliqueSet" in _kinds(out)


def test_discovery_backend_setting_reaches_rendering() -> None:
    # rendering.md §2: the Kubernetes-discovery ServiceAccount exists only with Kubernetes discovery
    name = "llama-disagg-k8s-service-discovery"
    rc, out, _ = run("render", "--target", "kubernetes", str(EXAMPLE))
    assert rc == 0 and name in [d["metadata"]["name"] for d in yaml.safe_load_all(out)]
    rc, out, err = run("render", "--target", "kubernetes", "--set", "discovery_backend=etcd", str(EXAMPLE))
    assert rc == 0, err
    assert name not in [d["metadata"]["name"] for d in yaml.safe_load_all(out)]


def test_operator_version_is_one_knob() -> None:
    # admission.md §2.2: the origin-version annotation is stamped at admission; rendering carries it
    rc, out, err = run("render", "--target", "grove", "--operator-version", "1.4.0", str(EXAMPLE))
    assert rc == 0, err
    found: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "nvidia.com/dynamo-operator-origin-version":
                    found.append(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(list(yaml.safe_load_all(out)))
    assert found and set(found) == {"1.4.0"}


def test_malformed_operator_version_is_a_usage_error() -> None:
    rc, _, err = run("render", "--operator-version", "latest", str(EXAMPLE))
    assert rc == 2 and "--operator-version" in err


# ---------------------------------------------------------------------------------------------- 6. v1alpha1 paths
def test_v1alpha1_webhook_diagnostic_points_at_the_service(tmp_path: Path) -> None:
    path = write(tmp_path, "alpha.yaml", ALPHA_HOOK)
    rc, out, _ = run("validate", path)
    assert rc == 1
    assert out == (f"{path}:12:7: DynamoGraphDeployment/demo: spec.services.worker.minAvailable: Forbidden: is "
                   "currently supported only for Grove-backed DynamoGraphDeployment components "
                   "[dgd.min-available-grove]\n")


def test_alpha_path_stops_at_the_service_for_v1beta1_only_fields() -> None:
    from dynamo_schema._pipeline._validate import alpha_path

    alpha = yaml.safe_load(ALPHA_HOOK)
    beta = {"spec": {"components": [{"name": "worker"}]}}
    assert alpha_path(("spec", "components", 0, "minAvailable"), alpha, beta) == \
        (("spec", "services", "worker", "minAvailable"), True)
    assert alpha_path(("spec", "components", 0, "podTemplate", "spec"), alpha, beta) == \
        (("spec", "services", "worker"), False)
    assert alpha_path(("metadata", "annotations"), alpha, beta) == (("metadata", "annotations"), True)


def test_alpha_path_keeps_the_components_list_itself() -> None:
    """A path naming the whole ``spec.components`` list (the update rule dgd.components-immutable gives
    one) has no component index to map: alpha_path's docstring, "other paths are kept". # mutant 2b33b2973015"""
    from dynamo_schema._pipeline._validate import alpha_path

    alpha = yaml.safe_load(ALPHA_HOOK)
    beta = {"spec": {"components": [{"name": "worker"}]}}
    assert alpha_path(("spec", "components"), alpha, beta) == (("spec", "components"), True)


# ---------------------------------------------------------------------------------------------- 7. --old pairing
def test_old_objects_are_paired_by_identity(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", dgd("a") + "---\n" + dgd("b", "prefill"))
    restart = dgd("c").replace("spec:\n  components:", "spec:\n  restart:\n    id: r1\n  components:", 1)
    new = write(tmp_path, "new.yaml", dgd("b", "prefill") + "---\n" + restart)
    rc, out, _ = run("validate", "-o", "json", "--old", old, new)
    assert rc == 1
    res = {r["name"]: r for r in json.loads(out)["resources"]}
    assert res["b"]["status"] == "valid", res["b"]  # b is compared with old b, not with old a
    # c has no old partner: it is a create, where spec.restart must be unset
    assert res["c"]["status"] == "invalid"
    assert any("spec.restart must be unset on create" in e["message"] for e in res["c"]["errors"])


# ---------------------------------------------------------------------------------------------- 8. kind as a file name
def test_kind_cannot_point_validation_at_another_file(tmp_path: Path) -> None:
    from dynamo_schema._k8s import _builtin_kinds as _k8s_schemas

    assert _k8s_schemas._kind_file("v1", "../v1.25.0-local-strict/configmap") is None
    assert _k8s_schemas._kind_file("apps/../v1", "Deployment") is None
    assert _k8s_schemas._kind_file("apps/v1", "Deployment") == "deployment-apps-v1.json"
    path = write(tmp_path, "x.yaml", "apiVersion: v1\nkind: ../v1.25.0-local-strict/configmap\n"
                                     "metadata:\n  name: x\ndata: 5\n")
    rc, out, _ = run("validate", "-o", "json", path)
    assert rc == 0 and json.loads(out)["resources"][0]["status"] == "skipped"


# ---------------------------------------------------------------------------------------------- 9. file modes
def test_rendered_files_get_the_umask_default_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        assert run("render", "--target", "kubernetes", "-o", str(tmp_path / "out"), str(EXAMPLE))[0] == 0
    finally:
        os.umask(old)
    modes = {p.stat().st_mode & 0o777 for p in (tmp_path / "out").iterdir()}
    assert modes == {0o644}


# ---------------------------------------------------------------------------------------------- 10. names
@pytest.mark.parametrize("namespace", ["Default", "a_b", "a.b", "-a", "x" * 64])
def test_namespace_must_be_a_dns1123_label(namespace: str) -> None:
    rc, out, err = run("render", f"--namespace={namespace}", str(EXAMPLE))
    assert rc == 2 and out == "" and err.startswith("error: --namespace: Invalid value")


def test_render_refuses_a_service_name_longer_than_63(tmp_path: Path) -> None:
    # rendering.md §2: the Grove component Service is <dgd>-<component>: 57 + 7 = 64 characters
    name = "a" * 57
    path = write(tmp_path, "long.yaml", dgd(name))
    rc, out, err = run("render", "--target", "grove", path)
    assert rc == 1 and out == ""
    svc = name + "-worker"
    assert (f'rendered Service/{svc}: metadata.name: Invalid value: "{svc}": must be no more than 63 '
            "characters [render.invalid-name]") in err


def test_render_refuses_a_label_value_longer_than_63(tmp_path: Path) -> None:
    path = write(tmp_path, "mid.yaml", dgd("b" * 30 + "-" + "c" * 20))
    rc, out, err = run("render", "--target", "kubernetes", path)
    assert rc == 1 and out == ""
    assert "(label nvidia.com/selector): spec.selector.matchLabels: Invalid value: " in err
    # the API server's label-value text from Kubernetes 1.35 on (the reference's 1.36 libraries: "bytes", D59)
    assert ": must be no more than 63 bytes [render.invalid-label-value]" in err


def test_long_dynamo_namespace_is_warned_about(tmp_path: Path) -> None:
    # rendering.md §3.4: warn when <namespace>-<dgd name> is longer than 63 characters
    path = write(tmp_path, "x.yaml", dgd("g"))
    ns = "n" * 62
    _, _, err = run("render", "--namespace", ns, path)
    assert f'warning: {path}: Dynamo namespace "{ns}-g" is 64 characters long' in err


def test_name_rules_follow_apimachinery() -> None:
    from dynamo_schema._k8s._names import dns1035_label_errors, dns1123_subdomain_errors, label_value_errors

    assert dns1123_subdomain_errors("a.b-c") == [] and dns1035_label_errors("a-1") == []
    assert label_value_errors("") == [] and label_value_errors("My_Value.1") == []
    assert dns1035_label_errors("1a") == [
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
        "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
        "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]
    assert label_value_errors("-x") == [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
        "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
        "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]


def test_several_unknown_provider_settings_name_the_first_and_count_the_rest(tmp_path: Path) -> None:
    config = write(tmp_path, "provider.yaml", "INFERCRANE_NOPE: 1\nINFERCRANE_NOPE2: 2\nINFERCRANE_NOPE3: 3\n")
    rc, out, err = run("render", "--provider-config", config, str(IC_CASE / "spec.yaml"))
    assert (rc, out) == (2, "")
    assert err == f'error: {config}:1:1: unknown provider setting "INFERCRANE_NOPE" (and 2 more)\n'


def test_render_refuses_more_nodes_than_its_bound_located(tmp_path: Path) -> None:  # mutant def2df80f9cc
    # docs/decisions.md D12: render builds objects per node rank, so it refuses a nodeCount above 1,024 (work
    # proportional to the input, not to a number in it); validate has no such bound
    from dynamo_schema._cli._main import main

    f = tmp_path / "dgd.yaml"
    f.write_text("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: big\nspec:\n"
                 "  backendFramework: vllm\n  components:\n    - name: worker\n      type: worker\n"
                 "      multinode:\n        nodeCount: 1025\n      podTemplate:\n        spec:\n          containers:\n"
                 "            - name: main\n              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["render", "--target", "grove", str(f)], stdout=out, stderr=err) == 1
    assert out.getvalue() == ""
    assert err.getvalue() == (
        f"{f}:11:9: DynamoGraphDeployment/big: spec.components[0].multinode.nodeCount: Invalid value: 1025: render "
        "supports at most 1024 nodes per component (the operator would create objects for every node rank) "
        "[render.too-many-nodes]\n")
