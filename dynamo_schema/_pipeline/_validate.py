"""Stage orchestration for ``validate``: load → schema → CEL → defaulting → webhook rules.

Each document is checked on its own, the way the API server admits it:

* ``nvidia.com/v1beta1`` DGD, DCD, DGDR: explicit nulls pruned, the generated structural schema, the CRD's
  CEL rules, then (only when those pass, as the API server stops there) the mutating webhooks' defaults
  and the validating webhooks' rules;
* ``nvidia.com/v1alpha1``: converted to v1beta1 (as the conversion webhook does), then the same;
* ``infercrane.dev/v1`` DeploymentSpec (and header-less pre-v1 files): the DeploymentSpec loader rules;
* any other kind: the bundled Kubernetes schema of the chosen release (``_schema/_builtin.py``: the API
  server's wording), or ``skipped``.
"""

from __future__ import annotations

from functools import cache

from .._core._diagnostics import Diagnostic
from .._core._document import Document
from .._core._kinds import ADMITTED_KINDS as NVIDIA_KINDS  # the one list of kinds (D50)
from .._core._kinds import EXTRA_KINDS, served
from .._core._record import FrozenRecord, Record

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any


class ValidateOptions(FrozenRecord):
    """A frozen value with a dataclass's constructor, equality, hash and repr (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("strict", "kubernetes_version", "settings", "old", "namespace")
    strict: bool
    kubernetes_version: str
    settings: Any  # dynamo_schema._admission.AdmissionSettings; None = documented defaults
    old: Any  # previous version of the object (update checks), plain data
    #: the namespace a Dynamo object without ``metadata.namespace`` is applied to (``kubectl apply -n``;
    #: the API server fills it in before admission): ``validate --namespace``, ``default`` as kubectl's
    namespace: str

    def __init__(self, strict: bool = True, kubernetes_version: str = "1.32.0", settings: Any = None,
                 old: Any = None, namespace: str = "default") -> None:
        setattr_ = object.__setattr__
        setattr_(self, "strict", strict)
        setattr_(self, "kubernetes_version", kubernetes_version)
        setattr_(self, "settings", settings)
        setattr_(self, "old", old)
        setattr_(self, "namespace", namespace)


def in_namespace(data: Any, namespace: str) -> Any:
    """``data`` as the API server admits it when applied to ``namespace``: ``metadata.namespace`` filled in
    when absent or empty (a copy; the manifest's own namespace wins)."""
    if not namespace or not isinstance(data, dict):
        return data
    meta = data.get("metadata")
    if not isinstance(meta, dict) or meta.get("namespace"):
        return data
    return {**data, "metadata": {**meta, "namespace": namespace}}


class ResourceOutcome(Record):
    """A mutable value with a dataclass's constructor, equality and repr (docs/decisions.md D32)."""

    __slots__ = _FIELDS = ("filename", "kind", "name", "version", "status", "diagnostics", "reason")
    filename: str
    kind: str
    name: str
    version: str
    status: str  # valid | invalid | error | skipped
    diagnostics: list[Diagnostic]
    reason: str  # why it was skipped ("" unless skipped)

    def __init__(self, filename: str, kind: str, name: str, version: str, status: str,
                 diagnostics: list[Diagnostic] | None = None, reason: str = "") -> None:
        self.filename = filename
        self.kind = kind
        self.name = name
        self.version = version
        self.status = status
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.reason = reason


NOT_KUBERNETES = "not a Kubernetes object (no apiVersion/kind)"


@cache
def _default_settings() -> Any:
    """The default ``AdmissionSettings`` (immutable), made once: documents checked without ``settings`` share it."""
    from .._admission import AdmissionSettings

    return AdmissionSettings()


def _settings(options: ValidateOptions) -> Any:
    return options.settings if options.settings is not None else _default_settings()


def is_deploymentspec(data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    api = data.get("apiVersion")
    if isinstance(api, str) and api.startswith("infercrane.dev/"):
        return True
    # header-less pre-v1 DeploymentSpec files are read as v1
    return "apiVersion" not in data and "kind" not in data and ("model" in data or "provider" in data)


def check_nvidia(data: dict[str, Any], options: ValidateOptions, *,
                 source_version: str | None = None) -> tuple[list[Diagnostic], dict[str, Any] | None]:
    """Diagnostics for a Dynamo object, and the stored (defaulted, v1beta1) object when admitted.

    The API server validates against the schema of the version that was sent (v1beta1 or v1alpha1),
    converts to the storage version v1beta1, then calls the webhooks. Webhook diagnostics of a v1alpha1
    object refer to the converted object: they are reported at the document with their v1beta1 path.
    """
    release = getattr(options.settings, "operator_release", "")
    if release:  # an earlier operator release: its CRDs and webhooks (docs/releases.md)
        from ._releases import check_nvidia_release

        return check_nvidia_release(data, options, release, _to_alpha_diag, source_version=source_version)
    from .._schema import _schemas
    from .._schema._apiserver import api_server_checks

    api = str(data.get("apiVersion"))
    schema = _schemas.for_object(api, str(data.get("kind")))
    if schema is None:  # e.g. an old object of another kind (library callers): nothing to check it with
        return [Diagnostic("schema.unknown-kind", ("kind",),
                           f'Invalid value: "{data.get("kind")}": no schema for {api}')], None
    old = options.old
    alpha = api == "nvidia.com/v1alpha1"
    if not alpha:
        return _check_v1beta1(data, schema, options, source_version)
    # status is a subresource: the API server drops it from create/update requests before validating
    checked = api_server_checks(data, schema, strict=options.strict, old=old)
    diags = checked.diagnostics
    if checked.refused:
        return diags, None
    pruned = checked.pruned
    from .. import _admission

    if alpha:
        converted, conv = _convert_alpha(pruned)
        if converted is None:
            return diags + conv, None
        pruned = converted
        if isinstance(old, dict) and old.get("apiVersion") == "nvidia.com/v1alpha1":
            old, _ = _convert_alpha(old)
    settings = _settings(options)
    operation = "UPDATE" if old is not None else "CREATE"
    stored = _admission.default(pruned, settings, operation=operation, old=old)
    # the CRD's transition rules (oldSelf) were evaluated with the CEL rules above
    hook = _admission.validate(stored, settings, old=old, transition_rules=False,
                               source_version=source_version or ("v1alpha1" if alpha else "v1beta1"))
    if alpha:
        hook = [_to_alpha_diag(d, data, stored) for d in hook]
    return diags + hook, stored


def _check_v1beta1(data: dict[str, Any], schema: dict[str, Any], options: ValidateOptions,
                   source_version: str | None) -> tuple[list[Diagnostic], dict[str, Any] | None]:
    """A v1beta1 DGD / DCD / DGDR in the API server's order (operator cases README, "expected.causes and
    stage"): strict decoding refuses unknown fields before anything else; the mutating webhook decodes
    the (CRD-defaulted) body into its Go type and refuses what does not decode; the schema, ObjectMeta
    and CEL checks run on the object its patch produced (defaults, Go zero values, canonical
    quantities); the validating webhook last."""
    from .. import _admission
    from .._admission._defaults import default_schema_defaulted, is_v1beta1
    from .._schema import _structural
    from .._schema._apiserver import api_server_checks
    from .._schema._godecode import decode_error

    pruned, notes = _structural.prune_nulls(data, schema)
    decoding = _structural.decoding_findings(pruned, schema, strict=options.strict, status_subresource=True)
    diags: list[Diagnostic] = list(notes)
    if options.strict and any(d.rule == "schema.unknown-field" and d.severity == "error" for d in decoding):
        return diags + decoding, None
    diags += decoding  # non-strict: the warnings (the API server drops those fields)
    old = options.old
    defaulted = _admission.crd_defaults(pruned)
    refused = decode_error(defaulted, schema)
    if refused is not None:
        return diags + [refused], None
    settings = _settings(options)
    operation = "UPDATE" if old is not None else "CREATE"
    # = _admission.default(pruned, …): ``defaulted`` is its copy with the schema defaults, handed over
    stored = default_schema_defaulted(defaulted, settings, operation=operation)
    # the schema, ObjectMeta and CEL on what the webhook's patch produced (its decoding findings reported above)
    checked = api_server_checks(stored, schema, strict=options.strict, old=old, prune_notes=False,
                                ignore=_structural.DECODING_RULES | {"schema.null-pruned"},
                                defaulted=is_v1beta1(stored))
    stored = checked.pruned
    diags += checked.diagnostics
    if any(d.severity == "error" for d in diags):
        return diags, None
    # the CRD's transition rules (oldSelf) were evaluated with the CEL rules above
    hook = _admission.validate(stored, settings, old=old, transition_rules=False,
                               source_version=source_version or "v1beta1")
    return diags + hook, stored


def _schema_props(schema: Any, node: Any) -> dict[str, Any]:
    """``properties`` of a schema node, following ``$ref`` into ``$defs``."""
    from .._schema._schemas import resolve

    node = resolve(schema, node)
    return node.get("properties") or {} if isinstance(node, dict) else {}


@cache
def _alpha_service_fields(kind: str) -> frozenset[str]:
    """Field names a v1alpha1 DGD service shares with a v1beta1 component (same name, same place)."""
    from .._schema import _schemas

    a = _schemas.for_object("nvidia.com/v1alpha1", kind)
    b = _schemas.for_object("nvidia.com/v1beta1", kind)
    if a is None or b is None:
        return frozenset()
    try:
        services = _schema_props(a, _schema_props(a, a)["spec"])["services"]
        node = _schemas.resolve(a, services)
        alpha = _schema_props(a, node["additionalProperties"])
        comps = _schemas.resolve(b, _schema_props(b, _schema_props(b, b)["spec"])["components"])
        beta = _schema_props(b, comps["items"])
    except (KeyError, TypeError):
        return frozenset()
    return frozenset(set(alpha) & set(beta))


def alpha_path(path: tuple[Any, ...], alpha: dict[str, Any], beta: dict[str, Any] | None) -> tuple[tuple[Any, ...], bool]:
    """The v1alpha1 path of a field of the converted (v1beta1) object, and whether it is exact.

    ``spec.components[i]`` becomes ``spec.services.<component name>``; the rest of the path is kept when
    its first field has the same name in a v1alpha1 service, else the path stops at the service (inexact).
    Other paths are kept (``metadata…``, shared ``spec`` fields, paths the webhooks give in v1alpha1
    form already)."""
    kind = str(alpha.get("kind"))
    if len(path) >= 3 and path[:2] == ("spec", "components") and isinstance(path[2], int) \
            and kind == "DynamoGraphDeployment":
        comps = ((beta or {}).get("spec") or {}).get("components") if isinstance(beta, dict) else None
        name = None
        if isinstance(comps, list) and 0 <= path[2] < len(comps) and isinstance(comps[path[2]], dict):
            name = comps[path[2]].get("name")
        services = (alpha.get("spec") or {}).get("services") if isinstance(alpha.get("spec"), dict) else None
        if not isinstance(services, dict) or not isinstance(name, str) or name not in services:
            return ("spec", "services"), False
        head: tuple[Any, ...] = ("spec", "services", name)
        rest = path[3:]
        if not rest:
            return head, True
        if isinstance(rest[0], str) and rest[0] in _alpha_service_fields(kind):
            return head + rest, True
        return head, False
    # metadata, shared spec fields, and paths the webhooks already give in v1alpha1 form
    return path, True


def _to_alpha_diag(d: Diagnostic, alpha: dict[str, Any], beta: dict[str, Any] | None) -> Diagnostic:
    """A webhook diagnostic of the converted object, pointed at the v1alpha1 object the user wrote."""
    if not d.path:
        return d
    mapped, exact = alpha_path(tuple(d.path), alpha, beta)
    if exact:
        return d._replace(path=mapped)
    # the v1alpha1 object has no such field: keep the v1beta1 field in the message
    return d._replace(path=mapped, message=f"{d.field}: {d.message}")


def check_workload_kind(data: dict[str, Any], options: ValidateOptions) -> list[Diagnostic]:
    """PodCliqueSet and LeaderWorkerSet: our typed models' schemas, and Grove's create-time webhook.

    Other kinds of these groups (PodClique, PodGang…) have no bundled schema: reported by the caller.
    """
    from .._schema import _schemas
    from .._schema._apiserver import api_server_checks

    schema = _schemas.for_object(str(data.get("apiVersion")), str(data.get("kind")))
    if schema is None:
        return [Diagnostic("schema.unknown-kind", ("kind",),
                           f'no matches for kind "{data.get("kind")}" in version "{data.get("apiVersion")}"')]
    checked = api_server_checks(data, schema, strict=options.strict, old=options.old)
    diags, pruned = checked.diagnostics, checked.pruned
    if data.get("kind") == "PodCliqueSet" and not any(d.severity == "error" for d in diags):
        from .._grove._create import validate_pcs
        from .._grove._settings import grove_settings

        diags += validate_pcs(pruned, grove_settings(_settings(options)))
    return diags


def check_update(new: dict[str, Any], old: dict[str, Any], options: ValidateOptions
                 ) -> tuple[list[Diagnostic], dict[str, Any] | None, dict[str, Any] | None]:
    """``kubectl apply`` of ``new`` over a cluster that holds ``old`` (both as the user wrote them).

    ``old`` is admitted as it was created (its stored form: schema and webhook defaults); ``new`` is
    applied over it, the UPDATE defaults run (mutating webhooks come before the schema and CEL checks),
    then schema, CEL transition rules (``oldSelf`` = the stored object) and the webhooks' update rules.
    Returns (diagnostics, stored new object or None, stored old object or None).
    """
    release = getattr(options.settings, "operator_release", "")
    if release:
        from ._releases import check_update_release

        return check_update_release(new, old, options, release, _to_alpha_diag)
    from .. import _admission
    from .._schema import _cel

    if not isinstance(old, dict) or old.get("kind") != new.get("kind"):
        okind = old.get("kind") if isinstance(old, dict) else None
        return [Diagnostic("update.kind-changed", ("kind",),
                           f'Invalid value: "{new.get("kind")}": the update changes the kind of "{okind}"')], None, None
    create = options._replace(old=None)
    old_diags, old_stored = check_nvidia(old, create)
    old_errors = [d for d in old_diags if d.severity == "error"]
    if old_stored is None or old_errors:
        detail = "; ".join(f"{d.field}: {d.message}" if d.path else d.message for d in old_errors[:5])
        return [Diagnostic("update.old-invalid", (), "the old object could not have been admitted: " + detail)], None, None
    if old.get("kind") != new.get("kind"):
        return [Diagnostic("update.kind-changed", ("kind",),
                           f'Invalid value: "{new.get("kind")}": the update changes the kind of "{old.get("kind")}"')], None, old_stored
    alpha = "nvidia.com/v1alpha1"
    if new.get("apiVersion") == alpha and old.get("apiVersion") == alpha:
        # both written as v1alpha1: CEL compares the two alpha objects, the webhooks the converted ones
        diags, stored = check_nvidia(new, options._replace(old=old))
        return diags + _cel.newer_transition_rules(new, old, diags), stored, old_stored
    new_b, conv = _convert_alpha(new) if new.get("apiVersion") == alpha else (new, [])
    last, _ = _convert_alpha(old) if old.get("apiVersion") == alpha else (old, [])
    if new_b is None:
        return conv, None, old_stored
    live = {k: v for k, v in old_stored.items() if k != "status"}
    from ._apply import apply_over

    applied = apply_over(live, last, new_b)
    try:
        applied = dict(_admission.default(applied, _settings(options), operation="UPDATE", old=old_stored))
    except Exception:  # noqa: BLE001, S110 - malformed input: the schema check below reports it
        pass
    diags, stored = check_nvidia(applied, options._replace(old=old_stored))
    return diags + _cel.newer_transition_rules(applied, old_stored, diags), stored, old_stored


def _convert_alpha(data: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    try:
        from .._convert._v1alpha1 import to_v1beta1
    except ImportError:
        return None, []
    try:
        return to_v1beta1(data), []
    except Exception as exc:  # noqa: BLE001 - the converter refuses the object: reported
        return None, [Diagnostic("convert.failed", (), str(exc))]


def is_dynamo_kind_name(kind: str) -> bool:
    """A kind the Dynamo CRDs could mean: ``Dynamo…``, or close to one of theirs (a typo)."""
    import difflib

    from .._core._kinds import DYNAMO_KINDS

    return kind.startswith("Dynamo") or bool(difflib.get_close_matches(kind, list(DYNAMO_KINDS), n=1, cutoff=0.6))


def unknown_kind(api: str, kind: str) -> Diagnostic:
    """The API server's answer to a kind or version the Dynamo CRDs do not serve, with a suggestion."""
    import difflib

    from .._core._kinds import DYNAMO_KINDS, served_text

    msg = f'no matches for kind "{kind}" in version "{api}"'
    if kind not in DYNAMO_KINDS:
        close = difflib.get_close_matches(kind, list(DYNAMO_KINDS), n=1, cutoff=0.6)
        if close:
            return Diagnostic("schema.unknown-kind", ("kind",), f'{msg}, did you mean "{close[0]}"?')
        return Diagnostic("schema.unknown-kind", ("kind",), msg)
    return Diagnostic("schema.unknown-kind", ("apiVersion",), f"{msg}: served versions are {served_text(kind)}")


def runtime_image_hints(data: Any, diags: list[Diagnostic]) -> tuple[list[Diagnostic], dict[int, tuple[Any, ...]]]:
    """``*.runtime-version-override-required`` (upstream's message and field, ``runtimeVersionOverride``,
    which the manifest lacks) names no image: a ``*.runtime-version-image`` note at the main container's
    ``image`` says which one, and the error is located there (``{id(error): image path}``), not at the
    component's first key (docs/decisions.md D52)."""
    if not any(d.rule.endswith(".runtime-version-override-required") for d in diags) \
            or any(d.rule.endswith(".runtime-version-image") for d in diags):  # none, or already done
        return diags, {}
    from .._admission._component import main_container
    from .._k8s._gofmt import go_quote

    def get(node: Any, *keys: Any) -> Any:
        for k in keys:
            if isinstance(node, dict) and isinstance(k, str):
                node = node.get(k)
            elif isinstance(node, list) and isinstance(k, int) and 0 <= k < len(node):
                node = node[k]
            else:
                return None
        return node

    out = list(diags)
    at: dict[int, tuple[Any, ...]] = {}
    for d in diags:
        if not (d.rule.endswith(".runtime-version-override-required") and d.path
                and d.path[-1] == "runtimeVersionOverride"):
            continue
        owner = get(data, *d.path[:-1]) if d.path[:-1] else data
        if not isinstance(owner, dict):
            continue
        image_path: tuple[Any, ...] | None = None
        alpha = get(owner, "extraPodSpec", "mainContainer")
        if isinstance(alpha, dict) and isinstance(alpha.get("image"), str):
            image_path = ("extraPodSpec", "mainContainer", "image")
        else:
            idx, main = main_container(owner)
            if main is not None and isinstance(main.get("image"), str):
                image_path = ("podTemplate", "spec", "containers", idx, "image")
        if image_path is None:
            continue
        path = d.path[:-1] + image_path
        image = get(owner, *image_path)
        at[id(d)] = path
        out.append(Diagnostic(d.rule.rsplit(".", 1)[0] + ".runtime-version-image", path,
                              f"the main container image is {go_quote(str(image))}", "note"))
    return out, at


def validate_document(doc: Document, options: ValidateOptions | None = None) -> ResourceOutcome:
    options = options or ValidateOptions()
    data = doc.data
    kind = doc.kind if isinstance(doc.kind, str) else ""
    api = doc.api_version if isinstance(doc.api_version, str) else ""
    version = api.rpartition("/")[2]
    out = ResourceOutcome(doc.file, kind, doc.name, version, "valid")

    def finish(diags: list[Diagnostic]) -> ResourceOutcome:
        diags, at = runtime_image_hints(data, diags)
        out.diagnostics = [doc.place(d) if id(d) not in at else d.located(doc.file, *doc.locate(at[id(d)]))
                           for d in diags]
        if any(d.severity == "error" for d in diags):
            out.status = "invalid"
        return out

    if not isinstance(data, dict):
        out.status = "error"
        out.diagnostics = [doc.place(Diagnostic("load.not-a-mapping", (), "document is not a mapping"))]
        return out
    bad_meta = [k for k in ("apiVersion", "kind") if data.get(k) is not None and not isinstance(data.get(k), str)]
    if bad_meta:
        # what decoding into TypeMeta says (kubectl, the API server): these must be strings
        # (bad_meta holds no null, so json_kind never sees None here)
        from .._k8s._gofmt import json_kind

        out.status = "error"
        out.diagnostics = [doc.place(Diagnostic(
            "load.type-meta", (k,), f"json: cannot unmarshal {json_kind(data[k])} into Go struct field "
            f"TypeMeta.{k} of type string")) for k in bad_meta]
        return out
    if is_deploymentspec(data):
        out.kind = out.kind or "Deployment"
        out.version = out.version or "v1"
        from .._infercrane import validate_spec

        return finish(validate_spec(data))
    if (not kind and not api) or ((not kind or not api) and "metadata" not in data):
        # not a Kubernetes resource at all (a CI workflow, a Helm values file, a Helm Chart.yaml, whose
        # apiVersion is the chart API's): nothing to check
        out.status, out.reason = "skipped", NOT_KUBERNETES
        return out
    if not kind or not api:
        missing = "kind" if not kind else "apiVersion"
        out.status = "error"
        out.diagnostics = [doc.place(Diagnostic("load.missing-" + missing.lower(), (), f"missing '{missing}' key"))]
        return out
    if api.count("/") > 1:
        # apimachinery schema.ParseGroupVersion: kubectl and the API server cannot decode such a document
        out.status = "error"
        out.diagnostics = [doc.place(Diagnostic("load.api-version", ("apiVersion",),
                                                f"unexpected GroupVersion string: {api}"))]
        return out
    group = api.rpartition("/")[0]
    if group == "nvidia.com":  # namespaced kinds: admitted in the namespace they are applied to
        data = in_namespace(data, options.namespace)
        if isinstance(options.old, dict):  # the object as deployed: in the same namespace as its update
            meta = data.get("metadata")
            where = meta.get("namespace") if isinstance(meta, dict) else None
            options = options._replace(old=in_namespace(options.old, where if isinstance(where, str)
                                                        else options.namespace))
        release = getattr(options.settings, "operator_release", "")
        if release:
            from ._releases import validate_release_document

            released = validate_release_document(data, options, release, _to_alpha_diag, is_dynamo_kind_name(kind))
            if released is None:
                out.status, out.reason = "skipped", f"no schema for {api}/{kind}"
                return out
            return finish(released)
        if not served(api, kind):
            if kind not in NVIDIA_KINDS and kind not in EXTRA_KINDS and not is_dynamo_kind_name(kind):
                # an nvidia.com kind that is not Dynamo's: like any other unknown kind
                out.status, out.reason = "skipped", f"no schema for {api}/{kind}"
                return out
            return finish([unknown_kind(api, kind)])
        if kind in EXTRA_KINDS:  # the rest of the operator's CRD bundle
            from .._schema._extra_kinds import check_extra

            old = options.old if isinstance(options.old, dict) else None
            return finish(check_extra(data, strict=options.strict, old=old))
    if api in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1") and kind in NVIDIA_KINDS:
        if isinstance(options.old, dict):
            return finish(check_update(data, options.old, options)[0])
        diags, stored = check_nvidia(data, options)
        if stored is not None and not any(d.severity == "error" for d in diags):
            from ._reconcile import reconcile_errors

            diags += reconcile_errors(data, stored, _settings(options))  # what the operator would fail to create
        return finish(diags)
    if group in ("grove.io", "leaderworkerset.x-k8s.io"):
        return finish(check_workload_kind(data, options))
    from .._schema._builtin import validate_builtin

    k8s = validate_builtin(data, version=options.kubernetes_version, strict=options.strict)
    if k8s is None:
        out.status, out.reason = "skipped", f"no schema for {api}/{kind}"
        return out
    return finish(k8s)


def validate_documents(docs: list[Document], options: ValidateOptions | None = None) -> list[ResourceOutcome]:
    return [validate_document(d, options) for d in docs]
