"""nvidia.com/v1alpha1 <-> nvidia.com/v1beta1 conversion of DGD, DCD, DGDR and DGDSA (plain dicts in, new
dicts out; DGDSA: ``_dgdsa.py``).

Field mapping after upstream ``deploy/operator/api/v1alpha1/{dynamographdeployment,
dynamocomponentdeployment,shared_spec}_conversion.go`` and ``deploy/operator/api/CONVERSION.md``:

* DGD ``spec.services`` (map) <-> ``spec.components`` (list keyed by ``name``; sorted by name unless
  a preserved hub order exists); ``spec.envs`` <-> ``spec.env``; ``topologyConstraint.topologyProfile``
  <-> ``clusterTopologyName``; ``pvcs`` alpha-only.
* ``componentType: worker`` + ``subComponentType: prefill|decode`` <-> ``type: prefill|decode``.
* the flat pod fields (``resources``, ``envs``, ``envFromSecret``, probes, ``volumeMounts``,
  ``extraPodMetadata``, ``extraPodSpec`` = inline PodSpec + ``mainContainer``) <-> ``podTemplate`` (container ``main`` first; the
  ``mainContainer`` wins over dedicated fields, env and volume mounts are additive);
  ``sharedMemory`` <-> ``sharedMemorySize``; ``useAsCompilationCache`` <-> ``compilationCache``;
  ``enabled`` flags <-> presence (``scalingAdapter``, ``experimental.{gpuMemoryService,failover}``);
  ``frontendSidecar`` spec <-> container ``sidecar-frontend`` + ``frontendSidecar: sidecar-frontend``.

What the target cannot represent goes into the private annotations ``nvidia.com/dgd-spec``
(DGD) / ``nvidia.com/dcd-spec`` (DCD). Alpha -> beta (the payload on every DCD the operator
generates, ``applyDGDComponentAlphaCompatibilityToDCD``) writes upstream's bytes: ``preservation.go``
``marshalPreservedSpec`` = Go ``json.Marshal`` of ``{"version":1,"spec":<typed sparse v1alpha1 spec>,
"rawJSON":[...]}``, the spec holding what ``saveSharedAlphaOnlySpec`` / ``saveSharedMainContainerOrigins``
save (Go field order, ``omitempty``, value-typed structs always written, HTML-safe escapes), the DCD
``{"path":"serviceName","nil":true}`` record when the name was defaulted from ``metadata.name``
(``marshalDCDSpokeSpec``), the DGD ``{pvcs, services{name: save|null}}`` (``marshalDGDSpokeSpec``).
Reading accepts that shape and this module's earlier one. Restoring fills only destination fields the
live source cannot represent (absent leaves); a represented field always comes from the live source.
Inputs are never mutated. Whole-struct rules after upstream: ``resources`` whose native list cannot
say them back (``gpuType``, empty items; ``resourcesNeedPreservation``), every ``volumeMounts`` entry
when more than one is a compilation cache (``volumeMountsRoundTripThroughHub``), ``sharedMemory`` the
scalar cannot hold (``sharedMemoryNeedsPreservation``); each is restored only while the live hub still
matches. The status side keeps ``componentName``/``componentNames`` and the DCD ``podSelector`` in
``nvidia.com/dgd-status`` / ``nvidia.com/dcd-status`` as upstream's ``setJSONAnnOnObj`` of the typed
v1alpha1 status struct writes them (``"conditions":null``, zero ``replicas``...).

Beta -> alpha writes upstream's hub saves byte for byte as well: ``marshalDCDHubSpec`` /
``marshalDGDHubSpec`` = ``{"version":1,"spec":<typed sparse v1beta1 spec>}``, the DCD spec always
carrying ``name`` (saved when ``dcdHubSpecNeedsSave``: a non-zero save, an empty hub name under a
set ``metadata.name``, or a hub-origin podTemplate), the DGD spec only ``components`` (every entry
when the hub order is unsorted, else the non-zero and hub-origin ones). A component save is
``saveSharedHubOnlySpec``: the ``frontendSidecar`` reference v1alpha1 could not take, the
``sparseSharedHubOnlyPodTemplate`` (metadata without labels/annotations, container keys for order,
generated-main and sidecar markers, hub-only container fields, sparse main volume mounts; Go
writes ``"metadata":{}`` (a zero creationTimestamp is omitzero) and ``"containers":null``) and the hub-only
``experimental`` block (or its ``grove`` part); it is read back as ``restoreSharedHubOnlyFields``.
Reading also accepts this module's earlier hub shape (``{"spec":{"component(s)":...},"version":1}``,
told apart by upstream's leading ``"version"``).

Not ported byte for byte: quantity canonicalisation inside saved main-container resources, and the
eppConfig raw-parameter records. Go zero values read back as absent (``enabled: false`` of a saved
disabled scalingAdapter is restored explicitly).
"""

from __future__ import annotations

import marshal
from functools import lru_cache

