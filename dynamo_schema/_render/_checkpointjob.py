"""DGD-managed DynamoCheckpoint objects (the checkpoint gate on): one per checkpointed component and pass.

Upstream: ``internal/controller/dgd_checkpoints_reconciler.go`` (``Reconcile``, ``createCheckpointCR``,
``buildCheckpointJobPodTemplate``, ``prepareCheckpointGMSPodTemplate``) and
``internal/checkpoint/resource.go: CreateOrGetAutoCheckpoint``. The cluster is empty: no checkpoint exists
before, so each one the reconcile asks for is created (never Ready). A checkpoint's ID hashes the DGD's UID,
which the API server assigns at creation (docs/decisions.md D39).

On the Grove pathway the worker hash is recorded on the DGD only by the first workload reconcile, so the
first pass creates a worker's checkpoint without a worker hash and the next one with it; both remain, the
cliques name the second. The component pathway (child DCDs that then restore from the checkpoint by
reference) is not rendered: ``render.unsupported``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import LABEL_COMPONENT, LABEL_WORKER_HASH
from .._core._datacopy import deepcopy
from .._k8s._gofmt import go_quote
from . import _dra
from ._backend_detect import component_backend
from ._checkpoint import IMMEDIATE, LABEL_CHECKPOINT_ID, RULE_CHECKPOINT, CheckpointInfo, checkpoint_config
from ._checkpoint import compatibility_errors as _compat
from ._checkpoint import dgd_checkpoint_id as _checkpoint_id
from ._envmerge import merge_envs, mergo_override
from ._errors import RenderError
from ._failover import engine_container_names, is_intra_pod_failover
from ._gms import ensure_client, ensure_server_sidecar
from ._graph import LABEL_DGD_NAME, apply_dgd_template_defaults
from ._names import discovery_service_account, is_worker_type
from ._options import RenderOptions
from ._pod import generate_pod_spec, is_k8s_discovery
from ._podrequest import PodRequest

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

#: The UID of a DGD that carries none: the first object an empty API server creates (D39).
PLACEHOLDER_UID = "00000000-0000-0000-0000-000000000001"
ANN_AUTO = "nvidia.com/dynamo-auto-checkpoint"
ANN_DELETION_POLICY = "nvidia.com/dynamo-checkpoint-deletion-policy"
ANN_ARTIFACT_VERSION = "nvidia.com/snapshot-artifact-version"


def dgd_uid(dgd: Mapping[str, Any]) -> str:
    uid = (dgd.get("metadata") or {}).get("uid")
    return str(uid) if uid else PLACEHOLDER_UID


def check_compatibility(dgd: Mapping[str, Any]) -> None:
    """The DGD controller's preflight (before any child object): checkpointing with inter-pod GMS or with
    failover is refused, every violation of every component joined in one message."""
    lines = []
    first = None
    for i, comp in enumerate((dgd.get("spec") or {}).get("components") or []):
        for problem in _compat(comp):
            lines.append(f"component {go_quote(str(comp.get('name', '')))}: {problem}")
            first = ("spec", "components", i, "experimental", "checkpoint") if first is None else first
    if lines:
        raise RenderError.at("\n".join(lines), first or (), rule=RULE_CHECKPOINT)


def has_checkpoints(dgd: Mapping[str, Any]) -> bool:
    return any(checkpoint_config(c) is not None for c in (dgd.get("spec") or {}).get("components") or [])


def refuse_component_pathway(dgd: Mapping[str, Any], options: RenderOptions) -> None:
    """Child DCDs restoring from a DGD-managed checkpoint are not rendered (``render.unsupported``)."""
    if options.checkpoint_enabled and has_checkpoints(dgd):
        raise RenderError.at("DGD-managed checkpoints on the component pathway (child DynamoComponentDeployments "
                             "restoring from the checkpoint) are not rendered by this renderer",
                             ("spec", "components"), rule="render.unsupported")


def _job_pod_template(dgd: Mapping[str, Any], comp: Mapping[str, Any], backend: str, target: str,
                      ns: str, options: RenderOptions, path: tuple[str | int, ...]) -> dict[str, Any]:
    """``buildCheckpointJobPodTemplate``: the component's single-node pod (without its experimental features
    and frontend sidecar) reduced to the target container, ``restartPolicy: Never``, the pod template's
    metadata, then the user's ``checkpoint.job.podTemplate`` merged in."""
    job_comp: dict[str, Any] = deepcopy(dict(comp))
    job_comp.pop("experimental", None)
    job_comp.pop("frontendSidecar", None)
    apply_dgd_template_defaults(job_comp, dgd, None)
    name = str(comp.get("name", ""))
    pod = generate_pod_spec(PodRequest(
        component=job_comp, component_type=str(comp.get("type") or ""), backend=backend,
        dgd_name=str((dgd.get("metadata") or {}).get("name", "")), namespace=ns, role="checkpoint", nodes=1,
        deployer="grove", service_name=name, options=options, path=path,
    ))
    kept = [c for c in pod.get("containers") or [] if c.get("name") == target][:1]
    if not kept:
        raise RenderError.at(f"failed to build checkpoint job pod template: checkpoint target container "
                             f"{go_quote(target)} not found", path, rule=RULE_CHECKPOINT)
    pod["containers"] = kept
    pod["restartPolicy"] = "Never"
    meta = (comp.get("podTemplate") or {}).get("metadata") or {}
    labels = dict(meta.get("labels") or {})
    labels[LABEL_COMPONENT] = name
    template: dict[str, Any] = {"metadata": {"labels": labels, "annotations": dict(meta.get("annotations") or {})},
                                "spec": pod}
    job = (checkpoint_config(comp) or {}).get("job")
    overrides = job.get("podTemplate") if isinstance(job, Mapping) else None
    if isinstance(overrides, Mapping):
        _merge_job_overrides(template, overrides)
    return template


