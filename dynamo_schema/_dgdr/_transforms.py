"""Step 4: ``dgd_materialization.materialize_dgd``'s transforms in their fixed order.

``spec.overrides.dgd`` merge -> model runtime constraints -> profiling-job tolerations ->
trust-remote-code policy.
"""

from __future__ import annotations

from typing import Any

from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._common import (
    DgdrError,
    component_named,
    components_of,
    main_container,
    worker_main_containers,
)
from dynamo_schema._dgdr._request import Request

TRUST_REMOTE_CODE_FLAG = "--trust-remote-code"
TRUST_REMOTE_CODE_BACKENDS = frozenset({"vllm", "sglang"})


def apply_override(dgd: dict[str, Any], override: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    try:
        from dynamo_schema._merge import MergeError, apply_overrides
    except ImportError as exc:  # pragma: no cover - the merge package ships with the library
        raise DgdrError(f"failed to apply DGD override: merge engine unavailable ({exc})") from exc
    try:
        result = apply_overrides(dgd, override)
    except MergeError as exc:
        raise DgdrError(
            f"failed to apply DGD override: {exc}", ("spec", "overrides", "dgd"), "dgdr.override"
        ) from exc
    # the Go engine's warnings are logged as "DGD override: <warning>"; the adapter's own are not prefixed
    warnings.extend(w if w.startswith("DGD override") else f"DGD override: {w}" for w in result.warnings)
    return result.dgd


def _worker_for_role(dgd: dict[str, Any], role: str) -> dict[str, Any] | None:
    comps = components_of(dgd)
    for c in comps:
        if c.get("type") == role:
            return c
    generic = [c for c in comps if c.get("type") == "worker"]
    if len(generic) == 1:
        return generic[0]
    default = {"prefill": "VllmPrefillWorker", "decode": "VllmDecodeWorker"}[role]
    return component_named(dgd, default)


def apply_vllm_runtime_constraints(
    dgd: dict[str, Any], context_length: int | None, warnings: list[str], notes: list[str]
) -> None:
    for role in ("prefill", "decode"):
        found = _worker_for_role(dgd, role)
        mc = main_container(found) if found is not None else None
        if found is None or mc is None or A.is_shell_form(mc):
            continue
        comp: dict[str, Any] = found
        args = A.break_arguments(mc.get("args"))
        current = A.get_valued_argument(args, "--max-model-len")
        if current is not None:
            if context_length is None:
                notes.append(
                    f"{comp.get('name')}: --max-model-len={current} kept; upstream clamps it to the model's "
                    "context window read from its config.json (pass topology modelContextLength)"
                )
            else:
                try:
                    value = _parse_human_int(current)
                except ValueError:
                    warnings.append(f"Cannot validate non-integer vLLM --max-model-len value {current!r}")
                else:
                    target = min(value, context_length)
                    if target < value:
                        warnings.append(
                            f"Clamping vLLM --max-model-len from {value} to model context window {context_length}"
                        )
                    args = A.set_unique_argument_value(args, "--max-model-len", str(target))
        mamba = A.get_valued_argument(args, "--mamba-cache-mode")
        if mamba and mamba.lower() == "align":
            notes.append(
                f"{comp.get('name')}: --mamba-cache-mode align: upstream raises --max-num-batched-tokens to the "
                "model's Mamba cache block size (needs the model config); not applied"
            )
        mc["args"] = args


def _parse_human_int(value: str) -> int:
    import re

    value = value.strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmMgGtT])", value)
    if m is None:
        return int(value)
    number, suffix = m.groups()
    if suffix.islower():
        return int(float(number) * {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}[suffix])
    return int(number) * {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}[suffix]


def inject_tolerations(dgd: dict[str, Any], tolerations: list[Any]) -> None:
    for comp in components_of(dgd):
        pod = comp.setdefault("podTemplate", {}).setdefault("spec", {})
        existing = pod.get("tolerations") or []
        new = [t for t in tolerations if t not in existing]
        if new:
            pod["tolerations"] = list(existing) + new


def _is_mocker(mc: dict[str, Any]) -> bool:
    tokens = list(mc.get("command") or []) + list(mc.get("args") or [])
    return "dynamo.mocker" in " ".join(str(t) for t in tokens)


def _all_workers_trusted(dgd: dict[str, Any]) -> bool:
    seen = False
    for _, mc in worker_main_containers(dgd):
        seen = True
        if _is_mocker(mc):
            continue
        args = mc.get("args") or []
        if A.is_shell_form(mc):
            if TRUST_REMOTE_CODE_FLAG not in args[0]:
                return False
        elif TRUST_REMOTE_CODE_FLAG not in args:
            return False
    return seen


def inject_trust_remote_code(dgd: dict[str, Any]) -> list[str]:
    changed: list[str] = []
    for comp, mc in worker_main_containers(dgd):
        if _is_mocker(mc):
            continue
        args = mc.get("args") or []
        if A.is_shell_form(mc):
            if TRUST_REMOTE_CODE_FLAG in args[0]:
                continue
            mc["args"] = [args[0] + " " + TRUST_REMOTE_CODE_FLAG]
        else:
            if TRUST_REMOTE_CODE_FLAG in args:
                continue
            mc["args"] = list(args) + [TRUST_REMOTE_CODE_FLAG]
        changed.append(str(comp.get("name")))
    return changed


def _model_ref_is_local(req: Request, topology: dict[str, Any]) -> bool:
    if "modelIsLocal" in topology:
        return bool(topology["modelIsLocal"])
    return req.model.startswith(("/", "."))


def materialize_dgd(
    req: Request,
    dgd: dict[str, Any],
    backend: str,
    topo: dict[str, Any],
    warnings: list[str],
    notes: list[str],
    steps: list[str],
) -> dict[str, Any]:
    """``materialize_dgd``: override -> runtime constraints -> tolerations -> trust-remote-code."""
    if req.override:
        dgd = apply_override(dgd, req.override, warnings)
        steps.append("override")
    if backend == "vllm":
        apply_vllm_runtime_constraints(dgd, topo.get("modelContextLength"), warnings, notes)
        steps.append("runtime constraints")
    if req.tolerations:
        inject_tolerations(dgd, req.tolerations)
        steps.append("tolerations")
    if backend in TRUST_REMOTE_CODE_BACKENDS:
        if req.trust_remote_code:
            inject_trust_remote_code(dgd)
            steps.append("trust-remote-code")
        elif topo.get("modelHasAutoMap"):
            if _all_workers_trusted(dgd):
                pass
            elif not _model_ref_is_local(req, topo):
                raise DgdrError(
                    "Refusing to auto-inject --trust-remote-code for mutable remote "
                    f"model ref {req.model!r}. Set --trust-remote-code "
                    "explicitly via overrides if this ref is intended.",
                    ("spec", "model"),
                    "dgdr.trust-remote-code",
                )
            else:
                inject_trust_remote_code(dgd)
                steps.append("trust-remote-code")
        elif "modelHasAutoMap" not in topo:
            notes.append(
                "trust-remote-code: upstream injects --trust-remote-code when the model's config.json has "
                "auto_map (read from the model, not done here); set overrides.trustRemoteCode or topology "
                "modelHasAutoMap"
            )
    return dgd
