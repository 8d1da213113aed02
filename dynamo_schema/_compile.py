"""Stage orchestration for ``render``: from a document to the objects it produces, each checked.

DGD/DCD: admission first (an object the operator would refuse is not rendered), then the render target.
DGDR: the DGD it materializes, then what that DGD renders to. DeploymentSpec: its provider adapter.
Every rendered Kubernetes object is validated (bundled Kubernetes schemas for built-in kinds, our own
generated schemas for Dynamo kinds); an invalid render is a bug and fails with the reason.
"""

from __future__ import annotations

from typing import Any

from ._diagnostics import Diagnostic, DynamoSchemaError

TARGETS_DGD = ("kubernetes", "grove", "dcd")


class RenderError(DynamoSchemaError):
    pass


def _default_target(dgd: dict[str, Any]) -> str:
    ann = ((dgd.get("metadata") or {}).get("annotations") or {})
    return "kubernetes" if str(ann.get("nvidia.com/enable-grove", "")).lower() == "false" else "grove"


def _admit(obj: dict[str, Any], settings: Any) -> dict[str, Any]:
    from ._document import Document
    from ._validate import ValidateOptions, check_nvidia

    diags, stored = check_nvidia(obj, ValidateOptions(settings=settings))
    if stored is None or any(d.severity == "error" for d in diags):
        raise RenderError("the object would not be admitted", [d for d in diags if d.severity == "error"])
    del Document
    return stored


def check_rendered(objs: list[dict[str, Any]], kubernetes_version: str = "1.32.0") -> list[Diagnostic]:
    """Strict validation of rendered objects; diagnostics name the object in their message."""
    from . import _k8s_schemas, _schemas, _structural

    out: list[Diagnostic] = []
    for obj in objs:
        api, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
        name = (obj.get("metadata") or {}).get("name", "")
        schema = _schemas.for_object(api, kind)
        if schema is not None:
            diags = _structural.validate(obj, schema, strict=True)
        else:
            diags = _k8s_schemas.validate(obj, version=kubernetes_version, strict=True) or []
        for d in diags:
            if d.severity == "error":
                out.append(Diagnostic(d.rule, d.path, f"rendered {kind}/{name}: {d.field}: {d.message}"))
    return out


def render_object(obj: dict[str, Any], *, target: str | None = None, namespace: str = "default",
                  operator_version: str | None = None, settings: Any = None,
                  validate_output: bool = True,
                  messages: list[tuple[str, str]] | None = None,
                  worker_hash_algorithm: str | None = None) -> list[dict[str, Any]]:
    """Render one DGD, DCD or DGDR (plain data) into Kubernetes objects.

    ``messages`` (optional) collects ``(severity, text)`` warnings and notes, e.g. what a DGDR's
    materialization had to assume.
    """
    from ._admission import AdmissionSettings

    settings = settings or AdmissionSettings()
    kind = obj.get("kind")
    api = obj.get("apiVersion")
    if api == "nvidia.com/v1alpha1":
        from ._convert import to_v1beta1

        obj = to_v1beta1(obj)
        api = obj.get("apiVersion")
    if api != "nvidia.com/v1beta1" or kind not in ("DynamoGraphDeployment", "DynamoComponentDeployment",
                                                   "DynamoGraphDeploymentRequest"):
        raise RenderError(f"cannot render {api}/{kind}: render knows DynamoGraphDeployment, "
                          "DynamoComponentDeployment, DynamoGraphDeploymentRequest and DeploymentSpec")
    prefix: list[dict[str, Any]] = []
    if kind == "DynamoGraphDeploymentRequest":
        _admit(obj, settings)
        from ._dgdr import materialize

        result = materialize(obj)
        dgd = result.dgd
        prefix = list(result.resources) + [dgd]
        if messages is not None:
            messages.extend(("warning", w) for w in result.warnings)
            messages.extend(("note", n) for n in result.notes)
        obj = dgd
        kind = "DynamoGraphDeployment"
    stored = _admit(obj, settings)
    if kind == "DynamoGraphDeployment":
        target = target or _default_target(stored)
        if target not in TARGETS_DGD:
            raise RenderError(f"unknown target {target!r} for a DynamoGraphDeployment (one of {', '.join(TARGETS_DGD)})")
    else:
        target = target or "kubernetes"
        if target != "kubernetes":
            raise RenderError(f"unknown target {target!r} for a DynamoComponentDeployment (kubernetes)")
    from ._render import RenderOptions
    from ._render import render as _render

    kwargs: dict[str, Any] = {"namespace": namespace}
    if operator_version:
        kwargs["operator_version"] = operator_version
    if worker_hash_algorithm:
        kwargs["worker_hash_algorithm"] = worker_hash_algorithm
    objs = prefix + _render(stored, target, RenderOptions(**kwargs))
    if validate_output:
        problems = check_rendered(objs)
        if problems:
            raise RenderError("rendered objects are invalid (a bug in dynamo_schema)", problems)
    return objs


def render_deploymentspec(data: dict[str, Any], provider_config: str | None = None) -> list[Any]:
    import os

    from ._infercrane import ProviderSettings, compile_spec

    file_mapping = None
    if provider_config:
        import yaml

        try:
            with open(provider_config, encoding="utf-8") as fh:
                file_mapping = yaml.safe_load(fh) or {}
        except OSError as exc:
            raise OSError(f"cannot read provider config: {exc}") from exc
    settings = ProviderSettings.resolve(dict(os.environ), file_mapping)
    return list(compile_spec(data, settings))


def artifact_file(art: Any) -> tuple[str, str]:
    """(file name, text) of a DeploymentSpec adapter artifact: objects as JSON, texts as they are."""
    import json

    name = str(art.name).replace("/", "_")
    content = art.content
    if isinstance(content, str):
        return name, content
    return name + ".json", json.dumps(content, indent=2, ensure_ascii=False) + "\n"
