"""v1alpha1 compatibility metadata that DGD → DCD generation and rendering apply.

Upstream (reference revision 2a6da14c): ``internal/dynamo/graph.go``
``applyDGDComponentAlphaCompatibilityToDCD`` (the DGD is converted to v1alpha1, the component's
alpha shared spec is wrapped in a v1alpha1 DCD and converted back to v1beta1; the resulting
annotations (the private ``nvidia.com/dcd-spec`` payload) are copied onto the generated DCD),
``getDGDAlphaComponent``/``getDGDComponentAlphaLabels``/``getDGDComponentAlphaAnnotations``
(Grove ``generateLabels``/``generateAnnotations``), and ``internal/dynamo/v1beta1_helpers.go``
``GetDCDPreservedAlphaLabels``/``GetDCDPreservedAlphaAnnotations``/``GetDCDSubComponentType``
(``getDCDAlphaSharedSpec``: the DCD converted to v1alpha1). Conversion is
``dynamo_schema._convert._v1alpha1`` (imported lazily; a conversion failure means "no alpha view", as
upstream's ``getDGDAlpha`` returns nil on error).

One render asks for the alpha view of the same DGD once per component (DCD generation, the worker
hash, the Grove labels and annotations) and for the alpha spec of the same DCD several times; the
answer only depends on the object's content, so ``alpha_view`` caches it by content: the key is a
type- and order-exact serialization (``marshal``), so a mutated dict is a new key, and every caller
gets a fresh copy, as a fresh conversion would give it.
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

DGD_SPEC_ANNOTATION = "nvidia.com/dgd-spec"
DCD_SPEC_ANNOTATION = "nvidia.com/dcd-spec"


def _annotations(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    return (obj.get("metadata") or {}).get("annotations") or {}


def dgd_alpha_component(dgd: Mapping[str, Any], component_name: str) -> dict[str, Any] | None:
    """``getDGDAlphaComponent``: ``spec.services[name]`` of the DGD converted to v1alpha1."""
    if dgd.get("apiVersion") == "nvidia.com/v1alpha1":
        svc = ((dgd.get("spec") or {}).get("services") or {}).get(component_name)
        return dict(svc) if isinstance(svc, Mapping) else None
    try:
        alpha = alpha_view(dgd)
    except Exception:  # noqa: BLE001 - upstream: getDGDAlpha returns nil when ConvertFrom fails
        return None
    svc = ((alpha.get("spec") or {}).get("services") or {}).get(component_name)
    return dict(svc) if isinstance(svc, Mapping) else None


def may_preserve_alpha_metadata(dgd: Mapping[str, Any]) -> bool:
    """Whether the v1alpha1 view of ``dgd`` can give a component ``labels``, ``annotations`` or a
    ``subComponentType`` other than its ``type`` (``prefill``/``decode``): only through the preserved
    spoke payload of a ``nvidia.com/dgd-spec`` annotation (``dgd_to_alpha`` restores the saved
    services from it; without it a component converts with ``comp_to_svc`` alone, which writes no
    ``labels``/``annotations`` and sets ``subComponentType`` exactly for those two types). Also true
    for a v1alpha1 DGD (read as it is) and for metadata that is not a mapping (converted, to be sure)."""
    if dgd.get("apiVersion") == "nvidia.com/v1alpha1":
        return True
    meta = dgd.get("metadata")
    if meta is None:
        return False
    if not isinstance(meta, Mapping):
        return True
    anns = meta.get("annotations")
    if anns is None:
        return False
    return not isinstance(anns, Mapping) or DGD_SPEC_ANNOTATION in anns


def dgd_alpha_metadata(dgd: Mapping[str, Any], component_name: str) -> dict[str, Any] | None:
    """:func:`dgd_alpha_component` for a reader of its ``labels``, ``annotations`` and
    ``subComponentType`` only (Grove's ``generateLabels``/``generateAnnotations``): None, i.e. "no alpha
    view", where the view cannot hold any of them (:func:`may_preserve_alpha_metadata`). A reader's
    fallback for None (no labels or annotations, the sub-type from ``type``) is then what the converted
    view says, without converting (nor importing the converter); ``tests/test_perf_paths.py`` compares
    the rendered objects of both ways on the corpus, the golden inputs and generated annotated DGDs."""
    if not may_preserve_alpha_metadata(dgd):
        return None
    return dgd_alpha_component(dgd, component_name)


def dgd_alpha_labels(dgd: Mapping[str, Any], component_name: str) -> dict[str, str]:
    return dict((dgd_alpha_metadata(dgd, component_name) or {}).get("labels") or {})


def dgd_alpha_annotations(dgd: Mapping[str, Any], component_name: str) -> dict[str, str]:
    return dict((dgd_alpha_metadata(dgd, component_name) or {}).get("annotations") or {})


def dcd_compat_annotations(
    dgd: Mapping[str, Any], component_name: str, dcd_name: str, namespace: str, backend: str,
) -> dict[str, str]:
    """``applyDGDComponentAlphaCompatibilityToDCD``: the annotations of the alpha-carrier conversion."""
    component = dgd_alpha_component(dgd, component_name)
    if component is None:
        return {}
    from .._convert._v1alpha1 import to_v1beta1

    spec: dict[str, Any] = {}
    if backend:
        spec["backendFramework"] = backend
    spec.update(component)
    carrier = to_v1beta1({
        "apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
        "metadata": {"name": dcd_name, "namespace": namespace}, "spec": spec,
    })
    return {str(k): str(v) for k, v in _annotations(carrier).items()}


GENERATED_DCD_VIEW_FIELDS = ("labels", "annotations", "subComponentType", "dynamoNamespace")


def generated_dcd_alpha_metadata(dgd: Mapping[str, Any], component_name: str) -> dict[str, Any] | None:
    """What ``dcd_alpha_spec`` of the DCD generated for ``component_name`` says about
    :data:`GENERATED_DCD_VIEW_FIELDS`, read from the DGD's v1alpha1 view directly instead of converting
    the component's carrier to v1beta1 (``dcd_compat_annotations``) and the generated DCD back.

    The carrier's ``nvidia.com/dcd-spec`` payload saves the v1alpha1-only fields of the component's
    view: ``labels``, ``annotations``, ``dynamoNamespace`` always (v1beta1 has no place for them), a
    ``subComponentType`` other than the one its ``type`` says; the DCD's conversion back restores each
    (the generated spec cannot represent them either) and sets the sub-type from ``type`` otherwise.
    So the DCD's view holds the component view's values. None ("no view": no labels or annotations,
    the sub-type from ``type``) where :func:`dgd_alpha_metadata` has none. Only for a reader of those
    four fields (the worker hash input); ``tests/test_perf_paths.py`` compares the hash inputs with
    those of converting the carriers and the DCDs, on the corpus, the golden inputs and generated
    annotated DGDs."""
    comp = dgd_alpha_metadata(dgd, component_name)
    if comp is None:
        return None
    return {k: comp[k] for k in GENERATED_DCD_VIEW_FIELDS if k in comp}


def dcd_alpha_spec(dcd: Mapping[str, Any]) -> dict[str, Any] | None:
    """``getDCDAlphaSharedSpec``: the DCD converted to v1alpha1 (only a preserved payload adds to
    what the v1beta1 spec already says, so DCDs without it take the fast path)."""
    if DCD_SPEC_ANNOTATION not in _annotations(dcd):
        return None
    try:
        alpha = alpha_view(dcd)
    except Exception:  # noqa: BLE001 - upstream: nil alpha spec on conversion errors
        return None
    spec = alpha.get("spec")
    return dict(spec) if isinstance(spec, Mapping) else None


def dcd_preserved_labels(dcd: Mapping[str, Any]) -> dict[str, str]:
    return dict((dcd_alpha_spec(dcd) or {}).get("labels") or {})


def dcd_preserved_annotations(dcd: Mapping[str, Any]) -> dict[str, str]:
    return dict((dcd_alpha_spec(dcd) or {}).get("annotations") or {})


def alpha_view(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``to_v1alpha1(dict(obj))`` (exceptions propagate), computed once per distinct content
    (``_convert._v1alpha1.alpha_by_content``: admission's view of the same stored object is the same entry)."""
    from .._convert._v1alpha1 import alpha_by_content

    return alpha_by_content(dict(obj))
