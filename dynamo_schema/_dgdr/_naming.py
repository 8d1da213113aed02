"""Steps 5 and 6: the pod-name length check of ``profile_sla.py`` and what the controller adds when it
creates the DGD (``runtimeVersionOverride`` where missing, ``computeDGDName``, namespace, DGDR labels)."""

from __future__ import annotations

from typing import Any

from dynamo_schema._core._consts import LABEL_MANAGED_BY
from dynamo_schema._core._consts import V1BETA1 as DGD_API_VERSION
from dynamo_schema._dgdr._common import DgdrError, apply_runtime_version_override, components_of
from dynamo_schema._dgdr._request import Request
from dynamo_schema._k8s._grovenames import MAX_COMBINED_GROVE_NAME

LABEL_DGDR_NAME = "dgdr.nvidia.com/name"
LABEL_DGDR_NAMESPACE = "dgdr.nvidia.com/namespace"
LABEL_VALUE_OPERATOR = "dynamo-operator"

MAX_COMBINED_RESOURCE_NAME_LENGTH = MAX_COMBINED_GROVE_NAME


def own(obj: dict[str, Any], req: Request) -> dict[str, Any]:
    """Put ``obj`` in the DGDR's namespace with the DGDR name/namespace labels (a fresh labels map,
    returned for further labels)."""
    meta = obj.setdefault("metadata", {})
    if req.namespace:
        meta["namespace"] = req.namespace
    labels = dict(meta.get("labels") or {})
    labels[LABEL_DGDR_NAME] = req.name
    if req.namespace:
        labels[LABEL_DGDR_NAMESPACE] = req.namespace
    meta["labels"] = labels
    return labels


def compute_dgd_name(dgdr: dict[str, Any]) -> str:
    """``computeDGDName``: ``spec.overrides.dgd.metadata.name`` if non-empty, else ``<dgdr>-dgd``."""
    raw_spec = dgdr.get("spec")
    spec: dict[str, Any] = raw_spec if isinstance(raw_spec, dict) else {}
    raw_overrides = spec.get("overrides")
    overrides: dict[str, Any] = raw_overrides if isinstance(raw_overrides, dict) else {}
    ov = overrides.get("dgd")
    if isinstance(ov, dict) and isinstance(ov.get("metadata"), dict):
        name = ov["metadata"].get("name")
        if isinstance(name, str) and name:
            return name
    raw_meta = dgdr.get("metadata")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    return f"{meta.get('name', '')}-dgd"


def validate_name_lengths(req: Request, dgdr: dict[str, Any], dgd: dict[str, Any]) -> None:
    dgd_name = compute_dgd_name(dgdr)
    ov_meta = req.override.get("metadata") if isinstance(req.override, dict) else None
    overridden = isinstance(ov_meta, dict) and bool(ov_meta.get("name"))
    violations = []
    for comp in components_of(dgd):
        cname = str(comp.get("name", ""))
        combined = len(dgd_name) + len(cname)
        if combined > MAX_COMBINED_RESOURCE_NAME_LENGTH:
            violations.append(f"'{cname}' ({len(cname)}): combined length {combined}")
    if violations:
        kind = "DGD" if overridden else "DGDR"
        to_shorten = dgd_name if overridden else req.name
        raise DgdrError(
            f"DGD name '{dgd_name}' (length {len(dgd_name)}) combined with component name(s) exceeds the "
            f"{MAX_COMBINED_RESOURCE_NAME_LENGTH}-character pod-naming limit. Shorten the {kind} name "
            f"'{to_shorten}'. Violations: {'; '.join(violations)}",
            ("metadata", "name") if not overridden else ("spec", "overrides", "dgd", "metadata", "name"),
            "dgdr.name-length",
        )


def finalize(
    req: Request,
    dgdr: dict[str, Any],
    dgd: dict[str, Any],
    resources: list[dict[str, Any]],
    notes: list[str],
) -> dict[str, Any]:
    """Step 6, the controller: ``runtimeVersionOverride`` where missing, the final name, namespace and
    labels of the DGD and its resources; the DGD returned with its keys in Kubernetes order."""
    apply_runtime_version_override(dgd, req.runtime_version, only_missing=True)
    dgd.setdefault("metadata", {})["name"] = compute_dgd_name(dgdr)
    own(dgd, req)[LABEL_MANAGED_BY] = LABEL_VALUE_OPERATOR
    dgd["apiVersion"] = DGD_API_VERSION
    dgd["kind"] = "DynamoGraphDeployment"
    for res in resources:  # createAdditionalResources: the same tracking labels as the DGD
        own(res, req)[LABEL_MANAGED_BY] = LABEL_VALUE_OPERATOR
    if dgdr.get("spec", {}).get("autoApply") is False:
        notes.append(
            "autoApply is false: the operator stores this DGD in status.profilingResults.selectedConfig "
            "instead of creating it"
        )
    # key order: apiVersion, kind, metadata, spec
    ordered = {"apiVersion": dgd["apiVersion"], "kind": dgd["kind"], "metadata": dgd["metadata"]}
    ordered.update({k: v for k, v in dgd.items() if k not in ordered})
    return ordered
