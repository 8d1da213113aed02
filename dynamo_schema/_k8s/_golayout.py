"""Go struct layouts and a ``json.Marshal``-equivalent encoder for the types we write byte-exactly.

One table serves the renderer (worker hashes) and the converter (preservation annotations).
Each Go type maps to its fields in Go declaration order, each written ``"[!]name:code"``:

* ``!`` prefix: the JSON tag has no ``omitempty``;
* ``s`` / ``i`` / ``b``: a non-pointer string / integer / bool (zero ``""`` / ``0`` / ``false``,
  dropped by ``omitempty`` when zero);
* ``p``: a pointer to a scalar (written whenever set, even ``""``/``0``/``false``; ``null`` when
  nil and not ``omitempty``);
* ``m``: a ``map[string]…`` (keys sorted; ``omitempty`` drops an empty map);
* ``q`` / ``*q``: a value / pointer ``resource.Quantity`` (canonical form; a value Quantity is a
  struct, so ``omitempty`` never drops it and its zero is ``"0"``); ``qm``: a ``ResourceList``;
* ``io``: an ``intstr.IntOrString`` value (zero ``0``); ``json``: an ``apiextensionsv1.JSON``
  value (raw JSON; its zero marshals as ``null``);
* ``[X``: a slice of ``X`` (``omitempty`` drops an empty slice; nil without it is ``null``);
  ``{X``: a ``map[string]X`` (keys sorted, values encoded as ``X``; ``omitempty`` as for ``m``);
* ``T`` / ``*T``: a value / pointer struct of layout ``T`` (a value struct is always written;
  a pointer is written whenever set, even ``{}``);
* empty code: a type not modelled here (objects with sorted keys; ``omitempty`` drops nil,
  ``""`` and ``[]``, never a present object, number or bool).

Sources: ``k8s.io/api/core/v1`` and ``k8s.io/apimachinery`` ``meta/v1`` types, dynamo
``deploy/operator/api/v1beta1`` (``DynamoComponentDeploymentSpec`` and friends) and
``deploy/operator/api/v1alpha1`` (the ``Alpha*`` layouts). Types that are not listed fall back to
sorted keys.
"""

from __future__ import annotations

from decimal import (
    MAX_EMAX,
    MIN_EMIN,
    ROUND_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
    localcontext,
)
from functools import cache

from ._gofmt import go_json
from ._quantity import digitless_quantity, json_quantity_text, split_quantity

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

