"""Reconcile-time failures, found at ``validate`` time.

An admitted DGD can still fail when the operator reconciles it: a child object it creates is refused by
the API server (a Service or Deployment name over 63 characters, a label value it derives from the DGD
and component names, a PodCliqueSet over Grove's name budgets, a child DCD the v1beta1 schema refuses).
``validate`` renders an admitted document for the pathway the operator would take (the
``nvidia.com/workload-provider`` it stamped at admission) and reports every child object that would be
refused, as ``reconcile.*`` diagnostics located at the component that causes it.
"""

from __future__ import annotations

from .._core._diagnostics import Diagnostic
from .._core._kinds import RECONCILED_KINDS
from .._k8s._names import check_names
from ._children import child_errors

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

COMPONENT_LABEL = "nvidia.com/dynamo-component"


def _labels_values(node: Any, key: str) -> list[str]:
    """Every value of label ``key`` in an object (its own labels, pod templates, clique templates…)."""
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key and isinstance(v, str):
                out.append(v)
            else:
                out.extend(_labels_values(v, key))
    elif isinstance(node, list):
        for v in node:
            out.extend(_labels_values(v, key))
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        if isinstance(node, dict) and isinstance(p, str):
            node = node.get(p)
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        else:
            return None
    return node


def _component_of(obj: dict[str, Any], diag_path: tuple[Any, ...]) -> str | None:
    """The component a child object (or, for a PodCliqueSet, the clique the diagnostic is in) belongs to."""
    # a diagnostic inside one clique / container list: the innermost labelled node on its path
    for n in range(len(diag_path), 0, -1):
        found = _labels_values(_at(obj, diag_path[:n]), COMPONENT_LABEL)
        if len(set(found)) == 1:
            return found[0]
    found = _labels_values(obj, COMPONENT_LABEL)
    return found[0] if len(set(found)) == 1 else None


def _component_path(data: dict[str, Any], component: str | None) -> tuple[Any, ...]:
    """Where the user wrote ``component`` (v1beta1 ``spec.components[i]``, v1alpha1 ``spec.services.X``)."""
    spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
    if data.get("kind") == "DynamoComponentDeployment":
        return ("spec",)
    if component is not None and isinstance(spec, dict):
        comps = spec.get("components")
        if isinstance(comps, list):
            for i, c in enumerate(comps):
                if isinstance(c, dict) and c.get("name") == component:
                    return ("spec", "components", i)
        services = spec.get("services")
        if isinstance(services, dict) and component in services:
            return ("spec", "services", component)
    return ("metadata", "name")


def _rule(rule: str) -> str:
    head, _, rest = rule.partition(".")
    if head == "render":
        return "reconcile." + rest
    return "reconcile." + rule


def operator_target(stored: dict[str, Any]) -> str:
    """The pathway the operator takes for an admitted object: the ``nvidia.com/workload-provider``
    annotation stamped at admission (admission.md §2.2: ``grove`` when the Grove gate is on and
    ``nvidia.com/enable-grove`` is not ``"false"``, else ``component``), else the annotation rule."""
    if stored.get("kind") != "DynamoGraphDeployment":
        return "kubernetes"
    meta = stored.get("metadata")
    ann = meta.get("annotations") if isinstance(meta, dict) else None
    ann = ann if isinstance(ann, dict) else {}
    provider = ann.get("nvidia.com/workload-provider")
    if provider in ("grove", "component"):
        return "grove" if provider == "grove" else "kubernetes"
    return "kubernetes" if str(ann.get("nvidia.com/enable-grove", "")).lower() == "false" else "grove"


def _child_errors(obj: dict[str, Any], settings: Any) -> list[Diagnostic]:
    """What the API server (the name rules, our schemas of Dynamo, Grove and LWS kinds) and Grove's webhook
    refuse in one child object (``_children.child_errors``); messages name the object. A built-in child
    (Deployment, Service…) is built by the renderer from schema-checked input: what the user's names can
    break in it are its names and label values (``check_names``); its full schema is checked by ``render``
    itself, and ``validate`` does not load the Kubernetes schemas for it."""
    return check_names([obj]) + child_errors(obj, settings)


def reconcile_errors(data: dict[str, Any], stored: dict[str, Any], settings: Any) -> list[Diagnostic]:
    """Children of an admitted DGD/DCD (``stored``: as admission stored it, v1beta1) that the API server
    or Grove's webhook would refuse at reconcile; located in ``data`` (the document as written).

    The children are first rendered with a worker hash of the right shape only (eight hex digits, valid
    wherever the real one goes, same length: no check can tell them apart, and hashing is ~30 % of a cold
    ``validate``'s reconcile cost). Only when a child is refused are they rendered again with the real hash,
    so that the messages name the objects exactly; ``tests/test_perf_paths.py`` compares with the full
    render on the corpus, the upstream golden inputs and generated near-limit names."""
    if stored.get("kind") not in RECONCILED_KINDS:
        return []  # what a DGDR becomes is decided by the profiler; its DGD is checked when rendered
    try:
        shaped = _children(stored, settings, shape_only=True)
    except Exception:  # noqa: BLE001 - decided by the full render below
        shaped = None
    if shaped is not None and not _findings(shaped, settings):
        return []
    return reconcile_errors_full(data, stored, settings)


