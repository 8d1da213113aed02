"""Byte-exact Go ``encoding/json`` output for the Kubernetes types the worker hash covers.

Go marshals struct fields in declaration order and honours ``omitempty``; maps are emitted with
sorted keys. Field orders below are those of ``k8s.io/api/core/v1`` and ``k8s.io/apimachinery``
(``ObjectMeta``) as declared in Go; a field without ``omitempty`` is always written (``containers``
of a PodSpec, ``name`` of a Container, ...). Structs that are not listed here fall back to sorted
keys (an approximation, documented in the report).
"""

from __future__ import annotations

from decimal import ROUND_UP, Decimal
from typing import Any

from .._gofmt import go_json
from .._quantity import go_trim_space, split_quantity

# (json name, omitempty, type name or None). Type names refer to entries of _STRUCTS, or
# "map" (string map, sorted keys), "list:<type>", "quantity", "intorstr".
_F = tuple[str, bool, "str | None"]

_STRUCTS: dict[str, list[tuple[str, bool, str | None]]] = {
    "PodTemplateSpec": [("metadata", False, "ObjectMeta"), ("spec", False, "PodSpec")],
    "ObjectMeta": [
        ("name", True, None), ("generateName", True, None), ("namespace", True, None),
        ("selfLink", True, None), ("uid", True, None), ("resourceVersion", True, None),
        ("generation", True, None), ("creationTimestamp", True, None), ("deletionTimestamp", True, None),
        ("deletionGracePeriodSeconds", True, None), ("labels", True, "map"), ("annotations", True, "map"),
        ("ownerReferences", True, None), ("finalizers", True, None), ("managedFields", True, None),
    ],
    "PodSpec": [
        ("volumes", True, "list:Volume"), ("initContainers", True, "list:Container"),
        ("containers", False, "list:Container"), ("ephemeralContainers", True, None),
        ("restartPolicy", True, None), ("terminationGracePeriodSeconds", True, None),
        ("activeDeadlineSeconds", True, None), ("dnsPolicy", True, None), ("nodeSelector", True, "map"),
        ("serviceAccountName", True, None), ("serviceAccount", True, None),
        ("automountServiceAccountToken", True, None), ("nodeName", True, None), ("hostNetwork", True, None),
        ("hostPID", True, None), ("hostIPC", True, None), ("shareProcessNamespace", True, None),
        ("securityContext", True, "PodSecurityContext"), ("imagePullSecrets", True, None),
        ("hostname", True, None), ("subdomain", True, None), ("affinity", True, None),
        ("schedulerName", True, None), ("tolerations", True, "list:Toleration"), ("hostAliases", True, None),
        ("priorityClassName", True, None), ("priority", True, None), ("dnsConfig", True, None),
        ("readinessGates", True, None), ("runtimeClassName", True, None), ("enableServiceLinks", True, None),
        ("preemptionPolicy", True, None), ("overhead", True, "map"), ("topologySpreadConstraints", True, None),
        ("setHostnameAsFQDN", True, None), ("os", True, None), ("hostUsers", True, None),
        ("schedulingGates", True, None), ("resourceClaims", True, None), ("resources", True, "ResourceRequirements"),
        ("hostnameOverride", True, None), ("workloadRef", True, None),
    ],
    "Container": [
        ("name", False, None), ("image", True, None), ("command", True, None), ("args", True, None),
        ("workingDir", True, None), ("ports", True, "list:ContainerPort"), ("envFrom", True, "list:EnvFromSource"),
        ("env", True, "list:EnvVar"), ("resources", False, "ResourceRequirements"), ("resizePolicy", True, None),
        ("restartPolicy", True, None), ("restartPolicyRules", True, None), ("volumeMounts", True, "list:VolumeMount"),
        ("volumeDevices", True, None), ("livenessProbe", True, "Probe"), ("readinessProbe", True, "Probe"),
        ("startupProbe", True, "Probe"), ("lifecycle", True, None), ("terminationMessagePath", True, None),
        ("terminationMessagePolicy", True, None), ("imagePullPolicy", True, None),
        ("securityContext", True, "SecurityContext"), ("stdin", True, None), ("stdinOnce", True, None),
        ("tty", True, None),
    ],
    "ResourceRequirements": [("limits", True, "qmap"), ("requests", True, "qmap"), ("claims", True, None)],
    "EnvVar": [("name", False, None), ("value", True, None), ("valueFrom", True, "EnvVarSource")],
    "EnvVarSource": [
        ("fieldRef", True, "ObjectFieldSelector"), ("resourceFieldRef", True, "ResourceFieldSelector"),
        ("configMapKeyRef", True, "KeySelector"), ("secretKeyRef", True, "KeySelector"), ("fileKeyRef", True, None),
    ],
    "ObjectFieldSelector": [("apiVersion", True, None), ("fieldPath", False, None)],
    "ResourceFieldSelector": [("containerName", True, None), ("resource", False, None), ("divisor", True, "quantity")],
    "KeySelector": [("name", True, None), ("key", False, None), ("optional", True, None)],
    "EnvFromSource": [("prefix", True, None), ("configMapRef", True, "RefOptional"), ("secretRef", True, "RefOptional")],
    "RefOptional": [("name", True, None), ("optional", True, None)],
    "ContainerPort": [
        ("name", True, None), ("hostPort", True, None), ("containerPort", False, None),
        ("protocol", True, None), ("hostIP", True, None),
    ],
    "VolumeMount": [
        ("name", False, None), ("readOnly", True, None), ("recursiveReadOnly", True, None),
        ("mountPath", False, None), ("subPath", True, None), ("mountPropagation", True, None),
        ("subPathExpr", True, None),
    ],
    "Volume": [
        ("name", False, None), ("hostPath", True, None), ("emptyDir", True, "EmptyDir"),
        ("gcePersistentDisk", True, None), ("awsElasticBlockStore", True, None), ("gitRepo", True, None),
        ("secret", True, "SecretVolume"), ("nfs", True, None), ("iscsi", True, None), ("glusterfs", True, None),
        ("persistentVolumeClaim", True, "PVCVolume"), ("rbd", True, None), ("flexVolume", True, None),
        ("cinder", True, None), ("cephfs", True, None), ("flocker", True, None), ("downwardAPI", True, "DownwardAPIVolume"),
        ("fc", True, None), ("azureFile", True, None), ("configMap", True, "ConfigMapVolume"),
        ("vsphereVolume", True, None), ("quobyte", True, None), ("azureDisk", True, None),
        ("photonPersistentDisk", True, None), ("projected", True, None), ("portworxVolume", True, None),
        ("scaleIO", True, None), ("storageos", True, None), ("csi", True, None), ("ephemeral", True, None),
        ("image", True, None),
    ],
    "EmptyDir": [("medium", True, None), ("sizeLimit", True, "quantity")],
    "DownwardAPIVolume": [("items", True, "list:DownwardAPIVolumeFile"), ("defaultMode", True, None)],
    "DownwardAPIVolumeFile": [
        ("path", False, None), ("fieldRef", True, "ObjectFieldSelector"),
        ("resourceFieldRef", True, "ResourceFieldSelector"), ("mode", True, None),
    ],
    "SecretVolume": [("secretName", True, None), ("items", True, None), ("defaultMode", True, None), ("optional", True, None)],
    "ConfigMapVolume": [("name", True, None), ("items", True, None), ("defaultMode", True, None), ("optional", True, None)],
    "PVCVolume": [("claimName", False, None), ("readOnly", True, None)],
    "Probe": [
        ("exec", True, None), ("httpGet", True, "HTTPGet"), ("tcpSocket", True, "TCPSocket"), ("grpc", True, "GRPC"),
        ("initialDelaySeconds", True, None), ("timeoutSeconds", True, None), ("periodSeconds", True, None),
        ("successThreshold", True, None), ("failureThreshold", True, None),
        ("terminationGracePeriodSeconds", True, None),
    ],
    "HTTPGet": [("path", True, None), ("port", False, None), ("host", True, None), ("scheme", True, None), ("httpHeaders", True, None)],
    "TCPSocket": [("port", False, None), ("host", True, None)],
    "GRPC": [("port", False, None), ("service", False, None)],
    "Toleration": [
        ("key", True, None), ("operator", True, None), ("value", True, None), ("effect", True, None),
        ("tolerationSeconds", True, None),
    ],
    "PodSecurityContext": [
        ("seLinuxOptions", True, None), ("windowsOptions", True, None), ("runAsUser", True, None),
        ("runAsGroup", True, None), ("runAsNonRoot", True, None), ("supplementalGroups", True, None),
        ("supplementalGroupsPolicy", True, None), ("fsGroup", True, None), ("sysctls", True, None),
        ("fsGroupChangePolicy", True, None), ("seccompProfile", True, None), ("appArmorProfile", True, None),
        ("seLinuxChangePolicy", True, None),
    ],
    "SecurityContext": [
        ("capabilities", True, None), ("privileged", True, None), ("seLinuxOptions", True, None),
        ("windowsOptions", True, None), ("runAsUser", True, None), ("runAsGroup", True, None),
        ("runAsNonRoot", True, None), ("readOnlyRootFilesystem", True, None),
        ("allowPrivilegeEscalation", True, None), ("procMount", True, None), ("seccompProfile", True, None),
        ("appArmorProfile", True, None),
    ],
    # Scheduling and selector types (field order of k8s.io/api core/v1 and apimachinery meta/v1).
    "Affinity": [
        ("nodeAffinity", True, "NodeAffinity"), ("podAffinity", True, "PodAffinity"),
        ("podAntiAffinity", True, "PodAffinity"),
    ],
    "NodeAffinity": [
        ("requiredDuringSchedulingIgnoredDuringExecution", True, "NodeSelector"),
        ("preferredDuringSchedulingIgnoredDuringExecution", True, "list:PreferredSchedulingTerm"),
    ],
    "NodeSelector": [("nodeSelectorTerms", False, "list:NodeSelectorTerm")],
    "NodeSelectorTerm": [
        ("matchExpressions", True, "list:NodeSelectorRequirement"),
        ("matchFields", True, "list:NodeSelectorRequirement"),
    ],
    "NodeSelectorRequirement": [("key", False, None), ("operator", False, None), ("values", True, None)],
    "PreferredSchedulingTerm": [("weight", False, "int"), ("preference", False, "NodeSelectorTerm")],
    "PodAffinity": [
        ("requiredDuringSchedulingIgnoredDuringExecution", True, "list:PodAffinityTerm"),
        ("preferredDuringSchedulingIgnoredDuringExecution", True, "list:WeightedPodAffinityTerm"),
    ],
    "PodAffinityTerm": [
        ("labelSelector", True, "LabelSelector"), ("namespaces", True, None), ("topologyKey", False, None),
        ("namespaceSelector", True, "LabelSelector"), ("matchLabelKeys", True, None),
        ("mismatchLabelKeys", True, None),
    ],
    "WeightedPodAffinityTerm": [("weight", False, "int"), ("podAffinityTerm", False, "PodAffinityTerm")],
    "LabelSelector": [("matchLabels", True, "map"), ("matchExpressions", True, "list:LabelSelectorRequirement")],
    "LabelSelectorRequirement": [("key", False, None), ("operator", False, None), ("values", True, None)],
    "TopologySpreadConstraint": [
        ("maxSkew", False, "int"), ("topologyKey", False, None), ("whenUnsatisfiable", False, None),
        ("labelSelector", True, "LabelSelector"), ("minDomains", True, None), ("nodeAffinityPolicy", True, None),
        ("nodeTaintsPolicy", True, None), ("matchLabelKeys", True, None),
    ],
    "KeyToPath": [("key", False, None), ("path", False, None), ("mode", True, None)],
    "LocalObjectReference": [("name", True, None)],
    "ResourceClaim": [("name", False, None), ("request", True, None)],
    "Lifecycle": [("postStart", True, "LifecycleHandler"), ("preStop", True, "LifecycleHandler"), ("stopSignal", True, None)],
    "LifecycleHandler": [
        ("exec", True, None), ("httpGet", True, "HTTPGet"), ("tcpSocket", True, "TCPSocket"), ("sleep", True, None),
    ],
    "HTTPHeader": [("name", False, None), ("value", False, None)],
    # nvidia.com/v1beta1 (deploy/operator/api/v1beta1/{dynamocomponentdeployment_types,common}.go)
    "MultinodeSpec": [("nodeCount", False, None), ("leader", True, None), ("worker", True, None)],
    "CompilationCacheConfig": [("pvcName", False, None), ("mountPath", True, None)],
    "DynamoComponentDeploymentSpec": [
        ("backendFramework", True, None), ("providerOverride", True, "ProviderOverride"), ("name", False, None),
        ("type", True, None), ("runtimeVersionOverride", True, None), ("globalDynamoNamespace", True, None),
        ("podTemplate", True, "PodTemplateSpec"), ("replicas", True, None), ("minAvailable", True, None),
        ("multinode", True, "BetaMultinodeSpec"), ("sharedMemorySize", True, "quantity"),
        ("modelRef", True, "ModelReference"), ("scalingAdapter", True, "ScalingAdapter"),
        ("eppConfig", True, "EPPConfig"), ("frontendSidecar", True, "ptrstr"),
        ("compilationCache", True, "CompilationCacheConfig"), ("topologyConstraint", True, "TopologyConstraint"),
        ("experimental", True, "ExperimentalSpec"),
    ],
    "ProviderOverride": [("apiVersion", False, None), ("target", True, None), ("value", False, None)],
    "BetaMultinodeSpec": [
        ("nodeCount", False, "int"), ("leader", True, "MultinodeRoleSpec"), ("worker", True, "MultinodeRoleSpec"),
    ],
    "MultinodeRoleSpec": [("providerOverride", True, "ProviderOverride")],
    "ModelReference": [("name", False, None), ("revision", True, None)],
    "ScalingAdapter": [],
    "EPPConfig": [("configMapRef", True, "KeySelector"), ("config", True, None)],
    "TopologyConstraint": [("packDomain", False, None)],
    "ExperimentalSpec": [
        ("gpuMemoryService", True, "GPUMemoryServiceSpec"), ("failover", True, "FailoverSpec"),
        ("grove", True, "GroveSpec"), ("checkpoint", True, "ComponentCheckpointConfig"),
    ],
    "GPUMemoryServiceSpec": [
        ("mode", True, None), ("deviceClassName", True, None), ("extraClientContainers", True, None),
        ("extraClientPods", True, "list:GMSClientPodSpec"),
    ],
    "GMSClientPodSpec": [("name", False, None), ("podTemplate", False, "PodTemplateSpec")],
    "FailoverSpec": [("mode", True, None), ("numShadows", True, "int")],
    "GroveSpec": [("forceScalingGroup", True, "bool")],
    "ComponentCheckpointConfig": [
        ("enabled", False, "bool"), ("mode", True, None), ("startupPolicy", True, None),
        ("deletionPolicy", True, None), ("checkpointRef", True, "ptrstr"),
        ("identity", True, "DynamoCheckpointIdentity"), ("targetContainerName", True, None),
        ("job", True, "ComponentCheckpointJobConfig"),
    ],
    "DynamoCheckpointIdentity": [
        ("model", False, None), ("backendFramework", False, None), ("dynamoVersion", True, None),
        ("tensorParallelSize", True, "int"), ("pipelineParallelSize", True, "int"), ("dtype", True, None),
        ("maxModelLen", True, "int"), ("extraParameters", True, "map"),
    ],
    "ComponentCheckpointJobConfig": [
        ("gmsClientContainers", True, None), ("podTemplate", True, "PodTemplateSpec"),
    ],
    # nvidia.com/v1alpha1 (deploy/operator/api/v1alpha1/{dynamocomponentdeployment_types,common}.go),
    # for the legacy (v1) worker hash.
    "AlphaSharedSpec": [
        ("providerOverride", True, "ProviderOverride"), ("annotations", True, "map"), ("labels", True, "map"),
        ("serviceName", True, None), ("componentType", True, None), ("subComponentType", True, None),
        ("runtimeVersionOverride", True, None), ("dynamoNamespace", True, "ptrstr"),
        ("globalDynamoNamespace", True, "bool"), ("resources", True, "AlphaResources"),
        ("autoscaling", True, None), ("envs", True, "list:EnvVar"), ("envFromSecret", True, "ptrstr"),
        ("volumeMounts", True, "list:AlphaVolumeMount"), ("ingress", True, None),
        ("modelRef", True, "ModelReference"), ("sharedMemory", True, "AlphaSharedMemorySpec"),
        ("extraPodMetadata", True, "AlphaExtraPodMetadata"), ("extraPodSpec", True, "AlphaExtraPodSpec"),
        ("livenessProbe", True, "Probe"), ("readinessProbe", True, "Probe"), ("replicas", True, None),
        ("minAvailable", True, None), ("multinode", True, "BetaMultinodeSpec"), ("scalingAdapter", True, None),
        ("eppConfig", True, "EPPConfig"), ("frontendSidecar", True, "AlphaFrontendSidecarSpec"),
        ("checkpoint", True, "AlphaCheckpointConfig"), ("topologyConstraint", True, "TopologyConstraint"),
        ("gpuMemoryService", True, "AlphaGPUMemoryServiceSpec"), ("failover", True, "AlphaFailoverSpec"),
    ],
    "AlphaResources": [
        ("requests", True, "AlphaResourceItem"), ("limits", True, "AlphaResourceItem"),
        ("claims", True, "list:ResourceClaim"),
    ],
    "AlphaResourceItem": [
        ("cpu", True, None), ("memory", True, None), ("gpu", True, None), ("gpuType", True, None),
        ("custom", True, "map"),
    ],
    "AlphaVolumeMount": [("name", True, None), ("mountPoint", True, None), ("useAsCompilationCache", True, "bool")],
    # size is a value-typed resource.Quantity: omitempty never omits it (zero: "0").
    "AlphaSharedMemorySpec": [("disabled", True, "bool"), ("size", False, "quantity0")],
    "AlphaExtraPodMetadata": [("annotations", True, "map"), ("labels", True, "map")],
    "AlphaFrontendSidecarSpec": [
        ("image", False, None), ("args", True, None), ("envFromSecret", True, "ptrstr"), ("envs", True, "list:EnvVar"),
    ],
    "AlphaCheckpointConfig": [
        ("enabled", True, "bool"), ("mode", True, None), ("startupPolicy", True, None),
        ("deletionPolicy", True, None), ("checkpointRef", True, "ptrstr"),
        ("identity", True, "DynamoCheckpointIdentity"), ("targetContainerName", True, None),
        ("job", True, "ComponentCheckpointJobConfig"),
    ],
    "AlphaGPUMemoryServiceSpec": [
        ("enabled", False, "bool"), ("mode", True, None), ("deviceClassName", True, None),
        ("extraClientContainers", True, None), ("extraClientPods", True, "list:GMSClientPodSpec"),
    ],
    "AlphaFailoverSpec": [("enabled", False, "bool"), ("mode", True, None), ("numShadows", True, "int")],
}