LAYOUTS: dict[str, tuple[str, ...]] = {
    # k8s.io/api core/v1 + apimachinery meta/v1
    "PodTemplateSpec": ("metadata:ObjectMeta", "spec:PodSpec"),
    "ObjectMeta": (
        "name:s", "generateName:s", "namespace:s", "selfLink:s", "uid:s", "resourceVersion:s", "generation:i",
        "creationTimestamp:", "deletionTimestamp:", "deletionGracePeriodSeconds:p", "labels:m", "annotations:m",
        "ownerReferences:", "finalizers:", "managedFields:",
    ),
    "PodSpec": (
        "volumes:[Volume", "initContainers:[Container", "!containers:[Container", "ephemeralContainers:",
        "restartPolicy:s", "terminationGracePeriodSeconds:p", "activeDeadlineSeconds:p", "dnsPolicy:s",
        "nodeSelector:m", "serviceAccountName:s", "serviceAccount:s", "automountServiceAccountToken:p",
        "nodeName:s", "hostNetwork:b", "hostPID:b", "hostIPC:b", "shareProcessNamespace:p",
        "securityContext:*PodSecurityContext", "imagePullSecrets:[LocalObjectReference", "hostname:s",
        "subdomain:s", "affinity:*Affinity", "schedulerName:s", "tolerations:[Toleration", "hostAliases:",
        "priorityClassName:s", "priority:p", "dnsConfig:", "readinessGates:", "runtimeClassName:p",
        "enableServiceLinks:p", "preemptionPolicy:p", "overhead:qm", "topologySpreadConstraints:[TopologySpreadConstraint",
        "setHostnameAsFQDN:p", "os:", "hostUsers:p", "schedulingGates:", "resourceClaims:",
        "resources:*ResourceRequirements", "hostnameOverride:p", "schedulingGroup:",
    ),
    "Container": (
        "!name:s", "image:s", "command:", "args:", "workingDir:s", "ports:[ContainerPort", "envFrom:[EnvFromSource",
        "env:[EnvVar", "resources:ResourceRequirements", "resizePolicy:", "restartPolicy:p",
        "restartPolicyRules:", "volumeMounts:[VolumeMount", "volumeDevices:", "livenessProbe:*Probe",
        "readinessProbe:*Probe", "startupProbe:*Probe", "lifecycle:*Lifecycle", "terminationMessagePath:s",
        "terminationMessagePolicy:s", "imagePullPolicy:s", "securityContext:*SecurityContext", "stdin:b",
        "stdinOnce:b", "tty:b",
    ),
    "ResourceRequirements": ("limits:qm", "requests:qm", "claims:[ResourceClaim"),
    "ResourceClaim": ("!name:s", "request:s"),
    "EnvVar": ("!name:s", "value:s", "valueFrom:*EnvVarSource"),
    "EnvVarSource": (
        "fieldRef:*ObjectFieldSelector", "resourceFieldRef:*ResourceFieldSelector",
        "configMapKeyRef:*KeySelector", "secretKeyRef:*KeySelector", "fileKeyRef:",
    ),
    "ObjectFieldSelector": ("apiVersion:s", "!fieldPath:s"),
    "ResourceFieldSelector": ("containerName:s", "!resource:s", "divisor:q"),
    # ConfigMapKeySelector / SecretKeySelector (LocalObjectReference inline, then key, optional)
    "KeySelector": ("name:s", "!key:s", "optional:p"),
    "EnvFromSource": ("prefix:s", "configMapRef:*RefOptional", "secretRef:*RefOptional"),
    # ConfigMapEnvSource / SecretEnvSource
    "RefOptional": ("name:s", "optional:p"),
    "ContainerPort": ("name:s", "hostPort:i", "!containerPort:i", "protocol:s", "hostIP:s"),
    "VolumeMount": (
        "!name:s", "readOnly:b", "recursiveReadOnly:p", "!mountPath:s", "subPath:s", "mountPropagation:p",
        "subPathExpr:s",
    ),
    "Volume": (
        "!name:s", "hostPath:", "emptyDir:*EmptyDir", "gcePersistentDisk:", "awsElasticBlockStore:", "gitRepo:",
        "secret:*SecretVolume", "nfs:", "iscsi:", "glusterfs:", "persistentVolumeClaim:*PVCVolume", "rbd:",
        "flexVolume:", "cinder:", "cephfs:", "flocker:", "downwardAPI:*DownwardAPIVolume", "fc:", "azureFile:",
        "configMap:*ConfigMapVolume", "vsphereVolume:", "quobyte:", "azureDisk:", "photonPersistentDisk:",
        "projected:", "portworxVolume:", "scaleIO:", "storageos:", "csi:", "ephemeral:", "image:",
    ),
    "EmptyDir": ("medium:s", "sizeLimit:*q"),
    "DownwardAPIVolume": ("items:[DownwardAPIVolumeFile", "defaultMode:p"),
    "DownwardAPIVolumeFile": (
        "!path:s", "fieldRef:*ObjectFieldSelector", "resourceFieldRef:*ResourceFieldSelector", "mode:p",
    ),
    "SecretVolume": ("secretName:s", "items:[KeyToPath", "defaultMode:p", "optional:p"),
    "ConfigMapVolume": ("name:s", "items:[KeyToPath", "defaultMode:p", "optional:p"),
    "PVCVolume": ("!claimName:s", "readOnly:b"),
    "Probe": (
        "exec:", "httpGet:*HTTPGet", "tcpSocket:*TCPSocket", "grpc:*GRPC", "initialDelaySeconds:i",
        "timeoutSeconds:i", "periodSeconds:i", "successThreshold:i", "failureThreshold:i",
        "terminationGracePeriodSeconds:p",
    ),
    "HTTPGet": ("path:s", "!port:io", "host:s", "scheme:s", "httpHeaders:[HTTPHeader"),
    "TCPSocket": ("!port:io", "host:s"),
    "GRPC": ("!port:i", "!service:p"),
    "HTTPHeader": ("!name:s", "!value:s"),
    "Toleration": ("key:s", "operator:s", "value:s", "effect:s", "tolerationSeconds:p"),
    "PodSecurityContext": (
        "seLinuxOptions:", "windowsOptions:", "runAsUser:p", "runAsGroup:p", "runAsNonRoot:p",
        "supplementalGroups:", "supplementalGroupsPolicy:p", "fsGroup:p", "sysctls:", "fsGroupChangePolicy:p",
        "seccompProfile:", "appArmorProfile:", "seLinuxChangePolicy:p",
    ),
    "SecurityContext": (
        "capabilities:", "privileged:p", "seLinuxOptions:", "windowsOptions:", "runAsUser:p", "runAsGroup:p",
        "runAsNonRoot:p", "readOnlyRootFilesystem:p", "allowPrivilegeEscalation:p", "procMount:p",
        "seccompProfile:", "appArmorProfile:",
    ),
    "Affinity": ("nodeAffinity:*NodeAffinity", "podAffinity:*PodAffinity", "podAntiAffinity:*PodAffinity"),
    "NodeAffinity": (
        "requiredDuringSchedulingIgnoredDuringExecution:*NodeSelector",
        "preferredDuringSchedulingIgnoredDuringExecution:[PreferredSchedulingTerm",
    ),
    "NodeSelector": ("!nodeSelectorTerms:[NodeSelectorTerm",),
    "NodeSelectorTerm": ("matchExpressions:[NodeSelectorRequirement", "matchFields:[NodeSelectorRequirement"),
    "NodeSelectorRequirement": ("!key:s", "!operator:s", "values:"),
    "PreferredSchedulingTerm": ("!weight:i", "!preference:NodeSelectorTerm"),
    # PodAntiAffinity has the same layout as PodAffinity
    "PodAffinity": (
        "requiredDuringSchedulingIgnoredDuringExecution:[PodAffinityTerm",
        "preferredDuringSchedulingIgnoredDuringExecution:[WeightedPodAffinityTerm",
    ),
    "PodAffinityTerm": (
        "labelSelector:*LabelSelector", "namespaces:", "!topologyKey:s", "namespaceSelector:*LabelSelector",
        "matchLabelKeys:", "mismatchLabelKeys:",
    ),
    "WeightedPodAffinityTerm": ("!weight:i", "!podAffinityTerm:PodAffinityTerm"),
    "LabelSelector": ("matchLabels:m", "matchExpressions:[LabelSelectorRequirement"),
    "LabelSelectorRequirement": ("!key:s", "!operator:s", "values:"),
    "TopologySpreadConstraint": (
        "!maxSkew:i", "!topologyKey:s", "!whenUnsatisfiable:s", "labelSelector:*LabelSelector", "minDomains:p",
        "nodeAffinityPolicy:p", "nodeTaintsPolicy:p", "matchLabelKeys:",
    ),
    "KeyToPath": ("!key:s", "!path:s", "mode:p"),
    "LocalObjectReference": ("name:s",),
    "Lifecycle": ("postStart:*LifecycleHandler", "preStop:*LifecycleHandler", "stopSignal:p"),
    "LifecycleHandler": ("exec:", "httpGet:*HTTPGet", "tcpSocket:*TCPSocket", "sleep:"),
    # nvidia.com/v1beta1 (deploy/operator/api/v1beta1/{dynamocomponentdeployment_types,common}.go);
    # v1alpha1 MultinodeSpec has the same layout
    "MultinodeSpec": ("!nodeCount:i", "leader:*MultinodeRoleSpec", "worker:*MultinodeRoleSpec"),
    "MultinodeRoleSpec": ("providerOverride:*ProviderOverride",),
    "ProviderOverride": ("!apiVersion:s", "target:s", "!value:json"),
    "CompilationCacheConfig": ("!pvcName:s", "mountPath:s"),
    "DynamoComponentDeploymentSpec": (
        "backendFramework:s", "providerOverride:*ProviderOverride", "!name:s", "type:s",
        "runtimeVersionOverride:s", "globalDynamoNamespace:b", "podTemplate:*PodTemplateSpec", "replicas:p",
        "minAvailable:p", "multinode:*MultinodeSpec", "sharedMemorySize:*q", "modelRef:*ModelReference",
        "scalingAdapter:*ScalingAdapter", "eppConfig:*EPPConfig", "frontendSidecar:p",
        "compilationCache:*CompilationCacheConfig", "topologyConstraint:*TopologyConstraint",
        "experimental:*ExperimentalSpec",
    ),
    "ModelReference": ("!name:s", "revision:s"),
    "ScalingAdapter": (),
    "EPPConfig": ("configMapRef:*KeySelector", "config:"),
    "TopologyConstraint": ("!packDomain:s",),
    "ExperimentalSpec": (
        "gpuMemoryService:*GPUMemoryServiceSpec", "failover:*FailoverSpec", "grove:*GroveSpec",
        "checkpoint:*ComponentCheckpointConfig",
    ),
    "GPUMemoryServiceSpec": ("mode:s", "deviceClassName:s", "extraClientContainers:", "extraClientPods:[GMSClientPodSpec"),
    "GMSClientPodSpec": ("!name:s", "!podTemplate:PodTemplateSpec"),
    "FailoverSpec": ("mode:s", "numShadows:i"),
    "GroveSpec": ("forceScalingGroup:b",),
    "ComponentCheckpointConfig": (
        "!enabled:b", "mode:s", "startupPolicy:s", "deletionPolicy:s", "checkpointRef:p",
        "identity:*DynamoCheckpointIdentity", "targetContainerName:s", "job:*ComponentCheckpointJobConfig",
    ),
    "DynamoCheckpointIdentity": (
        "!model:s", "!backendFramework:s", "dynamoVersion:s", "tensorParallelSize:i", "pipelineParallelSize:i",
        "dtype:s", "maxModelLen:i", "extraParameters:m",
    ),
    "ComponentCheckpointJobConfig": ("gmsClientContainers:", "podTemplate:*PodTemplateSpec"),
    # nvidia.com/v1alpha1 (deploy/operator/api/v1alpha1/{dynamocomponentdeployment_types,common}.go)
    "AlphaDCDSpec": ("backendFramework:s", "...AlphaSharedSpec"),
    "AlphaSharedSpec": (
        "providerOverride:*ProviderOverride", "annotations:m", "labels:m", "serviceName:s", "componentType:s",
        "subComponentType:s", "runtimeVersionOverride:s", "dynamoNamespace:p", "globalDynamoNamespace:b",
        "resources:*AlphaResources", "autoscaling:*AlphaAutoscaling", "envs:[EnvVar", "envFromSecret:p",
        "volumeMounts:[AlphaVolumeMount", "ingress:*AlphaIngress", "modelRef:*ModelReference",
        "sharedMemory:*AlphaSharedMemorySpec", "extraPodMetadata:*AlphaExtraPodMetadata",
        "extraPodSpec:*AlphaExtraPodSpec", "livenessProbe:*Probe", "readinessProbe:*Probe", "replicas:p",
        "minAvailable:p", "multinode:*MultinodeSpec", "scalingAdapter:*AlphaScalingAdapter",
        "eppConfig:*EPPConfig", "frontendSidecar:*AlphaFrontendSidecarSpec", "checkpoint:*AlphaCheckpointConfig",
        "topologyConstraint:*TopologyConstraint", "gpuMemoryService:*AlphaGPUMemoryServiceSpec",
        "failover:*AlphaFailoverSpec",
    ),
    "AlphaResources": ("requests:*AlphaResourceItem", "limits:*AlphaResourceItem", "claims:[ResourceClaim"),
    "AlphaResourceItem": ("cpu:s", "memory:s", "gpu:s", "gpuType:s", "custom:m"),
    "AlphaAutoscaling": ("enabled:b", "minReplicas:i", "maxReplicas:i", "behavior:", "metrics:"),
    "AlphaIngress": (
        "enabled:b", "host:s", "useVirtualService:b", "virtualServiceGateway:p", "hostPrefix:p", "annotations:m",
        "labels:m", "tls:", "hostSuffix:p", "ingressControllerClassName:p",
    ),
    "AlphaVolumeMount": ("name:s", "mountPoint:s", "useAsCompilationCache:b"),
    "AlphaSharedMemorySpec": ("disabled:b", "size:q"),
    "AlphaExtraPodMetadata": ("annotations:m", "labels:m"),
    "AlphaScalingAdapter": ("enabled:b",),
    "AlphaFrontendSidecarSpec": ("!image:s", "args:", "envFromSecret:p", "envs:[EnvVar"),
    "AlphaCheckpointConfig": (
        "enabled:b", "mode:s", "startupPolicy:s", "deletionPolicy:s", "checkpointRef:p",
        "identity:*DynamoCheckpointIdentity", "targetContainerName:s", "job:*ComponentCheckpointJobConfig",
    ),
    "AlphaGPUMemoryServiceSpec": (
        "!enabled:b", "mode:s", "deviceClassName:s", "extraClientContainers:", "extraClientPods:[GMSClientPodSpec",
    ),
    "AlphaFailoverSpec": ("!enabled:b", "mode:s", "numShadows:i"),
    "AlphaPVC": ("create:p", "name:p", "storageClass:s", "size:q", "volumeAccessMode:s"),
    "AlphaDGDSpec": (
        "providerOverride:*ProviderOverride", "annotations:m", "labels:m", "priorityClassName:s",
        "pvcs:[AlphaPVC", "services:{*AlphaSharedSpec", "envs:[EnvVar", "backendFramework:s", "restart:",
        "topologyConstraint:", "experimental:",
    ),
    # v1beta1 hub saves (conversion preservation): the same Go types; a zero creationTimestamp is left out
    # (apimachinery v0.36's ``omitempty,omitzero``, the version the reference revision builds with)
    "HubPodTemplateSpec": ("metadata:ObjectMeta", "spec:PodSpec"),
    # nvidia.com DGDR specs (the conversion saves, marshalPreservedSpec): v1beta1 and v1alpha1 types
    "HubDGDRSpec": (
        "!model:s", "backend:s", "image:s", "runtimeVersionOverride:s", "modelCache:*DGDRModelCache",
        "hardware:*DGDRHardware", "workload:*DGDRWorkload", "sla:*DGDRSLA", "overrides:*DGDROverrides",
        "features:*DGDRFeatures", "searchStrategy:s", "autoApply:p",
    ),
    "DGDRModelCache": ("pvcName:s", "pvcModelPath:s", "pvcMountPath:s"),
    "DGDRHardware": ("gpuSku:s", "vramMb:p", "totalGpus:p", "numGpusPerNode:p", "interconnect:s", "rdma:p"),
    "DGDRWorkload": ("isl:p", "osl:p", "concurrency:p", "requestRate:p"),
    "DGDRSLA": ("ttft:p", "itl:p", "e2eLatency:p", "optimizationType:p"),
    "DGDROverrides": ("profilingJob:*JobSpec", "dgd:"),
    "DGDRFeatures": ("planner:", "mocker:*DGDRMocker"),
    "DGDRMocker": ("enabled:b",),
    # k8s.io/api batch/v1
    "JobSpec": (
        "parallelism:p", "completions:p", "activeDeadlineSeconds:p", "podFailurePolicy:", "successPolicy:",
        "backoffLimit:p", "backoffLimitPerIndex:p", "maxFailedIndexes:p", "selector:*LabelSelector",
        "manualSelector:p", "!template:PodTemplateSpec", "ttlSecondsAfterFinished:p", "completionMode:p",
        "suspend:p", "podReplacementPolicy:p", "managedBy:p",
    ),
    "AlphaDGDRSpec": (
        "!model:s", "!backend:s", "useMocker:b", "!profilingConfig:AlphaProfilingConfig",
        "runtimeVersionOverride:s", "enableGpuDiscovery:p", "autoApply:b",
        "deploymentOverrides:*AlphaDeploymentOverrides",
    ),
    "AlphaProfilingConfig": (
        "config:", "configMapRef:*AlphaConfigMapKeySelector", "!profilerImage:s", "outputPVC:s",
        "resources:*ResourceRequirements", "tolerations:[Toleration", "nodeSelector:m",
    ),
    "AlphaConfigMapKeySelector": ("!name:s", "key:s"),
    "AlphaDeploymentOverrides": ("name:s", "namespace:s", "labels:m", "annotations:m", "workersImage:s"),
    "HubSharedSpec": (
        "providerOverride:*ProviderOverride", "!name:s", "type:s", "runtimeVersionOverride:s",
        "globalDynamoNamespace:b", "podTemplate:*HubPodTemplateSpec", "replicas:p", "minAvailable:p",
        "multinode:*MultinodeSpec", "sharedMemorySize:*q", "modelRef:*ModelReference",
        "scalingAdapter:*ScalingAdapter", "eppConfig:*EPPConfig", "frontendSidecar:p",
        "compilationCache:*CompilationCacheConfig", "topologyConstraint:*TopologyConstraint",
        "experimental:*HubExperimentalSpec",
    ),
    "HubDCDSpec": ("backendFramework:s", "...HubSharedSpec"),
    "HubDGDSpec": (
        "providerOverride:*ProviderOverride", "annotations:m", "labels:m", "priorityClassName:s",
        "components:[HubSharedSpec", "env:[EnvVar", "backendFramework:s", "restart:", "topologyConstraint:",
        "experimental:",
    ),
    "HubExperimentalSpec": (
        "gpuMemoryService:*HubGPUMemoryServiceSpec", "failover:*FailoverSpec", "grove:*GroveSpec",
        "checkpoint:*HubComponentCheckpointConfig",
    ),
    "HubGPUMemoryServiceSpec": (
        "mode:s", "deviceClassName:s", "extraClientContainers:", "extraClientPods:[HubGMSClientPodSpec",
    ),
    "HubGMSClientPodSpec": ("!name:s", "!podTemplate:HubPodTemplateSpec"),
    "HubComponentCheckpointConfig": (
        "!enabled:b", "mode:s", "startupPolicy:s", "deletionPolicy:s", "checkpointRef:p",
        "identity:*DynamoCheckpointIdentity", "targetContainerName:s", "job:*HubComponentCheckpointJobConfig",
    ),
    "HubComponentCheckpointJobConfig": ("gmsClientContainers:", "podTemplate:*HubPodTemplateSpec"),
    "AlphaServiceReplicaStatus": (
        "!componentKind:s", "!componentName:s", "componentNames:[s", "runtimeNamespace:s", "!replicas:i",
        "!updatedReplicas:i", "readyReplicas:p", "availableReplicas:p", "scheduledReplicas:p",
    ),
    "AlphaDCDStatus": (
        "observedGeneration:i", "!conditions:[", "podSelector:m", "service:*AlphaServiceReplicaStatus",
    ),
    "AlphaDGDStatus": (
        "observedGeneration:i", "!state:s", "conditions:", "services:{AlphaServiceReplicaStatus", "restart:",
        "checkpoints:", "rollingUpdate:", "placement:",
    ),
}
# Aliases kept for callers: the same Go layout under another name.
LAYOUTS["BetaMultinodeSpec"] = LAYOUTS["MultinodeSpec"]