def _merge_named(base: list[Any], overrides: list[Any]) -> list[Any]:
    """``mergeNamedSlice``: an override replaces the entry of its name, or is appended."""
    out = list(base)
    index = {item.get("name"): i for i, item in enumerate(out) if isinstance(item, Mapping)}
    for item in overrides:
        name = item.get("name") if isinstance(item, Mapping) else None
        if name in index:
            out[index[name]] = deepcopy(item)
        else:
            out.append(deepcopy(item))
            index[name] = len(out) - 1
    return out


def _merge_job_overrides(template: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    meta = overrides.get("metadata") or {}
    for key in ("labels", "annotations"):
        if meta.get(key):
            template["metadata"][key].update(meta[key])
    spec = dict(overrides.get("spec") or {})
    containers = spec.pop("containers", None) or []
    init = spec.pop("initContainers", None) or []
    volumes = spec.pop("volumes", None) or []
    pod = template["spec"]
    mergo_override(pod, deepcopy(spec))
    if volumes:
        pod["volumes"] = _merge_named(pod.get("volumes") or [], volumes)
    if init:
        pod["initContainers"] = _merge_named(pod.get("initContainers") or [], init)
    for override in containers:
        name = override.get("name")
        existing = next((c for c in pod["containers"] if name and c.get("name") == name), None)
        if existing is None:
            pod["containers"].append(deepcopy(override))
            continue
        base_env = existing.get("env") or []
        user = deepcopy(dict(override))
        mergo_override(existing, user)
        existing["env"] = merge_envs(base_env, user.get("env"))
        for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
            if user.get(probe) is not None:
                existing[probe] = deepcopy(user[probe])


def _alpha_gms(spec: Mapping[str, Any], job: Any) -> dict[str, Any]:
    """``gms.ToAlphaSpec`` for the checkpoint: enabled, the mode in v1alpha1 spelling, the job's GMS clients."""
    from .._convert._fields import GMS_TO_ALPHA

    out: dict[str, Any] = {"enabled": True}
    if spec.get("mode"):
        out["mode"] = GMS_TO_ALPHA.get(str(spec["mode"]), spec["mode"])
    if spec.get("deviceClassName"):
        out["deviceClassName"] = spec["deviceClassName"]
    clients = job.get("gmsClientContainers") if isinstance(job, Mapping) else None
    if clients:
        out["extraClientContainers"] = list(clients)
    return out


def _gms_job(template: dict[str, Any], target: str, checkpoint_id: str, gms: Mapping[str, Any], ns: str,
             options: RenderOptions, path: tuple[str | int, ...]) -> dict[str, Any] | None:
    """The checkpoint job's own GMS: its ResourceClaimTemplate (``checkpoint-<id>-worker-gpu``), the claim
    and toleration on its pod, the server sidecar on the target and the job's GMS clients
    (``prepareCheckpointGMSPodTemplate``, ``EnsureIntraPodGPUMemoryService``)."""
    if gms.get("mode") == "InterPod":
        raise RenderError.at('failed to build checkpoint job pod template: gpuMemoryService checkpoint jobs for mode '
                             '"interPod" are not implemented', path, rule=RULE_CHECKPOINT)
    pod = template["spec"]
    container = pod["containers"][0]
    name = _dra.claim_template_name("checkpoint-" + checkpoint_id, "worker")
    count = _dra.gpu_count(container.get("resources"), path)
    rct = _dra.resource_claim_template(name, ns, count, str(gms.get("deviceClassName") or _dra.DEFAULT_DEVICE_CLASS),
                                       options, path)
    _dra.add_gpu_toleration(pod)
    _dra.set_pod_claim(pod, name)  # ensureCheckpointGMSPodClaim
    ensure_server_sidecar(pod, container)
    ensure_client(pod, container)
    for client in gms.get("extraClientContainers") or []:
        other = next((c for c in pod["containers"] if c.get("name") == client), None)
        if other is not None:
            ensure_client(pod, other)
    return rct


def checkpoint_object(dgd: Mapping[str, Any], index: int, ns: str, worker_hash: str,
                      options: RenderOptions) -> tuple[list[dict[str, Any]], CheckpointInfo]:
    """``createCheckpointCR`` for ``spec.components[index]`` (with ``worker_hash`` for a worker, as the
    reconcile pass knows it): the DynamoCheckpoint (as stored: CRD defaults applied), its GMS
    ResourceClaimTemplate, and what the cliques read about it."""
    comp: dict[str, Any] = ((dgd.get("spec") or {}).get("components") or [])[index]
    cfg = checkpoint_config(comp) or {}
    path: tuple[str | int, ...] = ("spec", "components", index)
    name = str(comp.get("name", ""))
    meta = dgd.get("metadata") or {}
    dgd_name = str(meta.get("name", ""))
    wh = worker_hash if is_worker_type(comp.get("type")) else ""
    checkpoint_id = _checkpoint_id(ns, dgd_name, dgd_uid(dgd), name, wh)
    prefix = f"failed to create checkpoint for component {name}: "
    try:
        backend = component_backend(comp, (dgd.get("spec") or {}).get("backendFramework"), path)
    except RenderError as exc:
        raise RenderError(prefix + f"failed to determine backend framework for component {name}: {exc}",
                          exc.diagnostics) from exc
    raw_identity = cfg.get("identity")
    identity: Mapping[str, Any] = raw_identity if isinstance(raw_identity, Mapping) else {}
    if backend in ("", "noop") and identity.get("backendFramework"):
        backend = str(identity["backendFramework"])
    if backend in ("", "noop"):
        raise RenderError.at(prefix + f"checkpoint backend framework for component {name} could not be determined; "
                             "set spec.backendFramework or use a recognizable worker command", path,
                             rule=RULE_CHECKPOINT)
    target = str(cfg.get("targetContainerName") or "main")
    template = _job_pod_template(dgd, comp, backend, target, ns, options, path)
    pod = template["spec"]
    if is_k8s_discovery(options.discovery_backend, meta.get("annotations") or {}) and not pod.get("serviceAccountName"):
        pod["serviceAccountName"] = discovery_service_account(dgd_name)
    labels = template["metadata"]["labels"]
    labels[LABEL_DGD_NAME] = dgd_name
    labels[LABEL_COMPONENT] = name
    if wh:
        labels[LABEL_WORKER_HASH] = wh
    if not template["metadata"]["annotations"]:
        del template["metadata"]["annotations"]
    objects: list[dict[str, Any]] = []
    spec: dict[str, Any] = {"identity": {
        "model": f"{ns}/{dgd_name}", "backendFramework": backend,
        "extraParameters": {"dgdUID": dgd_uid(dgd), "component": name, "checkpointID": checkpoint_id},
    }}
    gms = _dra.gms_spec(comp)
    if gms is not None:
        alpha = _alpha_gms(gms, cfg.get("job"))
        spec["gpuMemoryService"] = alpha
        job_gms = {**gms, "extraClientContainers": alpha.get("extraClientContainers")}
        rct = _gms_job(template, target, checkpoint_id, job_gms, ns, options, path)
        if rct is not None:
            objects.append(rct)
    spec["job"] = {"podTemplateSpec": template, "targetContainerName": target}
    ckpt_labels = {LABEL_CHECKPOINT_ID: checkpoint_id}
    for key in (LABEL_DGD_NAME, LABEL_COMPONENT, LABEL_WORKER_HASH):
        if labels.get(key):
            ckpt_labels[key] = labels[key]
    ckpt = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoCheckpoint",
        "metadata": {"name": f"checkpoint-{checkpoint_id}", "namespace": ns, "labels": ckpt_labels, "annotations": {
            ANN_ARTIFACT_VERSION: "1", ANN_AUTO: "true",
            ANN_DELETION_POLICY: str(cfg.get("deletionPolicy") or "Delete"),
        }},
        "spec": spec,
    }
    objects.insert(0, _as_stored(ckpt))
    targets: tuple[str, ...] = (target,) if cfg.get("targetContainerName") else ()
    if is_intra_pod_failover(comp):
        targets = tuple(engine_container_names())
    info = CheckpointInfo(f"checkpoint-{checkpoint_id}", checkpoint_id, str(cfg.get("startupPolicy") or IMMEDIATE),
                          targets)
    return objects, info


