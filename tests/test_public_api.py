"""The public surface: small, explicit, cheap to import (httpx-style guard), and what the commands do.

* ``__all__`` is exactly the listed names, each resolves, and every exception the library raises for bad
  input (every ``DynamoSchemaError`` subclass in the package) is exported and drawn in the docstring;
* ``validate`` returns one ``ResourceResult`` per resource with the CLI's verdict (compared with
  ``validate -o json`` on the same files), ``skipped`` with a reason for an unknown kind, every file of a
  directory with a broken one, no made-up positions for data;
* each other function is checked against its command or an independent fact.
"""

from __future__ import annotations

import copy
import importlib
import io
import json
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import dynamo_schema

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

FUNCTIONS = {"compile_spec", "convert", "default", "diff", "dump_yaml", "explain", "load", "load_text",
             "materialize_dgdr", "merge", "merge_overrides", "render", "validate"}
EXCEPTIONS = {"AdapterError", "ConfigFileError", "ConversionError", "DgdrError", "DynamoSchemaError", "ExplainError",
              "LoadError", "MergeError", "RenderError", "SettingsError", "SpecError", "UnknownRelease"}
TYPES = {"AdmissionSettings", "DeploymentSpec", "Diagnostic", "DiffReport", "Document", "DynamoComponentDeployment",
         "DynamoGraphDeployment", "DynamoGraphDeploymentRequest", "MaterializedDGD", "MergeResult",
         "RenderedArtifact", "ResourceResult"}
EXPECTED = FUNCTIONS | EXCEPTIONS | TYPES | {"__version__"}

DGD: dict[str, Any] = {
    "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
    "metadata": {"name": "demo", "namespace": "prod"},
    "spec": {"backendFramework": "vllm", "components": [
        {"name": "Frontend", "type": "frontend", "replicas": 1,
         "podTemplate": {"spec": {"containers": [{"name": "main",
                                                  "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0"}]}}}]},
}


# ------------------------------------------------------------------------------------- the surface
def test_all_is_exactly_the_public_surface() -> None:
    assert set(dynamo_schema.__all__) == EXPECTED
    assert sorted(dynamo_schema.__all__) == dynamo_schema.__all__
    assert sorted(dir(dynamo_schema)) == sorted(EXPECTED)


def test_every_public_name_resolves_to_what_it_says() -> None:
    for name in dynamo_schema.__all__:
        value = getattr(dynamo_schema, name)
        assert value is not None, name
        if name in FUNCTIONS:
            assert callable(value) and value.__module__.startswith("dynamo_schema._api."), name
            assert value.__doc__, f"{name} has no docstring"
        elif name in EXCEPTIONS:
            assert issubclass(value, dynamo_schema.DynamoSchemaError), name
        elif name != "__version__":
            assert isinstance(value, type) and value.__name__ == name, name
    with pytest.raises(AttributeError):
        dynamo_schema.no_such_name  # noqa: B018


def _package_modules() -> list[str]:
    """Every module of the library (the language server's pygls part and the generated models aside)."""
    out = []
    for m in pkgutil.walk_packages(dynamo_schema.__path__, "dynamo_schema."):
        if m.name == "dynamo_schema.__main__" or m.name.startswith(("dynamo_schema._lsp._server",
                                                                      "dynamo_schema.models._generated")):
            continue
        out.append(m.name)
    return out


def test_every_public_exception_is_exported_and_drawn() -> None:
    for name in _package_modules():
        importlib.import_module(name)
    found: set[type] = set()
    todo = [dynamo_schema.DynamoSchemaError]
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo.extend(cls.__subclasses__())
    ours = {c for c in found if c.__module__.startswith("dynamo_schema.")}
    assert len(ours) >= 12  # the walk found the hierarchy (a test that finds nothing could not fail)
    doc = dynamo_schema.__doc__ or ""
    for cls in ours:
        assert getattr(dynamo_schema, cls.__name__, None) is cls, f"{cls.__module__}.{cls.__name__} is not exported"
        assert f"── {cls.__name__} " in doc or cls is dynamo_schema.DynamoSchemaError, \
            f"{cls.__name__} is not in dynamo_schema's docstring hierarchy"


