"""Worker hash at the reference revision (``deploy/operator/internal/dynamo/hash.go`` at 2a6da14c).

Evidence:
* equal / unequal pairs: every case of upstream ``internal/dynamo/hash_test.go`` at main, with the
  v1alpha1 fixtures written in their v1beta1 form (``betaDGD`` = v1alpha1 → v1beta1 conversion:
  ``services`` map → ``components`` list, ``envs``/``resources``/``extraPodMetadata`` →
  ``podTemplate``, ``sharedMemory.size`` → ``sharedMemorySize``);
* fixed values: ``internal/controller/dynamographdeployment_controller_test.go``
  ``TestComponentWorkloadsReconciler_Reconcile`` stores ``nvidia.com/current-worker-hash-v2`` =
  ``1b69c0d3`` (frontend + decode + prefill) and ``cabcd5c9`` (frontend + decode) for DGD
  ``default/test-dgd`` (vllm) and expects no rollout, i.e. these are the computed hashes;
* ``44136fa3`` = the hash of the empty map ``{}`` (``legacy_worker_hash_test.go`` "no workers");
* ``2bc34b39``: ``api/v1beta1/worker_hash_test.go`` (the ``dgd-worker-rollout-v2`` input struct);
* release boundary: ``internal/dynamo/worker-hash.md`` "Release History" (#12633, runtime version
  in the hash from 1.5; v2 authoritative for DCD names from 1.4).
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from dynamo_schema._render import RenderOptions, render, worker_hash
from dynamo_schema._render._hashjson import canonical_quantity, go_marshal
from dynamo_schema._render._workerhash import (
    ALGORITHM_DCD,
    ALGORITHM_DCD_RUNTIME,
    ALGORITHM_ROLLOUT_V2,
    compute_dcd_worker_hash,
    compute_worker_hash,
    dcd_worker_hash_input,
    select_algorithm,
)

# ---------------------------------------------------------------- fixtures


def dgd(components: list[dict[str, Any]], name: str = "test", namespace: str = "default",
        annotations: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if annotations:
        meta["annotations"] = dict(annotations)
    return {
        "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": meta,
        "spec": {**spec, "components": sorted(components, key=lambda c: c["name"])},
    }


def comp(name: str, ctype: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "type": ctype, **fields}


def main_container(**fields: Any) -> dict[str, Any]:
    return {"spec": {"containers": [{"name": "main", **fields}]}}


def h(obj: dict[str, Any]) -> str:
    """The reference-revision hash (runtime version included)."""
    return compute_dcd_worker_hash(obj)


def base_worker(**fields: Any) -> dict[str, Any]:
    return dgd([comp("worker", "worker", **fields)])


# ---------------------------------------------------------------- upstream fixed values


def test_controller_golden_prefill_decode() -> None:
    # TestComponentWorkloadsReconciler_Reconcile "multiple services - all DCDs ready"
    obj = dgd([comp("frontend", "frontend", replicas=1), comp("decode", "decode", replicas=2),
               comp("prefill", "prefill", replicas=3)], name="test-dgd", backendFramework="vllm")
    assert h(obj) == "1b69c0d3"
    # the 1.4 value (no runtime version: none resolves here) is the same
    assert compute_dcd_worker_hash(obj, runtime_version=False) == "1b69c0d3"


def test_controller_golden_decode_only() -> None:
    # TestComponentWorkloadsReconciler_Reconcile "multiple services - all DCDs not ready"
    obj = dgd([comp("frontend", "frontend", replicas=1), comp("decode", "decode", replicas=2)],
              name="test-dgd", backendFramework="vllm")
    assert h(obj) == "cabcd5c9"


def test_controller_golden_bytes() -> None:
    # The bytes that hash to cabcd5c9: Go struct order of workerTemplate and
    # DynamoComponentDeploymentSpec, sorted map keys, the alpha sub-component-type label of
    # GetDCDKubeLabels, "containers":null of an empty PodSpec, no creationTimestamp (omitzero).
    obj = dgd([comp("frontend", "frontend", replicas=1), comp("decode", "decode", replicas=2)],
              name="test-dgd", backendFramework="vllm")
    text = go_marshal(dcd_worker_hash_input(obj))
    assert text == (
        '{"decode":{"labels":{"nvidia.com/dynamo-component":"decode",'
        '"nvidia.com/dynamo-graph-deployment-name":"test-dgd","nvidia.com/dynamo-namespace":"default-test-dgd",'
        '"nvidia.com/dynamo-sub-component-type":"decode","nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},'
        '"spec":{"backendFramework":"vllm","name":"decode","type":"decode","podTemplate":{"metadata":{"labels":'
        '{"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"}},"spec":{"containers":null}}}}}'
    )
    assert hashlib.sha256(text.encode()).hexdigest()[:8] == "cabcd5c9"


def test_no_workers_is_hash_of_empty_map() -> None:
    # TestComputeBetaDGDWorkersSpecHash_NoWorkers (length 8); {} hashes to 44136fa3
    # (legacy_worker_hash_test.go "no workers" marshals the same bytes).
    assert h(dgd([comp("frontend", "frontend")])) == "44136fa3"
    assert h(dgd([])) == "44136fa3"


def test_rollout_v2_golden_still_reachable() -> None:
    golden = {
        "apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "metadata": {"name": "test"},
        "spec": {"components": [comp("worker", "worker", podTemplate=main_container(
            image="worker:latest", env=[{"name": "FOO", "value": "bar"}]))]},
    }
    assert compute_worker_hash(golden, algorithm=ALGORITHM_ROLLOUT_V2) == "2bc34b39"
    assert worker_hash(golden, RenderOptions(worker_hash_algorithm=ALGORITHM_ROLLOUT_V2)) == "2bc34b39"
    assert worker_hash(golden, algorithm=ALGORITHM_ROLLOUT_V2) == "2bc34b39"
    assert worker_hash(golden, RenderOptions()) != "2bc34b39"


# ---------------------------------------------------------------- hash_test.go pairs


def test_deterministic() -> None:
    obj = dgd([comp("prefill", "prefill", replicas=2), comp("decode", "decode", replicas=3)])
    h1, h2 = h(obj), h(copy.deepcopy(obj))
    assert h1 == h2 and len(h1) == 8
    assert all(c in "0123456789abcdef" for c in h1)


def test_ignores_non_workers() -> None:
    assert h(dgd([comp("worker", "worker"), comp("frontend", "frontend")])) == h(dgd([comp("worker", "worker")]))


def test_ignores_generated_dcd_object_identity() -> None:
    base = dgd([comp("worker", "worker", globalDynamoNamespace=True)])
    other = copy.deepcopy(base)
    other["metadata"]["namespace"] = "other"
    assert h(base) == h(other)


def test_tracks_generated_dcd_spec_and_metadata() -> None:
    other = base_worker()
    other["metadata"]["namespace"] = "other"
    assert h(base_worker()) != h(other)


POD_AFFECTING = {
    "resources (v1alpha1 resources.requests.cpu)": dict(podTemplate=main_container(resources={"requests": {"cpu": "2"}})),
    "env (v1alpha1 envs)": dict(podTemplate=main_container(env=[{"name": "FOO", "value": "bar"}])),
    "shared memory (v1alpha1 sharedMemory.size)": dict(sharedMemorySize="1Gi"),
    "global dynamo namespace": dict(globalDynamoNamespace=True),
    "extra pod metadata (v1alpha1 extraPodMetadata.labels)": dict(podTemplate={"metadata": {"labels": {"rollout": "required"}}}),
    "podTemplate metadata annotations": dict(podTemplate={"metadata": {"annotations": {"rollout": "required"}}}),
}


@pytest.mark.parametrize("change", list(POD_AFFECTING), ids=list(POD_AFFECTING))
def test_changes_on_pod_affecting_fields(change: str) -> None:
    assert h(base_worker(**POD_AFFECTING[change])) != h(base_worker())


VLLM_EXECUTOR = "nvidia.com/vllm-distributed-executor-backend"


def test_tracks_propagated_dgd_object_annotations() -> None:
    ray = dgd([comp("worker", "worker")], annotations={VLLM_EXECUTOR: "ray"})
    mp = dgd([comp("worker", "worker")], annotations={VLLM_EXECUTOR: "mp"})
    assert h(ray) != h(mp)


def test_ignores_overridden_dgd_object_annotations() -> None:
    pt = {"metadata": {"annotations": {VLLM_EXECUTOR: "component"}}}
    ray = dgd([comp("worker", "worker", podTemplate=pt)], annotations={VLLM_EXECUTOR: "ray"})
    mp = dgd([comp("worker", "worker", podTemplate=pt)], annotations={VLLM_EXECUTOR: "mp"})
    assert h(ray) == h(mp)


NON_ROLLOUT = {
    "replicas 99": dict(replicas=99),
    "scale to zero with minAvailable": dict(replicas=0, minAvailable=1),
    "scalingAdapter": dict(scalingAdapter={}),
}


@pytest.mark.parametrize("change", list(NON_ROLLOUT), ids=list(NON_ROLLOUT))
def test_ignores_non_rollout_fields(change: str) -> None:
    assert h(base_worker(**NON_ROLLOUT[change])) == h(base_worker())


def _alpha(services: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "test", "namespace": "default"}, "spec": {"services": services}}


@pytest.mark.parametrize("change", [
    {"serviceName": "changed"},
    {"ingress": {"enabled": True}},
    {"scalingAdapter": {"enabled": False}},
], ids=["serviceName", "ingress", "disabled scalingAdapter"])
def test_ignores_alpha_only_non_rollout_fields(change: dict[str, Any]) -> None:
    # IgnoresNonRolloutFields, the v1alpha1-only fields: converted to v1beta1 they live only in the
    # private conversion annotation, which the hash does not read.
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    base = to_v1beta1(_alpha({"worker": {"componentType": "worker"}}))
    changed = to_v1beta1(_alpha({"worker": {"componentType": "worker", **change}}))
    assert h(changed) == h(base)


@pytest.mark.parametrize("field", ["annotations", "labels"])
def test_tracks_preserved_alpha_resource_metadata(field: str) -> None:
    from dynamo_schema._convert._v1alpha1 import to_v1beta1

    base = to_v1beta1(_alpha({"worker": {"componentType": "worker"}}))
    changed = to_v1beta1(_alpha({"worker": {"componentType": "worker", field: {"foo": "bar"}}}))
    assert h(changed) != h(base)


RUNTIME_CASES = [
    # (name, left image, left override, right image, right override, want equal)
    ("omits resolved versions before 1.5", "registry.example/runtime:custom", "", "registry.example/runtime:custom", "1.4.9", True),
    ("canonicalizes equivalent implicit and explicit versions", "nvcr.io/nvidia/ai-dynamo/runtime:v1.5.0-cuda13", "",
     "nvcr.io/nvidia/ai-dynamo/runtime:v1.5.0-cuda13", "1.5.0", True),
    ("changes at the 1.5 boundary", "registry.example/runtime:custom", "1.4.9", "registry.example/runtime:custom", "1.5.0", False),
    ("tracks override changes after 1.5", "registry.example/runtime:custom", "1.5.0", "registry.example/runtime:custom", "1.5.1", False),
]


def _runtime_dgd(image: str, override: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"podTemplate": main_container(image=image)}
    if override:
        fields["runtimeVersionOverride"] = override
    return base_worker(**fields)


@pytest.mark.parametrize("case", RUNTIME_CASES, ids=[c[0] for c in RUNTIME_CASES])
def test_uses_resolved_runtime_version(case: tuple) -> None:
    _, li, lo, ri, ro, want_equal = case
    assert (h(_runtime_dgd(li, lo)) == h(_runtime_dgd(ri, ro))) is want_equal


def test_env_order_matters() -> None:
    ba = base_worker(podTemplate=main_container(env=[{"name": "B", "value": "2"}, {"name": "A", "value": "1"}]))
    ab = base_worker(podTemplate=main_container(env=[{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]))
    assert h(ba) != h(ab)


def test_all_worker_types() -> None:
    obj = dgd([comp("w", "worker"), comp("p", "prefill"), comp("d", "decode")])
    changed = copy.deepcopy(obj)
    for c in changed["spec"]["components"]:
        if c["name"] == "p":
            c["podTemplate"] = main_container(env=[{"name": "X", "value": "1"}])
    assert h(obj) != h(changed)


# ---------------------------------------------------------------- release selection


@pytest.mark.parametrize("version,want", [
    ("1.5.0", ALGORITHM_DCD_RUNTIME), ("1.6.0", ALGORITHM_DCD_RUNTIME), ("v1.5.1", ALGORITHM_DCD_RUNTIME),
    (None, ALGORITHM_DCD_RUNTIME), ("1.4.0", ALGORITHM_DCD), ("1.4.2", ALGORITHM_DCD),
    # a release without its patch number is its .0 (mutant c062c2647404)
    ("1.5", ALGORITHM_DCD_RUNTIME), ("1.4", ALGORITHM_DCD), ("v1.3", "legacy-v1"),
])
def test_select_algorithm(version: str | None, want: str) -> None:
    assert select_algorithm(version) == want


def test_runtime_version_only_from_1_5() -> None:
    obj = _runtime_dgd("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0", "")
    v14 = compute_worker_hash(obj, RenderOptions(operator_version="1.4.0"))
    v15 = compute_worker_hash(obj, RenderOptions(operator_version="1.5.0"))
    assert v14 == compute_dcd_worker_hash(obj, runtime_version=False)
    assert v15 == compute_dcd_worker_hash(obj, runtime_version=True)
    assert v14 != v15
    old = _runtime_dgd("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0", "")
    assert compute_worker_hash(old, RenderOptions(operator_version="1.4.0")) == compute_worker_hash(
        old, RenderOptions(operator_version="1.5.0"))


@pytest.mark.parametrize("version", ["1.4.0", "1.5.0"])
def test_render_names_use_selected_hash(version: str) -> None:
    from dynamo_schema._render._admit import admit

    obj = dgd([comp("frontend", "frontend"), comp("decode", "decode",
                                                  podTemplate=main_container(image="nvcr.io/x/vllm-runtime:1.5.0"))],
              name="test-dgd", backendFramework="vllm")
    options = RenderOptions(namespace="default", operator_version=version)
    want = compute_worker_hash(admit(obj, options, grove=False), options)
    names = {o["metadata"]["name"] for o in render(obj, "dcd", options)}
    assert f"test-dgd-decode-{want}" in names
    # the hash of the admitted DGD (origin-version stamp) equals the one the renderer used
    assert worker_hash(admit(obj, options, grove=False)) == want


def test_bare_call_on_unstamped_dgd_uses_the_bundled_release() -> None:
    obj = base_worker(podTemplate=main_container(image="worker:latest"))
    assert worker_hash(obj) == compute_worker_hash(obj, algorithm=select_algorithm(None))
    assert select_algorithm(None) == "dcd-runtime-version"


def test_unknown_algorithm_is_an_error() -> None:
    from dynamo_schema._render import RenderError

    with pytest.raises(RenderError):
        compute_worker_hash(base_worker(), algorithm="nope")


# ---------------------------------------------------------------- Go marshal details


def test_spec_field_order_and_omitempty() -> None:
    obj = base_worker(
        globalDynamoNamespace=True, sharedMemorySize="1024Mi", modelRef={"name": "m"}, replicas=3,
        multinode={"nodeCount": 2}, frontendSidecar="", compilationCache={"pvcName": "cache"},
        topologyConstraint={"packDomain": "rack"}, experimental={"failover": {"mode": "IntraPod"}},
        runtimeVersionOverride="1.5.0",
        podTemplate=main_container(image="img"),
    )
    entry = dcd_worker_hash_input(obj)["worker"]
    assert list(entry) == ["labels", "annotations", "runtimeVersion", "spec"]
    assert entry["runtimeVersion"] == "1.5.0"
    assert entry["annotations"] == {"nvidia.com/dynamo-base-model": "m"}
    spec = entry["spec"]
    # Go declaration order of DynamoComponentDeploymentSpec / SharedSpec; replicas and
    # runtimeVersionOverride cleared; *string frontendSidecar "" kept; Quantity canonical.
    assert list(spec) == ["name", "type", "globalDynamoNamespace", "podTemplate", "multinode", "sharedMemorySize",
                          "modelRef", "frontendSidecar", "compilationCache", "topologyConstraint", "experimental"]
    assert spec["sharedMemorySize"] == "1Gi"
    assert spec["frontendSidecar"] == ""
    assert spec["experimental"] == {"failover": {"mode": "IntraPod"}}
    assert spec["podTemplate"]["spec"]["containers"][0] == {"name": "main", "image": "img", "resources": {}}


# k8s.io/apimachinery pkg/api/resource quantity_test.go: TestQuantityString (alternate → canonical)
# and TestQuantityParseEmit.
QUANTITY_VECTORS = [
    ("1024Mi", "1Gi"), ("307200Ki", "300Mi"), ("1025024Mi", "1001Gi"), ("1024Gi", "1Ti"), ("5000m", "5"),
    ("0.5", "500m"), ("1000M", "1G"), ("0.001T", "1G"), ("1000u", "1m"), ("1.08", "1080m"),
    ("1080000000n", "1080m"), (".001e12", "1e9"), ("0.001e0", "1e-3"), ("1000e-12", "1e-9"), ("00", "0"),
    ("1Ki", "1Ki"), (".001Ki", "1024m"), (".000001Ki", "1024u"), (".000000001Ki", "1024n"),
    (".000000000001Ki", "2n"), ("1Gi", "1Gi"), ("6Ki", "6Ki"), ("3k", "3k"), ("1e3", "1e3"), ("80e-3", "80e-3"),
]


@pytest.mark.parametrize("raw,want", QUANTITY_VECTORS)
def test_quantity_canonical(raw: Any, want: str) -> None:
    assert canonical_quantity(raw) == want


# ---------------------------------------------------------------- legacy v1 (api/v1alpha1/legacy_worker_hash_test.go)


def _legacy(services: dict[str, Any] | None) -> dict[str, Any]:
    spec: dict[str, Any] = {} if services is None else {"services": services}
    return {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
            "metadata": {"name": "legacy-worker-hash", "namespace": "ns"}, "spec": spec}


def _legacy_base() -> dict[str, Any]:
    return {
        "frontend": {"componentType": "frontend", "envs": [{"name": "FRONTEND_ONLY", "value": "ignored"}]},
        "worker": {
            "componentType": "worker", "annotations": {"resource": "base"}, "labels": {"resource": "base"},
            "replicas": 2, "envs": [{"name": "MODEL", "value": "llama"}],
            "extraPodMetadata": {"labels": {"rollout": "base"}, "annotations": {"checksum/config": "base"}},
        },
    }


def _legacy_resource_metadata_changes() -> dict[str, Any]:
    s = _legacy_base()
    s["worker"].update({"annotations": {"resource": "changed"}, "labels": {"resource": "changed"}, "replicas": 99,
                        "ingress": {"enabled": True, "host": "changed.example.com"}})
    s["frontend"]["envs"] = [{"name": "FRONTEND_ONLY", "value": "changed"}]
    return s


def _legacy_pod_metadata_changes() -> dict[str, Any]:
    s = _legacy_base()
    s["worker"]["extraPodMetadata"] = {"labels": {"rollout": "changed"}, "annotations": {"checksum/config": "changed"}}
    return s


def _w(**fields: Any) -> dict[str, Any]:
    return {"worker": {"componentType": "worker", **fields}}


LEGACY_GOLDENS: list[tuple[str, dict[str, Any] | None, str]] = [
    ("worker", _legacy_base(), "9b66accc"),
    ("resource metadata and non-workers ignored", _legacy_resource_metadata_changes(), "9b66accc"),
    ("pod metadata included", _legacy_pod_metadata_changes(), "af8a6c60"),
    ("no workers", {"frontend": {"componentType": "frontend"}}, "44136fa3"),
    ("nil services", None, "44136fa3"),
    ("worker ordering", {
        "z-worker": {"componentType": "worker", "envs": [{"name": "Z", "value": "1"}]},
        "a-worker": {"componentType": "worker", "envs": [{"name": "A", "value": "1"}]},
    }, "59cae8b3"),
    ("all worker component types", {
        "decode": {"componentType": "decode", "envs": [{"name": "ROLE", "value": "decode"}]},
        "prefill": {"componentType": "prefill", "envs": [{"name": "ROLE", "value": "prefill"}]},
        "worker": {"componentType": "worker", "envs": [{"name": "ROLE", "value": "worker"}]},
    }, "b175ee30"),
    ("main container name only", _w(extraPodSpec={"mainContainer": {"name": "main"}}), "0c322ce0"),
    ("main container rich", _w(extraPodSpec={"mainContainer": {
        "name": "main", "image": "worker:1", "command": ["python", "-m", "server"], "args": ["--model", "qwen"],
        "env": [{"name": "EXTRA", "value": "true"}], "resources": {"requests": {"cpu": "2"}},
    }}), "9e64367a"),
    ("pod spec rich", _w(extraPodSpec={
        "nodeSelector": {"gpu": "true"},
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
        "volumes": [{"name": "cache", "emptyDir": {}}],
    }), "1fcd5d7c"),
    ("resources requests limits claims", _w(resources={
        "requests": {"cpu": "1", "memory": "4Gi", "gpu": "1", "gpuType": "nvidia.com/gpu"},
        "limits": {"cpu": "2", "memory": "8Gi", "gpu": "1"},
        "claims": [{"name": "gpu-claim"}],
    }), "a4172e4e"),
    ("envs volume mounts secret", _w(
        envs=[{"name": "MODEL", "value": "llama"}], envFromSecret="worker-secret",
        volumeMounts=[{"name": "models", "mountPoint": "/models", "useAsCompilationCache": True}],
        sharedMemory={"size": "2Gi"}, livenessProbe={"initialDelaySeconds": 5}, readinessProbe={"timeoutSeconds": 3},
    ), "a0ceefd2"),
    ("multiple compilation cache volume mounts", _w(volumeMounts=[
        {"name": "model-cache", "mountPoint": "/models", "useAsCompilationCache": True},
        {"name": "compile-cache", "mountPoint": "/compile", "useAsCompilationCache": True},
    ]), "5a3c0f65"),
    ("ignored scaling ingress model", _w(
        annotations={"ignored": "true"}, labels={"ignored": "true"}, replicas=3,
        autoscaling={"enabled": True, "minReplicas": 1, "maxReplicas": 10},
        ingress={"enabled": True, "host": "example.com"}, modelRef={"name": "model"}, scalingAdapter={"enabled": True},
    ), "769fa7c7"),
    ("multinode sidecar checkpoint", _w(
        multinode={"nodeCount": 2}, frontendSidecar={"image": "frontend:1", "args": ["--router-mode", "direct"]},
        checkpoint={"enabled": True},
    ), "bf66a8e3"),
    ("probe handler", _w(readinessProbe={"httpGet": {"path": "/health", "port": "http"}}), "8ddbbadc"),
]


@pytest.mark.parametrize("name,services,want", LEGACY_GOLDENS, ids=[c[0] for c in LEGACY_GOLDENS])
def test_legacy_v1_golden(name: str, services: dict[str, Any] | None, want: str) -> None:
    from dynamo_schema._render._workerhash import ALGORITHM_LEGACY_V1, compute_legacy_v1_hash

    obj = _legacy(copy.deepcopy(services))
    assert compute_legacy_v1_hash(obj) == want
    assert compute_worker_hash(obj, algorithm=ALGORITHM_LEGACY_V1) == want


def test_legacy_v1_selected_before_1_4() -> None:
    from dynamo_schema._render._workerhash import ALGORITHM_LEGACY_V1

    assert select_algorithm("1.3.0") == ALGORITHM_LEGACY_V1
    assert select_algorithm("1.2.1") == ALGORITHM_LEGACY_V1
    assert select_algorithm("1.1.0") == ALGORITHM_LEGACY_V1
    assert select_algorithm("1.4.0") == ALGORITHM_DCD


def test_legacy_v1_extra_pod_spec_marshal() -> None:
    # api/v1alpha1/common_test.go TestExtraPodSpec_MarshalJSON
    from dynamo_schema._render._hashjson import encode

    cases = [
        ({"mainContainer": {"name": "main"}}, '{"mainContainer":{"name":"main","resources":{}}}'),
        ({"nodeSelector": {"gpu": "true"}}, '{"nodeSelector":{"gpu":"true"}}'),
        ({"containers": []}, "{}"),
        ({"containers": [{"name": "sidecar"}]}, '{"containers":[{"name":"sidecar","resources":{}}]}'),
        ({"tolerations": [{"key": "nvidia.com/gpu"}]}, '{"tolerations":[{"key":"nvidia.com/gpu"}]}'),
        ({"nodeSelector": {"zone": "us-east"}, "mainContainer": {"name": "main"}},
         '{"nodeSelector":{"zone":"us-east"},"mainContainer":{"name":"main","resources":{}}}'),
        ({}, "{}"),
    ]
    for value, want in cases:
        assert go_marshal(encode(value, "AlphaExtraPodSpec")) == want


@pytest.mark.parametrize("name,services,want", LEGACY_GOLDENS, ids=[c[0] for c in LEGACY_GOLDENS])
def test_legacy_v1_after_v1beta1_round_trip(name: str, services: dict[str, Any] | None, want: str) -> None:
    # TestComputeDGDWorkersSpecHashConversionRoundTripStableSubset: v1alpha1 → v1beta1, then the
    # v1 hash of the v1beta1 DGD (converted back, as ComputeLegacyAlphaDGDWorkersSpecHash does)
    # equals the golden. Depends on dynamo_schema._convert._v1alpha1.
    from dynamo_schema._convert._v1alpha1 import to_v1beta1
    from dynamo_schema._render._workerhash import compute_legacy_v1_hash

    beta = to_v1beta1(_legacy(copy.deepcopy(services)))
    assert compute_legacy_v1_hash(beta) == want


def test_shape_only_render_is_the_real_render_with_a_zero_hash() -> None:
    """The reconcile check's shape-only render: the real render's objects, the worker hash (8 hex digits, as
    the operator's ``ComputeDGDWorkersSpecHash``) replaced by ``00000000``."""
    import json
    import re
    from pathlib import Path

    import yaml

    from dynamo_schema._render.targets._common import SHAPE_ONLY_HASH

    doc = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "vllm-disagg.yaml").read_text())
    real = render(doc, "grove", RenderOptions())
    shaped = render(doc, "grove", RenderOptions(worker_hash_algorithm=SHAPE_ONLY_HASH))
    hashes = {o["metadata"]["labels"]["nvidia.com/dynamo-worker-hash"] for o in real
              if "nvidia.com/dynamo-worker-hash" in (o["metadata"].get("labels") or {})}
    assert len(hashes) == 1
    hashed = hashes.pop()
    assert re.fullmatch("[0-9a-f]{8}", hashed) and hashed != "00000000"
    assert json.dumps(shaped, sort_keys=True) == json.dumps(real, sort_keys=True).replace(hashed, "00000000")


def test_the_shape_only_hash_is_not_offered() -> None:
    """``render --worker-hash`` and ``dynamo_schema.render(worker_hash_algorithm=…)`` take the operator's algorithms
    only: the reconcile check's shape-only value (zeros for the hash) is refused as any unknown name is, so no
    rendered object shown to a user carries a hash the operator never computes."""
    from pathlib import Path

    import yaml

    import dynamo_schema
    from dynamo_schema._render._workerhash import ALGORITHMS
    from dynamo_schema._render.targets._common import SHAPE_ONLY_HASH

    doc = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "vllm-disagg.yaml").read_text())
    known = "dcd-runtime-version, dcd, legacy-v1, rollout-v2"
    assert ", ".join(ALGORITHMS) == known
    for name in (SHAPE_ONLY_HASH, "".join(["-shape", "-only-"]), "bogus"):
        with pytest.raises(dynamo_schema.RenderError) as err:
            dynamo_schema.render(doc, worker_hash_algorithm=name)
        assert str(err.value) == f"unknown worker hash algorithm {name!r}; known: {known}"
        assert [d.rule for d in err.value.diagnostics] == ["render.worker-hash"]
    assert dynamo_schema.render(doc, worker_hash_algorithm="rollout-v2")  # a known one renders
