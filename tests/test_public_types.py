"""What a type checker sees of the public API: real types, no ``Any`` where one exists (issue 9), and a
user's script that type-checks under ``mypy --strict`` and writes YAML that kubectl reads back (issue 21).

``dynamo_schema`` resolves its names lazily (``__getattr__``), so every name needs its
``TYPE_CHECKING`` import to come from the module that defines it; through a package's lazy
``__getattr__`` (``_merge``) a name is ``Any`` to mypy.
"""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import dynamo_schema

ROOT = Path(__file__).resolve().parents[1]

# mypy --strict, file by file: the command line, the public facade and the hand-written models
STRICT = ["dynamo_schema/_cli", "dynamo_schema/__init__.py", "dynamo_schema/__main__.py", "dynamo_schema/_api",
          "dynamo_schema/models/__init__.py", "dynamo_schema/models/_base.py", "dynamo_schema/models/_lws.py"]


def _mypy(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    return proc.stdout + proc.stderr


@pytest.mark.slow
def test_no_public_name_is_any_to_mypy(tmp_path: Path) -> None:
    names = [n for n in dynamo_schema.__all__ if n != "__version__"]
    probe = tmp_path / "probe_public_types.py"
    probe.write_text("import dynamo_schema\n" + "".join(f"reveal_type(dynamo_schema.{n})\n" for n in names)
                     + "reveal_type(dynamo_schema.merge_overrides({}, {}))\n")
    out = _mypy("--strict", "--no-incremental", str(probe))
    revealed = re.findall(r'probe_public_types\.py:(\d+): note: Revealed type is "(.*)"', out)
    assert len(revealed) == len(names) + 1, out
    for line, text in revealed:
        name = names[int(line) - 2] if int(line) - 2 < len(names) else "merge_overrides(...)"
        assert text != "Any", f"{name} is Any to mypy"
        # a function's parameter or return typed Any where the API has a real type (a class may take
        # Any: ``Document(data)`` holds any JSON value)
        assert name[0].isupper() or not re.search(r"(: Any( =)?[,)])|(-> Any$)", text), f"{name}: {text}"
    assert revealed[-1][1] == "dynamo_schema._merge._override.MergeResult"


@pytest.mark.slow
def test_the_command_line_and_the_facade_are_strict() -> None:
    out = _mypy("--strict", *STRICT)
    mine = [line for line in out.splitlines() if line.startswith(tuple(STRICT)) and ": error:" in line]
    assert mine == [], "\n".join(mine)


# A user's script, written against the public names only: validate a folder, render with settings, write
# the objects with the Kubernetes-safe emitter. Label values ``n``, ``on``, ``yes``, ``1e3``, ``null``: YAML 1.1
# (kubectl's go-yaml) reads them unquoted as booleans, a float and null.
USER_SCRIPT = """\
from __future__ import annotations

import sys
from typing import Any

import dynamo_schema
from dynamo_schema import AdmissionSettings, Diagnostic, DynamoSchemaError, RenderError, ResourceResult

TRICKY = {"n": "n", "on": "on", "yes": "yes", "exp": "1e3", "nil": "null"}


def report(path: str) -> int:
    results: list[ResourceResult] = dynamo_schema.validate(path, kubernetes_version="1.32.0")
    failed = [r for r in results if r.status in ("invalid", "error")]
    for r in failed:
        first: Diagnostic = r.errors[0]
        line: int | None = first.line
        print(f"{r.filename}:{line}: {r.kind}/{r.name} ({r.namespace or '-'}, #{r.index}): {first.message}")
    skipped: list[str] = [r.reason for r in results if r.status == "skipped"]
    print(len(results), len(failed), len(skipped))
    return 1 if failed else 0


def objects() -> list[dict[str, Any]]:
    dgd: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
        "metadata": {"name": "demo", "namespace": "prod", "labels": dict(TRICKY)},
        "spec": {"backendFramework": "vllm", "components": [
            {"name": "Frontend", "type": "frontend", "replicas": 1, "podTemplate": {"spec": {"containers": [
                {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0"}]}}}]},
    }
    settings = AdmissionSettings(grove_enabled=False)
    try:
        rendered = dynamo_schema.render(dgd, target="kubernetes", settings=settings, namespace="prod")
    except RenderError as exc:
        raise SystemExit(f"refused: {exc} {[d.rule for d in exc.diagnostics]}") from exc
    except DynamoSchemaError as exc:
        raise SystemExit(str(exc)) from exc
    config: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap",
                              "metadata": {"name": "tricky", "namespace": "prod", "labels": dict(TRICKY)},
                              "data": dict(TRICKY)}
    stored = dynamo_schema.default(dgd, settings)
    return [stored, *rendered, config]


if __name__ == "__main__":
    if len(sys.argv) > 1:
        raise SystemExit(report(sys.argv[1]))
    sys.stdout.write(dynamo_schema.dump_yaml(objects()))
"""

# What mypy --strict must refuse in a script (the check above could not fail otherwise).
MISUSES = """\
import dynamo_schema
from dynamo_schema import Diagnostic

flat: list[Diagnostic] = dynamo_schema.validate("x.yaml")
dynamo_schema.render({}, target="helm")
dynamo_schema.convert({}, to="v1beta1")
"""


@pytest.mark.slow
def test_a_user_script_type_checks_strictly(tmp_path: Path) -> None:
    script = tmp_path / "user_script.py"
    script.write_text(USER_SCRIPT)
    out = _mypy("--strict", "--no-incremental", str(script))
    assert "Success: no issues found" in out, out
    bad = tmp_path / "misuse.py"
    bad.write_text(MISUSES)
    errors = re.findall(r"misuse\.py:(\d+): error", _mypy("--strict", "--no-incremental", str(bad)))
    assert sorted(set(map(int, errors))) == [4, 5, 6], errors
    # and it runs: the folder report over the examples
    proc = subprocess.run([sys.executable, str(script), str(ROOT / "examples")], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 1 and "rejected-dgd.yaml" in proc.stdout, proc.stdout + proc.stderr


def _kubectl_objects(text: str) -> list[Any]:
    """The objects kubectl decodes from ``text``: ``kubectl label --local`` reads files through the same
    resource builder (go-yaml -> JSON -> unstructured) as ``kubectl create`` and needs no cluster
    (``create --dry-run=client`` asks the server for the REST mapping); ``probe-`` removes a label no object
    has, which changes nothing where ``metadata.labels`` exists (every object here has it)."""
    proc = subprocess.run(["kubectl", "label", "--local", "-f", "-", "-o", "json", "dynamo-schema.test/probe-"],
                          input=text, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr
    decoder, pos, out = json.JSONDecoder(), 0, []
    body = proc.stdout
    while body[pos:].strip():
        pos += len(body[pos:]) - len(body[pos:].lstrip())
        obj, pos = decoder.raw_decode(body, pos)
        out.append(obj)
    return out


@pytest.mark.slow
@pytest.mark.needs("kubectl")
def test_kubectl_reads_back_what_dump_yaml_writes(tmp_path: Path) -> None:
    script = tmp_path / "user_script.py"
    script.write_text(USER_SCRIPT)
    objects = runpy.run_path(str(script))["objects"]()
    assert all(isinstance((o.get("metadata") or {}).get("labels"), dict) for o in objects)
    assert len(objects) >= 4 and objects[-1]["metadata"]["labels"]["n"] == "n"
    text = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout
    import dynamo_schema

    assert text == dynamo_schema.dump_yaml(objects)
    assert _kubectl_objects(text) == objects
    # the check can fail: the same objects through yaml.safe_dump_all, as users used to write them
    import yaml

    naive = yaml.safe_dump_all(objects)  # negative control
    assert "n: n\n" in naive
    proc = subprocess.run(["kubectl", "label", "--local", "-f", "-", "-o", "json", "dynamo-schema.test/probe-"],
                          input=naive, capture_output=True, text=True, check=False, timeout=120)
    # go-yaml reads the unquoted ``n`` as a boolean, ``1e3`` as a number: kubectl refuses those objects
    assert "cannot unmarshal number into Go struct field ObjectMeta.metadata.labels" in proc.stderr, proc.stderr
