"""Admission: defaulting and webhook validation of nvidia.com/v1beta1 DGD, DCD and DGDR.

Equivalent to the Dynamo operator's admission chain at the reference revision
(ai-dynamo/dynamo@2a6da14c, operator 1.5.0) after the OpenAPI schema and CEL stages, with cluster
and operator state passed explicitly as :class:`AdmissionSettings`.

API::

    default(obj, settings, *, operation="CREATE", old=None) -> dict      # new object, idempotent
    validate(obj, settings, *, old=None, transition_rules=True,
             source_version="v1beta1") -> list[Diagnostic]
    resolve_runtime_version(image, override="") -> RuntimeVersion | None  # see _runtime_version
    AdmissionSettings.from_mapping(mapping) -> AdmissionSettings

``validate`` expects a defaulted object. Without ``old`` it runs the CREATE rules; with ``old`` the
UPDATE path: like upstream, a DGD is first validated as a new object (without the runtime-version
rule) and the update rules only run when that passes; a DCD runs both and aggregates. An object
with ``metadata.deletionTimestamp`` is not validated on UPDATE. Warnings are diagnostics with
severity ``"warning"``. Messages are Kubernetes field errors without the leading path.

Rule ids (``<kind>`` = ``dgd`` or ``dcd`` where the rule is shared; admission.md rule numbers):

============================================  =====  ==================================================
rule id                                        no.   what
============================================  =====  ==================================================
dgd.origin-version-semver                       9    origin-version annotation must be semver
dgd.vllm-executor-backend                      10    vllm executor-backend annotation is mp or ray
dgd.grove-update-strategy                      11    grove-update-strategy is RollingRecreate/OnDelete
dgd.discovery-mode                             12    kube-discovery-mode annotation is pod/container
dgd.workload-provider-value                    13    workload-provider annotation is component/grove
dgd.intrapod-failover-discovery-mode           14    intra-pod failover needs discovery mode container
<kind>.provider-override-context            15,35    override not allowed here / provider unset / not grove
<kind>.provider-override-api-version           36    apiVersion required and grove.io/v1alpha1
<kind>.provider-override-target                36    target required / must match the context target
<kind>.provider-override-value                 37    value is an object writing only owned paths
dgd.priority-class-grove                       16    priorityClassName needs the Grove pathway
dgd.components-required                        17    at least one component
dgd.grove-name-length                          18    45-character Grove pod-name budget
dgd.inter-pod-gms-grove                        19    inter-pod GMS needs the Grove pathway
dgd.inter-pod-gms-vllm                         19    inter-pod GMS needs backendFramework vllm
dgd.power-limit-value                          20    power-limit annotation is a positive integer
dgd.power-limit-dra                            20    power limit not with GMS / DRA claims
<kind>.elastic-ep-command                      21    elastic EP (ray) needs an explicit command
dgd.restart-order-parallel                     23    order forbidden with Parallel
dgd.restart-order-unique                       23    order entries unique
dgd.restart-order-count                        23    order covers every component
dgd.restart-order-unknown                      23    order names existing components
dgd.topology-spec-required                     24    spec topologyConstraint needed with component ones
dgd.topology-pack-domain-required              24    spec packDomain needed without component ones
dgd.topology-binding                           24    ClusterTopologyBinding must exist (create, Grove)
dgd.topology-domain                            24    packDomain must exist in the binding
dgd.topology-narrower                          24    component domain narrower than spec domain
dgd.topology-provider-conflict                 25    typed topology vs provider topology override
dgd.kv-transfer-topology-name                  26    clusterTopologyName is a DNS-1123 subdomain
dgd.kv-transfer-grove                          26    clusterTopologyName needs the Grove pathway
dgd.kv-transfer-binding                        26    its ClusterTopologyBinding must exist (create)
dgd.kv-transfer-domain                         26    its domain must exist in the binding
<kind>.min-available-grove                     27    minAvailable only on the Grove pathway
<kind>.shared-memory-size                      30    sharedMemorySize non-negative
<kind>.epp-inference-pool                      32    EPP needs the InferencePool API (DGD only)
<kind>.epp-multinode                           32    EPP cannot be multinode
<kind>.epp-replicas                            32    EPP has exactly 1 replica
<kind>.epp-config-required                     32    EPP needs eppConfig
<kind>.epp-config-map-name                     33    eppConfig.configMapRef.name required
<kind>.frontend-sidecar                        40    frontendSidecar names a podTemplate container
<kind>.gms-component-type                      42    GMS only on worker/prefill/decode
<kind>.gms-gpu                                 42    GMS needs >= 1 main-container GPU
<kind>.gms-client-duplicate                    42    extraClientContainers unique
<kind>.gms-client-container                    42    extraClientContainers name containers
<kind>.failover-gms-required                   43    failover needs gpuMemoryService
<kind>.failover-mode-match                     43    failover mode equals GMS mode
<kind>.failover-gpu                            43    inter-pod failover needs a GPU
<kind>.failover-component-type                 43    inter-pod failover not for epp/frontend/planner
<kind>.force-scaling-group-grove               44    forceScalingGroup only on the Grove pathway
<kind>.checkpoint-disabled                     45    checkpoint needs the checkpoint gate
<kind>.checkpoint-gms-client-containers        45    job.gmsClientContainers needs intra-pod GMS
<kind>.checkpoint-compatibility                45    checkpoint not with inter-pod GMS / failover
<kind>.main-image-required                     46    main container image required
<kind>.runtime-version-override-required       46    override needed without a semver image tag (DGD)
dgd.workload-provider-materialize              47    only the operator may add the provider (update)
dgd.workload-provider-immutable                47    provider annotation immutable (update)
<kind>.provider-override-immutable             48    override apiVersion/target immutable (update)
dgd.components-immutable                       49    components cannot be added/removed (update)
<kind>.replicas-scaling-adapter                50    replicas owned by the scaling adapter (update)
<kind>.multinode-topology-immutable            51    single-node <-> multinode switch (update)
<kind>.topology-immutable                      53    topologyConstraint immutable (update)
dgd.kv-transfer-immutable                      53    kvTransferPolicy immutable (update)
<kind>.inter-pod-gms-toggle                    54    inter-pod GMS cannot be toggled (update)
<kind>.inter-pod-failover-toggle               54    inter-pod failover cannot be toggled (update)
<kind>.num-shadows-immutable                   54    numShadows immutable under inter-pod failover
<kind>.force-scaling-group-toggle              54    forceScalingGroup cannot be toggled (update)
<kind>.backend-framework-immutable             55    backendFramework immutable (update)
<kind>.backend-framework-changed (warning)     55    "Changing spec.backendFramework may cause ..."
dgd.power-limit-immutable                      56    power-limit annotation immutable (update)
dgd.gpu-count-immutable                        56    main GPU count immutable with a power limit
dgd.node-count-immutable                       56    nodeCount immutable with a power limit
dgd.restart-id-rolling-update                  57    restart.id frozen during a rolling update
<kind>.min-available-immutable                  5    CEL transition rule (``transition_rules``)
dgd.restart-unset-on-create                     6    CEL rule on create (``transition_rules``)
<kind>.v1alpha1-vllm-executor-backend          60    preserved alpha service annotation is mp or ray
<kind>.v1alpha1-dynamo-namespace-deprecated    60    warning: dynamoNamespace is deprecated and ignored
<kind>.v1alpha1-autoscaling-deprecated         60    warning: autoscaling is deprecated and ignored
<kind>.v1alpha1-volume-mount-point             61    alpha volumeMounts need mountPoint
<kind>.v1alpha1-ingress-host                   62    alpha ingress.host required when enabled
<kind>.v1alpha1-epp-config                     63    alpha eppConfig: exactly one of configMapRef/config
<kind>.v1alpha1-frontend-sidecar-conflict      64    alpha frontendSidecar vs container sidecar-frontend
<kind>.v1alpha1-failover-num-shadows           43    alpha intraPod failover numShadows is 0 or 1
dgd.v1alpha1-pvc-name                           —    alpha spec.pvcs[i].name required
dgdr.hardware-required                          —    hardware needed when GPU discovery is off
dgdr.search-strategy-backend                    —    thorough search needs a concrete backend
dgdr.runtime-version-override-required          —    override needed without a semver image tag
dgdr.phase-immutable                            —    spec frozen in Profiling/Deploying/Ready/Deployed
============================================  =====  ==================================================

Covered elsewhere (schema ``_structural.py`` / CEL ``_cel.py``): rules 1–8 (component count and
names, case-insensitive uniqueness, at most one EPP, eppConfig only on epp, minAvailable ≤ replicas,
EPPConfig one-of, GMS/checkpoint/KvTransferPolicy CEL). Not implemented because the reference code
has no such rule: 22, 28, 29, 31, 34, 38, 39, 41, 58 (roles, role templates, the EPP runtime-version
contract, rollingUpdate budgets, LPX, Dynamo sidecar mode, EPP ratchet), 59, and rule 45 bullets 2–3
(checkpoint component type: at 2a6da14c ``validateComponentCheckpointConfig`` checks only the gate and
the job; rule 22's ``ElasticEPRayPoC`` gate does not exist in ``internal/features/gates.go`` there).
``tests/admission/test_checkpoint_rules.py`` and ``test_elastic_ep_rules.py`` pin both as accepted.
Rules 60–64 run on the v1alpha1 compatibility view rebuilt by ``dynamo_schema._convert._v1alpha1.to_v1alpha1``
(skipped when the converter is unavailable); their paths point into that alpha view (``spec.services.<name>...``).
"""

