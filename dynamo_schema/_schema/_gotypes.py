"""The Go types the operator's mutating webhooks decode a DGD, DCD or DGDR into, read off the bundled CRD
schema (docs/decisions.md D34).

The CRD schemas are generated from the Go types (controller-gen), so the schema gives the shape of each
Go value: a ``type: object`` with ``properties`` is a struct, with ``additionalProperties`` a map, a
``type: array`` a slice, ``integer``/``number``/``string``/``boolean`` the scalars (``format: int32`` /
``int64``), an int-or-string with the quantity pattern a ``resource.Quantity``, without it an
``intstr.IntOrString``, a preserve-unknown-fields object without properties an untyped
``apiextensionsv1.JSON`` / ``runtime.RawExtension``. A field is written by ``json.Marshal`` even at its
zero value (no ``omitempty``) exactly where controller-gen marks it ``required``, plus the few optional
fields of the tables below. What the schema cannot tell is kept in small tables with the Go source they
come from: the Go type names (``encoding/json`` names them in its errors), the value (non-pointer) struct
fields (``omitempty`` never drops a struct) and the named string types.

Sources: ``deploy/operator/api/v1beta1`` (``common.go``, ``dynamocomponentdeployment_types.go``,
``dynamographdeployment_types.go``, ``dynamographdeploymentrequest_types.go``), ``k8s.io/api`` core/v1 and
batch/v1, ``k8s.io/apimachinery`` meta/v1, ``sigs.k8s.io/gateway-api-inference-extension`` apix/config/v1alpha1
(``EndpointPickerConfig``).
"""

from __future__ import annotations

from .._core._consts import NULL_REF

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["EMBEDDED", "GoType", "embedded_in", "root_type"]