# Struct fields of the listed types that refer to further listed types (filled in below the
# scalar rules): affinity, topology spread constraints, secret/configMap items, lifecycle.
_STRUCTS["PodSpec"] = [
    (n, o, {"affinity": "Affinity", "topologySpreadConstraints": "list:TopologySpreadConstraint",
            "imagePullSecrets": "list:LocalObjectReference", "resourceClaims": None}.get(n, t))
    for n, o, t in _STRUCTS["PodSpec"]
]
_STRUCTS["Container"] = [(n, o, "Lifecycle" if n == "lifecycle" else t) for n, o, t in _STRUCTS["Container"]]
_STRUCTS["SecretVolume"] = [(n, o, "list:KeyToPath" if n == "items" else t) for n, o, t in _STRUCTS["SecretVolume"]]
_STRUCTS["ConfigMapVolume"] = [(n, o, "list:KeyToPath" if n == "items" else t) for n, o, t in _STRUCTS["ConfigMapVolume"]]
_STRUCTS["HTTPGet"] = [(n, o, "list:HTTPHeader" if n == "httpHeaders" else t) for n, o, t in _STRUCTS["HTTPGet"]]
_STRUCTS["ResourceRequirements"] = [
    (n, o, "list:ResourceClaim" if n == "claims" else t) for n, o, t in _STRUCTS["ResourceRequirements"]
]


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
    parts = split_quantity(go_trim_space(text))  # Quantity.UnmarshalJSON trims
    if parts is None:
        return text
    number, suffix = parts
    if suffix in _BIN:
        fmt = "bin"
        amount = number * (Decimal(2) ** _BIN[suffix])
    elif suffix[:1] in ("e", "E"):
        fmt = "exp"
        amount = number.scaleb(int(suffix[1:]))
    else:
        fmt = "dec"
        amount = number.scaleb(_DEC[suffix])
    nano = Decimal("1e-9")
    if amount != amount.quantize(nano, rounding=ROUND_UP):
        amount = amount.quantize(nano, rounding=ROUND_UP)
    if fmt == "bin":
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
    mantissa = int("".join(map(str, digits)))
    exp10 = int(exponent)
    low = exp10 - (exp10 % 3)
    mantissa *= 10 ** (exp10 - low)
    if amount < 0:
        mantissa = -mantissa
    if fmt == "exp":
        return f"{mantissa}" if low == 0 else f"{mantissa}e{low}"
    if low in _DEC_SUFFIX:
        return f"{mantissa}{_DEC_SUFFIX[low]}"
    return f"{mantissa}e{low}"