# ``ExtraPodSpec`` (v1alpha1) has its own ``MarshalJSON``; it counts as a struct.
_CUSTOM = frozenset({"AlphaExtraPodSpec"})
_SCALAR_ZERO: dict[str, Any] = {"s": "", "i": 0, "b": False, "q": "0", "io": 0}


@cache
def fields(type_name: str) -> tuple[tuple[str, bool, str], ...]:
    """``(json name, omitempty, code)`` of each field of ``type_name``, inline structs expanded."""
    out: list[tuple[str, bool, str]] = []
    for spec in LAYOUTS[type_name]:
        if spec.startswith("..."):
            out.extend(fields(spec[3:]))
            continue
        name, code = spec.lstrip("!").split(":", 1)
        out.append((name, not spec.startswith("!"), code))
    return tuple(out)


def is_struct(code: str) -> bool:
    """``code`` names a (value or pointer) struct layout."""
    base = code[1:] if code.startswith("*") else code
    return base in LAYOUTS or base in _CUSTOM


def zero(code: str) -> Any:
    """What ``json.Marshal`` writes for a field of ``code`` left at its Go zero value."""
    if code in _SCALAR_ZERO:
        return _SCALAR_ZERO[code]
    if code in LAYOUTS or code in _CUSTOM:
        return encode({}, code)
    if code == "":
        return ""
    return None  # pointers, slices, maps: nil


