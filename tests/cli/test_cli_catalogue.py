"""Catalogue of bad inputs through ``python -m dynamo_schema validate``: exit 1, rule id, line and column.

One test per kind of problem. The expected position is written into each input: the line carrying the
marker comment ``#<`` is where the diagnostic must point, at its first key (after any ``- ``). The
expected messages are the API server's (Kubernetes field errors) and the CRDs' CEL messages.
"""

from __future__ import annotations

import io
import json
import textwrap

import pytest

from dynamo_schema._cli._main import main

HEAD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: cat
spec:
"""


def dgd(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), "  ")


def marker(text: str) -> tuple[int, int]:
    for i, line in enumerate(text.splitlines(), 1):
        if "#<" in line:
            stripped = line.lstrip(" ")
            col = len(line) - len(stripped) + 1
            if stripped.startswith("- "):
                col += 2
            return i, col
    raise AssertionError("no #< marker")


def run(text: str | bytes, *args: str) -> tuple[int, list[dict]]:
    import sys

    data = text.encode() if isinstance(text, str) else text
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    try:
        rc = main(["validate", "-o", "json", *args, "-"], stdout=out, stderr=err)
    finally:
        sys.stdin = old
    assert "Traceback" not in err.getvalue()
    errors = [e for r in json.loads(out.getvalue())["resources"] for e in r["errors"]]
    return rc, errors


def expect(text: str, rule: str, message: str, *args: str) -> None:
    rc, errors = run(text, *args)
    assert rc == 1, errors
    line, col = marker(text)
    hits = [e for e in errors if e["rule"] == rule]
    assert hits, f"no {rule} in {errors}"
    assert any(message in e["message"] for e in hits), hits
    assert (hits[0]["line"], hits[0]["column"]) == (line, col), hits[0]


# ---- load problems --------------------------------------------------------------------------------

def test_duplicate_key() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            type: frontend
            type: worker  #<
        """)
    expect(text, "load.duplicate-key", '"type"')


def test_duplicate_key_of_an_empty_list_under_no_strict_is_only_a_warning() -> None:
    # --no-strict makes a duplicate key a warning (last wins): an empty kind: List then has no resource
    # left, so the file is skipped, the warning reported, and the run passes; strict, it is refused.
    text = "apiVersion: v1\nkind: List\nitems: []\nitems: []\n"
    rc, errors = run(text, "--no-strict")
    assert rc == 0
    assert [(e["rule"], e["severity"], e["line"]) for e in errors] == [("load.duplicate-key", "warning", 4)]
    assert run(text)[0] == 1


def test_unsafe_python_tag() -> None:
    text = dgd("""\
        components: !!python/object/apply:os.system ["true"]  #<
        """)
    rc, errors = run(text)
    assert rc == 1
    assert errors[0]["rule"] == "load.unsafe-tag"
    assert errors[0]["line"] == marker(text)[0]


def test_alias_bomb_is_rejected() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    rc, errors = run("\n".join(lines) + "\n")
    assert rc == 1
    assert errors[0]["rule"] == "load.alias-bomb"


def test_non_utf8_input() -> None:
    text = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \xff\xfe}\n"
    rc, errors = run(text)
    assert rc == 1
    assert errors[0]["rule"] == "load.encoding"
    assert errors[0]["line"] == 3


def test_binary_input() -> None:
    rc, errors = run(b"\x00\x01\x02binary\x00")
    assert rc == 1
    assert errors[0]["rule"] == "load.binary"


def test_unknown_kind_with_suggestion() -> None:
    text = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymnt  #<\nmetadata: {name: x}\n"
    expect(text, "schema.unknown-kind", 'did you mean "DynamoGraphDeployment"?')


def test_unknown_api_version() -> None:
    text = "apiVersion: nvidia.com/v1beta7  #<\nkind: DynamoGraphDeployment\nmetadata: {name: x}\n"
    expect(text, "schema.unknown-kind", 'no matches for kind "DynamoGraphDeployment" in version "nvidia.com/v1beta7"')


# ---- schema problems -------------------------------------------------------------------------------

def test_unknown_field_with_suggestion() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            replica: 2  #<
        """)
    expect(text, "schema.unknown-field", 'did you mean "replicas"?')


def test_unknown_field_deep_in_pod_template() -> None:
    text = dgd("""\
        components:
          - name: Worker
            podTemplate:
              spec:
                containers:
                  - name: main
                    imagePullPolicyy: Always  #<
        """)
    expect(text, "schema.unknown-field", 'did you mean "imagePullPolicy"?')


def test_unknown_field_is_not_an_error_without_strict() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            replica: 2
            podTemplate:
              spec:
                containers: [{name: main, image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.0"}]
        """)
    rc, errors = run(text, "--no-strict")
    assert rc == 0, errors


def test_wrong_type() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            replicas: two  #<
        """)
    # the operator's mutating webhook refuses it while decoding, before the schema check (operator
    # case 0765-dgd-k8s-replicas-str-denied)
    expect(text, "webhook.decode", "json: cannot unmarshal string into Go struct field "
           "DynamoComponentDeploymentSharedSpec.spec.components.replicas of type int32")


def test_wrong_enum() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            type: frontnd  #<
        """)
    expect(text, "schema.enum", 'Unsupported value: "frontnd": supported values: "frontend"')