def _as_stored(obj: dict[str, Any]) -> dict[str, Any]:
    """The DynamoCheckpoint as the API server stores it: its CRD's defaults applied."""
    from .._schema._defaulting import apply_schema_defaults
    from .._schema._schemas import for_object

    schema = for_object("nvidia.com/v1alpha1", "DynamoCheckpoint")
    stored: dict[str, Any] = apply_schema_defaults(obj, schema) if schema is not None else obj
    return stored


def dgd_checkpoints(dgd: Mapping[str, Any], ns: str, options: RenderOptions,
                    worker_hashes: tuple[str, ...]) -> tuple[list[dict[str, Any]], dict[str, CheckpointInfo]]:
    """The checkpoints reconcile of every pass (``worker_hashes``: the worker hash each pass knows, in
    order): every object created (once each), the infos of the last pass by component name."""
    objects: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    infos: dict[str, CheckpointInfo] = {}
    components = (dgd.get("spec") or {}).get("components") or []
    for wh in worker_hashes:
        for i, comp in enumerate(components):
            if checkpoint_config(comp) is None:
                continue
            if not options.checkpoint_enabled:
                raise RenderError.at(f"component {comp.get('name', '')}: checkpoint functionality is disabled in the "
                                     "operator configuration", ("spec", "components", i, "experimental", "checkpoint"),
                                     rule=RULE_CHECKPOINT)
            if (cfg_ref := (checkpoint_config(comp) or {}).get("checkpointRef")):
                ref = str(cfg_ref)
                raise RenderError.at(
                    f"failed to resolve checkpoint for component {comp.get('name', '')}: failed to get referenced "
                    f'checkpoint {ref}: dynamocheckpoints.nvidia.com "{ref}" not found',
                    ("spec", "components", i, "experimental", "checkpoint", "checkpointRef"), rule=RULE_CHECKPOINT)
            objs, info = checkpoint_object(dgd, i, ns, wh, options)
            infos[str(comp.get("name", ""))] = info
            for obj in objs:
                key = (obj["kind"], obj["metadata"]["name"])
                if key not in seen:
                    seen.add(key)
                    objects.append(obj)
    return objects, infos
