"""``eppConfig.config`` as the operator holds it: Go's typed ``EndpointPickerConfig``.

The operator decodes the stored DGD into its Go types, so an inline EPP config is the
``sigs.k8s.io/gateway-api-inference-extension`` ``apix/config/v1alpha1`` ``EndpointPickerConfig`` of the
module version in the reference ``go.mod`` (v1.2.0; its fields are the ones the CRD's schema of
``eppConfig.config`` lists). What that means for what the operator writes:

* decoding (``encoding/json``) keeps only the declared fields, matching keys exactly or, failing that,
  case-insensitively (a later key wins); everything else is dropped;
* encoding writes every field without ``omitempty``: ``plugins[].name: ""``, ``plugins[].parameters:
  null`` (a ``json.RawMessage``), ``schedulingProfiles[].plugins[].weight: null`` (an ``*int``); and
  ``saturationDetector.metricsStalenessThreshold`` (a ``metav1.Duration``, a struct: never omitted) as
  Go prints the duration;
* ``epp/config.go`` ``marshalEndpointPickerConfig`` sets the config's ``TypeMeta`` (``apiVersion:
  inference.networking.x-k8s.io/v1alpha1``, ``kind: EndpointPickerConfig``) on the object it was given,
  the DGD's own, before it writes the ConfigMap (``sigs.k8s.io/yaml.Marshal``); the DGD reconciler
  creates the EPP resources before the child DCDs, so a child DCD carries the stamped config too.
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

API_VERSION = "inference.networking.x-k8s.io/v1alpha1"
KIND = "EndpointPickerConfig"

# (JSON name, kind, omitempty) in Go declaration order; kind: a nested struct name, "list:<struct>",
# "str", "int", "float", "raw" (json.RawMessage), "strings" ([]string), "duration" (metav1.Duration)
_STRUCTS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "EndpointPickerConfig": (
        ("kind", "str", True), ("apiVersion", "str", True),  # metav1.TypeMeta, inline
        ("plugins", "list:PluginSpec", False),
        ("schedulingProfiles", "list:SchedulingProfile", False),
        ("featureGates", "strings", True),
        ("saturationDetector", "SaturationDetector", True),
    ),
    "PluginSpec": (("name", "str", False), ("type", "str", False), ("parameters", "raw", False)),
    "SchedulingProfile": (("name", "str", False), ("plugins", "list:SchedulingPlugin", False)),
    "SchedulingPlugin": (("pluginRef", "str", False), ("weight", "int", False)),
    "SaturationDetector": (
        ("queueDepthThreshold", "int", True), ("kvCacheUtilThreshold", "float", True),
        ("metricsStalenessThreshold", "duration", True),
    ),
}
_POINTER = {"SchedulingPlugin.weight", "EndpointPickerConfig.saturationDetector"}


def _lookup(obj: Mapping[str, Any], name: str) -> tuple[bool, Any]:
    """``encoding/json``'s field match: the key equal to ``name``, else one equal under case folding;
    of several keys for one field the last one decoded wins."""
    found, value = False, None
    for key, v in obj.items():
        if key == name or (isinstance(key, str) and key.lower() == name.lower()):
            found, value = True, v
    return found, value


def _duration(value: Any) -> str:
    """``metav1.Duration``: ``time.ParseDuration`` of the stored string, printed by ``Duration.String``."""
    from .._grove._create import _go_duration_string, parse_go_duration

    ns = parse_go_duration(value) if isinstance(value, str) else None
    return _go_duration_string(ns or 0)


def _field(kind: str, present: bool, value: Any, pointer: bool) -> Any:
    if kind.startswith("list:"):
        if not present or not isinstance(value, list):
            return None
        return [_struct(kind[5:], v if isinstance(v, Mapping) else {}) for v in value]
    if kind in _STRUCTS:
        return _struct(kind, value) if present and isinstance(value, Mapping) else None
    if kind == "raw":
        return value if present else None
    if kind == "strings":
        return list(value) if present and isinstance(value, list) else None
    if kind == "duration":
        return _duration(value if present else None)
    if present and value is not None:
        return value
    if pointer:
        return None
    return {"str": "", "int": 0, "float": 0.0}[kind]


def _struct(name: str, obj: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for json_name, kind, omitempty in _STRUCTS[name]:
        present, value = _lookup(obj, json_name)
        v = _field(kind, present, value, f"{name}.{json_name}" in _POINTER)
        if omitempty and (v is None or v == "" or v == 0 or v == []) and kind != "duration":
            continue
        out[json_name] = v
    return out


def typed_config(config: Mapping[str, Any], *, type_meta: bool = False) -> dict[str, Any]:
    """The JSON ``encoding/json`` writes for ``config`` decoded into ``EndpointPickerConfig``;
    ``type_meta``: with the ``TypeMeta`` ``marshalEndpointPickerConfig`` sets."""
    obj = dict(config)
    if type_meta:
        obj = {k: v for k, v in obj.items() if str(k).lower() not in ("kind", "apiversion")}
        obj["kind"], obj["apiVersion"] = KIND, API_VERSION
    return _struct("EndpointPickerConfig", obj)


def config_map_text(config: Mapping[str, Any]) -> str:
    """``marshalEndpointPickerConfig``: the ConfigMap's ``epp-config-dynamo.yaml``."""
    from .._k8s._goyaml import marshal

    return marshal(typed_config(config, type_meta=True))


def stamps_type_meta(component: Mapping[str, Any]) -> bool:
    """Whether the EPP reconciler generated a ConfigMap from this component's inline config (and so set
    the config's ``TypeMeta``): an EPP component with ``eppConfig.config`` and no ``configMapRef``."""
    cfg = component.get("eppConfig")
    return (component.get("type") == "epp" and isinstance(cfg, Mapping) and cfg.get("configMapRef") is None
            and isinstance(cfg.get("config"), Mapping))
