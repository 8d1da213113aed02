"""Command-line conventions a new user meets (issue 20): ``diff``'s exit codes are ``kubectl diff``'s, usage
errors exit 2 with the subcommand's own usage line, and usage names the program as it was invoked."""

from __future__ import annotations

import io
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dynamo_schema._cli._main import main
from tests._yaml import dump

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-disagg.yaml"


def console_script() -> str | None:
    """The installed ``dynamo-schema`` script: next to this interpreter (the environment the package is
    installed in), else on PATH."""
    return shutil.which("dynamo-schema", path=str(Path(sys.executable).parent)) or shutil.which("dynamo-schema")


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def _example() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load(EXAMPLE.read_text())  # type: ignore[no-any-return]


def test_diff_exit_codes_are_kubectl_diffs(tmp_path: Path) -> None:
    """0 no differences, 1 differences (the update is admitted), 2 an error (refused update, invalid input,
    usage). Before, 0 whether or not anything changed, 1 for a refusal."""
    same = tmp_path / "same.yaml"
    same.write_text(EXAMPLE.read_text())
    scaled = _example()
    scaled["spec"]["components"][1]["replicas"] = 3
    (tmp_path / "scaled.yaml").write_text(dump(scaled))
    retyped = _example()
    retyped["spec"]["components"][1]["type"] = "prefill"  # a component's type is immutable: refused
    (tmp_path / "retyped.yaml").write_text(dump(retyped))
    (tmp_path / "broken.yaml").write_text("a: [1\n")

    rc, out, err = run("diff", str(EXAMPLE), str(same))
    assert (rc, err) == (0, "") and "no changes in the rendered objects" in out
    rc, out, err = run("diff", str(EXAMPLE), str(tmp_path / "scaled.yaml"))
    assert (rc, err) == (1, ""), out
    assert run("diff", "-o", "json", str(EXAMPLE), str(tmp_path / "scaled.yaml"))[0] == 1
    rc, out, _ = run("diff", str(EXAMPLE), str(tmp_path / "retyped.yaml"))
    assert rc == 2 and "immutable" in out, out
    rc, _, err = run("diff", str(EXAMPLE), str(tmp_path / "broken.yaml"))
    assert rc == 2 and "broken.yaml:2:1:" in err, err
    assert run("diff", str(EXAMPLE), str(tmp_path / "missing.yaml"))[0] == 2
    assert run("diff", "--bogus", str(EXAMPLE), str(same))[0] == 2


def test_unknown_render_target_is_a_usage_error(tmp_path: Path) -> None:
    rc, out, err = run("render", "--target", "bogus", str(EXAMPLE))
    assert (rc, out) == (2, "")
    assert err == "error: unknown target 'bogus' (one of kubernetes, grove, dcd)\n"
    rc, _, err = run("diff", "--target", "bogus", str(EXAMPLE), str(EXAMPLE))
    assert rc == 2 and err == "error: unknown target 'bogus' (one of kubernetes, grove, dcd)\n"
    # a known target that does not render the kind stays a refusal of that input (exit 1)
    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment", "metadata": {"name": "x"},
           "spec": {"type": "frontend", "backendFramework": "vllm",
                    "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f:1.4.0"}]}}}}
    (tmp_path / "dcd.yaml").write_text(dump(dcd))
    rc, _, err = run("render", "--target", "grove", str(tmp_path / "dcd.yaml"))
    assert rc == 1 and "unknown target 'grove' for a DynamoComponentDeployment" in err, err


@pytest.mark.parametrize("argv", [["validate", "--bogus", "x.yaml"], ["render", "--bogus", "x.yaml"],
                                  ["diff", "--bogus", "a", "b"], ["explain", "dgd", "--bogus"]])
def test_an_unknown_option_prints_the_subcommands_usage(argv: list[str]) -> None:
    rc, out, err = run(*argv)
    assert (rc, out) == (2, "")
    command = argv[0]
    assert err.startswith(f"usage: python -m dynamo_schema {command} [-h]"), err
    assert err.endswith(f"python -m dynamo_schema {command}: error: unrecognized arguments: --bogus\n"), err


def test_a_missing_subcommand_still_prints_the_top_level_usage() -> None:
    rc, _, err = run("--bogus")
    assert rc == 2 and err.startswith("usage: python -m dynamo_schema [-h]"), err