#: schema ``$defs`` name -> Go type (package-qualified as ``reflect.Type.String()`` prints it)
_DEF_GO: dict[str, str] = {
    # nvidia.com/v1beta1
    "DynamoGraphDeploymentSpec": "v1beta1.DynamoGraphDeploymentSpec",
    "DynamoComponentDeploymentSharedSpec": "v1beta1.DynamoComponentDeploymentSharedSpec",
    "DynamoComponentDeploymentSpec": "v1beta1.DynamoComponentDeploymentSpec",
    "DynamoGraphDeploymentRequestSpec": "v1beta1.DynamoGraphDeploymentRequestSpec",
    "DynamoGraphDeploymentSpecExperimental": "v1beta1.DynamoGraphDeploymentExperimentalSpec",
    "DynamoGraphDeploymentSpecTopologyConstraint": "v1beta1.SpecTopologyConstraint",
    "Checkpoint": "v1beta1.ComponentCheckpointConfig",
    "CompilationCache": "v1beta1.CompilationCacheConfig",
    "ComponentRoleSpec": "v1beta1.MultinodeRoleSpec",
    "EmptyObject": "v1beta1.ScalingAdapter",
    "EppConfig": "v1beta1.EPPConfig",
    "Experimental": "v1beta1.ExperimentalSpec",
    "ExtraClientPod": "v1beta1.GMSClientPodSpec",
    "Failover": "v1beta1.FailoverSpec",
    "GpuMemoryService": "v1beta1.GPUMemoryServiceSpec",
    "Grove": "v1beta1.GroveSpec",
    "Identity": "v1beta1.DynamoCheckpointIdentity",
    "Job": "v1beta1.ComponentCheckpointJobConfig",
    "KvTransferPolicy": "v1beta1.KvTransferPolicy",
    "ModelRef": "v1beta1.ModelReference",
    "MultinodeSpec": "v1beta1.MultinodeSpec",
    "DynamoComponentDeploymentSpecMultinodeSpec": "v1beta1.MultinodeSpec",
    "ProviderOverride": "v1beta1.ProviderOverride",
    "Restart": "v1beta1.Restart",
    "Strategy": "v1beta1.RestartStrategy",
    "TopologyConstraint": "v1beta1.TopologyConstraint",
    "Workload": "v1beta1.WorkloadSpec",
    "Sla": "v1beta1.SLASpec",
    "ModelCache": "v1beta1.ModelCacheSpec",
    "Overrides": "v1beta1.OverridesSpec",
    "Features": "v1beta1.FeaturesSpec",
    "Mocker": "v1beta1.MockerSpec",
    "Hardware": "v1beta1.HardwareSpec",
    # the EPP's EndpointPickerConfig (apix/config/v1alpha1)
    "Config": "v1alpha1.EndpointPickerConfig",
    "Plugin": "v1alpha1.PluginSpec",
    "SchedulingProfile": "v1alpha1.SchedulingProfile",
    "SchedulingProfilePlugin": "v1alpha1.SchedulingPlugin",
    "SaturationDetector": "v1alpha1.SaturationDetector",
    # batch/v1 (DGDR overrides.profilingJob)
    "ProfilingJob": "v1.JobSpec",
    "PodFailurePolicy": "v1.PodFailurePolicy",
    "Rule": "v1.PodFailurePolicyRule",
    "OnExitCodes": "v1.PodFailurePolicyOnExitCodesRequirement",
    "OnPodCondition": "v1.PodFailurePolicyOnPodConditionsPattern",
    "SuccessPolicy": "v1.SuccessPolicy",
    "SuccessPolicyRule": "v1.SuccessPolicyRule",
    # core/v1 and meta/v1 under the generator's names
    "Template": "v1.PodTemplateSpec",
    "TemplateSpec": "v1.PodSpec",
    "TemplateSpecContainer": "v1.Container",
    "PodSpecContainer": "v1.Container",
    "PodTemplateObjectMeta": "v1.ObjectMeta",
    "Metadata": "v1.ObjectMeta",
    "ConfigMapRef": "v1.ConfigMapKeySelector",
    "EnvFromSourceConfigMapRef": "v1.ConfigMapEnvSource",
    "Claim": "v1.ResourceClaim",
    "Item": "v1.DownwardAPIVolumeFile",
    "HttpHeader": "v1.HTTPHeader",
    "PostStart": "v1.LifecycleHandler",
    "Preference": "v1.NodeSelectorTerm",
    "PreferredDuringSchedulingIgnoredDuringExecutionItem": "v1.PreferredSchedulingTerm",
    "PodAffinityPreferredDuringSchedulingIgnoredDuringExecutionItem": "v1.WeightedPodAffinityTerm",
    "RequiredDuringSchedulingIgnoredDuringExecution": "v1.NodeSelector",
    "ResizePolicyItem": "v1.ContainerResizePolicy",
    "Spec": "v1.PersistentVolumeClaimSpec",
    "SpecResourceRequirements": "v1.VolumeResourceRequirements",
    "VolumeClaimTemplate": "v1.PersistentVolumeClaimTemplate",
    "AwsElasticBlockStore": "v1.AWSElasticBlockStoreVolumeSource",
    "AzureDisk": "v1.AzureDiskVolumeSource",
    "AzureFile": "v1.AzureFileVolumeSource",
    "Cephfs": "v1.CephFSVolumeSource",
    "Cinder": "v1.CinderVolumeSource",
    "Fc": "v1.FCVolumeSource",
    "FlexVolume": "v1.FlexVolumeSource",
    "Flocker": "v1.FlockerVolumeSource",
    "GcePersistentDisk": "v1.GCEPersistentDiskVolumeSource",
    "GitRepo": "v1.GitRepoVolumeSource",
    "Glusterfs": "v1.GlusterfsVolumeSource",
    "Iscsi": "v1.ISCSIVolumeSource",
    "PhotonPersistentDisk": "v1.PhotonPersistentDiskVolumeSource",
    "PortworxVolume": "v1.PortworxVolumeSource",
    "Quobyte": "v1.QuobyteVolumeSource",
    "Rbd": "v1.RBDVolumeSource",
    "ScaleIO": "v1.ScaleIOVolumeSource",
    "Storageos": "v1.StorageOSVolumeSource",
    "VsphereVolume": "v1.VsphereVirtualDiskVolumeSource",
    "ClusterTrustBundle": "v1.ClusterTrustBundleProjection",
    "PodCertificate": "v1.PodCertificateProjection",
    "ServiceAccountToken": "v1.ServiceAccountTokenProjection",
    "VolumeProjectionConfigMapVolumeSource": "v1.ConfigMapProjection",
    "VolumeProjectionDownwardAPIVolumeSource": "v1.DownwardAPIProjection",
    "ExitCodes": "v1.ContainerRestartRuleOnExitCodes",
    "Sleep": "v1.SleepAction",
    "DataSource": "v1.TypedLocalObjectReference",
    "DataSourceRef": "v1.TypedObjectReference",
    "FileKeyRef": "v1.FileKeySelector",
    "SchedulingGroup": "v1.PodSchedulingGroup",
    "RestartPolicyRule": "v1.ContainerRestartRule",
}

