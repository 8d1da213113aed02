"""The mutating webhook's Go round trip (``_schema/_godecode.py``, D34/D35) and the API server's order of
admission (``_pipeline/_validate.py: _check_v1beta1``), against the operator-verified cases."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dynamo_schema
from dynamo_schema._admission import AdmissionSettings, crd_defaults
from dynamo_schema._schema import _schemas
from dynamo_schema._schema._godecode import decode_error, parse_quantity_error
from tests.oracles import _operator_cases as oc

CASES = oc.CASES_DIR
needs_cases = pytest.mark.skipif(not CASES.is_dir(), reason="operator cases not present")


def case(prefix: str) -> dict[str, Any]:
    hits = sorted(CASES.glob(f"{prefix}*.yaml"))
    assert len(hits) == 1, prefix
    return oc.load_case(hits[0])


def causes(c: dict[str, Any]) -> set[tuple[str, str]]:
    diags = [d for r in dynamo_schema.validate(copy.deepcopy(c["input"]), settings=oc.admission_settings(c["settings"]))
             for d in r.diagnostics]
    return oc.our_causes(diags, c["expected"].get("stage"))


def decode_cases() -> list[Path]:
    out = []
    for p in oc.case_files():
        if "denied" in p.name and "stage: mutating-webhook" in p.read_text(encoding="utf-8"):
            out.append(p)
    return out


@needs_cases
@pytest.mark.parametrize("path", decode_cases(), ids=lambda p: p.stem)
def test_decoder_message_is_the_operators(path: Path) -> None:
    c = oc.load_case(path)
    obj = c["input"]
    schema = _schemas.for_object(obj["apiVersion"], obj["kind"])
    assert schema is not None
    got = decode_error(crd_defaults(obj), schema)
    assert got is not None and got.rule == "webhook.decode"
    assert got.message == c["expected"]["message"]
    # and it is the only error validate reports (the schema is not checked then)
    assert causes(c) == oc.expected_causes(c["expected"])


@needs_cases
def test_decoder_error_points_at_the_value() -> None:
    c = case("0187-")  # spec.workload.isl: "4000"
    d = decode_error(c["input"], _schemas.for_object(c["input"]["apiVersion"], c["input"]["kind"]) or {})
    assert d is not None and d.path == ("spec", "workload", "isl")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("1.5Gi", None), ("500m", None), ("1e3", None), ("1E-3", None), (".5", None), ("1.", None), ("0", None),
        ("+2", None),
        # apimachinery parseQuantityString: a character outside the suffix set -> ErrFormatWrong
        ("8 Gi", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        ("16GB", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        ("1..0", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        ("", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        # suffix characters that make no known suffix -> ErrSuffix
        ("1KM", "unable to parse quantity's suffix"),
        ("1e", "unable to parse quantity's suffix"),
    ],
)
def test_parse_quantity_error(text: str, error: str | None) -> None:
    assert parse_quantity_error(text) == error


@needs_cases
@pytest.mark.parametrize(
    ("prefix", "path", "value"),
    [
        # QUANTITY-CANONICAL: Go's canonical form in the stored object
        ("0127-", ("spec", "components", 1, "podTemplate", "spec", "containers", 0, "resources", "limits",
                   "memory"), "1536Mi"),
        ("0363-", ("spec", "components", 1, "podTemplate", "spec", "containers", 0, "resources", "limits", "cpu"),
         "2"),
        ("0142-", ("spec", "components", 0, "sharedMemorySize"), "0"),
        # EPP-CONFIG-TYPED: PluginSpec.Name has no omitempty
        ("0527-", None, None),
    ],
)
def test_stored_object_is_the_operators(prefix: str, path: tuple[Any, ...] | None, value: Any) -> None:
    c = case(prefix)
    stored = dynamo_schema.default(copy.deepcopy(c["input"]), oc.admission_settings(c["settings"]))
    stored.setdefault("metadata", {}).setdefault("namespace", oc.namespace_of(c["settings"]))
    assert stored == c["expected"]["defaulted"]
    if path is not None:
        node: Any = stored
        for k in path:
            node = node[k]
        assert node == value


@needs_cases
def test_epp_plugins_get_an_empty_name() -> None:
    c = case("0527-")
    stored = dynamo_schema.default(copy.deepcopy(c["input"]), AdmissionSettings())
    epp = [x for x in stored["spec"]["components"] if x.get("type") == "epp"][0]
    plugins = epp["eppConfig"]["config"]["plugins"]
    assert plugins and all("name" in p for p in plugins)
    assert any(p["name"] == "" for p in plugins)


@needs_cases
@pytest.mark.parametrize(
    "prefix",
    [
        "0420-",  # ZERO-VALUE-PATCH: spec.model "" -> min length (the webhook defaulted spec.image)
        "0645-",  # D35: spec.image given, the defaulter changes nothing -> Required value
        "0523-",  # DCD: spec.name copied -> configMapRef.key "" -> only the CEL cause
        "0877-",  # DCD with spec.name: no patch -> Required value, CEL not checked
        "0693-",  # STRICT-DECODE-FIRST: only the unknown field
        "0068-",  # a map where a list is declared: strict decoding prunes its keys
        "0034-",  # CEL-NONBLOCKING: a minimum error does not skip CEL; minAvailable defaulted first
        "0035-",  # CEL-SKIP-REPORTING: its own cause, field <nil>, 'Invalid value: null: ...'
        "0285-",  # STRING-FIRST-ERROR: min length only, not the pattern
        "1093-",  # DCD-NAME-DEFAULT-VALIDATED: spec.name copied from metadata.name, then its pattern
        "1036-",  # DUPLICATE-VALUE-FORMAT
        "0099-",  # CEL in the 1.36 form
        "0386-",  # unknown field message without the suggestion
    ],
)
def test_causes_are_the_operators(prefix: str) -> None:
    c = case(prefix)
    assert causes(c) == oc.expected_causes(c["expected"])


@needs_cases
def test_suggestion_is_a_note_at_the_same_path() -> None:
    c = case("0386-")
    diags = [d for r in dynamo_schema.validate(copy.deepcopy(c["input"]), settings=oc.admission_settings(c["settings"]))
             for d in r.diagnostics]
    err = [d for d in diags if d.rule == "schema.unknown-field"]
    note = [d for d in diags if d.rule == "schema.did-you-mean"]
    assert len(err) == 1 and len(note) == 1
    assert note[0].severity == "note" and note[0].path == err[0].path
    assert note[0].message == 'did you mean "nodeSelector"?'


def test_defaulting_does_not_add_a_pod_spec_of_nulls() -> None:
    """A podTemplate without spec: Go would marshal ``spec: {"containers": null}``; what the API server
    stores then is not shown by the cases, so nothing is added (D34)."""
    dgd = {
        "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "x"},
        "spec": {"components": [{"name": "a", "type": "frontend", "podTemplate": {"metadata": {"labels": {"a": "b"}}}}]},
    }
    out = dynamo_schema.default(dgd, AdmissionSettings())
    assert out["spec"]["components"][0]["podTemplate"] == {"metadata": {"labels": {"a": "b"}}}


@needs_cases
def test_epp_plugin_weight_decodes_into_a_go_int() -> None:
    """apix/config/v1alpha1 ``SchedulingPlugin.Weight`` is a ``*int`` (int64 on the operator's 64-bit build):
    encoding/json takes any value in [-2**63, 2**63-1], a negative weight included, and refuses one past it."""
    c = case("0527-")
    obj = crd_defaults(copy.deepcopy(c["input"]))
    schema = _schemas.for_object(obj["apiVersion"], obj["kind"])
    assert schema is not None
    epp = [x for x in obj["spec"]["components"] if x.get("type") == "epp"][0]
    plugin = epp["eppConfig"]["config"]["schedulingProfiles"][0]["plugins"][0]
    for weight in (-1, -(2**63), 2**63 - 1):
        plugin["weight"] = weight
        assert decode_error(obj, schema) is None, weight
    plugin["weight"] = 2**63
    got = decode_error(obj, schema)
    assert got is not None and got.path[-1] == "weight"
    assert got.message.startswith("json: cannot unmarshal number 9223372036854775808 into Go struct field ")
    assert got.message.endswith(" of type int")


def test_an_int_or_string_written_without_omitempty_gets_its_go_zero() -> None:
    """``HTTPGetAction.Port`` and ``TCPSocketAction.Port`` are ``intstr.IntOrString`` fields tagged ``json:"port"``
    (no ``omitempty``): the mutating webhook's Go round trip writes the zero value, which ``IntOrString.MarshalJSON``
    spells as the integer ``0`` (its zero ``Type`` is ``Int``), so the probe is stored with ``port: 0``."""
    main = {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0",
            "livenessProbe": {"httpGet": {"path": "/health"}}, "readinessProbe": {"tcpSocket": {}},
            "startupProbe": {"httpGet": {"path": "/s", "port": "http"}}}
    dgd = {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
           "spec": {"components": [{"name": "Frontend", "type": "frontend", "podTemplate": {"spec": {
               "containers": [main]}}}]}}
    stored = dynamo_schema.default(copy.deepcopy(dgd), AdmissionSettings())
    (container,) = stored["spec"]["components"][0]["podTemplate"]["spec"]["containers"]
    assert container["livenessProbe"]["httpGet"] == {"path": "/health", "port": 0}
    assert container["readinessProbe"]["tcpSocket"] == {"port": 0}
    assert container["startupProbe"]["httpGet"] == {"path": "/s", "port": "http"}  # a value is kept


def test_an_int64_field_takes_the_int64_range_and_refuses_one_past_it() -> None:  # mutant 7c99b31b9cef
    """core/v1 ``PodSpec.TerminationGracePeriodSeconds`` is a ``*int64``: encoding/json (``decode.go`` literalStore,
    ``strconv.ParseInt(s, 10, 64)`` then ``reflect.Value.OverflowInt``) stores 9223372036854775807 and refuses
    9223372036854775808 with "cannot unmarshal number ... of type int64"."""
    def dgd(v: int) -> dict[str, Any]:
        return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "g"},
                "spec": {"components": [{"name": "Frontend", "type": "frontend", "podTemplate": {"spec": {
                    "terminationGracePeriodSeconds": v, "containers": [{"name": "main", "image": "x"}]}}}]}}

    path = ("spec", "components", 0, "podTemplate", "spec", "terminationGracePeriodSeconds")
    for ok in (2**63 - 1, -(2**63)):
        obj = crd_defaults(dgd(ok))
        assert decode_error(obj, _schemas.for_object(obj["apiVersion"], obj["kind"]) or {}) is None, ok
    for bad in (2**63, -(2**63) - 1):
        obj = crd_defaults(dgd(bad))
        got = decode_error(obj, _schemas.for_object(obj["apiVersion"], obj["kind"]) or {})
        assert got is not None and got.path == path
        assert got.message == (f"json: cannot unmarshal number {bad} into Go struct field PodSpec.spec.components."
                               "podTemplate.spec.terminationGracePeriodSeconds of type int64")
        rules = [d.rule for r in dynamo_schema.validate(dgd(bad)) for d in r.diagnostics]
        assert rules == ["webhook.decode"]


def test_a_long_quantity_is_parsed_to_its_end() -> None:  # mutant 3804b4a2b608
    """apimachinery ``parseQuantityString`` has no length limit: digits are read to the end of the text,
    however long (``1.`` and 300 zeros is the quantity 1); a decimal exponent is ``strconv.ParseInt(…, 10,
    64)`` of what follows the ``e`` (suffix.go ``interpret``): leading zeros and a sign are fine, a value out of
    the int64 range is ``ErrSuffix``."""
    from dynamo_schema._schema._godecode import parse_quantity_error

    assert parse_quantity_error("1." + "0" * 300) is None
    assert parse_quantity_error("1." + "0" * 300 + "Gi") is None
    assert parse_quantity_error("1." + "0" * 300 + "x") is not None
    assert parse_quantity_error("1e+" + "0" * 300 + "3") is None
    assert parse_quantity_error("1e" + "9" * 300) == "unable to parse quantity's suffix"
    assert parse_quantity_error("1e9223372036854775807") is None
    assert parse_quantity_error("1e9223372036854775808") == "unable to parse quantity's suffix"
    assert parse_quantity_error("1e-9223372036854775808") is None
    assert parse_quantity_error("1e-9223372036854775809") == "unable to parse quantity's suffix"
    assert parse_quantity_error("1e" + "0" * 5000 + "1") is None  # leading zeros: ParseInt reads 1
    assert parse_quantity_error("1e" + "9" * 5000) == "unable to parse quantity's suffix"  # no crash on length


def _detailed_finds_nothing(obj: dict[str, Any], schema: dict[str, Any]) -> bool:
    """The located decoder alone (``decode_error`` without its ``_decodes`` shortcut)."""
    from dynamo_schema._schema import _godecode as G
    from dynamo_schema._schema._gotypes import root_type

    root = root_type(schema, str(obj.get("kind")))
    assert root is not None
    dec = G._Decoder()
    try:
        dec.value({k: v for k, v in obj.items() if k == "spec"}, root, (), root.struct, ())
    except G._Abort:
        return False
    return dec.saved is None


@functools.cache
def _v1beta1_inputs() -> tuple[dict[str, Any], ...]:
    """The v1beta1 operator-case inputs with a schema, CRD-defaulted (read once; copy before changing)."""
    out = []
    for p in oc.case_files():
        obj = oc.load_case(p)["input"]
        if isinstance(obj, dict) and obj.get("apiVersion") == "nvidia.com/v1beta1" and isinstance(obj.get("spec"), dict):
            if _schemas.for_object(obj["apiVersion"], str(obj.get("kind"))) is not None:
                out.append(crd_defaults(obj))
    return tuple(out)


@needs_cases
def test_the_decode_shortcut_agrees_with_the_decoder_on_every_operator_case() -> None:
    from dynamo_schema._schema._godecode import _decodes
    from dynamo_schema._schema._gotypes import root_type

    inputs = _v1beta1_inputs()
    refused = 0
    for obj in inputs:
        schema = _schemas.for_object(obj["apiVersion"], obj["kind"])
        assert schema is not None
        root = root_type(schema, obj["kind"])
        assert root is not None
        clean = _detailed_finds_nothing(obj, schema)
        assert _decodes({"spec": obj["spec"]}, root) is clean, obj["metadata"]
        refused += not clean
    assert len(inputs) > 300 and refused >= 10  # both answers are exercised


_LEAF = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**65), max_value=2**65),
                  st.floats(allow_nan=False), st.text(max_size=6), st.sampled_from(["1Gi", "1.5", "x1", " 2 ", "-1"]),
                  st.just([]), st.just({}), st.just([1]), st.just({"a": 1}))


@needs_cases
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_decode_shortcut_agrees_with_the_decoder_on_changed_values(data: st.DataObject) -> None:
    # any value put anywhere in an operator case's spec: a type mismatch, a bad quantity, an out-of-range int
    from dynamo_schema._schema._godecode import _decodes
    from dynamo_schema._schema._gotypes import root_type

    obj = copy.deepcopy(data.draw(st.sampled_from(_v1beta1_inputs())))
    node: Any = obj["spec"]
    for _ in range(data.draw(st.integers(min_value=0, max_value=6))):
        keys = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        inner = [(k, v) for k, v in keys if isinstance(v, (dict, list)) and v]
        if not inner:
            break
        _, node = data.draw(st.sampled_from(inner))
    if isinstance(node, dict) and node:
        node[data.draw(st.sampled_from(sorted(node)))] = data.draw(_LEAF)
    elif isinstance(node, list) and node:
        node[data.draw(st.integers(min_value=0, max_value=len(node) - 1))] = data.draw(_LEAF)
    schema = _schemas.for_object(obj["apiVersion"], obj["kind"])
    assert schema is not None
    root = root_type(schema, obj["kind"])
    assert root is not None
    assert _decodes({"spec": obj["spec"]}, root) is _detailed_finds_nothing(obj, schema)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.integers(min_value=-10**20, max_value=10**20),
    st.from_regex(r"\A[ +\-]?[0-9]{0,4}(\.[0-9]{0,3})?([eE][+\-]?[0-9]{1,2}|[numkKMGTPE]i?|Ki|Mi|Gi)?\s?\Z"),
    st.text(max_size=6)), min_size=1, max_size=6))
def test_remembered_quantities_are_the_computed_ones(values: list[Any]) -> None:
    """The Go round trip remembers each quantity's canonical text (``_godecode._QUANTITIES``): asked twice, and
    after the others, it answers what computing it answers."""
    from dynamo_schema._schema import _godecode
    from dynamo_schema._schema._gotypes import GoType

    qty = GoType("quantity", "resource.Quantity")
    for v in values + values:
        want = _godecode._patched_quantity(v)
        assert _godecode._patched(v, qty) == (v if want is None else want)


# The webhook decoder's own answers for these objects (sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts into
# the operator's v1beta1 types at 2a6da14c, the JSON as the API server writes it: keys sorted), run outside the
# project (D59): the path names the embedded structs a field is promoted from (the DCD's shared spec,
# ProbeHandler, VolumeSource, LocalObjectReference, EphemeralContainerCommon, TypeMeta), and the Go type names
# the generator's merged schema definitions cannot tell apart
GO_DECODE_ERRORS = [
    ('dcd-shared-spec', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoComponentDeployment', 'metadata': {'name': 'x'}, 'spec': {'replicas': '2'}}, 'json: cannot unmarshal string into Go struct field DynamoComponentDeploymentSpec.spec.DynamoComponentDeploymentSharedSpec.replicas of type int32'),
    ('probe-handler', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'containers': [{'name': 'main', 'startupProbe': {'httpGet': {'port': 2147483648}}}]}}}]}}, 'json: cannot unmarshal number 2147483648 into Go struct field HTTPGetAction.spec.components.podTemplate.spec.containers.startupProbe.ProbeHandler.httpGet.port of type int32'),
    ('volume-source', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'volumes': [{'name': 'v', 'emptyDir': True}]}}}]}}, 'json: cannot unmarshal bool into Go struct field Volume.spec.components.podTemplate.spec.volumes.VolumeSource.emptyDir of type v1.EmptyDirVolumeSource'),
    ('local-object-reference', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'containers': [{'name': 'main', 'envFrom': [{'secretRef': {'name': 1}}]}]}}}]}}, 'json: cannot unmarshal number into Go struct field SecretEnvSource.spec.components.podTemplate.spec.containers.envFrom.secretRef.LocalObjectReference.name of type string'),
    ('ephemeral-container-common', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'ephemeralContainers': [{'name': 'e', 'image': 1}]}}}]}}, 'json: cannot unmarshal number into Go struct field EphemeralContainer.spec.components.podTemplate.spec.ephemeralContainers.EphemeralContainerCommon.image of type string'),
    ('node-selector-requirement', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [1]}]}}}}}}]}}, 'json: cannot unmarshal number into Go struct field NodeSelectorTerm.spec.components.podTemplate.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.matchExpressions of type v1.NodeSelectorRequirement'),
    ('pod-anti-affinity', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'affinity': {'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {}}}}}}]}}, 'json: cannot unmarshal object into Go struct field PodAntiAffinity.spec.components.podTemplate.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution of type []v1.PodAffinityTerm'),
    ('capability', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'containers': [{'name': 'main', 'securityContext': {'capabilities': {'add': [[]]}}}]}}}]}}, 'json: cannot unmarshal array into Go struct field Capabilities.spec.components.podTemplate.spec.containers.securityContext.capabilities.add of type v1.Capability'),
    ('file-key-selector', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'containers': [{'name': 'main', 'env': [{'name': 'A', 'valueFrom': {'fileKeyRef': {'key': True}}}]}]}}}]}}, 'json: cannot unmarshal bool into Go struct field FileKeySelector.spec.components.podTemplate.spec.containers.env.valueFrom.fileKeyRef.key of type string'),
    ('scheduling-gate', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'schedulingGates': [{'name': 1}]}}}]}}, 'json: cannot unmarshal number into Go struct field PodSchedulingGate.spec.components.podTemplate.spec.schedulingGates.name of type string'),
    ('fs-group-change-policy', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'podTemplate': {'spec': {'securityContext': {'fsGroupChangePolicy': 1}}}}]}}, 'json: cannot unmarshal number into Go struct field PodSecurityContext.spec.components.podTemplate.spec.securityContext.fsGroupChangePolicy of type v1.PodFSGroupChangePolicy'),
    ('epp-type-meta', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'eppConfig': {'config': {'apiVersion': 1}}}]}}, 'json: cannot unmarshal number into Go struct field EndpointPickerConfig.spec.components.eppConfig.config.TypeMeta.apiVersion of type string'),
    ('epp-feature-gates', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'eppConfig': {'config': {'featureGates': {}}}}]}}, 'json: cannot unmarshal object into Go struct field EndpointPickerConfig.spec.components.eppConfig.config.featureGates of type v1alpha1.FeatureGates'),
    ('epp-int', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeployment', 'metadata': {'name': 'x'}, 'spec': {'components': [{'name': 'w', 'eppConfig': {'config': {'saturationDetector': {'queueDepthThreshold': True}}}}]}}, 'json: cannot unmarshal bool into Go struct field SaturationDetector.spec.components.eppConfig.config.saturationDetector.queueDepthThreshold of type int'),
    ('exit-codes-int32', {'apiVersion': 'nvidia.com/v1beta1', 'kind': 'DynamoGraphDeploymentRequest', 'metadata': {'name': 'x'}, 'spec': {'overrides': {'profilingJob': {'podFailurePolicy': {'rules': [{'onExitCodes': {'values': [2147483648]}}]}}}}}, 'json: cannot unmarshal number 2147483648 into Go struct field PodFailurePolicyOnExitCodesRequirement.spec.overrides.profilingJob.podFailurePolicy.rules.onExitCodes.values of type int32'),
]


@pytest.mark.parametrize(("obj", "go"), [pytest.param(o, g, id=n) for n, o, g in GO_DECODE_ERRORS])
def test_decode_error_is_the_webhook_decoders(obj: dict[str, Any], go: str) -> None:
    schema = _schemas.for_object(obj["apiVersion"], obj["kind"])
    assert schema is not None
    found = decode_error(crd_defaults(obj), schema)
    assert found is not None and found.message == go