def test_the_errors_keep_their_messages_and_value_error() -> None:
    with pytest.raises(dynamo_schema.ExplainError, match="field 'nosuch' does not exist") as exc:
        dynamo_schema.explain("dgd.spec.nosuch")
    assert isinstance(exc.value, ValueError)
    with pytest.raises(dynamo_schema.UnknownRelease) as rel:
        dynamo_schema.explain("dgd", operator_version="0.1")
    assert isinstance(rel.value, ValueError) and "0.8" in str(rel.value)


def test_private_modules_are_underscored() -> None:
    public = {m.name for m in pkgutil.iter_modules(dynamo_schema.__path__) if not m.name.startswith("_")}
    assert public == {"models"}


def test_import_is_lazy() -> None:
    code = (
        "import sys, json, dynamo_schema\n"
        "heavy = ['pydantic', 'yaml', 'jsonschema', 'ruamel', 'jinja2', 'dynamo_schema.models', 'kubernetes_validate',\n"
        "         'dynamo_schema._api._validate', 'dynamo_schema._pipeline', 'dataclasses']\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_validate_command_does_not_build_models() -> None:
    """The pre-commit path reads the generated schema; it must not import pydantic models."""
    code = (
        "import sys, json\n"
        "from dynamo_schema._cli._main import main\n"
        "import io\n"
        "rc = main(['validate', '-'], stdout=io.StringIO(), stderr=io.StringIO())\n"
        "print(json.dumps(['dynamo_schema.models' in sys.modules, 'jsonschema' in sys.modules]))\n"
    )
    doc = ("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: x\n"
           "spec:\n  components:\n  - name: Frontend\n    type: frontend\n")
    out = subprocess.run([sys.executable, "-c", code], input=doc, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [False, False]


def test_py_typed_is_shipped() -> None:
    from importlib import resources

    assert resources.files("dynamo_schema").joinpath("py.typed").is_file()


# ----------------------------------------------------------------------------------------- validate
def _cli_json(*paths: str) -> list[dict[str, Any]]:
    from dynamo_schema._cli._main import main

    out = io.StringIO()
    main(["validate", "-o", "json", *paths], stdout=out, stderr=io.StringIO())
    resources: list[dict[str, Any]] = json.loads(out.getvalue())["resources"]
    return resources


def test_an_unknown_kind_is_skipped_with_a_reason() -> None:
    [r] = dynamo_schema.validate({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}})
    assert (r.status, r.kind, r.name, r.api_version) == ("skipped", "Widget", "w", "example.com/v1")
    assert r.reason == "no schema for example.com/v1/Widget in Kubernetes 1.32.0"
    assert not r.errors
    # every Dynamo kind is modelled now (docs/decisions.md D50): a DynamoModel is checked, not skipped
    [m] = dynamo_schema.validate({"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoModel", "metadata": {"name": "m"},
                                  "spec": {"bogusField": 1}})
    assert (m.status, [d.rule for d in m.errors]) == ("invalid", ["schema.unknown-field"])
    # no Kubernetes object at all (a CI workflow): skipped silently, the result still says why
    [ci] = dynamo_schema.validate({"on": "push", "jobs": {"test": {"runs-on": "ubuntu-latest"}}})
    assert (ci.status, ci.diagnostics, ci.reason) == ("skipped", [], "not a Kubernetes object (no apiVersion/kind)")


def test_a_directory_with_a_broken_file_gives_every_file(tmp_path: Path) -> None:
    (tmp_path / "a-broken.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: [\n")
    (tmp_path / "b-invalid.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: 1\n")
    (tmp_path / "c-two.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n  namespace: team\n---\n"
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: two\n")
    results = dynamo_schema.validate(tmp_path)
    got = [(Path(r.filename).name, r.index, r.status, r.name, r.namespace) for r in results]
    assert got == [("a-broken.yaml", None, "error", "", ""), ("b-invalid.yaml", 0, "invalid", "c", ""),
                   ("c-two.yaml", 0, "valid", "one", "team"), ("c-two.yaml", 1, "skipped", "two", "")]
    broken = results[0].errors[0]
    assert broken.rule == "load.syntax" and broken.line is not None
    bad = results[1].errors[0]
    assert (bad.file, bad.line, bad.column, bad.field) == (results[1].filename, 6, 3, "data.a")
    # the command line's verdict on the same files, resource by resource
    cli = _cli_json(str(tmp_path))
    assert [(c["filename"], c["kind"], c["name"], c["status"]) for c in cli] == \
        [(r.filename, r.kind, r.name, r.status) for r in results]
    assert [[e["rule"] for e in c["errors"]] for c in cli] == [[d.rule for d in r.diagnostics] for r in results]


def test_the_examples_get_the_command_lines_verdict() -> None:
    results = dynamo_schema.validate(EXAMPLES)
    cli = _cli_json(str(EXAMPLES))
    assert len(results) == len(cli) >= 8
    assert [(c["filename"], c["status"], [e["rule"] for e in c["errors"]]) for c in cli] == \
        [(r.filename, r.status, [d.rule for d in r.diagnostics]) for r in results]
    assert {r.status for r in results} >= {"valid", "invalid"}


def test_data_has_no_made_up_positions() -> None:
    bad = copy.deepcopy(DGD)
    bad["spec"]["components"][0]["replicas"] = -1
    [r] = dynamo_schema.validate(bad)
    assert r.status == "invalid" and r.filename == "" and r.index == 0 and r.namespace == "prod"
    assert r.errors and all((d.file, d.line, d.column) == (None, None, None) for d in r.diagnostics)
    # the same object read from text is located
    [doc] = dynamo_schema.load_text(dynamo_schema.dump_yaml(bad), "dgd.yaml")
    [located] = dynamo_schema.validate(doc)
    # the same findings; their order is by place when there are places (the API server's without)
    assert sorted(d.rule for d in located.diagnostics) == sorted(d.rule for d in r.diagnostics)
    assert all(d.file == "dgd.yaml" and isinstance(d.line, int) and d.line > 1 for d in located.errors)


def test_a_list_mixes_documents_and_data_and_keeps_their_index() -> None:
    model = dynamo_schema.DynamoGraphDeployment.model_validate(DGD)
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": 1}}
    results = dynamo_schema.validate([DGD, cm, model])
    assert [(r.index, r.status) for r in results] == [(0, "valid"), (1, "invalid"), (2, "valid")]
    assert dynamo_schema.validate([]) == []


def test_old_makes_it_an_update() -> None:
    old = copy.deepcopy(DGD)
    new = copy.deepcopy(DGD)
    new["spec"]["backendFramework"] = "sglang"
    assert [r.status for r in dynamo_schema.validate(new)] == ["valid"]
    [r] = dynamo_schema.validate(new, old=old)
    assert r.status == "invalid" and any("immutable" in d.message for d in r.errors)


def test_a_missing_path_is_an_error_result(tmp_path: Path) -> None:
    [r] = dynamo_schema.validate(tmp_path / "nope.yaml")
    assert r.status == "error" and [d.rule for d in r.diagnostics] == ["io.not-found"]


def test_settings_reach_admission() -> None:
    dgd = copy.deepcopy(DGD)
    dgd["spec"]["components"][0]["minAvailable"] = 1
    no_grove = dynamo_schema.AdmissionSettings(grove_enabled=False)
    assert [r.status for r in dynamo_schema.validate(dgd)] == ["valid"]
    [r] = dynamo_schema.validate(dgd, settings=no_grove)
    assert [d.rule for d in r.errors] == ["dgd.min-available-grove"]


# --------------------------------------------------------------------------- the other functions
def test_render_targets_settings_and_errors() -> None:
    grove = dynamo_schema.render(DGD, "grove", namespace="prod")
    assert "PodCliqueSet" in [o["kind"] for o in grove]
    plain = dynamo_schema.render(DGD, target="kubernetes")
    assert "PodCliqueSet" not in [o["kind"] for o in plain] and "Deployment" in [o["kind"] for o in plain]
    # no target: the operator's pathway, which the settings decide (Grove on by default)
    assert dynamo_schema.render(DGD) == grove
    assert "PodCliqueSet" not in [o["kind"] for o in dynamo_schema.render(
        DGD, settings=dynamo_schema.AdmissionSettings(grove_enabled=False))]
    assert [o["kind"] for o in dynamo_schema.render(DGD, "dcd")] == ["DynamoComponentDeployment"]
    with pytest.raises(dynamo_schema.RenderError, match="unknown target"):
        dynamo_schema.render(DGD, "nosuch")  # type: ignore[arg-type]
    bad = copy.deepcopy(DGD)
    bad["spec"]["components"] = []
    with pytest.raises(dynamo_schema.RenderError) as exc:
        dynamo_schema.render(bad)
    assert [d.rule for d in exc.value.diagnostics] == ["dgd.components-required"]


def test_the_target_literal_is_the_render_registry() -> None:
    import typing

    from dynamo_schema._api._common import Target
    from dynamo_schema._render.targets import names_for

    assert set(typing.get_args(Target)) == set(names_for("DynamoGraphDeployment"))


def test_dump_yaml_keeps_strings_strings() -> None:
    import yaml

    obj = {"metadata": {"labels": {"a": "n", "b": "on", "c": "1e3", "d": "0o17", "e": "null", "f": "~"}}, "n": 1}
    text = dynamo_schema.dump_yaml(obj)
    assert yaml.safe_load(text) == obj  # YAML 1.1 (PyYAML) reads back exactly the strings
    assert dynamo_schema.dump_yaml([obj, obj]) == text + "---\n" + text
    assert "a: n\n" in yaml.safe_dump(obj) and "a: n\n" not in text  # negative control
    assert dynamo_schema.dump_yaml(dynamo_schema.DynamoGraphDeployment.model_validate(DGD)) == \
        dynamo_schema.dump_yaml(dynamo_schema.DynamoGraphDeployment.model_validate(DGD).to_dict())


def test_default_is_admissions_stored_object() -> None:
    stored = dynamo_schema.default(DGD)
    assert stored["metadata"]["annotations"]["nvidia.com/workload-provider"] == "grove"
    assert DGD["metadata"].get("annotations") is None  # the input is not mutated


def test_convert_round_trips_the_legacy_example() -> None:
    [doc] = dynamo_schema.load(EXAMPLES / "legacy-v1alpha1.yaml")
    beta = dynamo_schema.convert(doc.data, to="nvidia.com/v1beta1")
    assert beta["apiVersion"] == "nvidia.com/v1beta1" and "components" in beta["spec"]
    assert [r.status for r in dynamo_schema.validate(beta)] == ["valid"]
    back = dynamo_schema.convert(beta, to="nvidia.com/v1alpha1")
    assert back["apiVersion"] == "nvidia.com/v1alpha1" and back["spec"]["services"].keys() == \
        doc.data["spec"]["services"].keys()
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}
    assert dynamo_schema.convert(cm, to="nvidia.com/v1beta1") == cm
    bad = copy.deepcopy(DGD)
    bad["spec"]["components"] = []
    with pytest.raises(dynamo_schema.ConversionError) as exc:
        dynamo_schema.convert(bad, to="nvidia.com/v1alpha1")
    assert [d.rule for d in exc.value.diagnostics] == ["dgd.components-required"]


def test_merge_is_the_merge_command() -> None:
    from dynamo_schema._cli._main import main

    blueprint = dynamo_schema.load(EXAMPLES / "vllm-disagg.yaml")[0].data
    dgdr = dynamo_schema.load(EXAMPLES / "dgdr-override.yaml")[0].data
    result = dynamo_schema.merge(blueprint, dgdr, validate=True)
    out = io.StringIO()
    rc = main(["merge", "--blueprint", str(EXAMPLES / "vllm-disagg.yaml"), "--override",
               str(EXAMPLES / "dgdr-override.yaml")], stdout=out, stderr=io.StringIO())
    assert rc == 0 and dynamo_schema.dump_yaml(result.dgd) == out.getvalue()
    decode = next(c for c in result.dgd["spec"]["components"] if c["name"] == "VllmDecodeWorker")
    assert decode["replicas"] == 2
    with pytest.raises(dynamo_schema.MergeError):
        dynamo_schema.merge(blueprint, {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest",
                                        "spec": {"overrides": 3}})


def test_diff_reports_what_restarts() -> None:
    old = dynamo_schema.load(EXAMPLES / "vllm-disagg.yaml")[0].data
    new = dynamo_schema.load(EXAMPLES / "vllm-disagg-scaled.yaml")[0].data
    report = dynamo_schema.diff(old, new)
    assert report.changed and not report.refused and report.status == "changed"
    assert dynamo_schema.diff(old, copy.deepcopy(old)).status == "unchanged"


def test_explain_is_the_explain_command() -> None:
    from dynamo_schema._cli._main import main

    out = io.StringIO()
    main(["explain", "dgd.spec.components.multinode"], stdout=out, stderr=io.StringIO())
    assert dynamo_schema.explain("dgd.spec.components.multinode") == out.getvalue()
    assert "KIND:     DynamoGraphDeployment" in out.getvalue()


def test_materialize_dgdr() -> None:
    dgdr = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest",
            "metadata": {"name": "req", "namespace": "prod"}, "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "vllm"}}
    m = dynamo_schema.materialize_dgdr(dgdr)
    assert m.dgd["kind"] == "DynamoGraphDeployment" and m.dgd["apiVersion"] == "nvidia.com/v1beta1"
    # the DGD render prints is the one materialize_dgdr gives, as admission stores it on the pathway rendered:
    # the dcd and kubernetes targets are Grove off, grove is Grove on (one admission per render, D55)
    for target, grove in (("dcd", False), ("grove", True)):
        rendered = dynamo_schema.render(dgdr, target)
        stored = dynamo_schema.default(m.dgd, dynamo_schema.AdmissionSettings(grove_enabled=grove))
        assert [o for o in rendered if o["kind"] == "DynamoGraphDeployment"][0] == stored
    with pytest.raises(dynamo_schema.DgdrError):
        dynamo_schema.materialize_dgdr(DGD)
    with pytest.raises(dynamo_schema.DgdrError) as exc:
        dynamo_schema.materialize_dgdr({**dgdr, "spec": {"backend": "vllm"}})
    assert exc.value.diagnostics and all(d.severity == "error" for d in exc.value.diagnostics)


def test_materialize_dgdr_admits_with_the_given_settings() -> None:
    """The DGDR is admitted with the caller's settings, and a refusal carries admission's own errors.
    Upstream's webhook (validation/dynamographdeploymentrequest.go, validateDynamoGraphDeploymentRequestSpec)
    requires ``spec.hardware`` when the GPU discovery gate is off and accepts a manual GPU SKU instead (its
    test "manual hardware permits disabled GPU discovery", ``h100_sxm``)."""
    dgdr = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeploymentRequest",
            "metadata": {"name": "req", "namespace": "prod"}, "spec": {"model": "Qwen/Qwen3-0.6B", "backend": "vllm"}}
    no_discovery = dynamo_schema.AdmissionSettings(gpu_discovery_enabled=False)
    assert dynamo_schema.materialize_dgdr(dgdr).dgd["kind"] == "DynamoGraphDeployment"  # the default gate is on
    with pytest.raises(dynamo_schema.DgdrError) as exc:
        dynamo_schema.materialize_dgdr(dgdr, settings=no_discovery)
    assert [(d.rule, d.path, d.message) for d in exc.value.diagnostics] == [
        ("dgdr.hardware-required", ("spec", "hardware"),
         "Required value: GPU hardware configuration is required when GPU discovery is disabled")]
    manual = {**dgdr, "spec": {**dgdr["spec"], "hardware": {"gpuSku": "h100_sxm"}}}
    assert dynamo_schema.materialize_dgdr(manual, settings=no_discovery).dgd["kind"] == "DynamoGraphDeployment"


