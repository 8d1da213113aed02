"""Defaulting: CRD ``+kubebuilder:default`` values and the DGD/DCD/DGDR mutating webhooks.

Schema defaults follow the API server's structural defaulting: a default is applied where the
field is absent (or null) and its parent object exists. The tables below are the ``default:``
entries of the v1beta1 CRD schemas at the reference revision (a test compares them with the CRDs).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core._consts import ANN_ENABLE_GROVE, ANN_ORIGIN_VERSION, ANN_WORKLOAD_PROVIDER
from .._core._consts import V1BETA1 as GROUP_VERSION
from .._core._datacopy import deepcopy
from .._k8s._semver import new_version, version_string
from ._common import as_dict, as_list, as_str, get
from ._provider import SCOPE_COMPONENT, SCOPE_LEADER, SCOPE_ROOT, SCOPE_WORKER, expected_target
from ._settings import AdmissionSettings

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

KindPath = tuple[str, ...]

#: Defaults inside any ``corev1.PodSpec`` embedded in the CRDs (paths relative to the pod spec).
POD_SPEC_DEFAULTS: tuple[tuple[KindPath, Any], ...] = tuple(
    ((group, "*") + rest, value)
    for group in ("containers", "ephemeralContainers", "initContainers")
    for rest, value in (
        (("env", "*", "valueFrom", "configMapKeyRef", "name"), ""),
        (("env", "*", "valueFrom", "fileKeyRef", "optional"), False),
        (("env", "*", "valueFrom", "secretKeyRef", "name"), ""),
        (("envFrom", "*", "configMapRef", "name"), ""),
        (("envFrom", "*", "secretRef", "name"), ""),
        (("livenessProbe", "grpc", "service"), ""),
        (("ports", "*", "protocol"), "TCP"),
        (("readinessProbe", "grpc", "service"), ""),
        (("startupProbe", "grpc", "service"), ""),
    )
) + (
    (("imagePullSecrets", "*", "name"), ""),
    (("volumes", "*", "azureDisk", "fsType"), "ext4"),
    (("volumes", "*", "azureDisk", "readOnly"), False),
    (("volumes", "*", "cephfs", "secretRef", "name"), ""),
    (("volumes", "*", "cinder", "secretRef", "name"), ""),
    (("volumes", "*", "configMap", "name"), ""),
    (("volumes", "*", "csi", "nodePublishSecretRef", "name"), ""),
    (("volumes", "*", "flexVolume", "secretRef", "name"), ""),
    (("volumes", "*", "iscsi", "iscsiInterface"), "default"),
    (("volumes", "*", "iscsi", "secretRef", "name"), ""),
    (("volumes", "*", "projected", "sources", "*", "configMap", "name"), ""),
    (("volumes", "*", "projected", "sources", "*", "secret", "name"), ""),
    (("volumes", "*", "rbd", "keyring"), "/etc/ceph/keyring"),
    (("volumes", "*", "rbd", "pool"), "rbd"),
    (("volumes", "*", "rbd", "secretRef", "name"), ""),
    (("volumes", "*", "rbd", "user"), "admin"),
    (("volumes", "*", "scaleIO", "fsType"), "xfs"),
    (("volumes", "*", "scaleIO", "secretRef", "name"), ""),
    (("volumes", "*", "scaleIO", "storageMode"), "ThinProvisioned"),
    (("volumes", "*", "storageos", "secretRef", "name"), ""),
)

#: Dynamo component-spec defaults, relative to a component (DGD ``components[*]`` / DCD ``spec``).
COMPONENT_DEFAULTS: tuple[tuple[KindPath, Any], ...] = (
    (("eppConfig", "configMapRef", "name"), ""),
    (("experimental", "checkpoint", "deletionPolicy"), "Delete"),
    (("experimental", "checkpoint", "identity", "pipelineParallelSize"), 1),
    (("experimental", "checkpoint", "identity", "tensorParallelSize"), 1),
    (("experimental", "checkpoint", "startupPolicy"), "Immediate"),
    (("experimental", "checkpoint", "targetContainerName"), "main"),
    (("experimental", "failover", "mode"), "IntraPod"),
    (("experimental", "failover", "numShadows"), 1),
    (("experimental", "gpuMemoryService", "deviceClassName"), "gpu.nvidia.com"),
    (("experimental", "gpuMemoryService", "mode"), "IntraPod"),
    (("multinode", "nodeCount"), 2),
) + tuple((("podTemplate", "spec") + p, v) for p, v in POD_SPEC_DEFAULTS)

_ENV_DEFAULTS: tuple[tuple[KindPath, Any], ...] = (
    (("valueFrom", "configMapKeyRef", "name"), ""),
    (("valueFrom", "fileKeyRef", "optional"), False),
    (("valueFrom", "secretKeyRef", "name"), ""),
)

SCHEMA_DEFAULTS: dict[str, tuple[tuple[KindPath, Any], ...]] = {
    "DynamoGraphDeployment": tuple((("spec", "components", "*") + p, v) for p, v in COMPONENT_DEFAULTS)
    + tuple((("spec", "env", "*") + p, v) for p, v in _ENV_DEFAULTS)
    + (
        (("spec", "experimental", "kvTransferPolicy", "enforcement"), "required"),
        (("spec", "restart", "strategy", "type"), "Sequential"),
        (("status", "state"), "initializing"),
    ),
    "DynamoComponentDeployment": tuple((("spec",) + p, v) for p, v in COMPONENT_DEFAULTS),
    "DynamoGraphDeploymentRequest": (
        (("spec", "autoApply"), True),
        (("spec", "backend"), "auto"),
        (("spec", "modelCache", "pvcMountPath"), "/opt/model-cache"),
        (("spec", "searchStrategy"), "rapid"),
        (("spec", "workload", "isl"), 4000),
        (("spec", "workload", "osl"), 1000),
    )
    + tuple((("spec", "overrides", "profilingJob", "template", "spec") + p, v) for p, v in POD_SPEC_DEFAULTS),
}

KINDS = tuple(SCHEMA_DEFAULTS)

PROVIDER_GROVE = "grove"
PROVIDER_COMPONENT = "component"
DGDR_DEFAULT_IMAGE_REPO = "nvcr.io/nvidia/ai-dynamo/dynamo-planner"


def _apply_path(node: Any, path: KindPath, value: Any) -> None:
    if not isinstance(node, dict) or not path:
        return
    head, rest = path[0], path[1:]
    if head == "*":  # pragma: no cover - "*" only follows a key
        return
    if not rest:
        if node.get(head) is None:
            node[head] = deepcopy(value)
        return
    child = node.get(head)
    if rest[0] == "*":
        for item in as_list(child):
            _apply_path(item, rest[1:], value)
    else:
        _apply_path(child, rest, value)


#: A compiled default plan: ``(leaves, children)`` per object level, ``leaves`` the ``(key, value)``
#: pairs set there, ``children`` the ``(key, each_item, plan)`` steps (``each_item``: the key holds a
#: list and ``plan`` applies to each of its items).
if TYPE_CHECKING:
    _Plan = tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, bool, Any], ...]]
_SCALARS = (str, int, float, bool, type(None))


def _compile_plan(paths: tuple[tuple[KindPath, Any], ...]) -> _Plan:
    """The paths of one kind as a tree, walked once per object instead of once per path.

    Children and leaves keep the order of first appearance in ``paths`` (the tables keep paths with
    a common prefix together), so keys are inserted in the order the path-by-path walk inserts them.
    """
    tree: dict[tuple[str, bool], list[tuple[KindPath, Any]]] = {}  # insertion order = first appearance
    leaves: list[tuple[str, Any]] = []
    for path, value in paths:
        head, rest = path[0], path[1:]
        if not rest:
            leaves.append((head, value))
            continue
        each = rest[0] == "*"
        tree.setdefault((head, each), []).append((rest[1:] if each else rest, value))
    children = tuple((key, each, _compile_plan(tuple(sub))) for (key, each), sub in tree.items())
    return tuple(leaves), children


def _run_plan(node: Any, plan: _Plan) -> None:
    if not isinstance(node, dict):
        return
    leaves, children = plan
    for key, value in leaves:
        if node.get(key) is None:
            node[key] = value if isinstance(value, _SCALARS) else deepcopy(value)
    for key, each, sub in children:
        child = node.get(key)
        if each:
            if isinstance(child, list):
                for item in child:
                    _run_plan(item, sub)
        else:
            _run_plan(child, sub)


_PLANS: dict[str, _Plan] = {}


def apply_schema_defaults(obj: dict[str, Any]) -> None:
    """Apply the CRD defaults of ``obj``'s kind in place (the same result as applying each path of
    :data:`SCHEMA_DEFAULTS` in turn with ``_apply_path``, ``tests/admission/test_defaults.py``)."""
    kind = as_str(obj.get("kind"))
    plan = _PLANS.get(kind)
    if plan is None:
        paths = SCHEMA_DEFAULTS.get(kind)
        if not paths:
            return
        plan = _PLANS[kind] = _compile_plan(paths)
    _run_plan(obj, plan)


def is_v1beta1(obj: Any, kind: str | None = None) -> bool:
    return (
        isinstance(obj, dict)
        and obj.get("apiVersion") == GROUP_VERSION
        and (obj.get("kind") in KINDS if kind is None else obj.get("kind") == kind)
    )


def default(
    obj: Mapping[str, Any],
    settings: AdmissionSettings,
    *,
    operation: str = "CREATE",
    old: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Return a defaulted deep copy of ``obj`` (schema defaults, then the mutating webhook: its defaults
    and its Go round trip, ``_gojson.go_round_trip``, then schema defaults again).

    ``operation`` is ``CREATE`` or ``UPDATE``. ``old`` is accepted for symmetry with
    :func:`validate` (the reference webhooks do not read it). Objects that are not nvidia.com/v1beta1
    DGD/DCD/DGDR are returned as an unchanged copy.
    """
    copied: Any = deepcopy(obj)
    out: dict[str, Any] = dict(copied) if isinstance(copied, Mapping) and not isinstance(copied, dict) else copied
    if not is_v1beta1(out):
        return out
    apply_schema_defaults(out)
    return default_schema_defaulted(out, settings, operation=operation)