#: a field whose Go type is not the one of its ``$defs`` entry (the generator merged same-shaped types)
_FIELD_GO: dict[tuple[str, str], str] = {
    ("EnvVarSource", "secretKeyRef"): "v1.SecretKeySelector",
    ("EnvFromSource", "secretRef"): "v1.SecretEnvSource",
    ("PodSecurityContext", "seccompProfile"): "v1.SeccompProfile",
    ("SecurityContext", "seccompProfile"): "v1.SeccompProfile",
    ("PodSecurityContext", "sysctls"): "v1.Sysctl",
    ("Container", "resources"): "v1.ResourceRequirements",
    ("EphemeralContainer", "resources"): "v1.ResourceRequirements",
    ("PodSpec", "resources"): "v1.ResourceRequirements",
    ("ProjectedVolumeSource", "sources"): "v1.VolumeProjection",
    ("VolumeProjection", "secret"): "v1.SecretProjection",
    ("NodeSelectorTerm", "matchExpressions"): "v1.NodeSelectorRequirement",
    ("NodeSelectorTerm", "matchFields"): "v1.NodeSelectorRequirement",
    ("Affinity", "podAntiAffinity"): "v1.PodAntiAffinity",
    ("PodSpec", "schedulingGates"): "v1.PodSchedulingGate",
}

#: fields promoted from an embedded struct: (Go struct, json field) -> the embedded field's Go name, which
#: ``encoding/json`` puts in the path of its errors (``startupProbe.ProbeHandler.httpGet.port``)
_PROBE_HANDLER = ("exec", "httpGet", "tcpSocket", "grpc")
_VOLUME_SOURCE = ("hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs",
                  "iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker",
                  "downwardAPI", "fc", "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk",
                  "photonPersistentDisk", "projected", "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral",
                  "image")
_LOCAL_OBJECT_REFERENCE = ("SecretEnvSource", "ConfigMapEnvSource", "SecretKeySelector", "ConfigMapKeySelector",
                           "ConfigMapVolumeSource", "ConfigMapProjection", "SecretProjection")
_CONTAINER_FIELDS = ("name", "image", "command", "args", "workingDir", "ports", "envFrom", "env", "resources",
                     "resizePolicy", "restartPolicy", "restartPolicyRules", "volumeMounts", "volumeDevices",
                     "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "terminationMessagePath",
                     "terminationMessagePolicy", "imagePullPolicy", "securityContext", "stdin", "stdinOnce", "tty")
EMBEDDED: dict[tuple[str, str], str] = {
    **{("Probe", f): "ProbeHandler" for f in _PROBE_HANDLER},
    **{("EphemeralContainer", f): "EphemeralContainerCommon" for f in _CONTAINER_FIELDS},
    **{("Volume", f): "VolumeSource" for f in _VOLUME_SOURCE},
    **{(s, "name"): "LocalObjectReference" for s in _LOCAL_OBJECT_REFERENCE},
    # apix/config/v1alpha1 EndpointPickerConfig: metav1.TypeMeta `json:",inline"`
    ("EndpointPickerConfig", "apiVersion"): "TypeMeta",
    ("EndpointPickerConfig", "kind"): "TypeMeta",
}
#: structs that embed another for every field but their own: struct -> (embedded Go name, own json fields)
_EMBEDDING: dict[str, tuple[str, frozenset[str]]] = {
    # api/v1beta1 dynamocomponentdeployment_types.go: BackendFramework, then the shared spec `json:",inline"`
    "DynamoComponentDeploymentSpec": ("DynamoComponentDeploymentSharedSpec", frozenset({"backendFramework"})),
}


def embedded_in(struct: str, key: str) -> str | None:
    """The Go name of the embedded struct field ``key`` of ``struct`` is promoted from, or None."""
    hit = EMBEDDED.get((struct, key))
    if hit is not None:
        return hit
    whole = _EMBEDDING.get(struct)
    return whole[0] if whole is not None and key not in whole[1] else None