def test_compile_spec_is_render_of_a_deploymentspec() -> None:
    from dynamo_schema._cli._main import main

    spec = dynamo_schema.load(EXAMPLES / "deploymentspec.yaml")[0].data
    provider = dynamo_schema.load(EXAMPLES / "provider-settings.yaml")[0].data
    artifacts = dynamo_schema.compile_spec(spec, provider, environ={})
    assert artifacts == dynamo_schema.compile_spec(spec, EXAMPLES / "provider-settings.yaml", environ={})
    objects = [a.content for a in artifacts if a.kind == "object" and isinstance(a.content, dict)
               and "apiVersion" in a.content]
    out = io.StringIO()
    rc = main(["render", "--provider-config", str(EXAMPLES / "provider-settings.yaml"),
               str(EXAMPLES / "deploymentspec.yaml")], stdout=out, stderr=io.StringIO())
    assert rc == 0 and objects and out.getvalue().startswith(dynamo_schema.dump_yaml(objects))
    with pytest.raises(dynamo_schema.RenderError, match="use compile_spec"):
        dynamo_schema.render(spec)
    with pytest.raises(dynamo_schema.SpecError):
        dynamo_schema.compile_spec({**spec, "model": 3}, provider, environ={})
    with pytest.raises(dynamo_schema.SettingsError):
        dynamo_schema.compile_spec(spec, {"INFERCRANE_NO_SUCH": "x"}, environ={})
    with pytest.raises(dynamo_schema.ConfigFileError):
        dynamo_schema.compile_spec(spec, EXAMPLES / "no-such.yaml", environ={})