def default_schema_defaulted(out: dict[str, Any], settings: AdmissionSettings, *,
                             operation: str = "CREATE") -> dict[str, Any]:
    """:func:`default` of an object that already is a private copy with the schema defaults applied
    (``crd_defaults``' result, which the caller hands over: it is changed in place): the work
    ``default`` does after its copy and first schema defaulting, without doing those again."""
    if not is_v1beta1(out):
        return out
    op = operation.upper()
    before = defaulter_snapshot(out)
    kind = out["kind"]
    if kind == "DynamoGraphDeployment":
        _default_dgd(out, settings, op)
    elif kind == "DynamoComponentDeployment":
        _default_dcd(out, op)
    else:
        _default_dgdr(out, settings, op)
    if out != before:
        # the Go round trip reaches the stored object only when the defaulter changed something
        # (docs/decisions.md D35)
        out = _go_round_trip(out)
    apply_schema_defaults(out)
    return out


def _own(d: dict[str, Any], key: str) -> Any:
    """``d[key]`` replaced by a shallow copy when it is a mapping (or list); the copy (else the value)."""
    v = d.get(key)
    if type(v) is dict or type(v) is list:
        v = d[key] = type(v)(v)
    return v


def defaulter_snapshot(obj: dict[str, Any]) -> dict[str, Any]:
    """What :func:`default_schema_defaulted` compares the defaulted object with: equal to ``deepcopy(obj)``
    for that comparison, but only the mappings and lists the webhook defaulter writes into are copied
    (``metadata``, its ``annotations``, ``spec``, the DGD's components, their provider overrides and multinode
    roles); the rest is shared, and equal objects that are the same object compare at once.
    ``tests/admission/test_defaults.py`` compares it with the deep copy over the corpus and generated shapes."""
    snap = dict(obj)
    meta = _own(snap, "metadata")
    if type(meta) is dict:
        _own(meta, "annotations")
    spec = _own(snap, "spec")
    if type(spec) is not dict or obj.get("kind") != "DynamoGraphDeployment":
        return snap
    _own(spec, "providerOverride")
    comps = _own(spec, "components")
    if type(comps) is list:
        for i, c in enumerate(comps):
            if type(c) is not dict:
                continue
            c = comps[i] = dict(c)
            _own(c, "providerOverride")
            mn = _own(c, "multinode")
            if type(mn) is dict:
                for role in ("leader", "worker"):
                    r = _own(mn, role)
                    if type(r) is dict:
                        _own(r, "providerOverride")
    return snap


