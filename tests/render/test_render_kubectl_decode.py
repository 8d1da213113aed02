"""Rendered output read back by kubectl is exactly what we rendered: every string is still a string.

kubectl decodes YAML with YAML-1.1 booleans and 1.1/1.2 number forms (ecosystem-notes §1), so a bare
``y``, ``1e3`` or ``0o10`` in an env value or a label would silently change type. Hypothesis puts such
values into a DGD; the rendered YAML goes through ``kubectl patch --local`` and must decode to the same
objects. Skipped cleanly where kubectl is not installed.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo_schema._io._emit import dump_all
from dynamo_schema._pipeline._render_object import render_object

ROOT = Path(__file__).resolve().parents[2]
KUBECTL = shutil.which("kubectl")

TRICKY = ["y", "n", "Y", "N", "yes", "no", "on", "off", "ON", "Off", "true", "False", "null", "~", "1e3", "1e+3",
          "0o10", "010", "0x1F", "1_000", "1234e56", ".inf", "-.Inf", ".nan", "8000", "1.0", "-1", "+1",
          '["generate"]', "{a: b}", "2026-11-29", "12:30", "a: b", "- x", "# c", "@x", "`x", "'q'", '"q"', ""]
LABEL_SAFE = [v for v in TRICKY if v == "" or (len(v) <= 63 and all(c.isalnum() or c in "-_." for c in v)
                                                and v[0].isalnum() and v[-1].isalnum())]

env_values = st.one_of(st.sampled_from(TRICKY), st.text(min_size=0, max_size=12))


def _decode_all(text: str) -> list[dict]:
    dec = json.JSONDecoder()
    out, i = [], 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = dec.raw_decode(text, i)
        out.append(obj)
    return out


@pytest.mark.needs("kubectl")
@settings(max_examples=15, deadline=None)
@given(values=st.lists(env_values, min_size=1, max_size=8), label=st.sampled_from(LABEL_SAFE),
       target=st.sampled_from(["kubernetes", "grove"]))
def test_kubectl_reads_rendered_output_back_unchanged(tmp_path_factory: pytest.TempPathFactory, values: list[str],
                                                      label: str, target: str) -> None:
    base = yaml.safe_load((ROOT / "examples" / "vllm-disagg.yaml").read_text())
    dgd = copy.deepcopy(base)
    main = dgd["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]
    main["env"] = [{"name": f"V{i}", "value": v} for i, v in enumerate(values)]
    dgd["spec"]["components"][1]["podTemplate"]["metadata"] = {"labels": {"tricky": label}}
    objs = render_object(dgd, target=target)
    path = tmp_path_factory.mktemp("k") / "rendered.yaml"
    path.write_text(dump_all(objs))
    proc = subprocess.run([KUBECTL, "patch", "--local", "--type", "merge", "-p", "{}", "-o", "json", "-f", str(path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    decoded = _decode_all(proc.stdout)
    assert decoded == json.loads(json.dumps(objs))
