"""Harness for the real kubeconform: schema folders laid out for ``-schema-location``, one run, parsed.

* Dynamo, Grove and LWS kinds: the committed ``schemas/`` (CRDs-catalog layout
  ``{group}/{kind}_{version}.json``).
* Built-in kinds: the strict schemas bundled with ``kubernetes-validate`` for the release our own
  validator uses (``_k8s_schemas.DEFAULT_KUBERNETES_VERSION``). Their ``$ref``s point at an absolute
  ``/api/_definitions.json``, which kubeconform cannot resolve offline, so each kind schema is copied
  self-contained (the definitions embedded as ``$defs``, the references made local).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from ._tools import ROOT

_ABS_REF = '"/api/_definitions.json#/'


def k8s_schema_dir(dest: Path, kinds: set[tuple[str, str]]) -> Path:
    """Self-contained copies of the bundled schemas of ``kinds`` ((apiVersion, kind)) under ``dest``,
    named as kubeconform's ``{{.ResourceKind}}{{.KindSuffix}}.json`` expects."""
    from dynamo_schema._k8s import _builtin_kinds as k

    src = k._schema_dir(k.DEFAULT_KUBERNETES_VERSION, True)
    assert src is not None, "kubernetes-validate ships no strict schemas"
    defs = json.loads((src / "_definitions.json").read_text())["$defs"]
    dest.mkdir(parents=True, exist_ok=True)
    for api, kind in sorted(kinds):
        name = k._kind_file(api, kind)
        if name is None or not (src / name).is_file():
            continue
        text = (src / name).read_text().replace(_ABS_REF, '"#/')
        schema = json.loads(text)
        schema["$defs"] = defs
        schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
        (dest / name).write_text(json.dumps(schema))
    return dest


def run(binary: str, paths: list[Path], k8s_dir: Path, schemas: Path = ROOT / "schemas") -> list[dict[str, Any]]:
    """``kubeconform -strict`` over ``paths``; one result dict per resource (status, msg, filename…)."""
    cmd = [
        binary, "-strict", "-summary", "-verbose", "-output", "json", "-n", "2",
        "-schema-location", str(schemas) + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json",
        "-schema-location", str(k8s_dir) + "/{{.ResourceKind}}{{.KindSuffix}}.json",
        *map(str, paths),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:  # pragma: no cover - reported verbatim
        raise AssertionError(f"kubeconform printed no JSON (rc={proc.returncode}): {proc.stderr[:2000]}") from exc
    resources = report.get("resources") or []
    # kubeconform lists only non-valid resources unless -verbose; the summary has the counts
    summary = report.get("summary") or {}
    return [*resources, {"summary": summary}]


def split(results: list[dict[str, Any]]) -> tuple[dict[str, int], list[dict[str, Any]]]:
    return results[-1]["summary"], results[:-1]