from .._core._consts import V1ALPHA1 as ALPHA
from .._core._consts import V1BETA1 as BETA
from .._core._kinds import CONVERTIBLE_KINDS, DCD, DGD, DYNAMO_KINDS, unserved_version
from ._annotations import DCD_SPEC_ANNOTATION as DCD_SPEC_ANNOTATION
from ._annotations import DCD_STATUS_ANNOTATION as DCD_STATUS_ANNOTATION
from ._annotations import DGD_SPEC_ANNOTATION as DGD_SPEC_ANNOTATION
from ._annotations import DGD_STATUS_ANNOTATION as DGD_STATUS_ANNOTATION
from ._annotations import DGDR_SPEC_ANNOTATION as DGDR_SPEC_ANNOTATION
from ._annotations import DGDR_STATUS_ANNOTATION as DGDR_STATUS_ANNOTATION
from ._annotations import is_dgd_conversion_annotation as is_dgd_conversion_annotation
from ._dcd_from_hub import dcd_to_alpha
from ._dcd_to_hub import dcd_to_beta
from ._dgd_from_hub import dgd_to_alpha
from ._dgd_to_hub import dgd_to_beta
from ._dgdr_from_hub import dgdr_to_alpha
from ._dgdr_to_hub import dgdr_to_beta
from ._envelope import ConversionError as ConversionError
from ._json import JSONObject, dc

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Callable

__all__ = [
    "ConversionError",
    "is_dgd_conversion_annotation",
    "to_v1alpha1",
    "to_v1beta1",
]


def to_v1beta1(obj: JSONObject) -> JSONObject:
    """Convert a v1alpha1 DGD, DCD, DGDR or DGDSA to v1beta1 (a v1beta1 input is returned as a copy; a
    Dynamo kind served in one version only raises :class:`ConversionError`)."""
    return _dispatch(obj, BETA, dcd_to_beta, dgdr_to_beta, dgd_to_beta)


def to_v1alpha1(obj: JSONObject) -> JSONObject:
    """Convert a v1beta1 DGD, DCD, DGDR or DGDSA to v1alpha1 (a v1alpha1 input is returned as a copy; a
    Dynamo kind served in one version only raises :class:`ConversionError`)."""
    return _dispatch(obj, ALPHA, dcd_to_alpha, dgdr_to_alpha, dgd_to_alpha)


# ---------------------------------------------------------------- the v1alpha1 view, once per content
# ``validate`` converts an admitted v1beta1 object to v1alpha1 for the webhook rules of its compatibility
# view (``_admission.rules._alpha``), then its reconcile render asks for the same view once per component
# and again for the worker hash (``_render._alphacompat``). Every one of them reads the view's spec only,
# so a DGD or DCD view is converted without the hub save (``nvidia.com/dgd-spec`` / ``dcd-spec``: a third
# of the conversion's cost, and no reader's business); ``tests/convert/test_alpha_view.py`` checks its
# spec and status equal the full conversion's, failures included. The conversion is a pure function of
# the object's content, so it is cached by content: the key is the object's exact serialization (marshal
# version 2 keeps types -- True is not 1 -- and key order), and every caller gets a fresh copy.


def alpha_spec_view(obj: JSONObject) -> JSONObject:
    """``to_v1alpha1(obj)`` whose ``spec`` and ``status`` only are the conversion's: a v1beta1 DGD or DCD
    is converted without computing the hub save its metadata would carry (exceptions propagate)."""
    kind = obj.get("kind")
    if obj.get("apiVersion") != ALPHA and (kind == DGD or kind == DCD):
        return (dgd_to_alpha if kind == DGD else dcd_to_alpha)(obj, False)
    return to_v1alpha1(obj)


@lru_cache(maxsize=16)
def _alpha_bytes(content: bytes) -> bytes:
    return marshal.dumps(alpha_spec_view(marshal.loads(content)), 2)


def alpha_by_content(obj: JSONObject) -> JSONObject:
    """:func:`alpha_spec_view` of ``obj`` (exceptions propagate), computed once per distinct content; a
    fresh object."""
    try:
        content = marshal.dumps(obj, 2)
    except ValueError:  # not plain data: convert without the cache
        return alpha_spec_view(obj)
    result: JSONObject = marshal.loads(_alpha_bytes(content))
    return result


if TYPE_CHECKING:
    _Converter = Callable[[JSONObject], JSONObject]


def _dispatch(obj: JSONObject, api: str, dcd: _Converter, dgdr: _Converter, dgd: _Converter) -> JSONObject:
    kind = obj.get("kind")
    if obj.get("apiVersion") == api:
        return dc(obj)
    if isinstance(kind, str) and kind in DYNAMO_KINDS and kind not in CONVERTIBLE_KINDS:
        raise ConversionError(unserved_version(kind, api))
    if kind == "DynamoComponentDeployment":
        return dcd(obj)
    if kind == "DynamoGraphDeploymentRequest":
        return dgdr(obj)
    if kind == "DynamoGraphDeploymentScalingAdapter":
        from ._dgdsa import convert_dgdsa

        return convert_dgdsa(obj, api)
    return dgd(obj)

