"""The public surface is small, explicit and cheap to import (httpx-style guard)."""

from __future__ import annotations

import json
import subprocess
import sys

import dynamo_schema

EXPECTED = {
    "AdmissionSettings",
    "DeploymentSpec",
    "Diagnostic",
    "Document",
    "DynamoComponentDeployment",
    "DynamoGraphDeployment",
    "DynamoGraphDeploymentRequest",
    "DynamoSchemaError",
    "LoadError",
    "MergeError",
    "MergeResult",
    "__version__",
    "default",
    "load",
    "load_text",
    "merge_overrides",
    "render",
    "validate",
}


def test_all_is_exactly_the_public_surface() -> None:
    assert set(dynamo_schema.__all__) == EXPECTED
    assert sorted(dynamo_schema.__all__) == dynamo_schema.__all__


def test_every_public_name_resolves() -> None:
    for name in dynamo_schema.__all__:
        assert getattr(dynamo_schema, name) is not None, name


def test_private_modules_are_underscored() -> None:
    import pkgutil

    public = {m.name for m in pkgutil.iter_modules(dynamo_schema.__path__) if not m.name.startswith("_")}
    assert public == {"models"}


def test_import_is_lazy() -> None:
    code = (
        "import sys, json, dynamo_schema\n"
        "heavy = ['pydantic', 'yaml', 'jsonschema', 'ruamel', 'jinja2', 'dynamo_schema.models', 'kubernetes_validate']\n"
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
    assert dynamo_schema.validate(model) == dynamo_schema.validate(json.loads(json.dumps(_DGD))) == []