def _omitted(value: Any, code: str) -> bool:
    """``omitempty`` applied to a present, non-nil value."""
    if code in ("s", "i", "b"):
        return not value and not isinstance(value, dict)
    if code in ("m", "qm") or code[:1] in ("[", "{"):
        return isinstance(value, (list, dict, str)) and not value
    if code == "":
        return isinstance(value, (list, str)) and not value
    return False  # pointers (written even when they point at a zero), value structs, quantities


def encode(value: Any, code: str | None) -> Any:
    """``value`` (as decoded from YAML/JSON) turned into an ordered structure whose
    :func:`go_marshal` is Go's ``json.Marshal`` of the typed value."""
    if value is None:
        return None
    if code is None or code == "":
        return generic(value)
    if code.startswith("*"):
        return encode(value, code[1:])
    if code.startswith("["):
        return [encode(v, code[1:]) for v in value] if isinstance(value, list) else generic(value)
    if code.startswith("{"):
        return {k: encode(value[k], code[1:]) for k in sorted(value, key=str)} if isinstance(value, dict) \
            else generic(value)
    if code.startswith("list:"):
        return encode(value, "[" + code[5:])
    if code in ("s", "i", "b", "p", "io", "json"):
        return generic(value)
    if code == "m":
        return generic(value)
    if code == "qm":
        return {k: canonical_quantity(value[k]) for k in sorted(value, key=str)} if isinstance(value, dict) \
            else generic(value)
    if code == "q":
        return canonical_quantity(value)
    if code == "AlphaExtraPodSpec":
        return _extra_pod_spec(value)
    if code not in LAYOUTS or not isinstance(value, dict):
        return generic(value)
    out: dict[str, Any] = {}
    for name, omitempty, fcode in fields(code):
        v = value.get(name)
        if v is None:
            if fcode in ("p", "m", "qm", "json") or fcode[:1] in ("*", "[", "{"):
                if not omitempty:
                    out[name] = None
                continue
            if omitempty and not is_struct(fcode) and fcode not in ("q", "io"):
                continue
            out[name] = zero(fcode)
            continue
        if omitempty and _omitted(v, fcode):
            continue
        out[name] = encode(v, fcode)
    return out


