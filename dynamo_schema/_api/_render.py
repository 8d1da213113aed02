"""``default``, ``render``, ``materialize_dgdr``, ``compile_spec`` and ``dump_yaml``: what admission stores,
what the operator (or a DeploymentSpec adapter) creates, and the Kubernetes-safe YAML of it."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._common import Manifest, Target, plain

if TYPE_CHECKING:  # pragma: no cover
    from .._admission import AdmissionSettings
    from .._dgdr._materialize import MaterializedDGD
    from .._infercrane._common import RenderedArtifact


def default(obj: Manifest, settings: AdmissionSettings | None = None, *, namespace: str = "default") -> dict[str, Any]:
    """The object as admission would store it (schema defaults, then the mutating webhooks). It is not
    checked: ``validate`` says whether admission would accept it. A Dynamo object (``nvidia.com``) without
    ``metadata.namespace`` is stored in ``namespace``, as ``kubectl apply -n`` sends it."""
    from .._admission import AdmissionSettings
    from .._admission import default as _default
    from .._core._kinds import EXTRA_KINDS, served
    from .._pipeline._validate import in_namespace

    data = plain(obj)
    api, kind = (data.get("apiVersion"), data.get("kind")) if isinstance(data, dict) else (None, None)
    release = settings.operator_release if settings is not None else ""
    if isinstance(api, str) and isinstance(kind, str) and _stored(api, kind, release):
        data = in_namespace(data, namespace)  # only what the API server stores gets its namespace
    if settings is not None and release:  # an earlier release's defaults (docs/releases.md)
        from .._pipeline._releases import default_release

        return default_release(data, settings, release)
    if isinstance(api, str) and isinstance(kind, str) and kind in EXTRA_KINDS and served(api, kind):
        from .._pipeline._default import extra_defaults  # the rest of the CRD bundle: its CRD's defaults

        return extra_defaults(data)
    return _default(data, settings or AdmissionSettings())


def _stored(api: str, kind: str, release: str) -> bool:
    """Whether the API server serves (and so stores) ``api``/``kind``: at the reference revision every admitted or
    extra Dynamo kind it serves; for an earlier ``release``, the admitted kinds that release's CRDs serve."""
    from .._core._kinds import ADMITTED_KINDS, EXTRA_KINDS, served

    if release:
        from .._schema import _releases

        return kind in ADMITTED_KINDS and _releases.schema(release, api, kind) is not None
    return (kind in ADMITTED_KINDS or kind in EXTRA_KINDS) and served(api, kind)


def render(obj: Manifest, target: Target | None = None, *, settings: AdmissionSettings | None = None,
           namespace: str = "default", operator_version: str | None = None,
           worker_hash_algorithm: str | None = None, stored_view: bool = False) -> list[dict[str, Any]]:
    """What the operator creates for a DGD, DCD or DGDR (``python -m dynamo_schema render``): the object is
    admitted first (with ``settings``, the cluster and operator state; default: the documented defaults),
    then rendered for ``target`` (``None``: the pathway the operator takes), and every rendered object is
    checked. ``stored_view``: the objects as the API server stores them (its built-in defaults).

    Raises ``RenderError`` (``.diagnostics``) when admission refuses the object or it cannot be rendered.
    Write the objects with :func:`dump_yaml`."""
    from .._pipeline._render_object import render_object
    from .._pipeline._validate import is_deploymentspec

    data = plain(obj)
    if is_deploymentspec(data):
        from .._render._errors import RenderError

        raise RenderError.at("a DeploymentSpec compiles to its provider's objects: use compile_spec", ("kind",),
                             "render.unsupported-kind")
    return render_object(data, target=target, namespace=namespace, operator_version=operator_version,
                         settings=settings, worker_hash_algorithm=worker_hash_algorithm, stored_view=stored_view)


def materialize_dgdr(dgdr: Manifest, topology: Mapping[str, Any] | None = None, *,
                     settings: AdmissionSettings | None = None) -> MaterializedDGD:
    """The DynamoGraphDeployment a DynamoGraphDeploymentRequest produces (``.dgd``, ``.resources``,
    ``.warnings``, ``.notes``); ``topology`` stands for what the profiler would measure (see
    ``MaterializedDGD``'s module). The DGDR is admitted first, a v1alpha1 one converted.

    Raises ``DgdrError`` (``.diagnostics``) when admission or the materialization refuses it."""
    from .._admission import AdmissionSettings
    from .._dgdr import materialize
    from .._dgdr._common import DgdrError
    from .._pipeline._validate import ValidateOptions, check_nvidia

    data = plain(dgdr)
    if not (isinstance(data, dict) and data.get("kind") == "DynamoGraphDeploymentRequest"
            and data.get("apiVersion") in ("nvidia.com/v1beta1", "nvidia.com/v1alpha1")):
        raise DgdrError("expected a nvidia.com/v1beta1 or v1alpha1 DynamoGraphDeploymentRequest", ("kind",),
                        "dgdr.not-a-dgdr")
    diags, stored = check_nvidia(data, ValidateOptions(settings=settings or AdmissionSettings()))
    errors = [d for d in diags if d.severity == "error"]
    if stored is None or errors:
        exc = DgdrError("the DynamoGraphDeploymentRequest would not be admitted", (), "dgdr.not-admitted")
        exc.diagnostics = errors or exc.diagnostics
        raise exc
    if data.get("apiVersion") == "nvidia.com/v1alpha1":
        from .._convert._v1alpha1 import to_v1beta1

        data = to_v1beta1(data)
    return materialize(data, dict(topology or {}))


def compile_spec(spec: Manifest, provider: Mapping[str, Any] | str | os.PathLike[str] | None = None, *,
                 adapter: str | None = None, environ: Mapping[str, str] | None = None) -> list[RenderedArtifact]:
    """What an InferCrane DeploymentSpec compiles to with its provider adapter (``render`` of a
    DeploymentSpec): Kubernetes objects and request bodies (``kind == "object"``) and texts.

    ``provider``: the provider settings (``INFERCRANE_*`` keys), a mapping or a YAML file; they win over
    ``environ`` (default: the process environment, as the command line reads it). Raises ``SpecError``
    (the spec does not load), ``SettingsError`` (bad provider settings), ``AdapterError`` (the adapter
    refuses) or ``ConfigFileError`` (an unreadable settings file)."""
    from .._infercrane._compile import compile_spec as _compile
    from .._infercrane._settings import ProviderSettings

    mapping: Mapping[str, Any] | None
    if isinstance(provider, (str, os.PathLike)):
        from .._pipeline._config import read_mapping_file

        mapping = read_mapping_file(os.fspath(provider), "provider config")
    else:
        mapping = provider
    settings = ProviderSettings.resolve(dict(os.environ if environ is None else environ), mapping)
    return list(_compile(plain(spec), settings, adapter))


def dump_yaml(objects: Iterable[Manifest] | Manifest) -> str:
    """Kubernetes-safe YAML of one object or a stream of them (``---`` between documents): deterministic,
    and every string YAML 1.1 would read as something else (``n``, ``on``, ``1e3``, ``0o7``…) quoted, so
    ``kubectl`` reads back exactly the objects given (``yaml.safe_dump`` writes ``a: n``, a boolean)."""
    from .._io._emit import dump_all

    items = [objects] if isinstance(objects, Mapping) or hasattr(objects, "to_dict") else list(objects)
    return dump_all([plain(o) for o in items])
