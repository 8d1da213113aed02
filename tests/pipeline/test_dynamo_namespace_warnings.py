"""The long Dynamo namespace warning of ``render`` (rendering.md §3.4, ``_pipeline._render_object.naming_warnings``):
a DGD's components get ``<namespace>-<DGD name>`` or, with ``globalDynamoNamespace``, the shared ``dynamo``
(``ComputeDynamoNamespace``); a DCD's comes from ``GetDCDDynamoNamespace`` (label, else computed from its
parent DGD's name, else its own)."""

from __future__ import annotations

from dynamo_schema._pipeline._render_object import naming_warnings

NS = "n" * 60


def _dgd(name: str, components: list[dict]) -> dict:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": name}, "spec": {"components": components}}


def _dcd(name: str, **meta: object) -> dict:
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoComponentDeployment",
            "metadata": {"name": name, **meta}, "spec": {"type": "frontend"}}


def test_dgd_global_components_are_not_warned_about() -> None:
    """``ComputeDynamoNamespace``: a global component lives in ``dynamo``, whatever the DGD's name."""
    dgd = _dgd("graph", [{"name": "Frontend", "type": "frontend", "globalDynamoNamespace": True}])
    assert naming_warnings(dgd, NS) == []


def test_dgd_without_components_has_no_namespace_to_warn_about() -> None:
    """A DGD's Dynamo namespaces are its components'; none, no warning."""
    assert naming_warnings(_dgd("graph", []), NS) == []


def test_dcd_namespace_from_its_own_name_is_warned_about() -> None:
    """``GetDCDDynamoNamespace`` without a parent: ``<namespace>-<DCD name>``, here 66 characters."""
    (w,) = naming_warnings(_dcd("front"), NS)
    assert w.startswith(f'Dynamo namespace "{NS}-front" is 66 characters long (more than 63)')


def test_dcd_namespace_from_its_parent_dgd() -> None:
    """``GetDCDDynamoNamespace``: the parent DGD's name (owner reference) replaces the DCD's own."""
    ref = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "name": "g", "uid": "u"}
    assert naming_warnings(_dcd("a-rather-long-component-name", ownerReferences=[ref]), NS) == []
    (w,) = naming_warnings(_dcd("x", ownerReferences=[{**ref, "name": "parent"}]), NS)
    assert w.startswith(f'Dynamo namespace "{NS}-parent" is 67 characters long')