def prune_omitempty(value: Any, code: str) -> Any:
    """``value`` without the fields Go's ``omitempty`` drops on a round trip through type ``code``:
    a scalar at its zero (``false``, ``0``, ``""``), an empty map or slice. Unlike :func:`encode` it
    keeps the key order and every field the layouts do not model (untyped fields are left alone), so a
    typed object re-encoded by the operator can be compared with the data it was decoded from."""
    if code.startswith("*"):
        code = code[1:]
    if code.startswith("["):
        return [prune_omitempty(v, code[1:]) for v in value] if isinstance(value, list) else value
    if code.startswith("{"):
        return {k: prune_omitempty(v, code[1:]) for k, v in value.items()} if isinstance(value, dict) else value
    if code not in LAYOUTS or not isinstance(value, dict):
        return value
    known = {name: (omitempty, fcode) for name, omitempty, fcode in fields(code)}
    out: dict[str, Any] = {}
    for key, v in value.items():
        omitempty, fcode = known.get(key, (False, ""))
        if v is not None and omitempty and fcode != "" and _omitted(v, fcode):
            continue
        out[key] = prune_omitempty(v, fcode) if v is not None and fcode else v
    return out


def _extra_pod_spec(value: Any) -> Any:
    """``ExtraPodSpec.MarshalJSON`` (api/v1alpha1/common.go): the inline PodSpec fields, then
    ``containers`` re-declared with omitempty (after every PodSpec field; an empty list is
    omitted), then ``mainContainer``."""
    if not isinstance(value, dict):
        return generic(value)
    out: dict[str, Any] = {}
    pod = {k: v for k, v in value.items() if k != "mainContainer"}
    if pod:
        out.update(encode(pod, "PodSpec"))
        containers = out.pop("containers", None)
        if containers:
            out["containers"] = containers
    if value.get("mainContainer") is not None:
        out["mainContainer"] = encode(value["mainContainer"], "Container")
    return out