def test_the_package_docstring_example_runs() -> None:
    import doctest

    result = doctest.testmod(dynamo_schema)
    assert result.attempted >= 2 and result.failed == 0


_DGD = {
    "apiVersion": "nvidia.com/v1beta1",
    "kind": "DynamoGraphDeployment",
    "metadata": {"name": "g", "namespace": "ns"},
    "spec": {"backendFramework": "vllm", "components": [
        {"name": "frontend", "type": "frontend",
         "podTemplate": {"spec": {"containers": [{"name": "main", "image": "f:1.4.0"}]}}},
    ]},
}


def test_typed_model_and_plain_data_are_the_same_input() -> None:
    """default / render / validate take a typed model as its Kubernetes JSON and plain data as it is."""
    model = dynamo_schema.DynamoGraphDeployment.model_validate(_DGD)
    assert dynamo_schema.default(model) == dynamo_schema.default(json.loads(json.dumps(_DGD)))
    assert dynamo_schema.render(model) == dynamo_schema.render(json.loads(json.dumps(_DGD)))
    typed, plain = dynamo_schema.validate(model), dynamo_schema.validate(json.loads(json.dumps(_DGD)))
    assert [(r.status, r.diagnostics) for r in typed] == [(r.status, r.diagnostics) for r in plain] == [("valid", [])]
