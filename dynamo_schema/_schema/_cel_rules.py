"""The hand-written fast path of the CRDs' CEL rules: a Python translation of every distinct rule text
of the DGD / DCD / DynamoCheckpoint CRDs (v1beta1 and v1alpha1) and the Grove PodCliqueSet, keyed by
the exact (whitespace-normalised) rule text, each a function ``(self, oldSelf) -> bool`` that raises
:class:`CelError` where CEL reports a runtime error. Proven equal to the engine (results and error
texts) by tests/schema/test_cel_engine.py (random inputs) and tests/schema/test_cel_fast_path.py (edge
inputs), and re-decided by the engine on every evaluation of a CI test run (tests/_cel_shadow.py,
docs/decisions.md D40); evaluated by ``_cel.py``."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from .._core._consts import ANN_VLLM_BACKEND as _BACKEND_ANNOTATION
from .._k8s._quantity import parse_quantity
from ._cel_engine import ABSENT, CelRuntimeError, _cel_eq

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["BY_NORM", "NONE", "RULES", "CelError", "Rule", "norm", "rule_id", "uses_old_self"]


CelError = CelRuntimeError  # a CEL runtime error (``no such key: x`` ...), same type as the engine's

NONE = ABSENT  # ``optional.none()`` for ``oldSelf`` of an ``optionalOldSelf`` rule on create


def _has(obj: Any, key: str) -> bool:
    """CEL ``has(obj.key)`` on an object / map value: the key is present (an explicit null too, as for
    the API server's unstructured values; the shipped schemas have no nullable field, so a null has
    been pruned before CEL runs)."""
    if not isinstance(obj, dict):
        raise CelError("no such overload")
    return key in obj


def _get(obj: Any, key: str) -> Any:
    """CEL ``obj.key`` (``no such key`` when absent; an explicit null is the value null)."""
    if not isinstance(obj, dict) or key not in obj:
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


def _bool(v: Any) -> bool:
    """A value used as a condition (``&&`` / ``||`` / ``!`` operand): a bool, else ``no such overload``."""
    if not isinstance(v, bool):
        raise CelError("no such overload")
    return v


def _all(items: Any, pred: Callable[[Any], bool]) -> bool:
    """CEL ``items.all(x, pred)``: false when any item's predicate is false (even if another errs),
    else the first error, else true."""
    if not isinstance(items, (list, dict)):
        raise CelError("no such overload")
    err: CelError | None = None
    for x in items:
        try:
            if not pred(x):
                return False
        except CelError as e:
            err = err or e
    if err is not None:
        raise err
    return True


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
    # (c1 itself is among the c2: a c1 whose name is not a string errs, as does any other non-string name)
    def unique(c1: Any) -> bool:
        if not _has(c1, "name"):
            return True
        n1 = _lower_ascii(_get(c1, "name"))
        return sum(1 for c2 in s if _has(c2, "name") and _lower_ascii(_get(c2, "name")) == n1) == 1

    return _all(s, unique)


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


def _r_checkpoint_identity(s: Any, old: Any) -> bool:
    # !has(oldSelf.spec.identity) || self.spec.identity == oldSelf.spec.identity
    #   (DynamoCheckpoint root: api/v1alpha1/dynamocheckpoint_types.go, the XValidation on DynamoCheckpoint)
    return _or(lambda: not _has(_get(old, "spec"), "identity"),
               lambda: _eq(_get(_get(s, "spec"), "identity"), _get(_get(old, "spec"), "identity")))


def _r_epp_config_source(s: Any, old: Any) -> bool:
    # has(self.configMapRef) != has(self.config)
    return _has(s, "configMapRef") != _has(s, "config")


def _r_checkpoint_job(s: Any, old: Any) -> bool:
    # !has(self.job) || !has(self.checkpointRef) || size(self.checkpointRef) == 0
    return not _has(s, "job") or not _has(s, "checkpointRef") or _size(_get(s, "checkpointRef")) == 0


def _empty_or_mode(s: Any, field: str, mode: str) -> bool:
    # !has(self.<field>) || size(self.<field>) == 0 || self.mode == '<mode>'
    return not _has(s, field) or _or(lambda: _size(_get(s, field)) == 0, lambda: _eq(_get(s, "mode"), mode))


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
    return _or(lambda: _has(s, "disabled") and _bool(_get(s, "disabled")),
               lambda: _has(s, "size") and _quantity(_get(s, "size")) > 0)


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
    return _all(_get(template, field),
                lambda c: not _has(c, "topologyConstraint") or not _has(_get(c, "topologyConstraint"), "packDomain"))


def _r_no_clique_pack_domain(s: Any, old: Any) -> bool:
    return _no_pack_domain_in(s, old, "cliques")


def _r_no_group_pack_domain(s: Any, old: Any) -> bool:
    return _no_pack_domain_in(s, old, "podCliqueScalingGroups")


if TYPE_CHECKING:
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
    "!has(oldSelf.spec.identity) || self.spec.identity == oldSelf.spec.identity": (
        "checkpoint-identity-immutable",
        _r_checkpoint_identity,
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


def norm(rule: str) -> str:
    return " ".join(rule.split())


BY_NORM: dict[str, tuple[str, Rule]] = {norm(k): v for k, v in RULES.items()}


def rule_id(rule: str) -> str | None:
    """``cel.<short-name>`` of a rule text, or None when it has no translation."""
    hit = BY_NORM.get(norm(rule))
    return f"cel.{hit[0]}" if hit else None


def uses_old_self(rule: str) -> bool:
    return "oldSelf" in rule