# omitempty scalar fields that are plain (non-pointer) ints/bools in Go: a zero value is omitted.
# Every other int/bool field of the listed structs is a pointer, so an explicit 0/false is written.
_NON_POINTER_SCALARS = {
    ("Probe", "initialDelaySeconds"), ("Probe", "timeoutSeconds"), ("Probe", "periodSeconds"),
    ("Probe", "successThreshold"), ("Probe", "failureThreshold"), ("ContainerPort", "hostPort"),
    ("VolumeMount", "readOnly"), ("PodSpec", "hostNetwork"), ("PodSpec", "hostPID"), ("PodSpec", "hostIPC"),
    ("Container", "stdin"), ("Container", "stdinOnce"), ("Container", "tty"), ("PVCVolume", "readOnly"),
    ("ObjectMeta", "generation"),
    ("DynamoComponentDeploymentSpec", "globalDynamoNamespace"), ("FailoverSpec", "numShadows"),
    ("GroveSpec", "forceScalingGroup"), ("DynamoCheckpointIdentity", "tensorParallelSize"),
    ("DynamoCheckpointIdentity", "pipelineParallelSize"), ("DynamoCheckpointIdentity", "maxModelLen"),
    ("AlphaSharedSpec", "globalDynamoNamespace"), ("AlphaVolumeMount", "useAsCompilationCache"),
    ("AlphaSharedMemorySpec", "disabled"), ("AlphaCheckpointConfig", "enabled"), ("AlphaFailoverSpec", "numShadows"),
}

