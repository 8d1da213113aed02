"""ObjectMeta as the API server checks it for custom resources, and reconcile-time failures found by
``validate`` (issue 14, item 4). Messages are apimachinery's (k8s.io/apimachinery/pkg/util/validation,
pkg/api/validation/objectmeta.go)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dynamo_schema._cli._main import main
from dynamo_schema._k8s._objectmeta import object_meta_errors, qualified_name_errors

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-disagg.yaml"
SUBDOMAIN = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
             "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
             r"validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
QNAME = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
         "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
         "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def _write(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "dgd.yaml"
    f.write_text(text)
    return f


def _line(f: Path, needle: str) -> int:
    return next(i for i, t in enumerate(f.read_text().splitlines(), 1) if needle in t)


def test_qualified_name_messages() -> None:
    assert qualified_name_errors("bad label!") == [QNAME]
    assert qualified_name_errors("/x") == ["prefix part must be non-empty"]
    assert qualified_name_errors("example.com/") == ["name part must be non-empty", QNAME.replace(
        "name part", "name part", 1)]
    # apimachinery v0.36 (Kubernetes 1.35 on): content.IsLabelKey's texts (D59)
    assert qualified_name_errors("a/b/c")[0].startswith("a valid label key must consist of")
    assert qualified_name_errors("x" * 64) == ["name part must be no more than 63 bytes"]
    assert qualified_name_errors("nvidia.com/dynamo-component") == []


def test_generate_name_masks_a_trailing_dash() -> None:
    assert object_meta_errors({"metadata": {"generateName": "llama-"}}) == []
    errs = object_meta_errors({"metadata": {}})
    assert [(e.rule, e.message) for e in errs] == [("metadata.name-required",
                                                     "Required value: name or generateName is required")]


def test_annotations_total_size() -> None:
    big = {"metadata": {"name": "a", "annotations": {"k": "v" * (256 * 1024)}}}
    errs = object_meta_errors(big)
    assert [e.message for e in errs] == ["Too long: may not be more than 262144 bytes"]
    assert object_meta_errors({"metadata": {"name": "a", "annotations": {"k": "v" * (256 * 1024 - 1)}}}) == []


def test_bad_name_is_refused_at_its_line(tmp_path: Path) -> None:
    f = _write(tmp_path, EXAMPLE.read_text().replace("name: llama-disagg", "name: Llama_Disagg", 1))
    rc, out, _ = run("validate", str(f))
    assert rc == 1
    assert out == (f'{f}:{_line(f, "Llama_Disagg")}:3: DynamoGraphDeployment/Llama_Disagg: metadata.name: '
                   f'Invalid value: "Llama_Disagg": {SUBDOMAIN} [metadata.invalid-name]\n')


def test_missing_name_and_bad_label_key_are_refused(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace("  name: llama-disagg\n", '  labels:\n    "bad label!": x\n', 1)
    f = _write(tmp_path, text)
    rc, out, _ = run("validate", str(f))
    assert rc == 1
    lines = out.splitlines()
    assert any("metadata.name: Required value: name or generateName is required [metadata.name-required]" in x
               for x in lines), out
    key = next(x for x in lines if "[metadata.invalid-label-key]" in x)
    # kube-apiserver's field path is the map (``metadata.labels``), the key is named in the message
    assert key.startswith(f"{f}:{_line(f, 'labels:')}:3: ")
    assert f'Invalid value: "bad label!": {QNAME}' in key


def test_over_long_child_names_are_refused_at_the_component(tmp_path: Path) -> None:
    # the DGD name is fine (53 characters); the Service the operator creates for a component is not
    name = "llama-disagg-" + "x" * 40
    text = EXAMPLE.read_text().replace("name: llama-disagg", f"name: {name}", 1)
    f = _write(tmp_path, text)
    for settings in ([], ["--set", "grove_enabled=false"]):
        rc, out, _ = run("validate", *settings, str(f))
        assert rc == 1
        lines = out.splitlines()
        assert lines and all("[reconcile." in x for x in lines), out
        svc = [x for x in lines if f"Service/{name}-vllmprefillworker" in x and "metadata.name" in x]
        assert svc, out
        assert svc[0].startswith(f"{f}:{_line(f, '- name: VllmPrefillWorker')}:")  # located at the component
        assert "must be no more than 63 characters" in svc[0] and "spec.components[2]" in svc[0]
        assert "[reconcile.invalid-name]" in svc[0]
        # render refuses the same input: validate told the user first
        assert run("render", *settings, str(f))[0] == 1


def test_grove_refusals_are_reconcile_errors(tmp_path: Path) -> None:
    # admitted (the webhook's own Grove name-length rule passes), but Grove's webhook refuses the
    # PodCliqueSet's clique labels derived from the DGD name
    name = "llama-disagg-" + "x" * 40
    f = _write(tmp_path, EXAMPLE.read_text().replace("name: llama-disagg", f"name: {name}", 1))
    rc, out, _ = run("validate", str(f))
    assert rc == 1
    grove = [x for x in out.splitlines() if "PodCliqueSet/" in x and "[reconcile.grove." in x]
    assert grove, out
    assert any(x.startswith(f"{f}:{_line(f, '- name: VllmDecodeWorker')}:") and "(component VllmDecodeWorker)" in x
               for x in grove)


@pytest.mark.parametrize("example", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_examples_have_no_reconcile_errors(example: Path) -> None:
    _, out, _ = run("validate", str(example))
    assert "[reconcile." not in out