def _go_round_trip(obj: dict[str, Any]) -> dict[str, Any]:
    """What the webhook's JSON patch adds besides the defaults: the Go round trip (``_gojson``)."""
    from .._schema._godecode import go_round_trip
    from .._schema._schemas import for_object

    schema = for_object(str(obj.get("apiVersion")), str(obj.get("kind")))
    return obj if schema is None else go_round_trip(obj, schema)


def _annotations(obj: dict[str, Any], create: bool) -> dict[str, Any] | None:
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        if not create:
            return None
        meta = obj["metadata"] = {}
    ann = meta.get("annotations")
    if not isinstance(ann, dict):
        if not create:
            return None
        ann = meta["annotations"] = {}
    return ann


def _default_dgd(dgd: dict[str, Any], settings: AdmissionSettings, op: str) -> None:
    # 1. workload provider: chosen on CREATE from routing intent; existing value authoritative later.
    provider = ""
    selected = False
    if op == "CREATE":
        ann = _annotations(dgd, True)
        assert ann is not None
        provider = PROVIDER_COMPONENT
        if settings.grove_enabled and as_str(ann.get(ANN_ENABLE_GROVE)).lower() != "false":
            provider = PROVIDER_GROVE
        ann[ANN_WORKLOAD_PROVIDER] = provider
        selected = True
    else:
        ann = _annotations(dgd, False)
        if ann is not None and ANN_WORKLOAD_PROVIDER in ann:
            provider = as_str(ann.get(ANN_WORKLOAD_PROVIDER))
            selected = True

    spec = dgd.get("spec")
    if isinstance(spec, dict):
        root_override = spec.get("providerOverride")
        if isinstance(root_override, dict):
            _default_target(root_override, provider, SCOPE_ROOT, None)
        for component in as_list(spec.get("components")):
            if not isinstance(component, dict):
                continue
            # 2. replicas nil -> 1 on every operation.
            if component.get("replicas") is None:
                component["replicas"] = 1
            # 3. Grove: minAvailable nil -> 1 (explicit values preserved).
            if selected and provider == PROVIDER_GROVE and component.get("minAvailable") is None:
                component["minAvailable"] = 1
            # 4. provider-override targets when unambiguous.
            override = component.get("providerOverride")
            if isinstance(override, dict):
                _default_target(override, provider, SCOPE_COMPONENT, component)
            multinode = component.get("multinode")
            if isinstance(multinode, dict):
                for role, scope in (("leader", SCOPE_LEADER), ("worker", SCOPE_WORKER)):
                    role_override = get(multinode, role, "providerOverride")
                    if isinstance(role_override, dict):
                        _default_target(role_override, provider, scope, component)

    # 5. origin version on CREATE unless present.
    if op == "CREATE":
        ann = _annotations(dgd, True)
        assert ann is not None
        if ANN_ORIGIN_VERSION not in ann:
            ann[ANN_ORIGIN_VERSION] = settings.operator_version


