"""``DYN_DEPLOYMENT_CONFIG`` handling during DGD → DCD generation.

Upstream (reference revision 2a6da14c): ``internal/dynamo/graph.go`` ``applyDynDeploymentConfig``,
``updateDynDeploymentConfigBytes``, ``ParseDynDeploymentConfig``, ``getDynDeploymentServiceConfig``,
``applyDynDeploymentResources`` (called at the end of ``generateSingleDCD``; the Grove path does not
call it). For a frontend DCD the JSON entry of the component (else the first key equal to
``frontend`` case-insensitively) gets ``"port": 8000`` and the env value is re-marshalled (Go
``json.Marshal`` of ``map[string]map[string]any``: sorted keys, compact, numbers as float64). The
component's ``ServiceArgs`` then set ``replicas`` (when unset) from ``workers`` and requests *and*
limits of ``cpu``/``memory``/``nvidia.com/gpu``/custom resources on ``main``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._errors import RenderError
from ._hashjson import canonical_quantity

ENV_NAME = "DYN_DEPLOYMENT_CONFIG"
FRONTEND_PORT = 8000
GPU_RESOURCE = "nvidia.com/gpu"
_RULE = "render.deployment-config"


def _main(dcd_spec: Mapping[str, Any]) -> dict[str, Any] | None:
    for c in ((dcd_spec.get("podTemplate") or {}).get("spec") or {}).get("containers") or []:
        if isinstance(c, dict) and c.get("name") == "main":
            return c
    return None


def _env_value(main: Mapping[str, Any]) -> str | None:
    for env in main.get("env") or []:
        if env.get("name") == ENV_NAME:
            return str(env.get("value") or "")
    return None


def _set_env_value(main: dict[str, Any], value: str) -> None:
    for env in main.get("env") or []:
        if env.get("name") == ENV_NAME:
            env["value"] = value
            return


def _reject_constant(token: str) -> Any:
    raise ValueError(f"invalid character '{token[0]}' looking for beginning of value")


def _loads(raw: str) -> Any:
    # Go decodes JSON numbers into float64 when the target is ``any``.
    return json.loads(raw, parse_int=float, parse_constant=_reject_constant)


def update_config_bytes(raw: str, component_name: str, port: int) -> str:
    """``updateDynDeploymentConfigBytes``."""
    from .._k8s._gofmt import go_json

    try:
        config = _loads(raw)
    except ValueError as exc:
        raise RenderError.at(f"{ENV_NAME}: {exc}", rule=_RULE) from exc
    if config is None:
        config = {}
    if not isinstance(config, dict) or any(v is not None and not isinstance(v, dict) for v in config.values()):
        raise RenderError.at(f"{ENV_NAME}: json: cannot unmarshal into Go value of type map[string]map[string]interface {{}}",
                          rule=_RULE)
    target: dict[str, Any] | None = None
    if component_name in config:
        target = config[component_name]
    else:
        for name, svc in config.items():
            if name.lower() == "frontend":
                target = svc
                break
    if target is None and (component_name in config or any(n.lower() == "frontend" for n in config)):
        # a JSON null entry: assigning into a nil Go map panics; report it instead
        raise RenderError.at(f"{ENV_NAME}: the frontend entry is null", rule=_RULE)
    if target is not None:
        target["port"] = port
    return go_json(config, sort_keys=True)


def _service_config(config: Mapping[str, Any], component_name: str, is_frontend: bool) -> Any:
    if config.get(component_name) is not None:
        return config[component_name]
    if not is_frontend:
        return None
    for name, svc in config.items():  # Go map iteration: any matching key
        if name.lower() == "frontend" and svc is not None:
            return svc
    return None


def _field(obj: Mapping[str, Any], name: str) -> Any:
    """A Go struct field decoded by ``encoding/json``: keys match case-insensitively; the last match wins."""
    value = None
    for key, v in obj.items():
        if str(key).lower() == name.lower():
            value = v
    return value


def _quantity(name: str, value: Any) -> str:
    from .._k8s._quantity import split_quantity

    if not isinstance(value, str) or split_quantity(value.strip()) is None:
        raise RenderError.at(f'parse resource {name} quantity "{value}": quantities must match the regular expression '
                          "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", rule=_RULE)
    return canonical_quantity(value)


def apply_dyn_deployment_config(dcd: dict[str, Any]) -> None:
    """``applyDynDeploymentConfig`` on a generated DCD (dict form, in place)."""
    spec = dcd.setdefault("spec", {})
    main = _main(spec)
    if main is None:
        return
    raw = _env_value(main)
    if raw is None:
        return
    name = str(spec.get("name") or ((dcd.get("metadata") or {}).get("labels") or {}).get("nvidia.com/dynamo-component")
               or (dcd.get("metadata") or {}).get("name") or "")
    is_frontend = spec.get("type") == "frontend"
    if is_frontend:
        raw = update_config_bytes(raw, name, FRONTEND_PORT)
        _set_env_value(main, raw)
    try:
        config = json.loads(raw) if raw.strip() else None
    except ValueError as exc:
        raise RenderError.at(f"{ENV_NAME}: {exc}", rule=_RULE) from exc
    if config is None:
        return
    if not isinstance(config, dict):
        raise RenderError.at(f"{ENV_NAME}: json: cannot unmarshal into Go value of type map[string]*DynDeploymentServiceConfig",
                          rule=_RULE)
    svc = _service_config(config, name, is_frontend)
    if not isinstance(svc, dict):
        return
    args = _field(svc, "ServiceArgs")
    if not isinstance(args, dict):
        return
    workers = _field(args, "workers")
    if spec.get("replicas") is None and isinstance(workers, int) and not isinstance(workers, bool):
        spec["replicas"] = workers
    resources = _field(args, "resources")
    if not isinstance(resources, dict):
        return
    res = main.setdefault("resources", {})
    requests = dict(res.get("requests") or {})
    limits = dict(res.get("limits") or {})
    for rname, value in (("cpu", _field(resources, "cpu")), ("memory", _field(resources, "memory")),
                         (GPU_RESOURCE, _field(resources, "gpu"))):
        if value is None or value == "":
            continue
        requests[rname] = limits[rname] = _quantity(rname, value)
    for rname, value in sorted((_field(resources, "custom") or {}).items()):
        requests[str(rname)] = limits[str(rname)] = _quantity(str(rname), value)
    if requests:
        res["requests"] = requests
    if limits:
        res["limits"] = limits
