"""Step 2, the model: ``build_dgd_config``'s worker model flags, model cache volume and Frontend CLI."""

from __future__ import annotations

from typing import Any

from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._common import (
    WORKER_TYPES,
    DgdrError,
    component_named,
    components_of,
    main_container,
    set_unique_env,
)
from dynamo_schema._dgdr._request import Request

# Worker CLI flags naming the model (``BaseConfigModifier.WORKER_MODEL_PATH_ARG`` per backend).
MODEL_PATH_ARG = {"vllm": "--model", "sglang": "--model-path", "trtllm": "--model-path"}
SERVED_MODEL_NAME_ARG = "--served-model-name"


def normalize_model_cache_path(mount: str | None, model_path: str | None) -> str:
    m = (mount or "").rstrip("/")
    raw = (model_path or "").strip()
    if not raw:
        return m
    absolute = raw.rstrip("/")
    if m and (absolute == m or absolute.startswith(f"{m}/")):
        return absolute
    sub = raw.lstrip("/")
    return f"{m}/{sub}" if sub else m


def apply_model(req: Request, backend: str, dgd: dict[str, Any], notes: list[str]) -> None:
    """``build_dgd_config``'s model step: worker model flags, model cache volume, Frontend CLI."""
    raw_cache = req.spec.get("modelCache")
    cache: dict[str, Any] = raw_cache if isinstance(raw_cache, dict) else {}
    pvc_name = cache.get("pvcName") or None
    mount = cache.get("pvcMountPath") or "/opt/model-cache"
    pvc_model_path = cache.get("pvcModelPath") or None
    model_name = req.model
    model_path = model_name
    patch_frontend = False
    if pvc_name:
        for comp in components_of(dgd):
            _ensure_pvc_mount(comp, pvc_name, mount)
        if pvc_model_path:
            model_path = normalize_model_cache_path(mount, pvc_model_path)
            if model_path == mount.rstrip("/"):
                for comp in components_of(dgd):
                    mc = main_container(comp)
                    if mc is not None:
                        set_unique_env(mc, "HF_HOME", mount)
                model_path = model_name
            patch_frontend = True
        else:
            for comp in components_of(dgd):
                mc = main_container(comp)
                if mc is not None:
                    set_unique_env(mc, "HF_HOME", mount)
    patch_frontend = patch_frontend or model_path.startswith(("/", "."))

    path_arg = MODEL_PATH_ARG[backend]

    def patch_worker(tokens: list[str]) -> list[str]:
        tokens = A.set_unique_argument_value(tokens, path_arg, model_path)
        return A.set_unique_argument_value(tokens, SERVED_MODEL_NAME_ARG, model_name)

    for comp in components_of(dgd):
        if comp.get("type") in WORKER_TYPES:
            mc = main_container(comp)
            if mc is not None:
                A.update_args_preserving_shell_form(mc, patch_worker)
    if patch_frontend:
        fe = component_named(dgd, "Frontend")
        mc = main_container(fe) if fe is not None else None
        if mc is not None:
            if not mc.get("command") and not mc.get("args"):
                mc["command"] = ["python3"]
                mc["args"] = ["-m", "dynamo.frontend"]

            def patch_frontend_args(tokens: list[str]) -> list[str]:
                tokens = A.set_unique_argument_value(tokens, "--model-name", model_name)
                return A.set_unique_argument_value(tokens, "--model-path", model_path)

            A.update_args_preserving_shell_form(mc, patch_frontend_args)


def _ensure_pvc_mount(component: dict[str, Any], pvc_name: str, mount: str) -> None:
    pod = component.setdefault("podTemplate", {}).setdefault("spec", {})
    raw_volumes = pod.get("volumes")
    volumes: list[Any] = raw_volumes if isinstance(raw_volumes, list) else []
    for v in volumes:
        if isinstance(v, dict) and v.get("name") == pvc_name:
            v["persistentVolumeClaim"] = {"claimName": pvc_name}
            break
    else:
        volumes.append({"name": pvc_name, "persistentVolumeClaim": {"claimName": pvc_name}})
    pod["volumes"] = volumes
    mc = main_container(component)
    if mc is None:
        raise DgdrError(f"Component {component.get('name')!r} does not define a main container")
    raw_mounts = mc.get("volumeMounts")
    mounts: list[Any] = raw_mounts if isinstance(raw_mounts, list) else []
    for m in mounts:
        if isinstance(m, dict) and m.get("name") == pvc_name:
            m["mountPath"] = mount
            mc["volumeMounts"] = mounts
            return
    mounts.append({"name": pvc_name, "mountPath": mount})
    mc["volumeMounts"] = mounts