def _default_target(override: dict[str, Any], provider: str, scope: str, component: Any) -> None:
    if as_str(override.get("target")):
        return
    target, err = expected_target(provider, as_str(override.get("apiVersion")), scope, component)
    if err is None:
        override["target"] = target


def _default_dcd(dcd: dict[str, Any], op: str) -> None:
    if op != "CREATE":
        return
    spec = dcd.get("spec")
    name = as_str(get(dcd, "metadata", "name"))
    if isinstance(spec, dict) and not as_str(spec.get("name")) and name:
        spec["name"] = name


def canonical_semver(value: str) -> str | None:
    """Masterminds ``semver.NewVersion(v).String()``; None when ``value`` does not parse (``_k8s._semver``)."""
    parsed = new_version(value)
    return None if parsed is None else version_string(parsed)


def dgdr_default_image(settings: AdmissionSettings) -> str:
    if settings.dgdr_default_image:
        return settings.dgdr_default_image
    version = canonical_semver(settings.operator_version)
    return f"{DGDR_DEFAULT_IMAGE_REPO}:{version}" if version else ""


def _default_dgdr(dgdr: dict[str, Any], settings: AdmissionSettings, op: str) -> None:
    spec = dgdr.get("spec")
    if op != "CREATE" or not isinstance(spec, dict) or as_str(spec.get("image")):
        return
    image = dgdr_default_image(settings)
    if image:
        spec["image"] = image


__all__ = ["SCHEMA_DEFAULTS", "apply_schema_defaults", "as_dict", "default"]
