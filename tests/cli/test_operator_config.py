"""``--operator-config FILE``: the operator's ``OperatorConfiguration`` file (upstream ``api/config/v1alpha1``,
read by ``cmd/main.go`` ``LoadAndValidateOperatorConfig``) decides the cluster state admission reads and what
``render`` creates (docs/cli.md). Expected values: Go's ``time.Duration.String`` (``30m`` is ``30m0s``), the
Go JSON decoder's and ``field.NotSupported``'s message formats, the upstream field names and defaults."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._cli._main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "vllm-disagg.yaml")
HEAD = "apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\n"
FULL = HEAD + """\
orchestrators:
  grove:
    enabled: true
    terminationDelay: 30m
  kaiScheduler: {}
infrastructure:
  natsAddress: nats://nats.dynamo:4222
ingress:
  controllerClassName: nginx
  hostSuffix: example.com
discovery:
  backend: kubernetes
mpi:
  sshSecretName: my-ssh
  sshSecretNamespace: dynamo
leaderElection:
  enabled: false
someFieldOfALaterRelease: ignored
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def config(tmp_path: Path, text: str) -> str:
    f = tmp_path / "operator-config.yaml"
    f.write_text(text)
    return str(f)


def objects(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d]


def test_render_takes_the_rendering_settings_of_the_operator_config(tmp_path: Path) -> None:
    rc, out, err = run("render", "--target", "grove", "--operator-config", config(tmp_path, FULL), EXAMPLE)
    assert rc == 0, err
    objs = objects(out)
    pcs = next(o for o in objs if o["kind"] == "PodCliqueSet")
    assert pcs["spec"]["template"]["terminationDelay"] == "30m0s"  # time.Duration.String of 30m
    envs = [e for c in pcs["spec"]["template"]["cliques"] for e in c["spec"]["podSpec"]["containers"][0]["env"]]
    assert {e.get("value") for e in envs if e["name"] == "NATS_SERVER"} == {"nats://nats.dynamo:4222"}
    ingress = next(o for o in objs if o["kind"] == "Ingress")
    assert ingress["spec"]["ingressClassName"] == "nginx"
    assert [r["host"] for r in ingress["spec"]["rules"]] == ["llama-disagg.example.com"]
    # the same render through the library's options
    from dynamo_schema._pipeline._render_object import render_object

    lib = render_object(yaml.safe_load(Path(EXAMPLE).read_text()), target="grove", options={
        "grove_termination_delay": "30m0s", "nats_address": "nats://nats.dynamo:4222",
        "ingress_controller_class_name": "nginx", "ingress_host_suffix": "example.com",
        "mpi_ssh_secret_name": "my-ssh"})
    assert objs == lib


def test_without_the_file_nothing_changes(tmp_path: Path) -> None:
    empty = config(tmp_path, HEAD)
    assert run("render", "--target", "grove", "--operator-config", empty, EXAMPLE)[1] == \
        run("render", "--target", "grove", EXAMPLE)[1]


def test_keys_the_operator_does_not_know_are_ignored_whatever_their_value(tmp_path: Path) -> None:
    # the universal decoder is not strict: a top-level `grove` or an `orchestrators.dra` is no field of
    # OperatorConfiguration / OrchestratorConfiguration, so its value is never decoded
    odd = config(tmp_path, HEAD + "grove: 5\norchestrators:\n  dra: [1]\n")
    assert run("render", "--target", "grove", "--operator-config", odd, EXAMPLE)[:2] == \
        run("render", "--target", "grove", EXAMPLE)[:2]


def test_the_grove_gate_of_the_file_decides_admission_and_set_wins(tmp_path: Path) -> None:
    f = tmp_path / "dgd.yaml"
    f.write_text((ROOT / "examples" / "rejected-admission.yaml").read_text()
                 .replace('    nvidia.com/enable-grove: "false"\n', ""))
    off = config(tmp_path, HEAD + "orchestrators:\n  grove:\n    enabled: false\n")
    rules = lambda *a: {ln.rsplit("[", 1)[1].rstrip("]") for ln in run("validate", *a, str(f))[1].splitlines()}  # noqa: E731
    # Grove gate off: every DGD takes the component pathway, where minAvailable is refused
    assert "dgd.min-available-grove" in rules("--operator-config", off)
    assert "dgd.min-available-grove" not in rules()
    assert "dgd.min-available-grove" not in rules("--operator-config", off, "--set", "grove_enabled=true")


@pytest.mark.parametrize(("text", "where", "message"), [
    (HEAD + "orchestrators:\n  grove:\n    enabled: \"yes\"\n", "5:5",
     "json: cannot unmarshal string into Go struct field GroveConfiguration.orchestrators.grove.enabled of type bool"),
    (HEAD + "orchestrators: [1]\n", "3:1",
     "json: cannot unmarshal array into Go struct field OperatorConfiguration.orchestrators of type "
     "v1alpha1.OrchestratorConfiguration"),
    (HEAD + "discovery:\n  backend: consul\n", "4:3",
     'discovery.backend: Unsupported value: "consul": supported values: "kubernetes", "etcd"'),
    (HEAD + "orchestrators:\n  grove:\n    terminationDelay: 5 minutes\n", "5:5",
     'time: invalid duration "5 minutes"'),
    (HEAD + "orchestrators:\n  grove:\n    terminationDelay: -5m\n", "5:5",
     "orchestrators.grove.terminationDelay: Invalid value: -5m0s: must not be negative"),
    ("apiVersion: v1\nkind: ConfigMap\n", "2:1",
     "operator config must be apiVersion: operator.config.dynamo.nvidia.com/v1alpha1, kind: OperatorConfiguration "
     "(found apiVersion 'v1', kind 'ConfigMap')"),
])
@pytest.mark.parametrize("command", ["render", "validate", "default"])
def test_a_config_the_operator_refuses_is_a_located_usage_error(tmp_path: Path, text: str, where: str,
                                                                message: str, command: str) -> None:
    path = config(tmp_path, text)
    rc, out, err = run(command, "--operator-config", path, EXAMPLE)
    assert (rc, out) == (2, "")
    assert err == f"error: {path}:{where}: {message}\n"