#: named string / number types: (Go struct, json field) -> ``reflect.Type.String()``
_NAMED: dict[tuple[str, str], str] = {
    ("DynamoComponentDeploymentSharedSpec", "type"): "v1beta1.ComponentType",
    ("DynamoComponentDeploymentSpec", "type"): "v1beta1.ComponentType",
    ("GPUMemoryServiceSpec", "mode"): "v1beta1.GPUMemoryServiceMode",
    ("FailoverSpec", "mode"): "v1beta1.GPUMemoryServiceMode",
    ("ComponentCheckpointConfig", "mode"): "v1beta1.CheckpointMode",
    ("ComponentCheckpointConfig", "startupPolicy"): "v1beta1.CheckpointStartupPolicy",
    ("ComponentCheckpointConfig", "deletionPolicy"): "v1beta1.CheckpointDeletionPolicy",
    ("TopologyConstraint", "packDomain"): "v1beta1.TopologyDomain",
    ("SpecTopologyConstraint", "packDomain"): "v1beta1.TopologyDomain",
    ("KvTransferPolicy", "domain"): "v1beta1.TopologyDomain",
    ("KvTransferPolicy", "enforcement"): "v1beta1.KvTransferEnforcement",
    ("KvTransferPolicy", "preferredWeight"): "float32",
    ("RestartStrategy", "type"): "v1beta1.RestartStrategyType",
    ("DynamoGraphDeploymentRequestSpec", "backend"): "v1beta1.BackendType",
    ("DynamoGraphDeploymentRequestSpec", "searchStrategy"): "v1beta1.SearchStrategy",
    ("HardwareSpec", "gpuSku"): "v1beta1.GPUSKUType",
    ("SLASpec", "optimizationType"): "v1beta1.OptimizationType",
    ("SchedulingPlugin", "weight"): "int",
    ("SaturationDetector", "queueDepthThreshold"): "int",
    ("PodFailurePolicyOnExitCodesRequirement", "values"): "int32",  # []int32, the schema items have no format
    ("ContainerRestartRuleOnExitCodes", "values"): "int32",
    ("Container", "imagePullPolicy"): "v1.PullPolicy",
    ("Container", "terminationMessagePolicy"): "v1.TerminationMessagePolicy",
    ("Container", "restartPolicy"): "v1.ContainerRestartPolicy",
    ("EphemeralContainer", "imagePullPolicy"): "v1.PullPolicy",
    ("EphemeralContainer", "terminationMessagePolicy"): "v1.TerminationMessagePolicy",
    ("ContainerPort", "protocol"): "v1.Protocol",
    ("PodSpec", "restartPolicy"): "v1.RestartPolicy",
    ("PodSpec", "dnsPolicy"): "v1.DNSPolicy",
    ("PodSpec", "preemptionPolicy"): "v1.PreemptionPolicy",
    ("HTTPGetAction", "scheme"): "v1.URIScheme",
    ("Toleration", "operator"): "v1.TolerationOperator",
    ("Toleration", "effect"): "v1.TaintEffect",
    ("VolumeMount", "mountPropagation"): "v1.MountPropagationMode",
    ("VolumeMount", "recursiveReadOnly"): "v1.RecursiveReadOnlyMode",
    ("EmptyDirVolumeSource", "medium"): "v1.StorageMedium",
    ("HostPathVolumeSource", "type"): "v1.HostPathType",
    ("TopologySpreadConstraint", "whenUnsatisfiable"): "v1.UnsatisfiableConstraintAction",
    ("TopologySpreadConstraint", "nodeAffinityPolicy"): "v1.NodeInclusionPolicy",
    ("TopologySpreadConstraint", "nodeTaintsPolicy"): "v1.NodeInclusionPolicy",
    ("NodeSelectorRequirement", "operator"): "v1.NodeSelectorOperator",
    ("LabelSelectorRequirement", "operator"): "v1.LabelSelectorOperator",
    ("ContainerResizePolicy", "resourceName"): "v1.ResourceName",
    ("ContainerResizePolicy", "restartPolicy"): "v1.ResourceResizeRestartPolicy",
    ("PodOS", "name"): "v1.OSName",
    ("SecurityContext", "procMount"): "v1.ProcMountType",
    ("SeccompProfile", "type"): "v1.SeccompProfileType",
    ("AppArmorProfile", "type"): "v1.AppArmorProfileType",
    ("PersistentVolumeClaimSpec", "volumeMode"): "v1.PersistentVolumeMode",
    ("JobSpec", "completionMode"): "v1.CompletionMode",
    ("JobSpec", "podReplacementPolicy"): "v1.PodReplacementPolicy",
    ("PodFailurePolicyRule", "action"): "v1.PodFailurePolicyAction",
    ("PodFailurePolicyOnExitCodesRequirement", "operator"): "v1.PodFailurePolicyOnExitCodesOperator",
    ("PodFailurePolicyOnPodConditionsPattern", "type"): "v1.PodConditionType",
    ("PodFailurePolicyOnPodConditionsPattern", "status"): "v1.ConditionStatus",
    ("Capabilities", "add"): "v1.Capability",
    ("Capabilities", "drop"): "v1.Capability",
    ("PersistentVolumeClaimSpec", "accessModes"): "v1.PersistentVolumeAccessMode",
    ("PodSecurityContext", "fsGroupChangePolicy"): "v1.PodFSGroupChangePolicy",
    ("PodSecurityContext", "seLinuxChangePolicy"): "v1.PodSELinuxChangePolicy",
    ("PodSecurityContext", "supplementalGroupsPolicy"): "v1.SupplementalGroupsPolicy",
    ("PodReadinessGate", "conditionType"): "v1.PodConditionType",
    ("Lifecycle", "stopSignal"): "v1.Signal",
    ("ContainerRestartRule", "action"): "v1.ContainerRestartRuleAction",
    ("ContainerRestartRuleOnExitCodes", "operator"): "v1.ContainerRestartRuleOnExitCodesOperator",
    ("AzureDiskVolumeSource", "cachingMode"): "v1.AzureDataDiskCachingMode",
    ("AzureDiskVolumeSource", "kind"): "v1.AzureDataDiskKind",
    ("ImageVolumeSource", "pullPolicy"): "v1.PullPolicy",
    ("EphemeralContainer", "restartPolicy"): "v1.ContainerRestartPolicy",
}