from __future__ import annotations

from .._core._datacopy import deepcopy
from .._core._diagnostics import Diagnostic
from ._common import get
from ._defaults import apply_schema_defaults, default, is_v1beta1
from ._runtime_version import (
    RuntimeVersion,
    component_runtime_image,
    component_runtime_version,
    resolve_runtime_version,
)
from ._settings import BUNDLED_OPERATOR_VERSION, AdmissionSettings
from .rules._alpha import validate_alpha_runtime_update, validate_preserved_alpha
from .rules._dcd import dcd_ctx, validate_dcd
from .rules._dgd import grove_pathway, validate_dgd
from .rules._dgdr import validate_dgdr, validate_dgdr_update
from .rules._shared import Ctx
from .rules._update import cel_transition_rules, validate_dcd_update, validate_dgd_update

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BUNDLED_OPERATOR_VERSION",
    "AdmissionSettings",
    "RuntimeVersion",
    "component_runtime_image",
    "component_runtime_version",
    "crd_defaults",
    "default",
    "resolve_runtime_version",
    "validate",
]


def crd_defaults(obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``obj`` with the CRD schema defaults (what the API server applies while decoding)."""
    out: dict[str, Any] = deepcopy(obj)
    if is_v1beta1(out):
        apply_schema_defaults(out)
    return out


def validate(
    obj: dict[str, Any],
    settings: AdmissionSettings,
    *,
    old: dict[str, Any] | None = None,
    transition_rules: bool = True,
    source_version: str = "v1beta1",
) -> list[Diagnostic]:
    """Run the webhook rules on a defaulted object (CREATE without ``old``, UPDATE with it).

    ``transition_rules`` also evaluates the CRD CEL rules that need the old object (minAvailable
    immutable, ``spec.restart`` unset on create); switch it off when the CEL stage covers them.
    ``source_version`` is the API version the user wrote (``"v1alpha1"`` for a manifest converted
    to v1beta1 before admission): upstream then checks the runtime version on the v1alpha1 fields
    (``spec.services.<name>.extraPodSpec.mainContainer.image``) instead of the v1beta1 ones.
    Non-v1beta1 objects and other kinds give no diagnostics.
    """
    if not is_v1beta1(obj):
        return []
    if old is not None and not is_v1beta1(old, obj.get("kind")):
        old = None
    alpha = source_version == "v1alpha1"
    kind = obj["kind"]
    cel = cel_transition_rules(kind, obj, old) if transition_rules else []
    if old is not None and get(obj, "metadata", "deletionTimestamp"):
        return cel
    if kind == "DynamoGraphDeploymentRequest":
        return (
            validate_dgdr(obj, settings) if old is None else validate_dgdr_update(obj, old, settings)
        ) + cel
    validate = validate_dgd if kind == "DynamoGraphDeployment" else validate_dcd
    if old is None:
        return (
            validate(obj, settings, check_runtime_version=not alpha)
            + validate_preserved_alpha(obj, alpha_source=alpha)
            + cel
        )
    errs = validate(obj, settings, check_runtime_version=False) + validate_preserved_alpha(obj)
    if kind == "DynamoGraphDeployment":
        if any(d.severity == "error" for d in errs):
            return errs + cel
        pathway, _ = grove_pathway(settings, obj)
        ctx = Ctx("dgd", settings, grove_pathway=pathway, check_runtime_version=not alpha)
        errs += validate_dgd_update(obj, old, settings, ctx)
        if alpha:
            errs += validate_alpha_runtime_update(obj, old)
        return errs + cel
    # DynamoComponentDeployment
    if alpha:
        errs += validate_alpha_runtime_update(obj, old)
    ctx = dcd_ctx(settings, check_runtime_version=not alpha)
    return errs + validate_dcd_update(obj, old, ctx) + cel
