"""Loader vs kubectl: plain scalars (values and keys) decode to what kubectl decodes them to.

Oracle: ``kubectl patch --local --type merge -p '{}' -o json`` (sigs.k8s.io/yaml), ecosystem-notes §5.3.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dynamo_schema._io._load import load_text

KUBECTL = shutil.which("kubectl") or ("/usr/bin/kubectl" if os.path.exists("/usr/bin/kubectl") else None)
pytestmark = pytest.mark.needs("kubectl")


def kubectl_decode(text: str, tmp: Path) -> Any:
    assert KUBECTL is not None
    f = tmp / "obj.yaml"
    f.write_text(text, encoding="utf-8")
    proc = subprocess.run(
        [KUBECTL, "patch", "--local", "--type", "merge", "-p", "{}", "-o", "json", "-f", str(f)],
        capture_output=True, text=True, check=False, env={**os.environ, "KUBECONFIG": "/dev/null"},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def is_plain_scalar(s: str) -> bool:
    """``s`` written bare after ``k: `` is one plain scalar with exactly this text."""
    try:
        node = yaml.compose(f"k: {s}\n", Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return False
    if node is None or not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
        return False
    value = node.value[0][1]
    return isinstance(value, yaml.ScalarNode) and not value.style and value.value == s and (
        value.tag != "tag:yaml.org,2002:null" or s in ("~", "null", "Null", "NULL"))


_words = st.sampled_from(["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", ".inf",
                          ".nan", "<<", "=", "2001-12-14", "12:30", "1:20:30"])
_cased = st.builds(lambda w, flips: "".join(c.upper() if f else c for c, f in zip(w, flips)),
                   _words, st.lists(st.booleans(), min_size=10, max_size=10))
_numberish = st.from_regex(r"[-+]?[0-9_.eExXoObB]{1,10}", fullmatch=True)
_tokens = st.one_of(_cased, _numberish, st.from_regex(r"[0-9a-fA-F_.:+-]{1,8}", fullmatch=True))
# a plain scalar that starts with "." is read by strconv.ParseFloat with Go's digit separators
# (found by a random seed: ".0_0" is 0 to kubectl)
_DOT_FLOATS = [".0_0", ".5_5", ".1_2_3", ".5e1_0", ".5e+1_0", ".0e0_1", ".5E-1", ".5e_1", "._5", ".5_",
               ".5__5", ".5_e1", ".5e1_", ".5e", ".e5", ".", "._", ".0x1", ".5p1"]


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(_tokens, min_size=1, max_size=40, unique=True))
@example(tokens=_DOT_FLOATS)
def test_plain_scalars_decode_like_kubectl(tmp_path: Path, tokens: list[str]) -> None:
    tokens = [t for t in tokens if is_plain_scalar(t) and t not in (".inf", "+.inf", "-.inf")
              and t.lower().lstrip("+-") not in (".inf", ".nan")]
    lines = ["apiVersion: v1", "kind: Foo", "metadata: {name: x}", "values:"]
    lines += [f"  v{i}: {t}" for i, t in enumerate(tokens)]
    text = "\n".join(lines) + "\n"
    ours = load_text(text)[0].data
    theirs = kubectl_decode(text, tmp_path)
    assert ours.get("values") == theirs.get("values"), text


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(_tokens, min_size=1, max_size=30, unique=True))
@example(tokens=_DOT_FLOATS)
def test_plain_keys_decode_like_kubectl(tmp_path: Path, tokens: list[str]) -> None:
    tokens = [t for t in tokens if is_plain_scalar(t) and t.lower() not in ("~", "null", "<<")]
    # one key per sub-map: spellings that collide (y / true) would make kubectl's result depend on
    # Go's random map order
    lines = ["apiVersion: v1", "kind: Foo", "metadata: {name: x}", "keys:"]
    for i, t in enumerate(tokens):
        lines += [f"  g{i}:", f"    {t}: {i}"]
    text = "\n".join(lines) + "\n"
    ours = load_text(text)[0].data
    theirs = kubectl_decode(text, tmp_path)
    assert ours.get("keys") == theirs.get("keys"), text