def generic(value: Any) -> Any:
    """An untyped value: objects with sorted keys (Go's ``map`` order)."""
    if isinstance(value, dict):
        return {k: generic(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [generic(v) for v in value]
    return value


def go_marshal(value: Any) -> str:
    """``json.Marshal`` of an already ordered structure (HTML characters escaped as Go does).

    The same text as :func:`dynamo_schema._k8s._gofmt.go_json` (decisions.md D28): exact ``dict``,
    ``list``, ``str``, ``int``, ``bool`` and ``None`` are written here, strings through the C JSON
    string encoder when they hold none of the characters Go escapes differently (``<``, ``>``,
    ``&``, U+2028, U+2029, lone surrogates); floats, subclasses and anything else go to ``go_json``.
    ``tests/k8s/test_golayout_fast.py`` compares both on the corpus hash inputs and generated values."""
    return _fast_json(value)


def _fast_json(v: Any) -> str:
    t = type(v)
    if t is str:
        return go_json(v) if _go_special(v) else _ENCODE_STR(v)
    if t is dict:
        return "{" + ",".join([(_ENCODE_STR(k) if type(k) is str and not _go_special(k) else go_json(str(k)))
                               + ":" + _fast_json(x) for k, x in v.items()]) + "}"
    if t is list or t is tuple:
        return "[" + ",".join([_fast_json(x) for x in v]) + "]"
    if t is int:
        return int.__repr__(v)
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "null"
    return go_json(v)


_GO_SPECIAL_RX: Any = None


def _go_special(s: str) -> bool:
    """Whether ``s`` has a character Go's encoder writes differently from Python's: ``<``, ``>``, ``&``,
    U+2028, U+2029 or a lone surrogate. An ASCII string can only have the first three: the regular
    expression of all six (its surrogate range alone costs ~0.4 ms to compile, a cold run's budget) is
    compiled for the first string that is not ASCII."""
    global _GO_SPECIAL_RX
    if s.isascii():
        return "<" in s or ">" in s or "&" in s
    if _GO_SPECIAL_RX is None:
        import re

        _GO_SPECIAL_RX = re.compile("[<>&\u2028\u2029\ud800-\udfff]").search
    return _GO_SPECIAL_RX(s) is not None


def _encode_str() -> Any:
    from json.encoder import encode_basestring  # the C encoder: escapes '"', '\\' and controls as Go does

    return encode_basestring


_ENCODE_STR: Any = _encode_str()


def marshal(value: Any, code: str | None) -> str:
    """``json.Marshal`` of ``value`` typed as ``code``."""
    return _fast_json(encode(value, code))


_BIN = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DEC = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_DEC_SUFFIX = {v: k for k, v in _DEC.items()}
_BIN_SUFFIX = {v // 10: k for k, v in _BIN.items()}


def canonical_quantity(value: Any) -> str:
    """``resource.Quantity`` canonical string (what Go's ``Quantity.MarshalJSON`` writes).

    Parse keeps the suffix family (binary ``Ki``…, decimal SI, ``e`` exponent); values finer than
    ``1n`` round up (away from zero). Canonical form: binary values of magnitude ≥ 1024 that are
    whole numbers use the largest 1024-power suffix that divides them; everything else is
    ``mantissa × 10^e`` with no trailing zeros and ``e`` lowered to a multiple of 3 (``1000`` →
    ``1k``, ``0.5`` → ``500m``, ``1500`` → ``1500``). Unparseable input is returned unchanged.
    """
    if isinstance(value, bool):
        return str(value).lower()
    text = repr(value) if isinstance(value, float) else str(value)
    trimmed = json_quantity_text(text)  # Quantity.UnmarshalJSON trims (unescaped JSON bytes)
    parts = split_quantity(trimmed)
    if parts is None:
        return "0" if digitless_quantity(trimmed) is not None else text  # "m", ".", "+.Mi": Go reads 0
    if trimmed != "0" and _go_keeps_text(trimmed):
        return trimmed
    number, suffix = parts
    # exact arithmetic whatever the size (the default context rounds to 28 digits and stops at
    # exponent 999,999); resource.Quantity keeps arbitrary precision (inf.Dec)
    with localcontext(quantity_context(number)):
        return _canonical(number, suffix)


_BIN_EXP = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_INT64 = 2**63 - 1


def _go_keeps_text(text: str) -> bool:
    """Whether ``ParseQuantity(text)`` keeps ``text`` as the quantity's string, which ``MarshalJSON`` then writes
    as it is (apimachinery v0.36 quantity.go: the int64 fast path "reuses the string" when it looks canonical,
    a heuristic that also keeps a ``+`` sign, leading zeros and an ``e0``/``E3`` exponent). ``text`` parses."""
    i = 1 if text[:1] in ("+", "-") else 0
    n = len(text)
    while i < n and text[i] == "0":  # parseQuantityString strips leading zeros
        i += 1
    if i >= n:
        return False  # all zeros: num "0", the canonical "0"
    j = i
    while j < n and text[j].isdigit():
        j += 1
    num = text[i:j] or "0"
    denom = ""
    if j < n and text[j] == ".":
        k = j + 1
        while k < n and text[k].isdigit():
            k += 1
        denom, j = text[j + 1:k], k
    suffix = text[j:]
    if suffix in _BIN_EXP:
        exponent = _BIN_EXP[suffix]
        if denom:
            return False  # precision -1: the slow path
        mantissa = 1 << exponent
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1
        scale = 0
    else:
        if suffix in _DEC:
            exponent = _DEC[suffix]
        elif len(suffix) > 1 and suffix[0] in "eE":
            exponent = int(suffix[1:])
            if not -2**31 <= exponent < 2**31:
                return False  # int32(parsed) wraps: left to the canonical form
        else:
            return False
        mantissa, precision, scale = 1, 18 - (len(num) + len(denom)), exponent
    if precision < 0:
        return False
    scale -= len(denom)
    if scale < -9:
        return False
    shifted = num + denom
    if int(shifted) * mantissa > _INT64:  # int64Multiply overflows: the slow path
        return False
    if suffix in _BIN_EXP:
        return int(shifted) & 0x07 != 0
    return scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"


def _canonical(number: Decimal, suffix: str) -> str:
    if suffix in _BIN:
        fmt = "bin"
        amount = number * (Decimal(2) ** _BIN[suffix])
    elif suffix[:1] in ("e", "E") and len(suffix) > 1:  # "E" alone is exa (decimal SI)
        fmt = "exp"
        amount = number.scaleb(int(suffix[1:]))
    else:
        fmt = "dec"
        amount = number.scaleb(_DEC[suffix])
    if int(amount.as_tuple().exponent) < -9:  # finer than 1n: round up (never on huge exponents)
        amount = amount.quantize(Decimal("1e-9"), rounding=ROUND_UP)
    if fmt == "bin":
        if amount > _MAX_INT64:  # ParseQuantity caps binary quantities at MaxInt64
            amount = _MAX_INT64
        elif amount < -_MAX_INT64:
            amount = -_MAX_INT64
        if -1024 < amount < 1024 or amount != amount.to_integral_value():
            fmt = "dec"
        else:
            n = int(amount)
            exp = 0
            while n != 0 and n % 1024 == 0 and exp < 6:
                n //= 1024
                exp += 1
            return f"{n}{_BIN_SUFFIX.get(exp, '')}"
    if amount == 0:
        return "0"
    _, digits, exponent = amount.normalize().as_tuple()
    exp10 = int(exponent)
    low = exp10 - (exp10 % 3)
    # the mantissa as text (an int of more than 4,300 digits cannot be printed)
    mantissa = ("-" if amount < 0 else "") + "".join(map(str, digits)) + "0" * (exp10 - low)
    if fmt == "exp":
        return f"{mantissa}" if low == 0 else f"{mantissa}e{low}"
    # a decimal SI exponent past the table (beyond E): Go's CanonicalizeBytes ignores constructBytes' failure
    # and writes the mantissa alone ("1000E" is written "1"; apimachinery v0.36 quantity.go)
    return f"{mantissa}{_DEC_SUFFIX.get(low, '')}"


_MAX_INT64 = Decimal(2**63 - 1)


def quantity_context(number: Decimal) -> Context:
    """A decimal context exact for quantity arithmetic on ``number`` (digits + suffix + nano)."""
    return Context(prec=len(number.as_tuple().digits) + 60, Emax=MAX_EMAX, Emin=MIN_EMIN,
                   traps=[InvalidOperation, DivisionByZero, Overflow])
