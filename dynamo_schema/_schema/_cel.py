"""The CRDs' ``x-kubernetes-validations`` (CEL) rules, evaluated offline.

Any rule is evaluated by a real CEL engine (``_cel_engine``: cel-cpp with the Kubernetes CEL
libraries as a shim), imported only when a document reaches a rule without a fast path. The distinct
rule strings of the DGD / DCD CRDs (v1beta1 and v1alpha1) also have a hand-written Python translation
below, keyed by the exact rule text: a fast path that keeps the engine out of the one-file
``validate`` run, proven equal to the engine (results and error texts) by a Hypothesis test
(tests/structural/test_cel_engine.py). Without the engine (Python 3.10: no wheels) only the fast path
runs and any other rule is reported as ``cel.untranslated``. The walk follows the schema alongside the
data (``$ref`` included) the way ``apiextensions-apiserver``'s CEL validator does
(``schema/cel/validation.go``):

* schema defaults are applied first (the API server defaults before it validates);
* a null value is not validated; rules run on every node that has them;
* transition rules (using ``oldSelf``) run only when a correlatable old value exists (object
  properties, map values, items of ``x-kubernetes-list-type: map`` lists matched by key); a rule with
  ``optionalOldSelf: true`` also runs on create, with ``oldSelf`` = ``optional.none()``;
* a failed rule is the field error ``Invalid value: "<schema type>": <message>`` (``Forbidden`` /
  ``Required value`` / ``Duplicate value`` for ``reason``), on the node's path plus ``fieldPath``;
  the message is ``messageExpression``'s value when it evaluates to a usable string, else
  ``message``, else ``failed rule: <rule>``; a runtime error (e.g. a missing key) is
  ``Invalid value: "<type>": no such key: <k> evaluating rule: <message or rule>``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from .._core._consts import ANN_VLLM_BACKEND as _BACKEND_ANNOTATION
from .._core._diagnostics import Diagnostic, Path
from .._k8s._gofmt import OMIT, field_error
from .._k8s._quantity import parse_quantity
from ._cel_engine import ABSENT, CelRuntimeError, _cel_eq
from ._structural import Node, compile_schema

__all__ = [
    "BLOCKED_MESSAGE",
    "RULES",
    "apply_schema_defaults",
    "has_blocking_errors",
    "rule_id",
    "validate_cel",
]


CelError = CelRuntimeError  # a CEL runtime error (``no such key: x`` ...), same type as the engine's

NONE = ABSENT  # ``optional.none()`` for ``oldSelf`` of an ``optionalOldSelf`` rule on create


def _has(obj: Any, key: str) -> bool:
    """CEL ``has(obj.key)`` on an object / map value."""
    if not isinstance(obj, dict):
        raise CelError("no such overload")
    return key in obj and obj[key] is not None


def _get(obj: Any, key: str) -> Any:
    """CEL ``obj.key`` (``no such key`` when absent)."""
    if not isinstance(obj, dict) or key not in obj or obj[key] is None:
        raise CelError(f"no such key: {key}")
    return obj[key]


def _size(v: Any) -> int:
    if isinstance(v, (str, list, dict)):
        return len(v)
    raise CelError("no such overload")


def _lower_ascii(s: Any) -> str:
    if not isinstance(s, str):
        raise CelError("no such overload")
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def _eq(a: Any, b: Any) -> bool:
    """CEL ``==``: heterogeneous equality (numbers by value; values of different kinds are unequal)."""
    return _cel_eq(a, b)


def _int(v: Any) -> int | float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise CelError("no such overload")
    return v


# --- the translations (self, oldSelf) -> bool ----------------------------------------------------


def _r_restart(s: Any, old: Any) -> bool:
    # oldSelf.hasValue() || !has(self.restart)
    return old is not NONE or not _has(s, "restart")


def _r_single_epp(s: Any, old: Any) -> bool:
    # self.filter(c, has(c.type) && c.type == 'epp').size() <= 1
    return sum(1 for c in s if _has(c, "type") and _eq(_get(c, "type"), "epp")) <= 1


def _r_unique_names(s: Any, old: Any) -> bool:
    # self.all(c1, !has(c1.name) || self.filter(c2, has(c2.name) && c2.name.lowerAscii() ==
    #   c1.name.lowerAscii()).size() == 1)
    for c1 in s:
        if not _has(c1, "name"):
            continue
        n1 = _lower_ascii(_get(c1, "name"))
        if sum(1 for c2 in s if _has(c2, "name") and _lower_ascii(_get(c2, "name")) == n1) != 1:
            return False
    return True


def _r_epp_config_type(s: Any, old: Any) -> bool:
    # !has(self.eppConfig) || (has(self.type) && self.type == 'epp')
    return not _has(s, "eppConfig") or (_has(s, "type") and _eq(_get(s, "type"), "epp"))


def _r_min_available(s: Any, old: Any) -> bool:
    # !has(self.minAvailable) || (has(self.replicas) && self.replicas == 0)
    #   || self.minAvailable <= (has(self.replicas) ? self.replicas : 1)
    if not _has(s, "minAvailable"):
        return True
    if _has(s, "replicas") and _eq(_get(s, "replicas"), 0):
        return True
    bound = _int(_get(s, "replicas")) if _has(s, "replicas") else 1
    return _int(_get(s, "minAvailable")) <= bound


def _r_min_available_immutable(s: Any, old: Any) -> bool:
    # !has(oldSelf.minAvailable) || (has(self.minAvailable) && self.minAvailable == oldSelf.minAvailable)
    if not _has(old, "minAvailable"):
        return True
    return _has(s, "minAvailable") and _eq(_get(s, "minAvailable"), _get(old, "minAvailable"))


def _r_type_immutable(s: Any, old: Any) -> bool:
    # !has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)
    if not _has(old, "type"):
        return True
    return _has(s, "type") and _eq(_get(s, "type"), _get(old, "type"))


def _r_epp_config_source(s: Any, old: Any) -> bool:
    # has(self.configMapRef) != has(self.config)
    return _has(s, "configMapRef") != _has(s, "config")


def _r_checkpoint_job(s: Any, old: Any) -> bool:
    # !has(self.job) || !has(self.checkpointRef) || size(self.checkpointRef) == 0
    return not _has(s, "job") or not _has(s, "checkpointRef") or _size(_get(s, "checkpointRef")) == 0


def _empty_or_mode(s: Any, field: str, mode: str) -> bool:
    # !has(self.<field>) || size(self.<field>) == 0 || self.mode == '<mode>'
    return not _has(s, field) or _size(_get(s, field)) == 0 or _eq(_get(s, "mode"), mode)


def _r_gms_containers(s: Any, old: Any) -> bool:
    return _empty_or_mode(s, "extraClientContainers", "IntraPod")


def _r_gms_pods_mode(s: Any, old: Any) -> bool:
    return _empty_or_mode(s, "extraClientPods", "InterPod")


def _r_gms_pods_reserved(s: Any, old: Any) -> bool:
    # !has(self.extraClientPods) || size(self.extraClientPods) == 0
    return not _has(s, "extraClientPods") or _size(_get(s, "extraClientPods")) == 0




def _r_backend_annotation(s: Any, old: Any) -> bool:
    # !("nvidia.com/vllm-distributed-executor-backend" in self)
    #   || self["nvidia.com/vllm-distributed-executor-backend"].lowerAscii() in ["mp", "ray"]
    if not isinstance(s, dict):
        raise CelError("no such overload")
    if _BACKEND_ANNOTATION not in s:
        return True
    return _lower_ascii(s[_BACKEND_ANNOTATION]) in ("mp", "ray")


def _or(*terms: Callable[[], bool]) -> bool:
    """CEL ``a || b || ...``: true when any term is true, even if another errs (commutative error
    absorption); else the first error; else false."""
    err: CelError | None = None
    for t in terms:
        try:
            if t():
                return True
        except CelError as e:
            err = err or e
    if err is not None:
        raise err
    return False


def _r_sidecar_image(s: Any, old: Any) -> bool:
    # self.name == "main" || (has(self.image) && self.image != "")
    return _or(lambda: _eq(_get(s, "name"), "main"),
               lambda: _has(s, "image") and not _eq(_get(s, "image"), ""))


def _r_init_image(s: Any, old: Any) -> bool:
    # has(self.image) && self.image != ""
    return _has(s, "image") and not _eq(_get(s, "image"), "")


def _r_kv_target(s: Any, old: Any) -> bool:
    # (has(self.labelKey) && !has(self.clusterTopologyName)) || (!has(self.labelKey) && has(self.clusterTopologyName))
    return _has(s, "labelKey") != _has(s, "clusterTopologyName")


def _r_weight_required(s: Any, old: Any) -> bool:
    # !has(self.enforcement) || self.enforcement != 'preferred' || has(self.preferredWeight)
    return (
        not _has(s, "enforcement")
        or not _eq(_get(s, "enforcement"), "preferred")
        or _has(s, "preferredWeight")
    )


def _r_weight_forbidden(s: Any, old: Any) -> bool:
    # !has(self.preferredWeight) || (has(self.enforcement) && self.enforcement == 'preferred')
    return not _has(s, "preferredWeight") or (
        _has(s, "enforcement") and _eq(_get(s, "enforcement"), "preferred")
    )


def _r_label_key_prefix(s: Any, old: Any) -> bool:
    # !self.contains('/') || self.split('/')[0].size() <= 253
    if not isinstance(s, str):
        raise CelError("no such overload")
    return "/" not in s or len(s.split("/")[0]) <= 253


# --- v1alpha1-only rules (same CRD files, legacy version) ---


def _r_pvc_create(s: Any, old: Any) -> bool:
    # !has(self.create) || self.create == false
    #   || (has(self.size) && has(self.storageClass) && has(self.volumeAccessMode))
    return (
        not _has(s, "create")
        or _eq(_get(s, "create"), False)
        or (_has(s, "size") and _has(s, "storageClass") and _has(s, "volumeAccessMode"))
    )


def _r_gms_containers_alpha(s: Any, old: Any) -> bool:
    return _empty_or_mode(s, "extraClientContainers", "intraPod")


def _r_gms_pods_mode_alpha(s: Any, old: Any) -> bool:
    return _empty_or_mode(s, "extraClientPods", "interPod")


_QUANTITY_FORMAT_ERROR = (  # resource.ErrFormatWrong, which CEL's quantity() reports for any parse failure here
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)


def _quantity(v: Any) -> Decimal:
    """CEL ``quantity(string)`` (k8s.io/apimachinery resource.ParseQuantity), as a number."""
    if isinstance(v, int) and not isinstance(v, bool):  # an int-or-string field holding an int
        raise CelError("no such overload: quantity(int)")  # cel-go's text (kubectl-validate)
    if not isinstance(v, str):
        raise CelError("no such overload")
    q = parse_quantity(v)
    if q is None:
        raise CelError(_QUANTITY_FORMAT_ERROR)
    return q


def _r_shared_memory(s: Any, old: Any) -> bool:
    # (has(self.disabled) && self.disabled) || (has(self.size) && quantity(self.size).isGreaterThan(quantity('0')))
    if _has(s, "disabled") and _get(s, "disabled") is True:
        return True
    return _has(s, "size") and _quantity(_get(s, "size")) > 0


def _r_pack_or_domain(s: Any, old: Any) -> bool:
    # has(self.pack) || has(self.packDomain)   (Grove topologyConstraint)
    return _has(s, "pack") or _has(s, "packDomain")


def _r_not_domain_and_required(s: Any, old: Any) -> bool:
    # !(has(self.packDomain) && has(self.pack) && has(self.pack.required))
    return not (_has(s, "packDomain") and _has(s, "pack") and _has(_get(s, "pack"), "required"))


def _r_pack_required_or_preferred(s: Any, old: Any) -> bool:
    # has(self.required) || has(self.preferred)
    return _has(s, "required") or _has(s, "preferred")


def _r_no_template_pack_domain(s: Any, old: Any) -> bool:
    # oldSelf.hasValue() || !has(self.spec.template.topologyConstraint)
    #   || !has(self.spec.template.topologyConstraint.packDomain)
    if old is not NONE:
        return True
    template = _get(_get(s, "spec"), "template")
    return not _has(template, "topologyConstraint") or not _has(_get(template, "topologyConstraint"), "packDomain")


def _no_pack_domain_in(s: Any, old: Any, field: str) -> bool:
    # oldSelf.hasValue() || !has(self.spec.template.<field>)
    #   || self.spec.template.<field>.all(c, !has(c.topologyConstraint) || !has(c.topologyConstraint.packDomain))
    if old is not NONE:
        return True
    template = _get(_get(s, "spec"), "template")
    if not _has(template, field):
        return True
    items = _get(template, field)
    if not isinstance(items, list):
        raise CelError("no such overload")
    return all(not _has(c, "topologyConstraint") or not _has(_get(c, "topologyConstraint"), "packDomain")
               for c in items)


def _r_no_clique_pack_domain(s: Any, old: Any) -> bool:
    return _no_pack_domain_in(s, old, "cliques")


def _r_no_group_pack_domain(s: Any, old: Any) -> bool:
    return _no_pack_domain_in(s, old, "podCliqueScalingGroups")


Rule = Callable[[Any, Any], bool]

# exact rule text -> (short name, translation)
RULES: dict[str, tuple[str, Rule]] = {
    # Grove PodCliqueSet (grove.io/v1alpha1)
    "has(self.pack) || has(self.packDomain)": ("topology-pack", _r_pack_or_domain),
    "!(has(self.packDomain) && has(self.pack) && has(self.pack.required))": (
        "topology-pack-domain-conflict",
        _r_not_domain_and_required,
    ),
    "has(self.required) || has(self.preferred)": ("topology-pack-required-or-preferred", _r_pack_required_or_preferred),
    "oldSelf.hasValue() || !has(self.spec.template.topologyConstraint) || "
    "!has(self.spec.template.topologyConstraint.packDomain)": ("pack-domain-deprecated", _r_no_template_pack_domain),
    "oldSelf.hasValue() || !has(self.spec.template.cliques) || self.spec.template.cliques.all(c, "
    "!has(c.topologyConstraint) || !has(c.topologyConstraint.packDomain))": (
        "pack-domain-deprecated-cliques",
        _r_no_clique_pack_domain,
    ),
    "oldSelf.hasValue() || !has(self.spec.template.podCliqueScalingGroups) || "
    "self.spec.template.podCliqueScalingGroups.all(g, !has(g.topologyConstraint) || "
    "!has(g.topologyConstraint.packDomain))": ("pack-domain-deprecated-groups", _r_no_group_pack_domain),
    "oldSelf.hasValue() || !has(self.restart)": ("restart-unset-on-create", _r_restart),
    "self.filter(c, has(c.type) && c.type == 'epp').size() <= 1": ("single-epp", _r_single_epp),
    "self.all(c1, !has(c1.name) || self.filter(c2, has(c2.name) && c2.name.lowerAscii() == "
    "c1.name.lowerAscii()).size() == 1)": ("unique-component-names", _r_unique_names),
    "!has(self.eppConfig) || (has(self.type) && self.type == 'epp')": ("epp-config-type", _r_epp_config_type),
    "!has(self.minAvailable) || (has(self.replicas) && self.replicas == 0) || self.minAvailable <= "
    "(has(self.replicas) ? self.replicas : 1)": ("min-available", _r_min_available),
    "!has(oldSelf.minAvailable) || (has(self.minAvailable) && self.minAvailable == oldSelf.minAvailable)": (
        "min-available-immutable",
        _r_min_available_immutable,
    ),
    # documented upstream (DCD type immutability); not in every CRD revision
    "!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)": (
        "type-immutable",
        _r_type_immutable,
    ),
    "has(self.configMapRef) != has(self.config)": ("epp-config-source", _r_epp_config_source),
    "!has(self.job) || !has(self.checkpointRef) || size(self.checkpointRef) == 0": (
        "checkpoint-job",
        _r_checkpoint_job,
    ),
    "!has(self.extraClientContainers) || size(self.extraClientContainers) == 0 || self.mode == 'IntraPod'": (
        "gms-extra-client-containers",
        _r_gms_containers,
    ),
    "!has(self.extraClientPods) || size(self.extraClientPods) == 0 || self.mode == 'InterPod'": (
        "gms-extra-client-pods-mode",
        _r_gms_pods_mode,
    ),
    "!has(self.extraClientPods) || size(self.extraClientPods) == 0": (
        "gms-extra-client-pods",
        _r_gms_pods_reserved,
    ),
    '!("nvidia.com/vllm-distributed-executor-backend" in self) || '
    'self["nvidia.com/vllm-distributed-executor-backend"].lowerAscii() in ["mp", "ray"]': (
        "vllm-backend-annotation",
        _r_backend_annotation,
    ),
    'self.name == "main" || (has(self.image) && self.image != "")': ("sidecar-image", _r_sidecar_image),
    'has(self.image) && self.image != ""': ("init-container-image", _r_init_image),
    "(has(self.labelKey) && !has(self.clusterTopologyName)) || (!has(self.labelKey) && has(self.clusterTopologyName))": (
        "kv-transfer-target",
        _r_kv_target,
    ),
    "!has(self.enforcement) || self.enforcement != 'preferred' || has(self.preferredWeight)": (
        "preferred-weight-required",
        _r_weight_required,
    ),
    "!has(self.preferredWeight) || (has(self.enforcement) && self.enforcement == 'preferred')": (
        "preferred-weight-forbidden",
        _r_weight_forbidden,
    ),
    "!self.contains('/') || self.split('/')[0].size() <= 253": ("label-key-prefix", _r_label_key_prefix),
    # v1alpha1
    "!has(self.create) || self.create == false || (has(self.size) && has(self.storageClass) && "
    "has(self.volumeAccessMode))": ("pvc-create-fields", _r_pvc_create),
    "!has(self.extraClientContainers) || size(self.extraClientContainers) == 0 || self.mode == 'intraPod'": (
        "gms-extra-client-containers",
        _r_gms_containers_alpha,
    ),
    "!has(self.extraClientPods) || size(self.extraClientPods) == 0 || self.mode == 'interPod'": (
        "gms-extra-client-pods-mode",
        _r_gms_pods_mode_alpha,
    ),
    "(has(self.disabled) && self.disabled) || (has(self.size) && "
    "quantity(self.size).isGreaterThan(quantity('0')))": ("shared-memory-size", _r_shared_memory),
}


def _norm(rule: str) -> str:
    return " ".join(rule.split())


_BY_NORM: dict[str, tuple[str, Rule]] = {_norm(k): v for k, v in RULES.items()}


def rule_id(rule: str) -> str | None:
    """``cel.<short-name>`` of a rule text, or None when it has no translation."""
    hit = _BY_NORM.get(_norm(rule))
    return f"cel.{hit[0]}" if hit else None


def _uses_old_self(rule: str) -> bool:
    return "oldSelf" in rule


# --- defaulting (structuraldefaulting.Default) ---------------------------------------------------


def apply_schema_defaults(data: Any, schema: dict[str, Any]) -> Any:
    """A copy of ``data`` with the schema ``default`` values applied, as the API server does before
    validation (missing properties, and nulls on non-nullable properties / items). Input untouched."""
    return _default(data, compile_schema(schema))


_BELOW: dict[tuple[int, str], tuple[Any, bool]] = {}


def _below(node: Node, key: str) -> bool:
    """Whether ``key`` (``default``, ``x-kubernetes-validations``) occurs anywhere in the schema of
    ``node`` or below it (``$ref`` followed). Computed on the raw schema, once per schema dict
    (cheap: no node compiled); True when unsure (a ``$ref`` cycle, a bad ``$ref``), so that a walk
    only skips subtrees with nothing to do."""
    return _raw_below(node.ctx, node.raw, key)


def _raw_below(ctx: Any, x: Any, key: str) -> bool:
    memo_key = (id(x), key)
    hit = _BELOW.get(memo_key)
    if hit is not None and hit[0] is x:
        return hit[1]
    _BELOW[memo_key] = (x, True)  # while scanning (a cycle): unsure
    found = False
    if isinstance(x, dict):
        if key in x:
            found = True
        else:
            ref = x.get("$ref")
            if isinstance(ref, str):
                try:
                    found = _raw_below(ctx, ctx.resolve_ref(ref), key)
                except (KeyError, TypeError, ValueError):
                    found = True
            found = found or any(_raw_below(ctx, v, key) for v in x.values() if isinstance(v, (dict, list)))
    elif isinstance(x, list):
        found = any(_raw_below(ctx, v, key) for v in x if isinstance(v, (dict, list)))
    _BELOW[memo_key] = (x, found)
    return found


def _default(x: Any, node: Node | None) -> Any:
    if node is None:
        return x
    if not _below(node, "default"):  # nothing to default here or below: the data as it is
        return x
    if isinstance(x, dict):
        out = dict(x)
        for k, sub in _defaulted_props(node):
            if k not in out or (out[k] is None and not sub.nullable):
                out[k] = copy.deepcopy(sub.default)
        for k, v in out.items():
            child = node.prop(k) if node.props_raw is not None else None
            if child is None:
                child = node.additional()
                if child is not None and v is None and child.has_default and not child.nullable:
                    out[k] = v = copy.deepcopy(child.default)
            if child is not None and isinstance(v, (dict, list)):
                out[k] = _default(v, child)
        return out
    if isinstance(x, list):
        item = node.items()
        if item is None:
            return x
        res = []
        for v in x:
            if v is None and item.has_default and not item.nullable:
                v = copy.deepcopy(item.default)
            res.append(_default(v, item) if isinstance(v, (dict, list)) else v)
        return res
    return x


_DEFAULTED: dict[int, tuple[Node, tuple[tuple[str, Node], ...]]] = {}


def _defaulted_props(node: Node) -> tuple[tuple[str, Node], ...]:
    """The properties of ``node`` that have a ``default``, in schema order (computed once per node:
    most object nodes have none, and walking every property of every object was a hot spot)."""
    hit = _DEFAULTED.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    found = tuple((k, sub) for k, sub in _iter_props(node) if sub.has_default)
    _DEFAULTED[id(node)] = (node, found)
    return found


def _iter_props(node: Node) -> list[tuple[str, Node]]:
    out = []
    for k in node.properties:
        sub = node.prop(k)
        if sub is not None:
            out.append((k, sub))
    return out


# --- evaluation ----------------------------------------------------------------------------------

_REASONS = {"FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate", "FieldValueInvalid"}


def _field_path(fp: str) -> Path:
    """``fieldPath`` (``.a.b`` / ``['x']`` JSONPath subset) relative to the rule's node."""
    out: list[str | int] = []
    i, n = 0, len(fp)
    while i < n:
        c = fp[i]
        if c == ".":
            j = i + 1
            while j < n and fp[j] not in ".[":
                j += 1
            out.append(fp[i + 1 : j])
            i = j
        elif c == "[" and i + 1 < n and fp[i + 1] == "'":
            j = i + 2
            buf = []
            while j < n and fp[j] != "'":
                if fp[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(fp[j])
                j += 1
            out.append("".join(buf))
            i = j + 2  # past "']"
        else:
            break
    return tuple(out)


def _field_error(value_type: str, detail: str, reason: str | None) -> str:
    """The field error a failed rule becomes (``reason`` picks the constructor; the bad value is the
    schema type name, a string)."""
    if reason == "FieldValueForbidden":
        return field_error("Forbidden", OMIT, detail)
    if reason == "FieldValueRequired":
        return field_error("Required value", OMIT, detail)
    if reason == "FieldValueDuplicate":
        return field_error("Duplicate value", value_type)
    return field_error("Invalid value", value_type, detail)


def _error_string(rule: dict[str, Any]) -> str:
    msg = rule.get("message")
    if isinstance(msg, str) and msg:
        return msg.strip()
    return str(rule.get("rule", "")).strip()


def _message(rule: dict[str, Any]) -> str:
    msg = rule.get("message")
    if isinstance(msg, str) and msg:
        return msg.strip()
    return f"failed rule: {_error_string(rule)}"


class _Walk:
    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []


def _value_type(node: Node, value: Any) -> str:
    t = node.schema_type
    if t:
        return t
    return ""


def _eval_rules(w: _Walk, node: Node, obj: Any, old: Any, path: Path) -> None:
    for rule in node.validations:
        text = rule.get("rule")
        if not isinstance(text, str) or not text.strip():
            continue
        hit = _BY_NORM.get(_norm(text))
        optional_old = bool(rule.get("optionalOldSelf"))
        transition = _uses_old_self(text)
        if transition and old is None and not optional_old:
            continue  # transition rules need a comparable old value
        vt = _value_type(node, obj)
        old_arg: Any = old
        if optional_old and old is None:
            old_arg = NONE
        if hit is not None:
            short, fn = hit
            rid = f"cel.{short}"
        else:
            from . import _cel_engine

            if not _cel_engine.available():
                w.diags.append(Diagnostic("cel.untranslated", path,
                                          f"rule not evaluated offline (no CEL engine installed): {text.strip()}",
                                          "warning"))
                continue
            rid = "cel.rule"
            fn = _engine_rule(text, optional_old, node)
        try:
            ok = fn(obj, old_arg)
        except CelError as e:
            err = str(e)
            if err.startswith("no such overload"):
                detail = (
                    f"'{err}': call arguments did not match a supported operator, function or macro signature "
                    f"for rule: {_error_string(rule)}"
                )
            else:
                detail = f"{err} evaluating rule: {_error_string(rule)}"
            w.diags.append(Diagnostic(rid, path, field_error("Invalid value", vt, detail)))
            continue
        except _compile_error() as e:
            w.diags.append(Diagnostic("cel.untranslated", path,
                                      f"rule not evaluated offline (does not compile: {e}): {text.strip()}",
                                      "warning"))
            continue
        if ok is True:
            continue
        fp = rule.get("fieldPath")
        p = path + _field_path(fp) if isinstance(fp, str) and fp else path
        reason = rule.get("reason")
        reason = reason if isinstance(reason, str) and reason in _REASONS else None
        msg = _message_expression(rule, node, obj, old_arg)
        w.diags.append(Diagnostic(rid, p, _field_error(vt, msg if msg is not None else _message(rule), reason)))


def _compile_error() -> type[Exception]:
    from ._cel_engine import CelCompileError

    return CelCompileError


def _engine_rule(text: str, optional_old: bool, node: Node) -> Rule:
    """The engine's evaluation of ``text`` as a rule function (``self`` typed by ``node``)."""
    from . import _cel_engine

    def run(s: Any, old: Any) -> bool:
        o = old if old is NONE or old is None else to_cel(old, node)
        return _cel_engine.evaluate(text, to_cel(s, node), o, optional_old_self=optional_old) is True

    return run


_MAX_MESSAGE_EXPRESSION = 5 * 1024  # celconfig.MaxEvaluatedMessageExpressionSizeBytes


def _message_expression(rule: dict[str, Any], node: Node, obj: Any, old: Any) -> str | None:
    """The value of the rule's ``messageExpression``, or None when it is absent or unusable: like the
    API server, an evaluation error, a non-string, an empty or multi-line string, or one over 5 KiB
    falls back to ``message`` / ``failed rule: <rule>`` (without a CEL engine, likewise)."""
    expr = rule.get("messageExpression")
    if not isinstance(expr, str) or not expr.strip():
        return None
    from . import _cel_engine

    if not _cel_engine.available():
        return None
    # the API server binds oldSelf plainly here (not as an optional), when there is an old value
    o = None if old is NONE or old is None else to_cel(old, node)
    try:
        val = _cel_engine.evaluate(expr, to_cel(obj, node), o)
    except (CelError, _cel_engine.CelCompileError):
        return None
    if not isinstance(val, str):
        return None
    val = val.strip()
    if not val or "\n" in val or len(val.encode()) > _MAX_MESSAGE_EXPRESSION:
        return None
    return val


def to_cel(value: Any, node: Node | None) -> Any:
    """``value`` as the API server hands it to CEL: an integer where the schema says ``number`` is a
    double (other values unchanged; containers copied only where something changed)."""
    if node is None:
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value) if node.schema_type == "number" else value
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        props = node.props_raw
        for k, v in value.items():
            if not isinstance(v, (dict, list, int)) or isinstance(v, bool):
                continue
            sub = node.prop(k) if props is not None else None
            if sub is None:
                sub = node.additional()
            nv = to_cel(v, sub)
            if nv is not v:
                if out is None:
                    out = dict(value)
                out[k] = nv
        return value if out is None else out
    if isinstance(value, list):
        item = node.items()
        if item is None:
            return value
        conv = [to_cel(v, item) for v in value]
        return value if all(a is b for a, b in zip(conv, value)) else conv
    return value


