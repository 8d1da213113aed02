"""Test helpers for the merge tests: case paths, a schema source built from the upstream CRDs, and the
blueprint of the override rejection/warning tests.

The package never reads ../shared; tests build ``schema_for`` from the reference CRDs until
``dynamo_schema._schema._schemas.load`` exists (then the package default is used as well, see
``schema_sources``).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SHARED = (ROOT / ".." / "shared").resolve()
CASES = SHARED / "reference" / "dynamo" / "overrides"
CRDS = SHARED / "reference" / "dynamo" / "crds"

_MISSING = object()


@functools.cache
def _crd(name: str) -> dict:
    with open(CRDS / name, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=yaml.CSafeLoader)


def crd_schema_for(api_version: str, kind: str) -> dict:
    from dynamo_schema._merge._schema import schema_from_crd

    plural = {
        "DynamoGraphDeployment": "nvidia.com_dynamographdeployments.yaml",
        "DynamoComponentDeployment": "nvidia.com_dynamocomponentdeployments.yaml",
        "DynamoGraphDeploymentRequest": "nvidia.com_dynamographdeploymentrequests.yaml",
    }[kind]
    return schema_from_crd(_crd(plural), api_version.split("/", 1)[1])


def case_files() -> list[Path]:
    if not CASES.is_dir():
        return []
    return sorted(CASES.glob("*.yaml"))


# --------------------------------------------------------------------------------------------------
# README path language: dotted keys, [N], [name=X], ["key"], $patch literal, @workerMainEnv

_TOKEN = re.compile(r'\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]|\[([A-Za-z0-9_.-]+)=([^\]]*)\]|\.?([^.\[]+)')


def parse_path(path: str) -> list[Any]:
    out: list[Any] = []
    pos = 0
    while pos < len(path):
        m = _TOKEN.match(path, pos)
        if not m or m.end() == pos:
            raise ValueError(f"bad path {path!r} at {pos}")
        quoted, index, sel_key, sel_val, plain = m.groups()
        if quoted is not None:
            out.append(("key", quoted))
        elif index is not None:
            out.append(("index", int(index)))
        elif sel_key is not None:
            out.append(("select", sel_key, sel_val))
        else:
            out.append(("key", plain))
        pos = m.end()
    return out


def lookup(obj: Any, path: str) -> Any:
    """The value at ``path`` or ``_MISSING``."""
    if path == "@workerMainEnv":
        return worker_main_env(obj)
    cur = obj
    for step in parse_path(path):
        if step[0] == "key":
            if not isinstance(cur, dict) or step[1] not in cur:
                return _MISSING
            cur = cur[step[1]]
        elif step[0] == "index":
            if not isinstance(cur, list) or step[1] >= len(cur):
                return _MISSING
            cur = cur[step[1]]
        else:
            if not isinstance(cur, list):
                return _MISSING
            match = [x for x in cur if isinstance(x, dict) and str(x.get(step[1])) == step[2]]
            if not match:
                return _MISSING
            cur = match[0]
    return cur


def worker_main_env(obj: dict) -> Any:
    env: dict = {}
    if obj.get("apiVersion") == "nvidia.com/v1alpha1":
        svc = lookup(obj, "spec.services.Worker")
        if svc is _MISSING:
            return _MISSING
        entries = list(svc.get("envs") or []) + list(
            ((svc.get("extraPodSpec") or {}).get("mainContainer") or {}).get("env") or []
        )
    else:
        found = lookup(obj, "spec.components[name=Worker].podTemplate.spec.containers[name=main].env")
        entries = [] if found is _MISSING else list(found or [])
    for e in entries:
        env[e["name"]] = e.get("value")
    return env


MISSING = _MISSING


# The blueprint and override builder of the override rejection/warning tests.
BETA_BP = {
    "apiVersion": "nvidia.com/v1beta1",
    "kind": "DynamoGraphDeployment",
    "metadata": {"name": "generated", "namespace": "default", "labels": {"existing": "x"}},
    "spec": {
        "backendFramework": "vllm",
        "components": [{"name": "Frontend", "type": "frontend"}, {"name": "worker", "type": "worker"}],
    },
}


def _beta(spec: dict | None = None, **top: object) -> dict:
    out: dict = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", **top}
    if spec is not None:
        out["spec"] = spec
    return out
