"""The kinds this package models, in one place (docs/decisions.md D50, D55): a registry of :class:`KindSpec`.

Every command asks this module which kinds it knows: ``validate`` (and its kind policy), ``default``,
``convert``, ``explain``, ``render``'s pass-through, ``schema``. Served versions are those of the CRDs at
the reference revision (``deploy/operator/config/crd/bases``; newest first).

One :class:`KindSpec` per kind of the ``nvidia.com`` CRD bundle: its served versions, short name, how it is
admitted (``operator``: the operator's whole admission chain and a renderer, ``_pipeline/_validate.check_nvidia``;
``crd``: schema, ObjectMeta, CEL and an optional validating webhook, ``_schema/_extra_kinds.check_extra``),
whether ``status`` is a subresource, its webhook rules, and (for a kind registered at run time) its JSON Schema
per version. :func:`register` adds a kind: the tables below (``DYNAMO_KINDS``, ``EXTRA_KINDS``,
``SHORT_NAMES``) are views kept by the registry, so ``validate``, ``default``, ``explain`` and ``schema --out``
know it with no other change (tests/schema/test_kind_registry.py adds one). Lowest layer: no imports of other
packages (a webhook is a callable or a ``"module:function"`` name, resolved when first used).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ._record import FrozenRecord

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

DGD = "DynamoGraphDeployment"
DCD = "DynamoComponentDeployment"
DGDR = "DynamoGraphDeploymentRequest"
DGDSA = "DynamoGraphDeploymentScalingAdapter"

#: the Dynamo kinds with the operator's whole admission chain (mutating and validating webhooks) and a
#: renderer: checked by ``_pipeline/_validate.check_nvidia``
ADMITTED_KINDS = (DGD, DCD, DGDR)

GROUP = "nvidia.com"

#: what a kind's webhook rules are: ``rules(obj, old) -> list[Diagnostic]`` (``old``: the object as deployed,
#: on an update; None on create), or the ``"module:function"`` name of one
if TYPE_CHECKING:
    Webhook = Callable[[dict[str, Any], "dict[str, Any] | None"], list[Any]]


class KindSpec(FrozenRecord):
    """One kind of the ``nvidia.com`` CRD bundle (see the module docstring).

    * ``versions``: served versions, newest first; ``short_name``: the CRD's ``shortNames`` entry (``""``: none);
    * ``admission``: ``"operator"`` (:data:`ADMITTED_KINDS`) or ``"crd"``;
    * ``status_subresource``: the CRD declares ``subresources.status`` (a create then ignores ``status``);
    * ``webhook``: the validating webhook's rules (``"crd"`` kinds), run after schema, ObjectMeta and CEL pass;
    * ``schemas``: ``{version: JSON Schema}`` of a kind registered at run time; None: the bundled
      ``_data/schemas/nvidia.com/<kind>_<version>.json`` generated from ``models/``;
    * ``description``: one line for ``explain``;
    * ``children``: the operator's reconciler creates objects from it (the render targets' input: DGD, DCD; a
      DGDR becomes a DGD through the profiler): ``validate``'s reconcile check renders it.
    """

    __slots__ = _FIELDS = ("kind", "versions", "short_name", "admission", "status_subresource", "webhook",
                           "schemas", "description", "children")
    kind: str
    versions: tuple[str, ...]
    short_name: str
    admission: str
    status_subresource: bool
    webhook: Webhook | str | None
    schemas: Mapping[str, dict[str, Any]] | None
    description: str
    children: bool

    def __init__(self, kind: str, versions: tuple[str, ...], short_name: str = "", admission: str = "crd",
                 status_subresource: bool = True, webhook: Webhook | str | None = None,
                 schemas: Mapping[str, dict[str, Any]] | None = None, description: str = "",
                 children: bool = False) -> None:
        if admission not in ("operator", "crd"):
            raise ValueError(f"admission must be 'operator' or 'crd', not {admission!r}")
        if not versions:
            raise ValueError(f"{kind}: no served version")
        if schemas is not None and set(schemas) != set(versions):
            raise ValueError(f"{kind}: schemas for {sorted(schemas)}, served {list(versions)}")
        for attr, value in (("kind", kind), ("versions", tuple(versions)), ("short_name", short_name),
                            ("admission", admission), ("status_subresource", status_subresource),
                            ("webhook", webhook), ("schemas", schemas), ("description", description),
                            ("children", children)):
            object.__setattr__(self, attr, value)

    def schema(self, version: str) -> dict[str, Any] | None:
        """The run-time schema of ``version`` (None: the bundled one, or no such version)."""
        return None if self.schemas is None else self.schemas.get(version)

    def webhook_rules(self) -> Webhook | None:
        """The webhook as a callable (a ``"module:function"`` name imported now)."""
        if self.webhook is None or callable(self.webhook):
            return self.webhook
        from importlib import import_module

        module, _, name = self.webhook.partition(":")
        rules: Webhook = getattr(import_module(module), name)
        return rules


#: kind -> its spec: the registry (:func:`register`, :func:`unregister`)
SPECS: dict[str, KindSpec] = {}
#: every kind of the operator's CRD bundle -> its served versions, newest first (a view of :data:`SPECS`)
DYNAMO_KINDS: dict[str, tuple[str, ...]] = {}
#: the CRDs' ``shortNames`` (a view of :data:`SPECS`)
SHORT_NAMES: dict[str, str] = {}
#: the rest of the bundle (schema, ObjectMeta, CEL, a webhook): ``_schema/_extra_kinds`` (a view of :data:`SPECS`)
EXTRA_KINDS: dict[str, tuple[str, ...]] = {}


def register(spec: KindSpec) -> KindSpec:
    """Add (or replace) a kind; returns it. The views :data:`DYNAMO_KINDS`, :data:`EXTRA_KINDS` and
    :data:`SHORT_NAMES` change with it. A built-in kind cannot be replaced."""
    if spec.kind in _BUILTIN:
        raise ValueError(f"{spec.kind} is a built-in kind")
    if spec.admission == "operator" and spec.kind not in ADMITTED_KINDS:
        raise ValueError(f"{spec.kind}: only {', '.join(ADMITTED_KINDS)} have the operator's admission chain")
    if spec.short_name and SHORT_NAMES.get(spec.short_name, spec.kind) != spec.kind:
        raise ValueError(f"short name {spec.short_name!r} is {SHORT_NAMES[spec.short_name]}'s")
    unregister(spec.kind, _builtin_ok=True)
    SPECS[spec.kind] = spec
    DYNAMO_KINDS[spec.kind] = spec.versions
    if spec.short_name:
        SHORT_NAMES[spec.short_name] = spec.kind
    if spec.admission == "crd":
        EXTRA_KINDS[spec.kind] = spec.versions
    return spec


def unregister(kind: str, *, _builtin_ok: bool = False) -> None:
    """Remove a kind registered at run time (a no-op for an unknown one)."""
    if kind in _BUILTIN and not _builtin_ok:
        raise ValueError(f"{kind} is a built-in kind")
    spec = SPECS.pop(kind, None)
    if spec is None:
        return
    DYNAMO_KINDS.pop(kind, None)
    EXTRA_KINDS.pop(kind, None)
    if spec.short_name and SHORT_NAMES.get(spec.short_name) == kind:
        del SHORT_NAMES[spec.short_name]


def spec_of(kind: str) -> KindSpec | None:
    return SPECS.get(kind)


_BUILTIN: frozenset[str] = frozenset()
for _spec in (
    KindSpec(DGD, ("v1beta1", "v1alpha1"), "dgd", "operator", children=True),
    KindSpec(DCD, ("v1beta1", "v1alpha1"), "dcd", "operator", children=True),
    KindSpec(DGDR, ("v1beta1", "v1alpha1"), "dgdr", "operator"),
    KindSpec(DGDSA, ("v1beta1", "v1alpha1"), "dgdsa"),
    KindSpec("DynamoModel", ("v1alpha1",), "dm", webhook="dynamo_schema._schema._extra_kinds:dynamo_model_rules"),
    KindSpec("DynamoCheckpoint", ("v1alpha1",), "dckpt"),
    KindSpec("DynamoWorkerMetadata", ("v1alpha1",), "dwm", status_subresource=False),
):
    register(_spec)
_BUILTIN = frozenset(SPECS)
del _spec

#: the kinds the operator's reconcilers create children from (``KindSpec.children``)
RECONCILED_KINDS = tuple(k for k, spec in SPECS.items() if spec.children)

#: the kinds with a v1alpha1 <-> v1beta1 conversion (the CRDs' conversion webhook): ``_convert``
CONVERTIBLE_KINDS = tuple(k for k, v in DYNAMO_KINDS.items() if len(v) > 1)

#: the workload kinds the operator creates, with bundled schemas: (group, kind) -> served versions
WORKLOAD_KINDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("grove.io", "PodCliqueSet"): ("v1alpha1",),
    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"): ("v1",),
}

#: InferCrane's DeploymentSpec
INFERCRANE_KINDS: dict[tuple[str, str], tuple[str, ...]] = {("infercrane.dev", "Deployment"): ("v1",)}

MODELLED_GROUPS = (GROUP, "grove.io", "leaderworkerset.x-k8s.io", "infercrane.dev")


def served(api: str, kind: str) -> bool:
    """Whether ``api``/``kind`` is one of the Dynamo kinds and versions the CRD bundle serves."""
    group, _, version = api.rpartition("/")
    return group == GROUP and version in DYNAMO_KINDS.get(kind, ())


def served_text(kind: str) -> str:
    """``"nvidia.com/v1beta1" and "nvidia.com/v1alpha1"`` (the served versions of a Dynamo kind, quoted)."""
    return " and ".join(f'"{GROUP}/{v}"' for v in DYNAMO_KINDS.get(kind, ()))


def unserved_version(kind: str, api: str, versions: tuple[str, ...] | None = None, group: str = GROUP) -> str:
    """The refusal of a version a kind does not serve, worded alike by ``convert --to`` and
    ``explain --api-version``: ``DynamoModel has no version 'nvidia.com/v1beta1' (served: nvidia.com/v1alpha1)``."""
    served_ = ", ".join(f"{group}/{v}" for v in (DYNAMO_KINDS.get(kind, ()) if versions is None else versions))
    return f"{kind} has no version {api!r} (served: {served_})"
