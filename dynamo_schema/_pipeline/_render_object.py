"""Stage orchestration for ``render``: from a document to the objects it produces, each checked.

DGD/DCD: admission first (an object the operator would refuse is not rendered), then the render target.
DGDR: the DGD it materializes, then what that DGD renders to. DeploymentSpec: its provider adapter.
Every rendered Kubernetes object is validated (bundled Kubernetes schemas for built-in kinds, our own
generated schemas for Dynamo kinds); an invalid render is a bug and fails with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core._diagnostics import Diagnostic
from .._core._kinds import ADMITTED_KINDS
from .._k8s._gofmt import go_quote as _go_quote  # the one strconv.Quote
from .._k8s._names import check_names
from .._render._errors import RenderError as RenderError  # the one render error, re-exported for _cli


def _default_target(dgd: dict[str, Any]) -> str:
    """The pathway the operator takes for an admitted DGD (``_reconcile.operator_target``)."""
    from ._reconcile import operator_target

    return operator_target(dgd)


def render_options(settings: Any, *, namespace: str = "default", operator_version: str | None = None,
                   worker_hash_algorithm: str | None = None, stored: bool = False,
                   extra: Mapping[str, Any] | None = None, admitted: bool = False) -> Any:
    """``RenderOptions`` from the admission settings (one source for cluster/operator state); ``extra``:
    further ``RenderOptions`` fields, operator configuration admission does not read (ingress, KAI…)."""
    from .._render import RenderOptions

    kwargs: dict[str, Any] = {
        "namespace": namespace,
        "grove_enabled": settings.grove_enabled,
        "lws_enabled": settings.lws_enabled,
        "discovery_backend": settings.discovery_backend,
        "operator_version": operator_version or settings.operator_version,
        # ClusterTopologyBinding levels: one input for admission's topology checks and rendering
        "cluster_topology_domains": settings.cluster_topologies,
        "apiserver_defaults": stored,
        "dra_enabled": settings.dra_enabled,
        "checkpoint_enabled": settings.checkpoint_enabled,
        "admitted": admitted,
    }
    if worker_hash_algorithm:
        from .._render._workerhash import ALGORITHMS

        if worker_hash_algorithm not in ALGORITHMS:  # the reconcile check's shape-only hash is not offered
            raise RenderError.at(f"unknown worker hash algorithm {worker_hash_algorithm!r}; known: "
                                 f"{', '.join(ALGORITHMS)}", rule="render.worker-hash")
        kwargs["worker_hash_algorithm"] = worker_hash_algorithm
    for key, value in (extra or {}).items():
        if key in kwargs:
            raise RenderError(f"render option {key!r} comes from the admission settings, not from extra options")
        kwargs[key] = value
    return RenderOptions(**kwargs)


def _admit(obj: dict[str, Any], settings: Any, namespace: str = "default") -> dict[str, Any]:
    from ._validate import ValidateOptions, check_nvidia, in_namespace

    # created in the namespace rendered into (the manifest's own namespace wins), as the API server admits it
    diags, stored = check_nvidia(in_namespace(obj, namespace), ValidateOptions(settings=settings, namespace=namespace))
    if stored is None or any(d.severity == "error" for d in diags):
        raise RenderError("the object would not be admitted", [d for d in diags if d.severity == "error"])
    return stored


def check_rendered(objs: list[dict[str, Any]], kubernetes_version: str = "1.32.0",
                   settings: Any = None) -> list[Diagnostic]:
    """Strict validation of rendered objects (``_children.child_errors``, built-in kinds included);
    diagnostics name the object in their message."""
    from ._children import child_errors

    return [d for obj in objs for d in child_errors(obj, settings, kubernetes_version)]


# Kubernetes name rules the bundled schemas do not check: in ``_k8s_names`` (re-exported here)
def naming_warnings(stored: dict[str, Any], namespace: str) -> list[str]:
    """rendering.md §3.4: a Dynamo namespace (``<namespace>-<DGD name>``) longer than 63 characters.
    The operator code followed here does not shorten it; the published reference says it is shortened
    and hashed. Either way, what the runtime sees differs from what a reader expects: warn."""
    from .._render._names import compute_dynamo_namespace

    raw_meta, raw_spec = stored.get("metadata"), stored.get("spec")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    spec: dict[str, Any] = raw_spec if isinstance(raw_spec, dict) else {}
    ns = str(meta.get("namespace") or namespace)
    if stored.get("kind") == "DynamoGraphDeployment":
        owner = str(meta.get("name") or "")
        names = [compute_dynamo_namespace(bool(c.get("globalDynamoNamespace")), ns, owner)
                 for c in spec.get("components") or [] if isinstance(c, dict)]
    else:
        from .._render._workloads import dcd_dynamo_namespace

        names = [dcd_dynamo_namespace(stored, ns)]
    seen: list[str] = []
    for dyn in names:
        if len(dyn) > 63 and dyn not in seen:
            seen.append(dyn)
    return [f"Dynamo namespace {_go_quote(d)} is {len(d)} characters long (more than 63): the operator "
            "code emulated here uses it as is, while the published reference says it is shortened with a "
            "hash (rendering.md §3.4)" for d in seen]


def render_object(obj: dict[str, Any], *, target: str | None = None, namespace: str = "default",
                  operator_version: str | None = None, settings: Any = None,
                  validate_output: bool = True,
                  messages: list[tuple[str, str]] | None = None,
                  worker_hash_algorithm: str | None = None, stored_view: bool = False,
                  options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Render one DGD, DCD or DGDR (plain data) into Kubernetes objects.

    ``options``: further ``RenderOptions`` fields (operator configuration admission does not read, such
    as the ingress settings); the cluster state both read comes from ``settings``.

    ``stored_view``: every object as the API server stores it (``RenderOptions.apiserver_defaults``).

    ``messages`` (optional) collects ``(severity, text)`` warnings and notes, e.g. what a DGDR's
    materialization had to assume, or a Dynamo namespace longer than 63 characters.
    ``operator_version`` also sets the admission settings' ``operator_version`` (one knob: the
    origin-version annotation stamped at admission then names the emulated release).
    """
    from .._admission import AdmissionSettings

    if not isinstance(obj, dict):  # library callers: plain data of any shape
        msg = f"cannot render {type(obj).__name__}: expected a mapping (a Kubernetes object)"
        raise RenderError(msg, [Diagnostic("render.not-a-mapping", (), msg)])
    settings = settings or AdmissionSettings()
    if operator_version:
        settings = settings._replace(operator_version=operator_version)
    kind = obj.get("kind")
    api = obj.get("apiVersion")
    if target in ("kubernetes", "dcd"):
        # what the operator creates with Grove off: admitted with Grove off too (no Grove-only defaults)
        settings = settings._replace(grove_enabled=False)
    elif target == "grove":
        # and on the Grove pathway with Grove on: the one admission is the target's (its defaults, D55)
        settings = settings._replace(grove_enabled=True)
    stored: dict[str, Any] | None = None
    if api == "nvidia.com/v1alpha1" and kind in ADMITTED_KINDS:
        # the v1alpha1 schema (and the rest of admission) first: the converter expects a valid object.
        # As the API server does, the converted object is not checked against the v1beta1 schema again
        # (a legacy ``componentType: main`` is copied verbatim and rendered with base defaults).
        admitted = _admit(obj, settings, namespace)
        from .._convert._v1alpha1 import to_v1beta1

        if kind == "DynamoGraphDeploymentRequest":
            obj = to_v1beta1(obj)
        else:
            obj = stored = admitted
        api = obj.get("apiVersion")
    if api != "nvidia.com/v1beta1" or kind not in ADMITTED_KINDS:
        msg = f"cannot render {api}/{kind}: render knows {', '.join(ADMITTED_KINDS)} and DeploymentSpec"
        raise RenderError(msg, [Diagnostic("render.unsupported-kind", ("kind",), msg)])
    prefix: list[dict[str, Any]] = []
    from_dgdr = kind == "DynamoGraphDeploymentRequest"
    if from_dgdr:
        _admit(obj, settings, namespace)
        from .._dgdr import materialize

        # a DGDR without a namespace is created in the namespace rendered into
        result = materialize(obj, {"namespace": namespace})
        dgd = result.dgd
        # the DGD is created through the API server: printed as admitted (``stored`` below)
        prefix = list(result.resources)
        if messages is not None:
            messages.extend(("warning", w) for w in result.warnings)
            messages.extend(("note", n) for n in result.notes)
        obj = dgd
        kind = "DynamoGraphDeployment"
    if stored is None:
        stored = _admit(obj, settings, namespace)
    if from_dgdr:
        prefix.append(stored)
    check_render_bounds(stored)
    if kind == "DynamoGraphDeployment":
        target = target or _default_target(stored)
        from .._render.targets import names_for  # the registry; imported here: it loads every target

        if target not in (dgd_targets := names_for(kind)):
            raise RenderError(f"unknown target {target!r} for a DynamoGraphDeployment (one of {', '.join(dgd_targets)})")
    else:
        target = target or "kubernetes"
        if target != "kubernetes":
            raise RenderError(f"unknown target {target!r} for a DynamoComponentDeployment (kubernetes)")
    from .._render import render as _render

    render_opts = render_options(settings, namespace=namespace, operator_version=operator_version,
                                 worker_hash_algorithm=worker_hash_algorithm, stored=stored_view, extra=options,
                                 admitted=True)
    objs = prefix + _render(stored, target, render_opts)
    if messages is not None:
        messages.extend(("warning", w) for w in naming_warnings(stored, namespace))
    if validate_output:
        names = check_names(objs)
        if names:
            raise RenderError("Kubernetes would refuse rendered objects", names)
        problems = check_rendered(objs, settings=settings)
        if problems:
            raise RenderError("rendered objects are invalid (a bug in dynamo_schema)", problems)
    return objs