def test_usage_names_the_program_as_invoked(tmp_path: Path) -> None:
    """The console script (the pre-commit hook's entry) says ``dynamo-schema``; ``python -m`` says so."""
    script = console_script()
    assert script is not None, "the package's console script is not installed (pip install -e .)"
    res = subprocess.run([script, "validate", "--bogus"], capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 2
    assert res.stderr.startswith("usage: dynamo-schema validate [-h]"), res.stderr
    assert "dynamo-schema validate: error: unrecognized arguments: --bogus" in res.stderr
    res = subprocess.run([sys.executable, "-m", "dynamo_schema", "validate", "--bogus"], capture_output=True,
                         text=True, timeout=120, check=False)
    assert res.returncode == 2 and res.stderr.startswith("usage: python -m dynamo_schema validate [-h]")


def test_the_hook_entry_runs(tmp_path: Path) -> None:
    """``.pre-commit-hooks.yaml``'s entry, run as pre-commit runs it (the entry, then the file names): the
    README's examples pass, a rejected one fails at its line."""
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    argv = shlex.split(hook["entry"])
    assert argv[0] == "dynamo-schema" and argv[1] == "validate"
    exe = console_script()
    assert exe is not None, "the package's console script is not installed (pip install -e .)"
    ok = subprocess.run([exe, *argv[1:], str(EXAMPLE), str(ROOT / "examples" / "deploymentspec.yaml")],
                        capture_output=True, text=True, timeout=300, check=False)
    assert ok.returncode == 0 and ok.stdout == "", ok.stdout + ok.stderr
    bad = subprocess.run([exe, *argv[1:], str(ROOT / "examples" / "rejected-dgd.yaml")], capture_output=True,
                         text=True, timeout=300, check=False)
    assert bad.returncode == 1
    assert bad.stdout.startswith(f"{ROOT / 'examples' / 'rejected-dgd.yaml'}:8:3: DynamoGraphDeployment/broken: ")


INVALID_STREAM = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: bad
spec:
  components:
  - name: frontend
    type: bogus
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
data: 5
"""


def test_render_errors_are_validates_lines(tmp_path: Path) -> None:
    """render's refusals in validate's format, KIND/NAME included, cel.not-checked folded into the first
    error as validate folds it (before: `FILE:8:5: spec.components[0].type: …` and a separate
    `cel.not-checked` line)."""
    path = tmp_path / "mixed.yaml"
    path.write_text(INVALID_STREAM)
    rc, out, err = run("render", str(path))
    assert (rc, out) == (1, "")
    vrc, vout, _ = run("validate", str(path))
    assert vrc == 1 and err == vout
    lines = err.splitlines()
    assert lines[0].startswith(f"{path}:8:5: DynamoGraphDeployment/bad: spec.components[0].type: Unsupported value: ")
    assert lines[0].endswith("(note: CEL rules not checked until the schema errors are fixed) [schema.enum]")
    assert lines[1].startswith(f"{path}:14:1: ConfigMap/cm: data: ")
    assert len(lines) == 2 and "[cel.not-checked]" not in err
    # a refusal of the operator's render (no validate counterpart) names the object too
    dcd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment", "metadata": {"name": "x"},
           "spec": {"type": "frontend", "backendFramework": "vllm",
                    "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f:1.4.0"}]}}}}
    (tmp_path / "dcd.yaml").write_text(dump(dcd))
    rc, _, err = run("render", "--target", "grove", str(tmp_path / "dcd.yaml"))
    assert rc == 1
    assert err == (f"{tmp_path / 'dcd.yaml'}:1:1: DynamoComponentDeployment/x: unknown target 'grove' for a "
                   "DynamoComponentDeployment (kubernetes) [render.failed]\n")


ALPHA_DNS = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: g
spec:
  services:
    Frontend:
      componentType: frontend
      dynamoNamespace: custom
      replicas: 1
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0
"""


def test_validate_namespace_names_the_dynamo_namespace(tmp_path: Path) -> None:
    """Upstream's warning computes `<namespace>-<name>`; the API server fills the namespace in (kubectl apply
    -n NS, `default` without -n), so a manifest without one no longer reads `-g`."""
    import dynamo_schema

    path = tmp_path / "alpha.yaml"
    path.write_text(ALPHA_DNS)
    head = (f"{path}:9:7: DynamoGraphDeployment/g: spec.services.Frontend.dynamoNamespace: warning: "
            'spec.services[Frontend].dynamoNamespace is deprecated and ignored. Value "custom" will be replaced with ')
    tail = ". Remove this field from your configuration [dgd.v1alpha1-dynamo-namespace-deprecated]\n"
    assert run("validate", str(path)) == (0, head + '"default-g"' + tail, "")
    assert run("validate", "--namespace", "prod", str(path)) == (0, head + '"prod-g"' + tail, "")
    path.write_text(ALPHA_DNS.replace("  name: g\n", "  name: g\n  namespace: team\n"))
    head = head.replace(":9:7:", ":10:7:")
    assert run("validate", "--namespace", "prod", str(path)) == (0, head + '"team-g"' + tail, "")
    rc, out, err = run("validate", "--namespace", "Bad_NS", str(path))
    assert (rc, out) == (2, "") and err.startswith('error: --namespace: Invalid value: "Bad_NS": ')
    # the library admits in the same default namespace
    path.write_text(ALPHA_DNS)
    (d,) = [d for r in dynamo_schema.validate(str(path)) for d in r.diagnostics]
    assert '"default-g"' in d.message


def test_default_and_diff_store_in_the_namespace_applied_to(tmp_path: Path) -> None:
    """`default`, `diff` and the library's `default`/`diff` admit as `validate` does: the API server fills the
    namespace in before the webhooks run and stores it (the operator-verified cases' stored objects carry
    `metadata.namespace: default`), so the warning reads `default-g`, not `-g`."""
    import dynamo_schema

    path = tmp_path / "alpha.yaml"
    path.write_text(ALPHA_DNS)
    warning = ('spec.services[Frontend].dynamoNamespace is deprecated and ignored. Value "custom" will be replaced '
               'with "{}". Remove this field from your configuration')
    line = (f"{path}:9:7: DynamoGraphDeployment/g: spec.services.Frontend.dynamoNamespace: warning: "
            + warning + " [dgd.v1alpha1-dynamo-namespace-deprecated]\n")
    rc, out, err = run("default", str(path))
    assert (rc, err) == (0, line.format("default-g"))
    assert yaml.safe_load(out)["metadata"]["namespace"] == "default"
    rc, out, err = run("default", "--namespace", "prod", str(path))
    assert (rc, err) == (0, line.format("prod-g"))
    assert yaml.safe_load(out)["metadata"]["namespace"] == "prod"
    assert run("default", "--namespace", "Bad_NS", str(path))[0] == 2
    data = yaml.safe_load(ALPHA_DNS)
    assert dynamo_schema.default(data)["metadata"]["namespace"] == "default"
    assert dynamo_schema.default(data, namespace="prod")["metadata"]["namespace"] == "prod"
    team = {**data, "metadata": {"name": "g", "namespace": "team"}}
    assert dynamo_schema.default(team, namespace="prod")["metadata"]["namespace"] == "team"  # the manifest's wins
    assert "namespace" not in data["metadata"]  # the input is not mutated
    # a ConfigMap is not admitted by Dynamo's webhooks: left as written
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}
    assert dynamo_schema.default(cm) == cm
    for report, ns in ((dynamo_schema.diff(None, data), "default"), (dynamo_schema.diff(None, data, namespace="prod"),
                                                                      "prod")):
        assert [d.message for d in report.admission] == [warning.format(f"{ns}-g")]