def reconcile_errors_full(data: dict[str, Any], stored: dict[str, Any], settings: Any) -> list[Diagnostic]:
    """:func:`reconcile_errors` with the real worker hash throughout (the reference for its fast path)."""
    if stored.get("kind") not in RECONCILED_KINDS:
        return []
    from .._render._errors import RenderError

    try:
        objs = _children(stored, settings)
    except RenderError as exc:  # the operator's own reconcile failures are findings; other refusals are not
        return _reconcile_failures(data, stored, exc)
    except Exception:  # noqa: BLE001 - a renderer gap (or refusal) is not a reconcile finding
        return []
    out: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for obj, d in _findings(objs, settings):
        if (d.rule, d.message) in seen:
            continue
        seen.add((d.rule, d.message))
        component = _component_of(obj, tuple(d.path))
        text = d.message
        if text.startswith("rendered "):
            text = text[len("rendered "):]
        where = f" (component {component})" if component else ""
        out.append(d._replace(rule=_rule(d.rule), path=_component_path(data, component),
                           message=f"the operator would fail to create {text}{where}"))
    return out


#: Render refusals that are not the operator's reconcile failing: what this renderer does not render, its
#: own work bound, refusals of the input kind or target, and the rendered names (checked as children above).
#: Every other render refusal is the operator's reconcile stopping (its message, docs/rules.md ``render``):
#: the object is admitted, then the reconcile fails and the DGD's status says Failed. ``validate`` reports
#: it as a ``reconcile.*`` error (docs/decisions.md D38): a deployment that cannot come up is not valid.
NOT_RECONCILE_FAILURES = frozenset({
    "render.unsupported", "render.too-many-nodes", "render.kind", "render.target", "render.not-a-mapping",
    "render.unsupported-kind", "render.invalid-name", "render.invalid-label-value", "render.invalid-namespace",
})


def _reconcile_failures(data: dict[str, Any], stored: dict[str, Any], exc: Exception) -> list[Diagnostic]:
    """The operator's reconcile failure in ``exc`` located in ``data``: the rendered path when the document
    is the v1beta1 object admission stored, else the component it names."""
    out: list[Diagnostic] = []
    same_layout = data.get("apiVersion") == stored.get("apiVersion")
    diags = list(getattr(exc, "diagnostics", None) or []) or [Diagnostic("render.error", (), str(exc))]
    for d in diags:
        if d.rule in NOT_RECONCILE_FAILURES or not d.rule.startswith("render."):
            continue
        path = tuple(d.path)
        if not same_layout:
            component = _at(stored, path[:3]) if path[:2] == ("spec", "components") else None
            name = component.get("name") if isinstance(component, dict) else None
            path = _component_path(data, name if isinstance(name, str) else None)
        elif not path:
            path = ("metadata", "name")
        out.append(d._replace(rule=_rule(d.rule), path=path, severity="error"))
    return out


def _children(stored: dict[str, Any], settings: Any, *, shape_only: bool = False) -> list[Any]:
    """The children of ``stored`` for the operator's pathway (raises what the renderer raises)."""
    from .._render import RenderOptions
    from .._render.targets import target

    meta = stored.get("metadata") if isinstance(stored.get("metadata"), dict) else {}
    namespace = meta.get("namespace") if isinstance(meta, dict) else None
    namespace = namespace if isinstance(namespace, str) and namespace else "default"
    options = RenderOptions(namespace=namespace, grove_enabled=settings.grove_enabled,
                            lws_enabled=settings.lws_enabled, discovery_backend=settings.discovery_backend,
                            operator_version=settings.operator_version,
                            cluster_topology_domains=settings.cluster_topologies,
                            dra_enabled=settings.dra_enabled, checkpoint_enabled=settings.checkpoint_enabled,
                            admitted=True)  # ``stored`` is what admission stored: rendered as it is
    if shape_only:
        from .._render.targets._common import SHAPE_ONLY_HASH

        options = options._replace(worker_hash_algorithm=SHAPE_ONLY_HASH)
    plugin = target(operator_target(stored))  # that target's module only (not the registry of all)
    assert plugin is not None
    return plugin.render(stored, options)


def _findings(objs: list[Any], settings: Any) -> list[tuple[dict[str, Any], Diagnostic]]:
    """Every refused child with its diagnostic, in render order."""
    return [(obj, d) for obj in objs if isinstance(obj, dict) for d in _child_errors(obj, settings)]