def test_pattern_violation() -> None:
    text = dgd("""\
        components:
          - name: Bad_Name  #<
        """)
    expect(text, "schema.pattern", "should match '^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$'")


def test_minimum_violation() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            replicas: -1  #<
        """)
    expect(text, "schema.minimum", "should be greater than or equal to 0")


def test_max_items_violation() -> None:
    comps = "\n".join(f"    - name: c{i}" for i in range(26))
    text = HEAD + "  components:  #<\n" + comps + "\n"
    expect(text, "schema.max-items", "must have at most 25 items")


def test_explicit_null_is_pruned_not_an_error() -> None:
    text = dgd("""\
        components:
          - name: Frontend
            replicas: null
            podTemplate:
              spec:
                containers: [{name: main, image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.0"}]
        """)
    rc, errors = run(text)
    assert rc == 0, errors
    assert all(e["severity"] != "error" for e in errors)


# ---- CEL rules (one each, on create) ---------------------------------------------------------------

def test_cel_at_most_one_epp() -> None:
    text = dgd("""\
        components:  #<
          - name: a
            type: epp
            eppConfig: {config: {plugins: [], schedulingProfiles: []}}
          - name: b
            type: epp
            eppConfig: {config: {plugins: [], schedulingProfiles: []}}
        """)
    expect(text, _rule_for("at most one component may have type epp"), "at most one component may have type epp")


def _rule_for(message: str) -> str:
    from dynamo_schema._schema import _cel
    from tests.models.test_models import crd_schema

    for kind in ("DynamoGraphDeployment", "DynamoComponentDeployment"):
        stack = [crd_schema(kind)]
        while stack:
            n = stack.pop()
            for r in n.get("x-kubernetes-validations", []) or []:
                if r.get("message") == message:
                    rid = _cel.rule_id(r["rule"])
                    assert rid, message
                    return rid
            stack.extend((n.get("properties") or {}).values())
            if isinstance(n.get("items"), dict):
                stack.append(n["items"])
            if isinstance(n.get("additionalProperties"), dict):
                stack.append(n["additionalProperties"])
    raise AssertionError(message)


CEL_CASES = [
    ("component names must be unique case-insensitively", """\
        components:  #<
          - name: worker
          - name: Worker
        """),
    ("eppConfig may only be set when type is epp", """\
        components:
          - name: w  #<
            type: worker
            eppConfig: {config: {plugins: [], schedulingProfiles: []}}
        """),
    ("minAvailable must be less than or equal to replicas unless replicas is 0", """\
        components:
          - name: w  #<
            replicas: 1
            minAvailable: 2
        """),
    ("exactly one of configMapRef or config must be specified", """\
        components:
          - name: e
            type: epp
            eppConfig:  #<
              config: {plugins: [], schedulingProfiles: []}
              configMapRef: {name: c, key: k}
        """),
    ("checkpoint.job cannot be set when checkpointRef is specified", """\
        components:
          - name: w
            experimental:
              checkpoint:  #<
                enabled: true
                checkpointRef: ref
                job: {}
        """),
    ("extraClientContainers is only supported with mode=IntraPod", """\
        components:
          - name: w
            experimental:
              gpuMemoryService:  #<
                mode: InterPod
                extraClientContainers: [sidecar]
        """),
    ("extraClientPods is reserved for inter-pod GMS and is not implemented yet", """\
        components:
          - name: w
            experimental:
              gpuMemoryService:  #<
                mode: InterPod
                extraClientPods: [{name: p, podTemplate: {spec: {containers: [{name: main, image: i}]}}}]
        """),
    ("podTemplate backend annotation must be mp or ray, case-insensitively", """\
        components:
          - name: w
            podTemplate:
              metadata:
                annotations:  #<
                  nvidia.com/vllm-distributed-executor-backend: slurm
        """),
    ("sidecar containers must specify a non-empty image", """\
        components:
          - name: w
            podTemplate:
              spec:
                containers:
                  - name: main
                  - name: sidecar  #<
        """),
    ("init containers must specify a non-empty image", """\
        components:
          - name: w
            podTemplate:
              spec:
                containers: [{name: main}]
                initContainers:
                  - name: init  #<
        """),
    ("exactly one of labelKey or clusterTopologyName is required", """\
        experimental:
          kvTransferPolicy:  #<
            domain: zone
            enforcement: required
        components: [{name: w}]
        """),
    ("preferredWeight is required when enforcement is preferred", """\
        experimental:
          kvTransferPolicy:  #<
            domain: zone
            labelKey: topology.kubernetes.io/zone
            enforcement: preferred
        components: [{name: w}]
        """),
    ("preferredWeight may only be set when enforcement is preferred", """\
        experimental:
          kvTransferPolicy:  #<
            domain: zone
            labelKey: topology.kubernetes.io/zone
            enforcement: required
            preferredWeight: 1
        components: [{name: w}]
        """),
    ("spec.restart must be unset on create; set spec.restart.id after creation to request a restart", """\
        restart: {id: r1}
        components: [{name: w}]
        """),
]


@pytest.mark.parametrize("message,body", CEL_CASES, ids=[m[:40] for m, _ in CEL_CASES])
def test_cel_rule_rejected_with_upstream_message(message: str, body: str) -> None:
    text = dgd(body)
    if "#<" not in text:  # rules on spec itself point at the spec key
        text = text.replace("spec:\n", "spec:  #<\n", 1)
    expect(text, _rule_for(message), message)