def test_runtime_version_override_required_names_the_image_at_its_line(tmp_path: Path) -> None:
    """Upstream's field (`runtimeVersionOverride`, which the manifest lacks) and message are kept; the line is
    the main container's `image:` (before: the component's `- name:` line) and names the image. The library
    gives the same location and the image as a `dgd.runtime-version-image` note."""
    import dynamo_schema

    example = ROOT / "examples" / "rejected-admission.yaml"
    lines = example.read_text().splitlines()
    image_line = next(i for i, ln in enumerate(lines, 1) if ln.strip().startswith("image: "))
    column = lines[image_line - 1].index("image:") + 1
    rc, out, _ = run("validate", str(example))
    assert rc == 1
    (line,) = [ln for ln in out.splitlines() if ln.endswith("[dgd.runtime-version-override-required]")]
    assert line == (f"{example}:{image_line}:{column}: DynamoGraphDeployment/demo: "
                    "spec.components[0].runtimeVersionOverride: Required value: is required when the specified main "
                    "container image has no parseable semantic-version tag (the main container image is "
                    '"nvcr.io/nvidia/ai-dynamo/vllm-runtime:latest") [dgd.runtime-version-override-required]')
    # default and render print the same line (one formatter)
    assert line in run("default", str(example))[2].splitlines()
    assert line in run("render", str(example))[2].splitlines()
    diags = {d.rule: d for r in dynamo_schema.validate(str(example)) for d in r.diagnostics}
    err, note = diags["dgd.runtime-version-override-required"], diags["dgd.runtime-version-image"]
    assert (err.field, err.line, err.column) == ("spec.components[0].runtimeVersionOverride", image_line, column)
    assert (note.severity, note.field, note.line) == ("note", "spec.components[0].podTemplate.spec.containers[0].image",
                                                      image_line)
    # a waiver comment on the image line waives it; the note is not counted as waived
    waived = example.read_text().replace(":latest", ":latest  # dynamo-schema: ignore[dgd.runtime-version-override-required]")
    (tmp_path / "w.yaml").write_text(waived)
    rc, out, _ = run("validate", "--summary", str(tmp_path / "w.yaml"))
    assert "runtime-version" not in out and out.endswith("Waived: 1\n"), out


def test_lsp_without_pygls_is_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md ``lsp``: without the ``lsp`` extra (pygls) the command exits 2 with the install advice."""
    for name in ["pygls", *(m for m in sys.modules if m.startswith("pygls."))]:
        monkeypatch.setitem(sys.modules, name, None)  # as if the extra were not installed: import raises
    monkeypatch.delitem(sys.modules, "dynamo_schema._lsp._server", raising=False)
    rc, out, err = run("lsp")
    assert rc == 2 and out == ""
    assert "pip install 'dynamo-schema[lsp]'" in err
