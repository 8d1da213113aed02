"""``--operator-version X.Y`` on every command (docs/releases.md): a release profile for validate, default,
explain and schema; a note for render and diff, which keep emulating the reference revision; a usage error
(exit 2) naming the known releases for anything else."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml

from dynamo_schema._cli._main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-disagg.yaml"  # a v1beta1 DGD
KNOWN = "known releases: 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5 (the reference revision 2a6da14c, the default)"

ALPHA_DGD = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: NAME
spec:
  backendFramework: vllm
  services:
    VllmWorker:
      componentType: worker
      extraPodSpec:
        mainContainer:
          image: my-registry/vllm-runtime:my-tag
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    assert "Traceback" not in err.getvalue()
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", [
    ["validate"], ["render"], ["default"], ["diff", str(EXAMPLE)], ["explain", "dgd"], ["schema", "--out", "OUT"]])
@pytest.mark.parametrize("version", ["0.7", "2.0", "1.6.0", "latest"])
def test_an_unknown_release_is_a_usage_error_naming_the_known_ones(command: list[str], version: str,
                                                                    tmp_path: Path) -> None:
    argv = [a.replace("OUT", str(tmp_path / "out")) for a in command] + ["--operator-version", version]
    if command[0] not in ("explain", "schema"):
        argv.append(str(EXAMPLE))
    rc, out, err = run(*argv)
    assert rc == 2, err
    assert "--operator-version" in err and KNOWN in err
    assert not (tmp_path / "out").exists()


def test_validate_takes_the_release(tmp_path: Path) -> None:
    path = tmp_path / "dgd.yaml"
    path.write_text(ALPHA_DGD.replace("NAME", "g"))
    rc, out, err = run("validate", str(path))  # the reference revision: a non-semver tag needs an override
    assert rc == 1 and "dgd.runtime-version-override-required" in out
    rc, out, err = run("validate", "--operator-version", "1.1", str(path))
    assert rc == 0, out + err
    rc, out, err = run("validate", "--operator-version", "1.4.2", str(path))  # X.Y.Z: the 1.4 profile
    assert rc == 1 and "dgd.runtime-version-override-required" in out
    rc, out, err = run("validate", "--operator-version", "1.1", str(EXAMPLE))
    assert rc == 1
    assert ('no matches for kind "DynamoGraphDeployment" in version "nvidia.com/v1beta1": operator release 1.1 '
            'serves "nvidia.com/v1alpha1" [schema.unknown-kind]') in out
    rc, out, err = run("validate", "--operator-version", "1.2", str(EXAMPLE))
    assert rc == 0, out


def test_validate_with_the_release_of_the_1_1_name_limit(tmp_path: Path) -> None:
    """1.1 counted the whole DGD name + service name (3b8a3845); from 1.2 the PodCliqueSet name is truncated."""
    path = tmp_path / "dgd.yaml"
    image = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0"
    fits, over = "d" * 35, "d" * 36  # + "vllmworker" (10): 45 fits, 46 does not
    path.write_text(ALPHA_DGD.replace("NAME", fits).replace("my-registry/vllm-runtime:my-tag", image))
    rc, out, _ = run("validate", "--operator-version", "1.1", str(path))
    assert rc == 0, out
    path.write_text(ALPHA_DGD.replace("NAME", over).replace("my-registry/vllm-runtime:my-tag", image))
    rc, out, _ = run("validate", "--operator-version", "1.1", str(path))
    assert rc == 1
    assert ("spec.services[VllmWorker]: combined resource name length 46 exceeds 45-character limit required for pod "
            f"naming. Consider shortening the DynamoGraphDeployment name '{over}' (length 36) or service name "
            "'VllmWorker' (length 10). The combined length of DGD name + service name must not exceed 45 characters "
            "[dgd.grove-name-length]") in out
    rc, out, _ = run("validate", "--operator-version", "1.2", str(path))
    assert rc == 0, out


def test_render_and_diff_say_once_that_they_emulate_the_reference(tmp_path: Path) -> None:
    rc, out, err = run("render", "--operator-version", "1.4", str(EXAMPLE))
    assert rc == 0
    assert err.count("note:") == 1
    assert "render emulates the operator at the reference revision 2a6da14c (1.5); operator 1.4's render " in err
    assert "nvidia.com/dynamo-operator-origin-version: 1.4.0" in out  # the version stamped
    rc, out, err = run("render", "--operator-version", "1.5.0", str(EXAMPLE))
    assert rc == 0 and "note:" not in err
    rc, out, err = run("diff", "--operator-version", "1.1", str(EXAMPLE), str(EXAMPLE))
    assert err.count("note:") == 1 and "diff emulates the operator at the reference revision" in err


def test_default_is_modelled_per_release(tmp_path: Path) -> None:
    path = tmp_path / "dgd.yaml"
    path.write_text(ALPHA_DGD.replace("NAME", "g"))
    rc, out, err = run("default", "--operator-version", "1.1", str(path))
    assert rc == 0 and err == ""
    stored = yaml.safe_load(out)
    assert stored["apiVersion"] == "nvidia.com/v1alpha1"  # the storage version of 1.1
    assert stored["metadata"]["annotations"] == {"nvidia.com/dynamo-operator-origin-version": "1.1.0"}
    assert stored["spec"]["services"]["VllmWorker"]["replicas"] == 1
    rc, out, err = run("default", str(path))  # the reference: refused (runtime-version override), nothing printed
    assert rc == 1 and out == ""


def test_explain_takes_the_release() -> None:
    rc, out, _ = run("explain", "dgd", "--operator-version", "1.1")
    assert rc == 0 and "VERSION:  nvidia.com/v1alpha1" in out
    rc, out, err = run("explain", "dgd.spec", "--operator-version", "0.9")
    assert rc == 0 and "topologyConstraint" not in out and "services\t" in out  # topologyConstraint is 1.0
    rc, out, _ = run("explain", "dgd.spec", "--operator-version", "1.0")
    assert "topologyConstraint\t" in out
    rc, _, err = run("explain", "dgd", "--api-version", "nvidia.com/v1beta1", "--operator-version", "1.1")
    assert rc == 1 and "served by operator release 1.1: nvidia.com/v1alpha1" in err
    rc, out, _ = run("explain", "dgd.spec.services.multinode", "--operator-version", "1.1")
    assert rc == 0 and "DESCRIPTION:" in out  # the reference revision's description of the same field


def test_schema_out_writes_the_release(tmp_path: Path) -> None:
    rc, out, err = run("schema", "--out", str(tmp_path), "--operator-version", "1.1")
    assert rc == 0, err
    names = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert "nvidia.com/dynamographdeployment_v1alpha1.json" in names
    assert "nvidia.com/dynamographdeployment_v1beta1.json" not in names  # 1.1 does not serve it
    assert "nvidia.com/dynamographdeploymentrequest_v1beta1.json" in names
    assert "grove.io/podcliqueset_v1alpha1.json" in names
    schema = json.loads((tmp_path / "nvidia.com" / "dynamographdeployment_v1alpha1.json").read_text())
    assert schema["$id"] == "urn:dynamo-schema:schemas/releases/1.1/nvidia.com/dynamographdeployment_v1alpha1.json"
    assert "description" not in json.dumps(schema)  # upstream prose stays out


def test_an_empty_operator_version_is_the_reference() -> None:
    """``release_of("")`` is the reference line: ``--operator-version ""`` renders exactly as no flag (no ``.0``
    appended to an empty value, the bundled 1.5.0 stamped)."""
    rc, out, err = run("render", "--operator-version", "", str(EXAMPLE))
    assert rc == 0 and err == ""
    assert "nvidia.com/dynamo-operator-origin-version: 1.5.0" in out
    assert (rc, out, err) == run("render", str(EXAMPLE))


def test_render_keeps_the_other_settings_and_drops_only_the_release(tmp_path: Path) -> None:
    """render emulates the reference revision: a settings ``operator_release`` is ignored, every other setting
    (``operator_version``: the operator stamps its own version as origin-version) still applies."""
    settings = tmp_path / "settings.yaml"
    settings.write_text("operator_version: 1.4.0\noperator_release: '1.1'\n")
    rc, out, err = run("render", "--settings", str(settings), str(EXAMPLE))
    assert rc == 0, err
    assert "nvidia.com/dynamo-operator-origin-version: 1.4.0" in out
    assert "origin-version: 1.5.0" not in out and "origin-version: 1.1.0" not in out


_GROVE_DGD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
spec:
  backendFramework: vllm
  components:
  - name: Frontend
    type: frontend
    replicas: 2
    podTemplate:
      spec:
        containers:
        - name: main
          image: nvcr.io/x:1.0.0
"""


