"""Grove ``providerOverride`` fragments written into the rendered PodCliqueSet.

Upstream ``internal/provideroverride/grove.go`` ``ComposeGroveOverrides`` (called by the Grove workloads
reconciler on the fully rendered PodCliqueSet): the DGD's root override sets
``spec.template.topologyConstraint``; a component's override sets ``topologyConstraint`` on its clique
(target ``PodCliqueTemplateSpec``) or its scaling group (``PodCliqueScalingGroupConfig``), named by the
lower-cased component name; a multinode leader / worker override sets it on the ``<name>-ldr`` /
``<name>-wkr`` clique. The subtree is copied as written (opaque: unknown fields and nulls survive).
Admission defaulted each override's ``target`` and checked its identity and value
(``provideroverride.DefaultTarget``, ``ValidateValue``); a missing target here is resolved the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._k8s._gofmt import go_quote
from ._errors import RenderError
from ._names import uses_pcsg

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

PCS, CLIQUE, GROUP = "PodCliqueSet", "PodCliqueTemplateSpec", "PodCliqueScalingGroupConfig"


def _topology(override: Mapping[str, Any], target: str, where: tuple[str | int, ...]) -> Any:
    """``groveTopologyConstraint``: the registered subtree of the override's value."""
    path = ("spec", "template", "topologyConstraint") if target == PCS else ("topologyConstraint",)
    node: Any = override.get("value")
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            raise RenderError.at(f"value.{'.'.join(path)} is required", where + ("value",), rule="render.provider-override")
        node = node[key]
    return node


def _set_named(template: dict[str, Any], key: str, name: str, value: Any, where: tuple[str | int, ...]) -> None:
    """``setNamedGroveTopologyConstraint``: the entry of ``spec.template.<key>`` named ``name``."""
    for item in template.get(key) or []:
        if isinstance(item, dict) and item.get("name") == name:
            item["topologyConstraint"] = value
            return
    raise RenderError.at(f"generated destination spec.template.{key}[{go_quote(name)}] was not found", where,
                         rule="render.provider-override")


def compose_grove_overrides(dgd: Mapping[str, Any], pcs: dict[str, Any]) -> None:
    """Apply every providerOverride of ``dgd`` to ``pcs`` (in place), root first, then the components
    in order, each component before its leader and worker roles."""
    spec = dgd.get("spec") or {}
    template = pcs["spec"]["template"]
    root = spec.get("providerOverride")
    if isinstance(root, Mapping):
        template["topologyConstraint"] = _topology(root, PCS, ("spec", "providerOverride"))
    for i, comp in enumerate(spec.get("components") or []):
        if not isinstance(comp, Mapping):
            continue
        name = str(comp.get("name") or "")
        where: tuple[str | int, ...] = ("spec", "components", i, "providerOverride")
        override = comp.get("providerOverride")
        if isinstance(override, Mapping):
            target = override.get("target") or (GROUP if uses_pcsg(comp) else CLIQUE)
            if target not in (CLIQUE, GROUP):
                raise RenderError.at(f"unsupported target {go_quote(str(target))}", where, rule="render.provider-override")
            key = "cliques" if target == CLIQUE else "podCliqueScalingGroups"
            _set_named(template, key, name.lower(), _topology(override, str(target), where), where)
        multinode = comp.get("multinode")
        if not isinstance(multinode, Mapping):
            continue
        for role, suffix in (("leader", "ldr"), ("worker", "wkr")):
            role_override = (multinode.get(role) or {}).get("providerOverride") if isinstance(multinode.get(role), Mapping) else None
            if isinstance(role_override, Mapping):
                role_where = ("spec", "components", i, "multinode", role, "providerOverride")
                _set_named(template, "cliques", f"{name}-{suffix}".lower(), _topology(role_override, CLIQUE, role_where),
                           role_where)
