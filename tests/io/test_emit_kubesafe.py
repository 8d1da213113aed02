"""Emitter: Kubernetes-safe YAML. The oracle is kubectl itself (ecosystem-notes §1, §5.3):
``kubectl patch --local --type merge -p '{}' -o json -f FILE`` decodes YAML as the API client does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynamo_schema._io._emit import dump, dump_all, dump_json, needs_quotes
from dynamo_schema._io._load import load, load_text

KUBECTL = shutil.which("kubectl") or ("/usr/bin/kubectl" if os.path.exists("/usr/bin/kubectl") else None)
needs_kubectl = pytest.mark.needs("kubectl")

# ecosystem-notes §1: strings kubectl (YAML-1.1 booleans, 1.1/1.2 numbers), kustomize (yaml.v3) or
# PyYAML would read as something else, plus the env values called out there.
TRICKY = [
    "y",
    "n",
    "Y",
    "N",
    "yes",
    "Yes",
    "no",
    "NO",
    "on",
    "ON",
    "off",
    "Off",
    "true",
    "True",
    "false",
    "FALSE",
    "null",
    "Null",
    "~",
    "",
    "1e3",
    "1e+3",
    "1E3",
    "0o10",
    "0O10",
    "010",
    "09",
    "0x1F",
    "0X1f",
    "0b11",
    "-0b11",
    "1_000",
    "1__0",
    "+1",
    "-1",
    "1234e56",
    "1.0",
    "3.",
    ".5",
    "-.5",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "8000",
    "2001-12-14",
    "2001-12-14T21:59:43.10-05:00",
    "12:30:45",
    "190:20:30",
    "=",
    "<<",
    '["generate"]',
    "[a]",
    "{a: b}",
    "- x",
    "a: b",
    "#c",
    "a #b",
    "@x",
    "`x",
    "'q'",
    '"d"',
    "%x",
    "!tag",
    "&a",
    "*a",
    "|",
    "> x",
    "?",
    "? x",
    " lead",
    "trail ",
    "multi\nline\n",
    "no-newline\nat end",
    "\n",
    "a\tb",
    "é",
    "Ünïcödé ✓",
    "\x85",
    "\u2028",
    "---",
    "...",
    "1.0e400",
    "0.",
    "-0",
    "+.5e-3",
]


def kubectl_decode(path: Path) -> Any:
    assert KUBECTL is not None
    proc = subprocess.run(
        [KUBECTL, "patch", "--local", "--type", "merge", "-p", "{}", "-o", "json", "-f", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "KUBECONFIG": "/dev/null"},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def configmap(values: list[str]) -> dict[str, Any]:
    data: dict[str, str] = {f"k{i}": s for i, s in enumerate(values)}
    for s in values:  # the same strings as keys
        data.setdefault(s, "key")
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "strings"}, "data": data}


# ------------------------------------------------------------------------------------------------
# fixed table


@pytest.mark.parametrize(
    "s",
    [
        "y",
        "n",
        "Y",
        "yes",
        "off",
        "ON",
        "1e3",
        "1e+3",
        "0o10",
        "1234e56",
        "8000",
        "true",
        "1.0",
        "0x1F",
        "1_000",
        "09",
        ".inf",
        "~",
        "null",
    ],
)
def test_tricky_scalars_are_quoted(s: str) -> None:
    assert needs_quotes(s)
    assert dump({"v": s}) == f"v: '{s}'\n"
    assert dump({s: 1}) == f"'{s}': 1\n"


def test_flow_looking_string_is_quoted() -> None:
    # DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS's value, bare, is a flow sequence
    assert dump({"value": '["generate"]'}) == "value: '[\"generate\"]'\n"


def test_plain_strings_stay_plain() -> None:
    assert dump({"image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.1", "name": "frontend"}) == (
        "image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.1\nname: frontend\n"
    )
    assert not needs_quotes("frontend") and not needs_quotes("v1beta1") and not needs_quotes("1Gi")


def test_multiline_literal_block_and_no_folding() -> None:
    long = "x" * 300 + " " + "y" * 300
    out = dump({"script": "set -e\necho hi\n", "long": long})
    assert out == "script: |\n  set -e\n  echo hi\nlong: " + long + "\n"


def test_key_order_unicode_and_determinism() -> None:
    obj = {"z": 1, "a": {"é": "ü", "b": [1, 2.5, True, None]}, "m": []}
    out = dump(obj)
    assert out == "z: 1\na:\n  é: ü\n  b:\n  - 1\n  - 2.5\n  - true\n  - null\nm: []\n"
    assert dump(obj) == out


def test_dump_all_separates_documents() -> None:
    assert dump_all([{"a": 1}, {"b": "n"}]) == "a: 1\n---\nb: 'n'\n"
    assert dump_all([]) == ""


def test_dump_json() -> None:
    assert dump_json({"b": 1, "a": ["é", None]}) == '{\n  "b": 1,\n  "a": [\n    "é",\n    null\n  ]\n}\n'


def test_tricky_table_round_trips_through_our_loader_and_pyyaml() -> None:
    obj = configmap(TRICKY)
    out = dump(obj)
    assert load_text(out)[0].data == obj  # kubectl semantics (go-yaml v2)
    assert load(out, decoder="yaml.v3").documents[0].data == obj  # kustomize semantics
    assert yaml.safe_load(out) == obj  # PyYAML, YAML 1.1


@needs_kubectl
def test_tricky_table_round_trips_through_kubectl(tmp_path: Path) -> None:
    obj = configmap(TRICKY)
    f = tmp_path / "cm.yaml"
    f.write_text(dump(obj), encoding="utf-8")
    assert kubectl_decode(f)["data"] == obj["data"]


# ------------------------------------------------------------------------------------------------
# property test with kubectl as the decoding oracle

_words = st.sampled_from(
    ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "inf", "nan", ".inf", ".nan", "~"]
)
_cased = st.builds(
    lambda w, flips: "".join(c.upper() if f else c for c, f in zip(w, flips)),
    _words,
    st.lists(st.booleans(), min_size=5, max_size=5),
)
_numberish = st.from_regex(r"[-+]?[0-9_.eExXoObB:]{1,8}", fullmatch=True)
_strings = st.one_of(
    st.text(max_size=20),
    _cased,
    _numberish,
    st.sampled_from(TRICKY),
    st.from_regex(r"[\[\]{}:#&*!|>'\"%@` \-?,0-9a-z\n]{1,10}", fullmatch=True),
)


@needs_kubectl
@settings(
    # derandomized in CI by the "ci" profile (tests/conftest.py); random seeds elsewhere
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(_strings, min_size=1, max_size=40))
def test_strings_survive_kubectl(tmp_path: Path, values: list[str]) -> None:
    obj = configmap(values)
    out = dump(obj)
    f = tmp_path / "cm.yaml"
    f.write_text(out, encoding="utf-8")
    assert kubectl_decode(f)["data"] == obj["data"]
    assert load_text(out)[0].data == obj


def test_shared_subobjects_are_written_in_full_not_as_anchors() -> None:
    """Kubernetes tooling (and readers) expect plain documents: no ``&id001`` / ``*id001``."""
    from dynamo_schema._io._emit import dump_all

    labels = {"app": "x"}
    text = dump_all([{"metadata": {"labels": labels}, "spec": {"selector": {"matchLabels": labels}}}])
    assert "&" not in text and "*" not in text
    assert text.count("app: x") == 2
