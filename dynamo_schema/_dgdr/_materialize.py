"""Materialize the DynamoGraphDeployment a v1beta1 DynamoGraphDeploymentRequest produces.

The steps and their order follow upstream (reference revision of ai-dynamo/dynamo):

1. profiler-side validation (``profiler/utils/dgdr_validate.py``, the generated SLA validator,
   ``PlannerConfig`` validation) - refusals raise :class:`DgdrError` with upstream's message;
2. topology: the rapid strategy's DGD built from our blueprint for the resolved backend and mode
   (``config_modifiers/protocol.py`` ``build_dgd_config``: image, worker args/replicas/GPUs, model,
   model cache) - parallelism and mode come from the explicit ``topology`` input;
3. Dynamo features (``dgd_generation.assemble_final_config``): TRT-LLM chunked prefill, mocker base,
   KV router, vLLM self-benchmark, planner (scaling adapters, Planner component, planner ConfigMap),
   then ``runtimeVersionOverride`` on every component;
4. ``dgd_materialization.materialize_dgd`` in its fixed order: ``spec.overrides.dgd`` merge ->
   model runtime constraints -> profiling-job tolerations -> trust-remote-code policy;
5. the pod-name length check of ``profile_sla.py``;
6. the controller: fill ``runtimeVersionOverride`` where missing, final name (``computeDGDName``),
   namespace and the DGDR labels added when the DGD is created.

One module per step: ``_request`` (1), ``_choice`` and ``_topology``/``_model`` (2), ``_features`` with
``_mocker`` and ``_planner`` (3), ``_transforms`` (4), ``_naming`` (5, 6); the worker-argument helpers are
``_args``, the blueprints ``_blueprints``, what the steps share ``_common``. This module only runs them in
order.

Nothing here reads files or the network; what upstream measures or downloads is an input
(``topology``) with the rapid-strategy default, and every such default is reported in ``notes``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from dynamo_schema._dgdr._choice import choose_blueprint
from dynamo_schema._dgdr._common import DgdrError
from dynamo_schema._dgdr._features import assemble_final_config
from dynamo_schema._dgdr._naming import compute_dgd_name, finalize, validate_name_lengths
from dynamo_schema._dgdr._request import read_request
from dynamo_schema._dgdr._topology import build_topology
from dynamo_schema._dgdr._transforms import materialize_dgd

__all__ = ["DgdrError", "MaterializedDGD", "compute_dgd_name", "materialize"]


@dataclass
class MaterializedDGD:
    """The DGD a DGDR produces, with what upstream would have logged and what we had to assume.

    ``resources`` holds the supporting objects the profiler emits before the DGD in its multi-document
    output (the planner ConfigMap); ``steps`` names the transforms applied, in order.
    """

    dgd: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    backend: str = ""
    mode: str = ""


def materialize(dgdr: dict[str, Any], topology: dict[str, Any] | None = None) -> MaterializedDGD:
    """The DynamoGraphDeployment (nvidia.com/v1beta1) that ``dgdr`` produces.

    ``topology`` replaces what upstream's profiler would simulate, measure or download (all optional):

    * ``mode``: ``"agg"`` or ``"disagg"`` (default: ``"agg"``, the rapid naive-fallback pick; the
      mocker always uses its disaggregated blueprint);
    * ``backend``: the concrete backend for ``spec.backend: auto`` (default ``vllm``);
    * ``agg`` / ``prefill`` / ``decode``: ``{tp, pp, gpus, replicas}`` per worker role (default
      one replica, one GPU, blueprint parallelism);
    * ``numGpusPerNode`` (default ``spec.hardware.numGpusPerNode``) for multinode placement;
    * ``modelContextLength``, ``modelHasAutoMap``, ``modelIsLocal``: model facts upstream reads
      from the model's ``config.json``;
    * ``operatorVersion`` (default image tag) and ``namespace`` (when the DGDR has none).

    Raises :class:`DgdrError` with upstream's message where upstream refuses. The input is not mutated.
    """
    topo = dict(topology or {})
    notes: list[str] = []
    warnings: list[str] = []
    steps: list[str] = []
    dgdr = copy.deepcopy(dgdr)
    req = read_request(dgdr, topo, notes, warnings)
    backend, mode = choose_blueprint(req, topo, notes)
    dgd = build_topology(req, backend, mode, topo, notes)  # step 2
    steps.append(f"blueprint {backend}/{mode}")
    dgd, mode, resources = assemble_final_config(req, dgd, backend, mode, topo, notes, warnings, steps)  # step 3
    dgd = materialize_dgd(req, dgd, backend, topo, warnings, notes, steps)  # step 4
    validate_name_lengths(req, dgdr, dgd)  # step 5
    ordered = finalize(req, dgdr, dgd, resources, notes)  # step 6
    return MaterializedDGD(
        dgd=ordered,
        warnings=warnings,
        notes=notes,
        resources=resources,
        steps=steps,
        backend=backend,
        mode=mode,
    )