def _walk(w: _Walk, node: Node | None, obj: Any, old: Any, path: Path) -> None:
    if node is None or obj is None:
        return
    if not _below(node, "x-kubernetes-validations"):  # no rule here or below
        return
    if node.validations:
        _eval_rules(w, node, obj, old, path)
    for b in node.all_of:
        _walk(w, b, obj, old, path)
    if isinstance(obj, dict):
        old_map = old if isinstance(old, dict) else None
        props = node.props_raw
        for k, v in obj.items():
            sub = node.prop(k) if props is not None else None
            if sub is None:
                sub = node.additional()
            if sub is None:
                continue
            ov = old_map.get(k) if old_map is not None else None
            _walk(w, sub, v, ov, path + (k,))
    elif isinstance(obj, list):
        item = node.items()
        if item is None:
            return
        old_by_key: dict[Any, Any] | None = None
        if node.list_type == "map" and node.map_keys and isinstance(old, list):
            old_by_key = {}
            for o in old:
                if isinstance(o, dict):
                    old_by_key.setdefault(_map_key(o, node.map_keys), o)
        for i, v in enumerate(obj):
            ov = None
            if old_by_key is not None and isinstance(v, dict):
                ov = old_by_key.get(_map_key(v, node.map_keys))
            _walk(w, item, v, ov, path + (i,))