#: named map / slice types
_NAMED_CONTAINER: dict[tuple[str, str], str] = {
    ("ResourceRequirements", "limits"): "v1.ResourceList",
    ("ResourceRequirements", "requests"): "v1.ResourceList",
    ("VolumeResourceRequirements", "limits"): "v1.ResourceList",
    ("VolumeResourceRequirements", "requests"): "v1.ResourceList",
    ("PodSpec", "overhead"): "v1.ResourceList",
    ("Capabilities", "add"): "[]v1.Capability",
    ("Capabilities", "drop"): "[]v1.Capability",
    ("PersistentVolumeClaimSpec", "accessModes"): "[]v1.PersistentVolumeAccessMode",
    ("EndpointPickerConfig", "featureGates"): "v1alpha1.FeatureGates",
}

#: fields of a non-pointer struct type: ``json.Marshal`` writes them even when absent (``omitempty``
#: does not drop a struct); the operator's ``normalizeV1Beta1JSON`` (api/v1beta1/marshal.go) then
#: strips those that encode to ``{}``
_VALUE_STRUCTS: frozenset[tuple[str, str]] = frozenset({
    ("PodTemplateSpec", "metadata"), ("PodTemplateSpec", "spec"),
    ("Container", "resources"), ("EphemeralContainer", "resources"),
    ("GMSClientPodSpec", "podTemplate"),
    ("PreferredSchedulingTerm", "preference"), ("WeightedPodAffinityTerm", "podAffinityTerm"),
    ("PersistentVolumeClaimTemplate", "metadata"), ("PersistentVolumeClaimTemplate", "spec"),
    ("PersistentVolumeClaimSpec", "resources"), ("JobSpec", "template"),
})

#: optional fields whose json tag has no ``omitempty`` (the schema does not mark them required):
#: apix/config/v1alpha1 ``PluginSpec.Name`` (``json:"name"``; ``Parameters``/``SchedulingPlugin.Weight``
#: are a RawMessage and a pointer, written as ``null``, which the API server prunes)
_NO_OMITEMPTY: frozenset[tuple[str, str]] = frozenset({("PluginSpec", "name")})


class GoType:
    """One Go type: ``kind`` is struct, map, slice, string, int, float, bool, quantity, intorstr or any;
    ``name`` is how ``encoding/json`` prints it (``int32``, ``[]string``, ``v1.PodTemplateSpec``)."""

    __slots__ = ("_fields", "_schema", "elem", "kind", "name", "node", "plan")

    def __init__(self, kind: str, name: str, node: Any = None, schema: Any = None, elem: GoType | None = None) -> None:
        self.kind = kind
        self.name = name
        self.node = node
        self._schema = schema
        self.elem = elem
        self._fields: dict[str, tuple[GoType, bool, bool]] | None = None
        #: what the webhook's patch can change in a value of this type, worked out once (``_godecode``)
        self.plan: Any = None

    @property
    def struct(self) -> str:
        """The unqualified struct name (``reflect.Type.Name()``)."""
        return self.name.rpartition(".")[2]

    def fields(self) -> dict[str, tuple[GoType, bool, bool]]:
        """json name -> (type, written at its zero value, non-pointer struct)."""
        if self._fields is None:
            out: dict[str, tuple[GoType, bool, bool]] = {}
            node = self.node if isinstance(self.node, dict) else {}
            required = set(node.get("required") or ())
            for key, raw in (node.get("properties") or {}).items():
                t = _type_of(self._schema, raw, self.struct, key)
                value_struct = (self.struct, key) in _VALUE_STRUCTS
                out[key] = (t, key in required or (self.struct, key) in _NO_OMITEMPTY, value_struct)
            self._fields = out
        return self._fields


