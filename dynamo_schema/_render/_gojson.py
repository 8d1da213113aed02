"""Byte-exact Go ``encoding/json`` output for the Kubernetes types the worker hash covers.

Go marshals struct fields in declaration order and honours ``omitempty``; maps are emitted with
sorted keys. Field orders below are those of ``k8s.io/api/core/v1`` and ``k8s.io/apimachinery``
(``ObjectMeta``) as declared in Go; a field without ``omitempty`` is always written (``containers``
of a PodSpec, ``name`` of a Container, ...). Structs that are not listed here fall back to sorted
keys (an approximation, documented in the report).
"""

from __future__ import annotations

import json
from typing import Any

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
        ("cinder", True, None), ("cephfs", True, None), ("flocker", True, None), ("downwardAPI", True, None),
        ("fc", True, None), ("azureFile", True, None), ("configMap", True, "ConfigMapVolume"),
        ("vsphereVolume", True, None), ("quobyte", True, None), ("azureDisk", True, None),
        ("photonPersistentDisk", True, None), ("projected", True, None), ("portworxVolume", True, None),
        ("scaleIO", True, None), ("storageos", True, None), ("csi", True, None), ("ephemeral", True, None),
        ("image", True, None),
    ],
    "EmptyDir": [("medium", True, None), ("sizeLimit", True, "quantity")],
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
    # nvidia.com/v1beta1
    "MultinodeSpec": [("nodeCount", False, None), ("leader", True, None), ("worker", True, None)],
    "CompilationCacheConfig": [("pvcName", False, None), ("mountPath", True, None)],
}


def canonical_quantity(value: Any) -> str:
    """A light ``resource.Quantity`` canonicalisation: integers become their decimal string."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    s = str(value)
    if s.endswith("m") and s[:-1].isdigit() and int(s[:-1]) % 1000 == 0:
        return str(int(s[:-1]) // 1000)
    return s


# omitempty scalar fields that are plain (non-pointer) ints/bools in Go: a zero value is omitted.
# Every other int/bool field of the listed structs is a pointer, so an explicit 0/false is written.
_NON_POINTER_SCALARS = {
    ("Probe", "initialDelaySeconds"), ("Probe", "timeoutSeconds"), ("Probe", "periodSeconds"),
    ("Probe", "successThreshold"), ("Probe", "failureThreshold"), ("ContainerPort", "hostPort"),
    ("VolumeMount", "readOnly"), ("PodSpec", "hostNetwork"), ("PodSpec", "hostPID"), ("PodSpec", "hostIPC"),
    ("Container", "stdin"), ("Container", "stdinOnce"), ("Container", "tty"), ("PVCVolume", "readOnly"),
    ("ObjectMeta", "generation"),
}


def _is_empty(struct: str, field: str, value: object) -> bool:
    if value is None:
        return True
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
    if type_name == "quantity":
        return canonical_quantity(value)
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
        if omitempty and _is_empty(type_name, name, v) and not _is_struct(ftype):
            continue
        if v is None and _is_struct(ftype):
            if omitempty:
                continue
            v = {}
        out[name] = _encode_value(v, ftype)
    return out


def _is_struct(type_name: str | None) -> bool:
    return type_name is not None and type_name in _STRUCTS and type_name not in ("MultinodeSpec",)


def _zero(type_name: str | None) -> Any:
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
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def encode(value: Any, type_name: str | None) -> Any:
    return _encode_value(value, type_name)
