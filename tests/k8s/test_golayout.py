"""The shared Go struct layout table and its ``json.Marshal`` encoder (``dynamo_schema._k8s._golayout``).

Expected bytes follow Go's ``encoding/json`` rules applied to the upstream declarations:
k8s.io/api core/v1 v0.36 (the operator's ``go.mod``), dynamo ``deploy/operator/api/v1alpha1`` and
``v1beta1`` at the reference revision. Field names are also checked against the upstream CRDs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from dynamo_schema._k8s._golayout import LAYOUTS, canonical_quantity, encode, fields, is_struct, marshal

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
CRDS = SHARED / "reference" / "dynamo" / "crds"

_SCALARS = {"", "s", "i", "b", "p", "m", "q", "*q", "qm", "io", "json"}


def _base(code: str) -> str:
    while code[:1] in ("[", "{", "*"):
        code = code[1:]
    return code


def test_every_code_is_known() -> None:
    for type_name in LAYOUTS:
        names = [n for n, _, _ in fields(type_name)]
        assert len(names) == len(set(names)), type_name
        for name, _, code in fields(type_name):
            base = _base(code)
            assert base in _SCALARS or base in LAYOUTS or base == "AlphaExtraPodSpec", (type_name, name, code)


def test_value_struct_and_nil_rules() -> None:
    # Container.name has no omitempty (""); Container.resources is a value struct (always {})
    assert marshal({}, "Container") == '{"name":"","resources":{}}'
    # PodSpec.containers has no omitempty: a nil slice is null
    assert marshal({}, "PodSpec") == '{"containers":null}'
    # PodTemplateSpec: metadata/spec are value structs
    assert marshal({}, "PodTemplateSpec") == '{"metadata":{},"spec":{"containers":null}}'
    # GRPCAction: Port int32 `json:"port"`, Service *string `json:"service"`
    assert marshal({"grpc": {}}, "Probe") == '{"grpc":{"port":0,"service":null}}'
    assert marshal({"grpc": {"port": 9, "service": ""}}, "Probe") == '{"grpc":{"port":9,"service":""}}'
    # HTTPGetAction.Port is an IntOrString value without omitempty
    assert marshal({"httpGet": {"path": "/h"}}, "Probe") == '{"httpGet":{"path":"/h","port":0}}'
    # ContainerPort.containerPort int32 without omitempty; hostPort int32 omitempty
    assert marshal([{"hostPort": 0}], "[ContainerPort") == '[{"containerPort":0}]'


def test_pointers_are_written_even_when_zero() -> None:
    # Container.restartPolicy is *ContainerRestartPolicy; imagePullPolicy a plain string
    got = marshal({"name": "m", "restartPolicy": "", "imagePullPolicy": ""}, "Container")
    assert got == '{"name":"m","resources":{},"restartPolicy":""}'
    # Probe.exec is *ExecAction: a present empty object is written; a plain int32 zero is omitted
    assert marshal({"exec": {}, "periodSeconds": 0, "terminationGracePeriodSeconds": 0}, "Probe") == (
        '{"exec":{},"terminationGracePeriodSeconds":0}'
    )
    # v1alpha1 SharedSpec.dynamoNamespace *string vs serviceName string
    assert marshal({"dynamoNamespace": "", "serviceName": ""}, "AlphaSharedSpec") == '{"dynamoNamespace":""}'


def test_quantities_are_canonical() -> None:
    # ResourceList values are resource.Quantity: MarshalJSON writes the canonical form
    got = marshal({"limits": {"memory": "1024Mi", "cpu": "1000m"}, "requests": {"cpu": "0.5"}},
                  "ResourceRequirements")
    assert got == '{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m"}}'
    # ResourceFieldSelector.Divisor is a value Quantity: omitempty never drops it
    assert marshal({"resource": "limits.cpu"}, "ResourceFieldSelector") == '{"resource":"limits.cpu","divisor":"0"}'
    # v1alpha1 SharedMemorySpec.Size / PVC.Size: value Quantity ("0" when unset)
    assert marshal({"disabled": True}, "AlphaSharedMemorySpec") == '{"disabled":true,"size":"0"}'
    assert marshal({"size": "2048Mi"}, "AlphaSharedMemorySpec") == '{"size":"2Gi"}'
    assert marshal({"name": "p", "create": True}, "AlphaPVC") == '{"create":true,"name":"p","size":"0"}'
    # EmptyDirVolumeSource.SizeLimit is *Quantity: omitted when unset
    assert marshal({"medium": "Memory"}, "EmptyDir") == '{"medium":"Memory"}'
    assert canonical_quantity("1e3") == "1e3"
    assert canonical_quantity("1000") == "1k"


def test_maps_sorted_and_html_escaped() -> None:
    got = marshal({"labels": {"b": "<x>", "a": "&"}}, "ObjectMeta")
    assert got == '{"labels":{"a":"\\u0026","b":"\\u003cx\\u003e"}}'
    # map[string]ServiceReplicaStatus (v1alpha1 DGD status): sorted keys, typed values
    assert marshal({"services": {"w": {"componentName": "a"}, "f": {}}}, "AlphaDGDStatus") == (
        '{"state":"","services":{"f":{"componentKind":"","componentName":"","replicas":0,"updatedReplicas":0},'
        '"w":{"componentKind":"","componentName":"a","replicas":0,"updatedReplicas":0}}}'
    )
    # DynamoComponentDeploymentStatus.Conditions has no omitempty
    assert marshal({}, "AlphaDCDStatus") == '{"conditions":null}'


def test_alpha_types() -> None:
    # v1alpha1 ScalingAdapter{Enabled bool `json:"enabled,omitempty"`}
    assert marshal({"scalingAdapter": {"enabled": False}}, "AlphaSharedSpec") == '{"scalingAdapter":{}}'
    # DCD spec: backendFramework, then the inline shared spec
    assert marshal({"serviceName": "w", "backendFramework": "vllm"}, "AlphaDCDSpec") == (
        '{"backendFramework":"vllm","serviceName":"w"}'
    )
    # DGD spec services: map[string]*DynamoComponentDeploymentSharedSpec (nil -> null)
    assert marshal({"services": {"b": None, "a": {"componentType": "worker"}}}, "AlphaDGDSpec") == (
        '{"services":{"a":{"componentType":"worker"},"b":null}}'
    )
    # ProviderOverride.Value is apiextensionsv1.JSON without omitempty: zero -> null
    assert marshal({"apiVersion": "grove.io/v1alpha1"}, "ProviderOverride") == (
        '{"apiVersion":"grove.io/v1alpha1","value":null}'
    )


def test_extra_pod_spec_marshal_json() -> None:
    # ExtraPodSpec.MarshalJSON: PodSpec fields, then containers (omitempty), then mainContainer
    value: dict[str, Any] = {
        "mainContainer": {"image": "x"},
        "containers": [{"name": "c"}],
        "nodeSelector": {"k": "v"},
    }
    assert marshal(value, "AlphaExtraPodSpec") == (
        '{"nodeSelector":{"k":"v"},"containers":[{"name":"c","resources":{}}],'
        '"mainContainer":{"name":"","image":"x","resources":{}}}'
    )
    assert marshal({"containers": []}, "AlphaExtraPodSpec") == "{}"


def test_untyped_and_unknown() -> None:
    assert encode({"b": 1, "a": [{"d": 1, "c": 2}]}, None) == {"a": [{"c": 2, "d": 1}], "b": 1}
    # fields that the Go type does not declare are dropped (json.Unmarshal ignores them)
    assert marshal({"name": "e", "bogus": 1}, "EnvVar") == '{"name":"e"}'
    assert is_struct("*Probe") and is_struct("AlphaExtraPodSpec") and not is_struct("qm")


# (CRD file, version, schema path, layout); "[]" = array items, "{}" = map values
_CRD_CHECKS = [
    ("dcd", "v1alpha1", ("spec",), "AlphaDCDSpec"),
    ("dcd", "v1beta1", ("spec",), "HubDCDSpec"),
    ("dgd", "v1beta1", ("spec",), "HubDGDSpec"),
    ("dgd", "v1beta1", ("spec", "components", "[]"), "HubSharedSpec"),
    ("dcd", "v1beta1", ("spec", "experimental"), "HubExperimentalSpec"),
    ("dcd", "v1beta1", ("spec", "experimental", "checkpoint"), "HubComponentCheckpointConfig"),
    ("dcd", "v1beta1", ("spec",), "DynamoComponentDeploymentSpec"),
    ("dgd", "v1alpha1", ("spec",), "AlphaDGDSpec"),
    ("dgd", "v1alpha1", ("spec", "services", "{}"), "AlphaSharedSpec"),
    ("dgd", "v1alpha1", ("spec", "pvcs", "[]"), "AlphaPVC"),
    ("dcd", "v1alpha1", ("spec", "resources"), "AlphaResources"),
    ("dcd", "v1alpha1", ("spec", "resources", "requests"), "AlphaResourceItem"),
    ("dcd", "v1alpha1", ("spec", "autoscaling"), "AlphaAutoscaling"),
    ("dcd", "v1alpha1", ("spec", "ingress"), "AlphaIngress"),
    ("dcd", "v1alpha1", ("spec", "volumeMounts", "[]"), "AlphaVolumeMount"),
    ("dcd", "v1alpha1", ("spec", "sharedMemory"), "AlphaSharedMemorySpec"),
    ("dcd", "v1alpha1", ("spec", "extraPodMetadata"), "AlphaExtraPodMetadata"),
    ("dcd", "v1alpha1", ("spec", "scalingAdapter"), "AlphaScalingAdapter"),
    ("dcd", "v1alpha1", ("spec", "frontendSidecar"), "AlphaFrontendSidecarSpec"),
    ("dcd", "v1alpha1", ("spec", "checkpoint"), "AlphaCheckpointConfig"),
    ("dcd", "v1alpha1", ("spec", "gpuMemoryService"), "AlphaGPUMemoryServiceSpec"),
    ("dcd", "v1alpha1", ("spec", "failover"), "AlphaFailoverSpec"),
    ("dcd", "v1alpha1", ("spec", "multinode"), "MultinodeSpec"),
    ("dcd", "v1alpha1", ("spec", "modelRef"), "ModelReference"),
    ("dcd", "v1alpha1", ("spec", "eppConfig"), "EPPConfig"),
    ("dcd", "v1alpha1", ("spec", "topologyConstraint"), "TopologyConstraint"),
    ("dcd", "v1alpha1", ("status",), "AlphaDCDStatus"),
    ("dcd", "v1alpha1", ("status", "service"), "AlphaServiceReplicaStatus"),
    ("dgd", "v1alpha1", ("status",), "AlphaDGDStatus"),
    ("dcd", "v1beta1", ("spec", "multinode"), "MultinodeSpec"),
    ("dcd", "v1beta1", ("spec", "scalingAdapter"), "ScalingAdapter"),
    ("dcd", "v1beta1", ("spec", "compilationCache"), "CompilationCacheConfig"),
    ("dcd", "v1beta1", ("spec", "experimental"), "ExperimentalSpec"),
    ("dcd", "v1beta1", ("spec", "experimental", "gpuMemoryService"), "GPUMemoryServiceSpec"),
    ("dcd", "v1beta1", ("spec", "experimental", "gpuMemoryService", "extraClientPods", "[]"), "GMSClientPodSpec"),
    ("dcd", "v1beta1", ("spec", "experimental", "failover"), "FailoverSpec"),
    ("dcd", "v1beta1", ("spec", "experimental", "grove"), "GroveSpec"),
    ("dcd", "v1beta1", ("spec", "experimental", "checkpoint"), "ComponentCheckpointConfig"),
    ("dcd", "v1beta1", ("spec", "experimental", "checkpoint", "identity"), "DynamoCheckpointIdentity"),
    ("dcd", "v1beta1", ("spec", "experimental", "checkpoint", "job"), "ComponentCheckpointJobConfig"),
    ("dcd", "v1beta1", ("spec", "podTemplate"), "PodTemplateSpec"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec"), "PodSpec"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]"), "Container"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "resources"), "ResourceRequirements"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "env", "[]"), "EnvVar"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "env", "[]", "valueFrom"), "EnvVarSource"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "livenessProbe"), "Probe"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "livenessProbe", "grpc"), "GRPC"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "livenessProbe", "httpGet"), "HTTPGet"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "lifecycle"), "Lifecycle"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "lifecycle", "preStop"),
     "LifecycleHandler"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "volumeMounts", "[]"), "VolumeMount"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "ports", "[]"), "ContainerPort"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "envFrom", "[]"), "EnvFromSource"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "containers", "[]", "securityContext"), "SecurityContext"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "securityContext"), "PodSecurityContext"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "tolerations", "[]"), "Toleration"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "topologySpreadConstraints", "[]"),
     "TopologySpreadConstraint"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "affinity", "podAffinity",
                        "requiredDuringSchedulingIgnoredDuringExecution", "[]"), "PodAffinityTerm"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]"), "Volume"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]", "emptyDir"), "EmptyDir"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]", "secret"), "SecretVolume"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]", "configMap"), "ConfigMapVolume"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]", "downwardAPI"), "DownwardAPIVolume"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]", "downwardAPI", "items", "[]"),
     "DownwardAPIVolumeFile"),
    ("dcd", "v1beta1", ("spec", "podTemplate", "spec", "volumes", "[]", "persistentVolumeClaim"), "PVCVolume"),
]
# The Go types at the reference revision declare fields that its generated CRDs do not carry yet
# (providerOverride, multinode leader/worker: the CRD manifests were not regenerated).
_NOT_IN_CRD = {
    "AlphaDCDSpec": {"providerOverride"},
    "DynamoComponentDeploymentSpec": {"providerOverride"},
    "HubDCDSpec": {"providerOverride"},
    "MultinodeSpec": {"leader", "worker"},
}


@cache
def _crd(kind: str, version: str) -> dict:
    name = {"dcd": "nvidia.com_dynamocomponentdeployments.yaml", "dgd": "nvidia.com_dynamographdeployments.yaml"}
    path = CRDS / name[kind]
    if not path.is_file():
        pytest.skip("shared reference CRDs not available")
    with path.open() as fh:
        doc = yaml.load(fh, Loader=yaml.CSafeLoader)
    for v in doc["spec"]["versions"]:
        if v["name"] == version:
            return v["schema"]["openAPIV3Schema"]
    raise AssertionError(version)


@pytest.mark.parametrize(("kind", "version", "path", "layout"), _CRD_CHECKS,
                         ids=[f"{c[3]}@{c[0]}.{c[1]}" for c in _CRD_CHECKS])
def test_layout_fields_match_crd(kind: str, version: str, path: tuple[str, ...], layout: str) -> None:
    schema = _crd(kind, version)
    for step in path:
        schema = schema["items"] if step == "[]" else schema["additionalProperties"] if step == "{}" \
            else schema["properties"][step]
    names = {n for n, _, _ in fields(layout)}
    assert names - _NOT_IN_CRD.get(layout, set()) == set(schema.get("properties", {}))
    # a field without omitempty that the CRD marks required must be "!" in the table
    no_omitempty = {n for n, omit, _ in fields(layout) if not omit}
    required = set(schema.get("required", ()))
    # required by a kubebuilder marker although the JSON tag has omitempty (PVC.name, VolumeMount.name)
    required -= {"name"} if layout in ("AlphaPVC", "AlphaVolumeMount") else set()
    assert required <= no_omitempty


def test_hub_pod_template_leaves_a_zero_creation_timestamp_out() -> None:
    # corev1.PodTemplateSpec{}: ObjectMeta is a value struct (omitempty never drops it) whose
    # CreationTimestamp is `omitempty,omitzero` in apimachinery v0.36 (the reference revision's; upstream's
    # ConvertFrom writes "metadata":{}); PodSpec.Containers has no omitempty
    assert marshal({}, "HubPodTemplateSpec") == '{"metadata":{},"spec":{"containers":null}}'
    assert marshal({"metadata": {"name": "t", "labels": {"b": "1", "a": "2"}}, "spec": {"containers": [{"name": "main"}]}},
                   "HubPodTemplateSpec") == (
        '{"metadata":{"name":"t","labels":{"a":"2","b":"1"}},'
        '"spec":{"containers":[{"name":"main","resources":{}}]}}'
    )
    # v1beta1 DynamoComponentDeploymentSharedSpec.ComponentName is `json:"name"` (always written)
    assert marshal({"frontendSidecar": "s"}, "HubSharedSpec") == '{"name":"","frontendSidecar":"s"}'
    # the renderer's PodTemplateSpec layout is unchanged
    assert marshal({"metadata": {"name": "t"}}, "PodTemplateSpec") == '{"metadata":{"name":"t"},"spec":{"containers":null}}'


def test_extra_pod_spec_field_uses_its_marshal_json() -> None:  # mutant 262aa8afc397
    """A ``*ExtraPodSpec`` field (v1alpha1 shared spec ``extraPodSpec``) is written by ``ExtraPodSpec.MarshalJSON``
    too (encoding/json calls a pointer field's Marshaler): PodSpec fields, then containers, then mainContainer."""
    value: dict[str, Any] = {"mainContainer": {"image": "x"}, "containers": [{"name": "c"}], "nodeSelector": {"k": "v"}}
    want = ('{"nodeSelector":{"k":"v"},"containers":[{"name":"c","resources":{}}],'
            '"mainContainer":{"name":"","image":"x","resources":{}}}')
    assert marshal(value, "*AlphaExtraPodSpec") == want
    assert marshal({"extraPodSpec": value}, "AlphaSharedSpec") == '{"extraPodSpec":' + want + "}"


@pytest.mark.parametrize(("text", "want"), [
    # apimachinery resource Quantity.CanonicalizeBytes, decimal SI: M is 10^6, exponent lowered to a multiple of 3
    ("1M", "1M"), ("3000000", "3M"), ("2500000", "2500k"), ("1.5M", "1500k"),  # mutant 471436a48528
    # BinarySI from 1024 up: a fraction (AsScale(0) not exact) is shown as DecimalSI
    ("1.0001Ki", "1024102400u"), ("1.5Ki", "1536"),  # mutant 2bd9d31c479b
    # negative binary values: removeInt64Factors strips factors of 1024 from the magnitude
    ("-1Ki", "-1Ki"), ("-2Mi", "-2Mi"), ("-1.5Ki", "-1536"),  # mutant c046eea69191
])
def test_canonical_quantity_suffixes(text: str, want: str) -> None:
    assert canonical_quantity(text) == want


# What apimachinery v0.36.2 (the reference revision's) writes for a quantity it decoded from JSON:
# ``json.Marshal`` after ``json.Unmarshal`` into ``resource.Quantity``, run with Go outside the project (D59).
# ``ParseQuantity`` keeps the text it parsed when its int64 fast path finds it canonical-looking (a ``+``, leading
# zeros, an ``e0``/``E3`` exponent and ``1.234k`` survive); a decimal SI exponent past ``E`` loses its suffix
# (``1000E`` is written ``1``); ``E`` alone is exa; escaped JSON bytes (a tab, U+2028) do not parse and are kept.
GO_QUANTITY_JSON = [
    ("1E", "1E"), ("0E", "0"), ("1000E", "1"), ("10000E", "10"), ("0.5E", "500P"), ("1500E", "1500E"),
    ("0759838", "0759838"), ("+19Ti", "+19Ti"), ("228e0", "228e0"), ("1E3", "1E3"), ("1.234k", "1.234k"),
    ("8595748.0682E-2", "8595748.0682E-2"), ("1000", "1k"), ("1.5k", "1500"), ("8Gi", "8Gi"), ("1024Mi", "1Gi"),
    ("1023Mi", "1023Mi"), (" 1Gi ", "1Gi"), ("+1", "+1"), ("-0", "0"), ("000", "0"), ("1e0", "1e0"),
    ("0.000000001", "1n"), ("100m", "100m"), ("1000m", "1"), ("1e-10", "1e-9"),
    ("12345678901234567890", "12345678901234567890"), ("1.5Gi", "1536Mi"), ("0.5", "500m"), ("+0.1", "100m"),
    ("\u00a01Gi", "1Gi"), ("1Gi\u0085", "1Gi"), ("1Gi\t", "1Gi\t"), ("1Gi\u2028", "1Gi\u2028"),
    ("m", "0"), (".", "0"), ("+.Mi", "0"), ("e3", "0"), ("Pi", "Pi"),
]


@pytest.mark.parametrize(("text", "go"), GO_QUANTITY_JSON)
def test_quantity_written_as_go_writes_a_decoded_one(text: str, go: str) -> None:
    assert canonical_quantity(text) == go


def test_the_go_round_trip_writes_quantities_as_go() -> None:
    """The mutating webhook's patch carries Go's re-encoding of every quantity (``_godecode.go_round_trip``)."""
    from dynamo_schema._admission import crd_defaults
    from dynamo_schema._schema import _schemas
    from dynamo_schema._schema._godecode import go_round_trip

    limits = {f"q{i}": text for i, (text, _) in enumerate(GO_QUANTITY_JSON)}
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"components": [{"name": "w", "type": "worker", "podTemplate": {"spec": {"containers": [
               {"name": "main", "resources": {"limits": limits}}]}}}]}}
    schema = _schemas.for_object("nvidia.com/v1beta1", "DynamoGraphDeployment")
    assert schema is not None
    out = go_round_trip(crd_defaults(dgd), schema)
    got = out["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["resources"]["limits"]
    assert got == {f"q{i}": go for i, (_, go) in enumerate(GO_QUANTITY_JSON)}


# resource.ParseQuantity of apimachinery v0.36.2 for these strings (AsDec, or its error), run outside the project
# (D59): finer than 1n rounds up to 1n, a binary value is capped at MaxInt64, a number without digits is 0 where
# the int64 fast path takes it and "unable to parse numeric part of quantity" where it does not
@pytest.mark.parametrize(("text", "value", "error"), [
    ("500e-12", "0.000000001", None),
    ("-279119896224639076.56828n", "-279119896.224639077", None),
    ("-2857613963410190842185946Pi", "-9223372036854775807", None),
    ("m", "0", None), ("+.Mi", "0", None), ("e-9", "0", None),
    ("Pi", None, "unable to parse numeric part of quantity"),
    ("e-12", None, "unable to parse numeric part of quantity"),
    ("1Q", None, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
])
def test_parse_quantity_is_gos(text: str, value: str | None, error: str | None) -> None:
    from decimal import Decimal

    from dynamo_schema._k8s._quantity import parse_quantity
    from dynamo_schema._schema._godecode import parse_quantity_error

    got = parse_quantity(text)
    assert (got is None) if value is None else (got == Decimal(value))
    assert parse_quantity_error(text) == error