def is_null_branch(node: Any) -> bool:
    """A nullable ``anyOf``'s null branch: pydantic's ``{"type": "null"}`` or the exported schemas'
    ``NULL_REF`` (D46)."""
    return bool(node == {"type": "null"} or node == NULL_REF)


def _resolve(schema: dict[str, Any], raw: Any) -> tuple[dict[str, Any], str]:
    """The schema node behind ``$ref`` and a nullable ``anyOf``, and its ``$defs`` name (or "")."""
    name = ""
    node = raw if isinstance(raw, dict) else {}
    for _ in range(8):
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rpartition("/")[2]
            node = (schema.get("$defs") or {}).get(name) or {}
            continue
        branches = node.get("anyOf")
        if isinstance(branches, list) and any(is_null_branch(b) for b in branches):
            rest = [b for b in branches if not is_null_branch(b)]
            if len(rest) == 1 and isinstance(rest[0], dict):
                node = rest[0]
                continue
        break
    return node, name


def _is_quantity(node: dict[str, Any]) -> bool:
    return any(isinstance(b, dict) and "pattern" in b for b in node.get("anyOf") or ())


_SCALARS = {"string": "string", "boolean": "bool", "number": "float64"}


def _type_of(schema: dict[str, Any], raw: Any, parent: str, key: str) -> GoType:
    node, defname = _resolve(schema, raw)
    if node.get("x-kubernetes-int-or-string"):
        if _is_quantity(node):
            return GoType("quantity", "resource.Quantity", node, schema)
        return GoType("intorstr", "intstr.IntOrString", node, schema)
    t = node.get("type")
    if t == "object":
        if node.get("properties") is not None and (node.get("properties") or not node.get("x-kubernetes-preserve-unknown-fields")):
            go = _FIELD_GO.get((parent, key)) or _DEF_GO.get(defname) or (f"v1.{defname}" if defname else "")
            if go:
                return GoType("struct", go, node, schema)
        addl = node.get("additionalProperties")
        if isinstance(addl, dict):
            elem = _type_of(schema, addl, parent, key)
            name = _NAMED_CONTAINER.get((parent, key)) or f"map[string]{elem.name}"
            return GoType("map", name, node, schema, elem)
        return GoType("any", "interface {}", node, schema)
    if t == "array":
        elem = _type_of(schema, node.get("items"), parent, key)
        name = _NAMED_CONTAINER.get((parent, key)) or f"[]{elem.name}"
        return GoType("slice", name, node, schema, elem)
    if t == "integer":
        fmt = node.get("format")
        return GoType("int", _NAMED.get((parent, key)) or (fmt if fmt in ("int32", "int64") else "int64"), node, schema)
    if t in _SCALARS:
        kind = "float" if t == "number" else ("bool" if t == "boolean" else "string")
        return GoType(kind, _NAMED.get((parent, key)) or _SCALARS[t], node, schema)
    return GoType("any", "interface {}", node, schema)


_ROOTS = {
    "DynamoGraphDeployment": "v1beta1.DynamoGraphDeployment",
    "DynamoComponentDeployment": "v1beta1.DynamoComponentDeployment",
    "DynamoGraphDeploymentRequest": "v1beta1.DynamoGraphDeploymentRequest",
}
_CACHE: dict[tuple[int, str], tuple[Any, GoType]] = {}


def root_type(schema: dict[str, Any], kind: str) -> GoType | None:
    """The Go struct of a v1beta1 DGD / DCD / DGDR with only its ``spec`` (the API server owns
    ``metadata``, and drops ``status`` on create and update: status subresource)."""
    if kind not in _ROOTS:
        return None
    hit = _CACHE.get((id(schema), kind))
    if hit is not None and hit[0] is schema:
        return hit[1]
    spec = (schema.get("properties") or {}).get("spec")
    root = GoType("struct", _ROOTS[kind], {"properties": {}}, schema)
    root._fields = {"spec": (_type_of(schema, spec, root.struct, "spec"), False, True)}
    _CACHE[(id(schema), kind)] = (schema, root)
    return root