def _map_key(o: dict[str, Any], keys: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple((type(o.get(k)).__name__, repr(o.get(k))) for k in keys)


BLOCKED_MESSAGE = (
    'Invalid value: "null": some validation rules were not checked because the object was invalid; '
    "correct the existing errors to complete validation"
)

# OpenAPI failures the API server treats as blocking for CEL (strategy.go hasBlockingErr):
# NotSupported (enum), Required, TooLong, TooMany, TypeInvalid.
_BLOCKING_RULES = frozenset(
    {
        "schema.enum",
        "schema.required",
        "schema.max-length",
        "schema.max-items",
        "schema.max-properties",
        "schema.type",
    }
)


def has_blocking_errors(diags: list[Diagnostic]) -> bool:
    """Whether structural errors would stop the API server from running the CEL rules."""
    return any(d.rule in _BLOCKING_RULES and d.severity == "error" for d in diags)


_HAS_RULES: dict[int, tuple[Any, bool]] = {}


def _has_rules(schema: Any) -> bool:
    """Whether any ``x-kubernetes-validations`` occurs in ``schema`` (memoised per schema object)."""
    hit = _HAS_RULES.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    stack, found = [schema], False
    while stack and not found:
        x = stack.pop()
        if isinstance(x, dict):
            found = bool(x.get("x-kubernetes-validations"))
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    _HAS_RULES[id(schema)] = (schema, found)
    return found


def validate_cel(
    data: Any,
    schema: dict[str, Any],
    *,
    old: Any = None,
    root_path: Path = (),
    structural: list[Diagnostic] | None = None,
    check_blocking: bool = True,
    status_subresource: bool = False,
) -> list[Diagnostic]:
    """Evaluate every ``x-kubernetes-validations`` rule of ``schema`` on ``data`` (create; or update
    when ``old`` is given). ``data`` is defaulted with the schema defaults first (not modified).

    Like the API server, CEL is skipped when the OpenAPI validation has a blocking error (type /
    enum / required / too long / too many): one ``cel.not-checked`` error is returned instead.
    ``structural`` passes the diagnostics of :func:`dynamo_schema._schema._structural.validate` on the same
    data (otherwise they are computed); ``check_blocking=False`` evaluates the rules regardless.
    ``status_subresource``: ``status`` is dropped before validation (see ``_structural.validate``).
    """
    path = tuple(root_path)
    if status_subresource:
        if isinstance(data, dict) and "status" in data:
            data = {k: v for k, v in data.items() if k != "status"}
        if isinstance(old, dict) and "status" in old:
            old = {k: v for k, v in old.items() if k != "status"}
    if check_blocking:
        if structural is None:
            from ._structural import validate as _validate

            structural = _validate(data, schema, strict=False, root_path=path)
        if has_blocking_errors(structural):
            # the server's CEL validator exists only when the schema has rules (no rules, no message)
            return [Diagnostic("cel.not-checked", path, BLOCKED_MESSAGE)] if _has_rules(schema) else []
    node = compile_schema(schema)
    obj = _default(data, node)
    old_obj = _default(old, node) if old is not None else None
    w = _Walk()
    _walk(w, node, obj, old_obj, path)
    return w.diags


TYPE_IMMUTABLE = "type is immutable after it is set"


def newer_transition_rules(new: Any, old: Any, have: list[Diagnostic]) -> list[Diagnostic]:
    """Transition rules that newer upstream CRDs carry but the bundled (reference) schema does not.

    ``!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)`` on DGD components and the DCD
    spec (``type is immutable after it is set``; upstream admission tests expect it at
    ``spec.components[i]`` / ``spec``; v1alpha1: ``componentType is immutable after it is set``). Skipped
    when the CEL stage already reported it. List-map items are correlated by ``name``.
    """
    if not isinstance(new, dict) or not isinstance(old, dict):
        return []
    if any("immutable after it is set" in d.message and "ype" in d.message for d in have):
        return []
    alpha = new.get("apiVersion") == "nvidia.com/v1alpha1"
    field = "componentType" if alpha else "type"
    msg = f'Invalid value: "object": {field} is immutable after it is set'
    nspec: dict[str, Any] = new["spec"] if isinstance(new.get("spec"), dict) else {}
    ospec: dict[str, Any] = old["spec"] if isinstance(old.get("spec"), dict) else {}
    if new.get("kind") == "DynamoComponentDeployment":
        if field in ospec and ospec.get(field) != nspec.get(field):
            return [Diagnostic("cel.type-immutable", ("spec",), msg)]
        return []
    if new.get("kind") != "DynamoGraphDeployment":
        return []
    if alpha:
        olds: dict[str, Any] = ospec["services"] if isinstance(ospec.get("services"), dict) else {}
        news: dict[str, Any] = nspec["services"] if isinstance(nspec.get("services"), dict) else {}
        return [Diagnostic("cel.type-immutable", ("spec", "services", name), msg)
                for name, svc in news.items()
                if isinstance(svc, dict) and isinstance(olds.get(name), dict) and field in olds[name]
                and olds[name].get(field) != svc.get(field)]
    # unvalidated input: only lists of mappings with string names take part (the schema check reports
    # anything else)
    ocomps, ncomps = ospec.get("components"), nspec.get("components")
    if not isinstance(ocomps, list) or not isinstance(ncomps, list):
        return []
    olds_by_name = {c["name"]: c for c in ocomps if isinstance(c, dict) and isinstance(c.get("name"), str)}
    out: list[Diagnostic] = []
    for i, c in enumerate(ncomps):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            continue
        oc = olds_by_name.get(c["name"])
        if oc is not None and field in oc and oc.get(field) != c.get(field):
            out.append(Diagnostic("cel.type-immutable", ("spec", "components", i), msg))
    return out
