"""Step 2: the rapid strategy's DGD from the blueprint (``config_modifiers/protocol.py`` ``build_dgd_config``).

Image, worker arguments, replicas and GPUs per role; parallelism and mode come from the ``topology``
input. The model step is :mod:`dynamo_schema._dgdr._model`.
"""

from __future__ import annotations

import json
from typing import Any

from dynamo_schema._core._consts import GPU_RESOURCE
from dynamo_schema._dgdr import _args as A
from dynamo_schema._dgdr._blueprints import load_blueprint
from dynamo_schema._dgdr._common import (
    WORKER_TYPES,
    DgdrError,
    components_of,
    derive_backend_image,
    main_container,
)
from dynamo_schema._dgdr._model import apply_model
from dynamo_schema._dgdr._request import Request


def worker_shape(topology: dict[str, Any], role: str) -> dict[str, int]:
    raw = topology.get(role)
    raw = raw if isinstance(raw, dict) else {}
    tp = int(raw.get("tp", 1))
    pp = int(raw.get("pp", 1))
    gpus = int(raw.get("gpus", tp * pp))
    return {
        "tp": tp,
        "pp": pp,
        "gpus": gpus,
        "replicas": int(raw.get("replicas", 1)),
        "explicit_tp": int("tp" in raw),
    }


def _setup_resources(component: dict[str, Any], gpus: int, ngpn: int | None, per_instance: int) -> None:
    if ngpn is not None:
        if per_instance <= ngpn:
            component.pop("multinode", None)
        else:
            node_count = -(-per_instance // ngpn)
            mn = component.get("multinode")
            if isinstance(mn, dict):
                mn["nodeCount"] = node_count
            else:
                component["multinode"] = {"nodeCount": node_count}
    container = main_container(component)
    if container is None:
        raise DgdrError(f"Component {component.get('name')!r} does not define a main container")
    resources = container.setdefault("resources", {})
    limits = resources.setdefault("limits", {})
    value = str(min(gpus, ngpn) if ngpn is not None else gpus)
    for rd in (limits, resources.get("requests")):
        if isinstance(rd, dict):
            rd[GPU_RESOURCE] = value
            if "rdma/ib" in rd:
                rd["rdma/ib"] = value


def _set_tp(backend: str, args: list[str], tp: int) -> list[str]:
    if backend == "vllm":
        args = A.remove_valued_argument(args, "--tp")
        return A.set_argument_value(args, "--tensor-parallel-size", str(tp))
    if backend == "sglang":
        args = A.set_argument_value(args, "--tp", str(tp))
        args = A.remove_valued_argument(args, "--tp-size")
        return A.remove_valued_argument(args, "--tensor-parallel-size")
    # trtllm: dynamic engine flag, or merged into an explicit --override-engine-args JSON
    override, args = A.parse_override_engine_args(args)
    if override:
        override["tensor_parallel_size"] = tp
        return A.append_argument(args, ["--override-engine-args", json.dumps(override)])
    return A.append_argument(args, ["--trtllm.tensor_parallel_size", str(tp)])


def _per_instance_gpus(args: list[str]) -> int | None:
    tp = pp = 1
    seen = False
    for i, arg in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else None
        for names, which in (
            (("--tensor-parallel-size", "--tp"), "tp"),
            (("--pipeline-parallel-size", "--pp"), "pp"),
            (("--data-parallel-size", "--data-parallel-size-local", "--dp"), "dp"),
        ):
            val = None
            for n in names:
                if arg == n:
                    val = nxt
                elif isinstance(arg, str) and arg.startswith(n + "="):
                    val = arg.split("=", 1)[1]
            if val is None:
                continue
            try:
                if which == "tp":
                    tp = int(val)
                elif which == "pp":
                    pp = int(val)
            except ValueError:
                continue  # upstream counts a TP/PP flag only when its value is an integer
            seen = True
    return tp * pp if seen else None


def build_topology(
    req: Request, backend: str, mode: str, topology: dict[str, Any], notes: list[str]
) -> dict[str, Any]:
    dgd = load_blueprint(backend, mode)
    dgd["metadata"]["name"] = f"{backend}-{mode}"
    image = derive_backend_image(req.image, backend)
    for comp in components_of(dgd):
        if comp.get("type") == "planner":
            continue
        mc = main_container(comp)
        if mc is not None:
            mc["image"] = image

    ngpn = req.num_gpus_per_node
    roles = ("agg",) if mode == "agg" else ("prefill", "decode")
    workers = [c for c in components_of(dgd) if c.get("type") in WORKER_TYPES]
    for role in roles:
        if role == "agg":
            comp = workers[0]
        else:
            comp = next(c for c in workers if c.get("type") == role)
        shape = worker_shape(topology, role)
        comp["replicas"] = shape["replicas"]
        mc = main_container(comp)
        assert mc is not None
        args = A.break_arguments(mc.get("args"))
        if backend == "vllm" and mode == "disagg":
            args = [a for a in args if a not in ("--is-prefill-worker", "--is-decode-worker")]
            args = A.set_unique_argument_value(args, "--disaggregation-mode", role)
            if role == "prefill" and A.get_valued_argument(args, "--kv-transfer-config") is None:
                args = A.set_unique_argument_value(
                    args, "--kv-transfer-config", '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
                )
        if shape["explicit_tp"]:
            args = _set_tp(backend, args, shape["tp"])
        mc["args"] = args
        per_instance = _per_instance_gpus(args) or shape["gpus"]
        _setup_resources(comp, shape["gpus"], ngpn, per_instance)

    apply_model(req, backend, dgd, notes)
    return dgd