@pytest.mark.parametrize("version", ["1.3", "1.4", ""])
def test_reapplying_a_grove_dgd_keeps_its_defaulted_min_available(tmp_path: Path, version: str) -> None:
    """A Grove DGD that never wrote ``minAvailable`` is stored with 1 (the mutating webhook, 071aff36 and
    e147ceea ``defaulting/dynamographdeployment_handler.go``: 1.3 on every Grove-pathway operation, 1.4 from
    the workload-provider annotation ``kubectl apply`` keeps). The API server evaluates the CRD's rules after
    the mutating webhooks, so applying it again, or without ``replicas``, passes ``minAvailable is immutable``;
    changing the value does not."""
    old = tmp_path / "old.yaml"
    old.write_text(_GROVE_DGD)
    same = tmp_path / "same.yaml"
    same.write_text(_GROVE_DGD.replace("    replicas: 2\n", ""))
    changed = tmp_path / "changed.yaml"
    changed.write_text(_GROVE_DGD.replace("    replicas: 2\n", "    replicas: 2\n    minAvailable: 2\n"))
    args = ["--operator-version", version] if version else []
    assert run("validate", *args, "--old", str(old), str(old))[0] == 0
    assert run("validate", *args, "--old", str(old), str(same))[0] == 0
    rc, out, _ = run("validate", *args, "--old", str(old), str(changed))
    assert rc == 1 and "minAvailable is immutable after creation [cel.min-available-immutable]" in out
