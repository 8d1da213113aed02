"""Provider-override targets and ownership (``deploy/operator/internal/provideroverride``)."""

from __future__ import annotations

from .._k8s._gofmt import json_kind
from .._k8s._grovenames import is_inter_pod_gms as inter_pod_gms_enabled
from .._k8s._grovenames import uses_pcsg
from ._component import is_multinode

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

SCOPE_ROOT = "root"
SCOPE_COMPONENT = "component"
SCOPE_LEADER = "multinode.leader"
SCOPE_WORKER = "multinode.worker"

TARGET_PCS = "PodCliqueSet"
TARGET_PCLQ_TEMPLATE = "PodCliqueTemplateSpec"
TARGET_PCSG_CONFIG = "PodCliqueScalingGroupConfig"
GROVE_API_VERSION = "grove.io/v1alpha1"
OWNERSHIP_DETAIL = "is Dynamo-owned or not enabled for provider override"


def expected_target(
    provider: str, api_version: str, scope: str, component: Any
) -> tuple[str, None] | tuple[None, str]:
    """The one provider schema target allowed for a context, or an error string."""
    if provider != "grove":
        return None, f'workload provider "{provider}" does not support provider overrides'
    if api_version != GROVE_API_VERSION:
        return None, f'unsupported Grove apiVersion "{api_version}"; supported value is "{GROVE_API_VERSION}"'
    if scope == SCOPE_ROOT:
        return TARGET_PCS, None
    if scope == SCOPE_COMPONENT:
        if component is None:
            return None, f'component context is required for scope "{scope}"'
        return (TARGET_PCSG_CONFIG if uses_pcsg(component) else TARGET_PCLQ_TEMPLATE), None
    if scope in (SCOPE_LEADER, SCOPE_WORKER):
        if component is None or not is_multinode(component):
            return None, f'scope "{scope}" requires a multinode component'
        if inter_pod_gms_enabled(component):
            return None, f'scope "{scope}" is not supported for inter-pod GMS components'
        return TARGET_PCLQ_TEMPLATE, None
    return None, f'unsupported provider override scope "{scope}"'  # pragma: no cover


_JSON_KIND = {list: "array", str: "string", bool: "bool", int: "number", float: "number"}


def _decode_object(value: Any, path: str) -> tuple[dict[str, Any] | None, tuple[str, str, bool] | None]:
    if isinstance(value, dict):
        return value, None
    if value is None:
        return None, (path, "must be a JSON object", False)
    kind = _JSON_KIND.get(type(value), "value")
    return None, (
        path,
        f"must be a JSON object: json: cannot unmarshal {kind} into Go value of type map[string]json.RawMessage",
        False,
    )


def _join(parent: str, child: str) -> str:
    return child if not parent else parent + "." + child


def _reject_unknown(root: dict[str, Any], path: str, *allowed: str) -> list[tuple[str, str, bool]]:
    return [
        (_join(path, k), OWNERSHIP_DETAIL, True) for k in sorted(str(k) for k in root if k not in allowed)
    ]


def _required_object(
    root: dict[str, Any], key: str, path: str
) -> tuple[dict[str, Any] | None, tuple[str, str, bool] | None]:
    if key not in root:
        return None, (path, "is required", False)
    return _decode_object(root[key], path)


def _validate_topology_owner(root: dict[str, Any], path: str) -> list[tuple[str, str, bool]]:
    errs = _reject_unknown(root, path, "topologyConstraint")
    _, e = _required_object(root, "topologyConstraint", _join(path, "topologyConstraint"))
    if e:
        errs.append(e)
    return errs


def _type_error(value: Any, struct: str, path: str, go_type: str) -> str:
    # every caller skips a null first (Go decodes null into any type)
    return (
        f"json: cannot unmarshal {json_kind(value)} into Go struct field {struct}.{path} of type {go_type}"
    )


def _check_topology(tc: Any, parent_struct: str, path: str) -> str | None:
    """Decode errors for a Grove ``TopologyConstraint`` (``topologyName``, ``packDomain``, ``pack``)."""
    if tc is None:
        return None
    if not isinstance(tc, dict):
        return _type_error(tc, parent_struct, path, "v1alpha1.TopologyConstraint")
    for key, sub in tc.items():
        sub_path = f"{path}.{key}"
        if key in ("topologyName", "packDomain") and sub is not None and not isinstance(sub, str):
            go_type = "string" if key == "topologyName" else "v1alpha1.TopologyDomain"
            return _type_error(sub, "TopologyConstraint", sub_path, go_type)
        if key == "pack" and sub is not None:
            if not isinstance(sub, dict):
                return _type_error(sub, "TopologyConstraint", sub_path, "v1alpha1.TopologyPackConstraint")
            for pkey, pval in sub.items():
                if pkey in ("required", "preferred") and pval is not None and not isinstance(pval, str):
                    return _type_error(
                        pval, "TopologyPackConstraint", f"{sub_path}.{pkey}", "v1alpha1.TopologyDomain"
                    )
    return None


def known_shape_error(target: str, root: dict[str, Any]) -> str | None:
    """A subset of ``validateKnownGroveShape``: the JSON decode of the object chain down to the
    topology constraint (other Grove fields are outside the owned paths and rejected anyway)."""
    if target == TARGET_PCS:
        spec = root.get("spec")
        if spec is None:
            return None
        if not isinstance(spec, dict):
            return _type_error(spec, "PodCliqueSet", "spec", "v1alpha1.PodCliqueSetSpec")
        template = spec.get("template")
        if template is None:
            return None
        if not isinstance(template, dict):
            return _type_error(
                template, "PodCliqueSetSpec", "spec.template", "v1alpha1.PodCliqueSetTemplateSpec"
            )
        return _check_topology(
            template.get("topologyConstraint"), "PodCliqueSetTemplateSpec", "spec.template.topologyConstraint"
        )
    if target in (TARGET_PCLQ_TEMPLATE, TARGET_PCSG_CONFIG):
        return _check_topology(root.get("topologyConstraint"), target, "topologyConstraint")
    return None


def validate_value(target: str, value: Any) -> list[tuple[str, str, bool]]:
    """``ValidateValue``: (dotted path inside value, detail, ownership violation?) tuples.

    The typed decode of the registered Grove type (``validateKnownGroveShape``) is reproduced for
    the topology-constraint chain only (see :func:`known_shape_error`).
    """
    root, e = _decode_object(value, "")
    if e or root is None:
        return [e] if e else []
    shape = known_shape_error(target, root)
    if shape is not None:
        return [("", f"does not match the registered {target} schema: {shape}", False)]
    if target == TARGET_PCS:
        errs = _reject_unknown(root, "", "spec")
        spec, e = _required_object(root, "spec", "spec")
        if e or spec is None:
            return errs + ([e] if e else [])
        errs += _reject_unknown(spec, "spec", "template")
        template, e = _required_object(spec, "template", "spec.template")
        if e or template is None:
            return errs + ([e] if e else [])
        return errs + _validate_topology_owner(template, "spec.template")
    if target in (TARGET_PCLQ_TEMPLATE, TARGET_PCSG_CONFIG):
        return _validate_topology_owner(root, "")
    return [("", f'target "{target}" has no registered ownership policy', False)]


def writes_grove_topology(target: str, value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if target == TARGET_PCS:
        spec = value.get("spec")
        template = spec.get("template") if isinstance(spec, dict) else None
        return isinstance(template, dict) and "topologyConstraint" in template
    if target in (TARGET_PCLQ_TEMPLATE, TARGET_PCSG_CONFIG):
        return "topologyConstraint" in value
    return False