# Scalar type tags: "int"/"bool" (zero value 0/false when a non-omitempty field is absent) and
# "ptrstr" (a *string: an explicit "" is written).
_SCALAR_TAGS = {"int": 0, "bool": False, "str": "", "ptrstr": ""}


def _is_empty(struct: str, field: str, value: object, ftype: str | None = None) -> bool:
    if value is None:
        return True
    if ftype == "ptrstr":
        return False
    if isinstance(value, (bool, int, float)):
        return (struct, field) in _NON_POINTER_SCALARS and not value
    if isinstance(value, (str, list, dict)):
        return len(value) == 0
    return False


def _encode_value(value: Any, type_name: str | None) -> Any:
    """Turn ``value`` into an ordered structure whose ``json.dumps`` is Go's output."""
    if value is None:
        return None
    if type_name is None:
        return _generic(value)
    if type_name in _SCALAR_TAGS:
        return value
    if type_name.startswith("list:"):
        if not isinstance(value, list):
            return _generic(value)
        inner = type_name[5:]
        return [_encode_value(v, inner) for v in value]
    if type_name == "map":
        if not isinstance(value, dict):
            return _generic(value)
        return {k: _generic(value[k]) for k in sorted(value)}
    if type_name == "qmap":
        if not isinstance(value, dict):
            return _generic(value)
        return {k: canonical_quantity(value[k]) for k in sorted(value)}
    if type_name in ("quantity", "quantity0"):
        return canonical_quantity(value)
    if type_name == "AlphaExtraPodSpec" and isinstance(value, dict):
        # ``ExtraPodSpec.MarshalJSON`` (api/v1alpha1/common.go): the inline PodSpec fields, then
        # ``containers`` re-declared with omitempty (so it follows every PodSpec field and an
        # empty list is omitted), then ``mainContainer``.
        inline: dict[str, Any] = {}
        if any(k != "mainContainer" for k in value):
            inline.update(_encode_value({k: v for k, v in value.items() if k != "mainContainer"}, "PodSpec"))
            containers = inline.pop("containers", None)
            if containers:
                inline["containers"] = containers
        if value.get("mainContainer") is not None:
            inline["mainContainer"] = _encode_value(value["mainContainer"], "Container")
        return inline
    fields = _STRUCTS.get(type_name)
    if fields is None or not isinstance(value, dict):
        return _generic(value)
    out: dict[str, Any] = {}
    known = set()
    for name, omitempty, ftype in fields:
        known.add(name)
        if name not in value:
            if not omitempty:
                out[name] = _zero(ftype)
            continue
        v = value[name]
        if omitempty and _is_empty(type_name, name, v, ftype) and not _is_struct(ftype):
            continue
        if v is None and _is_struct(ftype):
            if omitempty:
                continue
            v = {}
        out[name] = _encode_value(v, ftype)
    return out


def _is_struct(type_name: str | None) -> bool:
    return type_name is not None and (
        (type_name in _STRUCTS and type_name not in ("MultinodeSpec",)) or type_name == "AlphaExtraPodSpec")


def _zero(type_name: str | None) -> Any:
    if type_name == "quantity0":
        return "0"
    if type_name in _SCALAR_TAGS:
        return _SCALAR_TAGS[type_name]
    if type_name is not None and type_name in _STRUCTS:
        return _encode_value({}, type_name)
    if type_name is not None and type_name.startswith("list:"):
        return None
    return ""


def _generic(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _generic(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_generic(v) for v in value]
    return value


def go_marshal(value: Any) -> str:
    """``json.Marshal`` of an already ordered structure (HTML characters escaped as Go does)."""
    return go_json(value)


def encode(value: Any, type_name: str | None) -> Any:
    return _encode_value(value, type_name)