#: Most nodes one multinode component may span for ``render`` (the operator renders objects, pod
#: names and host lists per node rank; decisions.md D12): work proportional to the input, not to a
#: number in it. Validation has no such bound (it never builds per-node structures).
MAX_RENDER_NODES = 1024


def check_render_bounds(stored: dict[str, Any]) -> None:
    """Refuse, located, a multinode ``nodeCount`` above :data:`MAX_RENDER_NODES`."""
    spec = stored.get("spec")
    comps = spec.get("components") if isinstance(spec, dict) else None
    if not isinstance(comps, list):
        return
    for i, comp in enumerate(comps):
        mn = comp.get("multinode") if isinstance(comp, dict) else None
        n = mn.get("nodeCount") if isinstance(mn, dict) else None
        if isinstance(n, int) and not isinstance(n, bool) and n > MAX_RENDER_NODES:
            path = ("spec", "components", i, "multinode", "nodeCount")
            msg = (f"Invalid value: {n}: render supports at most {MAX_RENDER_NODES} nodes per component "
                   "(the operator would create objects for every node rank)")
            raise RenderError(msg, [Diagnostic("render.too-many-nodes", path, msg)])


def render_deploymentspec(data: dict[str, Any], provider_config: Any = None) -> list[Any]:
    """``provider_config``: a YAML file name, or the mapping itself (keys: ``INFERCRANE_*`` names)."""
    import os

    from .._infercrane import ProviderSettings, compile_spec
    from ._config import read_mapping_file

    file_mapping = read_mapping_file(provider_config, "provider config") if isinstance(provider_config, str) \
        else provider_config
    settings = ProviderSettings.resolve(dict(os.environ), file_mapping)
    return list(compile_spec(data, settings))


def artifact_file(art: Any) -> tuple[str, str]:
    """(file name, text) of a DeploymentSpec adapter artifact: objects as JSON, texts as they are."""
    import json

    name = str(art.name).replace("/", "_")
    content = art.content
    if isinstance(content, str):
        return name, content
    return name + ".json", json.dumps(content, indent=2, ensure_ascii=False) + "\n"
